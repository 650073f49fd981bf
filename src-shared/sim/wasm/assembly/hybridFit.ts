// The hybrid mesh's linear-basis MLS fits over a batch of points (reference: src-shared/sim/
// hybrid/linearFitKernel.ts linearFitPoints; seed 000 eqs. 7-11). Each point is fitted alone,
// in the reference's operations and order: the 60 sums of the normal matrix two at a time
// (f64x2 lanes round exactly as the scalar adds do), the same Cholesky solve, the same
// constant-basis fallback, so the answers are the reference's bits. Per-thread scratch (the
// 12 x 12 matrix, its right-hand side, the sums) is the block the caller lends thread `worker`.
import { rf64, ri32, wf64 } from './common'

/** Smallest accepted pivot ratio of the linear fit (tetMls.ts LINEAR_CONDITION_FLOOR). */
const LINEAR_CONDITION_FLOOR: f64 = 1e-12

/** smallDense.ts choleskySolveInPlace on the n x n row-major matrix at M and the vector at b. */
function cholesky(M: usize, n: i32, b: usize): f64 {
  let worst: f64 = 1
  for (let j = 0; j < n; j++) {
    const diag = rf64(M, j * n + j)
    let s = diag
    for (let k = 0; k < j; k++) s -= rf64(M, j * n + k) * rf64(M, j * n + k)
    if (!(s > 0) || !(diag > 0)) return 0
    const ratio = s / diag
    if (ratio < worst) worst = ratio
    const l = Math.sqrt(s)
    wf64(M, j * n + j, l)
    for (let i = j + 1; i < n; i++) {
      let t = rf64(M, i * n + j)
      for (let k = 0; k < j; k++) t -= rf64(M, i * n + k) * rf64(M, j * n + k)
      wf64(M, i * n + j, t / l)
    }
  }
  for (let i = 0; i < n; i++) {
    let t = rf64(b, i)
    for (let k = 0; k < i; k++) t -= rf64(M, i * n + k) * rf64(b, k)
    wf64(b, i, t / rf64(M, i * n + i))
  }
  for (let i = n - 1; i >= 0; i--) {
    let t = rf64(b, i)
    for (let k = i + 1; k < n; k++) t -= rf64(M, k * n + i) * rf64(b, k)
    wf64(b, i, t / rf64(M, i * n + i))
  }
  return worst
}

/** Index of the pair (i, j) among the lower triangle's (i >= j). */
@inline function tri(i: i32, j: i32): i32 {
  return i >= j ? (i * (i + 1)) / 2 + j : (j * (j + 1)) / 2 + i
}

/** constantFitAt: eqs. 7-10 over the faces, into out at 3q. */
function constantFit(C: usize, N: usize, zf: usize, faces: usize, s: i32, e: i32, x: f64, y: f64, z: f64, len: f64, eps2: f64, M: usize, rhs: usize, out: usize, q: i32): void {
  const invLen = 1 / len
  let m00: f64 = 0, m10: f64 = 0, m11: f64 = 0, m20: f64 = 0, m21: f64 = 0, m22: f64 = 0, b0: f64 = 0, b1: f64 = 0, b2: f64 = 0
  for (let i = s; i < e; i++) {
    const f = ri32(faces, i)
    const X = (rf64(C, 3 * f) - x) * invLen, Y = (rf64(C, 3 * f + 1) - y) * invLen, Z = (rf64(C, 3 * f + 2) - z) * invLen
    const w = 1 / (X * X + Y * Y + Z * Z + eps2), w2 = w * w
    const nx = rf64(N, 3 * f), ny = rf64(N, 3 * f + 1), nz = rf64(N, 3 * f + 2)
    m00 += w2 * nx * nx; m10 += w2 * ny * nx; m11 += w2 * ny * ny
    m20 += w2 * nz * nx; m21 += w2 * nz * ny; m22 += w2 * nz * nz
    const zw = w2 * rf64(zf, f)
    b0 += zw * nx; b1 += zw * ny; b2 += zw * nz
  }
  wf64(M, 0, m00); wf64(M, 3, m10); wf64(M, 4, m11); wf64(M, 6, m20); wf64(M, 7, m21); wf64(M, 8, m22)
  wf64(rhs, 0, b0); wf64(rhs, 1, b1); wf64(rhs, 2, b2)
  if (cholesky(M, 3, rhs) > 0) {
    wf64(out, 3 * q, rf64(rhs, 0)); wf64(out, 3 * q + 1, rf64(rhs, 1)); wf64(out, 3 * q + 2, rf64(rhs, 2))
  } else {
    wf64(out, 3 * q, 0); wf64(out, 3 * q + 1, 0); wf64(out, 3 * q + 2, 0)
  }
}

/** linearFitPoints over points [q0, q1). */
export function linearFitPoints(
  C: usize, N: usize, zf: usize, faces: usize, at: usize, start: usize, end: usize, len: usize, eps2: f64, out: usize,
  workBase: usize, workStride: usize, q0: i32, q1: i32, worker: i32,
): void {
  const M = workBase + <usize>worker * workStride
  const rhs = M + 144 * 8
  const acc = rhs + 12 * 8
  for (let q = q0; q < q1; q++) {
    const s = ri32(start, q), e = ri32(end, q)
    const x = rf64(at, 3 * q), y = rf64(at, 3 * q + 1), z = rf64(at, 3 * q + 2)
    const L = rf64(len, q)
    const invLen = 1 / L
    // The 60 sums as 30 lane pairs in locals: pair 3k + m holds products k, entries 2m, 2m + 1.
    let a0 = f64x2.splat(0), a1 = a0, a2 = a0, a3 = a0, a4 = a0, a5 = a0, a6 = a0, a7 = a0, a8 = a0, a9 = a0
    let a10 = a0, a11 = a0, a12 = a0, a13 = a0, a14 = a0, a15 = a0, a16 = a0, a17 = a0, a18 = a0, a19 = a0
    let a20 = a0, a21 = a0, a22 = a0, a23 = a0, a24 = a0, a25 = a0, a26 = a0, a27 = a0, a28 = a0, a29 = a0
    let b0: f64 = 0, b1: f64 = 0, b2: f64 = 0, b3: f64 = 0, b4: f64 = 0, b5: f64 = 0, b6: f64 = 0, b7: f64 = 0, b8: f64 = 0, b9: f64 = 0, b10: f64 = 0, b11: f64 = 0
    for (let i = s; i < e; i++) {
      const f = ri32(faces, i)
      const X = (rf64(C, 3 * f) - x) * invLen, Y = (rf64(C, 3 * f + 1) - y) * invLen, Z = (rf64(C, 3 * f + 2) - z) * invLen
      const w = 1 / (X * X + Y * Y + Z * Z + eps2), w2 = w * w
      const nx = rf64(N, 3 * f), ny = rf64(N, 3 * f + 1), nz = rf64(N, 3 * f + 2)
      const zv = rf64(zf, f)
      const zx = w2 * zv * nx, zy = w2 * zv * ny, zz = w2 * zv * nz
      b0 += zx; b1 += zy; b2 += zz
      b3 += X * zx; b4 += X * zy; b5 += X * zz
      b6 += Y * zx; b7 += Y * zy; b8 += Y * zz
      b9 += Z * zx; b10 += Z * zy; b11 += Z * zz
      const wx = w2 * nx, wy = w2 * ny, wz = w2 * nz
      const Q01 = f64x2(wx * nx, wy * nx), Q23 = f64x2(wy * ny, wz * nx), Q45 = f64x2(wz * ny, wz * nz)
      // The products p_P p_Q (P >= Q) in the reference's order: 1, X, XX, Y, YX, YY, Z, ZX, ZY, ZZ.
      const T0 = f64x2.splat(1), T1 = f64x2.splat(X), T2 = f64x2.splat(X * X), T3 = f64x2.splat(Y), T4 = f64x2.splat(Y * X)
      const T5 = f64x2.splat(Y * Y), T6 = f64x2.splat(Z), T7 = f64x2.splat(Z * X), T8 = f64x2.splat(Z * Y), T9 = f64x2.splat(Z * Z)
      a0 = f64x2.add(a0, f64x2.mul(T0, Q01)); a1 = f64x2.add(a1, f64x2.mul(T0, Q23)); a2 = f64x2.add(a2, f64x2.mul(T0, Q45))
      a3 = f64x2.add(a3, f64x2.mul(T1, Q01)); a4 = f64x2.add(a4, f64x2.mul(T1, Q23)); a5 = f64x2.add(a5, f64x2.mul(T1, Q45))
      a6 = f64x2.add(a6, f64x2.mul(T2, Q01)); a7 = f64x2.add(a7, f64x2.mul(T2, Q23)); a8 = f64x2.add(a8, f64x2.mul(T2, Q45))
      a9 = f64x2.add(a9, f64x2.mul(T3, Q01)); a10 = f64x2.add(a10, f64x2.mul(T3, Q23)); a11 = f64x2.add(a11, f64x2.mul(T3, Q45))
      a12 = f64x2.add(a12, f64x2.mul(T4, Q01)); a13 = f64x2.add(a13, f64x2.mul(T4, Q23)); a14 = f64x2.add(a14, f64x2.mul(T4, Q45))
      a15 = f64x2.add(a15, f64x2.mul(T5, Q01)); a16 = f64x2.add(a16, f64x2.mul(T5, Q23)); a17 = f64x2.add(a17, f64x2.mul(T5, Q45))
      a18 = f64x2.add(a18, f64x2.mul(T6, Q01)); a19 = f64x2.add(a19, f64x2.mul(T6, Q23)); a20 = f64x2.add(a20, f64x2.mul(T6, Q45))
      a21 = f64x2.add(a21, f64x2.mul(T7, Q01)); a22 = f64x2.add(a22, f64x2.mul(T7, Q23)); a23 = f64x2.add(a23, f64x2.mul(T7, Q45))
      a24 = f64x2.add(a24, f64x2.mul(T8, Q01)); a25 = f64x2.add(a25, f64x2.mul(T8, Q23)); a26 = f64x2.add(a26, f64x2.mul(T8, Q45))
      a27 = f64x2.add(a27, f64x2.mul(T9, Q01)); a28 = f64x2.add(a28, f64x2.mul(T9, Q23)); a29 = f64x2.add(a29, f64x2.mul(T9, Q45))
    }
    v128.store(acc, a0); v128.store(acc, a1, 16); v128.store(acc, a2, 32); v128.store(acc, a3, 48); v128.store(acc, a4, 64)
    v128.store(acc, a5, 80); v128.store(acc, a6, 96); v128.store(acc, a7, 112); v128.store(acc, a8, 128); v128.store(acc, a9, 144)
    v128.store(acc, a10, 160); v128.store(acc, a11, 176); v128.store(acc, a12, 192); v128.store(acc, a13, 208); v128.store(acc, a14, 224)
    v128.store(acc, a15, 240); v128.store(acc, a16, 256); v128.store(acc, a17, 272); v128.store(acc, a18, 288); v128.store(acc, a19, 304)
    v128.store(acc, a20, 320); v128.store(acc, a21, 336); v128.store(acc, a22, 352); v128.store(acc, a23, 368); v128.store(acc, a24, 384)
    v128.store(acc, a25, 400); v128.store(acc, a26, 416); v128.store(acc, a27, 432); v128.store(acc, a28, 448); v128.store(acc, a29, 464)
    // The lower triangle of the 12 x 12 matrix from the sums (linearFitKernel.ts KRONECKER_MAP).
    for (let r = 0; r < 12; r++) {
      for (let c = 0; c <= r; c++) wf64(M, 12 * r + c, rf64(acc, 6 * tri(r / 3, c / 3) + tri(r % 3, c % 3)))
    }
    wf64(rhs, 0, b0); wf64(rhs, 1, b1); wf64(rhs, 2, b2); wf64(rhs, 3, b3); wf64(rhs, 4, b4); wf64(rhs, 5, b5)
    wf64(rhs, 6, b6); wf64(rhs, 7, b7); wf64(rhs, 8, b8); wf64(rhs, 9, b9); wf64(rhs, 10, b10); wf64(rhs, 11, b11)
    if (cholesky(M, 12, rhs) >= LINEAR_CONDITION_FLOOR) {
      wf64(out, 3 * q, rf64(rhs, 0)); wf64(out, 3 * q + 1, rf64(rhs, 1)); wf64(out, 3 * q + 2, rf64(rhs, 2))
    } else constantFit(C, N, zf, faces, s, e, x, y, z, L, eps2, M, rhs, out, q)
  }
}
