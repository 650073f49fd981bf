// Small dense symmetric positive definite solves for the kernels (twins of src-shared/sim/core/
// tetfv/smallDense.ts): the Cholesky factor and its substitutions, in the reference's operations
// and order, so the same bits. Not kernels themselves (index.ts does not export this module).
/**
 * smallDense.ts choleskyFactorInPlace on the n x n row-major matrix at M (its lower triangle
 * read and overwritten by the factor), in the same operations and order (each entry's sum
 * subtracts its products k = 0, 1, ... as the reference does), so the same bits; returns the
 * smallest pivot ratio, 0 when M is not positive definite. Only the schedule differs: four rows
 * of a column at a time, their four sums being independent chains the processor overlaps (one
 * chain waits on each subtraction's latency), with byte offsets stepped instead of recomputed
 * from indices.
 */
export function choleskyFactor(M: usize, n: i32): f64 {
  const row = <usize>(8 * n)
  let worst: f64 = 1
  for (let j = 0; j < n; j++) {
    const rj = M + <usize>j * row
    const end = <usize>j << 3
    const diag = load<f64>(rj + end)
    let s = diag
    for (let k: usize = 0; k < end; k += 8) {
      const v = load<f64>(rj + k)
      s -= v * v
    }
    if (!(s > 0) || !(diag > 0)) return 0
    const ratio = s / diag
    if (ratio < worst) worst = ratio
    const l = Math.sqrt(s)
    store<f64>(rj + end, l)
    let i = j + 1
    for (; i + 3 < n; i += 4) {
      const r0 = M + <usize>i * row, r1 = r0 + row, r2 = r1 + row, r3 = r2 + row
      let t0 = load<f64>(r0 + end), t1 = load<f64>(r1 + end), t2 = load<f64>(r2 + end), t3 = load<f64>(r3 + end)
      for (let k: usize = 0; k < end; k += 8) {
        const c = load<f64>(rj + k)
        t0 -= load<f64>(r0 + k) * c; t1 -= load<f64>(r1 + k) * c
        t2 -= load<f64>(r2 + k) * c; t3 -= load<f64>(r3 + k) * c
      }
      store<f64>(r0 + end, t0 / l); store<f64>(r1 + end, t1 / l); store<f64>(r2 + end, t2 / l); store<f64>(r3 + end, t3 / l)
    }
    for (; i < n; i++) {
      const r0 = M + <usize>i * row
      let t0 = load<f64>(r0 + end)
      for (let k: usize = 0; k < end; k += 8) t0 -= load<f64>(r0 + k) * load<f64>(rj + k)
      store<f64>(r0 + end, t0 / l)
    }
  }
  return worst
}

/** smallDense.ts choleskySubstitute: b = (L L^T)^-1 b for the factor at M, L y = b then L^T x = y. */
export function choleskySubstitute(M: usize, n: i32, b: usize): void {
  const row = <usize>(8 * n)
  for (let i = 0; i < n; i++) {
    const ri = M + <usize>i * row, at = <usize>i << 3
    let t = load<f64>(b + at)
    for (let k: usize = 0; k < at; k += 8) t -= load<f64>(ri + k) * load<f64>(b + k)
    store<f64>(b + at, t / load<f64>(ri + at))
  }
  for (let i = n - 1; i >= 0; i--) {
    const ci = M + (<usize>i << 3)
    let t = load<f64>(b + (<usize>i << 3))
    for (let k = i + 1; k < n; k++) t -= load<f64>(ci + <usize>k * row) * load<f64>(b + (<usize>k << 3))
    store<f64>(b + (<usize>i << 3), t / load<f64>(ci + <usize>i * row))
  }
}
