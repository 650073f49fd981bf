// Sparse matrix products on the kernels: multiplyCsr's (csr.ts) Gustavson product as two kernel
// rows, a count pass and a fill pass, each splitting the rows of A across the threads, with
// the same entries, values and column order as multiplyCsr to the bit. galerkinOn builds the
// multigrid coarse operators R A P with them: serial in TypeScript they were the largest part
// of the AMG setup (4.3 of about 10 s in a profile of `eddy bench tetmesh`, about 6 ns per
// scattered product), and the tetrahedral liquid builds a hierarchy every substep.
//
// Why two passes: a row's entry count is only known once its columns are merged, and the rows
// are written by several threads into one array, so each thread counts its rows first, a
// prefix sum places them, and the fill pass writes each row where it belongs. Each pass keeps
// a dense marker (and the fill a dense accumulator) over B's columns per thread, the kernels'
// per-thread scratch; every call clears its markers, since a scratch block of the same size
// may have served another kernel in between.
import { defineKernel, f64, i32, int, type KernelArgs, scratch, size } from '../kernelTable'
import type { KernelBackend } from '../kernelTypes'
import { type CsrMatrix, galerkin, multiplyCsr, nnzOf, sortColumns } from './csr'

/** counts[i] = the number of distinct columns of row i of A B, rows [r0, r1). mark: bCols entries of scratch. */
export function spgemmCountRows(aPtr: Int32Array, aCol: Int32Array, bPtr: Int32Array, bCol: Int32Array, bCols: number, counts: Int32Array, scratchMark: Int32Array | null, r0: number, r1: number): void {
  // (null: a caller without scratch, e.g. the reference run for arrays outside the kernels' memory.)
  const mark = scratchMark ?? new Int32Array(bCols)
  mark.fill(0, 0, bCols)
  for (let i = r0; i < r1; i++) {
    // Row i stamps i + 1: unique within the call, and never the cleared 0.
    const stamp = i + 1
    let c = 0
    for (let p = aPtr[i]; p < aPtr[i + 1]; p++) {
      const k = aCol[p]
      for (let q = bPtr[k]; q < bPtr[k + 1]; q++) {
        const j = bCol[q]
        if (mark[j] !== stamp) {
          mark[j] = stamp
          c++
        }
      }
    }
    counts[i] = c
  }
}

/**
 * Rows [r0, r1) of C = A B into cCol, cVal at cPtr (from the count pass), exactly as
 * multiplyCsr computes them: entry (i, j) sums A_ik B_kj in the order of A's row i, then B's
 * row k; columns in the order first reached, sorted when `sorted` is 1. work: 2 bCols float64
 * of scratch (the accumulator, then the markers).
 */
export function spgemmFillRows(
  aPtr: Int32Array, aCol: Int32Array, aVal: Float64Array, bPtr: Int32Array, bCol: Int32Array, bVal: Float64Array, bCols: number,
  cPtr: Int32Array, cCol: Int32Array, cVal: Float64Array, sorted: number, scratchWork: Float64Array | null, r0: number, r1: number,
): void {
  const work = scratchWork ?? new Float64Array(2 * bCols)
  const acc = work.subarray(0, bCols)
  const mark = work.subarray(bCols, 2 * bCols)
  mark.fill(0)
  for (let i = r0; i < r1; i++) {
    const stamp = i + 1
    const start = cPtr[i]
    let end = start
    for (let p = aPtr[i]; p < aPtr[i + 1]; p++) {
      const k = aCol[p]
      const a = aVal[p]
      for (let q = bPtr[k]; q < bPtr[k + 1]; q++) {
        const j = bCol[q]
        if (mark[j] !== stamp) {
          mark[j] = stamp
          acc[j] = a * bVal[q]
          cCol[end++] = j
        } else acc[j] += a * bVal[q]
      }
    }
    if (sorted !== 0) sortColumns(cCol, start, end)
    for (let t = start; t < end; t++) cVal[t] = acc[cCol[t]]
  }
}

const num = (a: KernelArgs, i: number) => a[i] as number
/**
 * For rows over a matrix A whose rowPtr is the first argument: a row's cost is about its
 * entries in A (each scatters a row of another matrix), so balance by A's rowPtr; and A's
 * entry count, the rows' work estimate.
 */
export const aRows = (a: KernelArgs) => a[0] as Int32Array
export const aNnz = (a: KernelArgs) => {
  const p = a[0] as Int32Array
  return p[p.length - 1]
}

/** spgemmCountRows over A's rows. Args: aPtr, aCol, bPtr, bCol, bCols, counts, mark, rows. */
export const SPGEMM_COUNT = defineKernel({
  name: 'spgemmCount',
  args: [i32('aPtr'), i32('aCol'), i32('bPtr'), i32('bCol'), int('bCols'), i32('counts'), scratch('mark', (a) => 4 * num(a, 4)), size('rows')],
  split: 'rows',
  range: (a) => num(a, 7),
  // Each entry of A scatters a row of B: a few of B's entries per entry of A.
  work: (a) => 4 * aNnz(a),
  balance: aRows,
  worker: true,
  ref: spgemmCountRows,
})

/** spgemmFillRows over A's rows. Args: aPtr, aCol, aVal, bPtr, bCol, bVal, bCols, cPtr, cCol, cVal, sorted, work, rows. */
export const SPGEMM_FILL = defineKernel({
  name: 'spgemmFill',
  args: [
    i32('aPtr'), i32('aCol'), f64('aVal'), i32('bPtr'), i32('bCol'), f64('bVal'), int('bCols'),
    i32('cPtr'), i32('cCol'), f64('cVal'), int('sorted'), scratch('work', (a) => 16 * num(a, 6)), size('rows'),
  ],
  split: 'rows',
  range: (a) => num(a, 12),
  work: (a) => 4 * aNnz(a),
  balance: aRows,
  worker: true,
  ref: spgemmFillRows,
})

/**
 * A B as multiplyCsr(A, B, sorted) computes it, to the bit, on `kernels`: A and B in the
 * kernels' memory, the product allocated there. On the TypeScript kernels, multiplyCsr itself
 * (one pass, no scratch).
 */
export function multiplyCsrOn(kernels: KernelBackend, A: CsrMatrix, B: CsrMatrix, sorted = true): CsrMatrix {
  if (kernels.kind === 'ts') return multiplyCsr(A, B, sorted)
  if (A.cols !== B.n) throw new Error(`multiplyCsrOn: ${A.n}x${A.cols} times ${B.n}x${B.cols}`)
  const n = A.n
  const rowPtr = kernels.i32(n + 1)
  // Row i's count lands in rowPtr[i + 1]; the prefix sum then turns counts into offsets.
  kernels.run(SPGEMM_COUNT, A.rowPtr, A.col, B.rowPtr, B.col, B.cols, rowPtr.subarray(1), null, n)
  for (let i = 0; i < n; i++) rowPtr[i + 1] += rowPtr[i]
  const nnz = rowPtr[n]
  const col = kernels.i32(nnz)
  const val = kernels.f64(nnz)
  kernels.run(SPGEMM_FILL, A.rowPtr, A.col, A.val, B.rowPtr, B.col, B.val, B.cols, rowPtr, col, val, sorted ? 1 : 0, null, n)
  return { n, cols: B.cols, rowPtr, col, val }
}

/**
 * galerkin(A, P, R) (csr.ts: R (A P), A P's rows unsorted) on `kernels`, the same bits, as
 * plain arrays outside the kernels' memory: A P and the product are made inside
 * KernelBackend.scoped, which gives their memory back (A P at a million unknowns is hundreds
 * of megabytes the bump arena would otherwise keep), so the result is copied out. A, P and R
 * must be in the kernels' memory.
 */
export function galerkinOn(kernels: KernelBackend, A: CsrMatrix, P: CsrMatrix, R: CsrMatrix): CsrMatrix {
  if (kernels.kind === 'ts') return galerkin(A, P, R)
  return kernels.scoped(() => {
    const AP = multiplyCsrOn(kernels, A, P, false)
    const C = multiplyCsrOn(kernels, R, AP, true)
    const nnz = nnzOf(C)
    // slice() copies into ordinary (unshared) buffers, which outlive the scope.
    return { n: C.n, cols: C.cols, rowPtr: C.rowPtr.slice(), col: C.col.slice(0, nnz), val: C.val.slice(0, nnz) }
  })
}
