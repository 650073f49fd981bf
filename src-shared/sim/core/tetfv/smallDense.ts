// Small dense symmetric positive definite solves (n <= 12: the moving least-squares normal
// equations and the dual-cell coordinate fits), in place on caller-owned scratch, allocation free.

/**
 * Solves M x = b for a symmetric positive definite n x n matrix M (row-major; the lower
 * triangle is read and overwritten by the Cholesky factor), b overwritten by x. Returns the
 * smallest ratio of a pivot to its original diagonal entry (1 for a diagonal matrix, near 0
 * when M is near singular), or 0 when M is not positive definite (then b is garbage).
 */
export function choleskySolveInPlace(M: Float64Array, n: number, b: Float64Array): number {
  const worst = choleskyFactorInPlace(M, n)
  if (worst > 0) choleskySubstitute(M, n, b)
  return worst
}

/**
 * The factor L of choleskySolveInPlace alone, into M's lower triangle; returns its ratio (0
 * when M is not positive definite). Solving several right-hand sides with one factor gives
 * each the bits choleskySolveInPlace would: the same operations in the same order.
 */
export function choleskyFactorInPlace(M: Float64Array, n: number): number {
  let worst = 1
  for (let j = 0; j < n; j++) {
    const diag = M[j * n + j]
    let s = diag
    for (let k = 0; k < j; k++) s -= M[j * n + k] * M[j * n + k]
    if (!(s > 0) || !(diag > 0)) return 0
    const ratio = s / diag
    if (ratio < worst) worst = ratio
    const l = Math.sqrt(s)
    M[j * n + j] = l
    for (let i = j + 1; i < n; i++) {
      let t = M[i * n + j]
      for (let k = 0; k < j; k++) t -= M[i * n + k] * M[j * n + k]
      M[i * n + j] = t / l
    }
  }
  return worst
}

/** b = (L L^T)^-1 b for the factor choleskyFactorInPlace left in M: L y = b, then L^T x = y. */
export function choleskySubstitute(M: Float64Array, n: number, b: Float64Array): void {
  for (let i = 0; i < n; i++) {
    let t = b[i]
    for (let k = 0; k < i; k++) t -= M[i * n + k] * b[k]
    b[i] = t / M[i * n + i]
  }
  for (let i = n - 1; i >= 0; i--) {
    let t = b[i]
    for (let k = i + 1; k < n; k++) t -= M[k * n + i] * b[k]
    b[i] = t / M[i * n + i]
  }
}
