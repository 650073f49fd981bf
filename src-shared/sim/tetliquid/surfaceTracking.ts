// Surface tracking by semi-Lagrangian contouring (seed 003 section 3.2; Strain 1999, 2001;
// Bargteil et al. 2006): the next surface's signed distance at a contouring node p is the
// current surface's signed distance at the point p came from,
//   f+(p) = f_t(p - back-trace of u_t over h),
// read from S_t's triangles near S_t (ContouredSurface.distance) and from the grid further
// out, then "modified to prevent penetration of obstacles" (max with minus the obstacles'
// distance, section 3.3.1) and, for inflow emitters, united with the emitter's shape.
// Marching cubes of f+ is S_{t+1}.
//
// The domain's walls are not cut in; they are mirrors. The grid has two layers of nodes beyond
// each wall: the mirror layer, one spacing beyond, copies the node one spacing inside (the
// liquid continues as its own mirror image beyond the wall, as a slip wall's flow does), and
// the padding layer beyond it is always outside, which closes S a cell and a half beyond the
// wall. The nodes on the wall itself are traced like any other. Cutting the box in as well put
// f = 0 on the wall's own nodes, and the re-distancing every step then ate the edge where the
// free surface meets a wall: a pool at rest lost 2.3% of its volume in 20 frames. With one
// layer beyond the wall, whose nodes copied the node inwards, the wall's nodes held the value
// one spacing inside: a film thinner than that running up a wall (the dam break's splash)
// vanished every step, and the contact line was forced to meet the wall at a right angle. The
// mesher cuts the box exactly (liquidMesh.ts) and the frame's surface is clamped to it.
// Beyond an open side the layer is traced like the inside: liquid flows through it and is
// closed off a cell and a half beyond the side, which is how it leaves the box (as a mirror,
// an open side held the liquid in like a wall).
//
// Only nodes the surface can reach are traced: a node whose |f_t| exceeds the distance the
// flow moves in h (max speed x h) plus the band of exact distances cannot change sign, so it
// keeps its sign and its magnitude drops by that distance (a lower bound on its true distance,
// so it is traced once the surface may come near). This is the narrow band of Bargteil et al.
import type { NodeGrid } from '../../geometry/marchingCubes'
import { PrimitiveSdf } from '../../geometry/primitiveSdf'
import type { EmitterInput } from '../solver'
import type { ContouredSurface, FieldBatch } from './contourGrid'
import type { MeshVelocity } from './meshVelocity'
import type { Solids } from './solids'
import type { TetLiquidVolume } from './tetLiquidSetup'
import type { TraceDistanceRow } from './traceDistanceRow'
import { liquidShare } from './volumeControl'

/**
 * d clamped to +-band. `band` is read through `+` on purpose: merged as it comes (a tagged
 * number) with d, V8 kept d boxed as a heap number, one allocation a node (about 0.4 GB of
 * garbage over a 4-frame dam break at resolution 96); `+band` is a plain float64.
 */
const clamp = (d: number, band: number) => {
  const b = +band
  return d > b ? b : d < -b ? -b : d
}

/** Whether node (i, j, k) is a padding node (the outermost layer: always outside the liquid). */
function padding(g: NodeGrid, i: number, j: number, k: number): boolean {
  return i === 0 || j === 0 || k === 0 || i === g.nx - 1 || j === g.ny - 1 || k === g.nz - 1
}

/** No side open: every wall a mirror. */
const ALL_CLOSED: readonly boolean[] = [false, false, false, false, false, false]

/**
 * Whether node (i, j, k) lies in the mirror layer beyond a closed wall (and is not padding):
 * one spacing beyond it. Beyond an open side the layer is traced like the inside, so liquid
 * flows out through it (and out of the box's volume) instead of meeting a mirror.
 */
function mirrored(g: NodeGrid, i: number, j: number, k: number, open: readonly boolean[]): boolean {
  return (i === 1 && !open[0]) || (i === g.nx - 2 && !open[1]) || (j === 1 && !open[2]) || (j === g.ny - 2 && !open[3]) || (k === 1 && !open[4]) || (k === g.nz - 2 && !open[5])
}

/**
 * Fills the mirror layer beyond each closed wall: each node one spacing beyond it takes the
 * value of its mirror image one spacing inside (index 1 <- 3, n - 2 <- n - 4), one axis after
 * the other, so the nodes beyond an edge or a corner of the box mirror across each wall in turn.
 */
function mirrorWallNodes(phi: Float32Array, g: NodeGrid, open: readonly boolean[]): void {
  const { nx, ny, nz } = g
  const stride = [1, nx, nx * ny]
  const dims = [nx, ny, nz]
  for (let a = 0; a < 3; a++) {
    const s = stride[a], na = dims[a]
    // The other two axes, b the slower; only their non-padding nodes.
    const b = a === 2 ? 1 : 2, c = a === 0 ? 1 : 0
    const sb = stride[b], sc = stride[c], nb = dims[b], nc = dims[c]
    // Each plane reads only the plane two spacings inwards at the same other coordinates, and
    // the low one is written before the high one, as a scan of the whole grid in index order
    // writes any pair of them: the same values as that scan, for the planes' nodes alone.
    for (const [layer, from] of [[1, 3], [na - 2, na - 4]]) {
      if (layer === 1 ? open[2 * a] : open[2 * a + 1]) continue
      for (let q = 1; q < nb - 1; q++) for (let r = 1; r < nc - 1; r++) {
        const n = layer * s + q * sb + r * sc
        phi[n] = phi[n + (from - layer) * s]
      }
    }
  }
}

/** The initial volumes' union sampled at every node, clamped to +-band. */
export function initialSurface(g: NodeGrid, band: number, volumes: readonly TetLiquidVolume[], open: readonly boolean[] = ALL_CLOSED): Float32Array {
  const phi = new Float32Array(g.nx * g.ny * g.nz)
  let n = 0
  for (let k = 0; k < g.nz; k++) for (let j = 0; j < g.ny; j++) for (let i = 0; i < g.nx; i++, n++) {
    if (padding(g, i, j, k)) {
      phi[n] = band
      continue
    }
    if (mirrored(g, i, j, k, open)) continue
    const x = g.origin[0] + i * g.h, y = g.origin[1] + j * g.h, z = g.origin[2] + k * g.h
    let d = band
    for (const v of volumes) d = Math.min(d, v.field.distance(x, y, z))
    phi[n] = clamp(d, band)
  }
  mirrorWallNodes(phi, g, open)
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
  /**
   * Volume control (volumeControl.ts): how far to move the traced surface outwards (m), before
   * emitters are united in and obstacles cut out. 0 or absent: none.
   */
  shift?: number
  /** When given, advanceSurface adds to `inflow` the volume (m^3) the emitters united in. */
  budget?: { inflow: number }
  /**
   * The traces' kernel row for this velocity, surface and dt (traceDistanceRow.ts): the back-traces
   * and S's distances in one batch on the kernels. Absent: the classes, point by point (the same bits).
   */
  trace?: TraceDistanceRow
}

/** A place for n xyz triples: in the kernels' memory when the row traces them (traceBatch reads them there). */
function pointBuffer(s: AdvanceSurfaceInput, n: number): Float64Array {
  return s.trace ? s.trace.triples(n) : new Float64Array(3 * n)
}

/**
 * S_t.distance(back-trace over dt) at the n points (xyz) of `points`, from pointBuffer, in one
 * batch: the row's, else the classes'.
 */
function traceBatch(s: AdvanceSurfaceInput, points: Float64Array, n: number, meanwhile?: () => void): ArrayLike<number> {
  if (s.trace) return s.trace.distances(points, n, meanwhile)
  meanwhile?.()
  const out = new Float64Array(n), back = new Float64Array(3)
  for (let i = 0; i < n; i++) {
    s.velocity.backtrace(points[3 * i], points[3 * i + 1], points[3 * i + 2], s.dt, back, 0)
    out[i] = s.surface.distance(back[0], back[1], back[2])
  }
  return out
}

/**
 * f_{t+1} at any point, as advanceSurface computes it at the nodes (without the far-field
 * shortcut): what contouring refines its vertices with. A batch (FieldBatch): the traces of all
 * the vertices go to the row at once.
 */
export function advancedDistance(s: AdvanceSurfaceInput): FieldBatch {
  const emitters = s.emitters.map((e) => new PrimitiveSdf(e.shape, e))
  const shift = s.shift ?? 0
  // max(d, clear) is d itself without obstacles; the call would box its arguments (see advanceSurface).
  const clearing = s.solids.hasObstacles
  return {
    at(points, n, meanwhile) {
      const at = pointBuffer(s, n)
      at.set(points.subarray(0, 3 * n))
      const traced = traceBatch(s, at, n, meanwhile)
      const out = new Float64Array(n)
      for (let i = 0; i < n; i++) {
        const x = points[3 * i], y = points[3 * i + 1], z = points[3 * i + 2]
        let d = traced[i]
        if (s.particles !== null) d = Math.min(d, s.particles(x, y, z))
        d -= shift
        for (const e of emitters) d = Math.min(d, e.distance(x, y, z))
        out[i] = clearing ? Math.max(d, s.solids.clear(x, y, z)) : d
      }
      return out
    },
  }
}

/** The nodes advanceSurface traces (in index order), their positions (in pointBuffer) and indices: see the file comment. */
function tracedNodes(s: AdvanceSurfaceInput, open: readonly boolean[], traced: number): { count: number; points: Float64Array; index: Int32Array } {
  const { phi, grid: g } = s
  let count = 0
  let n = 0
  for (let k = 0; k < g.nz; k++) for (let j = 0; j < g.ny; j++) for (let i = 0; i < g.nx; i++, n++) {
    if (!padding(g, i, j, k) && !mirrored(g, i, j, k, open) && !(Math.abs(phi[n]) > traced)) count++
  }
  const points = pointBuffer(s, count)
  const index = new Int32Array(count)
  let q = 0
  n = 0
  for (let k = 0; k < g.nz; k++) for (let j = 0; j < g.ny; j++) for (let i = 0; i < g.nx; i++, n++) {
    if (padding(g, i, j, k) || mirrored(g, i, j, k, open) || Math.abs(phi[n]) > traced) continue
    index[q / 3] = n
    points[q++] = g.origin[0] + i * g.h
    points[q++] = g.origin[1] + j * g.h
    points[q++] = g.origin[2] + k * g.h
  }
  return { count, points, index }
}

/**
 * advanceSurface's nodes the surface cannot reach in this substep, and the padding: the traced
 * nodes and the mirror layer are left as they are (the values advanceSurface's loop gives them).
 */
function fillUnreached(out: Float32Array, phi: Float32Array, g: NodeGrid, solids: Solids, band: number, traced: number, reach: number, shift: number): void {
  const clearing = solids.hasObstacles
  const { nx, ny, nz, h } = g
  const ox = g.origin[0], oy = g.origin[1], oz = g.origin[2]
  let n = 0
  for (let k = 0; k < nz; k++) for (let j = 0; j < ny; j++) for (let i = 0; i < nx; i++, n++) {
    if (padding(g, i, j, k)) {
      out[n] = band
      continue
    }
    const f = phi[n]
    if (mirrored(g, i, j, k, solids.open) || !(Math.abs(f) > traced)) continue
    const d = (f > 0 ? f - reach : f + reach) - shift
    out[n] = clamp(clearing ? Math.max(d, solids.clear(ox + i * h, oy + j * h, oz + k * h)) : d, band)
  }
}

/** f_{t+1} at the nodes (a new array). */
export function advanceSurface(s: AdvanceSurfaceInput): Float32Array {
  const { phi, grid: g, band, velocity, dt, solids } = s
  const out = new Float32Array(phi.length)
  const reach = velocity.maxSpeed() * dt
  // Beyond this |f_t| a node cannot change sign in this substep (see the file comment).
  const traced = reach + 2 * g.h
  const emitters = s.emitters.map((e) => new PrimitiveSdf(e.shape, e))
  const shift = s.shift ?? 0
  const h3 = g.h * g.h * g.h
  const nodes = tracedNodes(s, solids.open, traced)
  // max(d, clear) is d itself without obstacles. Asked anyway, the call (not inlined) boxed its
  // three coordinates and its result as heap numbers at every node: a third of a GB of garbage
  // over a 4-frame dam break at resolution 96.
  const clearing = solids.hasObstacles
  if (emitters.length === 0) {
    // Without emitters no node's value depends on another's (no inflow sum in node order), so
    // the nodes the surface cannot reach, most of the grid, are done on this thread while the
    // kernels' other threads trace the rest; then the traced ones. The same values.
    const values = traceBatch(s, nodes.points, nodes.count, () => fillUnreached(out, phi, g, solids, band, traced, reach, shift))
    const { nx, ny } = g
    for (let q = 0; q < nodes.count; q++) {
      const n = nodes.index[q]
      const i = n % nx, j = ((n - i) / nx) % ny, k = (n - i - nx * j) / (nx * ny)
      const x = g.origin[0] + i * g.h, y = g.origin[1] + j * g.h, z = g.origin[2] + k * g.h
      let d = values[q]
      if (s.particles !== null) d = Math.min(d, s.particles(x, y, z))
      d -= shift
      out[n] = clamp(clearing ? Math.max(d, solids.clear(x, y, z)) : d, band)
    }
    mirrorWallNodes(out, g, solids.open)
    return out
  }
  const values = traceBatch(s, nodes.points, nodes.count)
  let inflow = 0
  let n = 0, q = 0
  for (let k = 0; k < g.nz; k++) for (let j = 0; j < g.ny; j++) for (let i = 0; i < g.nx; i++, n++) {
    if (padding(g, i, j, k)) {
      out[n] = band
      continue
    }
    if (mirrored(g, i, j, k, solids.open)) continue
    const x = g.origin[0] + i * g.h, y = g.origin[1] + j * g.h, z = g.origin[2] + k * g.h
    const f = phi[n]
    let d: number
    if (Math.abs(f) > traced) d = f > 0 ? f - reach : f + reach
    else {
      d = values[q++]
      if (s.particles !== null) d = Math.min(d, s.particles(x, y, z))
    }
    d -= shift
    if (emitters.length > 0) {
      const traced = d
      for (const e of emitters) d = Math.min(d, e.distance(x, y, z))
      if (d < traced) inflow += (liquidShare(d, g.h) - liquidShare(traced, g.h)) * h3
    }
    out[n] = clamp(clearing ? Math.max(d, solids.clear(x, y, z)) : d, band)
  }
  mirrorWallNodes(out, g, solids.open)
  if (s.budget) s.budget.inflow += inflow
  return out
}
