// The implicit diffusion systems of the surface's densities (Stam 2003 eq. 18):
//   (sqrt(g) + k dt L / h^2) rho' = sqrt(g) rho,
// with L the metric Laplacian of the projection (surfaceProjection.ts), so every system has
// L's sparsity and differs only in its values. They are kept by rate and step: a baked run
// has one or two (a reaction-diffusion run alternates two rates), but the live viewport steps
// by the wall clock, so dt changes every frame. A new (k, dt) therefore refills the values of
// the oldest system in place (one pass over L's nonzeros) instead of assembling a matrix, and
// all of them share L's row structure.
//
// Preconditioner: Jacobi (the inverse diagonal). On the paper's head-sized cage (450 patches x
// 32^2, k = 1e-4 m^2/s, dt = 1/30 s; off-diagonal row sums up to 0.92 of the diagonal) PCG to
// 1e-8 took 24 Jacobi iterations against 13 with symmetric multicolour Gauss-Seidel, but each
// Gauss-Seidel application sweeps the matrix twice in colour order: 0.51 s against 1.95 s
// (TypeScript), and the multigrid was slower still here.
import { TS_KERNELS } from '../core/kernelBackend'
import type { KernelBackend } from '../core/kernelTypes'
import type { Preconditioner } from '../core/pcg'
import type { CsrMatrix } from '../core/sparse/csr'
import { CsrOperator } from '../core/sparse/ops'
import { SCALE_BLOCKS, SPARSE_BLOCK } from '../core/sparse/rows'

interface DiffusionSystem {
  key: string
  A: CsrMatrix
  op: CsrOperator
  /** 1 / A_uu. */
  invDiag: Float64Array
  pre: Preconditioner
}

/** z = D^-1 r, a kernel row over blocks (invDiag in the kernels' memory). */
function jacobi(invDiag: Float64Array, kernels: KernelBackend): Preconditioner {
  return {
    apply(r: Float64Array, z: Float64Array): void {
      kernels.run(SCALE_BLOCKS, z, invDiag, r, invDiag.length, SPARSE_BLOCK)
    },
  }
}

/** Systems kept at once (the oldest is refilled for a new rate and step). */
const KEPT = 4

export class SurfaceDiffusionSystems {
  /** Index in L.val of each row's diagonal. */
  private readonly diagAt: Int32Array
  private readonly systems: DiffusionSystem[] = []

  /**
   * L: the projection's matrix; areaOf[u]: sqrt(g) of unknown u's cell; h: the cell size in the
   * patch parameters; kernels: where the products run (its memory holds L).
   */
  constructor(
    private readonly L: CsrMatrix,
    private readonly areaOf: Float64Array,
    private readonly h: number,
    private readonly kernels: KernelBackend = TS_KERNELS,
  ) {
    const { n, rowPtr, col } = L
    this.diagAt = new Int32Array(n).fill(-1)
    for (let u = 0; u < n; u++) for (let q = rowPtr[u]; q < rowPtr[u + 1]; q++) if (col[q] === u) this.diagAt[u] = q
    for (let u = 0; u < n; u++) if (this.diagAt[u] < 0) throw new Error(`surface diffusion: row ${u} of the Laplacian has no diagonal`)
  }

  /** The system for rate k (m^2/s) over dt (s): its operator and Jacobi preconditioner. */
  get(k: number, dt: number): { A: CsrMatrix; invDiag: Float64Array; op: CsrOperator; pre: Preconditioner } {
    const key = `${k}:${dt}`
    let sys = this.systems.find((s) => s.key === key)
    if (sys) return sys
    if (this.systems.length < KEPT) {
      const { n, cols, rowPtr, col } = this.L
      const A: CsrMatrix = { n, cols, rowPtr, col, val: this.kernels.f64(col.length) }
      const invDiag = this.kernels.f64(n)
      sys = { key, A, op: new CsrOperator(A, this.kernels), invDiag, pre: jacobi(invDiag, this.kernels) }
    } else {
      sys = this.systems.shift() as DiffusionSystem
      sys.key = key
    }
    this.systems.push(sys)
    this.fill(sys, k, dt)
    return sys
  }

  /** val = k dt L / h^2 + diag(sqrt(g)), term by term as the assembled sum was. */
  private fill(sys: DiffusionSystem, k: number, dt: number): void {
    const { L, diagAt, areaOf, h } = this
    const lv = L.val, val = sys.A.val
    for (let q = 0; q < lv.length; q++) val[q] = (k * dt * lv[q]) / (h * h)
    for (let u = 0; u < diagAt.length; u++) {
      val[diagAt[u]] += areaOf[u]
      sys.invDiag[u] = 1 / val[diagAt[u]]
    }
  }
}
