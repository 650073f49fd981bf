// Checkpoints carry a CRC like frame records, so a damaged one is named and skipped instead of
// surfacing as "the simulation became unstable" (flipped bytes) or "unexpected EOF" (a
// truncated blob). Layout: "EDCK" | u32 CRC-32 of the payload (little endian) | payload (the
// solver state, deflated). Checkpoints written before the seal have no magic and are read as
// they are (their inflate and restore still catch most damage).
import { EddyError } from '../../src-shared/api/errors'
import { crc32 } from '../../src-shared/formats/frameRecord/crc32'

const MAGIC = [0x45, 0x44, 0x43, 0x4b] // "EDCK"
const HEADER = 8

export function sealCheckpoint(payload: Uint8Array): Uint8Array {
  const out = new Uint8Array(HEADER + payload.byteLength)
  out.set(MAGIC, 0)
  new DataView(out.buffer).setUint32(4, crc32(payload), true)
  out.set(payload, HEADER)
  return out
}

function sealed(bytes: Uint8Array): boolean {
  return bytes.byteLength >= 4 && MAGIC.every((b, i) => bytes[i] === b)
}

/** The payload of a stored checkpoint; PROJECT_FORMAT naming the frame when it is damaged. */
export function openCheckpoint(bytes: Uint8Array, frame: number, domainId: string): Uint8Array {
  if (!sealed(bytes)) return bytes
  if (bytes.byteLength < HEADER) throw damaged(frame, domainId, `${bytes.byteLength} bytes, shorter than its header`)
  const payload = bytes.subarray(HEADER)
  const stored = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength).getUint32(4, true)
  const actual = crc32(payload)
  if (stored !== actual) throw damaged(frame, domainId, `CRC ${actual.toString(16).padStart(8, '0')} where ${stored.toString(16).padStart(8, '0')} was written`)
  return payload
}

function damaged(frame: number, domainId: string, why: string): EddyError {
  return new EddyError('PROJECT_FORMAT', `The checkpoint at frame ${frame} is damaged (${why})`, { domainId, frame })
}
