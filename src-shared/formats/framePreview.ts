// The preview record stored next to each baked smoke frame: the viewport's RG8 texels
// (volumePreview.ts), compressed. Showing a cached frame then costs one decode of 2 bytes
// per cell instead of decoding three float volumes and converting them (measured in
// tests/bench/frameDisplay.bench.ts), which is what keeps scrubbing at 128^3 interactive.
//
// Layout (little-endian): 'EDPV' | u16 version | u16 flags (0) | u32 headerLength |
// u32 payloadLength | u32 crc32 of everything but this field | header JSON (dims, voxelSize,
// origin, densityMax, temperatureAmbient, temperatureMax) | the texels: version 2 (written
// now) zero-run coded (zeroRuns.ts: a 128^3 frame decodes in a few milliseconds), version 1
// (bakes before it, still read) raw deflate. The CRC covers the compressed bytes only, so
// checking it costs little.
import { deflateSync, inflateSync } from 'fflate'
import { EddyError } from '../api/errors'
import { crc32 } from './frameRecord/crc32'
import { encodeUtf8 } from './openvdb/bytes'
import { decodeUtf8 } from './textBytes'
import type { VolumeDisplayData } from './volumePreview'
import { decodeZeroRuns, encodeZeroRuns } from './zeroRuns'

const MAGIC = 'EDPV'
/** Texels deflated (bakes before zero-run coding). */
export const PREVIEW_DEFLATE = 1
/** Texels zero-run coded. */
export const PREVIEW_ZERO_RUNS = 2
const PREFIX = 20

function corrupt(what: string): EddyError {
  return new EddyError('PROJECT_FORMAT', `Cached frame preview is corrupt: ${what}`)
}

/** The preview record of v (version: PREVIEW_ZERO_RUNS; PREVIEW_DEFLATE only to test reading older bakes). */
export function encodePreview(v: VolumeDisplayData, version: typeof PREVIEW_DEFLATE | typeof PREVIEW_ZERO_RUNS = PREVIEW_ZERO_RUNS): Uint8Array {
  const header = encodeUtf8(
    JSON.stringify({ dims: v.dims, voxelSize: v.voxelSize, origin: v.origin, densityMax: v.densityMax, temperatureAmbient: v.temperatureAmbient, temperatureMax: v.temperatureMax }),
  )
  const packed = version === PREVIEW_ZERO_RUNS ? encodeZeroRuns(v.texels) : deflateSync(v.texels, { level: 1 })
  const out = new Uint8Array(PREFIX + header.length + packed.length)
  const dv = new DataView(out.buffer)
  for (let i = 0; i < 4; i++) out[i] = MAGIC.charCodeAt(i)
  dv.setUint16(4, version, true)
  dv.setUint16(6, 0, true)
  dv.setUint32(8, header.length, true)
  dv.setUint32(12, packed.length, true)
  out.set(header, PREFIX)
  out.set(packed, PREFIX + header.length)
  dv.setUint32(16, crc32(out, PREFIX, out.length, crc32(out, 0, 16)), true)
  return out
}

/** The parts of a preview record, checked (magic, version, lengths, CRC, header) but not inflated. */
export function parsePreview(bytes: Uint8Array): { meta: Omit<VolumeDisplayData, 'texels'>; packed: Uint8Array; cells: number; version: number } {
  if (bytes.length < PREFIX) throw corrupt(`only ${bytes.length} bytes`)
  for (let i = 0; i < 4; i++) if (bytes[i] !== MAGIC.charCodeAt(i)) throw corrupt("missing the 'EDPV' magic")
  const dv = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  const version = dv.getUint16(4, true)
  if ((version !== PREVIEW_DEFLATE && version !== PREVIEW_ZERO_RUNS) || dv.getUint16(6, true) !== 0) throw corrupt(`unknown version ${version}`)
  const hl = dv.getUint32(8, true)
  const pl = dv.getUint32(12, true)
  if (PREFIX + hl + pl !== bytes.length) throw corrupt(`record is ${bytes.length} bytes but its lengths say ${PREFIX + hl + pl}`)
  if (crc32(bytes, PREFIX, bytes.length, crc32(bytes, 0, 16)) !== dv.getUint32(16, true)) throw corrupt('CRC mismatch')
  let h: Record<string, unknown>
  try {
    h = JSON.parse(decodeUtf8(bytes.subarray(PREFIX, PREFIX + hl))) as Record<string, unknown>
  } catch {
    throw corrupt('header is not JSON')
  }
  const dims = h.dims as number[]
  const origin = h.origin as number[]
  const nums = [h.voxelSize, h.densityMax, h.temperatureAmbient, h.temperatureMax]
  if (!Array.isArray(dims) || dims.length !== 3 || !dims.every((d) => Number.isInteger(d) && d > 0 && d <= 4096)) throw corrupt('bad dims')
  if (!Array.isArray(origin) || origin.length !== 3 || !origin.every(Number.isFinite) || !nums.every((n) => typeof n === 'number' && Number.isFinite(n))) {
    throw corrupt('bad header numbers')
  }
  return {
    meta: {
      dims: [dims[0], dims[1], dims[2]],
      voxelSize: h.voxelSize as number,
      origin: [origin[0], origin[1], origin[2]],
      densityMax: h.densityMax as number,
      temperatureAmbient: h.temperatureAmbient as number,
      temperatureMax: h.temperatureMax as number,
    },
    packed: bytes.subarray(PREFIX + hl),
    cells: dims[0] * dims[1] * dims[2],
    version,
  }
}

export function decodePreview(bytes: Uint8Array): VolumeDisplayData {
  const p = parsePreview(bytes)
  if (p.version === PREVIEW_ZERO_RUNS) return { ...p.meta, texels: zeroRunTexels(p.packed, p.cells) }
  let texels: Uint8Array
  try {
    texels = inflateSync(p.packed, { out: new Uint8Array(2 * p.cells + 1) })
  } catch {
    throw corrupt('texels do not inflate')
  }
  if (texels.length !== 2 * p.cells) throw corrupt(`texels inflate to ${texels.length} bytes, expected ${2 * p.cells}`)
  return { ...p.meta, texels }
}

/** The texels of a version-2 preview's payload (2 bytes per cell). */
export function zeroRunTexels(packed: Uint8Array, cells: number): Uint8Array {
  try {
    return decodeZeroRuns(packed, 2 * cells)
  } catch (err) {
    throw corrupt(`texels do not decode: ${(err as Error).message}`)
  }
}
