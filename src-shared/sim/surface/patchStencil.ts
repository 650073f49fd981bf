// A CSR matrix over the surface's patch layout (P patches of n x n unknowns, unknown
// p n^2 + i + n j) read as a 9-point stencil wherever it is one. Every row of a cell that is not
// on its patch's edge couples only to the 3 x 3 block around it in the same patch (its faces and
// nodes are all inside the patch: the metric's Laplacian and the multigrid's Galerkin levels
// alike), so its entries can be stored as nine coefficient planes,
// coef[k stride + r] for the offsets -n-1, -n, -n+1, -1, 0, 1, n-1, n, n+1 (ascending, the
// CSR's own column order), with zeros where the CSR row has no entry. The products then read x
// at fixed offsets instead of through `col`: the twin (wasm/assembly/surfaceStencil.ts) takes two
// neighbouring rows in the two f64x2 lanes with plain vector loads. On the 450-patch cage at
// 32^2 (2 threads, the same hour) a damped Jacobi sweep takes 1.1 ms where the CSR rows, which
// gather x lane by lane through `col`, took 1.6-1.8 ms; a V-cycle 14.5 -> 12.7 ms.
//
// The same bits as the CSR rows: a row's sum runs over the nine offsets in column order, so the
// CSR's entries are added in their storage order with extra products c x = +-0 between them,
// which leave a sum unchanged (a sum that starts at +0 is never -0). Only a non-finite x
// (0 times infinity) could differ, and then the solve has already failed. Rows on a patch's
// edge (cross-patch neighbours, extraordinary vertices) stay CSR rows in the same kernels,
// copied into a compact CSR of their own in the order the kernels visit them: read in place
// among the inner rows' entries, these 12% of the rows at 32^2 missed the cache on every row
// (the stream no longer ran through the arrays): a sweep took 2.1-2.5 ms with them that way
// and 0.85-0.9 without them (a slow hour).
import type { KernelBackend } from '../core/kernelTypes'
import type { LinearOperator } from '../core/pcg'
import type { CsrMatrix } from '../core/sparse/csr'
import { spmv, spResidual } from '../core/sparse/ops'
import { f64, i32, int, size } from '../core/kernelTable'
import { patchRow } from './patchRow'

/** The stencil's nine offsets for patch edge n, in ascending (CSR column) order. */
function offsets(n: number): number[] {
  return [-n - 1, -n, -n + 1, -1, 0, 1, n - 1, n, n + 1]
}

export interface PatchStencil {
  /** Cells a patch edge (this level's n). */
  readonly n: number
  readonly P: number
  /**
   * Nine planes `stride` entries apart (A.n plus a pad: planes a multiple of 4 KiB apart would
   * share L1 sets at every row, nine streams conflicting in an 8-way cache), zeros on edge rows,
   * in the kernels' memory.
   */
  readonly coef: Float64Array
  readonly stride: number
  /**
   * The edge rows as a CSR of their own (columns A's), 4n - 4 a patch in visiting order: the
   * first row of cells, then each inner row's first and last cell, then the last row of cells.
   */
  readonly edge: CsrMatrix
}

/** Entries between two planes' starts: A.n rounded up to 8, plus 24 (so plane k sits 192 k bytes further round a 4 KiB page). */
function planeStride(rows: number): number {
  return Math.ceil(rows / 8) * 8 + 24
}

/** Edge rows a patch of edge n has (n >= 3). */
function edgeRowsOf(n: number): number {
  return 4 * n - 4
}

/** Row (of A) of patch p's edge row t, in the visiting order of PatchStencil.edge. */
export function edgeRow(p: number, t: number, n: number): number {
  const base = p * n * n
  if (t < n) return base + t
  if (t < 3 * n - 4) {
    const j = 1 + ((t - n) >> 1)
    return base + n * j + ((t - n) & 1 ? n - 1 : 0)
  }
  return base + n * (n - 1) + (t - (3 * n - 4))
}

/**
 * A's stencil planes and edge rows for P patches of edge n (A.n = P n^2), or null where no row
 * is inner (n < 3) or A is not a patch operator (an inner row reaching outside its 3 x 3 block).
 * They are a copy: A's values must not change afterwards. (Built in ordinary arrays and copied
 * into the kernels' memory a plane at a time: element stores to shared memory are several times
 * slower.)
 */
export function patchStencilOf(A: CsrMatrix, P: number, n: number, kernels: KernelBackend): PatchStencil | null {
  if (n < 3 || A.n !== P * n * n) return null
  const stride = planeStride(A.n), off = offsets(n)
  const { rowPtr, col, val } = A
  // Each inner entry's plane (-1: an edge row's), checking the pattern on the way.
  const planeOf = new Int8Array(rowPtr[A.n]).fill(-1)
  for (let p = 0; p < P; p++) for (let j = 1; j < n - 1; j++) for (let i = 1; i < n - 1; i++) {
    const r = p * n * n + i + n * j
    let k = 0
    for (let q = rowPtr[r]; q < rowPtr[r + 1]; q++) {
      const d = col[q] - r
      while (k < 9 && off[k] < d) k++
      if (k === 9 || off[k] !== d) return null
      planeOf[q] = k
    }
  }
  // Plane by plane through one plane of scratch, so the copy is never whole outside the kernels' memory.
  const planes = kernels.f64(9 * stride)
  const one = new Float64Array(A.n)
  for (let k = 0; k < 9; k++) {
    one.fill(0)
    for (let r = 0; r < A.n; r++) for (let q = rowPtr[r]; q < rowPtr[r + 1]; q++) if (planeOf[q] === k) one[r] = val[q]
    planes.set(one, k * stride)
  }
  const rows = P * edgeRowsOf(n)
  let nnz = 0
  for (let p = 0; p < P; p++) for (let t = 0; t < edgeRowsOf(n); t++) {
    const r = edgeRow(p, t, n)
    nnz += rowPtr[r + 1] - rowPtr[r]
  }
  const ePtr = new Int32Array(rows + 1), eCol = new Int32Array(nnz), eVal = new Float64Array(nnz)
  let e = 0, m = 0
  for (let p = 0; p < P; p++) for (let t = 0; t < edgeRowsOf(n); t++) {
    const r = edgeRow(p, t, n)
    for (let q = rowPtr[r]; q < rowPtr[r + 1]; q++) {
      eCol[m] = col[q]
      eVal[m++] = val[q]
    }
    ePtr[++e] = m
  }
  const edge: CsrMatrix = { n: rows, cols: A.cols, rowPtr: kernels.i32(rows + 1), col: kernels.i32(nnz), val: kernels.f64(nnz) }
  edge.rowPtr.set(ePtr)
  edge.col.set(eCol)
  edge.val.set(eVal)
  return { n, P, coef: planes, stride, edge }
}

/** sum_k coef_k[r] x[xo + r + off_k], planes `stride` apart, in the stencil's (CSR column) order. */
function stencilSum(coef: Float64Array, stride: number, x: Float64Array, xo: number, r: number, n: number): number {
  const q = xo + r
  let s = 0
  s += coef[r] * x[q - n - 1]
  s += coef[stride + r] * x[q - n]
  s += coef[2 * stride + r] * x[q - n + 1]
  s += coef[3 * stride + r] * x[q - 1]
  s += coef[4 * stride + r] * x[q]
  s += coef[5 * stride + r] * x[q + 1]
  s += coef[6 * stride + r] * x[q + n - 1]
  s += coef[7 * stride + r] * x[q + n]
  s += coef[8 * stride + r] * x[q + n + 1]
  return s
}

/** Edge row e's sum (core/sparse/kernels.ts spmvRows' order), x read from offset xo. */
function edgeSum(rowPtr: Int32Array, col: Int32Array, val: Float64Array, x: Float64Array, xo: number, e: number): number {
  let s = 0
  const end = rowPtr[e + 1]
  for (let q = rowPtr[e]; q < end; q++) s += val[q] * x[xo + col[q]]
  return s
}

/** What a row's sum s becomes (the twin's modes): y = s, r = b - s, out = x + scale (b - s). */
const PUT_SUM = 0
const PUT_RESIDUAL = 1
const PUT_JACOBI = 2

/**
 * The rows of patches [p0, p1), x read and out written at offset xo: inner rows by the stencil,
 * edge rows by the edge CSR (ePtr, eCol, eVal), each sum put by `mode`.
 */
function patchRows(
  mode: number, ePtr: Int32Array, eCol: Int32Array, eVal: Float64Array, coef: Float64Array, stride: number,
  x: Float64Array, xo: number, b: Float64Array | null, scale: Float64Array | null, out: Float64Array, n: number, p0: number, p1: number,
): void {
  const put = (r: number, s: number): void => {
    const u = xo + r
    if (mode === PUT_SUM) out[u] = s
    else if (mode === PUT_RESIDUAL) out[u] = (b as Float64Array)[u] - s
    else out[u] = x[u] + (scale as Float64Array)[u] * ((b as Float64Array)[u] - s)
  }
  for (let p = p0; p < p1; p++) {
    let e = p * edgeRowsOf(n)
    for (let j = 0; j < n; j++) {
      const r0 = p * n * n + n * j
      if (j === 0 || j === n - 1) {
        for (let i = 0; i < n; i++) put(r0 + i, edgeSum(ePtr, eCol, eVal, x, xo, e++))
        continue
      }
      put(r0, edgeSum(ePtr, eCol, eVal, x, xo, e++))
      for (let i = 1; i < n - 1; i++) put(r0 + i, stencilSum(coef, stride, x, xo, r0 + i, n))
      put(r0 + n - 1, edgeSum(ePtr, eCol, eVal, x, xo, e++))
    }
  }
}

/** y = A x over the rows of patches [p0, p1). */
export function stencilSpmvPatches(ePtr: Int32Array, eCol: Int32Array, eVal: Float64Array, coef: Float64Array, stride: number, x: Float64Array, y: Float64Array, n: number, p0: number, p1: number): void {
  patchRows(PUT_SUM, ePtr, eCol, eVal, coef, stride, x, 0, null, null, y, n, p0, p1)
}

/** r = b - A x over the rows of patches [p0, p1). */
export function stencilResidualPatches(ePtr: Int32Array, eCol: Int32Array, eVal: Float64Array, coef: Float64Array, stride: number, x: Float64Array, b: Float64Array, r: Float64Array, n: number, p0: number, p1: number): void {
  patchRows(PUT_RESIDUAL, ePtr, eCol, eVal, coef, stride, x, 0, b, null, r, n, p0, p1)
}

/** One damped Jacobi sweep out = x + scale (b - A x) over the rows of patches [p0, p1) (out is not x). */
export function stencilJacobiPatches(
  ePtr: Int32Array, eCol: Int32Array, eVal: Float64Array, coef: Float64Array, stride: number, x: Float64Array, b: Float64Array, scale: Float64Array, out: Float64Array, n: number, p0: number, p1: number,
): void {
  patchRows(PUT_JACOBI, ePtr, eCol, eVal, coef, stride, x, 0, b, scale, out, n, p0, p1)
}

const planes = [i32('edgePtr'), i32('edgeCol'), f64('edgeVal'), f64('coef'), int('stride')] as const
// (The rows' N argument is the level's n: patchRow weighs a patch by N^2 cells.)
export const STENCIL_SPMV = patchRow('stencilSpmv', [...planes, f64('x'), f64('y'), int('N'), size('patches')], 9, stencilSpmvPatches)
export const STENCIL_RESIDUAL = patchRow('stencilResidual', [...planes, f64('x'), f64('b'), f64('r'), int('N'), size('patches')], 9, stencilResidualPatches)
export const STENCIL_JACOBI = patchRow('stencilJacobi', [...planes, f64('x'), f64('b'), f64('scale'), f64('out'), int('N'), size('patches')], 9, stencilJacobiPatches)

/** y = A x through S (A's planes and edge rows). */
export function stencilSpmv(kernels: KernelBackend, S: PatchStencil, x: Float64Array, y: Float64Array): void {
  const E = S.edge
  kernels.run(STENCIL_SPMV, E.rowPtr, E.col, E.val, S.coef, S.stride, x, y, S.n, S.P)
}

/** r = b - A x. */
export function stencilResidual(kernels: KernelBackend, S: PatchStencil, x: Float64Array, b: Float64Array, r: Float64Array): void {
  const E = S.edge
  kernels.run(STENCIL_RESIDUAL, E.rowPtr, E.col, E.val, S.coef, S.stride, x, b, r, S.n, S.P)
}

/** out = x + scale (b - A x). */
export function stencilJacobi(kernels: KernelBackend, S: PatchStencil, x: Float64Array, b: Float64Array, scale: Float64Array, out: Float64Array): void {
  const E = S.edge
  kernels.run(STENCIL_JACOBI, E.rowPtr, E.col, E.val, S.coef, S.stride, x, b, scale, out, S.n, S.P)
}

/**
 * A as a LinearOperator through its stencil S (patchStencilOf's answer for A) where it has one,
 * else its CSR rows: the same bits either way. The diffusions' lockstep solve keeps its CSR
 * rows: its product of three vectors at once reads each entry once for all of them, and the
 * stencil's version measured no faster (2.9-3.1 against 2.6-3.1 ms on the 450-patch cage at
 * 32^2).
 */
export class PatchOperator implements LinearOperator {
  constructor(
    readonly A: CsrMatrix,
    readonly stencil: PatchStencil | null,
    readonly kernels: KernelBackend,
  ) {}
  apply(x: Float64Array, out: Float64Array): void {
    if (this.stencil) stencilSpmv(this.kernels, this.stencil, x, out)
    else spmv(this.kernels, this.A, x, out)
  }
  residual(b: Float64Array, x: Float64Array, r: Float64Array): void {
    if (this.stencil) stencilResidual(this.kernels, this.stencil, x, b, r)
    else spResidual(this.kernels, this.A, x, b, r)
  }
}
