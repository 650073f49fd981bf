// Twin of src-shared/sim/hybrid/scalarFitKernel.ts: the hybrid mesh's scalar fits over a batch
// of points, each in the reference's operations and order (smallDense.ts's 4 x 4 Cholesky factor
// and substitutions), so the reference's bits.
//
// Points go two at a time, each in its own lane of the same operations: one point's fit is a
// short chain (about 17 cells' sums, then a Cholesky factor whose every column waits on a
// square root and its divisions) that leaves the processor mostly waiting, and two such chains
// side by side fill that time. The sums run in the lanes over the two lists' common length, each
// longer list's tail alone in its own lane; an odd last point is fitted alone.
import { rf64, ri32, wf64 } from './common'
import { choleskyFactor, choleskyFactor2, choleskySubstitute, choleskySubstitute2 } from './smallDense'

/** tetMls.ts LINEAR_CONDITION_FLOOR. */
const LINEAR_CONDITION_FLOOR: f64 = 1e-12

/** Where a thread's block holds the pair's lane-interleaved matrix and right-hand side: after the one point's (scalarFitKernel.ts SCALAR_FIT_SCRATCH float64). */
const PAIR_MATRIX: usize = 24 * 8

// A pair's sums (lanes: the two points) between fitTwo's passes.
let m0: v128 = f64x2.splat(0)
let m4: v128 = f64x2.splat(0)
let m5: v128 = f64x2.splat(0)
let m8: v128 = f64x2.splat(0)
let m9: v128 = f64x2.splat(0)
let m10: v128 = f64x2.splat(0)
let m12: v128 = f64x2.splat(0)
let m13: v128 = f64x2.splat(0)
let m14: v128 = f64x2.splat(0)
let m15: v128 = f64x2.splat(0)
let r0: v128 = f64x2.splat(0)
let r1: v128 = f64x2.splat(0)
let r2: v128 = f64x2.splat(0)
let r3: v128 = f64x2.splat(0)
let p0: v128 = f64x2.splat(0)
let p1: v128 = f64x2.splat(0)
let p2: v128 = f64x2.splat(0)
let p3: v128 = f64x2.splat(0)
let la: v128 = f64x2.splat(0)
let ha: v128 = f64x2.splat(0)
let lb: v128 = f64x2.splat(0)
let hb: v128 = f64x2.splat(0)

/** The lane-l value of v replaced by t. */
@inline function put(v: v128, l: i32, t: f64): v128 {
  return l == 0 ? f64x2.replace_lane(v, 0, t) : f64x2.replace_lane(v, 1, t)
}

@inline function lane(v: v128, l: i32): f64 {
  return l == 0 ? f64x2.extract_lane(v, 0) : f64x2.extract_lane(v, 1)
}

/** Lane l's sums continued alone over list[i .. e) (a longer list's tail, or a lone point's whole list), at (x, y, z). */
function tail(C: usize, list: usize, i: i32, e: i32, x: f64, y: f64, z: f64, invLen: f64, eps2: f64, a: usize, b: usize, two: bool, l: i32): void {
  let s0 = lane(m0, l), s4 = lane(m4, l), s5 = lane(m5, l), s8 = lane(m8, l), s9 = lane(m9, l), s10 = lane(m10, l)
  let s12 = lane(m12, l), s13 = lane(m13, l), s14 = lane(m14, l), s15 = lane(m15, l)
  let t0 = lane(r0, l), t1 = lane(r1, l), t2 = lane(r2, l), t3 = lane(r3, l)
  let u0 = lane(p0, l), u1 = lane(p1, l), u2 = lane(p2, l), u3 = lane(p3, l)
  let lo = lane(la, l), hi = lane(ha, l), lo2 = lane(lb, l), hi2 = lane(hb, l)
  for (; i < e; i++) {
    const c = ri32(list, i)
    const X = (rf64(C, 3 * c) - x) * invLen, Y = (rf64(C, 3 * c + 1) - y) * invLen, Z = (rf64(C, 3 * c + 2) - z) * invLen
    const w = 1 / (X * X + Y * Y + Z * Z + eps2), w2 = w * w
    const s = rf64(a, c)
    if (s < lo) lo = s
    if (s > hi) hi = s
    const wX = w2 * X, wY = w2 * Y, wZ = w2 * Z
    s0 += w2; s4 += wX; s5 += wX * X; s8 += wY; s9 += wY * X; s10 += wY * Y; s12 += wZ; s13 += wZ * X; s14 += wZ * Y; s15 += wZ * Z
    t0 += w2 * s; t1 += wX * s; t2 += wY * s; t3 += wZ * s
    if (two) {
      const t = rf64(b, c)
      if (t < lo2) lo2 = t
      if (t > hi2) hi2 = t
      u0 += w2 * t; u1 += wX * t; u2 += wY * t; u3 += wZ * t
    }
  }
  m0 = put(m0, l, s0); m4 = put(m4, l, s4); m5 = put(m5, l, s5); m8 = put(m8, l, s8); m9 = put(m9, l, s9); m10 = put(m10, l, s10)
  m12 = put(m12, l, s12); m13 = put(m13, l, s13); m14 = put(m14, l, s14); m15 = put(m15, l, s15)
  r0 = put(r0, l, t0); r1 = put(r1, l, t1); r2 = put(r2, l, t2); r3 = put(r3, l, t3)
  p0 = put(p0, l, u0); p1 = put(p1, l, u1); p2 = put(p2, l, u2); p3 = put(p3, l, u3)
  la = put(la, l, lo); ha = put(ha, l, hi); lb = put(lb, l, lo2); hb = put(hb, l, hi2)
}

/** One point's fit (the reference's scalarFitAt): its sums in lane 0 alone (tail), then the scalar solve; its values into outA[q] (outB[q] when two). */
function fitOne(C: usize, list: usize, start: usize, end: usize, at: usize, len: usize, eps2: f64, a: usize, b: usize, outA: usize, outB: usize, M: usize, two: bool, q: i32): void {
  const rhs = M + 16 * 8
  const zero = f64x2.splat(0)
  m0 = zero; m4 = zero; m5 = zero; m8 = zero; m9 = zero; m10 = zero; m12 = zero; m13 = zero; m14 = zero; m15 = zero
  r0 = zero; r1 = zero; r2 = zero; r3 = zero; p0 = zero; p1 = zero; p2 = zero; p3 = zero
  la = f64x2.splat(Infinity); ha = f64x2.splat(-Infinity); lb = la; hb = ha
  tail(C, list, ri32(start, q), ri32(end, q), rf64(at, 3 * q), rf64(at, 3 * q + 1), rf64(at, 3 * q + 2), 1 / rf64(len, q), eps2, a, b, two, 0)
  const s0 = lane(m0, 0)
  let sa = lane(r0, 0) / s0, sb = lane(p0, 0) / s0
  // The normal matrix's lower triangle into the thread's block (smallDense.ts reads no more).
  wf64(M, 0, s0); wf64(M, 4, lane(m4, 0)); wf64(M, 5, lane(m5, 0)); wf64(M, 8, lane(m8, 0)); wf64(M, 9, lane(m9, 0)); wf64(M, 10, lane(m10, 0))
  wf64(M, 12, lane(m12, 0)); wf64(M, 13, lane(m13, 0)); wf64(M, 14, lane(m14, 0)); wf64(M, 15, lane(m15, 0))
  if (choleskyFactor(M, 4) >= LINEAR_CONDITION_FLOOR) {
    wf64(rhs, 0, lane(r0, 0)); wf64(rhs, 1, lane(r1, 0)); wf64(rhs, 2, lane(r2, 0)); wf64(rhs, 3, lane(r3, 0))
    choleskySubstitute(M, 4, rhs)
    sa = rf64(rhs, 0)
    if (two) {
      wf64(rhs, 0, lane(p0, 0)); wf64(rhs, 1, lane(p1, 0)); wf64(rhs, 2, lane(p2, 0)); wf64(rhs, 3, lane(p3, 0))
      choleskySubstitute(M, 4, rhs)
      sb = rf64(rhs, 0)
    }
  }
  const lo = lane(la, 0), hi = lane(ha, 0)
  wf64(outA, q, sa < lo ? lo : sa > hi ? hi : sa)
  if (two) {
    const lo2 = lane(lb, 0), hi2 = lane(hb, 0)
    wf64(outB, q, sb < lo2 ? lo2 : sb > hi2 ? hi2 : sb)
  }
}

/** v clamped to [lo, hi] lane by lane as the reference's `v < lo ? lo : v > hi ? hi : v`. */
@inline function clamp2(v: v128, lo: v128, hi: v128): v128 {
  return v128.bitselect(lo, v128.bitselect(hi, v, f64x2.gt(v, hi)), f64x2.lt(v, lo))
}

/** Points q and q + 1 fitted side by side (see the file comment); MM: the pair's scratch. */
function fitTwo(C: usize, list: usize, start: usize, end: usize, at: usize, len: usize, eps2: f64, a: usize, b: usize, outA: usize, outB: usize, MM: usize, two: bool, q: i32): void {
  const RR = MM + 16 * 16
  const x = f64x2(rf64(at, 3 * q), rf64(at, 3 * q + 3)), y = f64x2(rf64(at, 3 * q + 1), rf64(at, 3 * q + 4)), z = f64x2(rf64(at, 3 * q + 2), rf64(at, 3 * q + 5))
  const lenA = rf64(len, q), lenB = rf64(len, q + 1)
  const invA = 1 / lenA, invB = 1 / lenB
  const invLen = f64x2(invA, invB), e2 = f64x2.splat(eps2), one = f64x2.splat(1)
  const iA = ri32(start, q), eA = ri32(end, q), iB = ri32(start, q + 1), eB = ri32(end, q + 1)
  const n = min(eA - iA, eB - iB)
  const zero = f64x2.splat(0)
  let s0 = zero, s4 = zero, s5 = zero, s8 = zero, s9 = zero, s10 = zero, s12 = zero, s13 = zero, s14 = zero, s15 = zero
  let t0 = zero, t1 = zero, t2 = zero, t3 = zero, u0 = zero, u1 = zero, u2 = zero, u3 = zero
  let lo = f64x2.splat(Infinity), hi = f64x2.splat(-Infinity), lo2 = lo, hi2 = hi
  for (let k = 0; k < n; k++) {
    const cA = ri32(list, iA + k), cB = ri32(list, iB + k)
    const X = f64x2.mul(f64x2.sub(f64x2(rf64(C, 3 * cA), rf64(C, 3 * cB)), x), invLen)
    const Y = f64x2.mul(f64x2.sub(f64x2(rf64(C, 3 * cA + 1), rf64(C, 3 * cB + 1)), y), invLen)
    const Z = f64x2.mul(f64x2.sub(f64x2(rf64(C, 3 * cA + 2), rf64(C, 3 * cB + 2)), z), invLen)
    const w = f64x2.div(one, f64x2.add(f64x2.add(f64x2.add(f64x2.mul(X, X), f64x2.mul(Y, Y)), f64x2.mul(Z, Z)), e2))
    const w2 = f64x2.mul(w, w)
    const s = f64x2(rf64(a, cA), rf64(a, cB))
    lo = v128.bitselect(s, lo, f64x2.lt(s, lo))
    hi = v128.bitselect(s, hi, f64x2.gt(s, hi))
    const wX = f64x2.mul(w2, X), wY = f64x2.mul(w2, Y), wZ = f64x2.mul(w2, Z)
    s0 = f64x2.add(s0, w2); s4 = f64x2.add(s4, wX); s5 = f64x2.add(s5, f64x2.mul(wX, X)); s8 = f64x2.add(s8, wY); s9 = f64x2.add(s9, f64x2.mul(wY, X))
    s10 = f64x2.add(s10, f64x2.mul(wY, Y)); s12 = f64x2.add(s12, wZ); s13 = f64x2.add(s13, f64x2.mul(wZ, X)); s14 = f64x2.add(s14, f64x2.mul(wZ, Y)); s15 = f64x2.add(s15, f64x2.mul(wZ, Z))
    t0 = f64x2.add(t0, f64x2.mul(w2, s)); t1 = f64x2.add(t1, f64x2.mul(wX, s)); t2 = f64x2.add(t2, f64x2.mul(wY, s)); t3 = f64x2.add(t3, f64x2.mul(wZ, s))
    if (two) {
      const t = f64x2(rf64(b, cA), rf64(b, cB))
      lo2 = v128.bitselect(t, lo2, f64x2.lt(t, lo2))
      hi2 = v128.bitselect(t, hi2, f64x2.gt(t, hi2))
      u0 = f64x2.add(u0, f64x2.mul(w2, t)); u1 = f64x2.add(u1, f64x2.mul(wX, t)); u2 = f64x2.add(u2, f64x2.mul(wY, t)); u3 = f64x2.add(u3, f64x2.mul(wZ, t))
    }
  }
  m0 = s0; m4 = s4; m5 = s5; m8 = s8; m9 = s9; m10 = s10; m12 = s12; m13 = s13; m14 = s14; m15 = s15
  r0 = t0; r1 = t1; r2 = t2; r3 = t3; p0 = u0; p1 = u1; p2 = u2; p3 = u3
  la = lo; ha = hi; lb = lo2; hb = hi2
  if (eA - iA > n) tail(C, list, iA + n, eA, f64x2.extract_lane(x, 0), f64x2.extract_lane(y, 0), f64x2.extract_lane(z, 0), invA, eps2, a, b, two, 0)
  if (eB - iB > n) tail(C, list, iB + n, eB, f64x2.extract_lane(x, 1), f64x2.extract_lane(y, 1), f64x2.extract_lane(z, 1), invB, eps2, a, b, two, 1)
  let sa = f64x2.div(r0, m0), sb = f64x2.div(p0, m0)
  // The two normal matrices' lower triangles, lane-interleaved (16 bytes an entry, 4 a row).
  v128.store(MM, m0); v128.store(MM, m4, 64); v128.store(MM, m5, 80); v128.store(MM, m8, 128); v128.store(MM, m9, 144); v128.store(MM, m10, 160)
  v128.store(MM, m12, 192); v128.store(MM, m13, 208); v128.store(MM, m14, 224); v128.store(MM, m15, 240)
  const ok = f64x2.ge(choleskyFactor2(MM, 4), f64x2.splat(LINEAR_CONDITION_FLOOR))
  if (v128.any_true(ok)) {
    v128.store(RR, r0); v128.store(RR, r1, 16); v128.store(RR, r2, 32); v128.store(RR, r3, 48)
    choleskySubstitute2(MM, 4, RR)
    sa = v128.bitselect(v128.load(RR), sa, ok)
    if (two) {
      v128.store(RR, p0); v128.store(RR, p1, 16); v128.store(RR, p2, 32); v128.store(RR, p3, 48)
      choleskySubstitute2(MM, 4, RR)
      sb = v128.bitselect(v128.load(RR), sb, ok)
    }
  }
  const ca = clamp2(sa, la, ha)
  wf64(outA, q, f64x2.extract_lane(ca, 0)); wf64(outA, q + 1, f64x2.extract_lane(ca, 1))
  if (two) {
    const cb = clamp2(sb, lb, hb)
    wf64(outB, q, f64x2.extract_lane(cb, 0)); wf64(outB, q + 1, f64x2.extract_lane(cb, 1))
  }
}

/** hybridScalarFitPoints over points [q0, q1): two at a time (see the file comment). */
export function hybridScalarFitPoints(
  C: usize, list: usize, start: usize, end: usize, at: usize, len: usize, eps2: f64, a: usize, b: usize, outA: usize, outB: usize,
  workBase: usize, workStride: usize, q0: i32, q1: i32, worker: i32,
): void {
  const two = b != 0 && outB != 0
  // The thread's block: one point's 4 x 4 matrix and right-hand side, then the pair's.
  const M = workBase + <usize>worker * workStride
  const MM = M + PAIR_MATRIX
  let q = q0
  for (; q + 1 < q1; q += 2) fitTwo(C, list, start, end, at, len, eps2, a, b, outA, outB, MM, two, q)
  if (q < q1) fitOne(C, list, start, end, at, len, eps2, a, b, outA, outB, M, two, q)
}
