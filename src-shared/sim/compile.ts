// Scene document -> solver input, the part every family shares (DESIGN.md, "data flows one
// way"): reading and checking parameters against their specs, the grid of a domain, mesh
// SDFs, and compileCommonInput: the clock, CFL and substep limits, obstacles and emitters,
// evaluated at animation time t (frame = 1 + t fps, so frame 1 is t = 0), with transform
// velocities from a finite difference over one frame (t -> t + 1/fps) of the keyframes.
// Each family adds its own setup and payload (smoke/compileSmoke.ts, liquid/compileLiquid.ts).
// Meshes come from a resolver callback so this file never touches the project store.
import type { EmitterVortexInput, VortexDirectionMode, VortexSeedInput } from './core/vortexSeeding'
import { EddyError } from '../api/errors'
import { isClosedSurface } from '../geometry/closedSurface'
import type { PrimitiveShape } from '../geometry/primitiveSdf'
import { MeshSdf } from '../geometry/signedDistance'
import type { TriMesh } from '../geometry/triMesh'
import { evaluateObject } from '../scene/keyframes'
import { kindLabel, type ParamSpec, specFor } from '../scene/specs'
import type { ObjectKind, ParamValue, SceneDocument, SceneObject, Vec3 } from '../scene/types'
import { validateParam } from '../scene/validate'
import type { DomainSides } from './core/boundaries'
import type { GridSpec } from './core/grid'
import type { KernelBackend } from './core/kernelBackend'
import type { EmitterInput, ObstacleInput, SimInput } from './solver'
import { angularVelocityFromEuler } from './transformRates'

/** Returns the triangles of an imported mesh, or undefined when there is no such mesh. */
export type MeshResolver = (meshId: string) => TriMesh | undefined

/**
 * Mesh SDFs by mesh id, built once (BVH + winding-number tree) and reused by every
 * compileInput of a bake.
 */
export class MeshSdfCache {
  private readonly sdfs = new Map<string, MeshSdf>()
  constructor(private readonly resolve?: MeshResolver) {}

  get(obj: SceneObject): MeshSdf {
    const meshId = obj.meshId
    const where = `${kindLabel(obj.kind)} "${obj.name}"`
    if (!meshId) throw new EddyError('INVALID_PARAM', `${where} has shape Mesh but no mesh`, { objectId: obj.id, field: 'meshId' })
    const hit = this.sdfs.get(meshId)
    if (hit) return hit
    const mesh = this.resolve?.(meshId)
    if (!mesh) throw new EddyError('NOT_FOUND', `${where}: its mesh ${meshId} is not in the project`, { objectId: obj.id, field: 'meshId', meshId })
    let sdf: MeshSdf
    try {
      sdf = new MeshSdf(mesh, { name: `mesh of ${where}` })
    } catch (e) {
      if (e instanceof EddyError) throw new EddyError('INVALID_PARAM', `${where}: ${e.message}`, { ...e.details, objectId: obj.id, field: 'meshId', meshId })
      throw e
    }
    this.sdfs.set(meshId, sdf)
    return sdf
  }
}

export interface CompileOptions {
  /** Needed when the scene has mesh obstacles. */
  resolveMesh?: MeshResolver
  /** Allocate fields on SharedArrayBuffer (worker-parallel kernels). */
  shared?: boolean
  /** Kernel backend for the grid kernels (default: TypeScript reference kernels). */
  kernels?: KernelBackend
  /** Cap on live vortex particles; default 1,000,000. */
  maxParticles?: number
  /** Memory ceiling for the grid, bytes; default 4 GiB. */
  maxBytes?: number
  /** Liquid: the viscous solve's preconditioner (benchmarks compare them); default 'auto'. */
  viscousPreconditioner?: 'auto' | 'multigrid' | 'jacobi' | 'ic'
  /** The liquid's pressure preconditioner (liquidInput.ts PressurePreconditioner); default 'auto'. */
  pressurePreconditioner?: 'auto' | 'multigrid' | 'mic'
}

export interface InputOptions {
  /** Mesh SDFs for mesh obstacles (SmokeSetup.meshes); else built from resolveMesh per call. */
  meshes?: MeshSdfCache
  resolveMesh?: MeshResolver
}

// ---------------------------------------------------------------------------------------

export function fail(obj: SceneObject, key: string, message: string, value: unknown): never {
  throw new EddyError('INVALID_PARAM', `${kindLabel(obj.kind)} "${obj.name}": ${message}`, { objectId: obj.id, field: key, value })
}

/** A parameter read from evaluated params (or its default), checked against its spec. */
function read(obj: SceneObject, params: Record<string, ParamValue>, key: string): ParamValue {
  const spec: ParamSpec | undefined = specFor(obj.kind, key)
  if (!spec) throw new EddyError('INTERNAL', `no parameter spec for ${obj.kind}.${key}`)
  const value = Object.hasOwn(params, key) ? params[key] : spec.default
  const problem = validateParam(spec, value)
  if (problem) fail(obj, key, problem, value)
  return value
}

export const num = (o: SceneObject, p: Record<string, ParamValue>, k: string) => read(o, p, k) as number
export const vec = (o: SceneObject, p: Record<string, ParamValue>, k: string): Vec3 => {
  const v = read(o, p, k) as Vec3
  return [v[0], v[1], v[2]]
}
export const str = (o: SceneObject, p: Record<string, ParamValue>, k: string) => read(o, p, k) as string
export const bool = (o: SceneObject, p: Record<string, ParamValue>, k: string) => read(o, p, k) as boolean

export function findDomain(doc: SceneDocument, domainId: string): SceneObject {
  const domain = doc.objects.find((o) => o.id === domainId)
  if (!domain) throw new EddyError('NOT_FOUND', `There is no domain with id ${domainId}`, { field: 'domainId', value: domainId })
  if (domain.kind !== 'domain') {
    throw new EddyError('INVALID_PARAM', `"${domain.name}" is a ${kindLabel(domain.kind)}, not a simulation domain`, { objectId: domainId, field: 'domainId' })
  }
  return domain
}

export function checkClock(timeSeconds: number, fps: number): void {
  if (typeof fps !== 'number' || !Number.isFinite(fps) || fps <= 0) {
    throw new EddyError('INVALID_PARAM', `Frame rate must be a finite number above 0 (got ${fps})`, { field: 'fps', value: fps })
  }
  if (typeof timeSeconds !== 'number' || !Number.isFinite(timeSeconds)) {
    throw new EddyError('INVALID_PARAM', `Simulation time must be a finite number (got ${timeSeconds})`, { field: 'time', value: timeSeconds })
  }
}

/** The grid of a domain: `resolution` cells along its longest side, the others rounded. */
export function domainGrid(position: Vec3, size: Vec3, resolution: number): GridSpec {
  const longest = Math.max(size[0], size[1], size[2])
  const dx = longest / resolution
  const n = size.map((s) => Math.max(1, Math.round(s / dx))) as Vec3
  // Centred on the domain's position; the extent is n dx (within half a cell of `size`).
  return { nx: n[0], ny: n[1], nz: n[2], dx, origin: [position[0] - 0.5 * n[0] * dx, position[1] - 0.5 * n[1] * dx, position[2] - 0.5 * n[2] * dx] }
}

/** Open or closed sides of a domain (its Boundary settings). */
export function domainSides(domain: SceneObject, p: Record<string, ParamValue>): DomainSides {
  const side = (key: string) => (bool(domain, p, key) ? 'open' : 'closed')
  return { xMin: side('openXMin'), xMax: side('openXMax'), yMin: side('openYMin'), yMax: side('openYMax'), zMin: side('openZMin'), zMax: side('openZMax') }
}

function compileObstacle(obj: SceneObject, p0: Record<string, ParamValue>, p1: Record<string, ParamValue>, perSecond: number, dtSim: number, opts: InputOptions): ObstacleInput {
  const shape = str(obj, p0, 'shape') as ObstacleInput['shape']
  const position = vec(obj, p0, 'position')
  const rotation = vec(obj, p0, 'rotation')
  const scale = vec(obj, p0, 'scale')
  const position1 = vec(obj, p1, 'position')
  const rotation1 = vec(obj, p1, 'rotation')
  const scale1 = vec(obj, p1, 'scale')
  const rate = (a: Vec3, b: Vec3): Vec3 => [(b[0] - a[0]) * perSecond, (b[1] - a[1]) * perSecond, (b[2] - a[2]) * perSecond]
  let mesh: MeshSdf | null = null
  if (shape === 'mesh') {
    const cache = opts.meshes ?? new MeshSdfCache(opts.resolveMesh)
    mesh = cache.get(obj)
  }
  const positionRate = rate(position, position1)
  return {
    id: obj.id,
    name: obj.name,
    shape,
    position,
    rotation,
    scale,
    positionRate,
    rotationRate: rate(rotation, rotation1),
    scaleRate: rate(scale, scale1),
    linearVelocity: positionRate,
    angularVelocity: angularVelocityFromEuler(rotation, rotation1, dtSim),
    mesh,
    meshId: shape === 'mesh' ? (obj.meshId ?? null) : null,
  }
}

/** A liquid emitter whose behaviour is 'geometry': liquid that fills its shape at the start. */
export function isInitialVolume(obj: SceneObject, p: Record<string, ParamValue>): boolean {
  return obj.kind === 'emitter' && str(obj, p, 'fluid') === 'liquid' && str(obj, p, 'behavior') === 'geometry'
}

/**
 * The local-space signed distance of an initial-volume emitter's mesh, refused by name when the
 * mesh is not closed (an initial liquid volume needs a watertight mesh). Both liquids read it.
 */
export function initialVolumeMesh(obj: SceneObject, meshes: MeshSdfCache, opts: CompileOptions): MeshSdf {
  const tri = obj.meshId ? opts.resolveMesh?.(obj.meshId) : undefined
  if (tri && !isClosedSurface(tri)) {
    fail(obj, 'meshId', 'its mesh is not closed (it has holes or open edges); an initial liquid volume needs a watertight mesh', obj.meshId)
  }
  return meshes.get(obj)
}

/** The common view of an emitter at one time (shared by every family that reads emitters). */
export function compileEmitter(obj: SceneObject, p: Record<string, ParamValue>): EmitterInput {
  if (str(obj, p, 'shape') === 'mesh') {
    fail(obj, 'shape', 'A mesh emitter fills an initial liquid volume: set Fluid to Liquid and Behaviour to Initial volume (inflow takes a box, sphere or cylinder)', 'mesh')
  }
  return {
    id: obj.id,
    name: obj.name,
    shape: str(obj, p, 'shape') as PrimitiveShape,
    position: vec(obj, p, 'position'),
    rotation: vec(obj, p, 'rotation'),
    scale: vec(obj, p, 'scale'),
    fluid: str(obj, p, 'fluid') === 'liquid' ? 'liquid' : 'gas',
    density: num(obj, p, 'density'),
    temperature: num(obj, p, 'temperature'),
    velocity: vec(obj, p, 'velocity'),
    rate: num(obj, p, 'rate'),
  }
}

/**
 * A family's view of each emitter: the common EmitterInput, widened with what the family reads
 * from the emitter's own parameters (the smoke's vortex seeding).
 */
export type WidenEmitter<E extends EmitterInput> = (obj: SceneObject, params: Record<string, ParamValue>, base: EmitterInput) => E

/**
 * The part of the input every family reads at animation time `timeSeconds`: clock, CFL and
 * substep limits, obstacles, and the emitters that act over time (initial liquid volumes act
 * once, at the start: liquid/compileLiquid.ts). `family` is the caller's payload.
 */
export function compileCommonInput<P, E extends EmitterInput>(
  doc: SceneDocument,
  domainId: string,
  timeSeconds: number,
  fps: number,
  opts: InputOptions,
  family: P,
  widen: WidenEmitter<E>,
): SimInput<P, E> {
  checkClock(timeSeconds, fps)
  const domain = findDomain(doc, domainId)
  const frame = 1 + timeSeconds * fps
  const p = evaluateObject(domain, doc.tracks, frame)
  const timeScale = num(domain, p, 'timeScale')
  const minSubsteps = num(domain, p, 'minSubsteps')
  const maxSubsteps = num(domain, p, 'maxSubsteps')
  if (minSubsteps > maxSubsteps) fail(domain, 'minSubsteps', `Min substeps (${minSubsteps}) must not exceed Max substeps (${maxSubsteps})`, minSubsteps)
  const frameDt = timeScale / fps
  // The grid is fixed at the bake's first frame, but keyed values are still checked here.
  vec(domain, p, 'position')
  vec(domain, p, 'size')
  // Transform channels change by (p(frame + 1) - p(frame)) per frame = frameDt simulated seconds.
  const perSecond = frameDt > 0 ? 1 / frameDt : 0
  const input: SimInput<P, E> = { time: timeSeconds, frame, fps, timeScale, frameDt, cfl: num(domain, p, 'cfl'), minSubsteps, maxSubsteps, obstacles: [], emitters: [], family }
  for (const obj of doc.objects) {
    if (obj.kind === 'obstacle') {
      const p0 = evaluateObject(obj, doc.tracks, frame)
      const p1 = evaluateObject(obj, doc.tracks, frame + 1)
      input.obstacles.push(compileObstacle(obj, p0, p1, perSecond, frameDt, opts))
    } else if (obj.kind === 'emitter') {
      const pe = evaluateObject(obj, doc.tracks, frame)
      if (isInitialVolume(obj, pe)) continue
      input.emitters.push(widen(obj, pe, compileEmitter(obj, pe)))
    }
  }
  return input
}

/**
 * The domain settings both gases read alike at each time: vorticity confinement, buoyancy
 * (Fedkiw 2001: alpha per unit density, beta per kelvin above the ambient) and dissipation.
 */
export function compileGasForces(domain: SceneObject, p: Record<string, ParamValue>) {
  return {
    vorticity: num(domain, p, 'vorticity'),
    buoyancy: { alpha: num(domain, p, 'buoyancyAlpha'), beta: num(domain, p, 'buoyancyBeta'), ambientTemperature: num(domain, p, 'ambientTemperature') },
    dissipation: { density: num(domain, p, 'densityDissipation'), temperature: num(domain, p, 'temperatureDissipation') },
  }
}

/** An emitter's vortex-particle seeding (Selle 2005 sec. 6), read by both gases. */
export function compileEmitterVortex(obj: SceneObject, p: Record<string, ParamValue>): EmitterVortexInput {
  return {
    rate: num(obj, p, 'vortexRate'),
    strength: num(obj, p, 'vortexStrength'),
    radiusCells: num(obj, p, 'vortexRadius'),
    direction: str(obj, p, 'vortexDirection') as VortexDirectionMode,
  }
}

/** A vortex-seed object at one time; its direction normalised, the zero vector refused by name. */
export function compileVortexSeed(obj: SceneObject, p: Record<string, ParamValue>): VortexSeedInput {
  const d = vec(obj, p, 'direction')
  const len = Math.hypot(d[0], d[1], d[2])
  if (!(len >= 1e-6)) fail(obj, 'direction', `Direction must not be the zero vector (got [${d.join(', ')}])`, d)
  return {
    id: obj.id,
    name: obj.name,
    position: vec(obj, p, 'position'),
    radius: num(obj, p, 'radius'),
    direction: [d[0] / len, d[1] / len, d[2] / len],
    strength: num(obj, p, 'strength'),
    particleCount: num(obj, p, 'particleCount'),
  }
}

/** For families whose emitters carry nothing of their own. */
export const plainEmitter: WidenEmitter<EmitterInput> = (_obj, _p, base) => base
