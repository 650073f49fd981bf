// Version 4 of the frame record: textures (stacks of same-sized float32 images) round trip
// bit for bit beside volumes and meshes, bad textures are refused on encode, damaged texture
// sections or headers are PROJECT_FORMAT, and version 3 records still decode.
import { deflateRawSync } from 'node:zlib'
import { describe, expect, it } from 'vitest'
import { EddyError } from '../../../src-shared/api/errors'
import { crc32, decodeFrame, encodeFrame, FRAME_RECORD_VERSION, withoutVolumes, type FramePrecision } from '../../../src-shared/formats/frameRecord'
import type { FrameData, FrameTexture } from '../../../src-shared/sim/frame'

const PRECISIONS: FramePrecision[] = ['float32', 'float16', 'uint8']
const bits = (a: Float32Array) => Array.from(new Uint32Array(a.buffer, a.byteOffset, a.length))

function texture(name: string, width: number, height: number, layers: number, components: 1 | 3, seed: number): FrameTexture {
  const data = new Float32Array(components * width * height * layers).map((_, i) => Math.sin(i * 0.731 + seed) * 10 ** ((i % 7) - 3))
  // Values JSON or a lossy codec would not keep.
  data[0] = -0
  data[1] = NaN
  data[2] = 1e-40
  data[3] = -Infinity
  return { name, width, height, layers, components, data }
}

function frameWithTextures(): FrameData {
  const density = new Float32Array(9 * 5 * 3).map((_, i) => (i % 4 === 0 ? 0 : Math.cos(i) + 1))
  return {
    time: 1.25,
    frame: 31,
    volumes: [{ name: 'density', components: 1, dims: [9, 5, 3], voxelSize: 0.05, origin: [-0.25, 0, 0.5], data: density }],
    meshes: [
      {
        name: 'patches',
        positions: new Float32Array([0, 0, 0, 1, 0, 0, 0, 1, 0, 1, 1, 0.5]),
        indices: new Uint32Array([0, 1, 2, 2, 1, 3]),
        normals: new Float32Array([0, 0, 1, 0, 0, 1, 0, 0, 1, 0, 0.6, 0.8]),
        attributes: { uv: { components: 3, data: new Float32Array([0, 0, 0, 1, 0, 0, 0, 1, 1, 1, 1, 1]) } },
      },
    ],
    particles: [],
    textures: [texture('dye', 7, 5, 4, 1, 1), texture('velocity', 6, 3, 3, 3, 2)],
    stats: { substeps: 2 },
  }
}

function expectTexturesEqual(a: FrameTexture[] | undefined, b: FrameTexture[] | undefined): void {
  expect((b ?? []).length).toBe((a ?? []).length)
  ;(a ?? []).forEach((t, i) => {
    const u = b![i]
    expect({ ...u, data: null }).toEqual({ ...t, data: null })
    expect(u.data).toBeInstanceOf(Float32Array)
    expect(bits(u.data)).toEqual(bits(t.data))
  })
}

function errorOf(f: () => unknown): EddyError {
  try {
    f()
  } catch (e) {
    expect(e).toBeInstanceOf(EddyError)
    return e as EddyError
  }
  throw new Error('expected an EddyError')
}

function expectFormatError(f: () => unknown, re: RegExp): void {
  const err = errorOf(f)
  expect(err.code).toBe('PROJECT_FORMAT')
  expect(err.message).toMatch(re)
}

/** The record with its header edited (and optionally its payload replaced, and its version), re-signed. */
function withHeader(rec: Uint8Array, edit: (h: any) => void, opts: { payload?: (p: Uint8Array, h: any) => Uint8Array; version?: number } = {}): Uint8Array {
  const hl = new DataView(rec.buffer, rec.byteOffset).getUint32(8, true)
  const h = JSON.parse(Buffer.from(rec.subarray(20, 20 + hl)).toString('utf8'))
  edit(h)
  const body = opts.payload ? opts.payload(rec.slice(20 + hl), h) : rec.subarray(20 + hl)
  const hb = Buffer.from(JSON.stringify(h), 'utf8')
  const out = new Uint8Array(20 + hb.length + body.length)
  out.set(rec.subarray(0, 20))
  const dv = new DataView(out.buffer)
  if (opts.version !== undefined) dv.setUint16(4, opts.version, true)
  dv.setUint32(8, hb.length, true)
  dv.setUint32(12, body.length, true)
  out.set(hb, 20)
  out.set(body, 20 + hb.length)
  dv.setUint32(16, crc32(out, 20, out.length, crc32(out, 0, 16)), true)
  return out
}

/** The payload with texture `i`'s section (textures are the last sections) replaced by `bytes`. */
function replaceTexture(i: number, bytes: Uint8Array) {
  return (p: Uint8Array, h: any): Uint8Array => {
    const after = h.textures.slice(i + 1).reduce((n: number, t: any) => n + t.packed, 0)
    const start = p.length - after - h.textures[i].packed
    h.textures[i].packed = bytes.length
    const q = new Uint8Array(start + bytes.length + after)
    q.set(p.subarray(0, start))
    q.set(bytes, start)
    q.set(p.subarray(p.length - after), start + bytes.length)
    return q
  }
}

describe('frame record version 4: textures', () => {
  it('writes version 4', () => {
    expect(FRAME_RECORD_VERSION).toBe(4)
    expect(new DataView(encodeFrame(frameWithTextures()).buffer).getUint16(4, true)).toBe(4)
  })

  it('round trips 1- and 3-component layered textures exactly at float32, beside a volume and a mesh', () => {
    const f = frameWithTextures()
    for (const precision of PRECISIONS) {
      for (const level of [0, 6]) {
        const back = decodeFrame(encodeFrame(f, { precision, level }))
        expectTexturesEqual(f.textures, back.textures)
        expect(back.textures!.map((t) => [t.name, t.width, t.height, t.layers, t.components])).toEqual([
          ['dye', 7, 5, 4, 1],
          ['velocity', 6, 3, 3, 3],
        ])
        expect(back.time).toBe(f.time)
        expect(back.frame).toBe(f.frame)
        expect(back.meshes[0].name).toBe('patches')
        expect(bits(back.meshes[0].positions)).toEqual(bits(f.meshes[0].positions))
        expect(Array.from(back.meshes[0].indices)).toEqual(Array.from(f.meshes[0].indices))
        expect(bits(back.meshes[0].attributes!.uv.data)).toEqual(bits(f.meshes[0].attributes!.uv.data))
        expect(back.volumes[0].dims).toEqual([9, 5, 3])
        if (precision === 'float32') expect(bits(back.volumes[0].data)).toEqual(bits(f.volumes[0].data))
      }
    }
  })

  it('a frame without textures round trips and decodes without the field', () => {
    const f = frameWithTextures()
    delete f.textures
    const back = decodeFrame(encodeFrame(f))
    expect(back.textures).toBeUndefined()
    expect(bits(back.volumes[0].data)).toEqual(bits(f.volumes[0].data))
    expect(bits(back.meshes[0].positions)).toEqual(bits(f.meshes[0].positions))
    expect(decodeFrame(encodeFrame({ ...f, textures: [] })).textures).toBeUndefined()
  })

  it('a partial decode and withoutVolumes keep the textures', () => {
    const f = frameWithTextures()
    const rec = encodeFrame(f, { precision: 'float16' })
    const partial = decodeFrame(rec, { volumes: [] })
    expect(partial.volumes).toEqual([])
    expectTexturesEqual(f.textures, partial.textures)
    const slim = decodeFrame(withoutVolumes(rec))
    expect(slim.volumes).toEqual([])
    expectTexturesEqual(f.textures, slim.textures)
  })

  it('refuses textures it cannot store with INVALID_PARAM naming the texture', () => {
    const bad = (edit: (t: FrameTexture) => void, re: RegExp) => {
      const f = frameWithTextures()
      edit(f.textures![1])
      const err = errorOf(() => encodeFrame(f))
      expect(err.code).toBe('INVALID_PARAM')
      expect(err.message).toMatch(/'velocity'/)
      expect(err.message).toMatch(re)
    }
    bad((t) => (t.data = new Float32Array(t.data.length - 1)), /161 values for 6x3x3 texels x 3 \(162\)/)
    bad((t) => (t.data = new Float32Array(t.data.length + 3)), /values/)
    bad((t) => (t.layers = 2), /values/)
    bad((t) => (t.components = 2 as 1), /components/)
    bad((t) => (t.width = 0), /width/)
    bad((t) => (t.height = 1.5), /height/)
    bad((t) => (t.layers = NaN), /layers/)
  })
})

describe('frame record version 4 texture corruption', () => {
  const good = encodeFrame(frameWithTextures(), { level: 6 })

  it('refuses a texture header that lies about its size', () => {
    expect(() => decodeFrame(withHeader(good, () => {}))).not.toThrow()
    // Dimensions changed but not the size, and the size changed but not the dimensions.
    expectFormatError(() => decodeFrame(withHeader(good, (h) => (h.textures[0].layers = 5))), /texture 0 size disagrees with its dimensions/)
    expectFormatError(() => decodeFrame(withHeader(good, (h) => (h.textures[1].raw -= 12))), /texture 1 size disagrees/)
    // Both changed consistently: the section then inflates to the wrong length.
    const relayered = (layers: number) =>
      withHeader(good, (h) => {
        h.textures[1].layers = layers
        h.textures[1].raw = 4 * 3 * 6 * 3 * layers
      })
    expectFormatError(() => decodeFrame(relayered(4)), /texture 1 \('velocity'\) inflates to 648 bytes, expected 864/)
    expectFormatError(() => decodeFrame(relayered(2)), /texture 1 \('velocity'\) (inflates to|does not inflate)/)
    expectFormatError(() => decodeFrame(withHeader(good, (h) => (h.textures[0].packed += 1))), /texture 1 \('velocity'\) runs past the end|do not fill/)
  })

  it('refuses a malformed texture header', () => {
    expectFormatError(() => decodeFrame(withHeader(good, (h) => (h.textures[0].components = 2))), /texture 0 has 2 components/)
    expectFormatError(() => decodeFrame(withHeader(good, (h) => (h.textures[1].width = -6))), /texture 1 width is not a valid count/)
    expectFormatError(() => decodeFrame(withHeader(good, (h) => (h.textures[1].height = 1.5))), /texture 1 height/)
    expectFormatError(() => decodeFrame(withHeader(good, (h) => (h.textures[0].name = 3))), /texture 0 name is not a string/)
    expectFormatError(() => decodeFrame(withHeader(good, (h) => (h.textures[0] = null))), /texture 0 header is not an object/)
    expectFormatError(() => decodeFrame(withHeader(good, (h) => delete h.textures)), /textures is not a list/)
    expectFormatError(
      () =>
        decodeFrame(
          withHeader(good, (h) => {
            Object.assign(h.textures[0], { width: 2 ** 16, height: 2 ** 16, layers: 2 ** 16, raw: 0 })
          }),
        ),
      /texture 0 is impossibly large/,
    )
  })

  it('refuses a texture section that inflates to the wrong length or not at all', () => {
    expectFormatError(() => decodeFrame(withHeader(good, () => {}, { payload: replaceTexture(0, new Uint8Array(deflateRawSync(new Uint8Array(8)))) })), /texture 0 \('dye'\) inflates to 8 bytes/)
    expectFormatError(() => decodeFrame(withHeader(good, () => {}, { payload: replaceTexture(1, new Uint8Array(deflateRawSync(new Uint8Array(4 * 54 + 4)))) })), /texture 1 \('velocity'\) inflates to/)
    expectFormatError(() => decodeFrame(withHeader(good, () => {}, { payload: replaceTexture(1, new Uint8Array(20).fill(0xff)) })), /texture 1 \('velocity'\) does not inflate/)
  })

  it('every truncation and flipped byte of a record with textures is PROJECT_FORMAT', () => {
    for (let n = 0; n < good.length; n += 3) expectFormatError(() => decodeFrame(good.subarray(0, n)), /corrupt/)
    for (let n = 0; n < good.length; n += 2) {
      const bad = good.slice()
      bad[n] ^= 0x41
      expectFormatError(() => decodeFrame(bad), /corrupt/)
    }
  })

  it('an older version number on a header with textures is refused', () => {
    expectFormatError(() => decodeFrame(withHeader(good, () => {}, { version: 3 })), /version 3 header has version 4 fields/)
    expectFormatError(() => decodeFrame(withHeader(good, (h) => (h.textures = []), { version: 3 })), /version 3 header has version 4 fields/)
  })
})

describe('records of version 3', () => {
  it('still decode, without textures', () => {
    const f = frameWithTextures()
    delete f.textures
    f.rigidBodies = [
      {
        id: 'b1',
        name: 'Crate',
        position: [1, 2, 3],
        orientation: [0, 0, 0, 1],
        linearVelocity: [0, -1, 0],
        angularVelocity: [0, 0, 0.5],
        mesh: { name: 'crate', positions: new Float32Array([0, 0, 0, 1, 0, 0, 0, 1, 0]), indices: new Uint32Array([0, 1, 2]) },
      },
    ]
    // What the version 3 encoder wrote: the same header without the textures list.
    const v3 = withHeader(encodeFrame(f), (h) => delete h.textures, { version: 3 })
    expect(new DataView(v3.buffer).getUint16(4, true)).toBe(3)
    const back = decodeFrame(v3)
    expect(back.textures).toBeUndefined()
    expect(bits(back.volumes[0].data)).toEqual(bits(f.volumes[0].data))
    expect(bits(back.meshes[0].attributes!.uv.data)).toEqual(bits(f.meshes[0].attributes!.uv.data))
    expect(back.rigidBodies![0].position).toEqual([1, 2, 3])
    // Slimmed, it becomes a current-version record holding the same meshes and bodies.
    const slim = withoutVolumes(v3)
    expect(new DataView(slim.buffer).getUint16(4, true)).toBe(4)
    const s = decodeFrame(slim)
    expect(s.textures).toBeUndefined()
    expect(s.rigidBodies![0].name).toBe('Crate')
  })
})
