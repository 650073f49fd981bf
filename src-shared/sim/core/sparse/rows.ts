// Kernel-table rows of the sparse kernels (references in kernels.ts, twins in
// wasm/assembly/sparse.ts). Matrix rows split the matrix's rows (or a row list) across
// threads; vector rows split fixed-size blocks of SPARSE_BLOCK entries, so reductions have
// the same partials whatever the thread count.
import { defineKernel, f64, float, i32, int, type KernelArgs, size } from '../kernelTable'
import { axpyBlocks, dotBlocks, extrapolateBlocks, gsBlocks, scaleBlocks, spmvMultiRows, gsRows, gsPackedRows, icFactorSlab, icSolveSlab, jacobiRows, residualRows, spmvAddRows, spmvRows, updateIterateBlocks, xpbyBlocks, zeroRangesBlocks } from './kernels'

/** Entries per reduction block (even, so the two-lane sums start on a lane boundary). */
export const SPARSE_BLOCK = 4096

/** Blocks covering n entries. */
export function blockCount(n: number, block = SPARSE_BLOCK): number {
  return Math.ceil(n / block)
}

const num = (a: KernelArgs, i: number) => a[i] as number
/** Nonzeros of the whole matrix: the work estimate of a matrix row (one multiply-add each). */
const nnz = (a: KernelArgs) => {
  const rowPtr = a[0] as Int32Array
  return rowPtr[rowPtr.length - 1]
}
const csr = [i32('rowPtr'), i32('col'), f64('val')] as const

/** y = A x (rows of A; y must not alias x). Args: rowPtr, col, val, x, y, rows. */
export const SPMV = defineKernel({
  name: 'spmv',
  args: [...csr, f64('x'), f64('y'), size('rows')],
  split: 'rows',
  range: (a) => num(a, 5),
  work: nnz,
  ref: spmvRows,
})

/**
 * y_d = A x_d for `count` vectors laid out n apart in x and y (several right-hand sides with
 * one matrix): the twin reads each row's entries once for all of them. Each y_d is SPMV's bits.
 * Args: rowPtr, col, val, x, y, n, count, rows.
 */
export const SPMV_MULTI = defineKernel({
  name: 'spmvMulti',
  args: [...csr, f64('x'), f64('y'), int('n'), int('count'), size('rows')],
  split: 'rows',
  range: (a) => num(a, 7),
  work: (a) => nnz(a) * num(a, 6),
  ref: spmvMultiRows,
})

/** y += A x (prolongation: A = P). */
export const SPMV_ADD = defineKernel({
  name: 'spmvAdd',
  args: [...csr, f64('x'), f64('y'), size('rows')],
  split: 'rows',
  range: (a) => num(a, 5),
  work: nnz,
  ref: spmvAddRows,
})

/** r = b - A x. Args: rowPtr, col, val, x, b, r, rows. */
export const SP_RESIDUAL = defineKernel({
  name: 'spResidual',
  args: [...csr, f64('x'), f64('b'), f64('r'), size('rows')],
  split: 'rows',
  range: (a) => num(a, 6),
  work: nnz,
  ref: residualRows,
})

/** One damped Jacobi sweep into a second vector: out = x + scale (b - A x). */
export const JACOBI_ROWS = defineKernel({
  name: 'jacobiRows',
  args: [...csr, f64('x'), f64('b'), f64('scale'), f64('out'), size('rows')],
  split: 'rows',
  range: (a) => num(a, 7),
  work: nnz,
  ref: jacobiRows,
})

/** Gauss-Seidel on a list of rows of one colour (positions of `rows` are the range). */
export const GS_ROWS = defineKernel({
  name: 'gsRows',
  args: [...csr, f64('x'), f64('b'), i32('rows')],
  split: 'rows',
  range: (a) => (a[5] as Int32Array).length,
  // The list's share of the nonzeros, roughly: its rows times the mean row length.
  work: (a, n) => {
    const rowPtr = a[0] as Int32Array
    const rows = rowPtr.length - 1
    return rows > 0 ? Math.ceil((n * rowPtr[rows]) / rows) : n
  },
  // A colour's rows differ in length (a tetrahedron's, a hexahedron's, a Galerkin row): pieces
  // taken by whichever thread is free keep the threads finishing together (rows of one colour
  // do not read each other, so any order gives the same bits).
  piecesPerThread: 4,
  ref: gsRows,
})

/**
 * Gauss-Seidel on one colour of a colour-packed matrix (kernels.ts gsPackedRows): packed rows
 * [start, start + count), row order[q] of A at packed row q. Args: rowPtr, col, val (packed), x,
 * b, order, start, count.
 */
export const GS_PACKED = defineKernel({
  name: 'gsPacked',
  args: [...csr, f64('x'), f64('b'), i32('order'), int('start'), size('count')],
  split: 'rows',
  range: (a) => num(a, 7),
  work: (a, n) => {
    const rowPtr = a[0] as Int32Array, start = num(a, 6)
    return rowPtr[start + n] - rowPtr[start]
  },
  // As GS_ROWS: rows differ in length, and rows of one colour do not read each other.
  piecesPerThread: 4,
  ref: gsPackedRows,
})

/**
 * Gauss-Seidel in fixed blocks of rows, other blocks read from xOld, over rows laid out by
 * blockOrderRows (kernels.ts gsBlocks). Args: csr, split, x, b, xOld, n, block, forward.
 */
export const GS_BLOCKS = defineKernel({
  name: 'gsBlocks',
  args: [...csr, i32('split'), f64('x'), f64('b'), f64('xOld'), int('n'), int('block'), int('forward')],
  split: 'blocks',
  range: (a) => Math.ceil(num(a, 7) / num(a, 8)),
  work: nnz,
  // A block's cost is its rows' nonzeros, which differ between blocks: each block is a piece,
  // taken by whichever thread is free (the blocks read each other from xOld, so any order gives the same bits).
  piecesPerThread: 4,
  ref: gsBlocks,
})

/** a . b in fixed blocks. Args: a, b, n, block, partial (blockCount(n) entries). */
export const DOT_BLOCKS = defineKernel({
  name: 'dotBlocks',
  args: [f64('a'), f64('b'), int('n'), int('block'), f64('partial')],
  split: 'blocks',
  range: (a) => Math.ceil(num(a, 2) / num(a, 3)),
  work: (a) => num(a, 2),
  partials: 'partial',
  ref: dotBlocks,
})

/** y += alpha x. Args: y, alpha, x, n, block. */
export const AXPY_BLOCKS = defineKernel({
  name: 'axpyBlocks',
  args: [f64('y'), float('alpha'), f64('x'), int('n'), int('block')],
  split: 'blocks',
  range: (a) => Math.ceil(num(a, 3) / num(a, 4)),
  work: (a) => num(a, 3),
  ref: axpyBlocks,
})

/**
 * Zeroes the same range [from, to) of `count` vectors laid out `stride` apart in one float64
 * array (a solver's scratch block). Args: a, stride, count, from, to, block. Twin: memory.fill,
 * several times TypedArray.fill's speed on the kernels' shared memory (which V8 fills with
 * relaxed atomic stores), and split over the threads.
 */
export const ZERO_BLOCKS = defineKernel({
  name: 'zeroRangesBlocks',
  args: [f64('a'), int('stride'), int('count'), int('from'), int('to'), int('block')],
  split: 'blocks',
  range: (a) => (num(a, 4) > num(a, 3) ? num(a, 2) * Math.ceil((num(a, 4) - num(a, 3)) / num(a, 5)) : 0),
  work: (a) => num(a, 2) * Math.max(0, num(a, 4) - num(a, 3)),
  ref: zeroRangesBlocks,
})

/** x = a x + b prev, prev = the old x. Args: x, prev, a, b, n, block. */
export const EXTRAPOLATE_BLOCKS = defineKernel({
  name: 'extrapolateBlocks',
  args: [f64('x'), f64('prev'), float('a'), float('b'), int('n'), int('block')],
  split: 'blocks',
  range: (a) => Math.ceil(num(a, 4) / num(a, 5)),
  work: (a) => num(a, 4),
  ref: extrapolateBlocks,
})

/** s = z + beta s. Args: s, z, beta, n, block. */
export const XPBY_BLOCKS = defineKernel({
  name: 'xpbyBlocks',
  args: [f64('s'), f64('z'), float('beta'), int('n'), int('block')],
  split: 'blocks',
  range: (a) => Math.ceil(num(a, 3) / num(a, 4)),
  work: (a) => num(a, 3),
  ref: xpbyBlocks,
})

/** z = d r entry by entry (Jacobi's z = D^-1 r with d = 1 / diag). Args: z, d, r, n, block. */
export const SCALE_BLOCKS = defineKernel({
  name: 'scaleBlocks',
  args: [f64('z'), f64('d'), f64('r'), int('n'), int('block')],
  split: 'blocks',
  range: (a) => Math.ceil(num(a, 3) / num(a, 4)),
  work: (a) => num(a, 3),
  ref: scaleBlocks,
})

/** x += alpha s; r -= alpha q; returns |r|^2. Args: x, r, s, q, alpha, n, block, partial. */
export const UPDATE_ITERATE_BLOCKS = defineKernel({
  name: 'updateIterateBlocks',
  args: [f64('x'), f64('r'), f64('s'), f64('q'), float('alpha'), int('n'), int('block'), f64('partial')],
  split: 'blocks',
  range: (a) => Math.ceil(num(a, 5) / num(a, 6)),
  work: (a) => 2 * num(a, 5),
  partials: 'partial',
  ref: updateIterateBlocks,
})

/**
 * Incomplete Cholesky's triangular solves (icSolveSlab): one index, on the calling thread (each
 * unknown waits for the ones before it). Args: rowPtr, col, val, invDiag, upPtr, upRow, upVal,
 * r, index (nullable), y, out, n.
 */
export const IC_SOLVE = defineKernel({
  name: 'icSolve',
  args: [...csr, f64('invDiag'), i32('upPtr'), i32('upRow'), f64('upVal'), f64('r'), i32('index', true), f64('y'), f64('out'), int('n')],
  split: 'rows',
  range: () => 1,
  work: () => 0,
  ref: icSolveSlab,
})

/**
 * IC(0)'s factorisation (icFactorSlab): one index, on the calling thread. Args: rowPtr, col,
 * val, diag, invDiag, pos, alpha, n, status; returns status[0] (0: every pivot positive).
 */
export const IC_FACTOR = defineKernel({
  name: 'icFactor',
  args: [...csr, f64('diag'), f64('invDiag'), i32('pos'), float('alpha'), int('n'), f64('status')],
  split: 'rows',
  range: () => 1,
  partials: 'status',
  work: () => 0,
  ref: icFactorSlab,
})
