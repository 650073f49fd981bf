// Multigrid preconditioner for the surface solver's projection over all patches (the paper
// solves it by PCG, noting multigrid as the faster choice). Coarse levels aggregate 2 x 2 cells
// of each patch into one (piecewise-constant prolongation P) down to one cell a patch, with
// Galerkin operators A_c = P^T A P, so patch edges and their transitions carry down without
// any geometry. One V-cycle is
//   x = 0; s damped Jacobi sweeps (the first from x = 0 is just omega D^-1 b); x += alpha P
//   (V-cycle of P^T (b - A x)); s damped Jacobi sweeps,
// with a fixed number of symmetric multicolour Gauss-Seidel sweeps on the coarsest level: a
// fixed symmetric linear map, as PCG needs (McAdams, Sifakis and Teran 2010 use the same
// construction on grids; Jacobi's M = D / omega is symmetric, so equal sweeps before and after
// keep it so). Piecewise-constant aggregation under-corrects smooth errors (the Galerkin
// operator is about half a rediscretised one); alpha = 2 scales the correction back (Braess
// 1995's remedy).
// Why Jacobi: on the head-sized cage (450 patches x 32^2) two sweeps with omega = 0.85 took 12
// PCG iterations a step where one multicolour Gauss-Seidel sweep took 17, and a Jacobi sweep is
// one streaming product where Gauss-Seidel's colour-ordered gathers cost about three: 2.15
// against 2.99 s a step (WebAssembly, 2 threads); on a cube cage 6 against 11 iterations.
// omega is capped per level by Gershgorin's bound so that omega lambda_max(D^-1 A) < 1.9: the
// metric's mixed terms make some off-diagonals positive, and a sweep must still contract.
import type { Preconditioner } from '../core/pcg'
import { kernelCopy, TS_KERNELS } from '../core/kernelBackend'
import type { KernelBackend } from '../core/kernelTypes'
import { copyCsr, type CsrMatrix, transposeCsr } from '../core/sparse/csr'
import { galerkinOn } from '../core/sparse/product'
import { MulticolorGaussSeidel, spmv, spmvAdd, spResidual } from '../core/sparse/ops'
import { JACOBI_ROWS, SCALE_BLOCKS, SPARSE_BLOCK } from '../core/sparse/rows'
import { type PatchStencil, patchStencilOf, stencilJacobi, stencilResidual } from './patchStencil'

interface Level {
  A: CsrMatrix
  /** A's inner rows as stencil planes (patchStencil.ts: the same bits as its CSR rows), null where it has none. */
  stencil: PatchStencil | null
  /** The coarsest level's Gauss-Seidel (null elsewhere). */
  gs: MulticolorGaussSeidel | null
  /** omega / A_uu: the damped Jacobi sweep's scaling (empty on the coarsest level). */
  invDiag: Float64Array
  /** alpha P to the next coarser level and R = P^T (null on the coarsest), in the kernels' memory. */
  P: CsrMatrix | null
  R: CsrMatrix | null
  x: Float64Array
  /** The Jacobi sweep's other iterate (swapped with x after each sweep). */
  y: Float64Array
  b: Float64Array
  r: Float64Array
}

/** Jacobi's damping where Gershgorin's bound allows it. */
const OMEGA = 0.85
/** Largest omega lambda_max(D^-1 A) allowed (below 2, where damped Jacobi stops contracting). */
const CONTRACTION = 1.9

/** omega / A_uu, omega = min(OMEGA, CONTRACTION / max_u (1 + sum_v |A_uv| / A_uu)). */
function jacobiScaling(A: CsrMatrix): Float64Array {
  const { n, rowPtr, col, val } = A
  const inv = new Float64Array(n)
  let bound = 1
  for (let u = 0; u < n; u++) {
    let d = 0, off = 0
    for (let q = rowPtr[u]; q < rowPtr[u + 1]; q++) {
      if (col[q] === u) d = val[q]
      else off += Math.abs(val[q])
    }
    inv[u] = d > 0 ? 1 / d : 0
    if (d > 0) bound = Math.max(bound, 1 + off / d)
  }
  const omega = Math.min(OMEGA, CONTRACTION / bound)
  for (let u = 0; u < n; u++) inv[u] *= omega
  return inv
}

/** Piecewise-constant P: row u has a single 1 in column agg[u]. */
function aggregationP(agg: Int32Array, coarse: number): CsrMatrix {
  const n = agg.length
  const rowPtr = new Int32Array(n + 1)
  for (let u = 0; u < n; u++) rowPtr[u + 1] = u + 1
  return { n, cols: coarse, rowPtr, col: Int32Array.from(agg), val: new Float64Array(n).fill(1) }
}

export class SurfaceMultigrid implements Preconditioner {
  private readonly levels: Level[] = []

  /**
   * A over P patches of N x N unknowns each (index p N^2 + i + N j). sweeps: damped Jacobi
   * sweeps each way per level; coarsest: symmetric Gauss-Seidel sweep pairs on the coarsest
   * level. kernels: where the sweeps and products run; A must be in its memory, and each coarse
   * level is copied there.
   */
  constructor(A: CsrMatrix, P: number, N: number, readonly kernels: KernelBackend = TS_KERNELS, readonly alpha = 2, readonly sweeps = 2, readonly coarsest = 10) {
    let cur = A, n = N
    for (;;) {
      const last = n <= 1
      const level: Level = {
        A: cur,
        stencil: last ? null : patchStencilOf(cur, P, n, kernels),
        gs: last ? new MulticolorGaussSeidel(cur, kernels) : null,
        invDiag: last ? kernels.f64(0) : kernelCopy(kernels, jacobiScaling(cur)),
        P: null,
        R: null,
        // (The finest level's x and b are the caller's z and r: apply.)
        x: kernels.f64(cur === A ? 0 : cur.n),
        y: kernels.f64(cur.n),
        b: kernels.f64(cur === A ? 0 : cur.n),
        r: kernels.f64(cur.n),
      }
      this.levels.push(level)
      if (last) break
      const nc = (n + 1) >> 1
      const agg = new Int32Array(cur.n)
      for (let p = 0; p < P; p++) for (let j = 0; j < n; j++) for (let i = 0; i < n; i++) agg[p * n * n + i + n * j] = p * nc * nc + (i >> 1) + nc * (j >> 1)
      const Pc = aggregationP(agg, P * nc * nc)
      const R = copyCsr(transposeCsr(Pc), kernels)
      // The Galerkin product on the kernels' threads (product.ts; the same bits as galerkin()),
      // P's copy there only for the product's duration.
      cur = copyCsr(kernels.scoped(() => galerkinOn(kernels, cur, copyCsr(Pc, kernels), R)), kernels)
      level.R = R
      // The correction's alpha folded into P's entries (each row a single alpha).
      level.P = copyCsr({ ...Pc, val: Pc.val.map(() => alpha) }, kernels)
      n = nc
    }
  }

  /** The finest level's (A's) stencil planes, null if it has none: the projection's product shares them. */
  get finestStencil(): PatchStencil | null {
    return this.levels[0].stencil
  }

  get depth(): number {
    return this.levels.length
  }

  /**
   * z = the V-cycle applied to r. The finest level works on the caller's r and z in place (both
   * in the kernels' memory, as PcgSolver's vectors are): copying 2 x 3.7 MB in and out took
   * about a tenth of a cycle at 450 x 32^2.
   */
  apply(r: Float64Array, z: Float64Array): void {
    const top = this.levels[0]
    const { b, x } = top
    top.b = r
    top.x = z
    // Each sweep swaps x and y, and a level sweeps as often after its coarse correction as
    // before: the iterate ends in z.
    this.cycle(0)
    top.b = b
    top.x = x
  }

  private cycle(l: number): void {
    const L = this.levels[l]
    if (L.gs) {
      L.x.fill(0)
      for (let s = 0; s < this.coarsest; s++) L.gs.symmetricSweep(L.x, L.b)
      return
    }
    this.smooth(L, true)
    // Residual, restricted by R = P^T (a sum over each aggregate), the coarse cycle, and its
    // correction prolongated (alpha P): all kernels.
    if (L.stencil) stencilResidual(this.kernels, L.stencil, L.x, L.b, L.r)
    else spResidual(this.kernels, L.A, L.x, L.b, L.r)
    const C = this.levels[l + 1]
    spmv(this.kernels, L.R as CsrMatrix, L.r, C.b)
    this.cycle(l + 1)
    spmvAdd(this.kernels, L.P as CsrMatrix, C.x, L.x)
    this.smooth(L, false)
  }

  /**
   * `sweeps` damped Jacobi sweeps x <- x + omega D^-1 (b - A x), each into y, then swapped.
   * fromZero: x starts at 0 (each level does, for PCG's fixed linear map), so the first sweep is
   * x = omega D^-1 b, without the product or the zero fill (only a zero's sign can differ).
   */
  private smooth(L: Level, fromZero: boolean): void {
    const { A } = L
    if (fromZero && this.sweeps === 0) L.x.fill(0)
    for (let s = 0; s < this.sweeps; s++) {
      if (fromZero && s === 0) this.kernels.run(SCALE_BLOCKS, L.y, L.invDiag, L.b, A.n, SPARSE_BLOCK)
      else if (L.stencil) stencilJacobi(this.kernels, L.stencil, L.x, L.b, L.invDiag, L.y)
      else this.kernels.run(JACOBI_ROWS, A.rowPtr, A.col, A.val, L.x, L.b, L.invDiag, L.y, A.n)
      const x = L.x
      L.x = L.y
      L.y = x
    }
  }
}
