// The typed-array equality the tests use (tests/setup/typedArrayEquality.ts) says what vitest's
// own would: equal only with the same type, length and values (Object.is: NaN equals NaN, 0 and
// -0 differ), also inside objects and arrays.
import { describe, expect, it } from 'vitest'

describe('typed arrays in toEqual', () => {
  it('are equal only with the same type, length and values', () => {
    expect(new Float32Array([1, 2, NaN])).toEqual(new Float32Array([1, 2, NaN]))
    expect(new Float32Array([1, 2])).not.toEqual(new Float32Array([1, 3]))
    expect(new Float32Array([1, 2])).not.toEqual(new Float32Array([1, 2, 0]))
    expect(new Float32Array([1, 2])).not.toEqual(new Float64Array([1, 2]))
    expect(new Int32Array([0])).toEqual(new Int32Array([-0]))
    expect(new Float64Array([0])).not.toEqual(new Float64Array([-0]))
    expect(new BigInt64Array([1n, 2n])).not.toEqual(new BigInt64Array([1n, 3n]))
    expect(Buffer.from([1, 2])).not.toEqual(new Uint8Array([1, 2]))
    expect(new Uint8Array([1, 2])).not.toEqual([1, 2])
  })

  it('inside objects and arrays, and a failing toEqual says so', () => {
    const big = new Int32Array(100_000).map((_, i) => i)
    const other = big.slice()
    expect({ tets: big, n: 1 }).toEqual({ tets: other, n: 1 })
    other[76_543] = -1
    expect([{ tets: big }]).not.toEqual([{ tets: other }])
    expect(() => expect(big).toEqual(other)).toThrow(/to deeply equal Int32Array/)
  })
})
