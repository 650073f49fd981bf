// The preview record stored next to each baked smoke frame: the viewport's RG8 texels
// (volumePreview.ts) and the key light's transmittance through them (lightVolume.ts), compressed.
// Showing a cached frame then costs one decode of 2 bytes per cell (and a copy of the light's
// bytes) instead of decoding three float volumes, converting them and sweeping the light through
// them (measured in tests/bench/frameDisplay.bench.ts), which is what keeps scrubbing at 128^3
// interactive.
//
// Layout (little-endian): 'EDPV' | u16 version | u16 flags (0) | u32 headerLength |
// u32 payloadLength | u32 crc32 of everything but this field | header JSON (dims, voxelSize,
// origin, densityMax, temperatureAmbient, temperatureMax; version 3 also light: the light
// volume's dims, the direction toward the light it was computed for, and the byte length of the
// texels' code) | the payload. Version 3 (written now): the texels zero-run coded (zeroRuns.ts:
// a 128^3 frame decodes in a few milliseconds), then 255 - the light's bytes zero-run coded (air
// in full light is 0). Version 2: the texels zero-run coded, no light. Version 1: the texels
// raw deflate. Versions 1 and 2 (older bakes) are still read; their light is computed when
// shown. The CRC covers the compressed bytes only, so checking it costs little.
import { deflateSync, inflateSync } from 'fflate'
import { EddyError } from '../api/errors'
import { crc32 } from './frameRecord/crc32'
import { encodeUtf8 } from './openvdb/bytes'
import { decodeUtf8 } from './textBytes'
import { DEFAULT_TO_LIGHT, lightVolume } from './lightVolume'
import type { VolumeDisplayData } from './volumePreview'
import { decodeZeroRuns, encodeZeroRuns } from './zeroRuns'

const MAGIC = 'EDPV'
/** Texels deflated (bakes before zero-run coding). */
export const PREVIEW_DEFLATE = 1
/** Texels zero-run coded. */
export const PREVIEW_ZERO_RUNS = 2
/** Texels and the default key light's transmittance zero-run coded. */
export const PREVIEW_LIT = 3
const PREFIX = 20

function corrupt(what: string): EddyError {
  return new EddyError('PROJECT_FORMAT', `Cached frame preview is corrupt: ${what}`)
}

type PreviewVersion = typeof PREVIEW_DEFLATE | typeof PREVIEW_ZERO_RUNS | typeof PREVIEW_LIT

/**
 * The preview record of v (version: PREVIEW_LIT, with the light computed here for
 * DEFAULT_TO_LIGHT whatever v.light holds; the older versions only to test reading older bakes).
 */
export function encodePreview(v: VolumeDisplayData, version: PreviewVersion = PREVIEW_LIT): Uint8Array {
  const fields: Record<string, unknown> = { dims: v.dims, voxelSize: v.voxelSize, origin: v.origin, densityMax: v.densityMax, temperatureAmbient: v.temperatureAmbient, temperatureMax: v.temperatureMax }
  const texelCode = version === PREVIEW_DEFLATE ? deflateSync(v.texels, { level: 1 }) : encodeZeroRuns(v.texels)
  let lightCode: Uint8Array | null = null
  if (version === PREVIEW_LIT) {
    const light = lightVolume(v.texels, v.dims, v.densityMax, v.voxelSize, DEFAULT_TO_LIGHT)
    // Stored as darkness (255 - transmittance): air in full light, most of a frame, codes as zero runs.
    const dark = new Uint8Array(light.data.length)
    for (let i = 0; i < dark.length; i++) dark[i] = 255 - light.data[i]
    lightCode = encodeZeroRuns(dark)
    fields.light = { dims: light.dims, toLight: DEFAULT_TO_LIGHT, texelCodeBytes: texelCode.length }
  }
  const header = encodeUtf8(JSON.stringify(fields))
  const payload = texelCode.length + (lightCode?.length ?? 0)
  const out = new Uint8Array(PREFIX + header.length + payload)
  const dv = new DataView(out.buffer)
  for (let i = 0; i < 4; i++) out[i] = MAGIC.charCodeAt(i)
  dv.setUint16(4, version, true)
  dv.setUint16(6, 0, true)
  dv.setUint32(8, header.length, true)
  dv.setUint32(12, payload, true)
  out.set(header, PREFIX)
  out.set(texelCode, PREFIX + header.length)
  if (lightCode) out.set(lightCode, PREFIX + header.length + texelCode.length)
  dv.setUint32(16, crc32(out, PREFIX, out.length, crc32(out, 0, 16)), true)
  return out
}

/** A version-3 preview's light: its grid, the direction it was lit from, and its code. */
export interface PreviewLight {
  dims: [number, number, number]
  toLight: [number, number, number]
  code: Uint8Array
}

/** The parts of a preview record, checked (magic, version, lengths, CRC, header) but not inflated. */
export function parsePreview(bytes: Uint8Array): { meta: Omit<VolumeDisplayData, 'texels'>; packed: Uint8Array; cells: number; version: number; light: PreviewLight | null } {
  if (bytes.length < PREFIX) throw corrupt(`only ${bytes.length} bytes`)
  for (let i = 0; i < 4; i++) if (bytes[i] !== MAGIC.charCodeAt(i)) throw corrupt("missing the 'EDPV' magic")
  const dv = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  const version = dv.getUint16(4, true)
  if ((version !== PREVIEW_DEFLATE && version !== PREVIEW_ZERO_RUNS && version !== PREVIEW_LIT) || dv.getUint16(6, true) !== 0) throw corrupt(`unknown version ${version}`)
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
  const payload = bytes.subarray(PREFIX + hl)
  let packed = payload
  let light: PreviewLight | null = null
  if (version === PREVIEW_LIT) {
    const l = h.light as { dims?: unknown; toLight?: unknown; texelCodeBytes?: unknown } | undefined
    const ld = l?.dims as number[]
    const lt = l?.toLight as number[]
    const tb = l?.texelCodeBytes as number
    if (!Array.isArray(ld) || ld.length !== 3 || !ld.every((d, i) => Number.isInteger(d) && d > 0 && d <= dims[i])) throw corrupt('bad light dims')
    if (!Array.isArray(lt) || lt.length !== 3 || !lt.every(Number.isFinite)) throw corrupt('bad light direction')
    if (!Number.isInteger(tb) || tb < 0 || tb > payload.length) throw corrupt('bad texel code length')
    packed = payload.subarray(0, tb)
    light = { dims: [ld[0], ld[1], ld[2]], toLight: [lt[0], lt[1], lt[2]], code: payload.subarray(tb) }
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
    packed,
    cells: dims[0] * dims[1] * dims[2],
    version,
    light,
  }
}

/**
 * The preview's display data: with its stored light (as v.light and v.lightDims) when it has one
 * computed for `toLight` (exactly that direction), without it otherwise.
 */
export function decodePreview(bytes: Uint8Array, toLight: readonly number[] = DEFAULT_TO_LIGHT, alloc: ByteAllocator | null = null): VolumeDisplayData {
  const p = parsePreview(bytes)
  if (p.version !== PREVIEW_DEFLATE) {
    const v: VolumeDisplayData = { ...p.meta, texels: zeroRunTexels(p.packed, p.cells, alloc) }
    const l = p.light
    if (l && l.toLight[0] === toLight[0] && l.toLight[1] === toLight[1] && l.toLight[2] === toLight[2]) {
      v.light = lightBytes(l, alloc)
      v.lightDims = l.dims
    }
    return v
  }
  let texels: Uint8Array
  try {
    texels = inflateSync(p.packed, { out: new Uint8Array(2 * p.cells + 1) })
  } catch {
    throw corrupt('texels do not inflate')
  }
  if (texels.length !== 2 * p.cells) throw corrupt(`texels inflate to ${texels.length} bytes, expected ${2 * p.cells}`)
  return { ...p.meta, texels }
}

/**
 * Where a decode may take its output arrays from: `bytes` long, any content (the viewport's
 * decode worker hands out buffers the page gave back, decodeWorker.ts); null: new arrays.
 */
export type ByteAllocator = (bytes: number) => Uint8Array

/** A version-3 preview's light volume: one byte of 255 T per cell of its dims. */
export function lightBytes(l: PreviewLight, alloc: ByteAllocator | null = null): Uint8Array {
  let out: Uint8Array
  const n = l.dims[0] * l.dims[1] * l.dims[2]
  try {
    out = decodeZeroRuns(l.code, n, alloc ? alloc(n) : null)
  } catch (err) {
    throw corrupt(`light does not decode: ${(err as Error).message}`)
  }
  for (let i = 0; i < out.length; i++) out[i] = 255 - out[i]
  return out
}

/** The texels of a version-2 preview's payload (2 bytes per cell). */
export function zeroRunTexels(packed: Uint8Array, cells: number, alloc: ByteAllocator | null = null): Uint8Array {
  try {
    return decodeZeroRuns(packed, 2 * cells, alloc ? alloc(2 * cells) : null)
  } catch (err) {
    throw corrupt(`texels do not decode: ${(err as Error).message}`)
  }
}
