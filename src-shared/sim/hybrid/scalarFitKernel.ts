// The hybrid mesh's scalar fit (hybridInterpolation.ts scalarsAt where the 8 centres around a
// point are not all hexahedra: seed 000 section 3.5's moving least squares, applied to the cell
// scalars) as one function and as a kernel-table row over a batch of points: the TypeScript
// reference below, its AssemblyScript twin in wasm/assembly/hybridScalarFit.ts, split over the
// points on the WebAssembly backend's threads. Each point is fitted alone in the same operations
// and order, so the answers are the same bits on any backend and split.
//
// The fit at x over cells k (centre c_k, value s_k), lengths in units of the containing cell's
// mean edge len: X = (c_k - x) / len, w_k = 1 / (|X|^2 + eps^2) (eq. 9's weight), rows
// p = (1, X, Y, Z) weighted by w (so w^2 in the 4 x 4 normal matrix, as eq. 10), s(x) = the
// first unknown; a normal matrix whose Cholesky pivot ratio falls below LINEAR_CONDITION_FLOOR
// gives the weighted mean instead. The value is clamped to the range of the values it used, so
// semi-Lagrangian advection creates no new extrema.
import { defineKernel, f64, float, i32, type KernelArgs, scratch, size } from '../core/kernelTable'
import { choleskyFactorInPlace, choleskySubstitute } from '../core/tetfv/smallDense'
import { LINEAR_CONDITION_FLOOR } from '../core/tetfv/tetMls'

/** Float64 scratch of one fit: the 4 x 4 matrix and two right-hand sides. */
export const SCALAR_FIT_SCRATCH = 24

/** Float64 the WebAssembly twin adds for fitting two points at once (their lane-interleaved 4 x 4 matrices and right-hand sides). */
export const SCALAR_FIT_PAIR_SCRATCH = 32 + 8

/**
 * The fit of a (and of b when not null) over cells list[from .. to-1] at (x, y, z), lengths in
 * units of len, eps2 = eps^2: a's value into out[o], b's into out[o + 1]. work: SCALAR_FIT_SCRATCH
 * float64.
 */
export function scalarFitAt(
  C: Float64Array, list: Int32Array, from: number, to: number, x: number, y: number, z: number, len: number, eps2: number,
  a: Float64Array | Float32Array, b: Float64Array | Float32Array | null, work: Float64Array, out: Float64Array, o: number,
): void {
  const invLen = 1 / len
  let m0 = 0, m4 = 0, m5 = 0, m8 = 0, m9 = 0, m10 = 0, m12 = 0, m13 = 0, m14 = 0, m15 = 0
  let r0 = 0, r1 = 0, r2 = 0, r3 = 0, q0 = 0, q1 = 0, q2 = 0, q3 = 0
  let la = Infinity, ha = -Infinity, lb = Infinity, hb = -Infinity
  for (let i = from; i < to; i++) {
    const c = list[i]
    const X = (C[3 * c] - x) * invLen, Y = (C[3 * c + 1] - y) * invLen, Z = (C[3 * c + 2] - z) * invLen
    const w = 1 / (X * X + Y * Y + Z * Z + eps2), w2 = w * w
    const s = a[c]
    if (s < la) la = s
    if (s > ha) ha = s
    const wX = w2 * X, wY = w2 * Y, wZ = w2 * Z
    m0 += w2; m4 += wX; m5 += wX * X; m8 += wY; m9 += wY * X; m10 += wY * Y; m12 += wZ; m13 += wZ * X; m14 += wZ * Y; m15 += wZ * Z
    r0 += w2 * s; r1 += wX * s; r2 += wY * s; r3 += wZ * s
    if (b !== null) {
      const t = b[c]
      if (t < lb) lb = t
      if (t > hb) hb = t
      q0 += w2 * t; q1 += wX * t; q2 += wY * t; q3 += wZ * t
    }
  }
  const M = work.subarray(0, 16), rhs = work.subarray(16, 20), rhs2 = work.subarray(20, 24)
  M[0] = m0; M[4] = m4; M[5] = m5; M[8] = m8; M[9] = m9; M[10] = m10; M[12] = m12; M[13] = m13; M[14] = m14; M[15] = m15
  let sa = r0 / m0, sb = q0 / m0
  if (choleskyFactorInPlace(M, 4) >= LINEAR_CONDITION_FLOOR) {
    rhs[0] = r0; rhs[1] = r1; rhs[2] = r2; rhs[3] = r3
    choleskySubstitute(M, 4, rhs)
    sa = rhs[0]
    if (b !== null) {
      rhs2[0] = q0; rhs2[1] = q1; rhs2[2] = q2; rhs2[3] = q3
      choleskySubstitute(M, 4, rhs2)
      sb = rhs2[0]
    }
  }
  out[o] = sa < la ? la : sa > ha ? ha : sa
  if (b !== null) out[o + 1] = sb < lb ? lb : sb > hb ? hb : sb
}

/**
 * Points [q0, q1) of a batch: point q at (at[3q], at[3q + 1], at[3q + 2]) is fitted over cells
 * list[start[q] .. end[q] - 1] with lengths in units of len[q]; outA[q] (outB[q]) its value of a (b).
 */
export function scalarFitPoints(
  C: Float64Array, list: Int32Array, start: Int32Array, end: Int32Array, at: Float64Array, len: Float64Array, eps2: number,
  a: Float64Array, b: Float64Array | null, outA: Float64Array, outB: Float64Array | null, scratch: Float64Array | null, q0: number, q1: number,
): void {
  const work = scratch ?? new Float64Array(SCALAR_FIT_SCRATCH), pair = new Float64Array(2)
  for (let q = q0; q < q1; q++) {
    scalarFitAt(C, list, start[q], end[q], at[3 * q], at[3 * q + 1], at[3 * q + 2], len[q], eps2, a, b, work, pair, 0)
    outA[q] = pair[0]
    if (b !== null && outB !== null) outB[q] = pair[1]
  }
}

const num = (a: KernelArgs, i: number) => a[i] as number

/** scalarFitPoints over points [0, points). Args: C, list, start, end, at, len, eps2, a, b, outA, outB, work, points. */
export const SCALAR_FIT_POINTS = defineKernel({
  name: 'hybridScalarFitPoints',
  args: [
    f64('C'), i32('list'), i32('start'), i32('end'), f64('at'), f64('len'), float('eps2'), f64('a'), f64('b', true), f64('outA'), f64('outB', true),
    scratch('work', () => 8 * (SCALAR_FIT_SCRATCH + SCALAR_FIT_PAIR_SCRATCH)), size('points'),
  ],
  split: 'rows',
  range: (a) => num(a, 12),
  // About 17 cells a point (a tetrahedron's two-ring), each some 25 multiply-adds.
  work: (a) => 20 * num(a, 12),
  // A point's scratch is its own while it is fitted, so which thread fits it changes nothing.
  piecesPerThread: 4,
  worker: true,
  ref: scalarFitPoints,
})
