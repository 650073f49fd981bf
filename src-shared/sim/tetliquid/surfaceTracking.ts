// Surface tracking by semi-Lagrangian contouring (seed 003 section 3.2; Strain 1999, 2001;
// Bargteil et al. 2006): the next surface's signed distance at a contouring node p is the
// current surface's signed distance at the point p came from,
//   f+(p) = f_t(p - back-trace of u_t over h),
// read from S_t's triangles near S_t (ContouredSurface.distance) and from the grid further
// out, then "modified to prevent penetration of obstacles" (max with minus the obstacles'
// distance, section 3.3.1) and, for inflow emitters, united with the emitter's shape.
// Marching cubes of f+ is S_{t+1}.
//
// The domain's walls are not cut in: the padding nodes beyond them are always outside, and the
// back-traces along a wall follow its slip velocity. Cutting the box in as well put f = 0 on
// the wall's own nodes, and the re-distancing every step then ate the edge where the free
// surface meets a wall: a pool at rest with no velocity at all lost 2.3% of its volume in 20
// frames, its contact line sinking a whole grid cell. Without the cut the surface meets the
// wall within a small fraction of a cell beyond it (the wall's nodes converge to tiny negative
// values), and the mesher cuts the box exactly (liquidMesh.ts). The nodes on the box's own
// planes then copy the node one cell inwards (the level set meets the wall at a right angle):
// left to themselves they tend to 0 (the surface closes just beyond them), and marching cubes
// then puts the contact line on the wall at the last node below the water line: a pool at rest
// lost 1.4% of its volume in a wedge along its walls in its first frames.
//
// Only nodes the surface can reach are traced: a node whose |f_t| exceeds the distance the
// flow moves in h (max speed x h) plus the band of exact distances cannot change sign, so it
// keeps its sign and its magnitude drops by that distance (a lower bound on its true distance,
// so it is traced once the surface may come near). This is the narrow band of Bargteil et al.
import type { NodeGrid } from '../../geometry/marchingCubes'
import { PrimitiveSdf } from '../../geometry/primitiveSdf'
import type { EmitterInput } from '../solver'
import type { ContouredSurface } from './contourGrid'
import type { MeshVelocity } from './meshVelocity'
import type { Solids } from './solids'
import type { TetLiquidVolume } from './tetLiquidSetup'

const clamp = (d: number, band: number) => (d > band ? band : d < -band ? -band : d)

/** Whether node (i, j, k) is a padding node (outside the domain: always outside the liquid). */
function padding(g: NodeGrid, i: number, j: number, k: number): boolean {
  return i === 0 || j === 0 || k === 0 || i === g.nx - 1 || j === g.ny - 1 || k === g.nz - 1
}

/** Copies into each node on the box's planes (index 1 or n - 2 on an axis) its inward neighbour's value. */
function mirrorWallNodes(phi: Float32Array, g: NodeGrid): void {
  const { nx, ny, nz } = g
  let n = 0
  for (let k = 0; k < nz; k++) for (let j = 0; j < ny; j++) for (let i = 0; i < nx; i++, n++) {
    if (padding(g, i, j, k)) continue
    const si = i === 1 ? 1 : i === nx - 2 ? -1 : 0
    const sj = j === 1 ? 1 : j === ny - 2 ? -1 : 0
    const sk = k === 1 ? 1 : k === nz - 2 ? -1 : 0
    if (si === 0 && sj === 0 && sk === 0) continue
    phi[n] = phi[n + si + nx * (sj + ny * sk)]
  }
}

/** The initial volumes' union sampled at every node, clamped to +-band. */
export function initialSurface(g: NodeGrid, band: number, volumes: readonly TetLiquidVolume[]): Float32Array {
  const phi = new Float32Array(g.nx * g.ny * g.nz)
  let n = 0
  for (let k = 0; k < g.nz; k++) for (let j = 0; j < g.ny; j++) for (let i = 0; i < g.nx; i++, n++) {
    if (padding(g, i, j, k)) {
      phi[n] = band
      continue
    }
    const x = g.origin[0] + i * g.h, y = g.origin[1] + j * g.h, z = g.origin[2] + k * g.h
    let d = band
    for (const v of volumes) d = Math.min(d, v.field.distance(x, y, z))
    phi[n] = clamp(d, band)
  }
  mirrorWallNodes(phi, g)
  return phi
}

export interface AdvanceSurfaceInput {
  /** f_t at the nodes (read only). */
  phi: Float32Array
  grid: NodeGrid
  band: number
  surface: ContouredSurface
  velocity: MeshVelocity
  dt: number
  solids: Solids
  /** Liquid inflow emitters acting in this substep. */
  emitters: readonly EmitterInput[]
  /** Surface thickening's particle surface (thickening.ts), united in near the surface; or null. */
  particles: ((x: number, y: number, z: number) => number) | null
}

/**
 * f_{t+1} at any point, as advanceSurface computes it at the nodes (without the far-field
 * shortcut): what contouring refines its vertices with.
 */
export function advancedDistance(s: AdvanceSurfaceInput): (x: number, y: number, z: number) => number {
  const emitters = s.emitters.map((e) => new PrimitiveSdf(e.shape, e))
  const back = new Float64Array(3)
  return (x, y, z) => {
    s.velocity.backtrace(x, y, z, s.dt, back, 0)
    let d = s.surface.distance(back[0], back[1], back[2])
    if (s.particles !== null) d = Math.min(d, s.particles(x, y, z))
    for (const e of emitters) d = Math.min(d, e.distance(x, y, z))
    return Math.max(d, s.solids.clear(x, y, z))
  }
}

/** f_{t+1} at the nodes (a new array). */
export function advanceSurface(s: AdvanceSurfaceInput): Float32Array {
  const { phi, grid: g, band, surface, velocity, dt, solids } = s
  const out = new Float32Array(phi.length)
  const reach = velocity.maxSpeed() * dt
  // Beyond this |f_t| a node cannot change sign in this substep (see the file comment).
  const traced = reach + 2 * g.h
  const emitters = s.emitters.map((e) => new PrimitiveSdf(e.shape, e))
  const back = new Float64Array(3)
  let n = 0
  for (let k = 0; k < g.nz; k++) for (let j = 0; j < g.ny; j++) for (let i = 0; i < g.nx; i++, n++) {
    if (padding(g, i, j, k)) {
      out[n] = band
      continue
    }
    const x = g.origin[0] + i * g.h, y = g.origin[1] + j * g.h, z = g.origin[2] + k * g.h
    const f = phi[n]
    let d: number
    if (Math.abs(f) > traced) d = f > 0 ? f - reach : f + reach
    else {
      velocity.backtrace(x, y, z, dt, back, 0)
      d = surface.distance(back[0], back[1], back[2])
      if (s.particles !== null) d = Math.min(d, s.particles(x, y, z))
    }
    for (const e of emitters) d = Math.min(d, e.distance(x, y, z))
    out[n] = clamp(Math.max(d, solids.clear(x, y, z)), band)
  }
  mirrorWallNodes(out, g)
  return out
}
