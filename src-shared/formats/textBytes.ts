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
 * terminator. A leading UTF-8 byte-order mark is skipped.
 */
export function forEachLine(bytes: Uint8Array, visit: (line: string, lineNumber: number) => void): void {
  let i = bytes.length >= 3 && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? 3 : 0
  let lineNumber = 1
  const n = bytes.length
  while (i < n) {
    let j = i
    while (j < n && bytes[j] !== 10 && bytes[j] !== 13) j++
    visit(decodeUtf8(bytes, i, j), lineNumber++)
    if (j < n && bytes[j] === 13 && j + 1 < n && bytes[j + 1] === 10) j++
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
