// The linear-basis moving least-squares velocity of seed 000 eq. 11 (the value a back-trace
// carries forward in tetrahedra and transition hexahedra, hybridInterpolation.ts) as one
// function, and as a kernel-table row over a batch of evaluation points: the TypeScript
// reference below, and its AssemblyScript twin (wasm/assembly/hybridFit.ts) split over the
// points on the WebAssembly backend's threads. Every point is fitted on its own, in the same
// operations and order as here, so the answers are the same bits on any backend and split.
//
// The fit at x over faces f (centre c_f, unit normal n_f, normal velocity z_f), lengths in units
// of the containing cell's mean edge len: X = (c_f - x) / len, w_f = 1 / (|X|^2 + eps^2) (eq. 9);
// the row of face f is p (x) n_f with p = (1, X, Y, Z), so the 12 x 12 normal matrix is
// sum_f w_f^2 (p p^T) (x) (n_f n_f^T) (eq. 10): 10 distinct products of p times 6 of n, 60 sums
// per face, spread into the matrix once per fit; faces whose normals share one of nine
// directions c (faceNormalClasses.ts) sum 10 products a face instead, spread by c c^T once per
// direction. u(x) = u_0, the first three unknowns. A normal
// matrix whose Cholesky pivot ratio falls below LINEAR_CONDITION_FLOOR gives the constant fit
// (eqs. 7-10) on the same faces instead, and a singular one of those gives 0.
import { defineKernel, f64, float, i32, type KernelArgs, scratch, size, u8 } from '../core/kernelTable'
import { choleskySolveInPlace } from '../core/tetfv/smallDense'
import { LINEAR_CONDITION_FLOOR } from '../core/tetfv/tetMls'
import { CLASS_DIRECTION, CLASS_PRODUCTS } from './faceNormalClasses'

/** The fit answered with the linear basis (eq. 11). */
export const FIT_LINEAR = 1
/** The fit fell back to the constant basis (eqs. 7-10), the linear one being near singular. */
export const FIT_CONSTANT = 2

/** Float64 scratch one fit needs: the 12 x 12 matrix, its right-hand side, the 60 sums, the 10 products of p, a class run's 14 sums in two parts. */
export const LINEAR_FIT_SCRATCH = 144 + 12 + 60 + 10 + 28

/**
 * Faces per chunk of the WebAssembly kernel's per-face table (wasm/assembly/hybridFit.ts), 12
 * float64 a face, after the LINEAR_FIT_SCRATCH block.
 */
export const LINEAR_FIT_CHUNK = 128

/** Float64 the WebAssembly kernel adds for solving four points at once (two pairs' lane-interleaved 12 x 12 matrices and right-hand sides). */
export const LINEAR_FIT_PAIR_SCRATCH = 2 * (288 + 24)

/** A fit's scratch arrays (views of one block: fitScratch). */
export interface FitScratch {
  M: Float64Array
  rhs: Float64Array
  acc: Float64Array
  pp: Float64Array
  part: Float64Array
}

/** The scratch views of a block of LINEAR_FIT_SCRATCH float64 (a new block when none is given). */
export function fitScratch(work: Float64Array = new Float64Array(LINEAR_FIT_SCRATCH)): FitScratch {
  return { M: work.subarray(0, 144), rhs: work.subarray(144, 156), acc: work.subarray(156, 216), pp: work.subarray(216, 226), part: work.subarray(226, 254) }
}

/**
 * For each entry (r, c) of the 12 x 12 normal matrix (row-major; unknown 3P + a is component a
 * of basis function P), its sum among the 60 (6 x the index of the pair P >= Q, plus that of
 * a >= b), or -1 above the diagonal (the Cholesky solve reads the lower triangle).
 */
export const KRONECKER_MAP = (() => {
  const map = new Int8Array(144).fill(-1)
  const tri = (i: number, j: number) => (i >= j ? (i * (i + 1)) / 2 + j : (j * (j + 1)) / 2 + i)
  for (let r = 0; r < 12; r++) for (let c = 0; c <= r; c++) map[12 * r + c] = 6 * tri(Math.floor(r / 3), Math.floor(c / 3)) + tri(r % 3, c % 3)
  return map
})()

/**
 * Eq. 11 over faces[s .. e-1] at (x, y, z), lengths in units of len, eps2 = eps^2 (eps the
 * MLS epsilon factor): u(x) into out[o .. o+2]. With codes (faceNormalClasses.ts) the list is
 * sorted by class: its faces of no class take their 60 products each, then each class's run
 * sums its 10 products of p and 4 of the right-hand side and spreads them by c c^T and c once.
 * Without codes every face takes the 60. Returns FIT_LINEAR, or FIT_CONSTANT when it fell back.
 */
export function linearFitAt(C: Float64Array, N: Float64Array, zf: Float64Array, faces: Int32Array, codes: Uint8Array | null, s: number, e: number, x: number, y: number, z: number, len: number, eps2: number, S: FitScratch, out: Float64Array, o: number): number {
  const { M, rhs, acc, pp, part } = S
  pp[0] = 1
  const invLen = 1 / len
  acc.fill(0)
  let g = s
  if (codes === null) g = e
  else while (g < e && codes[faces[g]] < 2) g++
  let b0 = 0, b1 = 0, b2 = 0, b3 = 0, b4 = 0, b5 = 0, b6 = 0, b7 = 0, b8 = 0, b9 = 0, b10 = 0, b11 = 0
  for (let i = s; i < g; i++) {
    const f = faces[i]
    const X = (C[3 * f] - x) * invLen, Y = (C[3 * f + 1] - y) * invLen, Z = (C[3 * f + 2] - z) * invLen
    // Eq. 9 in units of len; the rows carry w (eq. 10), so w^2 in the normal equations.
    const w = 1 / (X * X + Y * Y + Z * Z + eps2), w2 = w * w
    const nx = N[3 * f], ny = N[3 * f + 1], nz = N[3 * f + 2]
    const zx = w2 * zf[f] * nx, zy = w2 * zf[f] * ny, zz = w2 * zf[f] * nz
    b0 += zx; b1 += zy; b2 += zz
    b3 += X * zx; b4 += X * zy; b5 += X * zz
    b6 += Y * zx; b7 += Y * zy; b8 += Y * zz
    b9 += Z * zx; b10 += Z * zy; b11 += Z * zz
    const wx = w2 * nx, wy = w2 * ny, wz = w2 * nz
    const q0 = wx * nx, q1 = wy * nx, q2 = wy * ny, q3 = wz * nx, q4 = wz * ny, q5 = wz * nz
    // p_P p_Q for P >= Q in the order (0,0) (1,0) (1,1) (2,0) (2,1) (2,2) (3,0) (3,1) (3,2) (3,3).
    pp[1] = X; pp[2] = X * X; pp[3] = Y; pp[4] = Y * X; pp[5] = Y * Y; pp[6] = Z; pp[7] = Z * X; pp[8] = Z * Y; pp[9] = Z * Z
    for (let k = 0, a = 0; k < 10; k++, a += 6) {
      const t = pp[k]
      acc[a] += t * q0; acc[a + 1] += t * q1; acc[a + 2] += t * q2
      acc[a + 3] += t * q3; acc[a + 4] += t * q4; acc[a + 5] += t * q5
    }
  }
  rhs[0] = b0; rhs[1] = b1; rhs[2] = b2; rhs[3] = b3; rhs[4] = b4; rhs[5] = b5
  rhs[6] = b6; rhs[7] = b7; rhs[8] = b8; rhs[9] = b9; rhs[10] = b10; rhs[11] = b11
  for (let i = g; i < e;) {
    const key = codes![faces[i]] >> 1
    // sum_f w^2 p_P p_Q in pp's order (t = 0..9), and sum_f w^2 s_f z_f p_P (t = 10..13), each
    // in two parts, the run's faces at even and at odd places (the kernel's two lanes): part[2t]
    // and part[2t + 1], added at the end.
    part.fill(0)
    for (let l = 0; i < e && codes![faces[i]] >> 1 === key; i++, l ^= 1) {
      const f = faces[i]
      const X = (C[3 * f] - x) * invLen, Y = (C[3 * f + 1] - y) * invLen, Z = (C[3 * f + 2] - z) * invLen
      const w = 1 / (X * X + Y * Y + Z * Z + eps2), w2 = w * w
      const sz = w2 * ((codes![f] & 1) === 1 ? -zf[f] : zf[f])
      part[l] += w2; part[2 + l] += w2 * X; part[4 + l] += w2 * (X * X); part[6 + l] += w2 * Y; part[8 + l] += w2 * (Y * X)
      part[10 + l] += w2 * (Y * Y); part[12 + l] += w2 * Z; part[14 + l] += w2 * (Z * X); part[16 + l] += w2 * (Z * Y); part[18 + l] += w2 * (Z * Z)
      part[20 + l] += sz; part[22 + l] += X * sz; part[24 + l] += Y * sz; part[26 + l] += Z * sz
    }
    for (let t = 0; t < 10; t++) pp[t] = part[2 * t] + part[2 * t + 1]
    spreadClass(key - 1, pp, part[20] + part[21], part[22] + part[23], part[24] + part[25], part[26] + part[27], acc, rhs)
  }
  const map = KRONECKER_MAP
  for (let i = 0; i < 144; i++) if (map[i] >= 0) M[i] = acc[map[i]]
  if (choleskySolveInPlace(M, 12, rhs) >= LINEAR_CONDITION_FLOOR) {
    out[o] = rhs[0]; out[o + 1] = rhs[1]; out[o + 2] = rhs[2]
    return FIT_LINEAR
  }
  constantFitAt(C, N, zf, faces, s, e, x, y, z, len, eps2, S, out, o)
  return FIT_CONSTANT
}

/**
 * Class k's run into the sums: acc[6t + j] += sums[t] (c c^T)_j for the 10 products t of p and
 * those of the 6 of n that are not 0; rhs[3P + a] += B_P c_a for c's components that are not
 * 0 (the zeros would add nothing but could turn an infinite sum into NaN).
 */
function spreadClass(k: number, sums: Float64Array, B0: number, B1: number, B2: number, B3: number, acc: Float64Array, rhs: Float64Array): void {
  const q = CLASS_PRODUCTS, c = CLASS_DIRECTION
  for (let t = 0, a = 0; t < 10; t++, a += 6) {
    const v = sums[t]
    for (let j = 0; j < 6; j++) if (q[6 * k + j] !== 0) acc[a + j] += v * q[6 * k + j]
  }
  for (let a = 0; a < 3; a++) {
    const ca = c[3 * k + a]
    if (ca === 0) continue
    rhs[a] += B0 * ca; rhs[3 + a] += B1 * ca; rhs[6 + a] += B2 * ca; rhs[9 + a] += B3 * ca
  }
}

/** Eqs. 7-10 over faces[s .. e-1] at (x, y, z) into out[o .. o+2]; 0 when singular. */
export function constantFitAt(C: Float64Array, N: Float64Array, zf: Float64Array, faces: Int32Array, s: number, e: number, x: number, y: number, z: number, len: number, eps2: number, S: FitScratch, out: Float64Array, o: number): void {
  const { M, rhs } = S
  const invLen = 1 / len
  let m00 = 0, m10 = 0, m11 = 0, m20 = 0, m21 = 0, m22 = 0, b0 = 0, b1 = 0, b2 = 0
  for (let i = s; i < e; i++) {
    const f = faces[i]
    const X = (C[3 * f] - x) * invLen, Y = (C[3 * f + 1] - y) * invLen, Z = (C[3 * f + 2] - z) * invLen
    const w = 1 / (X * X + Y * Y + Z * Z + eps2), w2 = w * w
    const nx = N[3 * f], ny = N[3 * f + 1], nz = N[3 * f + 2]
    m00 += w2 * nx * nx; m10 += w2 * ny * nx; m11 += w2 * ny * ny
    m20 += w2 * nz * nx; m21 += w2 * nz * ny; m22 += w2 * nz * nz
    const zw = w2 * zf[f]
    b0 += zw * nx; b1 += zw * ny; b2 += zw * nz
  }
  M[0] = m00; M[3] = m10; M[4] = m11; M[6] = m20; M[7] = m21; M[8] = m22
  rhs[0] = b0; rhs[1] = b1; rhs[2] = b2
  if (choleskySolveInPlace(M, 3, rhs) > 0) {
    out[o] = rhs[0]; out[o + 1] = rhs[1]; out[o + 2] = rhs[2]
  } else out[o] = out[o + 1] = out[o + 2] = 0
}

/**
 * Points [q0, q1) of a batch: point q at (at[3q], at[3q + 1], at[3q + 2]) is fitted over
 * faces[start[q] .. end[q] - 1] with lengths in units of len[q]; out[3q .. 3q+2] = u there.
 */
export function linearFitPoints(C: Float64Array, N: Float64Array, zf: Float64Array, faces: Int32Array, codes: Uint8Array | null, at: Float64Array, start: Int32Array, end: Int32Array, len: Float64Array, eps2: number, out: Float64Array, work: Float64Array | null, q0: number, q1: number): void {
  const S = fitScratch(work ?? undefined)
  for (let q = q0; q < q1; q++) linearFitAt(C, N, zf, faces, codes, start[q], end[q], at[3 * q], at[3 * q + 1], at[3 * q + 2], len[q], eps2, S, out, 3 * q)
}

const num = (a: KernelArgs, i: number) => a[i] as number

/** linearFitPoints over points [0, points). Args: C, N, zf, faces, codes (null: no classes), at, start, end, len, eps2, out, work, points. */
export const LINEAR_FIT_POINTS = defineKernel({
  name: 'linearFitPoints',
  args: [f64('C'), f64('N'), f64('zf'), i32('faces'), u8('codes', true), f64('at'), i32('start'), i32('end'), f64('len'), float('eps2'), f64('out'), scratch('work', () => 8 * (LINEAR_FIT_SCRATCH + 12 * LINEAR_FIT_CHUNK + LINEAR_FIT_PAIR_SCRATCH)), size('points')],
  split: 'rows',
  range: (a) => num(a, 12),
  // About 110 faces a point, each some 90 multiply-adds.
  work: (a) => 110 * num(a, 12),
  // Neighbourhoods run from about 30 faces to 130: pieces keep the threads finishing together
  // (a point's scratch is its own while it is fitted, so which thread fits it changes nothing).
  piecesPerThread: 4,
  worker: true,
  ref: linearFitPoints,
})
