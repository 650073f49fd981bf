// Several systems with one matrix A solved by Jacobi-preconditioned CG in lockstep: the
// surface's densities diffuse at one rate over one step (surfaceFluid.ts diffuseAll), so their
// systems share A and differ only in the right-hand side. Each iteration's products go through
// A once for all of them (SPMV_MULTI: each row's entries read once, every vector's sum in
// storage order), which on the 450-patch cage at 32^2 costs 2.8 ms for three where three
// products cost 5.7.
//
// Every system follows core/pcg.ts PcgSolver.solve step for step (true residual at the start
// and at convergence, the cold start when the guess is worse than zero, residual replacement up
// to MAX_RESTARTS, the breakdown test) and each result is the same bits as solving it alone; a
// system that has converged drops out of the products. The vector steps are fused where
// Jacobi's z = D^-1 r allows it, each fused kernel the same bits as the ones it replaces
// (core/sparse/jacobiCgKernels.ts): the update of x and r also sums r . z (z is never stored),
// the search direction is formed from r directly, and the true residuals of systems that start
// or converge together take one pass over A for all of them.
import type { KernelBackend } from '../core/kernelTypes'
import type { SolveStats } from '../core/pcg'
import type { CsrMatrix } from '../core/sparse/csr'
import { JACOBI_CG_UPDATE, JACOBI_SEARCH } from '../core/sparse/jacobiCgKernels'
import { blockCount, SCALE_BLOCKS, SPARSE_BLOCK, SPMV_MULTI } from '../core/sparse/rows'
import { spmv, SparseVectorOps, spResiduals } from '../core/sparse/ops'
import { sumPartials } from '../core/vectorOps'

/** As core/pcg.ts: residual replacements allowed before accepting a drifted residual. */
const MAX_RESTARTS = 3

interface SystemState {
  /** Its place d among the solve's `count` systems. */
  index: number
  b: Float64Array
  x: Float64Array
  r: Float64Array
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
  /** r . z block by block (JACOBI_CG_UPDATE's second sums). */
  private readonly rz: Float64Array
  private readonly partial: Float64Array

  constructor(
    readonly n: number,
    readonly count: number,
    readonly kernels: KernelBackend,
  ) {
    this.ops = new SparseVectorOps(n, kernels)
    this.s = kernels.f64(count * n)
    this.q = kernels.f64(count * n)
    this.r = kernels.f64(count * n)
    this.rz = kernels.f64(Math.max(1, blockCount(n)))
    this.partial = kernels.f64(Math.max(1, blockCount(n)))
  }

  /** Vector d of a block of `count` vectors. */
  private slice(a: Float64Array, d: number): Float64Array {
    return a.subarray(d * this.n, (d + 1) * this.n)
  }

  /**
   * r = b - A x for the given systems (b and x: the solve's blocks): one pass over A for all
   * when all `count` are given, else one each. Returns each system's |r|.
   */
  private trueResiduals(A: CsrMatrix, b: Float64Array, x: Float64Array, systems: SystemState[]): number[] {
    const { kernels, n, count, ops } = this
    spResiduals(kernels, A, x, b, this.r, n, count, systems.map((st) => st.index))
    return systems.map((st) => Math.sqrt(ops.dot(st.r, st.r)))
  }

  /** s = z = D^-1 r (the search direction's restart) and sigma = r . z. */
  private restartSearch(st: SystemState, invDiag: Float64Array): void {
    this.kernels.run(SCALE_BLOCKS, st.s, invDiag, st.r, this.n, SPARSE_BLOCK)
    st.sigma = this.ops.dot(st.r, st.s)
  }

  /**
   * Solves A x_d = b_d for d < count (b and x: count vectors n apart, in the kernels' memory;
   * x holds the guesses) with Jacobi's z = invDiag r, to a relative residual `tolerance` each.
   */
  solve(A: CsrMatrix, invDiag: Float64Array, b: Float64Array, x: Float64Array, tolerance: number, maxIterations: number): SolveStats[] {
    const { ops, kernels, n, count } = this
    const states: SystemState[] = []
    for (let d = 0; d < count; d++) {
      const st: SystemState = {
        index: d,
        b: this.slice(b, d), x: this.slice(x, d), r: this.slice(this.r, d), s: this.slice(this.s, d), q: this.slice(this.q, d),
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
    }
    const starting = states.filter((st) => st.done === null)
    const r0 = this.trueResiduals(A, b, x, starting)
    starting.forEach((st, i) => {
      let rNorm = r0[i]
      if (rNorm <= st.target) {
        st.done = { iterations: 0, residual: rNorm / st.bNorm, converged: true }
        return
      }
      if (!(rNorm < st.bNorm)) {
        // The guess is worse than zero: start cold (PcgSolver.solve).
        st.x.fill(0)
        st.r.set(st.b)
        rNorm = st.bNorm
      }
      this.restartSearch(st, invDiag)
    })
    const finish = (list: SystemState[]): void => {
      const norms = this.trueResiduals(A, b, x, list)
      list.forEach((st, i) => (st.done = { iterations: st.iterations, residual: norms[i] / st.bNorm, converged: norms[i] <= st.target }))
    }
    const blocks = blockCount(n)
    for (;;) {
      const active = states.filter((st) => st.done === null && st.iterations < maxIterations)
      finish(states.filter((st) => st.done === null && st.iterations >= maxIterations))
      if (active.length === 0) break
      // q = A s for every active system: all at once when all are, else one by one.
      if (active.length === count) kernels.run(SPMV_MULTI, A.rowPtr, A.col, A.val, this.s, this.q, n, count, n)
      else for (const st of active) spmv(kernels, A, st.s, st.q)
      const reached: SystemState[] = []
      for (const st of active) {
        const sq = ops.dot(st.s, st.q)
        // Breakdown: A or M^-1 not positive definite on this vector.
        if (!(sq > 0)) {
          finish([st])
          continue
        }
        const alpha = st.sigma / sq
        const rNorm = Math.sqrt(kernels.run(JACOBI_CG_UPDATE, st.x, st.r, st.s, st.q, invDiag, alpha, n, SPARSE_BLOCK, this.partial, this.rz))
        st.iterations++
        if (rNorm <= st.target) {
          reached.push(st)
          continue
        }
        const sigmaNew = sumPartials(this.rz, blocks)
        kernels.run(JACOBI_SEARCH, st.s, st.r, invDiag, sigmaNew / st.sigma, n, SPARSE_BLOCK)
        st.sigma = sigmaNew
      }
      // The recurrence says converged: check the true residual (together when all reached it at once).
      const norms = this.trueResiduals(A, b, x, reached)
      reached.forEach((st, i) => {
        const rNorm = norms[i]
        if (rNorm <= st.target || st.restarts === MAX_RESTARTS) {
          st.done = { iterations: st.iterations, residual: rNorm / st.bNorm, converged: rNorm <= st.target }
          return
        }
        st.restarts++
        this.restartSearch(st, invDiag)
      })
    }
    return states.map((st) => st.done as SolveStats)
  }
}
