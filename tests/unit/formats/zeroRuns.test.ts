// Zero-run coding of the preview's texels (zeroRuns.ts): exact round trips over arrays with
// every mix of zero runs (none, all, short ones kept as literals, at either end), a smaller
// code than the bytes for a mostly empty smoke volume, and malformed streams named as such.
import { describe, expect, it } from 'vitest'
import { Prng } from '../../../src-shared/sim/core/prng'
import { decodeZeroRuns, encodeZeroRuns } from '../../../src-shared/formats/zeroRuns'

function sample(n: number, zeroShare: number, runScale: number, seed: number): Uint8Array {
  const prng = new Prng(seed)
  const out = new Uint8Array(n)
  let i = 0
  while (i < n) {
    const run = 1 + Math.floor(prng.range(0, runScale))
    const zero = prng.range(0, 1) < zeroShare
    for (let k = 0; k < run && i < n; k++, i++) out[i] = zero ? 0 : 1 + Math.floor(prng.range(0, 255))
  }
  return out
}

describe('zero-run coding', () => {
  it('round trips exactly, whatever the runs', () => {
    const cases: Uint8Array[] = [new Uint8Array(0), new Uint8Array(1000), new Uint8Array(1000).fill(7), Uint8Array.from([0, 0, 0, 5]), Uint8Array.from([5, 0, 0, 0]), Uint8Array.from([0, 1, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2])]
    for (let s = 0; s < 12; s++) cases.push(sample(5000 + 997 * s, (s % 4) / 3, [3, 20, 300][s % 3], s + 1))
    for (const c of cases) expect(Buffer.from(decodeZeroRuns(encodeZeroRuns(c), c.length)).equals(Buffer.from(c))).toBe(true)
  })

  it('decodes into a used output array (any content) exactly as into a new one, and refuses one of the wrong length', () => {
    for (let s = 0; s < 6; s++) {
      const c = sample(7000 + 131 * s, (s % 3) / 2, [4, 40, 400][s % 3], 50 + s)
      const dirty = sample(c.length, 0.1, 5, 90 + s)
      const out = decodeZeroRuns(encodeZeroRuns(c), c.length, dirty)
      expect(out).toBe(dirty)
      expect(Buffer.from(out).equals(Buffer.from(c))).toBe(true)
    }
    expect(() => decodeZeroRuns(encodeZeroRuns(new Uint8Array(10)), 10, new Uint8Array(11))).toThrow(/the output holds 11 bytes, expected 10/)
  })

  it('codes a mostly empty volume in a fraction of its bytes', () => {
    const v = sample(1 << 20, 0.8, 400, 3)
    expect(encodeZeroRuns(v).length).toBeLessThan(0.3 * v.length)
    expect(encodeZeroRuns(new Uint8Array(1 << 20)).length).toBeLessThan(8)
  })

  it('names malformed streams', () => {
    const code = encodeZeroRuns(Uint8Array.from([0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 9, 9, 9]))
    expect(() => decodeZeroRuns(code, 12)).toThrow(/the runs cover more than 12 bytes/)
    expect(() => decodeZeroRuns(code, 14)).toThrow(/the runs cover 13 bytes, expected 14/)
    expect(() => decodeZeroRuns(code.subarray(0, code.length - 1), 13)).toThrow(/a literal run is cut off/)
    expect(() => decodeZeroRuns(Uint8Array.from([0x80]), 13)).toThrow(/a run length is cut off or too long/)
    expect(() => decodeZeroRuns(Uint8Array.from([0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01, 0]), 13)).toThrow(/too long/)
  })
})
