// A CSR row's sum x . A_i in storage order, alone and for two rows in the two f64x2 lanes
// (sparse.ts's matrix kernels and surfaceStencil.ts's edge rows). Not exported from index.ts:
// helpers, not kernels.
import { rf64, ri32 } from './common'

/** Lane-wise sums of rows i (lane 0) and i + 1 (lane 1) over their common prefix of entries; returns the lanes with the tails finished. */
@inline export function rowPair(rowPtr: usize, col: usize, val: usize, x: usize, i: i32): v128 {
  const p0 = ri32(rowPtr, i)
  const e0 = ri32(rowPtr, i + 1)
  const p1 = e0
  const e1 = ri32(rowPtr, i + 2)
  const m0 = e0 - p0
  const m1 = e1 - p1
  const m = m0 < m1 ? m0 : m1
  let acc = f64x2.splat(0)
  for (let t = 0; t < m; t++) {
    const a = f64x2.replace_lane(f64x2.splat(rf64(val, p0 + t)), 1, rf64(val, p1 + t))
    const xv = f64x2.replace_lane(f64x2.splat(rf64(x, ri32(col, p0 + t))), 1, rf64(x, ri32(col, p1 + t)))
    acc = f64x2.add(acc, f64x2.mul(a, xv))
  }
  let s0 = f64x2.extract_lane(acc, 0)
  let s1 = f64x2.extract_lane(acc, 1)
  for (let p = p0 + m; p < e0; p++) s0 += rf64(val, p) * rf64(x, ri32(col, p))
  for (let p = p1 + m; p < e1; p++) s1 += rf64(val, p) * rf64(x, ri32(col, p))
  return f64x2.replace_lane(f64x2.splat(s0), 1, s1)
}

@inline export function rowSum(rowPtr: usize, col: usize, val: usize, x: usize, i: i32): f64 {
  let s: f64 = 0
  const end = ri32(rowPtr, i + 1)
  for (let p = ri32(rowPtr, i); p < end; p++) s += rf64(val, p) * rf64(x, ri32(col, p))
  return s
}
