// Checkpoint container: a small JSON header (scalars, ids) plus raw typed arrays, 8-byte
// aligned so they can be viewed in place. Layout (little endian):
//   0  'EDCK'          4  format version (u32)   8  header length in UTF-16 units (u32)
//   12 reserved (u32)  16 header text as UTF-16 code units, padded to 8 bytes, then arrays.
// UTF-16 sidesteps TextEncoder, which the ES lib of src-shared does not have.
import { EddyError } from '../../api/errors'

const MAGIC = 0x4b434445 // 'EDCK'
export const CHECKPOINT_VERSION = 1

type Arr = Float32Array | Float64Array | Uint8Array

export interface CheckpointSection {
  name: string
  type: 'f32' | 'f64' | 'u8'
  offset: number
  length: number
}

function typeOf(a: Arr): CheckpointSection['type'] {
  return a instanceof Float32Array ? 'f32' : a instanceof Float64Array ? 'f64' : 'u8'
}

const pad8 = (n: number) => (n + 7) & ~7

/** Packs `meta` (JSON-serialisable) and named arrays into one buffer. */
export function writeCheckpoint(kind: string, meta: Record<string, unknown>, arrays: [string, Arr][]): Uint8Array {
  const sections: CheckpointSection[] = []
  // The header lists the sections, whose offsets depend on the header's length: lay the
  // arrays out relative to the data start first, then fix the start once the text is known.
  let rel = 0
  for (const [name, a] of arrays) {
    sections.push({ name, type: typeOf(a), offset: rel, length: a.length })
    rel = pad8(rel + a.byteLength)
  }
  let text = ''
  let start = 0
  for (let pass = 0; pass < 3; pass++) {
    text = JSON.stringify({ kind, meta, sections: sections.map((s) => ({ ...s, offset: s.offset + start })) })
    const next = pad8(16 + 2 * text.length)
    if (next === start) break
    start = next
  }
  const out = new Uint8Array(start + rel)
  const view = new DataView(out.buffer)
  view.setUint32(0, MAGIC, true)
  view.setUint32(4, CHECKPOINT_VERSION, true)
  view.setUint32(8, text.length, true)
  for (let i = 0; i < text.length; i++) view.setUint16(16 + 2 * i, text.charCodeAt(i), true)
  for (let s = 0; s < arrays.length; s++) {
    const a = arrays[s][1]
    out.set(new Uint8Array(a.buffer, a.byteOffset, a.byteLength), start + sections[s].offset)
  }
  return out
}

export interface ParsedCheckpoint {
  meta: Record<string, unknown>
  /** Copies the named section into dst (lengths must match). */
  read(name: string, dst: Arr): void
  length(name: string): number
}

function bad(message: string): never {
  throw new EddyError('INVALID_PARAM', `Checkpoint is not usable: ${message}`, { field: 'checkpoint' })
}

export function readCheckpoint(kind: string, bytes: Uint8Array): ParsedCheckpoint {
  if (!(bytes instanceof Uint8Array) || bytes.length < 16) bad('too short')
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  if (view.getUint32(0, true) !== MAGIC) bad('not an Eddy checkpoint')
  if (view.getUint32(4, true) !== CHECKPOINT_VERSION) bad(`format version ${view.getUint32(4, true)}, expected ${CHECKPOINT_VERSION}`)
  const len = view.getUint32(8, true)
  if (16 + 2 * len > bytes.length) bad('truncated header')
  let text = ''
  for (let i = 0; i < len; i += 4096) {
    const codes: number[] = []
    for (let q = i; q < Math.min(len, i + 4096); q++) codes.push(view.getUint16(16 + 2 * q, true))
    text += String.fromCharCode(...codes)
  }
  let header: { kind: string; meta: Record<string, unknown>; sections: CheckpointSection[] }
  try {
    header = JSON.parse(text)
  } catch {
    bad('corrupt header')
  }
  if (header.kind !== kind) bad(`it belongs to a ${String(header.kind)} solver, not ${kind}`)
  const byName = new Map(header.sections.map((s) => [s.name, s]))
  return {
    meta: header.meta,
    length(name) {
      return byName.get(name)?.length ?? 0
    },
    read(name, dst) {
      const s = byName.get(name)
      if (!s) bad(`section ${name} is missing`)
      if (s.type !== typeOf(dst) || s.length !== dst.length) bad(`section ${name} has ${s.length} ${s.type} values, expected ${dst.length} ${typeOf(dst)}`)
      const bytesLen = dst.byteLength
      if (s.offset + bytesLen > bytes.length) bad(`section ${name} is truncated`)
      new Uint8Array(dst.buffer, dst.byteOffset, bytesLen).set(bytes.subarray(s.offset, s.offset + bytesLen))
    },
  }
}

/**
 * The float64 section `name` (n values) as a new array, or null when the checkpoint has no such
 * section (one written before the section existed). A section of another size or type is refused.
 */
export function readOptionalF64(c: ParsedCheckpoint, name: string, n: number): Float64Array | null {
  if (c.length(name) === 0) return null
  const a = new Float64Array(n)
  c.read(name, a)
  return a
}
