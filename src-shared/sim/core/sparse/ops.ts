// The sparse API over a kernel backend: SpMV, residual, restriction and prolongation as
// sparse products, block-deterministic vector ops (PcgSolver's VectorOps), a CSR linear
// operator, and a multicoloured Gauss-Seidel smoother / symmetric Gauss-Seidel
// preconditioner. Each call runs one kernel-table row (rows.ts) on `kernels`: the TypeScript
// reference, or the WebAssembly twin split by rows / blocks across the slab pool (its arrays
// must then come from the backend: copyCsr, kernels.f64).
import { TS_KERNELS } from '../kernelBackend'
import type { KernelBackend } from '../kernelTypes'
import type { LinearOperator, Preconditioner, VectorOps } from '../pcg'
import type { CsrMatrix, RowColoring } from './csr'
import { colorRowsOn, packedRowsOn } from './csrKernels'
import { RESIDUAL_MULTI } from './jacobiCgKernels'
import { AXPY_BLOCKS, blockCount, DOT_BLOCKS, GS_BLOCKS, GS_PACKED, GS_ROWS, SP_RESIDUAL, SPARSE_BLOCK, SPMV, SPMV_ADD, UPDATE_ITERATE_BLOCKS, XPBY_BLOCKS } from './rows'

/** y = A x (y must not alias x). */
export function spmv(kernels: KernelBackend, A: CsrMatrix, x: Float64Array, y: Float64Array): void {
  kernels.run(SPMV, A.rowPtr, A.col, A.val, x, y, A.n)
}

/** y += A x. */
export function spmvAdd(kernels: KernelBackend, A: CsrMatrix, x: Float64Array, y: Float64Array): void {
  kernels.run(SPMV_ADD, A.rowPtr, A.col, A.val, x, y, A.n)
}

/** r = b - A x. */
export function spResidual(kernels: KernelBackend, A: CsrMatrix, x: Float64Array, b: Float64Array, r: Float64Array): void {
  kernels.run(SP_RESIDUAL, A.rowPtr, A.col, A.val, x, b, r, A.n)
}

/**
 * r_d = b - A x for the systems d listed in `systems` (x, b, r: `count` vectors n apart, the
 * layout of RESIDUAL_MULTI): one pass over A for all when every system is listed (and there are
 * several), else one spResidual each. The same bits either way.
 */
export function spResiduals(kernels: KernelBackend, A: CsrMatrix, x: Float64Array, b: Float64Array, r: Float64Array, n: number, count: number, systems: readonly number[]): void {
  if (systems.length === count && count > 1) {
    kernels.run(RESIDUAL_MULTI, A.rowPtr, A.col, A.val, x, b, r, n, count, n)
    return
  }
  const part = (a: Float64Array, d: number) => a.subarray(d * n, (d + 1) * n)
  for (const d of systems) spResidual(kernels, A, part(x, d), part(b, d), part(r, d))
}

/** Restriction as a sparse product: coarse = R fine, R = P^T stored explicitly (transposeCsr). */
export function restrictCsr(kernels: KernelBackend, R: CsrMatrix, fine: Float64Array, coarse: Float64Array): void {
  spmv(kernels, R, fine, coarse)
}

/** Prolongation as a sparse product: fine += P coarse. */
export function prolongAddCsr(kernels: KernelBackend, P: CsrMatrix, coarse: Float64Array, fine: Float64Array): void {
  spmvAdd(kernels, P, coarse, fine)
}

/**
 * PcgSolver's vector kernels on plain vectors of length n, reduced in fixed blocks of
 * `block` entries (partials summed in block order): the same bits on any thread count.
 */
export class SparseVectorOps implements VectorOps {
  private readonly partial: Float64Array

  constructor(
    readonly n: number,
    readonly kernels: KernelBackend = TS_KERNELS,
    readonly block = SPARSE_BLOCK,
  ) {
    if (!(block > 0 && block % 2 === 0)) throw new Error('SparseVectorOps: block must be a positive even number')
    this.partial = kernels.f64(Math.max(1, blockCount(n, block)))
  }

  alloc(): Float64Array {
    return this.kernels.f64(this.n)
  }
  dot(a: Float64Array, b: Float64Array): number {
    return this.kernels.run(DOT_BLOCKS, a, b, this.n, this.block, this.partial)
  }
  axpy(y: Float64Array, alpha: number, x: Float64Array): void {
    this.kernels.run(AXPY_BLOCKS, y, alpha, x, this.n, this.block)
  }
  updateIterate(x: Float64Array, r: Float64Array, s: Float64Array, q: Float64Array, alpha: number): number {
    return this.kernels.run(UPDATE_ITERATE_BLOCKS, x, r, s, q, alpha, this.n, this.block, this.partial)
  }
  updateSearch(s: Float64Array, z: Float64Array, beta: number): void {
    this.kernels.run(XPBY_BLOCKS, s, z, beta, this.n, this.block)
  }
  copy(dst: Float64Array, src: Float64Array): void {
    dst.set(src)
  }
}

/** A square CSR matrix as PcgSolver's linear operator. */
export class CsrOperator implements LinearOperator {
  constructor(
    readonly A: CsrMatrix,
    readonly kernels: KernelBackend = TS_KERNELS,
  ) {}
  apply(x: Float64Array, out: Float64Array): void {
    spmv(this.kernels, this.A, x, out)
  }
  residual(b: Float64Array, x: Float64Array, r: Float64Array): void {
    spResidual(this.kernels, this.A, x, b, r)
  }
}

/**
 * Multicoloured Gauss-Seidel: the rows coloured greedily (colorRows), each colour's rows
 * relaxed in parallel (split across threads; rows of one colour do not couple, so the bits do
 * not depend on the split), colours in order. A backward sweep takes the colours in reverse,
 * so forward + backward is a symmetric Gauss-Seidel sweep.
 */
export class MulticolorGaussSeidel {
  readonly coloring: RowColoring
  /** Each colour's rows (views of coloring.order). */
  private readonly lists: Int32Array[]
  /**
   * A's rows copied in colour order (packed row q is row coloring.order[q]), so a colour's sweep
   * streams its own entries: with A's rows in place a colour's rows lie between the other
   * colours', and each sweep pulls in nearly every cache line of the matrix. The same bits
   * (GS_PACKED repeats GS_ROWS's operations on the same rows). Measured on 2 threads, the two
   * ways alternated in one process: a symmetric sweep of the ramp jet's hybrid pressure matrix
   * (126,175 unknowns, 5 colours) 3.51 -> 3.09 ms, of a tetrahedral ball's (1,009,152 unknowns,
   * 4 colours) 26.5-26.8 -> 19.2-19.7 ms, and the ball's AMG-CG solve (smoothed aggregation,
   * 11 iterations) 1235 -> 1103 ms. The copy costs one pass over A (26 ms at the ball's 5M
   * entries in reused memory, 63-70 in fresh), paid back within a few V-cycles. null: not packed.
   */
  private readonly packed: CsrMatrix | null

  constructor(
    readonly A: CsrMatrix,
    readonly kernels: KernelBackend = TS_KERNELS,
    coloring?: RowColoring,
    pack = true,
  ) {
    this.coloring = coloring ?? colorRowsOn(kernels, A)
    const { colors, order, colorStart } = this.coloring
    this.lists = []
    for (let c = 0; c < colors; c++) this.lists.push(order.subarray(colorStart[c], colorStart[c + 1]))
    this.packed = pack && colors > 1 ? packedRowsOn(kernels, A, order) : null
  }

  /** Relaxes colour c's rows. */
  relaxColor(x: Float64Array, b: Float64Array, c: number): void {
    const list = this.lists[c]
    if (list.length === 0) return
    const P = this.packed
    if (P) this.kernels.run(GS_PACKED, P.rowPtr, P.col, P.val, x, b, this.coloring.order, this.coloring.colorStart[c], list.length)
    else this.kernels.run(GS_ROWS, this.A.rowPtr, this.A.col, this.A.val, x, b, list)
  }

  /** One sweep over every colour, forward (0 .. colors-1) or backward. */
  sweep(x: Float64Array, b: Float64Array, forward = true): void {
    const C = this.lists.length
    for (let t = 0; t < C; t++) this.relaxColor(x, b, forward ? t : C - 1 - t)
  }

  /** A forward then a backward sweep (symmetric). */
  symmetricSweep(x: Float64Array, b: Float64Array): void {
    this.sweep(x, b, true)
    this.sweep(x, b, false)
  }
}

/**
 * Gauss-Seidel in fixed blocks of rows (GS_BLOCKS): each block swept in row order on its own,
 * reading the other blocks' unknowns as they were when the sweep began, so the blocks run on any
 * threads with the same bits. A backward sweep reverses each block, so forward + backward is
 * symmetric (block Jacobi between blocks, symmetric Gauss-Seidel within).
 *
 * The constructor lays A's rows out for the sweep, in place (blockOrderRows): the same matrix,
 * each row's entries reordered, so products and residuals over A stay valid. A is the AMG's own
 * coarse matrix where this runs; a caller that shares A sees its rows in the new order.
 */
export class BlockGaussSeidel {
  readonly block: number
  readonly blocks: number
  private readonly xOld: Float64Array
  /** Per row the place of its first entry in another block, -1 without a diagonal (blockOrderRows). */
  private readonly split: Int32Array

  constructor(
    readonly A: CsrMatrix,
    readonly kernels: KernelBackend = TS_KERNELS,
    // Eight blocks (of at least 64 rows): work for up to 8 threads, few block edges (sixteen
    // made the AMG's V-cycle factor grow from 0.036 to 0.058 between 10k and 250k unknowns of
    // 3D Poisson, eight from 0.034 to 0.050, colours from 0.038 to 0.047; amg.test.ts). The
    // split depends on the matrix alone, so the bits do not depend on the thread count.
    block = Math.max(64, Math.ceil(A.n / 8)),
  ) {
    this.block = block
    this.blocks = Math.ceil(A.n / block)
    this.xOld = this.blocks > 1 ? kernels.f64(A.n) : new Float64Array(0)
    this.split = blockOrderRows(A, block, kernels.i32(A.n))
  }

  sweep(x: Float64Array, b: Float64Array, forward = true): void {
    if (this.blocks > 1) this.xOld.set(x.subarray(0, this.A.n))
    this.kernels.run(GS_BLOCKS, this.A.rowPtr, this.A.col, this.A.val, this.split, x, b, this.blocks > 1 ? this.xOld : x, this.A.n, this.block, forward ? 1 : 0)
  }

  symmetricSweep(x: Float64Array, b: Float64Array): void {
    this.sweep(x, b, true)
    this.sweep(x, b, false)
  }
}

/**
 * Reorders each row of A in place for GS_BLOCKS with blocks of `block` rows: the diagonal first,
 * then the entries whose column lies in the row's own block, then the others, each group in its
 * storage order. Into split (returned) goes per row the place of its first entry in another
 * block, or -1 for a row without a diagonal (GS_BLOCKS leaves it alone, as a zero diagonal).
 * The sweep then reads a row's own block and the others in two plain loops: with the column's
 * block tested per entry and the unknown picked from x or xOld, a sweep of the hybrid mesh's
 * first coarse level took 1.2x to 1.6x as long (2026-12-07). A row laid out already keeps its order.
 */
export function blockOrderRows(A: CsrMatrix, block: number, split: Int32Array): Int32Array {
  const { n, rowPtr, col, val } = A
  let longest = 0
  for (let i = 0; i < n; i++) longest = Math.max(longest, rowPtr[i + 1] - rowPtr[i])
  // One pass over a row sorts its entries into the two groups, a second writes them back.
  const ownC = new Int32Array(longest), ownV = new Float64Array(longest)
  const otherC = new Int32Array(longest), otherV = new Float64Array(longest)
  for (let i = 0; i < n; i++) {
    const start = rowPtr[i], end = rowPtr[i + 1]
    const r0 = i - (i % block), r1 = r0 + block
    let own = 0, other = 0, diag = -1
    for (let p = start; p < end; p++) {
      const c = col[p]
      if (c === i && diag < 0) diag = p
      else if (c >= r0 && c < r1) {
        ownC[own] = c
        ownV[own++] = val[p]
      } else {
        otherC[other] = c
        otherV[other++] = val[p]
      }
    }
    let q = start
    if (diag >= 0) {
      val[q] = val[diag]
      col[q++] = i
    }
    for (let t = 0; t < own; t++, q++) {
      col[q] = ownC[t]
      val[q] = ownV[t]
    }
    split[i] = diag >= 0 ? q : -1
    for (let t = 0; t < other; t++, q++) {
      col[q] = otherC[t]
      val[q] = otherV[t]
    }
  }
  return split
}

/**
 * Symmetric multicolour Gauss-Seidel as a PCG preconditioner: z = M^-1 r with
 * M = (D + L) D^-1 (D + U) in the colour ordering, i.e. a forward then a backward sweep from
 * z = 0 (symmetric positive definite for an SPD A; Saad 2003, sec. 10.2).
 */
export class SgsPreconditioner implements Preconditioner {
  readonly smoother: MulticolorGaussSeidel

  constructor(A: CsrMatrix, kernels: KernelBackend = TS_KERNELS, coloring?: RowColoring) {
    this.smoother = new MulticolorGaussSeidel(A, kernels, coloring)
  }

  apply(r: Float64Array, z: Float64Array): void {
    z.fill(0)
    this.smoother.symmetricSweep(z, r)
  }
}
