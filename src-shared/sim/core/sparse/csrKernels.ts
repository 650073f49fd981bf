// The multigrid setups' CSR transposes, in-place symmetrisations, greedy row colourings and
// colour-packed copies (csr.ts transposeInto, symmetriseInPlace, rowColoursInto,
// packedRowStarts and packRowsInto) as kernel rows, so the
// WebAssembly backend runs them in its memory: each is one sequential pass (a counting sort, a
// cursor per row, colours in row order), serial rows (range 1) whose twins in
// wasm/assembly/amgSetup.ts repeat the references' operations (the same bits); the packed
// copy's entries are split over the threads. Serial in TypeScript they were about a sixth of
// the aggregation hierarchy's setup at a million unknowns (the copy alone 63-66 ms there, over
// memory the WebAssembly side already holds).
import { TS_KERNELS } from '../kernelBackend'
import { defineKernel, f64, i32, int, type KernelArgs, scratch, size } from '../kernelTable'
import type { KernelBackend } from '../kernelTypes'
import { coloringFrom, colorRows, type CsrMatrix, maxRowLength, packedRowStarts, packRowsInto, type RowColoring, rowColoursInto, symmetriseInPlace, transposeCsr, transposeInto } from './csr'

const num = (a: KernelArgs, i: number) => a[i] as number

/** transposeInto as a row. Args: rowPtr, col, val, n, cols, tPtr, tCol, tVal, next (cols int32 of scratch). */
export const TRANSPOSE_CSR = defineKernel({
  name: 'transposeCsrRows',
  args: [i32('rowPtr'), i32('col'), f64('val'), int('n'), int('cols'), i32('tPtr'), i32('tCol'), f64('tVal'), scratch('next', (a) => 4 * num(a, 4) + 4)],
  split: 'rows',
  range: () => 1,
  work: () => 0,
  worker: true,
  ref: (rowPtr: Int32Array, col: Int32Array, val: Float64Array, n: number, cols: number, tPtr: Int32Array, tCol: Int32Array, tVal: Float64Array, next: Int32Array | null) =>
    transposeInto(rowPtr, col, val, n, cols, tPtr, tCol, tVal, next ?? new Int32Array(cols)),
})

/** symmetriseInPlace as a row; flag[0] its answer. Args: rowPtr, col, val, n, next (n int32 of scratch), flag. */
export const SYMMETRISE_CSR = defineKernel({
  name: 'symmetriseCsrRows',
  args: [i32('rowPtr'), i32('col'), f64('val'), int('n'), scratch('next', (a) => 4 * num(a, 3) + 4), i32('flag')],
  split: 'rows',
  range: () => 1,
  work: () => 0,
  worker: true,
  ref: (rowPtr: Int32Array, col: Int32Array, val: Float64Array, n: number, next: Int32Array | null, flag: Int32Array) => {
    flag[0] = symmetriseInPlace(rowPtr, col, val, n, next ?? new Int32Array(n))
  },
})

/** A^T as transposeCsr(A) gives it, made on `kernels` (A in its memory; on TypeScript, transposeCsr itself). */
export function transposeCsrOn(kernels: KernelBackend, A: CsrMatrix): CsrMatrix {
  if (kernels === TS_KERNELS) return transposeCsr(A)
  const { n, cols } = A
  const nnz = A.rowPtr[n]
  const T: CsrMatrix = { n: cols, cols: n, rowPtr: kernels.i32(cols + 1), col: kernels.i32(nnz), val: kernels.f64(nnz) }
  kernels.run(TRANSPOSE_CSR, A.rowPtr, A.col, A.val, n, cols, T.rowPtr, T.col, T.val, null)
  return T
}

/** symmetrised(A, true) on `kernels` (A in its memory): A, its values averaged with their mirrors when its pattern is symmetric. */
export function symmetrisedOn(kernels: KernelBackend, A: CsrMatrix): CsrMatrix {
  const flag = kernels === TS_KERNELS ? new Int32Array(1) : kernels.i32(1)
  kernels.run(SYMMETRISE_CSR, A.rowPtr, A.col, A.val, A.n, null, flag)
  return A
}

/** rowColoursInto as a row; color[n] the number of colours. Args: rowPtr, col, n, color (n + 1 int32), maxRow (the longest row), taken (scratch). */
export const COLOR_ROWS = defineKernel({
  name: 'colorRowsSerial',
  args: [i32('rowPtr'), i32('col'), int('n'), i32('color'), int('maxRow'), scratch('taken', (a) => 4 * num(a, 4) + 8)],
  split: 'rows',
  range: () => 1,
  work: () => 0,
  worker: true,
  ref: (rowPtr: Int32Array, col: Int32Array, n: number, color: Int32Array, maxRow: number, taken: Int32Array | null) => {
    color[n] = rowColoursInto(rowPtr, col, n, color, taken ?? new Int32Array(maxRow + 1))
  },
})

/** colorRows(A, kernels), the colours found on `kernels` where A lies in its memory (else, and on TypeScript, colorRows itself). */
export function colorRowsOn(kernels: KernelBackend, A: CsrMatrix): RowColoring {
  if (kernels === TS_KERNELS || !kernels.holds(A.rowPtr) || !kernels.holds(A.col)) return colorRows(A, kernels)
  const { n } = A
  const color = kernels.i32(n + 1)
  kernels.run(COLOR_ROWS, A.rowPtr, A.col, n, color, maxRowLength(A.rowPtr, n), null)
  return coloringFrom(color, n, color[n], kernels)
}

/** packedRowStarts as a serial row. Args: rowPtr, order, n, outPtr (n + 1). */
export const PACKED_ROW_STARTS = defineKernel({
  name: 'packedRowStartsSerial',
  args: [i32('rowPtr'), i32('order'), int('n'), i32('outPtr')],
  split: 'rows',
  range: () => 1,
  work: () => 0,
  worker: true,
  ref: (rowPtr: Int32Array, order: Int32Array, n: number, outPtr: Int32Array) => packedRowStarts(rowPtr, order, n, outPtr),
})

/** packRowsInto over the packed rows. Args: rowPtr, col, val, order, outPtr, outCol, outVal, rows. */
export const PACK_ROWS = defineKernel({
  name: 'packRows',
  args: [i32('rowPtr'), i32('col'), f64('val'), i32('order'), i32('outPtr'), i32('outCol'), f64('outVal'), size('rows')],
  split: 'rows',
  range: (a) => num(a, 7),
  work: (a) => (a[0] as Int32Array)[num(a, 7)],
  ref: packRowsInto,
})

/**
 * A's rows in the order `order` (packed row q is row order[q], its entries in A's storage
 * order), allocated by `kernels`; made by the rows above where A and order lie in its memory.
 */
export function packedRowsOn(kernels: KernelBackend, A: CsrMatrix, order: Int32Array): CsrMatrix {
  const { n } = A
  const nnz = A.rowPtr[n]
  const P: CsrMatrix = { n, cols: A.cols, rowPtr: kernels.i32(n + 1), col: kernels.i32(nnz), val: kernels.f64(nnz) }
  kernels.run(PACKED_ROW_STARTS, A.rowPtr, order, n, P.rowPtr)
  kernels.run(PACK_ROWS, A.rowPtr, A.col, A.val, order, P.rowPtr, P.col, P.val, n)
  return P
}
