// The surface mesher's counting sort (bucketSortKernels.ts) in pieces: the sorted positions and
// the bucket starts must be those of a one-pass stable counting sort, whatever the number of
// pieces, on the TypeScript kernels and on 1-3 WebAssembly threads, with deep cells skipped and
// a non-finite particle reported by its index.
import { afterAll, describe, expect, it } from 'vitest'
import { TS_KERNELS } from '../../../../../src-shared/sim/core/kernelBackend'
import type { KernelBackend } from '../../../../../src-shared/sim/core/kernelTypes'
import { BUCKET_COUNT, BUCKET_SCATTER, bucketCursors } from '../../../../../src-shared/sim/liquid/surface/bucketSortKernels'
import { createKernelBackend } from '../../../../../src-main/sim/workerPool'
import { rng } from './meshChecks'

const backends: KernelBackend[] = []
afterAll(async () => {
  for (const b of backends) await b.dispose()
})

const B = 0.15, BX = 7, BY = 5, BZ = 6, NB = BX * BY * BZ
const CELLS = [10, 7, 9] as const, DX = 0.1

/** Particles in and a little outside the buckets' box (edge buckets take those). */
function particles(n: number, seed: number): Float32Array {
  const r = rng(seed)
  const pos = new Float32Array(3 * n)
  for (let q = 0; q < n; q++) {
    pos[3 * q] = -0.1 + r() * (BX * B + 0.2)
    pos[3 * q + 1] = -0.1 + r() * (BY * B + 0.2)
    pos[3 * q + 2] = -0.1 + r() * (BZ * B + 0.2)
  }
  return pos
}

/** The one-pass stable counting sort the mesher used to run: sorted positions and bucket starts. */
function reference(pos: Float32Array, n: number, skip: Uint8Array | null): { sorted: Float32Array; start: Int32Array } {
  const clamp = (v: number, m: number) => Math.min(m - 1, Math.max(0, Math.floor(v)))
  const of = new Int32Array(n), start = new Int32Array(NB + 1)
  for (let q = 0; q < n; q++) {
    const x = pos[3 * q], y = pos[3 * q + 1], z = pos[3 * q + 2]
    const inv = 1 / DX
    if (skip && skip[clamp(x * inv, CELLS[0]) + CELLS[0] * (clamp(y * inv, CELLS[1]) + CELLS[1] * clamp(z * inv, CELLS[2]))]) {
      of[q] = -1
      continue
    }
    of[q] = clamp(x / B, BX) + BX * (clamp(y / B, BY) + BY * clamp(z / B, BZ))
    start[of[q] + 1]++
  }
  for (let b = 0; b < NB; b++) start[b + 1] += start[b]
  const cursor = start.slice()
  const sorted = new Float32Array(3 * start[NB])
  for (let q = 0; q < n; q++) {
    if (of[q] < 0) continue
    const s = cursor[of[q]]++
    sorted.set(pos.subarray(3 * q, 3 * q + 3), 3 * s)
  }
  return { sorted, start }
}

function sortOn(b: KernelBackend, posIn: Float32Array, n: number, pieces: number, skipIn: Uint8Array | null): { sorted: Float32Array; start: Int32Array; bad: number } {
  const pos = b.f32(3 * n)
  pos.set(posIn)
  const skip = skipIn ? b.u8(skipIn.length) : null
  if (skip && skipIn) skip.set(skipIn)
  const of = b.i32(n), hist = b.i32(pieces * NB), bad = b.i32(pieces)
  b.run(BUCKET_COUNT, pos, of, hist, bad, skip, n, pieces, NB, 0, 0, 0, B, BX, BY, BZ, 0, 0, 0, 1 / DX, CELLS[0], CELLS[1], CELLS[2])
  const start = new Int32Array(NB + 1)
  const kept = bucketCursors(hist, hist, start, pieces, NB)
  const sorted = b.f32(Math.max(1, 3 * kept))
  b.run(BUCKET_SCATTER, pos, of, hist, sorted, n, pieces, NB)
  let first = -1
  for (let t = 0; t < pieces && first < 0; t++) first = bad[t]
  return { sorted: Float32Array.from(sorted.subarray(0, 3 * kept)), start, bad: first }
}

describe('the surface mesher sorts its particles into buckets in pieces', () => {
  const all = (): KernelBackend[] => {
    const out: KernelBackend[] = [TS_KERNELS]
    for (const threads of [1, 2, 3]) {
      const b = createKernelBackend('wasm', { threads, minParallelWork: 0, strict: true, initialBytes: 1 << 20 })
      backends.push(b)
      out.push(b)
    }
    return out
  }

  it('gives the one-pass stable sort for 1, 5 and 16 pieces, deep cells skipped or not', () => {
    const n = 5000
    const pos = particles(n, 3)
    const skip = new Uint8Array(CELLS[0] * CELLS[1] * CELLS[2])
    for (let c = 0; c < skip.length; c += 3) skip[c] = 1
    for (const mask of [null, skip]) {
      const want = reference(pos, n, mask)
      expect(want.start[NB]).toBeLessThanOrEqual(n)
      if (mask) expect(want.start[NB]).toBeLessThan(0.8 * n)
      for (const b of all()) {
        for (const pieces of [1, 5, 16]) {
          const got = sortOn(b, pos, n, pieces, mask)
          expect(got.bad).toBe(-1)
          expect(Array.from(got.start), `${b.kind} ${b.threads} threads, ${pieces} pieces`).toEqual(Array.from(want.start))
          expect(Array.from(got.sorted)).toEqual(Array.from(want.sorted))
        }
      }
    }
  })

  it('reports the first particle with a non-finite coordinate', () => {
    const n = 3000
    const pos = particles(n, 5)
    pos[3 * 2100 + 1] = Number.NaN
    pos[3 * 2500] = Number.POSITIVE_INFINITY
    for (const b of all()) for (const pieces of [1, 4, 7]) expect(sortOn(b, pos, n, pieces, null).bad).toBe(2100)
  })
})
