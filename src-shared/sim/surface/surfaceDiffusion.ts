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
import type { CsrMatrix } from '../core/sparse/csr'
import { edgeRow, type PatchStencil } from './patchStencil'
import { PLANES32, type PatchStencil32, symmetricPlanes } from './patchStencil32'
import { DIFFUSION_EDGE32, DIFFUSION_FILL, DIFFUSION_PLANES32 } from './surfaceDiffusionKernels'

export interface DiffusionSystem {
  key: string
  A: CsrMatrix
  /** 1 / A_uu (the solvers' Jacobi preconditioner). */
  invDiag: Float64Array
  /** A's stencil planes and 1 / A_uu in float32 (refinedDiffusion.ts's inner solve), where L has planes. */
  single: { A32: PatchStencil32; invDiag32: Float32Array } | null
}

/**
 * Unknowns from which the diffusions are solved in float32 under float64 refinement
 * (refinedDiffusion.ts). Below, its extra kernel calls cost more than its lighter passes save:
 * the cube cage at 24 x 16^2 (6,144 unknowns, three densities) stepped in 9.5-10 ms on
 * WebAssembly with it and 7.7-9.3 without; the 450-patch cage at 32^2, 63-66 ms of diffusion a
 * step with it against 74-77.
 */
export const REFINED_MIN_UNKNOWNS = 65536

/** Systems kept at once (the oldest is refilled for a new rate and step). */
const KEPT = 4

export class SurfaceDiffusionSystems {
  /** Index in L.val of each row's diagonal, in the kernels' memory. */
  private readonly diagAt: Int32Array
  /** sqrt(g) by unknown, in the kernels' memory. */
  private readonly area: Float64Array
  /** A's row of each edge row of the stencil (its edge CSR's order), in the kernels' memory; null without planes. */
  private readonly edgeRowOf: Int32Array | null
  /** L's planes in the float32 planes' symmetric layout (patchStencil32.ts), in the kernels' memory; null without planes. */
  private readonly symmetric: Float64Array | null
  private readonly systems: DiffusionSystem[] = []

  /**
   * L: the projection's matrix; areaOf[u]: sqrt(g) of unknown u's cell; h: the cell size in the
   * patch parameters; kernels: where the products run (its memory holds L).
   */
  constructor(
    private readonly L: CsrMatrix,
    areaOf: Float64Array,
    private readonly h: number,
    private readonly kernels: KernelBackend = TS_KERNELS,
    /** L's float64 stencil planes (the projection's), from which each system's float32 planes are made; null: none. */
    private readonly stencil: PatchStencil | null = null,
    /** Unknowns from which systems get float32 planes (REFINED_MIN_UNKNOWNS). */
    private readonly refinedFrom = REFINED_MIN_UNKNOWNS,
  ) {
    const { n, rowPtr, col } = L
    const diagAt = new Int32Array(n).fill(-1)
    for (let u = 0; u < n; u++) for (let q = rowPtr[u]; q < rowPtr[u + 1]; q++) if (col[q] === u) diagAt[u] = q
    for (let u = 0; u < n; u++) if (diagAt[u] < 0) throw new Error(`surface diffusion: row ${u} of the Laplacian has no diagonal`)
    this.diagAt = kernels.i32(n)
    this.diagAt.set(diagAt)
    this.area = kernels.f64(n)
    this.area.set(areaOf)
    if (stencil && n >= refinedFrom) {
      const rowOf = new Int32Array(stencil.edge.n)
      const perPatch = stencil.edge.n / stencil.P
      for (let p = 0, e = 0; p < stencil.P; p++) for (let t = 0; t < perPatch; t++, e++) rowOf[e] = edgeRow(p, t, stencil.n)
      this.edgeRowOf = kernels.i32(rowOf.length)
      this.edgeRowOf.set(rowOf)
      this.symmetric = kernels.f64(PLANES32 * stencil.stride)
      this.symmetric.set(symmetricPlanes(stencil))
    } else {
      this.edgeRowOf = null
      this.symmetric = null
    }
  }

  /** The system for rate k (m^2/s) over dt (s): its matrix, inverse diagonal and float32 copy. */
  get(k: number, dt: number): DiffusionSystem {
    const key = `${k}:${dt}`
    let sys = this.systems.find((s) => s.key === key)
    if (sys) return sys
    if (this.systems.length < KEPT) {
      const { n, cols, rowPtr, col } = this.L
      const A: CsrMatrix = { n, cols, rowPtr, col, val: this.kernels.f64(col.length) }
      const invDiag = this.kernels.f64(n)
      const single = this.stencil && n >= this.refinedFrom ? { A32: this.planes32(this.stencil), invDiag32: this.kernels.f32(n) } : null
      sys = { key, A, invDiag, single }
    } else {
      sys = this.systems.shift() as DiffusionSystem
      sys.key = key
    }
    this.systems.push(sys)
    this.fill(sys, k, dt)
    return sys
  }

  /** val = k dt L / h^2 + diag(sqrt(g)), term by term as the assembled sum was; and its float32 planes. */
  private fill(sys: DiffusionSystem, k: number, dt: number): void {
    const { L, kernels } = this
    const kdt = k * dt, hh = this.h * this.h
    kernels.run(DIFFUSION_FILL, L.rowPtr, L.val, sys.A.val, this.diagAt, this.area, sys.invDiag, kdt, hh, L.n)
    const S = this.stencil
    if (!sys.single || !S || !this.edgeRowOf || !this.symmetric) return
    const { A32, invDiag32 } = sys.single
    kernels.run(DIFFUSION_PLANES32, this.symmetric, A32.coef, S.stride, this.area, sys.invDiag, invDiag32, kdt, hh, L.n)
    kernels.run(DIFFUSION_EDGE32, L.rowPtr, sys.A.val, A32.edge.rowPtr, this.edgeRowOf, A32.edge.val, S.edge.n)
  }

  /** Float32 planes with L's layout (values filled by fill), in the kernels' memory. */
  private planes32(S: PatchStencil): PatchStencil32 {
    const { kernels } = this
    const E = S.edge
    const rowPtr = kernels.i32(E.rowPtr.length), col = kernels.i32(E.col.length)
    rowPtr.set(E.rowPtr)
    col.set(E.col)
    return { n: S.n, P: S.P, coef: kernels.f32(PLANES32 * S.stride), stride: S.stride, edge: { n: E.n, rowPtr, col, val: kernels.f32(E.val.length) } }
  }
}
