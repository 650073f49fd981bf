// A glTF document as the bytes of one self-contained file: .glb, or .gltf JSON with its buffer
// embedded as a data: URI (a sequence of .gltf files sharing "buffer.bin" names would
// overwrite each other's buffers). Shared by the per-frame and the animation writers.
import { Format, Logger, WebIO, type Document } from '@gltf-transform/core'
import { EddyError } from '../api/errors'

export async function serializeGltf(doc: Document, binary: boolean): Promise<Uint8Array> {
  const io = new WebIO().setLogger(new Logger(Logger.Verbosity.SILENT))
  if (binary) return io.writeBinary(doc)
  const { json, resources } = await io.writeJSON(doc, { format: Format.GLTF })
  for (const buffer of json.buffers ?? []) {
    if (buffer.uri === undefined) continue
    const data = resources[buffer.uri]
    if (!data) throw new EddyError('INTERNAL', `glTF writer lost buffer "${buffer.uri}"`)
    buffer.uri = 'data:application/octet-stream;base64,' + toBase64(data)
  }
  return encodeUtf8(JSON.stringify(json))
}

const B64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/'

/** Standard base64 with padding (no btoa or Buffer: shared code has neither). */
export function toBase64(bytes: Uint8Array): string {
  const parts: string[] = []
  let line = ''
  for (let i = 0; i < bytes.length; i += 3) {
    const a = bytes[i], b = bytes[i + 1] ?? 0, c = bytes[i + 2] ?? 0
    const n = (a << 16) | (b << 8) | c
    line += B64[n >> 18] + B64[(n >> 12) & 63] + (i + 1 < bytes.length ? B64[(n >> 6) & 63] : '=') + (i + 2 < bytes.length ? B64[n & 63] : '=')
    // Joining chunks keeps string building linear for multi-megabyte buffers.
    if (line.length >= 8192) {
      parts.push(line)
      line = ''
    }
  }
  parts.push(line)
  return parts.join('')
}

/** UTF-8 bytes of a string (src-shared's ES lib has no TextEncoder). */
function encodeUtf8(text: string): Uint8Array {
  const out = new Uint8Array(3 * text.length) // a UTF-16 unit never needs more than 3 bytes
  let o = 0
  for (let i = 0; i < text.length; i++) {
    let c = text.charCodeAt(i)
    if (c < 0x80) {
      out[o++] = c
      continue
    }
    if (c >= 0xd800 && c < 0xdc00 && i + 1 < text.length) {
      const lo = text.charCodeAt(i + 1)
      if (lo >= 0xdc00 && lo < 0xe000) {
        c = 0x10000 + ((c - 0xd800) << 10) + (lo - 0xdc00)
        i++
      }
    }
    if (c < 0x800) {
      out[o++] = 0xc0 | (c >> 6)
    } else if (c < 0x10000) {
      out[o++] = 0xe0 | (c >> 12)
      out[o++] = 0x80 | ((c >> 6) & 63)
    } else {
      out[o++] = 0xf0 | (c >> 18)
      out[o++] = 0x80 | ((c >> 12) & 63)
      out[o++] = 0x80 | ((c >> 6) & 63)
    }
    out[o++] = 0x80 | (c & 63)
  }
  return out.slice(0, o)
}
