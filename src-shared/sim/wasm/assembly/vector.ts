// Vector kernels of PCG (reference: src-shared/sim/core/vectorOps.ts) on float64 vectors laid
// out like a cell field, over cell planes [k0, k1) of `plane` cells each.
//
// Reductions write one float64 partial sum per plane, so the total (summed in plane order by
// the caller) does not depend on how planes are split across threads. Within a plane the
// SIMD kernels keep two running sums (even and odd positions from the plane's first cell) and
// add them at the end, then the odd tail: a different summation order from the reference's
// single running sum, so a per-plane sum may differ from the reference in the last bits
// (|difference| <= about plane * 2^-53 * sum |a_c b_c|). The *Exact variants keep the
// reference's order and are bit-identical to it.
import { rf64, wf64, v64, st64 } from './common'

/** dotPlanesSlab (two-lane order): partial[k] = sum over plane k of a_c b_c. */
export function dotPlanes(a: usize, b: usize, plane: i32, partial: usize, k0: i32, k1: i32): void {
  for (let k = k0; k < k1; k++) {
    let c = k * plane
    const end = c + plane
    let acc = f64x2.splat(0)
    for (; c + 1 < end; c += 2) acc = f64x2.add(acc, f64x2.mul(v64(a, c), v64(b, c)))
    let s = f64x2.extract_lane(acc, 0) + f64x2.extract_lane(acc, 1)
    for (; c < end; c++) s += rf64(a, c) * rf64(b, c)
    wf64(partial, k, s)
  }
}

/** dotPlanesSlab in the reference's order (bit-identical). */
export function dotPlanesExact(a: usize, b: usize, plane: i32, partial: usize, k0: i32, k1: i32): void {
  for (let k = k0; k < k1; k++) {
    let s: f64 = 0
    const end = (k + 1) * plane
    for (let c = k * plane; c < end; c++) s += rf64(a, c) * rf64(b, c)
    wf64(partial, k, s)
  }
}

/** updateIterateSlab: x += alpha s; r -= alpha q; partial[k] = |r|^2 over plane k (two-lane order). */
export function updateIterate(x: usize, r: usize, s: usize, q: usize, alpha: f64, plane: i32, partial: usize, k0: i32, k1: i32): void {
  const va = f64x2.splat(alpha)
  for (let k = k0; k < k1; k++) {
    let c = k * plane
    const end = c + plane
    let acc = f64x2.splat(0)
    for (; c + 1 < end; c += 2) {
      st64(x, c, f64x2.add(v64(x, c), f64x2.mul(va, v64(s, c))))
      const rc = f64x2.sub(v64(r, c), f64x2.mul(va, v64(q, c)))
      st64(r, c, rc)
      acc = f64x2.add(acc, f64x2.mul(rc, rc))
    }
    let rr = f64x2.extract_lane(acc, 0) + f64x2.extract_lane(acc, 1)
    for (; c < end; c++) {
      wf64(x, c, rf64(x, c) + alpha * rf64(s, c))
      const rc = rf64(r, c) - alpha * rf64(q, c)
      wf64(r, c, rc)
      rr += rc * rc
    }
    wf64(partial, k, rr)
  }
}

/** updateIterateSlab in the reference's order (bit-identical). */
export function updateIterateExact(x: usize, r: usize, s: usize, q: usize, alpha: f64, plane: i32, partial: usize, k0: i32, k1: i32): void {
  const va = f64x2.splat(alpha)
  for (let k = k0; k < k1; k++) {
    let c = k * plane
    const end = c + plane
    let rr: f64 = 0
    for (; c + 1 < end; c += 2) {
      st64(x, c, f64x2.add(v64(x, c), f64x2.mul(va, v64(s, c))))
      const rc = f64x2.sub(v64(r, c), f64x2.mul(va, v64(q, c)))
      st64(r, c, rc)
      const r0 = f64x2.extract_lane(rc, 0)
      const r1 = f64x2.extract_lane(rc, 1)
      rr += r0 * r0
      rr += r1 * r1
    }
    for (; c < end; c++) {
      wf64(x, c, rf64(x, c) + alpha * rf64(s, c))
      const rc = rf64(r, c) - alpha * rf64(q, c)
      wf64(r, c, rc)
      rr += rc * rc
    }
    wf64(partial, k, rr)
  }
}

/** updateSearchSlab: s = z + beta s over planes [k0, k1) (bit-identical). */
export function updateSearch(s: usize, z: usize, beta: f64, plane: i32, k0: i32, k1: i32): void {
  const vb = f64x2.splat(beta)
  let c = k0 * plane
  const end = k1 * plane
  for (; c + 1 < end; c += 2) st64(s, c, f64x2.add(v64(z, c), f64x2.mul(vb, v64(s, c))))
  for (; c < end; c++) wf64(s, c, rf64(z, c) + beta * rf64(s, c))
}
