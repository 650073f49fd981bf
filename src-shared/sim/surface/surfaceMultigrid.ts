// Multigrid preconditioner for the surface solver's symmetric systems (the projection and the
// diffusions over all patches; the paper solves them by PCG, noting multigrid as the faster
// choice). Coarse levels aggregate 2 x 2 cells of each patch into one (piecewise-constant
// prolongation P) down to one cell a patch, with Galerkin operators A_c = P^T A P, so patch
// edges and their transitions carry down without any geometry. One V-cycle is
//   x = 0; forward multicolour Gauss-Seidel; x += alpha P (V-cycle of P^T (b - A x)); backward
//   Gauss-Seidel,
// with a fixed number of symmetric sweeps on the coarsest level: a fixed symmetric linear map,
// as PCG needs (McAdams, Sifakis and Teran 2010 use the same construction on grids).
// Piecewise-constant aggregation under-corrects smooth errors (the Galerkin operator is about
// half a rediscretised one); alpha = 2 scales the correction back (Braess 1995's remedy).
import type { Preconditioner } from '../core/pcg'
import { TS_KERNELS } from '../core/kernelBackend'
import type { KernelBackend } from '../core/kernelTypes'
import { copyCsr, type CsrMatrix, galerkin } from '../core/sparse/csr'
import { MulticolorGaussSeidel, spmv } from '../core/sparse/ops'

interface Level {
  A: CsrMatrix
  gs: MulticolorGaussSeidel
  /** Prolongation from the next coarser level (null on the coarsest). */
  P: CsrMatrix | null
  /** Coarse index of each unknown of this level (the aggregate it belongs to). */
  aggregate: Int32Array | null
  x: Float64Array
  b: Float64Array
  r: Float64Array
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
   * A over P patches of N x N unknowns each (index p N^2 + i + N j). sweeps: Gauss-Seidel sweeps
   * each way per level; coarsest: symmetric sweep pairs on the coarsest level. kernels: where
   * the sweeps and products run; A must be in its memory, and each coarse level is copied there.
   */
  constructor(A: CsrMatrix, P: number, N: number, readonly kernels: KernelBackend = TS_KERNELS, readonly alpha = 2, readonly sweeps = 1, readonly coarsest = 10) {
    let cur = A, n = N
    for (;;) {
      const level: Level = { A: cur, gs: new MulticolorGaussSeidel(cur, kernels), P: null, aggregate: null, x: kernels.f64(cur.n), b: kernels.f64(cur.n), r: kernels.f64(cur.n) }
      this.levels.push(level)
      if (n <= 1) break
      const nc = (n + 1) >> 1
      const agg = new Int32Array(cur.n)
      for (let p = 0; p < P; p++) for (let j = 0; j < n; j++) for (let i = 0; i < n; i++) agg[p * n * n + i + n * j] = p * nc * nc + (i >> 1) + nc * (j >> 1)
      level.aggregate = agg
      level.P = aggregationP(agg, P * nc * nc)
      cur = copyCsr(galerkin(cur, level.P), kernels)
      n = nc
    }
  }

  get depth(): number {
    return this.levels.length
  }

  apply(r: Float64Array, z: Float64Array): void {
    const top = this.levels[0]
    top.b.set(r)
    this.cycle(0)
    z.set(top.x)
  }

  private cycle(l: number): void {
    const L = this.levels[l]
    const { A, gs, x, b } = L
    x.fill(0)
    if (l === this.levels.length - 1) {
      for (let s = 0; s < this.coarsest; s++) gs.symmetricSweep(x, b)
      return
    }
    for (let s = 0; s < this.sweeps; s++) gs.sweep(x, b, true)
    // Residual, restricted by P^T (a sum over each aggregate).
    const res = L.r
    spmv(this.kernels, A, x, res)
    const C = this.levels[l + 1]
    C.b.fill(0)
    const agg = L.aggregate!
    for (let u = 0; u < A.n; u++) C.b[agg[u]] += b[u] - res[u]
    this.cycle(l + 1)
    const alpha = this.alpha
    for (let u = 0; u < A.n; u++) x[u] += alpha * C.x[agg[u]]
    for (let s = 0; s < this.sweeps; s++) gs.sweep(x, b, false)
  }
}
