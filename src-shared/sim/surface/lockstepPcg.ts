// Several systems with one matrix A solved by Jacobi-preconditioned CG in lockstep: the
// surface's densities diffuse at one rate over one step (surfaceFluid.ts diffuseAll), so their
// systems share A and differ only in the right-hand side. Each iteration's products go through
// A once for all of them (SPMV_MULTI: each row's entries read once, every vector's sum in
// storage order), which on the 450-patch cage at 32^2 costs 2.8 ms for three where three
// products cost 5.7.
//
// Every system follows core/pcg.ts PcgSolver.solve step for step (true residual at the start
// and at convergence, the cold start when the guess is worse than zero, residual replacement up
// to MAX_RESTARTS, the breakdown test), with the same vector kernels, so each result is the
// same bits as solving it alone; a system that has converged drops out of the products.
import type { KernelBackend } from '../core/kernelTypes'
import type { SolveStats } from '../core/pcg'
import type { CsrMatrix } from '../core/sparse/csr'
import { spmv, SparseVectorOps, spResidual } from '../core/sparse/ops'
import { SCALE_BLOCKS, SPARSE_BLOCK, SPMV_MULTI } from '../core/sparse/rows'

/** As core/pcg.ts: residual replacements allowed before accepting a drifted residual. */
const MAX_RESTARTS = 3

interface SystemState {
  b: Float64Array
  x: Float64Array
  r: Float64Array
  z: Float64Array
  s: Float64Array
  q: Float64Array
  bNorm: number
  target: number
  sigma: number
  iterations: number
  restarts: number
  /** Finished: its stats (null while it iterates). */
  done: SolveStats | null
}

export class LockstepPcg {
  readonly ops: SparseVectorOps
  /** The search directions and their products, `count` vectors n apart (SPMV_MULTI's layout). */
  private readonly s: Float64Array
  private readonly q: Float64Array
  private readonly r: Float64Array
  private readonly z: Float64Array

  constructor(
    readonly n: number,
    readonly count: number,
    readonly kernels: KernelBackend,
  ) {
    this.ops = new SparseVectorOps(n, kernels)
    this.s = kernels.f64(count * n)
    this.q = kernels.f64(count * n)
    this.r = kernels.f64(count * n)
    this.z = kernels.f64(count * n)
  }

  /** Vector d of a block of `count` vectors. */
  private slice(a: Float64Array, d: number): Float64Array {
    return a.subarray(d * this.n, (d + 1) * this.n)
  }

  /**
   * Solves A x_d = b_d for d < count (b and x: count vectors n apart, in the kernels' memory;
   * x holds the guesses) with Jacobi's z = invDiag r, to a relative residual `tolerance` each.
   */
  solve(A: CsrMatrix, invDiag: Float64Array, b: Float64Array, x: Float64Array, tolerance: number, maxIterations: number): SolveStats[] {
    const { ops, kernels, n, count } = this
    const trueResidual = (st: SystemState): number => {
      spResidual(kernels, A, st.x, st.b, st.r)
      return Math.sqrt(ops.dot(st.r, st.r))
    }
    const precondition = (st: SystemState): void => {
      kernels.run(SCALE_BLOCKS, st.z, invDiag, st.r, n, SPARSE_BLOCK)
    }
    const states: SystemState[] = []
    for (let d = 0; d < count; d++) {
      const st: SystemState = {
        b: this.slice(b, d), x: this.slice(x, d), r: this.slice(this.r, d), z: this.slice(this.z, d), s: this.slice(this.s, d), q: this.slice(this.q, d),
        bNorm: 0, target: 0, sigma: 0, iterations: 0, restarts: 0, done: null,
      }
      states.push(st)
      st.bNorm = Math.sqrt(ops.dot(st.b, st.b))
      if (st.bNorm === 0 || !Number.isFinite(st.bNorm)) {
        st.x.fill(0)
        st.done = { iterations: 0, residual: st.bNorm === 0 ? 0 : Number.NaN, converged: st.bNorm === 0 }
        continue
      }
      st.target = tolerance * st.bNorm
      let rNorm = trueResidual(st)
      if (rNorm <= st.target) {
        st.done = { iterations: 0, residual: rNorm / st.bNorm, converged: true }
        continue
      }
      if (!(rNorm < st.bNorm)) {
        // The guess is worse than zero: start cold (PcgSolver.solve).
        st.x.fill(0)
        st.r.set(st.b)
        rNorm = st.bNorm
      }
      precondition(st)
      ops.copy(st.s, st.z)
      st.sigma = ops.dot(st.r, st.z)
    }
    const finish = (st: SystemState): void => {
      const rNorm = trueResidual(st)
      st.done = { iterations: st.iterations, residual: rNorm / st.bNorm, converged: rNorm <= st.target }
    }
    for (;;) {
      const active = states.filter((st) => st.done === null && st.iterations < maxIterations)
      for (const st of states) if (st.done === null && st.iterations >= maxIterations) finish(st)
      if (active.length === 0) break
      // q = A s for every active system: all at once when all are, else one by one.
      if (active.length === count) kernels.run(SPMV_MULTI, A.rowPtr, A.col, A.val, this.s, this.q, n, count, n)
      else for (const st of active) spmv(kernels, A, st.s, st.q)
      for (const st of active) {
        const sq = ops.dot(st.s, st.q)
        // Breakdown: A or M^-1 not positive definite on this vector.
        if (!(sq > 0)) {
          finish(st)
          continue
        }
        const alpha = st.sigma / sq
        let rNorm = Math.sqrt(ops.updateIterate(st.x, st.r, st.s, st.q, alpha))
        st.iterations++
        if (rNorm <= st.target) {
          rNorm = trueResidual(st)
          if (rNorm <= st.target || st.restarts === MAX_RESTARTS) {
            st.done = { iterations: st.iterations, residual: rNorm / st.bNorm, converged: rNorm <= st.target }
            continue
          }
          st.restarts++
          precondition(st)
          ops.copy(st.s, st.z)
          st.sigma = ops.dot(st.r, st.z)
          continue
        }
        precondition(st)
        const sigmaNew = ops.dot(st.r, st.z)
        ops.updateSearch(st.s, st.z, sigmaNew / st.sigma)
        st.sigma = sigmaNew
      }
    }
    return states.map((st) => st.done as SolveStats)
  }
}
