// The hexahedral fast path of the back-traces (hybridAdvection.ts advectFaces and advectCells,
// seed 000 section 3.3) as two kernel-table rows, over faces and over cells: the TypeScript
// references below and their AssemblyScript twins (wasm/assembly/hybridTrace.ts), split over
// the faces or cells on the WebAssembly backend's threads. On a hybrid mesh most faces and
// cells lie among plain hexahedra, where the whole trace is grid arithmetic: the fast field is
// trilinear in a cube's 8 corner velocities, a point is located with one floor per axis, the
// accurate velocity is the staggered (MAC) trilinear of the grid faces and a scalar the
// trilinear of the 8 cell centres around the point. The rows do exactly that and leave
// everything else to the caller, saying which case each face (cell) is:
//
//   HEX_TRACE_DONE: zNew[f] written (a closed face's prescribed value, or the MAC velocity at the
//     trace's end projected on the face's normal);
//   HEX_TRACE_ACCURATE: the trace stayed among hexahedra and ended at at[3f..3f+2] in cell
//     cell[f], but the accurate velocity there is not a whole-face MAC stencil (a transition
//     hexahedron, a split or missing stencil face, a NaN): the caller evaluates it;
//   HEX_TRACE_FULL: the trace starts in a tetrahedron, or its midpoint or end is not in a
//     hexahedral cube (a band cube, a solid, outside the grid, NaN): the caller traces it.
//
// For cells, HEX_TRACE_DONE writes the scalars' trilinear values and HEX_TRACE_ACCURATE means
// the 8 centres around the end are not all hexahedra (the scalar fit answers there).
//
// Every operation is the one HybridAdvection.trace / HybridInterpolation.fastVelocityAt /
// macVelocityAt / scalarsAt / HybridLocator.cellAt performs, in the same order, so each answer
// is the same bits whichever side computes it and however the range is split over threads.
//
// The face row reads the staggered stencil's values from a table by grid face (MAC_GRID_VALUES,
// run before it on the same face velocities): one load a stencil face where the mesh's tables
// took three in a chain (the grid face's mesh face, then its velocity, and its sign). The same
// values, so the same bits. The ramp jet's hybrid mesh (2 threads, old and new alternated in
// one process, three runs): the faces' traces, the table's row included, 30.7 / 32.5 / 44.2 ->
// 26.7 / 27.9 / 39.0 ms a call. Reading the fast field's corners from a table by lattice point
// as well saved nothing (the cells' traces, that table's row included, 10.4-12.8 -> 10.6-12.8
// ms a call): a hexahedron's eight corner indices share one cache line.
import { defineKernel, f64, float, i32, int, type KernelArgs, size, struct, u8 } from '../core/kernelTable'
import { gridCubeAt } from './hybridLocate'
import { macGridComponentAt, macGridValues } from './macStencil'
import { FACE_OBSTACLE, FACE_WALL } from './hybridMesh'
import { CELL_HEX } from './hybridMesh'

export const HEX_TRACE_DONE = 0
export const HEX_TRACE_ACCURATE = 1
export const HEX_TRACE_FULL = 2

/** The mesh arrays the row reads (the twin receives them as consecutive pointers, in this order). */
export interface HexTraceMesh {
  faceCentre: Float64Array
  faceNormal: Float64Array
  faceCellA: Int32Array
  faceKind: Uint8Array
  cellCentre: Float64Array
  hexVertices: Int32Array
  /** Per grid cube its hexahedron, -1 for a band or solid cube. */
  cubeHex: Int32Array
  hexCube: Int32Array
  cellKind: Uint8Array
}

export const HEX_TRACE_MESH_FIELDS = {
  faceCentre: 'f64',
  faceNormal: 'f64',
  faceCellA: 'i32',
  faceKind: 'u8',
  cellCentre: 'f64',
  hexVertices: 'i32',
  cubeHex: 'i32',
  hexCube: 'i32',
  cellKind: 'u8',
} as const

/** HybridLocator.cellAt where the point's cube is hexahedral: its hexahedron, else -1 (outside, band, solid, NaN). */
function hexCellAt(cubeHex: Int32Array, x: number, y: number, z: number, nx: number, ny: number, nz: number, ox: number, oy: number, oz: number, invH: number): number {
  const cube = gridCubeAt(x, y, z, nx, ny, nz, ox, oy, oz, invH)
  return cube < 0 ? -1 : cubeHex[cube]
}

/** HybridInterpolation.fastVelocityAt in hexahedron c, into vel[0..2]. */
function fastInHex(M: HexTraceMesh, vv: Float64Array, x: number, y: number, z: number, c: number, invH: number, vel: Float64Array): void {
  const { cellCentre, hexVertices } = M
  const tx = (x - cellCentre[3 * c]) * invH + 0.5
  const ty = (y - cellCentre[3 * c + 1]) * invH + 0.5
  const tz = (z - cellCentre[3 * c + 2]) * invH + 0.5
  let ux = 0, uy = 0, uz = 0
  for (let d = 0; d < 8; d++) {
    const wt = (d & 1 ? tx : 1 - tx) * (d & 2 ? ty : 1 - ty) * (d & 4 ? tz : 1 - tz)
    const v = 3 * hexVertices[8 * c + d]
    ux += wt * vv[v]; uy += wt * vv[v + 1]; uz += wt * vv[v + 2]
  }
  vel[0] = ux; vel[1] = uy; vel[2] = uz
}

/**
 * HybridAdvection.traceEnd among hexahedra: the RK2 trace over `step` (h = step / 2) from
 * (x, y, z) in hexahedron c, its midpoint and end each located in a hexahedral cube. The end
 * into end[0..2] and its hexahedron returned, or -1 when the midpoint or the end is not in one
 * (vel: scratch for the fast field).
 */
function hexTraceEnd(M: HexTraceMesh, vv: Float64Array, x: number, y: number, z: number, c: number, step: number, h: number, nx: number, ny: number, nz: number, ox: number, oy: number, oz: number, invH: number, vel: Float64Array, end: Float64Array): number {
  fastInHex(M, vv, x, y, z, c, invH, vel)
  const mx = x + h * vel[0], my = y + h * vel[1], mz = z + h * vel[2]
  const cm = hexCellAt(M.cubeHex, mx, my, mz, nx, ny, nz, ox, oy, oz, invH)
  if (cm < 0) return -1
  fastInHex(M, vv, mx, my, mz, cm, invH, vel)
  const ex = x + step * vel[0], ey = y + step * vel[1], ez = z + step * vel[2]
  end[0] = ex; end[1] = ey; end[2] = ez
  return hexCellAt(M.cubeHex, ex, ey, ez, nx, ny, nz, ox, oy, oz, invH)
}

/**
 * Faces [f0, f1) of advectFaces' traces over dt through the fast field vv (3 per vertex) from
 * the face velocities zOld (zGrid: their values by grid face, MAC_GRID_VALUES), on a grid of
 * nx x ny x nz cubes at (ox, oy, oz), invH = 1 / dx: status[f] says which case the face is
 * (HEX_TRACE_*), with zNew[f] for HEX_TRACE_DONE and the trace's end at[3f..3f+2] and cell[f]
 * for HEX_TRACE_ACCURATE. A MAC stencil is HybridInterpolation.macComponent over whole grid
 * faces only (macStencil.ts): NaN when a stencil face lies outside the grid, is split or
 * missing, or holds NaN.
 */
export function hexFaceTraces(
  M: HexTraceMesh, vv: Float64Array, zOld: Float64Array, zGrid: Float64Array, dt: number, hexCount: number,
  nx: number, ny: number, nz: number, ox: number, oy: number, oz: number, invH: number,
  zNew: Float64Array, at: Float64Array, cell: Int32Array, status: Uint8Array, f0: number, f1: number,
): void {
  const { faceCentre: C, faceNormal: N, faceCellA, faceKind, hexCube, cellKind } = M
  const vel = new Float64Array(3), end = new Float64Array(3)
  const step = -dt, h = 0.5 * step
  for (let f = f0; f < f1; f++) {
    const kind = faceKind[f]
    if (kind === FACE_WALL || kind === FACE_OBSTACLE) {
      zNew[f] = zOld[f]
      status[f] = HEX_TRACE_DONE
      continue
    }
    const c = faceCellA[f]
    status[f] = HEX_TRACE_FULL
    if (c >= hexCount) continue
    const ce = hexTraceEnd(M, vv, C[3 * f], C[3 * f + 1], C[3 * f + 2], c, step, h, nx, ny, nz, ox, oy, oz, invH, vel, end)
    if (ce < 0) continue
    const ex = end[0], ey = end[1], ez = end[2]
    at[3 * f] = ex; at[3 * f + 1] = ey; at[3 * f + 2] = ez
    cell[f] = ce
    status[f] = HEX_TRACE_ACCURATE
    if (cellKind[ce] !== CELL_HEX) continue
    // HybridInterpolation.macNormalAt: a face along an axis needs that component alone.
    const cube = hexCube[ce]
    const ci = cube % nx, r = (cube - ci) / nx, cj = r % ny, ck = (r - cj) / ny
    const gx = (ex - ox) * invH, gy = (ey - oy) * invH, gz = (ez - oz) * invH
    const n0 = N[3 * f], n1 = N[3 * f + 1], n2 = N[3 * f + 2]
    const axis = n1 === 0 && n2 === 0 ? 0 : n0 === 0 && n2 === 0 ? 1 : n0 === 0 && n1 === 0 ? 2 : -1
    if (axis >= 0) {
      const q = macGridComponentAt(zGrid, axis, gx, gy, gz, ci, cj, ck, nx, ny, nz)
      if (q !== q) continue
      zNew[f] = q * N[3 * f + axis]
    } else {
      const u = macGridComponentAt(zGrid, 0, gx, gy, gz, ci, cj, ck, nx, ny, nz)
      if (u !== u) continue
      const v = macGridComponentAt(zGrid, 1, gx, gy, gz, ci, cj, ck, nx, ny, nz)
      if (v !== v) continue
      const w = macGridComponentAt(zGrid, 2, gx, gy, gz, ci, cj, ck, nx, ny, nz)
      if (w !== w) continue
      zNew[f] = u * n0 + v * n1 + w * n2
    }
    status[f] = HEX_TRACE_DONE
  }
}

const num = (a: KernelArgs, i: number) => a[i] as number

/**
 * hexFaceTraces over faces [0, faces). Args: M, vv, zOld, zGrid, dt, hexCount, nx, ny, nz, ox,
 * oy, oz, invH, zNew, at, cell, status, faces.
 */
export const HEX_FACE_TRACES = defineKernel({
  name: 'hexFaceTraces',
  args: [
    struct('M', HEX_TRACE_MESH_FIELDS), f64('vv'), f64('zOld'), f64('zGrid'), float('dt'), int('hexCount'),
    int('nx'), int('ny'), int('nz'), float('ox'), float('oy'), float('oz'), float('invH'),
    f64('zNew'), f64('at'), i32('cell'), u8('status'), size('faces'),
  ],
  split: 'rows',
  range: (a) => num(a, 17),
  // Two fast-field reads (8 corners each) and a MAC stencil (8 faces): some 30 gathers a face.
  work: (a) => 30 * num(a, 17),
  // Faces among tetrahedra return at once: pieces keep the threads finishing together.
  piecesPerThread: 4,
  ref: hexFaceTraces,
})

/**
 * HybridInterpolation.scalarsAt's trilinear branch for the scalar s (its min/max clamp
 * included): the 8 centres from cube (i0, j0, k0), all known hexahedral, weights from the
 * offsets (tx, ty, tz) within them.
 */
function trilinearCentres(cubeHex: Int32Array, s: Float64Array, i0: number, j0: number, k0: number, tx: number, ty: number, tz: number, nx: number, ny: number): number {
  let sum = 0, lo = Infinity, hi = -Infinity
  for (let d = 0; d < 8; d++) {
    const e = cubeHex[i0 + (d & 1) + nx * (j0 + (d & 2 ? 1 : 0) + ny * (k0 + (d & 4 ? 1 : 0)))]
    const p = s[e]
    if (p < lo) lo = p
    if (p > hi) hi = p
    sum += (d & 1 ? tx : 1 - tx) * (d & 2 ? ty : 1 - ty) * (d & 4 ? tz : 1 - tz) * p
  }
  return sum < lo ? lo : sum > hi ? hi : sum
}

/**
 * Cells [c0, c1) of advectCells' traces over dt through the fast field vv, carrying the cell
 * scalar a (and b when not null): status[c] says which case the cell is, with outA[c] (outB[c])
 * for HEX_TRACE_DONE and the trace's end at[3c..3c+2] and cell[c] for HEX_TRACE_ACCURATE.
 */
export function hexCellTraces(
  M: HexTraceMesh, vv: Float64Array, a: Float64Array, b: Float64Array | null, dt: number, hexCount: number,
  nx: number, ny: number, nz: number, ox: number, oy: number, oz: number, invH: number,
  outA: Float64Array, outB: Float64Array | null, at: Float64Array, cell: Int32Array, status: Uint8Array, c0: number, c1: number,
): void {
  const { cellCentre: C, cubeHex } = M
  const vel = new Float64Array(3), end = new Float64Array(3)
  const step = -dt, h = 0.5 * step
  for (let c = c0; c < c1; c++) {
    status[c] = HEX_TRACE_FULL
    if (c >= hexCount) continue
    const ce = hexTraceEnd(M, vv, C[3 * c], C[3 * c + 1], C[3 * c + 2], c, step, h, nx, ny, nz, ox, oy, oz, invH, vel, end)
    if (ce < 0) continue
    const ex = end[0], ey = end[1], ez = end[2]
    at[3 * c] = ex; at[3 * c + 1] = ey; at[3 * c + 2] = ez
    cell[c] = ce
    status[c] = HEX_TRACE_ACCURATE
    // HybridInterpolation.hexCorners: the 8 centres around the end, all hexahedra.
    const u = (ex - ox) * invH - 0.5, v = (ey - oy) * invH - 0.5, w = (ez - oz) * invH - 0.5
    const i0 = Math.floor(u), j0 = Math.floor(v), k0 = Math.floor(w)
    if (!(i0 >= 0 && j0 >= 0 && k0 >= 0 && i0 + 1 < nx && j0 + 1 < ny && k0 + 1 < nz)) continue
    let whole = true
    for (let d = 0; d < 8 && whole; d++) whole = cubeHex[i0 + (d & 1) + nx * (j0 + (d & 2 ? 1 : 0) + ny * (k0 + (d & 4 ? 1 : 0)))] >= 0
    if (!whole) continue
    const tx = u - i0, ty = v - j0, tz = w - k0
    outA[c] = trilinearCentres(cubeHex, a, i0, j0, k0, tx, ty, tz, nx, ny)
    if (b !== null && outB !== null) outB[c] = trilinearCentres(cubeHex, b, i0, j0, k0, tx, ty, tz, nx, ny)
    status[c] = HEX_TRACE_DONE
  }
}

/**
 * hexCellTraces over cells [0, cells). Args: M, vv, a, b, dt, hexCount, nx, ny, nz, ox, oy, oz,
 * invH, outA, outB, at, cell, status, cells.
 */
export const HEX_CELL_TRACES = defineKernel({
  name: 'hexCellTraces',
  args: [
    struct('M', HEX_TRACE_MESH_FIELDS), f64('vv'), f64('a'), f64('b', true), float('dt'), int('hexCount'),
    int('nx'), int('ny'), int('nz'), float('ox'), float('oy'), float('oz'), float('invH'),
    f64('outA'), f64('outB', true), f64('at'), i32('cell'), u8('status'), size('cells'),
  ],
  split: 'rows',
  range: (a) => num(a, 18),
  // Two fast-field reads and two 8-centre stencils: some 32 gathers a cell.
  work: (a) => 32 * num(a, 18),
  piecesPerThread: 4,
  ref: hexCellTraces,
})

/** macStencil.ts macGridValues over every grid face. Args: macSingle, macSign, zf, zGrid, gridFaces. */
export const MAC_GRID_VALUES = defineKernel({
  name: 'macGridValues',
  args: [i32('macSingle'), f64('macSign'), f64('zf'), f64('zGrid'), size('gridFaces')],
  split: 'rows',
  range: (a) => num(a, 4),
  ref: macGridValues,
})
