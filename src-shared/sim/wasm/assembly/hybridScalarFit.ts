// Twin of src-shared/sim/hybrid/scalarFitKernel.ts: the hybrid mesh's scalar fits over a batch
// of points, each in the reference's operations and order (the 4 x 4 Cholesky factor and
// substitutions of smallDense.ts written out for n = 4), so the reference's bits.
import { rf64, ri32, wf64 } from './common'

/** tetMls.ts LINEAR_CONDITION_FLOOR. */
const LINEAR_CONDITION_FLOOR: f64 = 1e-12

/** hybridScalarFitPoints over points [q0, q1). */
export function hybridScalarFitPoints(
  C: usize, list: usize, start: usize, end: usize, at: usize, len: usize, eps2: f64, a: usize, b: usize, outA: usize, outB: usize, q0: i32, q1: i32,
): void {
  const two = b != 0 && outB != 0
  for (let q = q0; q < q1; q++) {
    const x = rf64(at, 3 * q), y = rf64(at, 3 * q + 1), z = rf64(at, 3 * q + 2)
    const invLen = 1 / rf64(len, q)
    let m0: f64 = 0, m4: f64 = 0, m5: f64 = 0, m8: f64 = 0, m9: f64 = 0, m10: f64 = 0, m12: f64 = 0, m13: f64 = 0, m14: f64 = 0, m15: f64 = 0
    let r0: f64 = 0, r1: f64 = 0, r2: f64 = 0, r3: f64 = 0, p0: f64 = 0, p1: f64 = 0, p2: f64 = 0, p3: f64 = 0
    let la: f64 = Infinity, ha: f64 = -Infinity, lb: f64 = Infinity, hb: f64 = -Infinity
    for (let i = ri32(start, q), e = ri32(end, q); i < e; i++) {
      const c = ri32(list, i)
      const X = (rf64(C, 3 * c) - x) * invLen, Y = (rf64(C, 3 * c + 1) - y) * invLen, Z = (rf64(C, 3 * c + 2) - z) * invLen
      const w = 1 / (X * X + Y * Y + Z * Z + eps2), w2 = w * w
      const s = rf64(a, c)
      if (s < la) la = s
      if (s > ha) ha = s
      const wX = w2 * X, wY = w2 * Y, wZ = w2 * Z
      m0 += w2; m4 += wX; m5 += wX * X; m8 += wY; m9 += wY * X; m10 += wY * Y; m12 += wZ; m13 += wZ * X; m14 += wZ * Y; m15 += wZ * Z
      r0 += w2 * s; r1 += wX * s; r2 += wY * s; r3 += wZ * s
      if (two) {
        const t = rf64(b, c)
        if (t < lb) lb = t
        if (t > hb) hb = t
        p0 += w2 * t; p1 += wX * t; p2 += wY * t; p3 += wZ * t
      }
    }
    let sa = r0 / m0, sb = p0 / m0
    // choleskyFactorInPlace(M, 4): column j's pivot, then the entries below it.
    let worst: f64 = 1
    let ok = true
    let L00: f64 = 0, L10: f64 = 0, L20: f64 = 0, L30: f64 = 0, L11: f64 = 0, L21: f64 = 0, L31: f64 = 0, L22: f64 = 0, L32: f64 = 0, L33: f64 = 0
    {
      const s = m0
      if (!(s > 0) || !(m0 > 0)) ok = false
      else {
        const ratio = s / m0
        if (ratio < worst) worst = ratio
        L00 = Math.sqrt(s)
        L10 = m4 / L00; L20 = m8 / L00; L30 = m12 / L00
      }
    }
    if (ok) {
      let s = m5
      s -= L10 * L10
      if (!(s > 0) || !(m5 > 0)) ok = false
      else {
        const ratio = s / m5
        if (ratio < worst) worst = ratio
        L11 = Math.sqrt(s)
        let t = m9
        t -= L20 * L10
        L21 = t / L11
        t = m13
        t -= L30 * L10
        L31 = t / L11
      }
    }
    if (ok) {
      let s = m10
      s -= L20 * L20
      s -= L21 * L21
      if (!(s > 0) || !(m10 > 0)) ok = false
      else {
        const ratio = s / m10
        if (ratio < worst) worst = ratio
        L22 = Math.sqrt(s)
        let t = m14
        t -= L30 * L20
        t -= L31 * L21
        L32 = t / L22
      }
    }
    if (ok) {
      let s = m15
      s -= L30 * L30
      s -= L31 * L31
      s -= L32 * L32
      if (!(s > 0) || !(m15 > 0)) ok = false
      else {
        const ratio = s / m15
        if (ratio < worst) worst = ratio
        L33 = Math.sqrt(s)
      }
    }
    if (ok && worst >= LINEAR_CONDITION_FLOOR) {
      sa = solve0(L00, L10, L20, L30, L11, L21, L31, L22, L32, L33, r0, r1, r2, r3)
      if (two) sb = solve0(L00, L10, L20, L30, L11, L21, L31, L22, L32, L33, p0, p1, p2, p3)
    }
    wf64(outA, q, sa < la ? la : sa > ha ? ha : sa)
    if (two) wf64(outB, q, sb < lb ? lb : sb > hb ? hb : sb)
  }
}

/** choleskySubstitute for n = 4: L y = b, then L^T x = y; returns x_0. */
@inline function solve0(L00: f64, L10: f64, L20: f64, L30: f64, L11: f64, L21: f64, L31: f64, L22: f64, L32: f64, L33: f64, b0: f64, b1: f64, b2: f64, b3: f64): f64 {
  const y0 = b0 / L00
  let t = b1
  t -= L10 * y0
  const y1 = t / L11
  t = b2
  t -= L20 * y0
  t -= L21 * y1
  const y2 = t / L22
  t = b3
  t -= L30 * y0
  t -= L31 * y1
  t -= L32 * y2
  const y3 = t / L33
  const x3 = y3 / L33
  t = y2
  t -= L32 * x3
  const x2 = t / L22
  t = y1
  t -= L21 * x2
  t -= L31 * x3
  const x1 = t / L11
  t = y0
  t -= L10 * x1
  t -= L20 * x2
  t -= L30 * x3
  return t / L00
}
