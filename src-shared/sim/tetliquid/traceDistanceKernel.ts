// Semi-Lagrangian contouring's hot loop as a kernel-table row (seed 003 section 3.2): for each
// point p, S_t's signed distance at the point p came from,
//   f+(p) = S_t.distance(MeshVelocity.backtrace(p, dt)),
// the midpoint (second-order Runge-Kutta) path back through M_t's fast field, then the
// exact-near-the-surface distance with the Phong lift (contourGrid.ts). This is what
// advanceSurface computes at every node the surface can reach and what contouring refines its
// vertices with: about a third of a dam break's run, on one thread in TypeScript before. A
// second row traces the new mesh's face barycentres back the same way and reads the accurate
// field at the end (MeshVelocity.accurate): the velocity advection of seed 003 eq. 3.
//
// The TypeScript reference below runs the classes' arithmetic over flat arrays (the same
// helpers where the classes have them: the tree search, the triangle's closest point, the
// barycentric coordinates, the pseudo-normal test, the Phong lift), and its AssemblyScript twin
// (wasm/assembly/tetLiquidTrace.ts) the same operations in the same order, so each point's
// value is the classes' bits on either side and on any split over threads. The locator's cache
// of its last answer is kept per thread: its answer and weights are the index search's
// whatever the cache holds (TetLocator.locate's argument), so which thread traced what before
// changes nothing.
import type { NodeGrid } from '../../geometry/marchingCubes'
import { bvhClosestPoint, HIT_DISTANCE, HIT_REGION, HIT_SIZE, HIT_X, HIT_Y, HIT_Z } from '../../geometry/bvh'
import { pseudoNormalDot, type PseudoNormals } from '../../geometry/pseudoNormals'
import { barycentricCoordinates } from '../../geometry/tetmesh/tetBarycentric'
import { indexCellAt, outsideBox } from '../../geometry/tetmesh/tetLocator'
import { defineKernel, f64, type KernelArgs, scratch, size, struct } from '../core/kernelTable'
import { interpolateInTet } from '../core/tetfv/tetInterpolation'
import { phongLift, sampleNodes } from './contourGrid'
import { clampToTetVertices, type ExtrapolationGrid, extrapolatedAt } from './meshVelocity'

/** M_t's arrays the row reads (the twin receives them as consecutive pointers, in this order). */
export interface TraceVelocityArrays {
  positions: Float64Array
  /** 4 vertices per tetrahedron. */
  tets: Int32Array
  /** The fast field's vertex vectors (3 per vertex). */
  vertexVelocity: Float64Array
  /** TetLocator's index: each cell's tetrahedra (CSR) and the padded boxes (6 per tetrahedron). */
  cellStart: Int32Array
  cellTets: Int32Array
  boxes: Float64Array
  /** The tree over M_t's boundary faces (TriangleBvh's arrays) and each boundary triangle's tetrahedron. */
  bBounds: Float32Array
  bInfo: Int32Array
  bOrder: Int32Array
  bVerts: Float32Array
  bTet: Int32Array
  /** The extrapolation grid's vectors (3 per node). */
  ext: Float64Array
}

export const TRACE_VELOCITY_FIELDS = {
  positions: 'f64', tets: 'i32', vertexVelocity: 'f64', cellStart: 'i32', cellTets: 'i32', boxes: 'f64',
  bBounds: 'f32', bInfo: 'i32', bOrder: 'i32', bVerts: 'f32', bTet: 'i32', ext: 'f64',
} as const

/** S_t's arrays the row reads (consecutive pointers, in this order). */
export interface TraceSurfaceArrays {
  /** f_t at the contouring grid's nodes. */
  phi: Float32Array
  /** The tree over S_t's triangles (TriangleBvh's arrays). */
  sBounds: Float32Array
  sInfo: Int32Array
  sOrder: Int32Array
  sVerts: Float32Array
  /** S_t's vertices, triangles and unit vertex normals (the Phong lift). */
  positions: Float32Array
  indices: Int32Array
  normals: Float32Array
  /** S_t's pseudo-normals (the distance's sign). */
  pnFace: Float32Array
  pnEdge: Float32Array
  pnVertex: Float32Array
}

export const TRACE_SURFACE_FIELDS = {
  phi: 'f32', sBounds: 'f32', sInfo: 'i32', sOrder: 'i32', sVerts: 'f32', positions: 'f32', indices: 'i32', normals: 'f32',
  pnFace: 'f32', pnEdge: 'f32', pnVertex: 'f32',
} as const

/**
 * The accurate field's arrays (MeshVelocity.accurate: the holding tetrahedron's Whitney field):
 * per tetrahedron its four faces and their areas signed by the face's orientation in it (sign x
 * area is exact, so the flux sign x area x u has the class's bits), the face velocities, the
 * volumes.
 */
export interface TraceAccurateArrays {
  tetFaces: Int32Array
  tetFaceAreas: Float64Array
  u: Float64Array
  volumes: Float64Array
}

export const TRACE_ACCURATE_FIELDS = { tetFaces: 'i32', tetFaceAreas: 'f64', u: 'f64', volumes: 'f64' } as const

/** Places in the row's `params` (float64). */
export const TD_DT = 0
/** 1 when M_t has tetrahedra (its locator), 1 when it has boundary faces (their tree), 1 when S_t has triangles. */
export const TD_HAS_TETS = 1
export const TD_HAS_BOUNDARY = 2
export const TD_HAS_SURFACE = 3
/** MeshVelocity's nearby extension: how far outside M_t its boundary's field is read. */
export const TD_REACH = 4
/** The locator's index grid: origin, cells per axis, 1 / cell edge. */
export const TD_IOX = 5
export const TD_IOY = 6
export const TD_IOZ = 7
export const TD_INX = 8
export const TD_INY = 9
export const TD_INZ = 10
export const TD_INV_CELL = 11
/** The extrapolation grid: origin, spacing, nodes per axis. */
export const TD_EOX = 12
export const TD_EOY = 13
export const TD_EOZ = 14
export const TD_EH = 15
export const TD_ENX = 16
export const TD_ENY = 17
export const TD_ENZ = 18
/** The contouring grid: origin, spacing, nodes per axis, and the band its values are clamped to. */
export const TD_GOX = 19
export const TD_GOY = 20
export const TD_GOZ = 21
export const TD_GH = 22
export const TD_GNX = 23
export const TD_GNY = 24
export const TD_GNZ = 25
export const TD_BAND = 26
/** Entries of a tree search's stack: the deeper tree's maxDepth + 2. */
export const TD_STACK = 27
export const TRACE_DISTANCE_PARAMS = 28

/** The reference's per-call state (the twin keeps these in its per-thread globals and scratch). */
interface TraceState {
  readonly l: Float64Array
  readonly vel: Float64Array
  /** The last back-trace's end. */
  readonly back: Float64Array
  readonly hit: Float64Array
  readonly stackNode: Int32Array
  readonly stackDist: Float64Array
  readonly q: Float64Array
  readonly s: Float64Array
  /** The locator's last answer (-1: none). */
  last: number
}

/** TetLocator.search over the index: the lowest-numbered tetrahedron holding the point (slack 1e-12), or -1; its weights in S.l. */
function search(M: TraceVelocityArrays, P: Float64Array, x: number, y: number, z: number, S: TraceState): number {
  const c = indexCellAt(x, y, z, P[TD_IOX], P[TD_IOY], P[TD_IOZ], P[TD_INX], P[TD_INY], P[TD_INZ], P[TD_INV_CELL])
  if (c < 0) return -1
  const l = S.l
  for (let q = M.cellStart[c]; q < M.cellStart[c + 1]; q++) {
    const t = M.cellTets[q]
    if (outsideBox(M.boxes, t, x, y, z)) continue
    barycentricCoordinates(M.positions, M.tets, t, x, y, z, l)
    if (l[0] >= -1e-12 && l[1] >= -1e-12 && l[2] >= -1e-12 && l[3] >= -1e-12) return t
  }
  return -1
}

/** TetLocator.locate: the last answer when the point is well inside it, else the search. */
function locate(M: TraceVelocityArrays, P: Float64Array, x: number, y: number, z: number, S: TraceState): number {
  const last = S.last, l = S.l
  if (last >= 0) {
    barycentricCoordinates(M.positions, M.tets, last, x, y, z, l)
    if (l[0] > 1e-9 && l[1] > 1e-9 && l[2] > 1e-9 && l[3] > 1e-9) return last
  }
  return (S.last = search(M, P, x, y, z, S))
}

/** MeshVelocity.fast: the smoothed velocity at the point into S.vel. */
function fast(M: TraceVelocityArrays, P: Float64Array, ext: ExtrapolationGrid, x: number, y: number, z: number, S: TraceState): void {
  const vel = S.vel
  const t = P[TD_HAS_TETS] !== 0 ? locate(M, P, x, y, z, S) : -1
  if (t >= 0) {
    // MeshVelocity.interpolateLocated: the locator's weights.
    const l = S.l, T = M.tets, V = M.vertexVelocity
    let sx = 0, sy = 0, sz = 0
    for (let k = 0; k < 4; k++) {
      const v = 3 * T[4 * t + k]
      sx += l[k] * V[v]
      sy += l[k] * V[v + 1]
      sz += l[k] * V[v + 2]
    }
    vel[0] = sx
    vel[1] = sy
    vel[2] = sz
    return
  }
  const hit = S.hit
  const f = P[TD_HAS_BOUNDARY] !== 0 ? bvhClosestPoint(M.bBounds, M.bInfo, M.bOrder, M.bVerts, S.stackNode, S.stackDist, S.q, S.s, x, y, z, hit, P[TD_REACH]) : -1
  if (f >= 0) interpolateInTet(M.positions, M.tets, M.vertexVelocity, M.bTet[f], hit[HIT_X], hit[HIT_Y], hit[HIT_Z], vel, 0)
  else extrapolatedAt(ext, x, y, z, vel, 0)
}

/**
 * MeshSdf.distanceWithin over S's tree (pseudo-normal sign): the signed distance when a
 * triangle lies within `bound` (the closest point in S.hit, the triangle in tri[0]), else NaN.
 */
function within(Sf: TraceSurfaceArrays, pn: PseudoNormals, x: number, y: number, z: number, bound: number, S: TraceState, tri: Int32Array): number {
  const hit = S.hit
  const t = bvhClosestPoint(Sf.sBounds, Sf.sInfo, Sf.sOrder, Sf.sVerts, S.stackNode, S.stackDist, S.q, S.s, x, y, z, hit, bound)
  tri[0] = t
  if (t < 0) return Number.NaN
  const d = hit[HIT_DISTANCE]
  if (d === 0) return 0
  return pseudoNormalDot(pn, Sf.indices, t, hit[HIT_REGION], x, y, z, hit[HIT_X], hit[HIT_Y], hit[HIT_Z]) < 0 ? -d : d
}

/** ContouredSurface.distance: S's signed distance at the point, exact within the band, clamped to it. */
function surfaceDistance(Sf: TraceSurfaceArrays, pn: PseudoNormals, g: NodeGrid, P: Float64Array, x: number, y: number, z: number, S: TraceState, tri: Int32Array): number {
  const h = g.h, band = P[TD_BAND]
  const e = sampleNodes(Sf.phi, g, x, y, z)
  if (P[TD_HAS_SURFACE] === 0 || Math.abs(e) >= band) return e
  const reach = band + h
  const near = Math.abs(e) + h
  let d = near < reach ? within(Sf, pn, x, y, z, near, S, tri) : Number.NaN
  if (d !== d) d = within(Sf, pn, x, y, z, reach, S, tri)
  if (d !== d) {
    if (e !== 0) return e > 0 ? band : -band
    // MeshSdf.distanceBanded(reach): nothing within reach, so the distance is reach, signed by
    // the true closest point's pseudo-normal (and no lift, as |d| is not below reach).
    const hit = S.hit
    const t = bvhClosestPoint(Sf.sBounds, Sf.sInfo, Sf.sOrder, Sf.sVerts, S.stackNode, S.stackDist, S.q, S.s, x, y, z, hit, Number.POSITIVE_INFINITY)
    d = pseudoNormalDot(pn, Sf.indices, t, hit[HIT_REGION], x, y, z, hit[HIT_X], hit[HIT_Y], hit[HIT_Z]) < 0 ? -reach : reach
    tri[0] = -1
  }
  if (Math.abs(d) < reach && tri[0] >= 0) d -= phongLift(Sf.positions, Sf.normals, Sf.indices, tri[0], S.hit)
  return d > band ? band : d < -band ? -band : d
}

/** The state of one call: stacks as deep as params[TD_STACK] says. */
function traceState(P: Float64Array): TraceState {
  const depth = P[TD_STACK]
  return {
    l: new Float64Array(4), vel: new Float64Array(3), back: new Float64Array(3), hit: new Float64Array(HIT_SIZE), stackNode: new Int32Array(depth), stackDist: new Float64Array(depth),
    q: new Float64Array(3), s: new Float64Array(6), last: -1,
  }
}

/** The extrapolation grid as meshVelocity.ts extrapolatedAt reads it. */
function extrapolationGrid(M: TraceVelocityArrays, P: Float64Array): ExtrapolationGrid {
  return { origin: [P[TD_EOX], P[TD_EOY], P[TD_EOZ]], h: P[TD_EH], n: [P[TD_ENX], P[TD_ENY], P[TD_ENZ]], v: M.ext }
}

/** MeshVelocity.backtrace over params[TD_DT] into S.back (the midpoint rule through the fast field). */
function backtrace(M: TraceVelocityArrays, P: Float64Array, ext: ExtrapolationGrid, x: number, y: number, z: number, S: TraceState): void {
  const dt = P[TD_DT], vel = S.vel, back = S.back
  fast(M, P, ext, x, y, z, S)
  const mx = x - 0.5 * dt * vel[0], my = y - 0.5 * dt * vel[1], mz = z - 0.5 * dt * vel[2]
  fast(M, P, ext, mx, my, mz, S)
  back[0] = x - dt * vel[0]
  back[1] = y - dt * vel[1]
  back[2] = z - dt * vel[2]
}

/**
 * out[i] = S_t.distance(M_t.backtrace(points[3i..3i+2], params[TD_DT])) for i in [i0, i1): the
 * value advanceSurface and contouring read before particles, obstacles and emitters.
 */
export function traceDistances(M: TraceVelocityArrays, Sf: TraceSurfaceArrays, P: Float64Array, points: Float64Array, out: Float64Array, _scratch: unknown, i0: number, i1: number): void {
  const S = traceState(P), ext = extrapolationGrid(M, P), back = S.back
  const pn: PseudoNormals = { face: Sf.pnFace, edge: Sf.pnEdge, vertex: Sf.pnVertex }
  const g: NodeGrid = { nx: P[TD_GNX], ny: P[TD_GNY], nz: P[TD_GNZ], h: P[TD_GH], origin: [P[TD_GOX], P[TD_GOY], P[TD_GOZ]] }
  const tri = new Int32Array(1)
  for (let i = i0; i < i1; i++) {
    backtrace(M, P, ext, points[3 * i], points[3 * i + 1], points[3 * i + 2], S)
    out[i] = surfaceDistance(Sf, pn, g, P, back[0], back[1], back[2], S, tri)
  }
}

/** whitneyVelocityAt in tetrahedron t at the point (signed areas: the same bits), clamped to its vertex vectors, into S.vel. */
function whitneyClamped(M: TraceVelocityArrays, A: TraceAccurateArrays, t: number, x: number, y: number, z: number, S: TraceState): void {
  const T = M.tets, X = M.positions, vel = S.vel
  let sx = 0, sy = 0, sz = 0
  for (let k = 0; k < 4; k++) {
    const F = A.tetFaceAreas[4 * t + k] * A.u[A.tetFaces[4 * t + k]]
    const p = 3 * T[4 * t + k]
    sx += F * (x - X[p])
    sy += F * (y - X[p + 1])
    sz += F * (z - X[p + 2])
  }
  const s = 1 / (3 * A.volumes[t])
  vel[0] = sx * s
  vel[1] = sy * s
  vel[2] = sz * s
  clampToTetVertices(T, M.vertexVelocity, t, vel, 0)
}

/** MeshVelocity.accurate at the point into S.vel. */
function accurate(M: TraceVelocityArrays, A: TraceAccurateArrays, P: Float64Array, ext: ExtrapolationGrid, x: number, y: number, z: number, S: TraceState): void {
  const t = P[TD_HAS_TETS] !== 0 ? locate(M, P, x, y, z, S) : -1
  if (t >= 0) return whitneyClamped(M, A, t, x, y, z, S)
  const hit = S.hit
  const f = P[TD_HAS_BOUNDARY] !== 0 ? bvhClosestPoint(M.bBounds, M.bInfo, M.bOrder, M.bVerts, S.stackNode, S.stackDist, S.q, S.s, x, y, z, hit, P[TD_REACH]) : -1
  if (f >= 0) whitneyClamped(M, A, M.bTet[f], hit[HIT_X], hit[HIT_Y], hit[HIT_Z], S)
  else extrapolatedAt(ext, x, y, z, S.vel, 0)
}

/**
 * out[i] = n_i . M_t.accurate(M_t.backtrace(points[3i..3i+2], params[TD_DT])) for i in [i0, i1),
 * n_i = normals[3i..3i+2]: the new mesh's face velocities advected from M_t.
 */
export function traceVelocities(M: TraceVelocityArrays, A: TraceAccurateArrays, P: Float64Array, points: Float64Array, normals: Float64Array, out: Float64Array, _scratch: unknown, i0: number, i1: number): void {
  const S = traceState(P), ext = extrapolationGrid(M, P), back = S.back, vel = S.vel
  for (let i = i0; i < i1; i++) {
    backtrace(M, P, ext, points[3 * i], points[3 * i + 1], points[3 * i + 2], S)
    accurate(M, A, P, ext, back[0], back[1], back[2], S)
    out[i] = vel[0] * normals[3 * i] + vel[1] * normals[3 * i + 1] + vel[2] * normals[3 * i + 2]
  }
}

const num = (a: KernelArgs, i: number) => a[i] as number
const stackBytes = (a: KernelArgs, params: number) => 12 * ((a[params] as Float64Array)[TD_STACK] + 1)

/** traceDistances over points [0, n). Args: M, Sf, params, points, out, scratch (null), n. */
export const TRACE_DISTANCES = defineKernel({
  name: 'tetLiquidTraceDistances',
  args: [struct('M', TRACE_VELOCITY_FIELDS), struct('Sf', TRACE_SURFACE_FIELDS), f64('params'), f64('points'), f64('out'), scratch('stack', (a) => stackBytes(a, 2)), size('n')],
  split: 'rows',
  range: (a) => num(a, 6),
  // Each point: two locations, up to two boundary searches and up to two surface searches.
  work: (a) => 64 * num(a, 6),
  // Points near the surface cost more than those deep in the liquid.
  piecesPerThread: 8,
  worker: true,
  ref: traceDistances,
})

/** traceVelocities over points [0, n). Args: M, A, params, points, normals, out, scratch (null), n. */
export const TRACE_VELOCITIES = defineKernel({
  name: 'tetLiquidTraceVelocities',
  args: [struct('M', TRACE_VELOCITY_FIELDS), struct('A', TRACE_ACCURATE_FIELDS), f64('params'), f64('points'), f64('normals'), f64('out'), scratch('stack', (a) => stackBytes(a, 2)), size('n')],
  split: 'rows',
  range: (a) => num(a, 7),
  work: (a) => 32 * num(a, 7),
  piecesPerThread: 8,
  worker: true,
  ref: traceVelocities,
})
