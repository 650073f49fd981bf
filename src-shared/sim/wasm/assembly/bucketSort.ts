// The liquid surface mesher's counting sort of its particles into buckets (reference:
// src-shared/sim/liquid/surface/bucketSortKernels.ts bucketCountSlab, bucketScatterSlab), over
// pieces [t0, t1) of the particle list. The same float64 expressions as the reference, so the
// same buckets.
import { rf32, ri32, ru8, wi32 } from './common'

@inline function pieceStart(t: i32, pieces: i32, count: i32): i32 {
  return <i32>((<i64>count * <i64>t) / <i64>pieces)
}

/** floor value v clamped to [0, n - 1]; NaN gives 0. */
@inline function clampIndex(v: f64, n: i32): i32 {
  return v >= 0 ? (v < <f64>n ? <i32>v : n - 1) : 0
}

export function bucketCount(
  pos: usize, owner: usize, hist: usize, bad: usize, skip: usize,
  count: i32, pieces: i32, nb: i32,
  ox: f64, oy: f64, oz: f64, B: f64, bx: i32, by: i32, bz: i32,
  cox: f64, coy: f64, coz: f64, invDx: f64, cnx: i32, cny: i32, cnz: i32,
  t0: i32, t1: i32,
): void {
  for (let t = t0; t < t1; t++) {
    const q0 = pieceStart(t, pieces, count), q1 = pieceStart(t + 1, pieces, count)
    const h = t * nb
    memory.fill(hist + (<usize>h << 2), 0, <usize>nb << 2)
    let first = -1
    for (let q = q0; q < q1; q++) {
      const x = rf32(pos, 3 * q), y = rf32(pos, 3 * q + 1), z = rf32(pos, 3 * q + 2)
      if (first < 0 && !(x - x == 0 && y - y == 0 && z - z == 0)) first = q
      if (skip != 0) {
        const ci = clampIndex(Math.floor((x - cox) * invDx), cnx)
        const cj = clampIndex(Math.floor((y - coy) * invDx), cny)
        const ck = clampIndex(Math.floor((z - coz) * invDx), cnz)
        if (ru8(skip, ci + cnx * (cj + cny * ck)) != 0) {
          wi32(owner, q, -1)
          continue
        }
      }
      const b = clampIndex(Math.floor((x - ox) / B), bx) + bx * (clampIndex(Math.floor((y - oy) / B), by) + by * clampIndex(Math.floor((z - oz) / B), bz))
      wi32(owner, q, b)
      wi32(hist, h + b, ri32(hist, h + b) + 1)
    }
    wi32(bad, t, first)
  }
}

export function bucketScatter(pos: usize, owner: usize, cursor: usize, sorted: usize, count: i32, pieces: i32, nb: i32, t0: i32, t1: i32): void {
  for (let t = t0; t < t1; t++) {
    const q0 = pieceStart(t, pieces, count), q1 = pieceStart(t + 1, pieces, count)
    const h = t * nb
    for (let q = q0; q < q1; q++) {
      const b = ri32(owner, q)
      if (b < 0) continue
      const s = ri32(cursor, h + b)
      wi32(cursor, h + b, s + 1)
      // float32 copied as float32 (rf32/wf32 round-trip a float32 exactly).
      store<f32>(sorted + (<usize>(3 * s) << 2), load<f32>(pos + (<usize>(3 * q) << 2)))
      store<f32>(sorted + (<usize>(3 * s + 1) << 2), load<f32>(pos + (<usize>(3 * q + 1) << 2)))
      store<f32>(sorted + (<usize>(3 * s + 2) << 2), load<f32>(pos + (<usize>(3 * q + 2) << 2)))
    }
  }
}
