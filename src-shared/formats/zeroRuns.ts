// Zero-run coding of a byte array: the viewport preview's texels (framePreview.ts version 2).
//
// Why not deflate: smoke is mostly empty space, and a preview is read every time the playhead
// lands on a frame that is not decoded yet. Inflating a 128^3 frame's 4 MiB of texels took
// 20-37 ms in Chromium (DecompressionStream) and about 100 ms with fflate; this decodes in
// 2-3 ms (a fill per zero run, a copy per literal run), for about 1.6 times deflate's bytes
// on the synthetic plume of tests/bench/scrub.bench.ts (592 against 361 kB).
//
// Stream: pairs (zeros, literals) of LEB128 varints, each followed by `literals` raw bytes;
// zero runs shorter than MIN_ZERO_RUN stay inside the literals. The pairs cover the array
// exactly (the last pair may have 0 literals).

/** Zero runs shorter than this are cheaper kept as literals (a pair costs at least 2 bytes). */
const MIN_ZERO_RUN = 8

/** The zero-run code of `bytes`. */
export function encodeZeroRuns(bytes: Uint8Array): Uint8Array {
  const n = bytes.length
  // Worst case: one pair of two 5-byte varints per MIN_ZERO_RUN literals, plus the literals.
  let out = new Uint8Array(n + 16 + 10 * Math.ceil(n / MIN_ZERO_RUN))
  let o = 0
  const varint = (x: number): void => {
    while (x >= 0x80) {
      out[o++] = (x & 0x7f) | 0x80
      x >>>= 7
    }
    out[o++] = x
  }
  let i = 0
  while (i < n) {
    let z = i
    while (z < n && bytes[z] === 0) z++
    // Literals run to the next zero run of MIN_ZERO_RUN or more (or the end).
    let j = z
    while (j < n) {
      if (bytes[j] !== 0) {
        j++
        continue
      }
      let k = j
      while (k < n && bytes[k] === 0 && k - j < MIN_ZERO_RUN) k++
      if (k - j >= MIN_ZERO_RUN || k === n) break
      j = k
    }
    varint(z - i)
    varint(j - z)
    out.set(bytes.subarray(z, j), o)
    o += j - z
    i = j
  }
  out = out.slice(0, o)
  return out
}

/**
 * Decodes a zero-run code into `length` bytes; throws (with `what` is wrong) on a stream that
 * does not cover exactly that many. `out` (length bytes, any content) takes them instead of a
 * new array: a fresh 4 MiB array costs 17-19 ms of first-touched pages in a Chromium worker,
 * a used one half a millisecond to clear, so the viewport's decoder reuses its buffers.
 */
export function decodeZeroRuns(code: Uint8Array, length: number, out: Uint8Array | null = null): Uint8Array {
  if (out !== null && out.length !== length) throw new Error(`the output holds ${out.length} bytes, expected ${length}`)
  // A new array is zero-filled, so a zero run only advances; a reused one is cleared per run.
  const clear = out !== null
  out ??= new Uint8Array(length)
  const end = code.length
  let p = 0
  let o = 0
  // One LEB128 varint at p (p moves past it).
  const varint = (): number => {
    let x = 0
    let shift = 0
    let b = 0
    do {
      if (p >= end || shift > 28) throw new Error('a run length is cut off or too long')
      b = code[p++]
      x += (b & 0x7f) * 2 ** shift
      shift += 7
    } while (b & 0x80)
    return x
  }
  while (p < end) {
    const zeros = varint()
    const lits = varint()
    if (o + zeros + lits > length) throw new Error(`the runs cover more than ${length} bytes`)
    if (clear) out.fill(0, o, o + zeros)
    o += zeros
    if (p + lits > end) throw new Error('a literal run is cut off')
    out.set(code.subarray(p, p + lits), o)
    p += lits
    o += lits
  }
  if (o !== length) throw new Error(`the runs cover ${o} bytes, expected ${length}`)
  return out
}
