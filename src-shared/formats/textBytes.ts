// Text from raw bytes without TextDecoder (not in the ES2023 lib, and src-shared must run
// anywhere). Line-at-a-time so a 500 MB OBJ never becomes one giant string (V8 caps strings
// at ~2^29 characters).

/** UTF-8 to string; malformed sequences become U+FFFD. Pure ASCII takes a fast path. */
export function decodeUtf8(bytes: Uint8Array, start = 0, end = bytes.length): string {
  let ascii = true
  for (let i = start; i < end; i++) {
    if (bytes[i] >= 0x80) {
      ascii = false
      break
    }
  }
  if (ascii) return codesToString(bytes, start, end)
  const units = new Uint16Array(end - start) // never more UTF-16 units than bytes
  let n = 0
  let i = start
  while (i < end) {
    const b = bytes[i]
    let cp = 0xfffd
    let len = 1
    if (b < 0x80) cp = b
    else if (b >= 0xc2 && b < 0xe0 && i + 1 < end && isCont(bytes[i + 1])) {
      cp = ((b & 0x1f) << 6) | (bytes[i + 1] & 0x3f)
      len = 2
    } else if (b >= 0xe0 && b < 0xf0 && i + 2 < end && isCont(bytes[i + 1]) && isCont(bytes[i + 2])) {
      const c = ((b & 0x0f) << 12) | ((bytes[i + 1] & 0x3f) << 6) | (bytes[i + 2] & 0x3f)
      // Overlong forms and UTF-16 surrogates are not valid UTF-8.
      if (c >= 0x800 && (c < 0xd800 || c > 0xdfff)) {
        cp = c
        len = 3
      }
    } else if (b >= 0xf0 && b < 0xf5 && i + 3 < end && isCont(bytes[i + 1]) && isCont(bytes[i + 2]) && isCont(bytes[i + 3])) {
      const c = ((b & 0x07) << 18) | ((bytes[i + 1] & 0x3f) << 12) | ((bytes[i + 2] & 0x3f) << 6) | (bytes[i + 3] & 0x3f)
      if (c >= 0x10000 && c <= 0x10ffff) {
        cp = c
        len = 4
      }
    }
    if (cp > 0xffff) {
      const c = cp - 0x10000
      units[n++] = 0xd800 | (c >> 10)
      units[n++] = 0xdc00 | (c & 0x3ff)
    } else {
      units[n++] = cp
    }
    i += len
  }
  return codesToString(units, 0, n)
}

function isCont(b: number): boolean {
  return (b & 0xc0) === 0x80
}

// fromCharCode.apply has an argument-count limit; 8192 is well below every engine's.
function codesToString(codes: Uint8Array | Uint16Array, start: number, end: number): string {
  let s = ''
  for (let i = start; i < end; i += 8192) {
    s += String.fromCharCode.apply(null, codes.subarray(i, Math.min(end, i + 8192)) as unknown as number[])
  }
  return s
}

/**
 * Heuristic for "someone picked a binary file": a NUL anywhere, or more than 1% control bytes
 * (other than tab, line feed, form feed, carriage return, vertical tab) in the first 64 KiB.
 * Random binary data is ~10% control bytes; real text files have essentially none.
 */
export function looksLikeText(bytes: Uint8Array): boolean {
  if (bytes.indexOf(0) !== -1) return false
  const n = Math.min(bytes.length, 65536)
  let control = 0
  for (let i = 0; i < n; i++) {
    const b = bytes[i]
    if ((b < 0x20 && b !== 9 && b !== 10 && b !== 11 && b !== 12 && b !== 13) || b === 0x7f) control++
  }
  return control <= n * 0.01
}

/**
 * Calls `visit` for every line (LF, CRLF or lone CR endings), numbered from 1, without the
 * terminator. A leading UTF-8 byte-order mark is skipped. Bytes are decoded ~1 MiB at a time
 * (cut after a line feed, so no UTF-8 sequence is split) and then split as a string, which is
 * several times faster than decoding each short line on its own.
 */
export function forEachLine(bytes: Uint8Array, visit: (line: string, lineNumber: number) => void): void {
  const CHUNK = 1 << 20
  let i = bytes.length >= 3 && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? 3 : 0
  let lineNumber = 1
  while (i < bytes.length) {
    let end = Math.min(bytes.length, i + CHUNK)
    if (end < bytes.length) {
      const lf = bytes.lastIndexOf(10, end - 1)
      if (lf >= i) end = lf + 1
      // else: a line longer than a chunk; find its end instead of splitting it
      else {
        const next = bytes.indexOf(10, end)
        end = next === -1 ? bytes.length : next + 1
      }
    }
    const text = decodeUtf8(bytes, i, end)
    // Chunks end just after a LF (or at the end of the file), so a CRLF is never split and
    // the last piece is either empty or the unterminated final line.
    // Plain LF files (the usual case) skip the regex split.
    const lines = text.indexOf('\r') === -1 ? text.split('\n') : text.split(/\r\n|\n|\r/)
    const last = lines.length - 1
    for (let k = 0; k < last; k++) visit(lines[k], lineNumber++)
    if (lines[last] !== '') visit(lines[last], lineNumber++)
    i = end
  }
}

/**
 * Like forEachLine but hands over byte ranges [start, end) instead of strings, for parsers
 * that scan bytes directly on their hot path and decode only the lines they must.
 */
export function forEachLineRange(bytes: Uint8Array, visit: (start: number, end: number, lineNumber: number) => void): void {
  let i = bytes.length >= 3 && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? 3 : 0
  const n = bytes.length
  let lineNumber = 1
  // Without any CR (Unix files) the native indexOf finds line ends far faster than a loop.
  const lfOnly = bytes.indexOf(13, i) === -1
  while (i < n) {
    let j: number
    if (lfOnly) {
      j = bytes.indexOf(10, i)
      if (j === -1) j = n
    } else {
      j = i
      while (j < n) {
        const b = bytes[j]
        if (b === 10 || b === 13) break
        j++
      }
    }
    visit(i, j, lineNumber++)
    if (j + 1 < n && bytes[j] === 13 && bytes[j + 1] === 10) j++
    i = j + 1
  }
}

/** Splits on runs of spaces/tabs (and the other ASCII whitespace); no empty tokens. */
export function tokenize(line: string): string[] {
  const t = line.trim()
  return t === '' ? [] : t.split(/\s+/)
}

// C-style decimal (what strtod accepts, minus hex): "1", "-2.", ".5", "1e-3", "+4.0E+2".
// Number() alone would also accept "0x1f", "Infinity" and "" and silently misread them.
const DECIMAL = /^[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?$/
// What C printf writes for non-finite floats; such tokens are numbers, just unusable ones.
const NON_FINITE = /^[+-]?(?:nan(?:\([^)]*\))?|inf(?:inity)?)$/i

/**
 * A decimal number token as a number; NaN or ±Infinity for printf's "nan"/"inf" spellings
 * (so callers can say "not finite" instead of "not a number"); undefined for anything else.
 */
export function parseDecimal(token: string): number | undefined {
  if (DECIMAL.test(token)) return Number(token)
  if (NON_FINITE.test(token)) {
    const lower = token.toLowerCase()
    if (lower.includes('nan')) return NaN
    return lower.startsWith('-') ? -Infinity : Infinity
  }
  return undefined
}

// Exact powers of ten: every 10^k up to 10^22 is representable in a double.
const POW10 = Array.from({ length: 23 }, (_, k) => Number(`1e${k}`))

/**
 * Fast path for a decimal token starting at bytes[i]: writes its value to out[0] and returns
 * the index just after it, or -1 when the token is not a plain decimal of at most 15
 * significant digits and a small exponent (the caller then falls back to parseDecimal on
 * the text). Within those limits m * 10^e is one correctly rounded operation on exact
 * operands (Clinger's fast path), so the result equals Number(token) bit for bit.
 * A token ends at a space, tab, '#' or `end`.
 */
export function scanDecimal(bytes: Uint8Array, i: number, end: number, out: number[]): number {
  let p = i
  let neg = false
  if (p < end && (bytes[p] === 43 || bytes[p] === 45)) {
    neg = bytes[p] === 45
    p++
  }
  let m = 0, sig = 0, scale = 0, digits = 0
  while (p < end) {
    const d = bytes[p] - 48
    if (d < 0 || d > 9) break
    digits++
    if (m !== 0 || d !== 0) {
      m = m * 10 + d
      sig++
    }
    p++
  }
  if (p < end && bytes[p] === 46) {
    p++
    while (p < end) {
      const d = bytes[p] - 48
      if (d < 0 || d > 9) break
      digits++
      if (m !== 0 || d !== 0) {
        m = m * 10 + d
        sig++
      }
      scale--
      p++
    }
  }
  if (digits === 0) return -1
  if (p < end && (bytes[p] === 101 || bytes[p] === 69)) {
    p++
    let eneg = false
    if (p < end && (bytes[p] === 43 || bytes[p] === 45)) {
      eneg = bytes[p] === 45
      p++
    }
    let ex = 0, ed = 0
    while (p < end) {
      const d = bytes[p] - 48
      if (d < 0 || d > 9) break
      ex = ex * 10 + d
      if (++ed > 4) return -1
      p++
    }
    if (ed === 0) return -1
    scale += eneg ? -ex : ex
  }
  if (p < end && bytes[p] !== 32 && bytes[p] !== 9 && bytes[p] !== 35) return -1
  if (sig > 15) return -1
  let v = 0
  if (m !== 0) {
    if (scale > 22 || scale < -22) return -1
    v = scale >= 0 ? m * POW10[scale] : m / POW10[-scale]
  }
  out[0] = neg ? -v : v
  return p
}
