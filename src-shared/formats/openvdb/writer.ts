// OpenVDB (.vdb) writer for dense cell-centred grids, pure TypeScript -> Uint8Array.
//
// Writes file format version 224 (OpenVDB 6+ layout; OpenVDB 10 reads it) with per-grid
// compression NONE, or ZIP when the host supplies a zlib compressor; 32-bit floats, or halves
// per grid (`saveAsHalf`); the standard 5-4-3 tree (root -> 32³ internal -> 16³ internal ->
// 8³ leaf). No active-mask compression (every value array is written whole, metadata byte 6),
// no Blosc, no tiles (all active data lives in leaves). Layout, after openvdb/io/Archive.cc,
// GridDescriptor.cc, Compression.h and tree/{RootNode,InternalNode,LeafNode}.h:
//
//   header   int64 magic 0x56444220 | uint32 file version | uint32 lib major | uint32 lib minor
//            | char hasGridOffsets (1) | 36 ASCII chars UUID
//   file metadata (MetaMap) | int32 grid count
//   per grid:
//     descriptor   string name | string type ("Tree_float_5_4_3") | string instance parent ("")
//                  | int64 gridPos | int64 blockPos | int64 endPos   (absolute byte offsets)
//     [gridPos]    uint32 compression flags (0 = none, 1 = zip)
//                  grid metadata (MetaMap) | transform (string map type, then 6 Vec3d, see below)
//                  topology: int32 buffer count (1) | root: background, uint32 #tiles,
//                    uint32 #children, per child int32[3] origin + 32³-node topology
//                    (child mask, value mask, metadata byte 6, 32768 values, children...);
//                    16³ nodes alike (4096 values); leaves: their 64-byte value mask only
//     [blockPos]   buffers: per leaf (same depth-first order) value mask, byte 6, 512 values
//     [endPos]
//   strings are uint32 length + bytes; MetaMap is int32 count, then per entry string name,
//   string type name, uint32 value size, value bytes. Node masks are uint64 words, bit n of
//   the mask = bit (n & 63) of word n >> 6; n = x·D² + y·D + z of the local (child) coords.
//   Value arrays: float32 (or binary16 for `_HalfFloat` grids) little-endian; with ZIP each
//   array is int64 zlib size + zlib stream (or int64 -rawSize + raw bytes when not smaller).

import { ByteWriter } from './bytes'

export const VDB_MAGIC = 0x56444220
export const VDB_FILE_VERSION = 224
export const VDB_LIBRARY_VERSION: readonly [number, number] = [10, 0]
/** Metadata byte before every value array: no mask compression, all values follow. */
export const NO_MASK_AND_ALL_VALS = 6
export const COMPRESS_NONE = 0
export const COMPRESS_ZIP = 0x1

export type VdbGridClass = 'fog volume' | 'level set' | 'staggered' | 'unknown'
export type VdbVectorType = 'invariant' | 'covariant' | 'covariant normalize' | 'contravariant relative' | 'contravariant absolute'

export interface VdbGrid {
  name: string
  type: 'float' | 'vec3s'
  /** Cells along x, y, z. */
  dims: [number, number, number]
  /** Cell edge length (world units); the grid uses a UniformScaleTranslateMap. */
  voxelSize: number
  /**
   * World position of cell (0,0,0)'s MINIMUM CORNER (the convention of sim `Volume`).
   * OpenVDB puts voxel centres at index·voxelSize + translation, so the written translation is
   * origin + voxelSize/2 and cell (i,j,k) becomes VDB voxel (i,j,k).
   */
  origin: [number, number, number]
  /** Cell values, index i + nx·(j + ny·k); vec3s components interleaved. */
  data: Float32Array
  /** Background (outside and inactive) value; vec3s uses (b,b,b). Default 0. */
  background?: number
  /**
   * Cells whose |value - background| (vec3s: length of the difference from (b,b,b)) is <= this
   * are inactive; leaves without any active cell are not written (sparse). Default 0, i.e.
   * cells exactly at the background are skipped. Level sets ignore it: their narrow band
   * |value| < background is active.
   */
  activeThreshold?: number
  /** Default 'fog volume' for float, 'unknown' for vec3s; 'level set' needs a positive background. */
  gridClass?: VdbGridClass
  /** vec3s only; default 'invariant'. */
  vectorType?: VdbVectorType
  /**
   * Store node and leaf values as 16-bit halves (type name gets the `_HalfFloat` suffix,
   * `is_saved_as_half_float` is true; OpenVDB widens them back to float on read). The root's
   * background stays 32-bit but is rounded to half precision, as OpenVDB does. Default false.
   */
  saveAsHalf?: boolean
}

export interface VdbWriteOptions {
  /** 36-character UUID for the header (default: random v4). Fixed values give byte-stable files. */
  uuid?: string
  /** File-level `creator` metadata (default 'Eddy'); '' omits it. */
  creator?: string
  /**
   * zlib (RFC 1950, i.e. zlib `compress2`) compressor. When given, grids are written with
   * COMPRESS_ZIP: each value array becomes int64 compressed size + zlib stream (or, when that is
   * not smaller, int64 -rawSize + raw bytes). src-shared has no zlib; the host passes one, e.g.
   * `(b) => zlib.deflateSync(b)` from node:zlib.
   */
  deflate?: (raw: Uint8Array) => Uint8Array
}

/** What was written for one grid (also handy for tests and UI summaries). */
export interface VdbGridSummary {
  name: string
  activeVoxels: number
  leafCount: number
  /** Index-space bounding box of active voxels (inclusive), undefined when empty. */
  bboxMin?: [number, number, number]
  bboxMax?: [number, number, number]
}

export function writeVdb(grids: VdbGrid[], opts: VdbWriteOptions = {}): Uint8Array {
  return writeVdbWithSummary(grids, opts).bytes
}

export function writeVdbWithSummary(grids: VdbGrid[], opts: VdbWriteOptions = {}): { bytes: Uint8Array; grids: VdbGridSummary[] } {
  const names = new Set<string>()
  for (const g of grids) {
    validateGrid(g)
    if (names.has(g.name)) throw new Error(`writeVdb: duplicate grid name "${g.name}"`)
    names.add(g.name)
  }
  const uuid = opts.uuid ?? randomUuid()
  if (uuid.length !== 36 || !/^[\x20-\x7e]{36}$/.test(uuid)) throw new Error('writeVdb: uuid must be 36 ASCII characters')

  const w = new ByteWriter(1 << 20)
  // Header (Archive::writeHeader).
  w.i64(VDB_MAGIC)
  w.u32(VDB_FILE_VERSION)
  w.u32(VDB_LIBRARY_VERSION[0])
  w.u32(VDB_LIBRARY_VERSION[1])
  w.u8(1) // hasGridOffsets
  w.chars(uuid)
  // File metadata.
  const creator = opts.creator ?? 'Eddy'
  const fileMeta: Meta[] = creator ? [{ name: 'creator', type: 'string', value: creator }] : []
  writeMetaMap(w, fileMeta)
  w.i32(grids.length)

  const summaries: VdbGridSummary[] = []
  for (const g of grids) summaries.push(writeGrid(w, g, opts.deflate))
  return { bytes: w.finish(), grids: summaries }
}

// ---------------------------------------------------------------------------------------------

function validateGrid(g: VdbGrid): void {
  if (!g.name) throw new Error('writeVdb: grid name must be non-empty')
  if (g.type !== 'float' && g.type !== 'vec3s') throw new Error(`writeVdb: grid "${g.name}": unsupported type ${String(g.type)}`)
  for (const d of g.dims) {
    if (!Number.isInteger(d) || d < 0) throw new Error(`writeVdb: grid "${g.name}": dims must be non-negative integers`)
  }
  const comps = g.type === 'vec3s' ? 3 : 1
  const n = g.dims[0] * g.dims[1] * g.dims[2] * comps
  if (g.data.length !== n) throw new Error(`writeVdb: grid "${g.name}": data has ${g.data.length} values, expected ${n}`)
  if (!(g.voxelSize > 0) || !Number.isFinite(g.voxelSize)) throw new Error(`writeVdb: grid "${g.name}": voxelSize must be > 0`)
  if (!g.origin.every(Number.isFinite)) throw new Error(`writeVdb: grid "${g.name}": origin must be finite`)
  if (g.gridClass === 'level set' && !((g.background ?? 0) > 0)) throw new Error(`writeVdb: grid "${g.name}": a level set needs a positive background (the narrow band's half-width)`)
}

type Meta =
  | { name: string; type: 'string'; value: string }
  | { name: string; type: 'bool'; value: boolean }
  | { name: string; type: 'int64'; value: number }
  | { name: string; type: 'vec3i'; value: [number, number, number] }

function writeMetaMap(w: ByteWriter, entries: Meta[]): void {
  // OpenVDB's MetaMap is a std::map, so entries come out sorted by name.
  const sorted = [...entries].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
  w.i32(sorted.length)
  for (const m of sorted) {
    w.str(m.name)
    w.str(m.type)
    switch (m.type) {
      case 'string':
        w.str(m.value) // size prefix = byte length, then the bytes
        break
      case 'bool':
        w.u32(1)
        w.u8(m.value ? 1 : 0)
        break
      case 'int64':
        w.u32(8)
        w.i64(m.value)
        break
      case 'vec3i':
        w.u32(12)
        for (const v of m.value) w.i32(v)
        break
    }
  }
}

interface Leaf {
  origin: [number, number, number]
  mask: Uint8Array // 64 bytes = 8 uint64 words
  values: Float32Array // 512·comps
}
interface Inner1 {
  origin: [number, number, number]
  children: Map<number, Leaf>
}
interface Inner2 {
  origin: [number, number, number]
  children: Map<number, Inner1>
}

/** Bit index of a voxel in a leaf (8³). */
export function leafOffset(x: number, y: number, z: number): number {
  return ((x & 7) << 6) | ((y & 7) << 3) | (z & 7)
}
/** Child slot of a voxel in a 16³ internal node (children are 8³ leaves). */
export function inner1Offset(x: number, y: number, z: number): number {
  return (((x & 127) >> 3) << 8) | (((y & 127) >> 3) << 4) | ((z & 127) >> 3)
}
/** Child slot of a voxel in a 32³ internal node (children are 16³·8 = 128³ nodes). */
export function inner2Offset(x: number, y: number, z: number): number {
  return (((x & 4095) >> 7) << 10) | (((y & 4095) >> 7) << 5) | ((z & 4095) >> 7)
}

function buildTree(g: VdbGrid): { roots: Inner2[]; summary: VdbGridSummary } {
  const [nx, ny, nz] = g.dims
  const comps = g.type === 'vec3s' ? 3 : 1
  const bg = g.background ?? 0
  const thr = g.activeThreshold ?? 0
  const thr2 = thr * thr
  const data = g.data
  // A level set (OpenVDB's convention, tools::LevelSetTracker): the narrow band |phi| < bg is
  // active, values are clamped to [-bg, bg], and blocks inside the surface are kept (inactive,
  // at -bg) so a reader sees inside as inside rather than the +bg background.
  const levelSet = g.gridClass === 'level set' && comps === 1
  const min: [number, number, number] = [Infinity, Infinity, Infinity]
  const max: [number, number, number] = [-Infinity, -Infinity, -Infinity]
  let active = 0
  let leafCount = 0
  const roots = new Map<string, Inner2>()

  for (let lx = 0; lx < nx; lx += 8) {
    for (let ly = 0; ly < ny; ly += 8) {
      for (let lz = 0; lz < nz; lz += 8) {
        let mask: Uint8Array | null = null
        let values: Float32Array | null = null
        let inside = false
        for (let x = lx; x < Math.min(lx + 8, nx); x++) {
          for (let y = ly; y < Math.min(ly + 8, ny); y++) {
            for (let z = lz; z < Math.min(lz + 8, nz); z++) {
              const cell = x + nx * (y + ny * z)
              let on: boolean
              if (levelSet) {
                on = Math.abs(data[cell]) < bg
                if (data[cell] < 0) inside = true
              } else if (comps === 1) on = Math.abs(data[cell] - bg) > thr
              else {
                const a = data[3 * cell] - bg, b = data[3 * cell + 1] - bg, c = data[3 * cell + 2] - bg
                on = a * a + b * b + c * c > thr2
              }
              if (!on) continue
              if (!mask || !values) {
                mask = new Uint8Array(64)
                values = leafValues(g, lx, ly, lz, levelSet)
              }
              const n = leafOffset(x, y, z)
              mask[n >> 3] |= 1 << (n & 7)
              active++
              if (x < min[0]) min[0] = x
              if (y < min[1]) min[1] = y
              if (z < min[2]) min[2] = z
              if (x > max[0]) max[0] = x
              if (y > max[1]) max[1] = y
              if (z > max[2]) max[2] = z
            }
          }
        }
        if (!mask && inside) {
          mask = new Uint8Array(64)
          values = leafValues(g, lx, ly, lz, levelSet)
        }
        if (!mask || !values) continue
        leafCount++
        const o2: [number, number, number] = [lx & ~4095, ly & ~4095, lz & ~4095]
        const key = o2.join(',')
        let r = roots.get(key)
        if (!r) roots.set(key, (r = { origin: o2, children: new Map() }))
        const i2 = inner2Offset(lx, ly, lz)
        let n1 = r.children.get(i2)
        if (!n1) r.children.set(i2, (n1 = { origin: [lx & ~127, ly & ~127, lz & ~127], children: new Map() }))
        n1.children.set(inner1Offset(lx, ly, lz), { origin: [lx, ly, lz], mask, values })
      }
    }
  }
  // Root table order is Coord's operator<: x, then y, then z.
  const sortedRoots = [...roots.values()].sort((a, b) => a.origin[0] - b.origin[0] || a.origin[1] - b.origin[1] || a.origin[2] - b.origin[2])
  const summary: VdbGridSummary = { name: g.name, activeVoxels: active, leafCount }
  if (active > 0) {
    summary.bboxMin = min
    summary.bboxMax = max
  }
  return { roots: sortedRoots, summary }
}

/**
 * The 8^3 values of the leaf at (lx, ly, lz): the grid's cells (inactive ones keep their
 * values), the background beyond the grid's edge; a level set's clamped to [-bg, bg].
 */
function leafValues(g: VdbGrid, lx: number, ly: number, lz: number, levelSet: boolean): Float32Array {
  const [nx, ny, nz] = g.dims
  const comps = g.type === 'vec3s' ? 3 : 1
  const bg = g.background ?? 0
  const values = new Float32Array(512 * comps).fill(bg)
  for (let xx = lx; xx < Math.min(lx + 8, nx); xx++) {
    for (let yy = ly; yy < Math.min(ly + 8, ny); yy++) {
      for (let zz = lz; zz < Math.min(lz + 8, nz); zz++) {
        const src = comps * (xx + nx * (yy + ny * zz))
        const dst = comps * leafOffset(xx, yy, zz)
        for (let c = 0; c < comps; c++) {
          const v = g.data[src + c]
          values[dst + c] = levelSet ? Math.min(bg, Math.max(-bg, v)) : v
        }
      }
    }
  }
  return values
}

function sortedEntries<T>(m: Map<number, T>): [number, T][] {
  return [...m.entries()].sort((a, b) => a[0] - b[0])
}

type Deflate = ((raw: Uint8Array) => Uint8Array) | undefined

/**
 * io::writeCompressedValues without mask compression: metadata byte 6, then io::writeData
 * (or its HalfWriter: IEEE binary16 per component).
 */
function writeValues(w: ByteWriter, vals: Float32Array, deflate: Deflate, half: boolean): void {
  w.u8(NO_MASK_AND_ALL_VALS)
  if (!deflate && !half) {
    w.f32s(vals)
    return
  }
  const raw = half ? f16Bytes(vals) : f32Bytes(vals)
  if (!deflate) {
    w.bytes(raw)
    return
  }
  // io::zipToStream: int64 zipped size + zlib data, or int64 -rawSize + raw data.
  const zipped = deflate(raw)
  if (zipped.length < raw.length) {
    w.i64(zipped.length)
    w.bytes(zipped)
  } else {
    w.i64(-raw.length)
    w.bytes(raw)
  }
}

function f32Bytes(vals: Float32Array): Uint8Array {
  const out = new Uint8Array(vals.length * 4)
  const view = new DataView(out.buffer)
  for (let i = 0; i < vals.length; i++) view.setFloat32(4 * i, vals[i], true)
  return out
}

function f16Bytes(vals: Float32Array): Uint8Array {
  const out = new Uint8Array(vals.length * 2)
  for (let i = 0; i < vals.length; i++) {
    const h = floatToHalfBits(vals[i])
    out[2 * i] = h & 0xff
    out[2 * i + 1] = h >> 8
  }
  return out
}

const F32 = new Float32Array(1)
const U32 = new Uint32Array(F32.buffer)

/** IEEE 754 binary16 bits of a number (round to nearest, ties to even; overflow -> ±inf). */
export function floatToHalfBits(v: number): number {
  F32[0] = v
  const x = U32[0]
  const sign = (x >>> 16) & 0x8000
  const exp = (x >>> 23) & 0xff
  let mant = x & 0x7fffff
  if (exp === 0xff) return sign | 0x7c00 | (mant ? 0x200 : 0)
  const e = exp - 127 + 15
  if (e >= 0x1f) return sign | 0x7c00
  if (e <= 0) {
    if (e < -10) return sign
    mant |= 0x800000
    const shift = 14 - e
    let h = mant >>> shift
    const rem = mant & ((1 << shift) - 1)
    const halfway = 1 << (shift - 1)
    if (rem > halfway || (rem === halfway && (h & 1) !== 0)) h++
    return sign | h
  }
  let h = (e << 10) | (mant >>> 13)
  const rem = mant & 0x1fff
  if (rem > 0x1000 || (rem === 0x1000 && (h & 1) !== 0)) h++ // a carry rolls into the exponent
  return sign | h
}

export function halfBitsToFloat(h: number): number {
  const s = h & 0x8000 ? -1 : 1
  const e = (h >> 10) & 0x1f
  const m = h & 0x3ff
  if (e === 0) return s * m * 2 ** -24
  if (e === 31) return m ? NaN : s * Infinity
  return s * (1 + m / 1024) * 2 ** (e - 15)
}

function writeValueArray(w: ByteWriter, count: number, comps: number, bg: number, childSlots: Iterable<number>, deflate: Deflate, half: boolean): void {
  const vals = new Float32Array(count * comps).fill(bg)
  for (const i of childSlots) vals.fill(0, i * comps, (i + 1) * comps) // child slots hold zeroVal
  writeValues(w, vals, deflate, half)
}

function childMask(bytes: number, slots: Iterable<number>): Uint8Array {
  const m = new Uint8Array(bytes)
  for (const i of slots) m[i >> 3] |= 1 << (i & 7)
  return m
}

function writeGrid(w: ByteWriter, g: VdbGrid, deflate: Deflate): VdbGridSummary {
  const comps = g.type === 'vec3s' ? 3 : 1
  const half = g.saveAsHalf === true
  // io::truncateRealToHalf: a half grid's background is stored as a float rounded to half.
  const bg = half ? halfBitsToFloat(floatToHalfBits(g.background ?? 0)) : g.background ?? 0
  const { roots, summary } = buildTree(g)

  // GridDescriptor::writeHeader + writeStreamPos (patched once the offsets are known).
  w.str(g.name)
  w.str((g.type === 'float' ? 'Tree_float_5_4_3' : 'Tree_vec3s_5_4_3') + (half ? '_HalfFloat' : ''))
  w.str('') // instance parent
  const posAt = w.length
  w.i64(0)
  w.i64(0)
  w.i64(0)
  const gridPos = w.length

  w.u32(deflate ? COMPRESS_ZIP : COMPRESS_NONE) // per-grid compression flags

  const meta: Meta[] = [
    { name: 'class', type: 'string', value: g.gridClass ?? (g.type === 'float' ? 'fog volume' : 'unknown') },
    { name: 'name', type: 'string', value: g.name },
    { name: 'file_voxel_count', type: 'int64', value: summary.activeVoxels },
    { name: 'is_local_space', type: 'bool', value: false },
    { name: 'is_saved_as_half_float', type: 'bool', value: half },
  ]
  if (summary.bboxMin && summary.bboxMax) {
    meta.push({ name: 'file_bbox_min', type: 'vec3i', value: summary.bboxMin })
    meta.push({ name: 'file_bbox_max', type: 'vec3i', value: summary.bboxMax })
  }
  if (g.type === 'vec3s') meta.push({ name: 'vector_type', type: 'string', value: g.vectorType ?? 'invariant' })
  writeMetaMap(w, meta)

  // Transform: map type name, then ScaleTranslateMap::write's six Vec3d: translation, scale,
  // voxel size |scale|, 1/scale, 1/scale², 1/(2·scale) (math/Maps.h; read back verbatim).
  const h = g.voxelSize
  w.str('UniformScaleTranslateMap')
  for (const o of g.origin) w.f64(o + h / 2)
  for (const v of [h, h, 1 / h, 1 / (h * h), 1 / (2 * h)]) for (let i = 0; i < 3; i++) w.f64(v)

  // Topology (Tree::writeTopology -> RootNode::writeTopology).
  w.i32(1) // buffer count
  for (let c = 0; c < comps; c++) w.f32(bg)
  w.u32(0) // tiles
  w.u32(roots.length) // children
  for (const r of roots) {
    for (const o of r.origin) w.i32(o)
    const n1s = sortedEntries(r.children)
    w.bytes(childMask(4096, r.children.keys()))
    w.bytes(new Uint8Array(4096)) // value mask: no active tiles
    writeValueArray(w, 32768, comps, bg, r.children.keys(), deflate, half)
    for (const [, n1] of n1s) {
      w.bytes(childMask(512, n1.children.keys()))
      w.bytes(new Uint8Array(512))
      writeValueArray(w, 4096, comps, bg, n1.children.keys(), deflate, half)
      for (const [, leaf] of sortedEntries(n1.children)) w.bytes(leaf.mask)
    }
  }

  // Buffers (Tree::writeBuffers): leaves in the same depth-first order.
  const blockPos = w.length
  for (const r of roots) {
    for (const [, n1] of sortedEntries(r.children)) {
      for (const [, leaf] of sortedEntries(n1.children)) {
        w.bytes(leaf.mask)
        writeValues(w, leaf.values, deflate, half)
      }
    }
  }
  const endPos = w.length
  w.patchI64(posAt, gridPos)
  w.patchI64(posAt + 8, blockPos)
  w.patchI64(posAt + 16, endPos)
  return summary
}

function randomUuid(): string {
  const hex = '0123456789abcdef'
  let s = ''
  for (let i = 0; i < 36; i++) {
    if (i === 8 || i === 13 || i === 18 || i === 23) s += '-'
    else if (i === 14) s += '4'
    else if (i === 19) s += hex[8 + Math.floor(Math.random() * 4)]
    else s += hex[Math.floor(Math.random() * 16)]
  }
  return s
}
