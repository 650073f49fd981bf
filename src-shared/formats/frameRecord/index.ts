// The compact binary record a baked frame is stored as in the project's SQLite frame cache
// (one row per frame). Pure TypeScript: fflate for deflate, hand-written little-endian code.
//
// Layout (all integers little-endian):
//   0  'EDFR'                      magic
//   4  u16 version (= 4)           a newer version is refused, not guessed at; versions 1
//                                  (no background), 2 (no mesh attributes, no rigid
//                                  bodies) and 3 (no textures) are still read
//   6  u16 flags (= 0)
//   8  u32 headerLength            bytes of UTF-8 JSON header
//  12  u32 payloadLength           bytes of the concatenated sections
//  16  u32 crc32                   CRC-32 (IEEE) of bytes [0,16) + [20, end)
//  20  header JSON                 names, dims, voxel size, origin, precision, stats, counts,
//                                  rigid-body poses, texture names and sizes, and each
//                                  section's raw and deflated length
//  ..  sections, in order: one per volume, one per mesh, one per particle set, one per rigid
//      body, one per texture, each raw deflate (RFC 1951) of:
//   volume:   tile bitmap (ceil(tiles/8) bytes, bit t of byte t>>3 = tile t stored) then the
//             values of the stored 8x8x8 tiles (edge tiles clipped to the grid; tiles are
//             x-fastest, cells inside a tile x-fastest, components interleaved). A tile whose
//             values all equal the volume's background (the bit pattern of cell 0, per
//             component; listed in the header when not +0) is not stored and decodes as the
//             background, like an OpenVDB background value: temperature in kelvin is ambient
//             almost everywhere, and would otherwise store every tile. Values per precision:
//               float32  bitwise exact; bytes shuffled into 4 planes (all byte 0s, then all
//                        byte 1s, ...) which deflates far better than interleaved floats
//               float16  IEEE half, round to nearest even, 2 byte planes. Relative error
//                        <= 2^-11 for normal halves (|v| in [2^-14, 65504]), absolute error
//                        <= 2^-25 below that, |v| rounding above 65504 becomes +-Infinity;
//                        NaN, +-Infinity and +-0 are kept
//               uint8    per stored tile: f32 min, f32 max (over all its values and
//                        components; all tiles' pairs first), then one byte per value,
//                        q = round(255 (v - min) / (max - min)), decoded as
//                        min + q (max - min) / 255. Error <= (max - min) / 510 (plus the
//                        float32 rounding of the decoded value). A volume holding NaN or
//                        Infinity (or a value span beyond float range) cannot be quantised
//                        and is stored as float32 instead (its header says which precision).
//   mesh:     positions f32[] | indices u32[] | normals f32[] | each per-vertex attribute's
//             f32[] (1 or 3 components) in header order (lengths in the header)
//   particles: positions f32[] | each attribute's f32[] in header order
//   rigid body: its body-local mesh, as a mesh section. The pose (position, orientation
//             quaternion x y z w, linear and angular velocity) is in the header, id and name
//             beside it: a few numbers per body, exact as JSON doubles.
//   texture:  f32[components * width * height * layers], in FrameTexture data order
//             (components interleaved, x-fastest, then rows, then layers); name, width,
//             height, layers and components are in the header.
// Meshes, particles, rigid bodies and textures are always float32, whatever the precision.
//
// Any truncated or garbled record throws EddyError('PROJECT_FORMAT', 'Cached frame record is
// corrupt: <what>'): magic, version, flags, lengths, the CRC, the header's shape, inflate
// errors and decompressed sizes are all checked before any data is trusted.
import { deflateSync, inflateSync } from 'fflate'
import { EddyError } from '../../api/errors'
import type { FrameData, FrameMesh, FrameTexture, ParticleSet, RigidBodyState, Volume } from '../../sim/frame'
import { encodeUtf8 } from '../openvdb/bytes'
import { concat, f32Bytes, readF32 } from './bytes'
import { corrupt } from './corrupt'
import { crc32 } from './crc32'
import { encNum, parseHeader, type FramePrecision, type Header } from './header'
import { checkMeshHeader, decodeMesh, encodeMesh } from './meshSection'
import { decodeRigidBody, encodeRigidBody } from './rigidBodySection'
import { decodeTexture, encodeTexture } from './textureSection'
import { decodeVolume, encodeVolume } from './volumeCodec'

export { crc32 } from './crc32'
export { toHalf, fromHalf } from './float16'
export { FRAME_TILE } from './volumeCodec'
export type { FramePrecision } from './header'

export interface EncodeFrameOptions {
  /** How volume values are stored (meshes, particles and textures are always float32). Default float32. */
  precision?: FramePrecision
  /** Deflate level 0-9. Default 1 (see tests/bench/frameRecord.bench.ts). */
  level?: number
  /**
   * Raw deflate (RFC 1951) of a section at a level. Default fflate's deflateSync, which runs
   * anywhere; the bake runner passes Node's zlib, about twice as fast (the records' deflate was
   * most of a liquid frame's encode, as long as the step itself at 64^3). Any deflater makes a
   * record decodeFrame reads; one deflater makes the same bytes for the same frame.
   */
  deflate?: (raw: Uint8Array, level: number) => Uint8Array
}

export const FRAME_RECORD_MAGIC = 'EDFR'
export const FRAME_RECORD_VERSION = 4
/** Versions decodeFrame reads. */
const READABLE_VERSIONS = [1, 2, 3, 4]
const PREFIX = 20

// ---------- encode ----------

/** The frame as one self-checking binary record (see the layout above). */
export function encodeFrame(frame: FrameData, opts: EncodeFrameOptions = {}): Uint8Array {
  const precision = opts.precision ?? 'float32'
  if (precision !== 'float32' && precision !== 'float16' && precision !== 'uint8') {
    throw new EddyError('INVALID_PARAM', `Unknown frame precision '${String(precision)}'`)
  }
  const level = opts.level ?? 1
  if (!Number.isInteger(level) || level < 0 || level > 9) throw new EddyError('INVALID_PARAM', `Deflate level must be an integer 0-9, got ${level}`)
  const deflate = opts.deflate ?? ((raw: Uint8Array, l: number) => deflateSync(raw, { level: l as 0 }))
  const pack = (raw: Uint8Array): Uint8Array => deflate(raw, level)
  const sections: Uint8Array[] = []
  const header: Header = {
    time: encNum(frame.time),
    frame: encNum(frame.frame),
    precision,
    stats: Object.entries(frame.stats).map(([k, v]) => [k, encNum(v)]),
    volumes: [],
    meshes: [],
    particles: [],
    rigidBodies: [],
    textures: [],
  }
  for (const v of frame.volumes) {
    if (v.components !== 1 && v.components !== 3) throw new EddyError('INVALID_PARAM', `Volume '${v.name}' has ${v.components} components`)
    if (!v.dims.every((d) => Number.isInteger(d) && d >= 0)) throw new EddyError('INVALID_PARAM', `Volume '${v.name}' has bad dims`)
    const enc = encodeVolume(v, precision)
    const packed = pack(enc.raw)
    sections.push(packed)
    header.volumes.push({
      name: v.name,
      components: v.components,
      dims: [v.dims[0], v.dims[1], v.dims[2]],
      voxelSize: encNum(v.voxelSize),
      origin: [encNum(v.origin[0]), encNum(v.origin[1]), encNum(v.origin[2])],
      precision: enc.precision,
      tiles: enc.tiles,
      ...(enc.background.some((b) => b !== 0) ? { background: enc.background } : {}),
      raw: enc.raw.length,
      packed: packed.length,
    })
  }
  for (const m of frame.meshes) {
    const { raw, header: mh } = encodeMesh(m, `Mesh '${m.name}'`)
    const packed = pack(raw)
    sections.push(packed)
    header.meshes.push({ ...mh, packed: packed.length })
  }
  for (const ps of frame.particles) {
    const attrs = Object.entries(ps.attributes)
    const raw = concat([f32Bytes(ps.positions), ...attrs.map(([, a]) => f32Bytes(a.data))])
    const packed = pack(raw)
    sections.push(packed)
    header.particles.push({
      name: ps.name,
      count: ps.count,
      positions: ps.positions.length,
      attributes: attrs.map(([name, a]) => ({ name, components: a.components, length: a.data.length })),
      raw: raw.length,
      packed: packed.length,
    })
  }
  ;(frame.rigidBodies ?? []).forEach((b, i) => {
    const { raw, header: bh } = encodeRigidBody(b, i)
    const packed = pack(raw)
    sections.push(packed)
    header.rigidBodies!.push({ ...bh, mesh: { ...bh.mesh, packed: packed.length } })
  })
  ;(frame.textures ?? []).forEach((t, i) => {
    const { raw, header: th } = encodeTexture(t, i)
    const packed = pack(raw)
    sections.push(packed)
    header.textures!.push({ ...th, packed: packed.length })
  })
  return assembleRecord(header, sections)
}

/** Prefix + header JSON + sections, with the CRC: the bytes of a record. */
function assembleRecord(header: Header, sections: readonly Uint8Array[]): Uint8Array {
  const headerBytes = encodeUtf8(JSON.stringify(header))
  let payloadLength = 0
  for (const s of sections) payloadLength += s.length
  const out = new Uint8Array(PREFIX + headerBytes.length + payloadLength)
  const dv = new DataView(out.buffer)
  for (let i = 0; i < 4; i++) out[i] = FRAME_RECORD_MAGIC.charCodeAt(i)
  dv.setUint16(4, FRAME_RECORD_VERSION, true)
  dv.setUint16(6, 0, true)
  dv.setUint32(8, headerBytes.length, true)
  dv.setUint32(12, payloadLength, true)
  out.set(headerBytes, PREFIX)
  let o = PREFIX + headerBytes.length
  for (const s of sections) {
    out.set(s, o)
    o += s.length
  }
  dv.setUint32(16, crc32(out, PREFIX, out.length, crc32(out, 0, 16)), true)
  return out
}

// ---------- decode ----------

export interface DecodeFrameOptions {
  /**
   * Names of the volumes to decode; the others are left deflated and absent from the result
   * (the viewport never draws velocity, the largest section of a smoke frame). Default: all.
   * The CRC still covers the whole record, and every section's bounds are still checked.
   */
  volumes?: readonly string[]
}

/** One deflated section of a record: where its bytes are and what it must inflate to. */
interface Section {
  packed: Uint8Array
  raw: number
  what: string
}

/** A record checked down to its sections (prefix, lengths, CRC, header, bounds), not inflated. */
interface ParsedRecord {
  h: Header
  /** Volume i's section, or null when the caller did not ask for that volume. */
  volumes: (Section | null)[]
  meshes: Section[]
  particles: Section[]
  rigidBodies: Section[]
  textures: Section[]
}

function parseRecord(bytes: Uint8Array, opts: DecodeFrameOptions): ParsedRecord {
  if (!(bytes instanceof Uint8Array)) throw corrupt('not a byte array')
  if (bytes.length < PREFIX) throw corrupt(`only ${bytes.length} bytes, shorter than the ${PREFIX}-byte prefix`)
  for (let i = 0; i < 4; i++) if (bytes[i] !== FRAME_RECORD_MAGIC.charCodeAt(i)) throw corrupt("missing the 'EDFR' magic")
  const dv = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  const version = dv.getUint16(4, true)
  if (!READABLE_VERSIONS.includes(version)) throw corrupt(`format version ${version} is not one of ${READABLE_VERSIONS.join(', ')}`)
  if (dv.getUint16(6, true) !== 0) throw corrupt('unknown flags are set')
  const headerLength = dv.getUint32(8, true)
  const payloadLength = dv.getUint32(12, true)
  if (PREFIX + headerLength + payloadLength !== bytes.length) {
    throw corrupt(`record is ${bytes.length} bytes but its lengths say ${PREFIX + headerLength + payloadLength}`)
  }
  const crc = crc32(bytes, PREFIX, bytes.length, crc32(bytes, 0, 16))
  if (crc !== dv.getUint32(16, true)) throw corrupt('CRC mismatch')
  const h = parseHeader(bytes.subarray(PREFIX, PREFIX + headerLength), version)

  let offset = PREFIX + headerLength
  const end = bytes.length
  const take = (packed: number, raw: number, what: string): Section => {
    if (offset + packed > end) throw corrupt(`${what} runs past the end of the record`)
    const sec = { packed: bytes.subarray(offset, offset + packed), raw, what }
    offset += packed
    return sec
  }
  const wanted = opts.volumes === undefined ? null : new Set(opts.volumes)
  // Skipped volumes are bounds-checked only: their bytes are covered by the CRC above.
  const volumes = h.volumes.map((vh, i) => {
    const sec = take(vh.packed, vh.raw, `volume ${i}`)
    return wanted !== null && !wanted.has(vh.name) ? null : sec
  })
  const meshes = h.meshes.map((mh, i) => {
    checkMeshHeader(mh, `mesh ${i}`)
    return take(mh.packed, mh.raw, `mesh ${i}`)
  })
  const particles = h.particles.map((ph, i) => {
    let want = ph.positions
    for (const a of ph.attributes) want += a.length
    if (ph.raw !== 4 * want) throw corrupt(`particle set ${i} size disagrees with its array lengths`)
    return take(ph.packed, ph.raw, `particle set ${i}`)
  })
  const rigidBodies = (h.rigidBodies ?? []).map((bh, i) => {
    const what = `rigid body ${i} ('${bh.name}') mesh`
    checkMeshHeader(bh.mesh, what)
    return take(bh.mesh.packed, bh.mesh.raw, what)
  })
  // parseHeader has checked each texture's size against its dimensions.
  const textures = (h.textures ?? []).map((th, i) => take(th.packed, th.raw, `texture ${i} ('${th.name}')`))
  if (offset !== end) throw corrupt('sections do not fill the payload')
  return { h, volumes, meshes, particles, rigidBodies, textures }
}

/** Checks an inflated section's length (too short, or overlong: see inflateSection). */
function checkInflated(sec: Section, out: Uint8Array): Uint8Array {
  if (out.length !== sec.raw) throw corrupt(`${sec.what} inflates to ${out.length} bytes, expected ${sec.raw}`)
  return out
}

function inflateSection(sec: Section): Uint8Array {
  let out: Uint8Array
  try {
    // One spare byte: given a buffer, fflate silently stops at its end, so an overlong
    // stream shows up as raw + 1 bytes rather than passing as exactly raw.
    out = inflateSync(sec.packed, { out: new Uint8Array(sec.raw + 1) })
  } catch {
    throw corrupt(`${sec.what} does not inflate`)
  }
  return checkInflated(sec, out)
}

/** The frame from a parsed record and its sections' inflated bytes (same order as parsed). */
function assemble(p: ParsedRecord, inflated: Map<Section, Uint8Array>): FrameData {
  const { h } = p
  const volumes: Volume[] = []
  h.volumes.forEach((vh, i) => {
    const sec = p.volumes[i]
    if (!sec) return
    volumes.push({
      name: vh.name,
      components: vh.components,
      dims: vh.dims,
      voxelSize: vh.voxelSize as number,
      origin: vh.origin as [number, number, number],
      data: decodeVolume(vh, inflated.get(sec)!, i),
    })
  })
  const meshes: FrameMesh[] = h.meshes.map((mh, i) => decodeMesh(mh, inflated.get(p.meshes[i])!))
  const particles: ParticleSet[] = h.particles.map((ph, i) => {
    const raw = inflated.get(p.particles[i])!
    let o = ph.positions * 4
    const attributes = Object.fromEntries(
      ph.attributes.map((a) => {
        const data = readF32(raw, o, a.length)
        o += a.length * 4
        return [a.name, { components: a.components, data }]
      }),
    )
    return { name: ph.name, count: ph.count, positions: readF32(raw, 0, ph.positions), attributes }
  })
  const rigidBodies: RigidBodyState[] = (h.rigidBodies ?? []).map((bh, i) => decodeRigidBody(bh, inflated.get(p.rigidBodies[i])!))
  const textures: FrameTexture[] = (h.textures ?? []).map((th, i) => decodeTexture(th, inflated.get(p.textures[i])!))
  return {
    time: h.time as number,
    frame: h.frame as number,
    volumes,
    meshes,
    particles,
    ...(rigidBodies.length > 0 ? { rigidBodies } : {}),
    ...(textures.length > 0 ? { textures } : {}),
    stats: Object.fromEntries(h.stats) as Record<string, number>,
  }
}

function sectionsOf(p: ParsedRecord): Section[] {
  return [...p.volumes.filter((s): s is Section => s !== null), ...p.meshes, ...p.particles, ...p.rigidBodies, ...p.textures]
}

/** The frame back from encodeFrame's bytes; throws PROJECT_FORMAT on any corruption. */
export function decodeFrame(bytes: Uint8Array, opts: DecodeFrameOptions = {}): FrameData {
  const p = parseRecord(bytes, opts)
  return assemble(p, new Map(sectionsOf(p).map((s) => [s, inflateSection(s)])))
}

/**
 * The same record without its volumes (checked first: a damaged record is refused, not
 * re-signed). The viewport needs only the particles, meshes, rigid bodies and textures of a
 * smoke frame that has a preview, and the velocity volume alone is most of a smoke record's bytes.
 * The result is always a current-version record (older headers gain nothing but the version).
 */
export function withoutVolumes(bytes: Uint8Array): Uint8Array {
  const p = parseRecord(bytes, { volumes: [] })
  const h = p.h
  const header: Header = {
    time: encNum(h.time as number),
    frame: encNum(h.frame as number),
    precision: h.precision,
    stats: h.stats.map(([k, v]) => [k, encNum(v as number)]),
    volumes: [],
    meshes: h.meshes,
    particles: h.particles,
    rigidBodies: (h.rigidBodies ?? []).map((b) => ({
      ...b,
      position: (b.position as number[]).map(encNum),
      orientation: (b.orientation as number[]).map(encNum),
      linearVelocity: (b.linearVelocity as number[]).map(encNum),
      angularVelocity: (b.angularVelocity as number[]).map(encNum),
    })),
    textures: h.textures ?? [],
  }
  const kept = [...p.meshes, ...p.particles, ...p.rigidBodies, ...p.textures]
  return assembleRecord(header, kept.map((s) => s.packed))
}
