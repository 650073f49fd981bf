// Preconditioned conjugate gradients (Carlson 2004, section 3.3.4 and table 3; Bridson 2015,
// ch. 5) for the symmetric positive (semi-)definite pressure system.
//
// Convergence is measured on the relative 2-norm of the residual, ||b - A x||_2 / ||b||_2
// (Carlson's criterion sqrt(rho) <= eps * ||b||). When the recursively updated residual
// reaches the tolerance the true residual is recomputed; if rounding has let the two drift
// apart, the iteration restarts from the true residual (residual replacement), so a
// reported `residual` is always the true one. Vectors are Float64: with float32 iterates
// the true residual of a 128^3 Poisson solve stalls well above 1e-6.
//
// Semi-definite systems (closed boxes: A 1 = 0 on a component with no open side) are solved
// in the range of A: the operator's removeNullSpace projects b and every preconditioned
// residual (Bridson 2015, ch. 5 notes the same for all-Neumann problems).
//
// The solver works on any linear operator on vectors of length n: the operator and the
// preconditioner are interfaces, and the vector kernels (dot, the fused x/r update, the
// search-direction update) come from a VectorOps object, so a backend can run them and a
// caller can restrict them to a subset of entries (the liquid's active cells). GridVectorOps
// reduces per z-plane through the kernel backend (the grid pressure solve); sparse/ops.ts has
// fixed-block reductions for general vectors (CSR systems).
import { EddyError } from '../../api/errors'
import type { AllocOptions } from './grid'
import { kernelsOf } from './kernelBackend'
import type { KernelBackend } from './kernelTypes'
import { AXPY_BLOCKS, SPARSE_BLOCK } from './sparse/rows'

export interface LinearOperator {
  /** out = A x. */
  apply(x: Float64Array, out: Float64Array): void
  /** Removes from v its component in A's null space, if A has one. */
  removeNullSpace?(v: Float64Array): void
  /** r = b - A x in one pass (optional; else apply and subtract). */
  residual?(b: Float64Array, x: Float64Array, r: Float64Array): void
}

export interface Preconditioner {
  /** z = M^-1 r for a symmetric positive definite M^-1 (a fixed linear map). */
  apply(r: Float64Array, z: Float64Array): void
}

/**
 * The vector kernels of PCG on vectors of length n. Every reduction must be deterministic
 * (the same bits whatever the thread count): sums in a fixed order of fixed partials.
 */
export interface VectorOps {
  readonly n: number
  /** A zeroed vector of length n where these kernels can reach it. */
  alloc(): Float64Array
  /** a . b */
  dot(a: Float64Array, b: Float64Array): number
  /** y += alpha x */
  axpy(y: Float64Array, alpha: number, x: Float64Array): void
  /** x += alpha s; r -= alpha q; returns |r|^2 (fused: one pass over memory). */
  updateIterate(x: Float64Array, r: Float64Array, s: Float64Array, q: Float64Array, alpha: number): number
  /** s = z + beta s */
  updateSearch(s: Float64Array, z: Float64Array, beta: number): void
  /** dst = src */
  copy(dst: Float64Array, src: Float64Array): void
}

/** VectorOps on a cell field of nz planes of `plane` cells: per-plane partials, summed in plane order. */
export class GridVectorOps implements VectorOps {
  readonly n: number
  private readonly partial: Float64Array

  /** kernels runs the kernels and allocates the vectors. */
  constructor(
    readonly plane: number,
    readonly nz: number,
    readonly kernels: KernelBackend,
  ) {
    this.n = plane * nz
    this.partial = kernels.f64(nz)
  }

  alloc(): Float64Array {
    return this.kernels.f64(this.n)
  }
  dot(a: Float64Array, b: Float64Array): number {
    return this.kernels.dot(a, b, this.plane, this.nz, this.partial)
  }
  axpy(y: Float64Array, alpha: number, x: Float64Array): void {
    this.kernels.run(AXPY_BLOCKS, y, alpha, x, this.n, SPARSE_BLOCK)
  }
  updateIterate(x: Float64Array, r: Float64Array, s: Float64Array, q: Float64Array, alpha: number): number {
    return this.kernels.updateIterate(x, r, s, q, alpha, this.plane, this.nz, this.partial)
  }
  updateSearch(s: Float64Array, z: Float64Array, beta: number): void {
    this.kernels.updateSearch(s, z, beta, this.plane, this.nz)
  }
  copy(dst: Float64Array, src: Float64Array): void {
    dst.set(src)
  }
}

export interface SolveStats {
  iterations: number
  /** Final true relative residual ||b - A x||_2 / ||b||_2 (0 when b = 0). */
  residual: number
  converged: boolean
}

export interface PcgOptions {
  /** Relative 2-norm residual to reach; default 1e-6. */
  tolerance?: number
  /** Default 1000. */
  maxIterations?: number
  /**
   * Polled every iteration; true stops the solve with EddyError('CANCELLED') (a bake's Cancel,
   * which must not wait for a long solve at high resolution to finish).
   */
  shouldStop?: () => boolean
  /**
   * Asked after each iteration with the iteration count and the residual over the starting
   * one; true ends the solve there, unconverged (a caller that has a better preconditioner to
   * hand over to when this one stalls: viscosity.ts).
   */
  giveUp?: (iterations: number, reduction: number) => boolean
}

export const DEFAULT_TOLERANCE = 1e-6
export const DEFAULT_MAX_ITERATIONS = 1000
/** Residual replacements allowed before accepting a drifted residual. */
const MAX_RESTARTS = 3

/**
 * Owns the Krylov scratch vectors for one vector space: `new PcgSolver(ops)` for any VectorOps,
 * or `new PcgSolver(nx, ny, nz, options)` for a cell grid (GridVectorOps over options.kernels,
 * which runs the vector kernels and allocates the vectors; default TypeScript).
 */
export class PcgSolver {
  readonly n: number
  readonly ops: VectorOps
  private readonly r: Float64Array
  private readonly z: Float64Array
  private readonly s: Float64Array
  private readonly q: Float64Array

  constructor(ops: VectorOps)
  constructor(nx: number, ny: number, nz: number, options?: AllocOptions)
  constructor(nxOrOps: number | VectorOps, ny = 1, nz = 1, options: AllocOptions = {}) {
    // kernelsOf allocates as allocF64With would: the backend's memory, else (shared) plain arrays.
    this.ops = typeof nxOrOps === 'number' ? new GridVectorOps(nxOrOps * ny, nz, kernelsOf(options)) : nxOrOps
    this.n = this.ops.n
    this.r = this.ops.alloc()
    this.z = this.ops.alloc()
    this.s = this.ops.alloc()
    this.q = this.ops.alloc()
  }

  /**
   * Zeroes entries [from, to) of the scratch vectors (for operators that read entries they never
   * write; an operator that reads only within a range of its unknowns needs only that range).
   */
  zeroScratch(from = 0, to = this.n): void {
    this.r.fill(0, from, to)
    this.z.fill(0, from, to)
    this.s.fill(0, from, to)
    this.q.fill(0, from, to)
  }

  private dot(a: Float64Array, b: Float64Array): number {
    return this.ops.dot(a, b)
  }

  /** r = b - A x (projected), returns ||r||_2. */
  private trueResidual(A: LinearOperator, b: Float64Array, x: Float64Array): number {
    const { r } = this
    if (A.residual) A.residual(b, x, r)
    else {
      A.apply(x, r)
      for (let c = 0; c < this.n; c++) r[c] = b[c] - r[c]
    }
    A.removeNullSpace?.(r)
    return Math.sqrt(this.dot(r, r))
  }

  private precondition(A: LinearOperator, M: Preconditioner | null): void {
    if (M === null) this.z.set(this.r)
    else M.apply(this.r, this.z)
    A.removeNullSpace?.(this.z)
  }

  /**
   * Solves A x = b starting from the guess in x (zero it for a cold start). b is projected in
   * place when A has a null space. M null = plain CG.
   */
  solve(A: LinearOperator, M: Preconditioner | null, b: Float64Array, x: Float64Array, options: PcgOptions = {}): SolveStats {
    const tol = options.tolerance ?? DEFAULT_TOLERANCE
    const maxIt = options.maxIterations ?? DEFAULT_MAX_ITERATIONS
    const { r, z, s, q, ops } = this
    A.removeNullSpace?.(b)
    A.removeNullSpace?.(x)
    const bNorm = Math.sqrt(this.dot(b, b))
    if (bNorm === 0 || !Number.isFinite(bNorm)) {
      x.fill(0)
      return { iterations: 0, residual: bNorm === 0 ? 0 : Number.NaN, converged: bNorm === 0 }
    }
    const target = tol * bNorm
    let rNorm = this.trueResidual(A, b, x)
    if (rNorm <= target) return { iterations: 0, residual: rNorm / bNorm, converged: true }
    if (!(rNorm < bNorm)) {
      // The guess is worse than zero (a warm start from a very different right-hand side,
      // e.g. re-projecting an already projected field): its rounding would floor the
      // reachable relative residual at eps ||A x|| / ||b||, so start cold.
      x.fill(0)
      r.set(b)
      rNorm = bNorm
    }
    const startNorm = rNorm
    this.precondition(A, M)
    ops.copy(s, z)
    let sigma = this.dot(r, z)
    let iterations = 0
    let restarts = 0
    while (iterations < maxIt) {
      if (options.shouldStop?.()) throw new EddyError('CANCELLED', `Cancelled during a linear solve, after ${iterations} iterations`)
      A.apply(s, q)
      const sq = this.dot(s, q)
      if (!(sq > 0)) break // breakdown: A or M^-1 not positive definite on this vector
      const alpha = sigma / sq
      rNorm = Math.sqrt(ops.updateIterate(x, r, s, q, alpha))
      iterations++
      if (rNorm <= target) {
        rNorm = this.trueResidual(A, b, x)
        if (rNorm <= target || restarts === MAX_RESTARTS) return { iterations, residual: rNorm / bNorm, converged: rNorm <= target }
        restarts++
        this.precondition(A, M)
        ops.copy(s, z)
        sigma = this.dot(r, z)
        continue
      }
      if (options.giveUp?.(iterations, rNorm / startNorm)) break
      this.precondition(A, M)
      const sigmaNew = this.dot(r, z)
      ops.updateSearch(s, z, sigmaNew / sigma)
      sigma = sigmaNew
    }
    rNorm = this.trueResidual(A, b, x)
    return { iterations, residual: rNorm / bNorm, converged: rNorm <= target }
  }
}
