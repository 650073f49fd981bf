// The compact binary record a baked frame is stored as in the project's SQLite frame cache
// (one row per frame). Pure TypeScript: fflate for deflate, hand-written little-endian code.
//
// Layout (all integers little-endian):
//   0  'EDFR'                      magic
//   4  u16 version (= 2)           a newer version is refused, not guessed at; version 1
//                                  records (no background) are still read
//   6  u16 flags (= 0)
//   8  u32 headerLength            bytes of UTF-8 JSON header
//  12  u32 payloadLength           bytes of the concatenated sections
//  16  u32 crc32                   CRC-32 (IEEE) of bytes [0,16) + [20, end)
//  20  header JSON                 names, dims, voxel size, origin, precision, stats, counts,
//                                  and each section's raw and deflated length
//  ..  sections, in order: one per volume, one per mesh, one per particle set, each raw
//      deflate (RFC 1951) of:
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
//   mesh:     positions f32[] | indices u32[] | normals f32[] (lengths in the header)
//   particles: positions f32[] | each attribute's f32[] in header order
//
// Any truncated or garbled record throws EddyError('PROJECT_FORMAT', 'Cached frame record is
// corrupt: <what>'): magic, version, flags, lengths, the CRC, the header's shape, inflate
// errors and decompressed sizes are all checked before any data is trusted.
import { deflateSync, inflateSync } from 'fflate'
import { EddyError } from '../../api/errors'
import type { FrameData, FrameMesh, ParticleSet, Volume } from '../../sim/frame'
import { encodeUtf8 } from '../openvdb/bytes'
import { decodeUtf8 } from '../textBytes'
import { crc32 } from './crc32'
import { halfTable, toHalf } from './float16'

export { crc32 } from './crc32'
export { toHalf, fromHalf } from './float16'

export type FramePrecision = 'float32' | 'float16' | 'uint8'

export interface EncodeFrameOptions {
  /** How volume values are stored (meshes and particles are always float32). Default float32. */
  precision?: FramePrecision
  /** Deflate level 0-9. Default 1 (see tests/bench/frameRecord.bench.ts). */
  level?: number
}

export const FRAME_RECORD_MAGIC = 'EDFR'
export const FRAME_RECORD_VERSION = 2
export const FRAME_TILE = 8
const PREFIX = 20
const MAX_ELEMENTS = 2 ** 30

const HOST_LE = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1

// ---------- header shapes ----------

type Num = number | string // non-finite numbers and -0 travel as strings in JSON

interface VolumeHeader {
  name: string
  components: 1 | 3
  dims: [number, number, number]
  voxelSize: Num
  origin: [Num, Num, Num]
  precision: FramePrecision
  tiles: number // stored (non-background) tiles
  /** Float32 bit pattern of the background per component; absent = all +0 (version 1). */
  background?: number[]
  raw: number
  packed: number
}
interface MeshHeader {
  name: string
  positions: number
  indices: number
  normals: number | null
  raw: number
  packed: number
}
interface ParticleHeader {
  name: string
  count: number
  positions: number
  attributes: { name: string; components: number; length: number }[]
  raw: number
  packed: number
}
interface Header {
  time: Num
  frame: Num
  precision: FramePrecision
  stats: [string, Num][]
  volumes: VolumeHeader[]
  meshes: MeshHeader[]
  particles: ParticleHeader[]
}

function encNum(v: number): Num {
  if (Object.is(v, -0)) return '-0'
  return Number.isFinite(v) ? v : String(v)
}

// ---------- errors ----------

function corrupt(what: string): EddyError {
  return new EddyError('PROJECT_FORMAT', `Cached frame record is corrupt: ${what}`)
}

// ---------- little-endian bulk bytes ----------

function f32Bytes(a: Float32Array): Uint8Array {
  if (HOST_LE) return new Uint8Array(a.buffer, a.byteOffset, a.byteLength)
  const out = new Uint8Array(a.length * 4)
  const dv = new DataView(out.buffer)
  for (let i = 0; i < a.length; i++) dv.setFloat32(i * 4, a[i], true)
  return out
}

function u32Bytes(a: Uint32Array): Uint8Array {
  if (HOST_LE) return new Uint8Array(a.buffer, a.byteOffset, a.byteLength)
  const out = new Uint8Array(a.length * 4)
  const dv = new DataView(out.buffer)
  for (let i = 0; i < a.length; i++) dv.setUint32(i * 4, a[i], true)
  return out
}

function readF32(src: Uint8Array, offset: number, length: number): Float32Array {
  const out = new Float32Array(length)
  if (HOST_LE) new Uint8Array(out.buffer).set(src.subarray(offset, offset + length * 4))
  else {
    const dv = new DataView(src.buffer, src.byteOffset + offset, length * 4)
    for (let i = 0; i < length; i++) out[i] = dv.getFloat32(i * 4, true)
  }
  return out
}

function readU32(src: Uint8Array, offset: number, length: number): Uint32Array {
  const out = new Uint32Array(length)
  if (HOST_LE) new Uint8Array(out.buffer).set(src.subarray(offset, offset + length * 4))
  else {
    const dv = new DataView(src.buffer, src.byteOffset + offset, length * 4)
    for (let i = 0; i < length; i++) out[i] = dv.getUint32(i * 4, true)
  }
  return out
}

function concat(parts: Uint8Array[]): Uint8Array {
  let n = 0
  for (const p of parts) n += p.length
  const out = new Uint8Array(n)
  let o = 0
  for (const p of parts) {
    out.set(p, o)
    o += p.length
  }
  return out
}

// ---------- tiles ----------

interface TileGrid {
  nx: number
  ny: number
  nz: number
  tx: number
  ty: number
  tz: number
  count: number
}

function tileGrid(dims: [number, number, number]): TileGrid {
  const [nx, ny, nz] = dims
  const tx = Math.ceil(nx / FRAME_TILE)
  const ty = Math.ceil(ny / FRAME_TILE)
  const tz = Math.ceil(nz / FRAME_TILE)
  return { nx, ny, nz, tx, ty, tz, count: tx * ty * tz }
}

/** Calls visit(rowStart, rowLength) for every x-row of tile t, in storage order (lengths in values). */
function forEachTileRow(g: TileGrid, t: number, comps: number, visit: (start: number, len: number) => void): void {
  const a = t % g.tx
  const b = Math.floor(t / g.tx) % g.ty
  const c = Math.floor(t / (g.tx * g.ty))
  const x0 = a * FRAME_TILE
  const y0 = b * FRAME_TILE
  const z0 = c * FRAME_TILE
  const sx = Math.min(FRAME_TILE, g.nx - x0)
  const y1 = Math.min(y0 + FRAME_TILE, g.ny)
  const z1 = Math.min(z0 + FRAME_TILE, g.nz)
  for (let k = z0; k < z1; k++) for (let j = y0; j < y1; j++) visit((x0 + g.nx * (j + g.ny * k)) * comps, sx * comps)
}

function tileValues(g: TileGrid, t: number, comps: number): number {
  const a = t % g.tx
  const b = Math.floor(t / g.tx) % g.ty
  const c = Math.floor(t / (g.tx * g.ty))
  return (
    Math.min(FRAME_TILE, g.nx - a * FRAME_TILE) * Math.min(FRAME_TILE, g.ny - b * FRAME_TILE) * Math.min(FRAME_TILE, g.nz - c * FRAME_TILE) * comps
  )
}

function valueBytes(precision: FramePrecision, values: number, tiles: number): number {
  if (precision === 'float32') return values * 4
  if (precision === 'float16') return values * 2
  return tiles * 8 + values
}

function encodeVolume(v: Volume, requested: FramePrecision): { raw: Uint8Array; tiles: number; precision: FramePrecision; background: number[] } {
  const comps = v.components
  const g = tileGrid(v.dims)
  const expected = g.nx * g.ny * g.nz * comps
  if (v.data.length !== expected) {
    throw new EddyError('INVALID_PARAM', `Volume '${v.name}' has ${v.data.length} values, expected ${expected}`)
  }
  // One pass over the tiles: copy each tile's rows to the end of `gathered` while checking
  // for a bit pattern other than the background's; an all-background tile is dropped by
  // rewinding.
  const src = v.data
  const bits = new Uint32Array(src.buffer, src.byteOffset, src.length)
  const bg0 = bits.length > 0 ? bits[0] : 0
  const bg1 = comps === 3 && bits.length > 2 ? bits[1] : bg0
  const bg2 = comps === 3 && bits.length > 2 ? bits[2] : bg0
  const background = comps === 3 ? [bg0, bg1, bg2] : [bg0]
  const bitmap = new Uint8Array(Math.ceil(g.count / 8))
  const all = new Float32Array(src.length)
  const allBits = new Uint32Array(all.buffer)
  const tileEndList: number[] = []
  let stored = 0
  let p = 0
  let t = 0
  for (let z0 = 0; z0 < g.nz; z0 += FRAME_TILE) {
    const z1 = Math.min(z0 + FRAME_TILE, g.nz)
    for (let y0 = 0; y0 < g.ny; y0 += FRAME_TILE) {
      const y1 = Math.min(y0 + FRAME_TILE, g.ny)
      for (let x0 = 0; x0 < g.nx; x0 += FRAME_TILE, t++) {
        const len = (Math.min(x0 + FRAME_TILE, g.nx) - x0) * comps
        const start = p
        let any = 0
        for (let k = z0; k < z1; k++) {
          for (let j = y0; j < y1; j++) {
            const s = (x0 + g.nx * (j + g.ny * k)) * comps
            if (comps === 1) {
              for (let i = 0; i < len; i++) {
                const b = bits[s + i]
                allBits[p++] = b
                any |= b ^ bg0
              }
            } else {
              for (let i = 0; i < len; i += 3) {
                const b0 = bits[s + i]
                const b1 = bits[s + i + 1]
                const b2 = bits[s + i + 2]
                allBits[p++] = b0
                allBits[p++] = b1
                allBits[p++] = b2
                any |= (b0 ^ bg0) | (b1 ^ bg1) | (b2 ^ bg2)
              }
            }
          }
        }
        if (any === 0) {
          p = start
          continue
        }
        bitmap[t >> 3] |= 1 << (t & 7)
        stored++
        tileEndList.push(p)
      }
    }
  }
  const values = p
  const gathered = all.subarray(0, values)
  const tileEnd = tileEndList
  let finite = true
  let precision = requested
  if (precision === 'uint8') {
    let lo = 0
    let hi = 0
    for (let i = 0; i < values; i++) {
      const x = gathered[i]
      if (!Number.isFinite(x)) {
        finite = false
        break
      }
      if (x < lo) lo = x
      else if (x > hi) hi = x
    }
    // A tile range beyond float range (|values| near 3.4e38 of both signs) cannot be quantised either.
    if (!finite || !Number.isFinite(hi - lo)) precision = 'float32'
  }
  const out = new Uint8Array(bitmap.length + valueBytes(precision, values, stored))
  out.set(bitmap, 0)
  const o = bitmap.length
  if (precision === 'float32') {
    // Byte planes from the bit patterns (host endianness never shows: u32 -> LE bytes).
    const o1 = o + values
    const o2 = o1 + values
    const o3 = o2 + values
    for (let i = 0; i < values; i++) {
      const b = allBits[i]
      out[o + i] = b
      out[o1 + i] = b >>> 8
      out[o2 + i] = b >>> 16
      out[o3 + i] = b >>> 24
    }
  } else if (precision === 'float16') {
    for (let i = 0; i < values; i++) {
      const h = toHalf(gathered[i])
      out[o + i] = h & 0xff
      out[o + values + i] = h >>> 8
    }
  } else {
    const dv = new DataView(out.buffer, out.byteOffset + o, stored * 8)
    const q0 = o + stored * 8
    let start = 0
    for (let n = 0; n < stored; n++) {
      const end = tileEnd[n]
      let lo = Infinity
      let hi = -Infinity
      for (let i = start; i < end; i++) {
        const x = gathered[i]
        if (x < lo) lo = x
        if (x > hi) hi = x
      }
      dv.setFloat32(n * 8, lo, true)
      dv.setFloat32(n * 8 + 4, hi, true)
      const range = hi - lo
      const scale = range > 0 ? 255 / range : 0
      for (let i = start; i < end; i++) out[q0 + i] = Math.round((gathered[i] - lo) * scale)
      start = end
    }
  }
  return { raw: out, tiles: stored, precision, background }
}

function decodeVolume(h: VolumeHeader, raw: Uint8Array, index: number): Float32Array {
  const comps = h.components
  const g = tileGrid(h.dims)
  const bitmapLength = Math.ceil(g.count / 8)
  if (raw.length < bitmapLength) throw corrupt(`volume ${index} tile bitmap is truncated`)
  const stored: number[] = []
  let values = 0
  for (let t = 0; t < bitmapLength * 8; t++) {
    if (!(raw[t >> 3] & (1 << (t & 7)))) continue
    if (t >= g.count) throw corrupt(`volume ${index} tile bitmap marks a tile outside the grid`)
    stored.push(t)
    values += tileValues(g, t, comps)
  }
  if (stored.length !== h.tiles) throw corrupt(`volume ${index} tile bitmap disagrees with the tile count`)
  if (raw.length !== bitmapLength + valueBytes(h.precision, values, stored.length)) {
    throw corrupt(`volume ${index} tile data has the wrong length`)
  }
  const o = bitmapLength
  const gathered = new Float32Array(values)
  if (h.precision === 'float32') {
    const bits = new Uint32Array(gathered.buffer)
    const o1 = o + values
    const o2 = o1 + values
    const o3 = o2 + values
    for (let i = 0; i < values; i++) bits[i] = (raw[o + i] | (raw[o1 + i] << 8) | (raw[o2 + i] << 16) | (raw[o3 + i] << 24)) >>> 0
  } else if (h.precision === 'float16') {
    const table = halfTable()
    for (let i = 0; i < values; i++) gathered[i] = table[raw[o + i] | (raw[o + values + i] << 8)]
  } else {
    const dv = new DataView(raw.buffer, raw.byteOffset + o, stored.length * 8)
    const q0 = o + stored.length * 8
    let start = 0
    for (let n = 0; n < stored.length; n++) {
      const end = start + tileValues(g, stored[n], comps)
      const lo = dv.getFloat32(n * 8, true)
      const hi = dv.getFloat32(n * 8 + 4, true)
      if (!(lo <= hi) || !Number.isFinite(hi - lo)) throw corrupt(`volume ${index} tile ${n} has a bad value range`)
      const step = (hi - lo) / 255
      for (let i = start; i < end; i++) gathered[i] = lo + raw[q0 + i] * step
      start = end
    }
  }
  const data = new Float32Array(g.nx * g.ny * g.nz * comps)
  const bg = h.background
  if (bg && bg.some((b) => b !== 0)) {
    const bits = new Uint32Array(data.buffer)
    if (comps === 1) bits.fill(bg[0])
    else for (let i = 0; i < bits.length; i += 3) (bits[i] = bg[0]), (bits[i + 1] = bg[1]), (bits[i + 2] = bg[2])
  }
  let p = 0
  for (const t of stored) {
    forEachTileRow(g, t, comps, (s, len) => {
      for (let i = 0; i < len; i++) data[s + i] = gathered[p + i]
      p += len
    })
  }
  return data
}

// ---------- encode ----------

/** The frame as one self-checking binary record (see the layout above). */
export function encodeFrame(frame: FrameData, opts: EncodeFrameOptions = {}): Uint8Array {
  const precision = opts.precision ?? 'float32'
  if (precision !== 'float32' && precision !== 'float16' && precision !== 'uint8') {
    throw new EddyError('INVALID_PARAM', `Unknown frame precision '${String(precision)}'`)
  }
  const level = opts.level ?? 1
  if (!Number.isInteger(level) || level < 0 || level > 9) throw new EddyError('INVALID_PARAM', `Deflate level must be an integer 0-9, got ${level}`)
  const pack = (raw: Uint8Array): Uint8Array => deflateSync(raw, { level: level as 0 })
  const sections: Uint8Array[] = []
  const header: Header = {
    time: encNum(frame.time),
    frame: encNum(frame.frame),
    precision,
    stats: Object.entries(frame.stats).map(([k, v]) => [k, encNum(v)]),
    volumes: [],
    meshes: [],
    particles: [],
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
    const raw = concat([f32Bytes(m.positions), u32Bytes(m.indices), ...(m.normals ? [f32Bytes(m.normals)] : [])])
    const packed = pack(raw)
    sections.push(packed)
    header.meshes.push({
      name: m.name,
      positions: m.positions.length,
      indices: m.indices.length,
      normals: m.normals ? m.normals.length : null,
      raw: raw.length,
      packed: packed.length,
    })
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

// ---------- header validation ----------

function isObj(x: unknown): x is Record<string, unknown> {
  return typeof x === 'object' && x !== null && !Array.isArray(x)
}
function count(x: unknown, what: string): number {
  if (typeof x !== 'number' || !Number.isInteger(x) || x < 0 || x > MAX_ELEMENTS * 4) throw corrupt(`${what} is not a valid count`)
  return x
}
function num(x: unknown, what: string): number {
  if (typeof x === 'number') return x
  if (x === '-0') return -0
  if (x === 'NaN') return NaN
  if (x === 'Infinity') return Infinity
  if (x === '-Infinity') return -Infinity
  throw corrupt(`${what} is not a number`)
}
function str(x: unknown, what: string): string {
  if (typeof x !== 'string') throw corrupt(`${what} is not a string`)
  return x
}
function arr(x: unknown, what: string): unknown[] {
  if (!Array.isArray(x)) throw corrupt(`${what} is not a list`)
  return x
}
function precisionOf(x: unknown, what: string): FramePrecision {
  if (x !== 'float32' && x !== 'float16' && x !== 'uint8') throw corrupt(`${what} is not a known precision`)
  return x
}

function parseHeader(bytes: Uint8Array): Header {
  let h: unknown
  try {
    h = JSON.parse(decodeUtf8(bytes))
  } catch {
    throw corrupt('header is not valid JSON')
  }
  if (!isObj(h)) throw corrupt('header is not an object')
  const stats = arr(h.stats, 'stats').map((e, i) => {
    const pair = arr(e, `stat ${i}`)
    if (pair.length !== 2) throw corrupt(`stat ${i} is malformed`)
    return [str(pair[0], `stat ${i} name`), num(pair[1], `stat ${i}`)] as [string, number]
  })
  const volumes = arr(h.volumes, 'volumes').map((x, i): VolumeHeader => {
    if (!isObj(x)) throw corrupt(`volume ${i} header is not an object`)
    const components = x.components
    if (components !== 1 && components !== 3) throw corrupt(`volume ${i} has ${String(components)} components`)
    const d = arr(x.dims, `volume ${i} dims`)
    if (d.length !== 3) throw corrupt(`volume ${i} dims are malformed`)
    const dims: [number, number, number] = [count(d[0], `volume ${i} dims`), count(d[1], `volume ${i} dims`), count(d[2], `volume ${i} dims`)]
    if (dims[0] * dims[1] * dims[2] * components > MAX_ELEMENTS) throw corrupt(`volume ${i} is impossibly large`)
    const or = arr(x.origin, `volume ${i} origin`)
    if (or.length !== 3) throw corrupt(`volume ${i} origin is malformed`)
    return {
      name: str(x.name, `volume ${i} name`),
      components,
      dims,
      voxelSize: num(x.voxelSize, `volume ${i} voxel size`),
      origin: [num(or[0], `volume ${i} origin`), num(or[1], `volume ${i} origin`), num(or[2], `volume ${i} origin`)],
      precision: precisionOf(x.precision, `volume ${i} precision`),
      tiles: count(x.tiles, `volume ${i} tile count`),
      ...(x.background === undefined ? {} : { background: backgroundBits(x.background, components, i) }),
      raw: count(x.raw, `volume ${i} size`),
      packed: count(x.packed, `volume ${i} packed size`),
    }
  })
  const meshes = arr(h.meshes, 'meshes').map((x, i): MeshHeader => {
    if (!isObj(x)) throw corrupt(`mesh ${i} header is not an object`)
    return {
      name: str(x.name, `mesh ${i} name`),
      positions: count(x.positions, `mesh ${i} positions`),
      indices: count(x.indices, `mesh ${i} indices`),
      normals: x.normals === null ? null : count(x.normals, `mesh ${i} normals`),
      raw: count(x.raw, `mesh ${i} size`),
      packed: count(x.packed, `mesh ${i} packed size`),
    }
  })
  const particles = arr(h.particles, 'particles').map((x, i): ParticleHeader => {
    if (!isObj(x)) throw corrupt(`particle set ${i} header is not an object`)
    return {
      name: str(x.name, `particle set ${i} name`),
      count: count(x.count, `particle set ${i} count`),
      positions: count(x.positions, `particle set ${i} positions`),
      attributes: arr(x.attributes, `particle set ${i} attributes`).map((a, j) => {
        if (!isObj(a)) throw corrupt(`particle set ${i} attribute ${j} is not an object`)
        return {
          name: str(a.name, `particle set ${i} attribute ${j} name`),
          components: count(a.components, `particle set ${i} attribute ${j} components`),
          length: count(a.length, `particle set ${i} attribute ${j} length`),
        }
      }),
      raw: count(x.raw, `particle set ${i} size`),
      packed: count(x.packed, `particle set ${i} packed size`),
    }
  })
  return {
    time: num(h.time, 'time'),
    frame: num(h.frame, 'frame number'),
    precision: precisionOf(h.precision, 'precision'),
    stats,
    volumes,
    meshes,
    particles,
  }
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

function backgroundBits(v: unknown, components: number, i: number): number[] {
  if (!Array.isArray(v) || v.length !== components || !v.every((b) => Number.isInteger(b) && b >= 0 && b <= 0xffffffff)) {
    throw corrupt(`volume ${i} background is malformed`)
  }
  return v as number[]
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
}

function parseRecord(bytes: Uint8Array, opts: DecodeFrameOptions): ParsedRecord {
  if (!(bytes instanceof Uint8Array)) throw corrupt('not a byte array')
  if (bytes.length < PREFIX) throw corrupt(`only ${bytes.length} bytes, shorter than the ${PREFIX}-byte prefix`)
  for (let i = 0; i < 4; i++) if (bytes[i] !== FRAME_RECORD_MAGIC.charCodeAt(i)) throw corrupt("missing the 'EDFR' magic")
  const dv = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  const version = dv.getUint16(4, true)
  if (version !== 1 && version !== FRAME_RECORD_VERSION) throw corrupt(`format version ${version} is not 1 or ${FRAME_RECORD_VERSION}`)
  if (dv.getUint16(6, true) !== 0) throw corrupt('unknown flags are set')
  const headerLength = dv.getUint32(8, true)
  const payloadLength = dv.getUint32(12, true)
  if (PREFIX + headerLength + payloadLength !== bytes.length) {
    throw corrupt(`record is ${bytes.length} bytes but its lengths say ${PREFIX + headerLength + payloadLength}`)
  }
  const crc = crc32(bytes, PREFIX, bytes.length, crc32(bytes, 0, 16))
  if (crc !== dv.getUint32(16, true)) throw corrupt('CRC mismatch')
  const h = parseHeader(bytes.subarray(PREFIX, PREFIX + headerLength))

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
    const want = 4 * (mh.positions + mh.indices + (mh.normals ?? 0))
    if (mh.raw !== want) throw corrupt(`mesh ${i} size disagrees with its array lengths`)
    return take(mh.packed, mh.raw, `mesh ${i}`)
  })
  const particles = h.particles.map((ph, i) => {
    let want = ph.positions
    for (const a of ph.attributes) want += a.length
    if (ph.raw !== 4 * want) throw corrupt(`particle set ${i} size disagrees with its array lengths`)
    return take(ph.packed, ph.raw, `particle set ${i}`)
  })
  if (offset !== end) throw corrupt('sections do not fill the payload')
  return { h, volumes, meshes, particles }
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
  const meshes: FrameMesh[] = h.meshes.map((mh, i) => {
    const raw = inflated.get(p.meshes[i])!
    const m: FrameMesh = {
      name: mh.name,
      positions: readF32(raw, 0, mh.positions),
      indices: readU32(raw, mh.positions * 4, mh.indices),
    }
    if (mh.normals !== null) m.normals = readF32(raw, 4 * (mh.positions + mh.indices), mh.normals)
    return m
  })
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
  return {
    time: h.time as number,
    frame: h.frame as number,
    volumes,
    meshes,
    particles,
    stats: Object.fromEntries(h.stats) as Record<string, number>,
  }
}

function sectionsOf(p: ParsedRecord): Section[] {
  return [...p.volumes.filter((s): s is Section => s !== null), ...p.meshes, ...p.particles]
}

/** The frame back from encodeFrame's bytes; throws PROJECT_FORMAT on any corruption. */
export function decodeFrame(bytes: Uint8Array, opts: DecodeFrameOptions = {}): FrameData {
  const p = parseRecord(bytes, opts)
  return assemble(p, new Map(sectionsOf(p).map((s) => [s, inflateSection(s)])))
}

/**
 * The same record without its volumes (checked first: a damaged record is refused, not
 * re-signed). The viewport needs only the particles and meshes of a smoke frame that has a
 * preview, and the velocity volume alone is most of a smoke record's bytes.
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
  }
  return assembleRecord(header, [...p.meshes.map((m) => m.packed), ...p.particles.map((q) => q.packed)])
}
