import { spawnSync } from 'node:child_process'
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { deflateSync, inflateSync } from 'node:zlib'
import { afterAll, describe, expect, it } from 'vitest'
import {
  floatToHalfBits,
  halfBitsToFloat,
  inner1Offset,
  inner2Offset,
  leafOffset,
  type VdbGrid,
  writeVdb,
  writeVdbWithSummary,
} from '../../../src-shared/formats/openvdb/writer'

const UUID = '01234567-89ab-4cde-8f01-23456789abcd'
const VDB_PRINT = '/usr/bin/vdb_print'
const HAVE_VDB_PRINT = existsSync(VDB_PRINT)

// --- a minimal reader for what writeVdb emits (compression NONE, float/vec3s, 5-4-3) -------------

class Reader {
  pos = 0
  private view: DataView
  constructor(private bytes: Uint8Array) {
    this.view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  }
  u8(): number {
    return this.bytes[this.pos++]
  }
  u32(): number {
    const v = this.view.getUint32(this.pos, true)
    this.pos += 4
    return v
  }
  i32(): number {
    const v = this.view.getInt32(this.pos, true)
    this.pos += 4
    return v
  }
  i64(): number {
    const v = Number(this.view.getBigInt64(this.pos, true))
    this.pos += 8
    return v
  }
  f32(): number {
    const v = this.view.getFloat32(this.pos, true)
    this.pos += 4
    return v
  }
  f64(): number {
    const v = this.view.getFloat64(this.pos, true)
    this.pos += 8
    return v
  }
  raw(n: number): Uint8Array {
    const b = this.bytes.subarray(this.pos, this.pos + n)
    this.pos += n
    return b
  }
  chars(n: number): string {
    return String.fromCharCode(...this.raw(n))
  }
  str(): string {
    return this.chars(this.u32())
  }
  f32s(n: number): Float32Array {
    const out = new Float32Array(n)
    for (let i = 0; i < n; i++) out[i] = this.f32()
    return out
  }
  metaMap(): Record<string, unknown> {
    const out: Record<string, unknown> = {}
    const n = this.i32()
    for (let i = 0; i < n; i++) {
      const name = this.str()
      const type = this.str()
      const size = this.u32()
      const end = this.pos + size
      if (type === 'string') out[name] = this.chars(size)
      else if (type === 'bool') out[name] = this.u8() !== 0
      else if (type === 'int64') out[name] = this.i64()
      else if (type === 'vec3i') out[name] = [this.i32(), this.i32(), this.i32()]
      else throw new Error(`unexpected metadata type ${type}`)
      expect(this.pos).toBe(end)
    }
    return out
  }
}

/** metadata byte (always 6 here), then the values: raw, or zip-framed when the grid says ZIP. */
function readValues(r: Reader, count: number, zip: boolean, half = false): Float32Array {
  expect(r.u8()).toBe(6)
  const width = half ? 2 : 4
  let raw: Uint8Array
  if (!zip) raw = r.raw(count * width).slice()
  else {
    const n = r.i64()
    raw = n > 0 ? new Uint8Array(inflateSync(r.raw(n))) : r.raw(-n).slice()
  }
  expect(raw.length).toBe(count * width)
  if (!half) return new Float32Array(raw.buffer, raw.byteOffset, count)
  return Float32Array.from({ length: count }, (_, i) => halfBitsToFloat(raw[2 * i] | (raw[2 * i + 1] << 8)))
}

const bitOn = (mask: Uint8Array, n: number) => (mask[n >> 3] & (1 << (n & 7))) !== 0
const onBits = (mask: Uint8Array) => {
  const out: number[] = []
  for (let n = 0; n < mask.length * 8; n++) if (bitOn(mask, n)) out.push(n)
  return out
}

interface ParsedLeaf {
  origin: [number, number, number]
  topoMask: Uint8Array
  mask?: Uint8Array
  values?: Float32Array
}
interface ParsedGrid {
  name: string
  type: string
  gridPos: number
  blockPos: number
  endPos: number
  compression: number
  meta: Record<string, unknown>
  mapType: string
  map: number[]
  background: number[]
  roots: { origin: number[]; childMask: Uint8Array; valueMask: Uint8Array; values: Float32Array; inner: { childMask: Uint8Array; valueMask: Uint8Array; values: Float32Array; leaves: ParsedLeaf[] }[] }[]
}

function parseVdb(bytes: Uint8Array) {
  const r = new Reader(bytes)
  const magic = r.i64()
  const version = r.u32()
  const lib = [r.u32(), r.u32()]
  const hasOffsets = r.u8()
  const uuid = r.chars(36)
  const fileMeta = r.metaMap()
  const gridCount = r.i32()
  const grids: ParsedGrid[] = []
  for (let g = 0; g < gridCount; g++) {
    const name = r.str()
    const type = r.str()
    expect(r.str()).toBe('') // instance parent
    const gridPos = r.i64(), blockPos = r.i64(), endPos = r.i64()
    expect(r.pos).toBe(gridPos)
    const compression = r.u32()
    const zip = compression === 1
    const half = type.endsWith('_HalfFloat')
    const meta = r.metaMap()
    const mapType = r.str()
    const map = Array.from({ length: 18 }, () => r.f64())
    const comps = type.includes('vec3s') ? 3 : 1
    expect(r.i32()).toBe(1) // buffer count
    const background = Array.from(r.f32s(comps))
    expect(r.u32()).toBe(0) // tiles
    const nRoot = r.u32()
    const roots: ParsedGrid['roots'] = []
    for (let i = 0; i < nRoot; i++) {
      const origin = [r.i32(), r.i32(), r.i32()]
      const childMask = r.raw(4096), valueMask = r.raw(4096)
      const values = readValues(r, 32768 * comps, zip, half)
      const inner: ParsedGrid['roots'][number]['inner'] = []
      for (const slot2 of onBits(childMask)) {
        const o1 = [origin[0] + (slot2 >> 10) * 128, origin[1] + ((slot2 >> 5) & 31) * 128, origin[2] + (slot2 & 31) * 128]
        const cm = r.raw(512), vm = r.raw(512)
        const vals = readValues(r, 4096 * comps, zip, half)
        const leaves: ParsedLeaf[] = onBits(cm).map((slot1) => ({
          origin: [o1[0] + (slot1 >> 8) * 8, o1[1] + ((slot1 >> 4) & 15) * 8, o1[2] + (slot1 & 15) * 8] as [number, number, number],
          topoMask: r.raw(64),
        }))
        inner.push({ childMask: cm, valueMask: vm, values: vals, leaves })
      }
      roots.push({ origin, childMask, valueMask, values, inner })
    }
    expect(r.pos).toBe(blockPos)
    for (const root of roots) {
      for (const n1 of root.inner) {
        for (const leaf of n1.leaves) {
          leaf.mask = r.raw(64)
          leaf.values = readValues(r, 512 * comps, zip, half)
        }
      }
    }
    expect(r.pos).toBe(endPos)
    grids.push({ name, type, gridPos, blockPos, endPos, compression, meta, mapType, map, background, roots })
  }
  expect(r.pos).toBe(bytes.length)
  return { magic, version, lib, hasOffsets, uuid, fileMeta, gridCount, grids }
}

// --- scene used by the vdb_print test -------------------------------------------------------------

function sphereScene() {
  const dims: [number, number, number] = [40, 30, 20]
  const [nx, ny, nz] = dims
  const density = new Float32Array(nx * ny * nz)
  const velocity = new Float32Array(nx * ny * nz * 3)
  const centre = [18.5, 14, 9.5]
  for (let k = 0; k < nz; k++) {
    for (let j = 0; j < ny; j++) {
      for (let i = 0; i < nx; i++) {
        const c = i + nx * (j + ny * k)
        const r = Math.hypot(i - centre[0], j - centre[1], k - centre[2])
        density[c] = Math.max(0, 1 - r / 8) // falls to 0 at r = 8
        // swirl around the z axis, plus a small everywhere-present drift below the threshold
        velocity[3 * c] = -(j - centre[1]) * 0.1
        velocity[3 * c + 1] = (i - centre[0]) * 0.1
        velocity[3 * c + 2] = 0.001
      }
    }
  }
  const threshold = 0.05
  let densityActive = 0
  let velocityActive = 0
  const dMin = [Infinity, Infinity, Infinity], dMax = [-Infinity, -Infinity, -Infinity]
  const vMin = [Infinity, Infinity, Infinity], vMax = [-Infinity, -Infinity, -Infinity]
  let dLo = Infinity, dHi = -Infinity
  for (let k = 0; k < nz; k++) {
    for (let j = 0; j < ny; j++) {
      for (let i = 0; i < nx; i++) {
        const c = i + nx * (j + ny * k)
        if (Math.abs(density[c]) > threshold) {
          densityActive++
          dLo = Math.min(dLo, density[c])
          dHi = Math.max(dHi, density[c])
          ;[i, j, k].forEach((v, a) => ((dMin[a] = Math.min(dMin[a], v)), (dMax[a] = Math.max(dMax[a], v))))
        }
        if (Math.hypot(velocity[3 * c], velocity[3 * c + 1], velocity[3 * c + 2]) > 0.5) {
          velocityActive++
          ;[i, j, k].forEach((v, a) => ((vMin[a] = Math.min(vMin[a], v)), (vMax[a] = Math.max(vMax[a], v))))
        }
      }
    }
  }
  const origin: [number, number, number] = [-1, 0.5, 2]
  const grids: VdbGrid[] = [
    { name: 'density', type: 'float', dims, voxelSize: 0.05, origin, data: density, activeThreshold: threshold },
    { name: 'velocity', type: 'vec3s', dims, voxelSize: 0.05, origin, data: velocity, activeThreshold: 0.5, vectorType: 'contravariant relative' },
  ]
  return { grids, densityActive, velocityActive, dMin, dMax, vMin, vMax, dLo, dHi }
}

describe('writeVdb: byte layout', () => {
  it('writes the archive header, file metadata and grid count', () => {
    const bytes = writeVdb([], { uuid: UUID })
    const expected: number[] = []
    const u32 = (v: number) => expected.push(v & 255, (v >> 8) & 255, (v >> 16) & 255, (v >>> 24) & 255)
    const str = (s: string) => (u32(s.length), expected.push(...[...s].map((ch) => ch.charCodeAt(0))))
    expected.push(0x20, 0x42, 0x44, 0x56, 0, 0, 0, 0) // int64 0x56444220 little-endian (" BDV")
    u32(224)
    u32(10)
    u32(0)
    expected.push(1) // hasGridOffsets
    expected.push(...[...UUID].map((ch) => ch.charCodeAt(0)))
    u32(1) // one file metadata entry
    str('creator')
    str('string')
    str('Eddy')
    u32(0) // grid count
    expect(Array.from(bytes)).toEqual(expected)

    expect(writeVdb([], { uuid: UUID, creator: '' }).length).toBe(8 + 12 + 1 + 36 + 4 + 4)
  })

  it('is deterministic for a fixed uuid and makes a random v4 uuid otherwise', () => {
    const g: VdbGrid = { name: 'd', type: 'float', dims: [2, 2, 2], voxelSize: 1, origin: [0, 0, 0], data: new Float32Array(8).fill(1) }
    expect(Buffer.from(writeVdb([g], { uuid: UUID })).equals(Buffer.from(writeVdb([g], { uuid: UUID })))).toBe(true)
    const uuid = parseVdb(writeVdb([g])).uuid
    expect(uuid).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/)
  })

  it('node offsets are x-major: n = x·D² + y·D + z of the local coordinates', () => {
    expect(leafOffset(1, 0, 0)).toBe(64)
    expect(leafOffset(0, 1, 0)).toBe(8)
    expect(leafOffset(0, 0, 1)).toBe(1)
    expect(leafOffset(15, 9, 10)).toBe(7 * 64 + 1 * 8 + 2)
    expect(inner1Offset(8, 0, 0)).toBe(256)
    expect(inner1Offset(0, 8, 0)).toBe(16)
    expect(inner1Offset(0, 0, 127)).toBe(15)
    expect(inner2Offset(128, 0, 0)).toBe(1024)
    expect(inner2Offset(0, 128, 0)).toBe(32)
    expect(inner2Offset(0, 0, 4095)).toBe(31)
  })

  it('writes a tiny float grid: descriptor, offsets, metadata, transform, masks and values', () => {
    // 10 x 2 x 1 cells: active cells at (0,0,0)=2, (1,1,0)=3 and (9,0,0)=4; the others sit at or
    // under the threshold (0.5) and stay inactive.
    const dims: [number, number, number] = [10, 2, 1]
    const data = new Float32Array(20).fill(0.5)
    const at = (i: number, j: number, k: number) => i + 10 * (j + 2 * k)
    data[at(0, 0, 0)] = 2
    data[at(1, 1, 0)] = 3
    data[at(9, 0, 0)] = -4 // |value| counts, so negatives are active
    const grid: VdbGrid = { name: 'density', type: 'float', dims, voxelSize: 0.1, origin: [1, 2, 3], data, background: 0.25, activeThreshold: 0.5 }
    const { bytes, grids: summary } = writeVdbWithSummary([grid], { uuid: UUID })
    expect(summary).toEqual([{ name: 'density', activeVoxels: 3, leafCount: 2, bboxMin: [0, 0, 0], bboxMax: [9, 1, 0] }])

    const vdb = parseVdb(bytes)
    expect(vdb.magic).toBe(0x56444220)
    expect(vdb.version).toBe(224)
    expect(vdb.hasOffsets).toBe(1)
    expect(vdb.uuid).toBe(UUID)
    expect(vdb.fileMeta).toEqual({ creator: 'Eddy' })
    const g = vdb.grids[0]
    expect(g.name).toBe('density')
    expect(g.type).toBe('Tree_float_5_4_3')
    expect(g.endPos).toBe(bytes.length)
    expect(g.compression).toBe(0)
    expect(g.meta).toEqual({
      class: 'fog volume',
      name: 'density',
      file_voxel_count: 3,
      file_bbox_min: [0, 0, 0],
      file_bbox_max: [9, 1, 0],
      is_local_space: false,
      is_saved_as_half_float: false,
    })
    expect(g.mapType).toBe('UniformScaleTranslateMap')
    // translation = centre of cell (0,0,0) = origin + h/2; then scale, |scale|, 1/s, 1/s², 1/(2s)
    const expectedMap = [1.05, 2.05, 3.05, 0.1, 0.1, 0.1, 0.1, 0.1, 0.1, 10, 10, 10, 100, 100, 100, 5, 5, 5]
    g.map.forEach((v, i) => expect(v).toBeCloseTo(expectedMap[i], 9))
    expect(g.background).toEqual([0.25])

    expect(g.roots).toHaveLength(1)
    const root = g.roots[0]
    expect(root.origin).toEqual([0, 0, 0])
    expect(onBits(root.childMask)).toEqual([0])
    expect(onBits(root.valueMask)).toEqual([])
    // child slots hold zero, tile slots the background
    expect(root.values[0]).toBe(0)
    expect(root.values[1]).toBe(0.25)
    expect(root.values[32767]).toBe(0.25)
    const n1 = root.inner[0]
    expect(onBits(n1.childMask)).toEqual([0, 256]) // leaves at x = 0 and x = 8
    expect(onBits(n1.valueMask)).toEqual([])
    expect(n1.values[0]).toBe(0)
    expect(n1.values[256]).toBe(0)
    expect(n1.values[1]).toBe(0.25)
    const [l0, l1] = n1.leaves
    expect(l0.origin).toEqual([0, 0, 0])
    expect(l1.origin).toEqual([8, 0, 0])
    expect(onBits(l0.topoMask)).toEqual([leafOffset(0, 0, 0), leafOffset(1, 1, 0)])
    expect(onBits(l1.topoMask)).toEqual([leafOffset(9, 0, 0)])
    expect(l0.mask).toEqual(l0.topoMask)
    expect(l1.mask).toEqual(l1.topoMask)
    expect(l0.values![leafOffset(0, 0, 0)]).toBe(2)
    expect(l0.values![leafOffset(1, 1, 0)]).toBe(3)
    expect(l0.values![leafOffset(1, 0, 0)]).toBe(0.5) // inactive cell keeps its value
    expect(l0.values![leafOffset(2, 0, 0)]).toBe(0.5)
    expect(l0.values![leafOffset(0, 2, 0)]).toBe(0.25) // outside the grid: background
    expect(l0.values![leafOffset(0, 0, 1)]).toBe(0.25)
    expect(l1.values![leafOffset(9, 0, 0)]).toBe(-4)
    expect(l1.values![leafOffset(8, 0, 0)]).toBe(0.5)
    expect(l1.values![leafOffset(10, 0, 0)]).toBe(0.25)
  })

  it('uses vector length for vec3s activity, interleaves components and sorts root children', () => {
    // 4200 cells along x spans two 4096-wide root children; z = 130 spans two 128-wide nodes.
    const dims: [number, number, number] = [4200, 1, 130]
    const data = new Float32Array(4200 * 130 * 3)
    const set = (i: number, k: number, v: [number, number, number]) => data.set(v, 3 * (i + 4200 * k))
    set(4100, 0, [0, 0, 2])
    set(5, 129, [0.6, 0.8, 0]) // length 1: active at threshold 0.9
    set(6, 129, [0.5, 0.5, 0.5]) // length 0.87: inactive
    const { bytes, grids } = writeVdbWithSummary(
      [{ name: 'vel', type: 'vec3s', dims, voxelSize: 1, origin: [0, 0, 0], data, activeThreshold: 0.9 }],
      { uuid: UUID },
    )
    expect(grids[0]).toMatchObject({ activeVoxels: 2, leafCount: 2, bboxMin: [5, 0, 0], bboxMax: [4100, 0, 129] })
    const g = parseVdb(bytes).grids[0]
    expect(g.type).toBe('Tree_vec3s_5_4_3')
    expect(g.meta.vector_type).toBe('invariant')
    expect(g.meta.class).toBe('unknown')
    expect(g.background).toEqual([0, 0, 0])
    expect(g.roots.map((r) => r.origin)).toEqual([[0, 0, 0], [4096, 0, 0]])
    const a = g.roots[0].inner[0].leaves[0]
    expect(a.origin).toEqual([0, 0, 128])
    expect(onBits(a.mask!)).toEqual([leafOffset(5, 0, 129)])
    const o = 3 * leafOffset(5, 0, 129)
    expect(Array.from(a.values!.subarray(o, o + 3))).toEqual([0.6000000238418579, 0.800000011920929, 0])
    const b = g.roots[1].inner[0].leaves[0]
    expect(b.origin).toEqual([4096, 0, 0])
    expect(Array.from(b.values!.subarray(3 * leafOffset(4100, 0, 0), 3 * leafOffset(4100, 0, 0) + 3))).toEqual([0, 0, 2])
  })

  it('zip-frames every value array when given a zlib compressor (flag 0x1)', () => {
    const data = new Float32Array(10 * 2 * 1).fill(1.5)
    const grid: VdbGrid = { name: 'd', type: 'float', dims: [10, 2, 1], voxelSize: 1, origin: [0, 0, 0], data }
    const plain = parseVdb(writeVdb([grid], { uuid: UUID })).grids[0]
    const zipped = writeVdb([grid], { uuid: UUID, deflate: (b) => new Uint8Array(deflateSync(b)) })
    const z = parseVdb(zipped).grids[0]
    expect(z.compression).toBe(1)
    expect(plain.compression).toBe(0)
    expect(zipped.length).toBeLessThan(writeVdb([grid], { uuid: UUID }).length / 10)
    expect(z.roots[0].values).toEqual(plain.roots[0].values)
    expect(z.roots[0].inner[0].leaves.map((l) => [l.origin, l.mask, l.values])).toEqual(plain.roots[0].inner[0].leaves.map((l) => [l.origin, l.mask, l.values]))
    // a compressor that does not shrink the data: stored raw with a negative int64 size
    const stored = parseVdb(writeVdb([grid], { uuid: UUID, deflate: (b) => new Uint8Array(b.length + 1) })).grids[0]
    expect(stored.compression).toBe(1)
    expect(stored.roots[0].inner[0].leaves[0].values).toEqual(plain.roots[0].inner[0].leaves[0].values)
  })

  it('converts floats to IEEE half bits (round to nearest even) and saves half grids', () => {
    expect(floatToHalfBits(1)).toBe(0x3c00)
    expect(floatToHalfBits(-2)).toBe(0xc000)
    expect(floatToHalfBits(0.1)).toBe(0x2e66)
    expect(floatToHalfBits(65504)).toBe(0x7bff)
    expect(floatToHalfBits(65520)).toBe(0x7c00) // rounds up to +inf
    expect(floatToHalfBits(2 ** -24)).toBe(1) // smallest subnormal
    expect(floatToHalfBits(2 ** -26)).toBe(0)
    expect(floatToHalfBits(1 + 2 ** -11)).toBe(0x3c00) // tie -> even
    expect(floatToHalfBits(1 + 3 * 2 ** -11)).toBe(0x3c02) // tie -> even (up)
    expect(floatToHalfBits(NaN) & 0x7c00).toBe(0x7c00)
    for (const v of [0, 1, -0.5, 0.1, 1000, 6e-5, 3e-7]) expect(halfBitsToFloat(floatToHalfBits(v))).toBeCloseTo(v, 3)

    const data = new Float32Array(8).fill(0.1)
    const g = parseVdb(writeVdb([{ name: 'h', type: 'float', dims: [2, 2, 2], voxelSize: 1, origin: [0, 0, 0], data, background: 0.1, saveAsHalf: true }], { uuid: UUID })).grids[0]
    expect(g.type).toBe('Tree_float_5_4_3_HalfFloat')
    expect(g.meta.is_saved_as_half_float).toBe(true)
    expect(g.background[0]).toBe(halfBitsToFloat(0x2e66)) // a 32-bit float rounded to half
    expect(g.roots[0].inner[0].leaves[0].values![0]).toBe(halfBitsToFloat(0x2e66))
  })

  it('writes an all-inactive grid as an empty root and rejects bad input', () => {
    const g = parseVdb(writeVdb([{ name: 'e', type: 'float', dims: [4, 4, 4], voxelSize: 1, origin: [0, 0, 0], data: new Float32Array(64) }], { uuid: UUID })).grids[0]
    expect(g.roots).toEqual([])
    expect(g.meta.file_voxel_count).toBe(0)
    expect(g.meta.file_bbox_min).toBeUndefined()
    const ok: VdbGrid = { name: 'a', type: 'float', dims: [2, 2, 2], voxelSize: 1, origin: [0, 0, 0], data: new Float32Array(8) }
    expect(() => writeVdb([ok, ok])).toThrow(/duplicate/)
    expect(() => writeVdb([{ ...ok, data: new Float32Array(7) }])).toThrow(/expected 8/)
    expect(() => writeVdb([{ ...ok, voxelSize: 0 }])).toThrow(/voxelSize/)
    expect(() => writeVdb([ok], { uuid: 'short' })).toThrow(/uuid/)
  })
})

describe('writeVdb: read back by OpenVDB', () => {
  const dir = mkdtempSync(join(tmpdir(), 'eddy-vdb-'))
  afterAll(() => rmSync(dir, { recursive: true, force: true }))

  it.skipIf(!HAVE_VDB_PRINT).each(['none', 'zip', 'half', 'half+zip'] as const)(`vdb_print -l -m lists both grids with names, types, counts, voxel size and bbox (%s)${HAVE_VDB_PRINT ? '' : ' (skipped: /usr/bin/vdb_print missing; apt install libopenvdb-tools)'}`, (compression) => {
    const scene = sphereScene()
    const half = compression.startsWith('half')
    const deflate = compression.endsWith('zip') ? (b: Uint8Array) => new Uint8Array(deflateSync(b)) : undefined
    const { bytes, grids } = writeVdbWithSummary(scene.grids.map((g) => ({ ...g, saveAsHalf: half })), { deflate })
    expect(grids[0].activeVoxels).toBe(scene.densityActive)
    expect(grids[1].activeVoxels).toBe(scene.velocityActive)
    const file = join(dir, `sphere-${compression}.vdb`)
    writeFileSync(file, bytes)
    const run = spawnSync(VDB_PRINT, ['-l', '-m', file], { encoding: 'utf8' })
    expect(run.status).toBe(0)
    expect(run.stderr).toBe('') // OpenVDB logs read problems (e.g. misaligned streams) to stderr
    const out = run.stdout
    expect(out).toMatch(/VDB version: \d+\.\d+\/224/)
    expect(out).toMatch(/creator: Eddy/)
    const sections = out.split(/^Name: /m).slice(1)
    expect(sections.map((s) => s.split('\n')[0].trim())).toEqual(['density', 'velocity'])
    const [d, v] = sections
    const count = (s: string) => Number(/Number of active voxels:\s+([\d,]+)/.exec(s)![1].replace(/,/g, ''))
    const bbox = (s: string) => /Bounding box of active voxels: \[(.*?)\] -> \[(.*?)\]/.exec(s)!.slice(1, 3).map((t) => t.split(',').map(Number))

    expect(d).toMatch(/Type: Tree_float_5_4_3/)
    expect(count(d)).toBe(scene.densityActive)
    expect(bbox(d)).toEqual([scene.dMin, scene.dMax])
    expect(d).toMatch(/voxel size: 0\.05\b/)
    expect(d).toMatch(/class: fog volume/)
    expect(d).toMatch(new RegExp(`file_voxel_count: ${scene.densityActive}\\b`))
    expect(Number(/Min value: (\S+)/.exec(d)![1])).toBeCloseTo(scene.dLo, half ? 2 : 4)
    expect(Number(/Max value: (\S+)/.exec(d)![1])).toBeCloseTo(scene.dHi, half ? 2 : 4)
    expect(d).toMatch(new RegExp(`is_saved_as_half_float: ${half}`))
    // translation row = centre of cell (0,0,0) = origin + h/2
    // (vdb_print rounds to 3 significant digits: 2.025 prints as 2.02)
    const t = /\[(\S+), (\S+), (\S+), 1\]/.exec(d)!.slice(1, 4).map(Number)
    ;[-0.975, 0.525, 2.025].forEach((x, a) => expect(Math.abs(t[a] - x)).toBeLessThan(0.006))

    expect(v).toMatch(/Type: Tree_vec3s_5_4_3/)
    expect(count(v)).toBe(scene.velocityActive)
    expect(bbox(v)).toEqual([scene.vMin, scene.vMax])
    expect(v).toMatch(/voxel size: 0\.05\b/)
    expect(v).toMatch(/vector_type: contravariant relative/)
    expect(v).toMatch(/Background value: \[0, 0, 0\]/)
  })
})
