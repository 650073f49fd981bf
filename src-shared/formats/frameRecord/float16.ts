// IEEE 754 binary16 <-> binary32, round to nearest even. Normal halves (|v| in [2^-14, 65504])
// carry a relative error <= 2^-11; subnormal halves an absolute error <= 2^-25; values whose
// rounded magnitude exceeds 65504 become +-Infinity; NaN stays NaN, +-0 and +-Infinity exact.

const f32 = new Float32Array(1)
const u32 = new Uint32Array(f32.buffer)

/** The half-precision bits nearest to `v` (as float32 first). */
export function toHalf(v: number): number {
  f32[0] = v
  const x = u32[0]
  const sign = (x >>> 16) & 0x8000
  const exp = (x >>> 23) & 0xff
  let mant = x & 0x7fffff
  if (exp === 0xff) return sign | 0x7c00 | (mant ? 0x200 : 0) // Inf / NaN
  const e = exp - 127 + 15
  if (e >= 0x1f) return sign | 0x7c00 // overflow
  if (e <= 0) {
    // Subnormal half (or zero).
    if (e < -10) return sign
    mant |= 0x800000
    const shift = 14 - e
    let h = mant >>> shift
    const rem = mant & ((1 << shift) - 1)
    const half = 1 << (shift - 1)
    if (rem > half || (rem === half && h & 1)) h++
    return sign | h
  }
  let h = (e << 10) | (mant >>> 13)
  const rem = mant & 0x1fff
  if (rem > 0x1000 || (rem === 0x1000 && h & 1)) h++ // may carry into the exponent: correct (up to Inf)
  return sign | h
}

let table: Float32Array | undefined

/** float32 value of every half bit pattern (built on first use, 256 KB). */
export function halfTable(): Float32Array {
  if (table) return table
  const t = new Float32Array(65536)
  const bits = new Uint32Array(t.buffer)
  for (let h = 0; h < 65536; h++) {
    const sign = (h & 0x8000) << 16
    const exp = (h >>> 10) & 0x1f
    const mant = h & 0x3ff
    if (exp === 0) t[h] = (sign ? -1 : 1) * mant * 2 ** -24
    else if (exp === 0x1f) bits[h] = sign | 0x7f800000 | (mant << 13)
    else bits[h] = sign | ((exp - 15 + 127) << 23) | (mant << 13)
  }
  table = t
  return t
}

export function fromHalf(h: number): number {
  return halfTable()[h & 0xffff]
}
