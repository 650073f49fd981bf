// Tanks with rigid bodies for the rigid fluid validation (Carlson 2004 ch. 5), built as an
// artist would (a liquid domain, an initial-volume emitter, Rigid Body objects: every other
// setting the app's default) and baked through the liquid family, frame by frame.
import type { SceneDocument, ParamValue, Vec3 } from '../../../src-shared/scene/types'
import { liquidDomain, sceneObject } from '../../../src-shared/scene/examples/build'
import { liquidFamily } from '../../../src-shared/sim/liquid/family'
import type { RigidBodyState } from '../../../src-shared/sim/frame'
import { wasmKernels } from '../bakeKernels'
import { surfaceInColumn } from '../surfaceColumn'

export interface BodySpec {
  id: string
  shape: 'box' | 'sphere' | 'cylinder'
  position: Vec3
  scale: Vec3
  relativeDensity: number
  params?: Record<string, ParamValue>
}

export interface TankOptions {
  /** Cells along the longest side. */
  resolution: number
  /** Domain size, m (centred at x = z = 0, floor at y = 0). */
  size: Vec3
  /** Water from the floor up to this height, m (0: no water). */
  waterLevel: number
  bodies: BodySpec[]
  gravity?: Vec3
  /** Extra domain settings. */
  domain?: Record<string, ParamValue>
  /** A liquid volume other than the floor layer (min, max corners). */
  water?: { min: Vec3; max: Vec3 }
}

export function tankScene(o: TankOptions): SceneDocument {
  const objects = [
    liquidDomain('domain', 'Tank', {
      position: [0, o.size[1] / 2, 0],
      size: o.size,
      resolution: o.resolution,
      meshSurface: false,
      ...(o.gravity ? { gravity: o.gravity } : {}),
      ...(o.domain ?? {}),
    }),
  ]
  const water = o.water ?? (o.waterLevel > 0 ? { min: [-o.size[0] / 2, 0, -o.size[2] / 2] as Vec3, max: [o.size[0] / 2, o.waterLevel, o.size[2] / 2] as Vec3 } : null)
  if (water) {
    objects.push(
      sceneObject('water', 'emitter', 'Water', {
        shape: 'box',
        fluid: 'liquid',
        behavior: 'geometry',
        position: [(water.min[0] + water.max[0]) / 2, (water.min[1] + water.max[1]) / 2, (water.min[2] + water.max[2]) / 2],
        scale: [water.max[0] - water.min[0], water.max[1] - water.min[1], water.max[2] - water.min[2]],
        velocity: [0, 0, 0],
      }),
    )
  }
  for (const b of o.bodies) {
    objects.push(sceneObject(b.id, 'rigidBody', b.id, { shape: b.shape, position: b.position, scale: b.scale, relativeDensity: b.relativeDensity, ...(b.params ?? {}) }))
  }
  return { meta: { name: 'tank', fps: 24, frameStart: 1, frameEnd: 1000 }, objects, tracks: [], meshes: [] }
}

export interface TankRun {
  /** Body states per frame, frame 1 first (index f - 1). */
  frames: RigidBodyState[][]
  /** Free-surface height away from the bodies per frame (waterLevel), when asked for. */
  levels: number[]
  /** Liquid marker momentum per frame (kg m/s), from the markers' velocities and the liquid volume they stand for. */
  liquidMomentum: Vec3[]
  /** Liquid marker angular momentum about the world origin per frame (kg m^2/s). */
  liquidAngularMomentum: Vec3[]
  /** Per frame, the box the liquid markers span (min, max corners), m. */
  liquidBounds: { min: Vec3; max: Vec3 }[]
  msPerFrame: number
  phases: Record<string, number>
}

/** Bakes frames 1..count+1 of the scene through the liquid family (as the bake runner does). */
export function runTank(doc: SceneDocument, frames: number, onFrame?: (f: number, bodies: RigidBodyState[]) => void, levelClear = 0): TankRun {
  const compiled = liquidFamily.compileSetup(doc, 'domain', wasmKernels())
  const solver = liquidFamily.create(compiled)
  const out: TankRun = { frames: [], levels: [], liquidMomentum: [], liquidAngularMomentum: [], liquidBounds: [], msPerFrame: 0, phases: {} }
  const g = compiled.setup.grid
  const markerVolume = g.dx ** 3 / compiled.setup.particlesPerCell
  const record = (f: number) => {
    const fd = solver.frame()
    const bodies = fd.rigidBodies ?? []
    out.frames.push(bodies)
    if (levelClear > 0) out.levels.push(waterLevel(fd, bodies, levelClear))
    const ps = fd.particles[0]
    const v = ps?.attributes.velocity?.data
    const p: Vec3 = [0, 0, 0]
    const L: Vec3 = [0, 0, 0]
    const x = ps?.positions
    const min: Vec3 = [Infinity, Infinity, Infinity], max: Vec3 = [-Infinity, -Infinity, -Infinity]
    if (ps && x) for (let q = 0; q < ps.count; q++) for (let d = 0; d < 3; d++) {
      min[d] = Math.min(min[d], x[3 * q + d])
      max[d] = Math.max(max[d], x[3 * q + d])
    }
    out.liquidBounds.push({ min, max })
    if (ps && v) for (let q = 0; q < ps.count; q++) {
      const m = 1000 * markerVolume
      for (let d = 0; d < 3; d++) p[d] += m * v[3 * q + d]
      if (x) {
        const rx = x[3 * q], ry = x[3 * q + 1], rz = x[3 * q + 2], vx = v[3 * q], vy = v[3 * q + 1], vz = v[3 * q + 2]
        L[0] += m * (ry * vz - rz * vy); L[1] += m * (rz * vx - rx * vz); L[2] += m * (rx * vy - ry * vx)
      }
    }
    out.liquidMomentum.push(p)
    out.liquidAngularMomentum.push(L)
    for (const [k, val] of Object.entries(fd.stats)) if (k.startsWith('ms')) out.phases[k] = (out.phases[k] ?? 0) + val
    onFrame?.(f, bodies)
  }
  record(1)
  const t0 = performance.now()
  for (let f = 1; f <= frames; f++) {
    const input = liquidFamily.compileInput(doc, 'domain', compiled, f)
    solver.step(input.frameDt, input)
    record(f + 1)
  }
  out.msPerFrame = (performance.now() - t0) / Math.max(1, frames)
  return out
}

/** The body's state by id in one frame. */
export function bodyIn(states: RigidBodyState[], id: string): RigidBodyState {
  const b = states.find((s) => s.id === id)
  if (!b) throw new Error(`no body ${id}`)
  return b
}

/** Quaternion (x, y, z, w) rotating body axes into world axes, applied to v. */
export function rotate(q: readonly number[], v: readonly number[]): Vec3 {
  const [x, y, z, w] = q
  const tx = 2 * (y * v[2] - z * v[1]), ty = 2 * (z * v[0] - x * v[2]), tz = 2 * (x * v[1] - y * v[0])
  return [v[0] + w * tx + (y * tz - z * ty), v[1] + w * ty + (z * tx - x * tz), v[2] + w * tz + (x * ty - y * tx)]
}

/**
 * Fraction of a body's volume below the plane y = level, exactly up to the box's lattice. A
 * sphere: the cap h^2 (3r - h) / (4 r^3), h = the depth of its lowest point below the level. A
 * box (scaled unit cube, posed by its state): a 64 x 64 lattice over two of its axes, and along
 * the third (the one nearest the vertical) the share of each segment below the plane, which is
 * exact because height is linear along it. (A 32^3 point lattice read any waterline within 5 mm
 * of a 0.3 m ball's centre as 0.5 and an upright cube in steps of 1/32.)
 */
export function submergedFraction(b: RigidBodyState, spec: BodySpec, level: number): number {
  if (spec.shape === 'sphere') {
    const r = spec.scale[0] / 2
    const h = Math.min(2 * r, Math.max(0, level - (b.position[1] - r)))
    return (h * h * (3 * r - h)) / (4 * r * r * r)
  }
  // The world height change along each local axis over the box's full extent.
  const axes = [0, 1, 2].map((a) => {
    const e = [0, 0, 0]
    e[a] = spec.scale[a]
    return rotate(b.orientation, e)[1]
  })
  const sizes = axes.map(Math.abs)
  const along = sizes.indexOf(Math.max(...sizes))
  const [p, q] = [0, 1, 2].filter((a) => a !== along)
  const n = 64
  // Each segment's height runs +-half about its middle.
  const half = Math.abs(axes[along]) / 2
  let below = 0
  for (let j = 0; j < n; j++) for (let i = 0; i < n; i++) {
    const mid = b.position[1] + ((i + 0.5) / n - 0.5) * axes[p] + ((j + 0.5) / n - 0.5) * axes[q]
    below += half > 0 ? Math.min(1, Math.max(0, (level - (mid - half)) / (2 * half))) : level > mid ? 1 : 0
  }
  return below / (n * n)
}

/**
 * Mean height of the free surface over the columns farther than `clear` m (horizontally) from
 * every body: the first upward sign change of the frame's liquid level set in each column.
 */
export function waterLevel(fd: { volumes: { name: string; dims: number[]; voxelSize: number; origin: number[]; data: Float32Array }[] }, bodies: RigidBodyState[], clear: number): number {
  const v = fd.volumes.find((x) => x.name === 'liquid')!
  const [nx, ny, nz] = v.dims
  const dx = v.voxelSize
  let sum = 0
  let count = 0
  for (let k = 0; k < nz; k++) for (let i = 0; i < nx; i++) {
    const x = v.origin[0] + (i + 0.5) * dx, z = v.origin[2] + (k + 0.5) * dx
    if (bodies.some((b) => Math.hypot(x - b.position[0], z - b.position[2]) < clear)) continue
    const j = surfaceInColumn(v.data, nx, ny, i, k)
    if (j === j) {
      sum += v.origin[1] + j * dx
      count++
    }
  }
  return sum / count
}
