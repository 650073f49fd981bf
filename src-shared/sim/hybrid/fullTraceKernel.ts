// The back-traces the hexahedral fast path leaves to the caller (hexTraceKernel.ts
// HEX_TRACE_FULL: a start in a tetrahedron, a midpoint or end in a band cube, a trace that
// leaves the fluid), as a kernel-table row: HybridAdvection's RK2 trace (seed 000 section 3.3)
// with HybridLocator.cellAt and lastInside, and TetLocator's walk and index search, over flat
// arrays. The TypeScript reference below and its AssemblyScript twin
// (wasm/assembly/hybridFullTrace.ts) run each picked index's trace in the same operations and
// order, so the end, its cell and the clamp flag are the same bits on either side and on any
// split over threads.
//
// Where the classes search the tetrahedra's index (TetLocator.locate: the trace's end, the
// bisection's probes), the row walks from a cell the point is likely near first (the end from
// the midpoint's cell, a probe from the last cell found inside) and searches only when the walk
// does not arrive. A walk stops only in a tetrahedron holding the point well inside (every
// weight above 1e-9), which is then the only one holding it (TetLocator.locate's argument, on
// which its own cache and the classes' walks rely too), so the answers are the search's. The
// classes' cache of the last answer is not kept: the answers do not depend on which thread
// traced what before.
import { barycentricInFrame } from '../../geometry/tetmesh/tetBarycentric'
import { indexCellAt, outsideBox, WALK_STEPS } from '../../geometry/tetmesh/tetLocator'
import { defineKernel, f64, i32, int, type KernelArgs, size, struct, u8 } from '../core/kernelTable'
import { FACE_SNAP, gridCubeAt, LAST_INSIDE_STEPS } from './hybridLocate'
import { CUBE_BAND, CUBE_HEX } from './hybridMesh'

/** The mesh and locator arrays the row reads (the twin receives them as consecutive pointers, in this order). */
export interface FullTraceMesh {
  cubeRole: Uint8Array
  /** Per grid cube its hexahedron, -1 for a band or solid cube. */
  cubeHex: Int32Array
  cellCentre: Float64Array
  hexVertices: Int32Array
  /** 4 vertices per tetrahedron (cell hexCount + t). */
  tets: Int32Array
  /** TetLocator's per-tetrahedron barycentric frames (13 each), padded boxes (6 each) and face neighbours (4 each). */
  frames: Float64Array
  boxes: Float64Array
  neighbours: Int32Array
  /** TetLocator's index: each index cell's tetrahedra, CSR. */
  indexStart: Int32Array
  indexTets: Int32Array
}

export const FULL_TRACE_MESH_FIELDS = {
  cubeRole: 'u8',
  cubeHex: 'i32',
  cellCentre: 'f64',
  hexVertices: 'i32',
  tets: 'i32',
  frames: 'f64',
  boxes: 'f64',
  neighbours: 'i32',
  indexStart: 'i32',
  indexTets: 'i32',
} as const

/** Places in the row's `params` (float64): the grid, the tetrahedra's index grid, the trace. */
export const TP_HEX_COUNT = 0
export const TP_NX = 1
export const TP_NY = 2
export const TP_NZ = 3
export const TP_OX = 4
export const TP_OY = 5
export const TP_OZ = 6
/** 1 / the grid's cube edge. */
export const TP_INV_H = 7
/** The tetrahedra's index grid: origin, cells per axis, 1 / cell edge. */
export const TP_IOX = 8
export const TP_IOY = 9
export const TP_IOZ = 10
export const TP_INX = 11
export const TP_INY = 12
export const TP_INZ = 13
export const TP_INV_CELL = 14
/** The trace's step in seconds (negative: back in time). */
export const TP_STEP = 15
/** 1: only the unclamped end (HybridAdvection.traceEnd), 0: the whole trace. */
export const TP_END_ONLY = 16
export const FULL_TRACE_PARAMS = 17

/** Per-call scratch of the reference (the twin keeps these in its per-thread globals). */
interface TraceState {
  readonly l: Float64Array
  readonly vel: Float64Array
  readonly pos: Float64Array
}

/** TetLocator.barycentric from the frames (the same function), into S.l. */
function barycentric(F: Float64Array, t: number, x: number, y: number, z: number, S: TraceState): void {
  barycentricInFrame(F, t, x, y, z, S.l)
}

/** TetLocator.search: the lowest-numbered tetrahedron holding the point (slack 1e-12), or -1. */
function search(M: FullTraceMesh, P: Float64Array, x: number, y: number, z: number, S: TraceState): number {
  const c = indexCellAt(x, y, z, P[TP_IOX], P[TP_IOY], P[TP_IOZ], P[TP_INX], P[TP_INY], P[TP_INZ], P[TP_INV_CELL])
  if (c < 0) return -1
  const l = S.l
  for (let q = M.indexStart[c]; q < M.indexStart[c + 1]; q++) {
    const t = M.indexTets[q]
    if (outsideBox(M.boxes, t, x, y, z)) continue
    barycentric(M.frames, t, x, y, z, S)
    if (l[0] >= -1e-12 && l[1] >= -1e-12 && l[2] >= -1e-12 && l[3] >= -1e-12) return t
  }
  return -1
}

/** TetLocator.locateFrom: a walk of at most WALK_STEPS from tetrahedron `from`, else the search. */
function locateFrom(M: FullTraceMesh, P: Float64Array, from: number, x: number, y: number, z: number, S: TraceState): number {
  const nb = M.neighbours, l = S.l
  let t = from
  for (let step = 0; step < WALK_STEPS && t >= 0; step++) {
    barycentric(M.frames, t, x, y, z, S)
    if (l[0] > 1e-9 && l[1] > 1e-9 && l[2] > 1e-9 && l[3] > 1e-9) return t
    if (!(l[0] === l[0] && l[1] === l[1] && l[2] === l[2] && l[3] === l[3])) break
    let k = 0
    for (let q = 1; q < 4; q++) if (l[q] < l[k]) k = q
    t = nb[4 * t + k]
  }
  return search(M, P, x, y, z, S)
}

/** The hexahedron of cube (i, j, k), or -1 (HybridLocator.hexAt). */
function hexAt(M: FullTraceMesh, i: number, j: number, k: number, nx: number, ny: number, nz: number): number {
  if (i < 0 || j < 0 || k < 0 || i >= nx || j >= ny || k >= nz) return -1
  return M.cubeHex[i + nx * (j + ny * k)]
}

/** HybridLocator.cellAt: the cell holding the point, or -1; `near` a cell to walk from. */
function cellAt(M: FullTraceMesh, P: Float64Array, x: number, y: number, z: number, near: number, S: TraceState): number {
  const nx = P[TP_NX], ny = P[TP_NY], nz = P[TP_NZ], invH = P[TP_INV_H], hexCount = P[TP_HEX_COUNT]
  const cube = gridCubeAt(x, y, z, nx, ny, nz, P[TP_OX], P[TP_OY], P[TP_OZ], invH)
  if (cube < 0) return -1
  const role = M.cubeRole[cube]
  if (role === CUBE_HEX) return M.cubeHex[cube]
  if (role !== CUBE_BAND) return -1
  const t = near >= hexCount ? locateFrom(M, P, near - hexCount, x, y, z, S) : search(M, P, x, y, z, S)
  if (t >= 0) return hexCount + t
  // HybridLocator.snapToHex: a hair outside the tetrahedra on the cube's face towards a hexahedron.
  const i = cube % nx, r = (cube - i) / nx, j = r % ny, k = (r - j) / ny
  const u = (x - P[TP_OX]) * invH - i, v = (y - P[TP_OY]) * invH - j, w = (z - P[TP_OZ]) * invH - k
  const di = u < FACE_SNAP ? -1 : u > 1 - FACE_SNAP ? 1 : 0
  const dj = v < FACE_SNAP ? -1 : v > 1 - FACE_SNAP ? 1 : 0
  const dk = w < FACE_SNAP ? -1 : w > 1 - FACE_SNAP ? 1 : 0
  let e = di !== 0 ? hexAt(M, i + di, j, k, nx, ny, nz) : -1
  if (e < 0 && dj !== 0) e = hexAt(M, i, j + dj, k, nx, ny, nz)
  if (e < 0 && dk !== 0) e = hexAt(M, i, j, k + dk, nx, ny, nz)
  return e
}

/**
 * HybridLocator.lastInside: the last point inside on the segment a -> b into S.pos, its cell
 * returned; b's search walks from `near`, each probe's from the last cell found inside.
 */
function lastInside(M: FullTraceMesh, P: Float64Array, ax: number, ay: number, az: number, ca: number, bx: number, by: number, bz: number, near: number, S: TraceState): number {
  const pos = S.pos
  const cb = cellAt(M, P, bx, by, bz, near, S)
  if (cb >= 0) {
    pos[0] = bx; pos[1] = by; pos[2] = bz
    return cb
  }
  const dx = bx - ax, dy = by - ay, dz = bz - az
  let lo = 0, hi = 1, cell = ca
  for (let s = 0; s < LAST_INSIDE_STEPS; s++) {
    const mid = 0.5 * (lo + hi)
    const c = cellAt(M, P, ax + mid * dx, ay + mid * dy, az + mid * dz, cell, S)
    if (c >= 0) {
      lo = mid
      cell = c
    } else hi = mid
  }
  pos[0] = ax + lo * dx; pos[1] = ay + lo * dy; pos[2] = az + lo * dz
  return cell
}

/** The fast field in cell c (HybridInterpolation.fastVelocityAt / fastVelocityInTet) into S.vel. */
function fast(M: FullTraceMesh, P: Float64Array, vv: Float64Array, x: number, y: number, z: number, c: number, S: TraceState): void {
  const hexCount = P[TP_HEX_COUNT], vel = S.vel
  let ux = 0, uy = 0, uz = 0
  if (c >= hexCount) {
    const t = c - hexCount, T = M.tets, l = S.l
    barycentric(M.frames, t, x, y, z, S)
    for (let k = 0; k < 4; k++) {
      const v = 3 * T[4 * t + k]
      ux += l[k] * vv[v]; uy += l[k] * vv[v + 1]; uz += l[k] * vv[v + 2]
    }
  } else {
    const C = M.cellCentre, invH = P[TP_INV_H]
    const tx = (x - C[3 * c]) * invH + 0.5
    const ty = (y - C[3 * c + 1]) * invH + 0.5
    const tz = (z - C[3 * c + 2]) * invH + 0.5
    for (let d = 0; d < 8; d++) {
      const wt = (d & 1 ? tx : 1 - tx) * (d & 2 ? ty : 1 - ty) * (d & 4 ? tz : 1 - tz)
      const v = 3 * M.hexVertices[8 * c + d]
      ux += wt * vv[v]; uy += wt * vv[v + 1]; uz += wt * vv[v + 2]
    }
  }
  vel[0] = ux; vel[1] = uy; vel[2] = uz
}

/**
 * Indices [i0, i1) whose pick[i] is pickValue: the RK2 trace (HybridAdvection.trace) over
 * params[TP_STEP] from starts[3i..3i+2] in cell startCell[i] (i itself when startCell is
 * null) through the fast field vv (3 per vertex). Writes the unclamped end to end[3i..], and
 * unless params[TP_END_ONLY]: the end clamped to the fluid to at[3i..], its cell to cell[i] and
 * 1 to left[i] when it was clamped (else 0).
 */
export function fullTraces(
  M: FullTraceMesh, P: Float64Array, vv: Float64Array, pick: Uint8Array, pickValue: number, starts: Float64Array, startCell: Int32Array | null,
  at: Float64Array, cell: Int32Array, left: Uint8Array, end: Float64Array, i0: number, i1: number,
): void {
  const S: TraceState = { l: new Float64Array(4), vel: new Float64Array(3), pos: new Float64Array(3) }
  const { vel, pos } = S
  const step = P[TP_STEP], h = 0.5 * step, endOnly = P[TP_END_ONLY] !== 0
  for (let i = i0; i < i1; i++) {
    if (pick[i] !== pickValue) continue
    const x = starts[3 * i], y = starts[3 * i + 1], z = starts[3 * i + 2]
    const c = startCell === null ? i : startCell[i]
    // HybridAdvection.traceEnd: the midpoint located by a walk from c, clamped to the fluid.
    fast(M, P, vv, x, y, z, c, S)
    let mx = x + h * vel[0], my = y + h * vel[1], mz = z + h * vel[2]
    let cm = cellAt(M, P, mx, my, mz, c, S)
    if (cm < 0) {
      cm = lastInside(M, P, x, y, z, c, mx, my, mz, c, S)
      mx = pos[0]; my = pos[1]; mz = pos[2]
    }
    fast(M, P, vv, mx, my, mz, cm, S)
    const ex = x + step * vel[0], ey = y + step * vel[1], ez = z + step * vel[2]
    end[3 * i] = ex; end[3 * i + 1] = ey; end[3 * i + 2] = ez
    if (endOnly) continue
    let ce = cellAt(M, P, ex, ey, ez, cm, S)
    left[i] = ce < 0 ? 1 : 0
    if (ce < 0) ce = lastInside(M, P, x, y, z, c, ex, ey, ez, cm, S)
    else { pos[0] = ex; pos[1] = ey; pos[2] = ez }
    at[3 * i] = pos[0]; at[3 * i + 1] = pos[1]; at[3 * i + 2] = pos[2]
    cell[i] = ce
  }
}

const num = (a: KernelArgs, i: number) => a[i] as number

/** fullTraces over indices [0, n). Args: M, params, vv, pick, pickValue, starts, startCell, at, cell, left, end, n. */
export const FULL_TRACES = defineKernel({
  name: 'hybridFullTraces',
  args: [struct('M', FULL_TRACE_MESH_FIELDS), f64('params'), f64('vv'), u8('pick'), int('pickValue'), f64('starts'), i32('startCell', true), f64('at'), i32('cell'), u8('left'), f64('end'), size('n')],
  split: 'rows',
  range: (a) => num(a, 11),
  // Most indices are not picked (the hexahedral path took them); a picked one walks and searches.
  work: (a) => 8 * num(a, 11),
  // The picked indices gather in the band: pieces keep the threads finishing together.
  piecesPerThread: 8,
  ref: fullTraces,
})
