// The move's removal of flagged markers (particleMotion.ts removeFlagged), which reads the flags
// four to a word, against the plain backwards loop over every flag: the same survivors in the
// same slots, on aligned and unaligned flag arrays, with counts that leave a partial word,
// flags in the first and last markers and runs of flagged markers.
import { describe, expect, it } from 'vitest'
import { MarkerParticles } from '../../../../src-shared/sim/liquid/markers'
import { removeFlagged } from '../../../../src-shared/sim/liquid/particleMotion'

function markers(count: number, seed: number, offset: number): MarkerParticles {
  const p = new MarkerParticles(count, 4, true)
  for (let q = 0; q < count; q++) p.add(q, 2 * q, 3 * q, q + 0.5, -q, q * q, 300 + q)
  for (let e = 0; e < 9 * count; e++) p.c[e] = e
  // The flags as a view at `offset` bytes into a larger buffer (0: aligned for words).
  p.flag = new Uint8Array(new ArrayBuffer(count + 8), offset, count)
  let s = seed
  for (let q = 0; q < count; q++) {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0
    p.flag[q] = s % 23 === 0 || (q > 40 && q < 52) || q === 0 || q === count - 1 ? 1 : 0
  }
  return p
}

function plain(p: MarkerParticles, count: number): number {
  let removed = 0
  for (let q = count - 1; q >= 0; q--) {
    if (p.flag[q] === 0) continue
    p.remove(q)
    removed++
  }
  return removed
}

const state = (p: MarkerParticles) => [p.count, p.px, p.py, p.pz, p.vx, p.vy, p.vz, p.temp, p.id, p.c].map((a) => (typeof a === 'number' ? a : Array.from(a.subarray(0, a === p.c ? 9 * p.count : p.count))))

describe('removeFlagged', () => {
  it('removes the flagged markers as the backwards loop does, word-aligned or not', () => {
    for (const count of [0, 1, 3, 4, 5, 63, 64, 65, 1001]) {
      for (const offset of [0, 1, 2, 4]) {
        const a = markers(count, 11 + count, offset), b = markers(count, 11 + count, offset)
        const want = plain(a, count)
        expect(removeFlagged(b, count), `${count} markers, offset ${offset}`).toBe(want)
        expect(state(b), `${count} markers, offset ${offset}`).toEqual(state(a))
        if (count > 60) expect(want).toBeGreaterThan(12)
      }
    }
  })
})
