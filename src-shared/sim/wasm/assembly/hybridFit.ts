// The hybrid mesh's linear-basis MLS fits over a batch of points (reference: src-shared/sim/
// hybrid/linearFitKernel.ts linearFitPoints; seed 000 eqs. 7-11). Each point is fitted alone,
// in the reference's operations and order: for faces of no normal class the 60 sums of the
// normal matrix two at a time, for each class's run its 14 sums in seven lane pairs
// (f64x2 lanes round exactly as the scalar adds do), the same Cholesky solve, the same
// constant-basis fallback, so the answers are the reference's bits. Per-thread scratch (the
// 12 x 12 matrix, its right-hand side, the sums, the per-face table) is the block the caller
// lends thread `worker`.
import { rf64, ri32, ru8, wf64 } from './common'
import { macNormalAt } from './hybridMac'
import { choleskyFactor, choleskyFactor2x2, choleskySubstitute, choleskySubstitute2x2, worstA, worstB } from './smallDense'

/** Smallest accepted pivot ratio of the linear fit (tetMls.ts LINEAR_CONDITION_FLOOR). */
const LINEAR_CONDITION_FLOOR: f64 = 1e-12

/** smallDense.ts choleskySolveInPlace: the factor, then the substitutions when it succeeded. */
function cholesky(M: usize, n: i32, b: usize): f64 {
  const worst = choleskyFactor(M, n)
  if (worst > 0) choleskySubstitute(M, n, b)
  return worst
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

const SQRT1_2: f64 = 0.7071067811865476

/** The code of the face at list place i. */
@inline function codeAt(faces: usize, codes: usize, i: i32): i32 {
  return <i32>load<u8>(codes + <usize>ri32(faces, i))
}

/** A face's normal velocity with its class sign (the reference's s_f z_f). */
@inline function signedVelocity(zf: usize, codes: usize, f: i32): f64 {
  const v = rf64(zf, f)
  return load<u8>(codes + <usize>f) & 1 ? -v : v
}

/**
 * One class's run of faces from place i (each face's code's class `key`) at (x, y, z): the 10
 * sums of w^2 p_P p_Q and the 4 of w^2 s z p_P, two faces a step in the two lanes (the run's
 * even places in lane 0, odd in lane 1, as the reference's two parts), an odd last face in lane
 * 0 alone; then each sum's lanes added and spread into acc by c c^T and into rhs by c
 * (spreadClass). Returns the run's end.
 */
function classRun(C: usize, zf: usize, faces: usize, codes: usize, i: i32, e: i32, key: i32, x: f64, y: f64, z: f64, invLen: f64, eps2: f64, acc: usize, rhs: usize): i32 {
  let s0 = f64x2.splat(0), s1 = s0, s2 = s0, s3 = s0, s4 = s0, s5 = s0, s6 = s0, s7 = s0, s8 = s0, s9 = s0
  let b0 = s0, b1 = s0, b2 = s0, b3 = s0
  const px = f64x2.splat(x), py = f64x2.splat(y), pz = f64x2.splat(z), il = f64x2.splat(invLen), e2 = f64x2.splat(eps2), one = f64x2.splat(1)
  for (; i + 1 < e; i += 2) {
    if (codeAt(faces, codes, i) >> 1 != key || codeAt(faces, codes, i + 1) >> 1 != key) break
    const fa = ri32(faces, i), fb = ri32(faces, i + 1)
    const ca = C + <usize>(24 * fa), cb = C + <usize>(24 * fb)
    const X = f64x2.mul(f64x2.sub(f64x2(load<f64>(ca), load<f64>(cb)), px), il)
    const Y = f64x2.mul(f64x2.sub(f64x2(load<f64>(ca, 8), load<f64>(cb, 8)), py), il)
    const Z = f64x2.mul(f64x2.sub(f64x2(load<f64>(ca, 16), load<f64>(cb, 16)), pz), il)
    const w = f64x2.div(one, f64x2.add(f64x2.add(f64x2.add(f64x2.mul(X, X), f64x2.mul(Y, Y)), f64x2.mul(Z, Z)), e2))
    const W = f64x2.mul(w, w)
    const SZ = f64x2.mul(W, f64x2(signedVelocity(zf, codes, fa), signedVelocity(zf, codes, fb)))
    s0 = f64x2.add(s0, W); s1 = madd(s1, W, X); s2 = madd(s2, W, f64x2.mul(X, X)); s3 = madd(s3, W, Y)
    s4 = madd(s4, W, f64x2.mul(Y, X)); s5 = madd(s5, W, f64x2.mul(Y, Y)); s6 = madd(s6, W, Z)
    s7 = madd(s7, W, f64x2.mul(Z, X)); s8 = madd(s8, W, f64x2.mul(Z, Y)); s9 = madd(s9, W, f64x2.mul(Z, Z))
    b0 = f64x2.add(b0, SZ); b1 = madd(b1, X, SZ); b2 = madd(b2, Y, SZ); b3 = madd(b3, Z, SZ)
  }
  if (i < e && codeAt(faces, codes, i) >> 1 == key) {
    // The run's last face at an even place: lane 0 alone.
    const f = ri32(faces, i)
    const X = (rf64(C, 3 * f) - x) * invLen, Y = (rf64(C, 3 * f + 1) - y) * invLen, Z = (rf64(C, 3 * f + 2) - z) * invLen
    const w = 1 / (X * X + Y * Y + Z * Z + eps2), w2 = w * w
    const sz = w2 * signedVelocity(zf, codes, f)
    s0 = add0(s0, w2); s1 = add0(s1, w2 * X); s2 = add0(s2, w2 * (X * X)); s3 = add0(s3, w2 * Y); s4 = add0(s4, w2 * (Y * X))
    s5 = add0(s5, w2 * (Y * Y)); s6 = add0(s6, w2 * Z); s7 = add0(s7, w2 * (Z * X)); s8 = add0(s8, w2 * (Z * Y)); s9 = add0(s9, w2 * (Z * Z))
    b0 = add0(b0, sz); b1 = add0(b1, X * sz); b2 = add0(b2, Y * sz); b3 = add0(b3, Z * sz)
    i++
  }
  spreadClass(key - 1, pairSum(s0, s1), pairSum(s2, s3), pairSum(s4, s5), pairSum(s6, s7), pairSum(s8, s9), pairSum(b0, b1), pairSum(b2, b3), acc, rhs)
  return i
}

/** v with t added to lane 0. */
@inline function add0(v: v128, t: f64): v128 {
  return f64x2.replace_lane(v, 0, f64x2.extract_lane(v, 0) + t)
}

/** (a's lanes added, b's lanes added): two sums' parts joined, lane 0 + lane 1 as the reference adds them. */
@inline function pairSum(a: v128, b: v128): v128 {
  return f64x2.add(v128.shuffle<u64>(a, b, 0, 2), v128.shuffle<u64>(a, b, 1, 3))
}

/**
 * linearFitKernel.ts spreadClass: class k's 10 sums (lane pairs v0..v4) into acc by the
 * entries of c c^T that are not 0, its 4 right-hand-side sums (vb0, vb1) into rhs by those of
 * c. An axis's c c^T has a single 1 (xx, yy or zz: products 0, 2, 5); a face diagonal's has
 * 1/2 at its two axes' squares and +-1/2 at their cross product (yx 1, zx 3 or zy 4).
 */
function spreadClass(k: i32, v0: v128, v1: v128, v2: v128, v3: v128, v4: v128, vb0: v128, vb1: v128, acc: usize, rhs: usize): void {
  if (k < 3) {
    const j = k == 0 ? 0 : k == 1 ? 2 : 5
    addAxis(acc, j, v0, 0); addAxis(acc, j, v1, 2); addAxis(acc, j, v2, 4); addAxis(acc, j, v3, 6); addAxis(acc, j, v4, 8)
    addRhs(rhs, k, f64x2.extract_lane(vb0, 0), 1); addRhs(rhs, k + 3, f64x2.extract_lane(vb0, 1), 1)
    addRhs(rhs, k + 6, f64x2.extract_lane(vb1, 0), 1); addRhs(rhs, k + 9, f64x2.extract_lane(vb1, 1), 1)
    return
  }
  const d = k - 3, plane = d >> 1
  const cross: f64 = d & 1 ? -0.5 : 0.5
  // plane 0: x and y (squares 0, 2; cross 1); 1: x and z (0, 5; 3); 2: y and z (2, 5; 4).
  const lo = plane == 2 ? 2 : 0, hi = plane == 0 ? 2 : 5, off = plane == 0 ? 1 : plane == 1 ? 3 : 4
  addDiagonal(acc, lo, hi, off, cross, v0, 0); addDiagonal(acc, lo, hi, off, cross, v1, 2); addDiagonal(acc, lo, hi, off, cross, v2, 4)
  addDiagonal(acc, lo, hi, off, cross, v3, 6); addDiagonal(acc, lo, hi, off, cross, v4, 8)
  const first = plane == 2 ? 1 : 0, second = plane == 0 ? 1 : 2
  const c2: f64 = d & 1 ? -SQRT1_2 : SQRT1_2
  for (let P = 0; P < 4; P++) {
    const B = P == 0 ? f64x2.extract_lane(vb0, 0) : P == 1 ? f64x2.extract_lane(vb0, 1) : P == 2 ? f64x2.extract_lane(vb1, 0) : f64x2.extract_lane(vb1, 1)
    addRhs(rhs, 3 * P + first, B, SQRT1_2)
    addRhs(rhs, 3 * P + second, B, c2)
  }
}

/** acc[6t + j] += v's lanes (sums t and t + 1) times 1. */
@inline function addAxis(acc: usize, j: i32, v: v128, t: i32): void {
  const p0 = 6 * t + j
  wf64(acc, p0, rf64(acc, p0) + f64x2.extract_lane(v, 0))
  wf64(acc, p0 + 6, rf64(acc, p0 + 6) + f64x2.extract_lane(v, 1))
}

/** acc[6t + lo] += v / 2, acc[6t + hi] += v / 2, acc[6t + off] += v * cross, for sums t and t + 1 (v's lanes). */
@inline function addDiagonal(acc: usize, lo: i32, hi: i32, off: i32, cross: f64, v: v128, t: i32): void {
  for (let l = 0; l < 2; l++) {
    const x = l == 0 ? f64x2.extract_lane(v, 0) : f64x2.extract_lane(v, 1)
    const b = 6 * (t + l)
    wf64(acc, b + lo, rf64(acc, b + lo) + x * 0.5)
    wf64(acc, b + off, rf64(acc, b + off) + x * cross)
    wf64(acc, b + hi, rf64(acc, b + hi) + x * 0.5)
  }
}

@inline function addRhs(rhs: usize, o: i32, B: f64, c: f64): void {
  wf64(rhs, o, rf64(rhs, o) + B * c)
}

/**
 * A point's 12 right-hand-side and 60 matrix sums (rhs, then acc, adjacent) over its faces: the
 * faces of no class through the table CHUNK at a time (their terms formed once by fillRows, then
 * summed in five passes of at most eleven accumulators, which stay in registers: the 42 sums of
 * one pass spilled to the stack on every face), then each class's run (codes: the list sorted by
 * class; 0 for none, every face then of no class). Every sum adds its faces in the reference's
 * order.
 */
function sumPoint(C: usize, N: usize, zf: usize, faces: usize, codes: usize, s: i32, e: i32, x: f64, y: f64, z: f64, invLen: f64, eps2: f64, rhs: usize, acc: usize, rows: usize): void {
  let g = e
  if (codes != 0) {
    g = s
    while (g < e && load<u8>(codes + <usize>ri32(faces, g)) < 2) g++
  }
  memory.fill(rhs, 0, 72 * 8)
  for (let cs = s; cs < g; cs += CHUNK) {
    const ce = min(g, cs + CHUNK), n = ce - cs
    fillRows(C, N, zf, faces, cs, ce, x, y, z, invLen, eps2, rows)
    sumGroup(rows, n, acc, 0)
    sumGroup(rows, n, acc, 3)
    sumGroup(rows, n, acc, 6)
    sumLastAndB0(rows, n, acc, rhs)
    sumB6(rows, n, rhs)
  }
  for (let i = g; i < e;) {
    const key = <i32>load<u8>(codes + <usize>ri32(faces, i)) >> 1
    i = classRun(C, zf, faces, codes, i, e, key, x, y, z, invLen, eps2, acc, rhs)
  }
}

/**
 * The lower triangle of the 12 x 12 normal matrix from the 60 sums at acc (linearFitKernel.ts
 * KRONECKER_MAP: entry (3P + a, 3Q + b) is sum 6 tri(P, Q) + tri(a, b)) into lane `lane` of the
 * lane-interleaved matrix at MM (16 bytes an entry).
 */
function kroneckerFillLane(acc: usize, MM: usize, lane: i32): void {
  // The 78 entries as constant byte offsets (acc's sum, MM's entry), written out: the loops over
  // P, Q, a and b with their index arithmetic cost several times the copies themselves.
  const m = MM + <usize>(8 * lane)
  store<f64>(m, load<f64>(acc, 0), 0); store<f64>(m, load<f64>(acc, 8), 192); store<f64>(m, load<f64>(acc, 16), 208)
  store<f64>(m, load<f64>(acc, 24), 384); store<f64>(m, load<f64>(acc, 32), 400); store<f64>(m, load<f64>(acc, 40), 416)
  store<f64>(m, load<f64>(acc, 48), 576); store<f64>(m, load<f64>(acc, 56), 592); store<f64>(m, load<f64>(acc, 72), 608)
  store<f64>(m, load<f64>(acc, 56), 768); store<f64>(m, load<f64>(acc, 64), 784); store<f64>(m, load<f64>(acc, 80), 800)
  store<f64>(m, load<f64>(acc, 72), 960); store<f64>(m, load<f64>(acc, 80), 976); store<f64>(m, load<f64>(acc, 88), 992)
  store<f64>(m, load<f64>(acc, 96), 624); store<f64>(m, load<f64>(acc, 104), 816); store<f64>(m, load<f64>(acc, 112), 832)
  store<f64>(m, load<f64>(acc, 120), 1008); store<f64>(m, load<f64>(acc, 128), 1024); store<f64>(m, load<f64>(acc, 136), 1040)
  store<f64>(m, load<f64>(acc, 144), 1152); store<f64>(m, load<f64>(acc, 152), 1168); store<f64>(m, load<f64>(acc, 168), 1184)
  store<f64>(m, load<f64>(acc, 152), 1344); store<f64>(m, load<f64>(acc, 160), 1360); store<f64>(m, load<f64>(acc, 176), 1376)
  store<f64>(m, load<f64>(acc, 168), 1536); store<f64>(m, load<f64>(acc, 176), 1552); store<f64>(m, load<f64>(acc, 184), 1568)
  store<f64>(m, load<f64>(acc, 192), 1200); store<f64>(m, load<f64>(acc, 200), 1216); store<f64>(m, load<f64>(acc, 216), 1232)
  store<f64>(m, load<f64>(acc, 200), 1392); store<f64>(m, load<f64>(acc, 208), 1408); store<f64>(m, load<f64>(acc, 224), 1424)
  store<f64>(m, load<f64>(acc, 216), 1584); store<f64>(m, load<f64>(acc, 224), 1600); store<f64>(m, load<f64>(acc, 232), 1616)
  store<f64>(m, load<f64>(acc, 240), 1248); store<f64>(m, load<f64>(acc, 248), 1440); store<f64>(m, load<f64>(acc, 256), 1456)
  store<f64>(m, load<f64>(acc, 264), 1632); store<f64>(m, load<f64>(acc, 272), 1648); store<f64>(m, load<f64>(acc, 280), 1664)
  store<f64>(m, load<f64>(acc, 288), 1728); store<f64>(m, load<f64>(acc, 296), 1744); store<f64>(m, load<f64>(acc, 312), 1760)
  store<f64>(m, load<f64>(acc, 296), 1920); store<f64>(m, load<f64>(acc, 304), 1936); store<f64>(m, load<f64>(acc, 320), 1952)
  store<f64>(m, load<f64>(acc, 312), 2112); store<f64>(m, load<f64>(acc, 320), 2128); store<f64>(m, load<f64>(acc, 328), 2144)
  store<f64>(m, load<f64>(acc, 336), 1776); store<f64>(m, load<f64>(acc, 344), 1792); store<f64>(m, load<f64>(acc, 360), 1808)
  store<f64>(m, load<f64>(acc, 344), 1968); store<f64>(m, load<f64>(acc, 352), 1984); store<f64>(m, load<f64>(acc, 368), 2000)
  store<f64>(m, load<f64>(acc, 360), 2160); store<f64>(m, load<f64>(acc, 368), 2176); store<f64>(m, load<f64>(acc, 376), 2192)
  store<f64>(m, load<f64>(acc, 384), 1824); store<f64>(m, load<f64>(acc, 392), 1840); store<f64>(m, load<f64>(acc, 408), 1856)
  store<f64>(m, load<f64>(acc, 392), 2016); store<f64>(m, load<f64>(acc, 400), 2032); store<f64>(m, load<f64>(acc, 416), 2048)
  store<f64>(m, load<f64>(acc, 408), 2208); store<f64>(m, load<f64>(acc, 416), 2224); store<f64>(m, load<f64>(acc, 424), 2240)
  store<f64>(m, load<f64>(acc, 432), 1872); store<f64>(m, load<f64>(acc, 440), 2064); store<f64>(m, load<f64>(acc, 448), 2080)
  store<f64>(m, load<f64>(acc, 456), 2256); store<f64>(m, load<f64>(acc, 464), 2272); store<f64>(m, load<f64>(acc, 472), 2288)
}

/** Scratch pointers of thread `worker` (float64): M 144, rhs 12, acc 70, rows 12 CHUNK, then the pairs' lane-interleaved matrices and right-hand sides MA 288, RA 24, MB 288, RB 24. */
let sM: usize = 0
let sRhs: usize = 0
let sAcc: usize = 0
let sRows: usize = 0
let sMA: usize = 0
let sRA: usize = 0
let sMB: usize = 0
let sRB: usize = 0

@inline function lendScratch(workBase: usize, workStride: usize, worker: i32): void {
  sM = workBase + <usize>worker * workStride
  sRhs = sM + 144 * 8
  sAcc = sRhs + 12 * 8
  sRows = sAcc + 70 * 8
  sMA = sRows + <usize>(12 * CHUNK * 8)
  sRA = sMA + 288 * 8
  sMB = sRA + 24 * 8
  sRB = sMB + 288 * 8
}

/** A point's sums (sumPoint) into lane l (0..3) of the four-point solve: l 0, 1 the pair MA/RA, 2, 3 the pair MB/RB. */
function fillLane(C: usize, N: usize, zf: usize, faces: usize, codes: usize, s: i32, e: i32, x: f64, y: f64, z: f64, invLen: f64, eps2: f64, l: i32): void {
  const MM = l < 2 ? sMA : sMB, RR = l < 2 ? sRA : sRB, lane = l & 1
  sumPoint(C, N, zf, faces, codes, s, e, x, y, z, invLen, eps2, sRhs, sAcc, sRows)
  kroneckerFillLane(sAcc, MM, lane)
  for (let i = 0; i < 12; i++) store<f64>(RR + <usize>(16 * i + 8 * lane), rf64(sRhs, i))
}

/** After the four lanes' factor and substitution: lane l's worst pivot ratio, and its unknown c (0..2) in laneUnknown. */
@inline function laneWorst(l: i32): f64 {
  const worst = l < 2 ? worstA : worstB
  return (l & 1) == 0 ? f64x2.extract_lane(worst, 0) : f64x2.extract_lane(worst, 1)
}

@inline function laneUnknown(l: i32, c: i32): f64 {
  const RR = l < 2 ? sRA : sRB
  return load<f64>(RR + <usize>(16 * c + 8 * (l & 1)))
}

/**
 * linearFitPoints over points [q0, q1): each point's sums alone (sumPoint), then four points'
 * 12 x 12 solves at once, two pairs in the lanes (each lane the scalar solve's bits; the solve is
 * a chain of divisions and square roots that one point alone leaves mostly waiting) and the two
 * pairs' chains side by side (smallDense.ts choleskyFactor2x2); a last group of fewer points
 * repeats its last point. A point whose linear system is near singular takes the constant fit.
 */
export function linearFitPoints(
  C: usize, N: usize, zf: usize, faces: usize, codes: usize, at: usize, start: usize, end: usize, len: usize, eps2: f64, out: usize,
  workBase: usize, workStride: usize, q0: i32, q1: i32, worker: i32,
): void {
  lendScratch(workBase, workStride, worker)
  for (let q = q0; q < q1; q += 4) {
    for (let l = 0; l < 4; l++) {
      const p = min(q + l, q1 - 1)
      fillLane(C, N, zf, faces, codes, ri32(start, p), ri32(end, p), rf64(at, 3 * p), rf64(at, 3 * p + 1), rf64(at, 3 * p + 2), 1 / rf64(len, p), eps2, l)
    }
    choleskyFactor2x2(sMA, sMB, 12)
    choleskySubstitute2x2(sMA, sMB, 12, sRA, sRB)
    for (let l = 0; l < 4 && q + l < q1; l++) {
      const p = q + l
      if (laneWorst(l) >= LINEAR_CONDITION_FLOOR) {
        for (let c = 0; c < 3; c++) wf64(out, 3 * p + c, laneUnknown(l, c))
      } else {
        constantFit(C, N, zf, faces, ri32(start, p), ri32(end, p), rf64(at, 3 * p), rf64(at, 3 * p + 1), rf64(at, 3 * p + 2), rf64(len, p), eps2, sM, sRhs, out, p)
      }
    }
  }
}

/** faceValueKernel.ts FACE_VALUE_DONE, FACE_VALUE_DONE_CLAMPED; hexTraceKernel.ts HEX_TRACE_DONE, HEX_TRACE_FULL; hybridMesh.ts CELL_HEX. */
const FACE_DONE: u8 = 0
const FACE_DONE_CLAMPED: u8 = 3
const TRACE_FULL: i32 = 2
const CELL_HEX: i32 = 0

/** Face f answered: its status after the row (clamped when its whole trace was, left[f]). */
@inline function markAnswered(status: usize, left: usize, f: i32, st: i32): void {
  store<u8>(status + <usize>f, st == TRACE_FULL && ru8(left, f) != 0 ? FACE_DONE_CLAMPED : FACE_DONE)
}

/**
 * faceValueKernel.ts accurateFaceValues over faces [f0, f1): a face the traces left open takes
 * the staggered velocity at its trace's end where that is a plain hexahedron with a whole
 * stencil (hybridMac.ts), else joins a group of four fits solved as linearFitPoints solves them
 * (a last group of fewer repeats its last face); each face's answer is the reference's bits.
 */
export function accurateFaceValues(
  faceCentre: usize, faceNormal: usize, faceArea: usize, hexCube: usize, cellKind: usize, macSingle: usize, macSign: usize,
  gridFaceStart: usize, gridFaces: usize, neighbourStart: usize, neighbourFaces: usize, faceClass: usize, cellMeanEdge: usize,
  zOld: usize, nx: i32, ny: i32, nz: i32, ox: f64, oy: f64, oz: f64, invH: f64, eps2: f64,
  at: usize, cell: usize, left: usize, status: usize, zNew: usize, workBase: usize, workStride: usize, f0: i32, f1: i32, worker: i32,
): void {
  lendScratch(workBase, workStride, worker)
  let n = 0, g0 = 0, g1 = 0, g2 = 0, g3 = 0
  for (let f = f0; f < f1; f++) {
    const st = ru8(status, f)
    if (st == FACE_DONE) continue
    const c = ri32(cell, f)
    const x = rf64(at, 3 * f), y = rf64(at, 3 * f + 1), z = rf64(at, 3 * f + 2)
    if (ru8(cellKind, c) == CELL_HEX) {
      const q = macNormalAt(macSingle, macSign, gridFaceStart, gridFaces, faceNormal, faceArea, zOld, (x - ox) * invH, (y - oy) * invH, (z - oz) * invH, ri32(hexCube, c), nx, ny, nz,
        rf64(faceNormal, 3 * f), rf64(faceNormal, 3 * f + 1), rf64(faceNormal, 3 * f + 2))
      if (q == q) {
        wf64(zNew, f, q)
        markAnswered(status, left, f, st)
        continue
      }
    }
    const s = ri32(neighbourStart, c), e = ri32(neighbourStart, c + 1)
    if (e <= s) continue
    fillLane(faceCentre, faceNormal, zOld, neighbourFaces, faceClass, s, e, x, y, z, 1 / rf64(cellMeanEdge, c), eps2, n)
    if (n == 0) g0 = f
    else if (n == 1) g1 = f
    else if (n == 2) g2 = f
    else g3 = f
    n++
    if (n == 4) {
      answerGroup(faceCentre, faceNormal, neighbourStart, neighbourFaces, cellMeanEdge, zOld, eps2, at, cell, left, status, zNew, g0, g1, g2, g3, 4)
      n = 0
    }
  }
  if (n == 0) return
  // The last group's empty lanes repeat its last face.
  const last = n == 1 ? g0 : n == 2 ? g1 : g2
  const c = ri32(cell, last), s = ri32(neighbourStart, c), e = ri32(neighbourStart, c + 1)
  for (let l = n; l < 4; l++) fillLane(faceCentre, faceNormal, zOld, neighbourFaces, faceClass, s, e, rf64(at, 3 * last), rf64(at, 3 * last + 1), rf64(at, 3 * last + 2), 1 / rf64(cellMeanEdge, c), eps2, l)
  answerGroup(faceCentre, faceNormal, neighbourStart, neighbourFaces, cellMeanEdge, zOld, eps2, at, cell, left, status, zNew, g0, g1, g2, g3, n)
}

/** The four filled lanes solved; the first n (faces g0 .. g3) answered: the fit's velocity along the face's normal, or the constant fit's where the linear one is near singular. */
function answerGroup(
  C: usize, N: usize, neighbourStart: usize, neighbourFaces: usize, cellMeanEdge: usize, zOld: usize, eps2: f64,
  at: usize, cell: usize, left: usize, status: usize, zNew: usize, g0: i32, g1: i32, g2: i32, g3: i32, n: i32,
): void {
  choleskyFactor2x2(sMA, sMB, 12)
  choleskySubstitute2x2(sMA, sMB, 12, sRA, sRB)
  for (let l = 0; l < n; l++) {
    const f = l == 0 ? g0 : l == 1 ? g1 : l == 2 ? g2 : g3
    let u0: f64, u1: f64, u2: f64
    if (laneWorst(l) >= LINEAR_CONDITION_FLOOR) {
      u0 = laneUnknown(l, 0); u1 = laneUnknown(l, 1); u2 = laneUnknown(l, 2)
    } else {
      // The constant fit's answer lands in the first three entries of the acc block (free until the next group's sums).
      const c = ri32(cell, f)
      constantFit(C, N, zOld, neighbourFaces, ri32(neighbourStart, c), ri32(neighbourStart, c + 1), rf64(at, 3 * f), rf64(at, 3 * f + 1), rf64(at, 3 * f + 2), rf64(cellMeanEdge, c), eps2, sM, sRhs, sAcc, 0)
      u0 = rf64(sAcc, 0); u1 = rf64(sAcc, 1); u2 = rf64(sAcc, 2)
    }
    wf64(zNew, f, u0 * rf64(N, 3 * f) + u1 * rf64(N, 3 * f + 1) + u2 * rf64(N, 3 * f + 2))
    markAnswered(status, left, f, ru8(status, f))
  }
}
