// The surface mesher's counting sort of its particles into buckets (particleLevelSet.ts
// prepare) as two kernel-table rows over pieces of the particle list, so it runs split over
// the WebAssembly backend's threads (wasm/assembly/bucketSort.ts) instead of on the calling
// thread alone (about 30 ms a frame for the gears and bunnies' million markers, the worker idle):
//   1. BUCKET_COUNT: each piece finds every particle's bucket (-1: skipped as deep, from the
//      deep interior's cell mask, surfaceDeepKernels.ts) and counts its particles per bucket;
//   2. the caller turns the counts into each piece's write cursor per bucket, buckets in order
//      and within a bucket the pieces in order (bucketCursors);
//   3. BUCKET_SCATTER: each piece copies its particles' positions to their cursors.
// Within a bucket the particles then keep their order in the list, whatever the number of
// pieces: the sorted array is the bits the one-pass sort wrote.
import { defineKernel, f32, float, i32, int, type KernelArgs, u8 } from '../../core/kernelTable'

/** Particles [q0, q1) of piece t of `pieces` over count. */
function pieceRange(t: number, pieces: number, count: number): [number, number] {
  return [Math.floor((count * t) / pieces), Math.floor((count * (t + 1)) / pieces)]
}

/**
 * Pieces [t0, t1): of[q] = the bucket of particle q (buckets B wide from the node grid's
 * origin o, bx * by * bz, clamped to the edge buckets), or -1 where skip (may be null) marks
 * its simulation cell (cells dx wide from co, cnx * cny * cnz, clamped); hist[t * nb + b] =
 * piece t's particles in bucket b; bad[t] = piece t's first particle with a non-finite
 * coordinate, or -1.
 */
export function bucketCountSlab(
  pos: Float32Array, of: Int32Array, hist: Int32Array, bad: Int32Array, skip: Uint8Array | null,
  count: number, pieces: number, nb: number,
  ox: number, oy: number, oz: number, B: number, bx: number, by: number, bz: number,
  cox: number, coy: number, coz: number, invDx: number, cnx: number, cny: number, cnz: number,
  t0: number, t1: number,
): void {
  for (let t = t0; t < t1; t++) {
    const [q0, q1] = pieceRange(t, pieces, count)
    const h = t * nb
    hist.fill(0, h, h + nb)
    let first = -1
    for (let q = q0; q < q1; q++) {
      const x = pos[3 * q], y = pos[3 * q + 1], z = pos[3 * q + 2]
      // x - x is 0 for a finite x, NaN for NaN and the infinities.
      if (first < 0 && !(x - x === 0 && y - y === 0 && z - z === 0)) first = q
      if (skip !== null) {
        // (A NaN coordinate clamps to cell 0: the sides are never deep, so it is kept.)
        const ci = clampIndex(Math.floor((x - cox) * invDx), cnx)
        const cj = clampIndex(Math.floor((y - coy) * invDx), cny)
        const ck = clampIndex(Math.floor((z - coz) * invDx), cnz)
        if (skip[ci + cnx * (cj + cny * ck)] !== 0) {
          of[q] = -1
          continue
        }
      }
      // Particles outside the grid go to the edge buckets: the splat's distance test still rejects them.
      const b = clampIndex(Math.floor((x - ox) / B), bx) + bx * (clampIndex(Math.floor((y - oy) / B), by) + by * clampIndex(Math.floor((z - oz) / B), bz))
      of[q] = b
      hist[h + b]++
    }
    bad[t] = first
  }
}

/** floor(v) clamped to [0, n - 1]; NaN gives 0. */
function clampIndex(v: number, n: number): number {
  return v >= 0 ? (v < n ? v : n - 1) : 0
}

/**
 * From BUCKET_COUNT's counts: cursor[t * nb + b] = where piece t's first particle of bucket b
 * goes (buckets in order, the pieces in order within each), start[b] = bucket b's first slot,
 * start[nb] = the particles kept. cursor may be hist itself.
 */
export function bucketCursors(hist: Int32Array, cursor: Int32Array, start: Int32Array, pieces: number, nb: number): number {
  let at = 0
  for (let b = 0; b < nb; b++) {
    start[b] = at
    for (let t = 0, o = b; t < pieces; t++, o += nb) {
      const n = hist[o]
      cursor[o] = at
      at += n
    }
  }
  start[nb] = at
  return at
}

/** Pieces [t0, t1): each kept particle's position to sorted[3 * cursor], its piece's cursor for its bucket moving on. */
export function bucketScatterSlab(pos: Float32Array, of: Int32Array, cursor: Int32Array, sorted: Float32Array, count: number, pieces: number, nb: number, t0: number, t1: number): void {
  for (let t = t0; t < t1; t++) {
    const [q0, q1] = pieceRange(t, pieces, count)
    const h = t * nb
    for (let q = q0; q < q1; q++) {
      const b = of[q]
      if (b < 0) continue
      const s = cursor[h + b]++
      sorted[3 * s] = pos[3 * q]
      sorted[3 * s + 1] = pos[3 * q + 1]
      sorted[3 * s + 2] = pos[3 * q + 2]
    }
  }
}

const num = (a: KernelArgs, i: number) => a[i] as number

/** bucketCountSlab over pieces [0, pieces). */
export const BUCKET_COUNT = defineKernel({
  name: 'bucketCount',
  args: [
    f32('pos'), i32('of'), i32('hist'), i32('bad'), u8('skip', true),
    int('count'), int('pieces'), int('nb'),
    float('ox'), float('oy'), float('oz'), float('B'), int('bx'), int('by'), int('bz'),
    float('cox'), float('coy'), float('coz'), float('invDx'), int('cnx'), int('cny'), int('cnz'),
  ],
  split: 'blocks',
  range: (a) => num(a, 6),
  work: (a) => num(a, 5),
  ref: bucketCountSlab,
})

/** bucketScatterSlab over pieces [0, pieces). */
export const BUCKET_SCATTER = defineKernel({
  name: 'bucketScatter',
  args: [f32('pos'), i32('of'), i32('cursor'), f32('sorted'), int('count'), int('pieces'), int('nb')],
  split: 'blocks',
  range: (a) => num(a, 5),
  work: (a) => num(a, 4),
  ref: bucketScatterSlab,
})
