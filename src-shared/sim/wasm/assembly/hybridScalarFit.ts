// Twin of src-shared/sim/hybrid/scalarFitKernel.ts: the hybrid mesh's scalar fits over a batch
// of points, each in the reference's operations and order (smallDense.ts's 4 x 4 Cholesky factor
// and substitutions on the thread's scratch block), so the reference's bits.
import { rf64, ri32, wf64 } from './common'
import { choleskyFactor, choleskySubstitute } from './smallDense'

/** tetMls.ts LINEAR_CONDITION_FLOOR. */
const LINEAR_CONDITION_FLOOR: f64 = 1e-12

/** hybridScalarFitPoints over points [q0, q1). */
export function hybridScalarFitPoints(
  C: usize, list: usize, start: usize, end: usize, at: usize, len: usize, eps2: f64, a: usize, b: usize, outA: usize, outB: usize,
  workBase: usize, workStride: usize, q0: i32, q1: i32, worker: i32,
): void {
  const two = b != 0 && outB != 0
  // The thread's block: the 4 x 4 matrix, then a right-hand side.
  const M = workBase + <usize>worker * workStride
  const rhs = M + 16 * 8
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
    // The normal matrix's lower triangle into the thread's block (smallDense.ts reads no more).
    wf64(M, 0, m0); wf64(M, 4, m4); wf64(M, 5, m5); wf64(M, 8, m8); wf64(M, 9, m9); wf64(M, 10, m10)
    wf64(M, 12, m12); wf64(M, 13, m13); wf64(M, 14, m14); wf64(M, 15, m15)
    if (choleskyFactor(M, 4) >= LINEAR_CONDITION_FLOOR) {
      wf64(rhs, 0, r0); wf64(rhs, 1, r1); wf64(rhs, 2, r2); wf64(rhs, 3, r3)
      choleskySubstitute(M, 4, rhs)
      sa = rf64(rhs, 0)
      if (two) {
        wf64(rhs, 0, p0); wf64(rhs, 1, p1); wf64(rhs, 2, p2); wf64(rhs, 3, p3)
        choleskySubstitute(M, 4, rhs)
        sb = rf64(rhs, 0)
      }
    }
    wf64(outA, q, sa < la ? la : sa > ha ? ha : sa)
    if (two) wf64(outB, q, sb < lb ? lb : sb > hb ? hb : sb)
  }
}
