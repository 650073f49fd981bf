// The hybrid mesh's linear-basis MLS fits over a batch of points (reference: src-shared/sim/
// hybrid/linearFitKernel.ts linearFitPoints; seed 000 eqs. 7-11). Each point is fitted alone,
// in the reference's operations and order: the 60 sums of the normal matrix two at a time
// (f64x2 lanes round exactly as the scalar adds do), the same Cholesky solve, the same
// constant-basis fallback, so the answers are the reference's bits. Per-thread scratch (the
// 12 x 12 matrix, its right-hand side, the sums, the per-face table) is the block the caller
// lends thread `worker`.
import { rf64, ri32, wf64 } from './common'
import { choleskyFactor, choleskySubstitute } from './smallDense'

/** Smallest accepted pivot ratio of the linear fit (tetMls.ts LINEAR_CONDITION_FLOOR). */
const LINEAR_CONDITION_FLOOR: f64 = 1e-12

/** smallDense.ts choleskySolveInPlace: the factor, then the substitutions when it succeeded. */
function cholesky(M: usize, n: i32, b: usize): f64 {
  const worst = choleskyFactor(M, n)
  if (worst > 0) choleskySubstitute(M, n, b)
  return worst
}

/**
 * The lower triangle of the 12 x 12 normal matrix M from the 60 sums at acc (linearFitKernel.ts
 * KRONECKER_MAP: entry (3P + a, 3Q + b) is sum 6 tri(P, Q) + tri(a, b)), without divisions.
 */
function kroneckerFill(acc: usize, M: usize): void {
  for (let P = 0; P < 4; P++) {
    for (let Q = 0; Q <= P; Q++) {
      const base = acc + <usize>(48 * ((P * (P + 1)) / 2 + Q))
      for (let a = 0; a < 3; a++) {
        const row = M + <usize>(96 * (3 * P + a) + 24 * Q)
        const bEnd = P == Q ? a : 2
        for (let b = 0; b <= bEnd; b++) store<f64>(row + (<usize>b << 3), load<f64>(base + <usize>(8 * tri(a, b))))
      }
    }
  }
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

/** Faces per chunk of the per-face table (linearFitKernel.ts LINEAR_FIT_CHUNK). */
const CHUNK: i32 = 128
/** Bytes per face in the table: X, Y, Z, zz, (zx, zy), (q0, q1), (q2, q3), (q4, q5) as f64. */
const ROW: usize = 96

/** a += T * Q, lane by lane (the reference's acc += t * q: a product, then a sum). */
@inline function madd(a: v128, T: v128, Q: v128): v128 {
  return f64x2.add(a, f64x2.mul(T, Q))
}

/**
 * The per-face terms of faces [cs, ce) of a fit into the table at rows: the offset (X, Y, Z)
 * in units of len, w^2 z_f n_f, and the six products w^2 n n^T, each as the reference forms it.
 */
function fillRows(C: usize, N: usize, zf: usize, faces: usize, cs: i32, ce: i32, x: f64, y: f64, z: f64, invLen: f64, eps2: f64, rows: usize): void {
  let r = rows
  for (let i = cs; i < ce; i++, r += ROW) {
    const f = ri32(faces, i)
    const X = (rf64(C, 3 * f) - x) * invLen, Y = (rf64(C, 3 * f + 1) - y) * invLen, Z = (rf64(C, 3 * f + 2) - z) * invLen
    const w = 1 / (X * X + Y * Y + Z * Z + eps2), w2 = w * w
    const nx = rf64(N, 3 * f), ny = rf64(N, 3 * f + 1), nz = rf64(N, 3 * f + 2)
    const zv = rf64(zf, f)
    const wx = w2 * nx, wy = w2 * ny, wz = w2 * nz
    store<f64>(r, X); store<f64>(r, Y, 8); store<f64>(r, Z, 16); store<f64>(r, w2 * zv * nz, 24)
    v128.store(r, f64x2(w2 * zv * nx, w2 * zv * ny), 32)
    v128.store(r, f64x2(wx * nx, wy * nx), 48); v128.store(r, f64x2(wy * ny, wz * nx), 64); v128.store(r, f64x2(wz * ny, wz * nz), 80)
  }
}

/**
 * The sums of products T_k, T_k+1, T_k+2 (k = 0, 3 or 6; 1, X, XX, Y, YX, YY, Z, ZX, ZY) times
 * the six w^2 n n^T over n table rows, added to the nine lane pairs of acc from pair 3k on. One
 * group of nine accumulators at a time stays in registers; the sums' order is the reference's.
 */
@inline function sumGroup(rows: usize, n: i32, acc: usize, k: i32): void {
  const p = acc + <usize>(16 * 3 * k)
  let a0 = v128.load(p), a1 = v128.load(p, 16), a2 = v128.load(p, 32), a3 = v128.load(p, 48), a4 = v128.load(p, 64)
  let a5 = v128.load(p, 80), a6 = v128.load(p, 96), a7 = v128.load(p, 112), a8 = v128.load(p, 128)
  let r = rows
  for (let i = 0; i < n; i++, r += ROW) {
    const X = load<f64>(r), Y = load<f64>(r, 8), Z = load<f64>(r, 16)
    const Q01 = v128.load(r, 48), Q23 = v128.load(r, 64), Q45 = v128.load(r, 80)
    let T0: v128, T1: v128, T2: v128
    if (k == 0) { T0 = f64x2.splat(1); T1 = f64x2.splat(X); T2 = f64x2.splat(X * X) }
    else if (k == 3) { T0 = f64x2.splat(Y); T1 = f64x2.splat(Y * X); T2 = f64x2.splat(Y * Y) }
    else { T0 = f64x2.splat(Z); T1 = f64x2.splat(Z * X); T2 = f64x2.splat(Z * Y) }
    a0 = madd(a0, T0, Q01); a1 = madd(a1, T0, Q23); a2 = madd(a2, T0, Q45)
    a3 = madd(a3, T1, Q01); a4 = madd(a4, T1, Q23); a5 = madd(a5, T1, Q45)
    a6 = madd(a6, T2, Q01); a7 = madd(a7, T2, Q23); a8 = madd(a8, T2, Q45)
  }
  v128.store(p, a0); v128.store(p, a1, 16); v128.store(p, a2, 32); v128.store(p, a3, 48); v128.store(p, a4, 64)
  v128.store(p, a5, 80); v128.store(p, a6, 96); v128.store(p, a7, 112); v128.store(p, a8, 128)
}

/**
 * The last three pairs (T9 = ZZ) and the right-hand side's first six sums (b0..b2 with 1,
 * b3..b5 with X) over n table rows; (b0, b1), (b3, b4) in lane pairs as (zx, zy) is stored.
 */
function sumLastAndB0(rows: usize, n: i32, acc: usize, rhs: usize): void {
  let a27 = v128.load(acc, 432), a28 = v128.load(acc, 448), a29 = v128.load(acc, 464)
  let b01 = v128.load(rhs), b34 = v128.load(rhs, 24)
  let b2 = load<f64>(rhs, 16), b5 = load<f64>(rhs, 40)
  let r = rows
  for (let i = 0; i < n; i++, r += ROW) {
    const X = load<f64>(r), Z = load<f64>(r, 16), zz = load<f64>(r, 24), zxy = v128.load(r, 32)
    const T9 = f64x2.splat(Z * Z)
    a27 = madd(a27, T9, v128.load(r, 48)); a28 = madd(a28, T9, v128.load(r, 64)); a29 = madd(a29, T9, v128.load(r, 80))
    b01 = f64x2.add(b01, zxy); b2 += zz
    b34 = madd(b34, f64x2.splat(X), zxy); b5 += X * zz
  }
  v128.store(acc, a27, 432); v128.store(acc, a28, 448); v128.store(acc, a29, 464)
  v128.store(rhs, b01); v128.store(rhs, b34, 24); store<f64>(rhs, b2, 16); store<f64>(rhs, b5, 40)
}

/** The right-hand side's last six sums (b6..b8 with Y, b9..b11 with Z) over n table rows. */
function sumB6(rows: usize, n: i32, rhs: usize): void {
  let b67 = v128.load(rhs, 48), b910 = v128.load(rhs, 72)
  let b8 = load<f64>(rhs, 64), b11 = load<f64>(rhs, 88)
  let r = rows
  for (let i = 0; i < n; i++, r += ROW) {
    const Y = load<f64>(r, 8), Z = load<f64>(r, 16), zz = load<f64>(r, 24), zxy = v128.load(r, 32)
    b67 = madd(b67, f64x2.splat(Y), zxy); b8 += Y * zz
    b910 = madd(b910, f64x2.splat(Z), zxy); b11 += Z * zz
  }
  v128.store(rhs, b67, 48); v128.store(rhs, b910, 72); store<f64>(rhs, b8, 64); store<f64>(rhs, b11, 88)
}

/**
 * linearFitPoints over points [q0, q1). A point's faces go through the table CHUNK at a time:
 * their terms are formed once (fillRows), then summed in five passes of at most eleven
 * accumulators, which stay in registers (the 42 sums of one pass spilled to the stack on every
 * face); every sum still adds its faces in the reference's order.
 */
export function linearFitPoints(
  C: usize, N: usize, zf: usize, faces: usize, at: usize, start: usize, end: usize, len: usize, eps2: f64, out: usize,
  workBase: usize, workStride: usize, q0: i32, q1: i32, worker: i32,
): void {
  const M = workBase + <usize>worker * workStride
  const rhs = M + 144 * 8
  const acc = rhs + 12 * 8
  const rows = acc + 70 * 8
  for (let q = q0; q < q1; q++) {
    const s = ri32(start, q), e = ri32(end, q)
    const x = rf64(at, 3 * q), y = rf64(at, 3 * q + 1), z = rf64(at, 3 * q + 2)
    const L = rf64(len, q)
    const invLen = 1 / L
    // The right-hand side's 12 sums and the matrix's 60 (adjacent: rhs, then acc) from +0.
    memory.fill(rhs, 0, 72 * 8)
    for (let cs = s; cs < e; cs += CHUNK) {
      const ce = min(e, cs + CHUNK), n = ce - cs
      fillRows(C, N, zf, faces, cs, ce, x, y, z, invLen, eps2, rows)
      sumGroup(rows, n, acc, 0)
      sumGroup(rows, n, acc, 3)
      sumGroup(rows, n, acc, 6)
      sumLastAndB0(rows, n, acc, rhs)
      sumB6(rows, n, rhs)
    }
    kroneckerFill(acc, M)
    if (cholesky(M, 12, rhs) >= LINEAR_CONDITION_FLOOR) {
      wf64(out, 3 * q, rf64(rhs, 0)); wf64(out, 3 * q + 1, rf64(rhs, 1)); wf64(out, 3 * q + 2, rf64(rhs, 2))
    } else constantFit(C, N, zf, faces, s, e, x, y, z, L, eps2, M, rhs, out, q)
  }
}
