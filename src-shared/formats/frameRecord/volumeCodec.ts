// Volume sections: 8x8x8 tiles, those equal to the background skipped, values at the chosen
// precision (see the layout in index.ts for the exact bytes and error bounds).
import { EddyError } from '../../api/errors'
import type { Volume } from '../../sim/frame'
import { corrupt } from './corrupt'
import { halfTable, toHalf } from './float16'
import type { FramePrecision, VolumeHeader } from './header'

export const FRAME_TILE = 8

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

export function encodeVolume(v: Volume, requested: FramePrecision): { raw: Uint8Array; tiles: number; precision: FramePrecision; background: number[] } {
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

export function decodeVolume(h: VolumeHeader, raw: Uint8Array, index: number): Float32Array {
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
