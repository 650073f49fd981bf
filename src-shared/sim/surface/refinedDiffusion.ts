// The densities' implicit diffusion (eq. 18: (sqrt(g) + k dt L / h^2) rho' = sqrt(g) rho) solved
// by iterative refinement: the residual r = b - A x and its test against the tolerance in
// float64, the correction A e = r by Jacobi-preconditioned CG in float32 on A's stencil planes
// (patchStencil32.ts, core/sparse/cg32Kernels.ts), x += e, until the float64 residual meets
// the tolerance (Wilkinson's refinement with a lower-precision inner solve, as in Carson and
// Higham 2018).
//
// Why: the diffusions were the step's second largest part (68-73 ms a step for three densities
// at 450 patches x 32^2 with float64 Jacobi-CG in lockstep), and CG's products and vector steps
// are bound by the bytes and lanes they move; in float32 they move half and take four a vector.
// What the paint keeps is unchanged: L's columns sum to zero, so the paint a solve creates or
// loses is the final float64 residual summed, and that residual is held to the same relative
// tolerance as before (surfaceFlow.test.ts checks the total by amount).
//
// Each system is solved on its own (its products, sums and tests never mix with another's), so
// a density gets the same bits solved with the others as alone; only the float64 residuals of
// systems that are tested together share a pass over A (RESIDUAL_MULTI, the same bits).
import type { KernelBackend } from '../core/kernelTypes'
import type { SolveStats } from '../core/pcg'
import { ADD_WIDE, DOT32, SEARCH32, UPDATE32 } from '../core/sparse/cg32Kernels'
import type { CsrMatrix } from '../core/sparse/csr'
import { SparseVectorOps, spResiduals } from '../core/sparse/ops'
import { blockCount, SPARSE_BLOCK } from '../core/sparse/rows'
import { sumPartials } from '../core/vectorOps'
import { NARROW_SCALE, type PatchStencil32, stencil32Spmv } from './patchStencil32'

/** Refinement rounds (each one float64 residual and one float32 solve) before giving up. */
const MAX_ROUNDS = 6
/**
 * The inner solve aims at half what the outer tolerance needs, so one round usually does: on the
 * 450-patch cage at 32^2 (three densities, k = 1e-4 m^2/s, dt = 1/30 s) 9 float32 iterations
 * and one round, where a tenth took 11-12 and float64 CG takes 8.
 */
const INNER_MARGIN = 0.5
/** ...but never past what float32 can resolve (about 1e-7 of a residual): another round does the rest. */
const INNER_FLOOR = 1e-5

export class RefinedDiffusion {
  private readonly ops: SparseVectorOps
  private readonly r: Float64Array
  private readonly r32: Float32Array
  private readonly s32: Float32Array
  private readonly q32: Float32Array
  private readonly e32: Float32Array
  private readonly partial: Float64Array
  private readonly rz: Float64Array

  /** count systems of n unknowns each (P patches of N x N: A's stencil layout). */
  constructor(
    readonly n: number,
    readonly count: number,
    readonly kernels: KernelBackend,
  ) {
    this.ops = new SparseVectorOps(n, kernels)
    this.r = kernels.f64(count * n)
    this.r32 = kernels.f32(n)
    this.s32 = kernels.f32(n)
    this.q32 = kernels.f32(n)
    this.e32 = kernels.f32(n)
    this.partial = kernels.f64(Math.max(1, blockCount(n)))
    this.rz = kernels.f64(Math.max(1, blockCount(n)))
  }

  /**
   * Solves A x_d = b_d for d < count (b and x: count vectors n apart in the kernels' memory, x
   * holding the guesses) to a relative float64 residual `tolerance` each. A32: A's planes in
   * float32 (the same P patches of N x N), invDiag32: 1 / A_uu in float32. maxIterations caps
   * each system's float32 iterations over all rounds.
   */
  solve(A: CsrMatrix, A32: PatchStencil32, invDiag32: Float32Array, b: Float64Array, x: Float64Array, tolerance: number, maxIterations: number): SolveStats[] {
    const { n, count, ops } = this
    const slice = (a: Float64Array, d: number) => a.subarray(d * n, (d + 1) * n)
    const stats: (SolveStats | null)[] = new Array(count).fill(null)
    const bNorm = new Array<number>(count).fill(0), iterations = new Array<number>(count).fill(0)
    for (let d = 0; d < count; d++) {
      bNorm[d] = Math.sqrt(ops.dot(slice(b, d), slice(b, d)))
      if (bNorm[d] === 0 || !Number.isFinite(bNorm[d])) {
        slice(x, d).fill(0)
        stats[d] = { iterations: 0, residual: bNorm[d] === 0 ? 0 : Number.NaN, converged: bNorm[d] === 0 }
      }
    }
    for (let round = 0; ; round++) {
      const open: number[] = []
      for (let d = 0; d < count; d++) if (stats[d] === null) open.push(d)
      if (open.length === 0) break
      // The float64 residuals: one pass over A when every system is open.
      spResiduals(this.kernels, A, x, b, this.r, n, count, open)
      for (const d of open) {
        const rNorm = Math.sqrt(ops.dot(slice(this.r, d), slice(this.r, d)))
        const target = tolerance * bNorm[d]
        if (rNorm <= target || !Number.isFinite(rNorm) || round === MAX_ROUNDS || iterations[d] >= maxIterations) {
          stats[d] = { iterations: iterations[d], residual: rNorm / bNorm[d], converged: rNorm <= target }
          continue
        }
        iterations[d] += this.correct(A32, invDiag32, slice(this.r, d), slice(x, d), Math.max(INNER_FLOOR, (INNER_MARGIN * target) / rNorm), maxIterations - iterations[d])
      }
    }
    return stats as SolveStats[]
  }

  /**
   * x += e with A e = r solved in float32 by Jacobi-preconditioned CG from e = 0 to a relative
   * residual `relative` (of r rounded to float32). Returns its iterations.
   */
  private correct(A32: PatchStencil32, invDiag32: Float32Array, r: Float64Array, x: Float64Array, relative: number, maxIterations: number): number {
    const { kernels, n, r32, s32, q32, e32, partial, rz } = this
    const block = SPARSE_BLOCK, blocks = blockCount(n)
    // r32 = r rounded, s = z = D^-1 r32 (NARROW_SCALE, the multigrid's entry row).
    kernels.run(NARROW_SCALE, r, r32, invDiag32, s32, A32.n, A32.P)
    e32.fill(0)
    const r0 = Math.sqrt(kernels.run(DOT32, r32, r32, n, block, partial))
    let sigma = kernels.run(DOT32, r32, s32, n, block, partial)
    let iterations = 0
    while (iterations < maxIterations && r0 > 0) {
      stencil32Spmv(kernels, A32, s32, q32)
      const sq = kernels.run(DOT32, s32, q32, n, block, partial)
      // Breakdown (A or the rounding not positive on this vector): keep what was reached.
      if (!(sq > 0)) break
      const rNorm = Math.sqrt(kernels.run(UPDATE32, e32, r32, s32, q32, invDiag32, sigma / sq, n, block, partial, rz))
      iterations++
      if (!(rNorm > relative * r0)) break
      const sigmaNew = sumPartials(rz, blocks)
      kernels.run(SEARCH32, s32, r32, invDiag32, sigmaNew / sigma, n, block)
      sigma = sigmaNew
    }
    kernels.run(ADD_WIDE, x, e32, n, block)
    return iterations
  }
}
