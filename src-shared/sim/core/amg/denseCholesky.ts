// The base case of the multigrid hierarchy: "The base case is a linear system small enough to
// solve quickly with a direct method" (Chentanez et al. 2007, sec. 3.5; x_1 <- A_1^-1 b_1 in
// VCYCLEMULTIGRID). A dense Cholesky factorisation A = L L^T of the coarsest Galerkin matrix
// (a few dozen unknowns), then two triangular solves per cycle, on the calling thread (serial,
// so the same bits whatever the kernel backend's thread count).
//
// Semi-definite systems (a closed, pure Neumann domain: A 1 = 0 carries down the Galerkin
// hierarchy since P 1 = 1) reach a pivot that is zero up to rounding. Such a pivot (at most
// 1e-10 times the original diagonal entry) drops its unknown: its column of L is cleared and
// the solve sets it to 0, i.e. the variable is grounded. The solve is then the exact inverse
// of A restricted to the other unknowns, padded with a zero: still a fixed symmetric positive
// semi-definite map (as PCG needs), and an exact solution whenever b is consistent.
import type { CsrMatrix } from '../sparse/csr'

const DROP = 1e-10

export class DenseCholesky {
  readonly n: number
  /** L row-major, lower triangle (including the diagonal). */
  private readonly L: Float64Array
  /** 1 / L_kk, or 0 for a dropped (grounded) unknown. */
  private readonly invDiag: Float64Array
  /** Unknowns dropped for a zero pivot. */
  readonly dropped: number

  /**
   * Factors A: a CSR matrix, or a dense n x n row-major one (only its lower triangle is read;
   * the array becomes the factor's storage).
   */
  constructor(A: CsrMatrix | { n: number; dense: Float64Array }) {
    const n = A.n
    this.n = n
    let L: Float64Array
    if ('dense' in A) L = A.dense
    else {
      L = new Float64Array(n * n)
      for (let i = 0; i < n; i++) for (let p = A.rowPtr[i]; p < A.rowPtr[i + 1]; p++) if (A.col[p] <= i) L[i * n + A.col[p]] += A.val[p]
    }
    const invDiag = new Float64Array(n)
    let dropped = 0
    // Left-looking (Cholesky-Crout): column k from the finished columns j < k.
    for (let k = 0; k < n; k++) {
      const akk = L[k * n + k]
      let d = akk
      for (let j = 0; j < k; j++) d -= L[k * n + j] * L[k * n + j]
      if (!(d > DROP * Math.abs(akk)) || akk <= 0) {
        // Zero pivot (to rounding): ground unknown k.
        for (let i = k; i < n; i++) L[i * n + k] = 0
        dropped++
        continue
      }
      const lkk = Math.sqrt(d)
      L[k * n + k] = lkk
      invDiag[k] = 1 / lkk
      for (let i = k + 1; i < n; i++) {
        let s = L[i * n + k]
        for (let j = 0; j < k; j++) s -= L[i * n + j] * L[k * n + j]
        L[i * n + k] = s / lkk
      }
    }
    this.L = L
    this.invDiag = invDiag
    this.dropped = dropped
  }

  /** x = A^-1 b (x may alias b). */
  solve(b: Float64Array, x: Float64Array): void {
    const { n, L, invDiag } = this
    if (x !== b) for (let i = 0; i < n; i++) x[i] = b[i]
    // L y = b (dropped unknowns: y = 0, and their cleared columns feed nothing).
    for (let i = 0; i < n; i++) {
      let s = x[i]
      for (let j = 0; j < i; j++) s -= L[i * n + j] * x[j]
      x[i] = s * invDiag[i]
    }
    // L^T x = y.
    for (let i = n - 1; i >= 0; i--) {
      const xi = x[i] * invDiag[i]
      x[i] = xi
      for (let j = 0; j < i; j++) x[j] -= L[i * n + j] * xi
    }
  }
}
