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

/**
 * smallDense.ts choleskyFactor for two lane-interleaved n x n matrices at once (each lane the
 * scalar factor's operations in its order, so its bits): the worst pivot ratio per lane, 0 in a
 * lane whose matrix is not positive definite (that lane's factor is then garbage; never read).
 */
export function choleskyFactor2(MM: usize, n: i32): v128 {
  const row = <usize>(16 * n)
  const zero = f64x2.splat(0)
  let worst = f64x2.splat(1)
  let dead = zero
  for (let j = 0; j < n; j++) {
    const rj = MM + <usize>j * row
    const end = <usize>j << 4
    const diag = v128.load(rj + end)
    let s = diag
    for (let k: usize = 0; k < end; k += 16) {
      const v = v128.load(rj + k)
      s = f64x2.sub(s, f64x2.mul(v, v))
    }
    dead = v128.or(dead, v128.not(v128.and(f64x2.gt(s, zero), f64x2.gt(diag, zero))))
    const ratio = f64x2.div(s, diag)
    worst = v128.bitselect(ratio, worst, f64x2.lt(ratio, worst))
    const l = f64x2.sqrt(s)
    v128.store(rj + end, l)
    for (let i = j + 1; i < n; i++) {
      const ri = MM + <usize>i * row
      let t = v128.load(ri + end)
      for (let k: usize = 0; k < end; k += 16) t = f64x2.sub(t, f64x2.mul(v128.load(ri + k), v128.load(rj + k)))
      v128.store(ri + end, f64x2.div(t, l))
    }
  }
  return v128.bitselect(zero, worst, dead)
}

/** smallDense.ts choleskySubstitute for two lane-interleaved factors and right-hand sides. */
export function choleskySubstitute2(MM: usize, n: i32, b: usize): void {
  const row = <usize>(16 * n)
  for (let i = 0; i < n; i++) {
    const ri = MM + <usize>i * row, at = <usize>i << 4
    let t = v128.load(b + at)
    for (let k: usize = 0; k < at; k += 16) t = f64x2.sub(t, f64x2.mul(v128.load(ri + k), v128.load(b + k)))
    v128.store(b + at, f64x2.div(t, v128.load(ri + at)))
  }
  for (let i = n - 1; i >= 0; i--) {
    const ci = MM + (<usize>i << 4)
    let t = v128.load(b + (<usize>i << 4))
    for (let k = i + 1; k < n; k++) t = f64x2.sub(t, f64x2.mul(v128.load(ci + <usize>k * row), v128.load(b + (<usize>k << 4))))
    v128.store(b + (<usize>i << 4), f64x2.div(t, v128.load(ci + <usize>i * row)))
  }
}

// The worst pivot ratios of the last choleskyFactor2x2 (lanes as choleskyFactor2's), per pair.
export let worstA: v128 = f64x2.splat(0)
export let worstB: v128 = f64x2.splat(0)

/**
 * choleskyFactor2 on two lane-interleaved pairs at once (MA and MB), every statement written
 * for both: a factor is a chain (each column waits on a square root and the divisions before
 * it) that leaves the processor mostly waiting, and two chains side by side fill that time. Each
 * lane is the scalar factor's operations in its order, so its bits; the pairs' worst pivot
 * ratios into worstA and worstB.
 */
export function choleskyFactor2x2(MA: usize, MB: usize, n: i32): void {
  const row = <usize>(16 * n)
  const zero = f64x2.splat(0)
  let wa = f64x2.splat(1), wb = wa
  let da = zero, db = zero
  for (let j = 0; j < n; j++) {
    const ja = MA + <usize>j * row, jb = MB + <usize>j * row
    const end = <usize>j << 4
    const diagA = v128.load(ja + end), diagB = v128.load(jb + end)
    let sa = diagA, sb = diagB
    for (let k: usize = 0; k < end; k += 16) {
      const va = v128.load(ja + k), vb = v128.load(jb + k)
      sa = f64x2.sub(sa, f64x2.mul(va, va))
      sb = f64x2.sub(sb, f64x2.mul(vb, vb))
    }
    da = v128.or(da, v128.not(v128.and(f64x2.gt(sa, zero), f64x2.gt(diagA, zero))))
    db = v128.or(db, v128.not(v128.and(f64x2.gt(sb, zero), f64x2.gt(diagB, zero))))
    const ra = f64x2.div(sa, diagA), rb = f64x2.div(sb, diagB)
    wa = v128.bitselect(ra, wa, f64x2.lt(ra, wa))
    wb = v128.bitselect(rb, wb, f64x2.lt(rb, wb))
    const la = f64x2.sqrt(sa), lb = f64x2.sqrt(sb)
    v128.store(ja + end, la)
    v128.store(jb + end, lb)
    for (let i = j + 1; i < n; i++) {
      const ia = MA + <usize>i * row, ib = MB + <usize>i * row
      let ta = v128.load(ia + end), tb = v128.load(ib + end)
      for (let k: usize = 0; k < end; k += 16) {
        ta = f64x2.sub(ta, f64x2.mul(v128.load(ia + k), v128.load(ja + k)))
        tb = f64x2.sub(tb, f64x2.mul(v128.load(ib + k), v128.load(jb + k)))
      }
      v128.store(ia + end, f64x2.div(ta, la))
      v128.store(ib + end, f64x2.div(tb, lb))
    }
  }
  worstA = v128.bitselect(zero, wa, da)
  worstB = v128.bitselect(zero, wb, db)
}

/** choleskySubstitute2 on two pairs at once (factors MA, MB; right-hand sides bA, bB), every statement for both. */
export function choleskySubstitute2x2(MA: usize, MB: usize, n: i32, bA: usize, bB: usize): void {
  const row = <usize>(16 * n)
  for (let i = 0; i < n; i++) {
    const ia = MA + <usize>i * row, ib = MB + <usize>i * row, at = <usize>i << 4
    let ta = v128.load(bA + at), tb = v128.load(bB + at)
    for (let k: usize = 0; k < at; k += 16) {
      ta = f64x2.sub(ta, f64x2.mul(v128.load(ia + k), v128.load(bA + k)))
      tb = f64x2.sub(tb, f64x2.mul(v128.load(ib + k), v128.load(bB + k)))
    }
    v128.store(bA + at, f64x2.div(ta, v128.load(ia + at)))
    v128.store(bB + at, f64x2.div(tb, v128.load(ib + at)))
  }
  for (let i = n - 1; i >= 0; i--) {
    const ca = MA + (<usize>i << 4), cb = MB + (<usize>i << 4), at = <usize>i << 4
    let ta = v128.load(bA + at), tb = v128.load(bB + at)
    for (let k = i + 1; k < n; k++) {
      const kr = <usize>k * row, kb = <usize>k << 4
      ta = f64x2.sub(ta, f64x2.mul(v128.load(ca + kr), v128.load(bA + kb)))
      tb = f64x2.sub(tb, f64x2.mul(v128.load(cb + kr), v128.load(bB + kb)))
    }
    v128.store(bA + at, f64x2.div(ta, v128.load(ca + <usize>i * row)))
    v128.store(bB + at, f64x2.div(tb, v128.load(cb + <usize>i * row)))
  }
}
