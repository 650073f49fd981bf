// The viewport preview stored with each smoke frame: round trip (the texels and the default key
// light's transmittance, bit for bit what the viewport would compute), the older versions still
// read, the bundle the viewport fetches, and corruption named as such.
import { describe, expect, it } from 'vitest'
import { decodePreview, encodePreview, parsePreview, PREVIEW_DEFLATE, PREVIEW_LIT, PREVIEW_ZERO_RUNS } from '../../../src-shared/formats/framePreview'
import { crc32 } from '../../../src-shared/formats/frameRecord/crc32'
import { DEFAULT_TO_LIGHT, lightDirection, lightVolume } from '../../../src-shared/formats/lightVolume'
import { decodeFrame, encodeFrame, withoutVolumes } from '../../../src-shared/formats/frameRecord'
import { volumeDisplay } from '../../../src-shared/formats/volumePreview'
import { decodeForDisplay, splitDisplayBundle } from '../../../src-renderer/viewport/cache/displayData'
import { BufferPool } from '../../../src-renderer/viewport/cache/bufferPool'
import { plume } from '../../fixtures/smokePlume'

const frame = plume(24)
const v = volumeDisplay(frame.volumes[0], frame.volumes[1], 293.15)!

function bundle(preview: Uint8Array | null, record: Uint8Array): Uint8Array {
  const n = preview?.length ?? 0
  const out = new Uint8Array(4 + n + record.length)
  new DataView(out.buffer).setUint32(0, n, true)
  if (preview) out.set(preview, 4)
  out.set(record, 4 + n)
  return out
}

/** The preview with its CRC made right again after an edit (a damaged but sealed record). */
function reseal(p: Uint8Array): Uint8Array {
  const out = p.slice()
  new DataView(out.buffer).setUint32(16, crc32(out, 20, out.length, crc32(out, 0, 16)), true)
  return out
}

describe('frame preview', () => {
  it('round trips the texels, the numbers the shader needs and the default light, bit for bit', () => {
    // 24^3 is lit at full resolution, 66^3 at half, 33^3 (lightVolume.ts's LIGHT_MAX_CELLS).
    for (const n of [24, 66]) {
      const f = plume(n)
      const vn = volumeDisplay(f.volumes[0], f.volumes[1], 293.15)!
      const light = lightVolume(vn.texels, vn.dims, vn.densityMax, vn.voxelSize, DEFAULT_TO_LIGHT)
      const back = decodePreview(encodePreview(vn))
      expect(back).toEqual({ ...vn, light: light.data, lightDims: light.dims })
      expect(back.texels.some((t) => t > 0)).toBe(true)
      // The plume shades part of the grid and leaves the rest in full light.
      expect(light.data.some((t) => t < 128)).toBe(true)
      expect(light.data.some((t) => t === 255)).toBe(true)
    }
  })

  it('decodes into buffers handed back by the viewport (any content) exactly as into new ones, texels and light alike', () => {
    for (const n of [24, 66]) {
      const f = plume(n)
      const vn = volumeDisplay(f.volumes[0], f.volumes[1], 293.15)!
      const p = encodePreview(vn)
      const fresh = decodePreview(p)
      const pool = new BufferPool()
      // Each size twice, filled with a pattern nothing decodes to, as a used buffer would be.
      const dirty = (bytes: number) => new Uint8Array(bytes).fill(0xa5).buffer
      pool.give([dirty(fresh.texels.length), dirty(fresh.light!.length), dirty(fresh.texels.length), dirty(fresh.light!.length)])
      const given: Uint8Array[] = []
      const reused = decodePreview(p, DEFAULT_TO_LIGHT, (bytes) => {
        const a = pool.take(bytes)
        given.push(a)
        return a
      })
      expect(reused).toEqual(fresh)
      expect(given.length).toBe(2)
      expect(reused.texels).toBe(given[0])
      expect(reused.light).toBe(given[1])
      expect(pool.size).toBe(2)
    }
  })

  it('writes lit previews and still reads the zero-run and deflated previews of older bakes', () => {
    expect(parsePreview(encodePreview(v)).version).toBe(PREVIEW_LIT)
    const record = encodeFrame(frame, { precision: 'float32' })
    const shown = decodeForDisplay(bundle(encodePreview(v), record), { ambientTemperature: 293.15 }).volume
    for (const version of [PREVIEW_DEFLATE, PREVIEW_ZERO_RUNS] as const) {
      const old = encodePreview(v, version)
      expect(parsePreview(old).version).toBe(version)
      expect(decodePreview(old)).toEqual(v)
      // Their light is computed when shown: the same bytes as the stored one.
      expect(decodeForDisplay(bundle(old, record), { ambientTemperature: 293.15 }).volume).toEqual(shown)
    }
  })

  it('a light from another direction is computed when shown, not taken from the preview', () => {
    const other = lightDirection(30, 20)
    const p = encodePreview(v)
    expect(decodePreview(p, other).light).toBeUndefined()
    const record = encodeFrame(frame, { precision: 'float32' })
    const got = decodeForDisplay(bundle(p, record), { ambientTemperature: 293.15, toLight: other }).volume!
    expect(got.light).toEqual(lightVolume(v.texels, v.dims, v.densityMax, v.voxelSize, other).data)
    expect(got.light).not.toEqual(decodePreview(p).light)
  })

  it('a display bundle with a preview shows the same volume as decoding the record', () => {
    const record = encodeFrame(frame, { precision: 'float32' })
    const fromRecord = decodeForDisplay(record, { ambientTemperature: 293.15 })
    const fromBundle = decodeForDisplay(bundle(encodePreview(v), record), { ambientTemperature: 293.15 })
    expect(fromBundle.volume).toEqual(fromRecord.volume)
    expect(fromBundle.frame).toBe(fromRecord.frame)
    // Without a preview (a liquid), the bundle decodes the record as before.
    expect(decodeForDisplay(bundle(null, record), { ambientTemperature: 293.15 }).volume).toEqual(fromRecord.volume)
    expect(splitDisplayBundle(record)).toBeNull()
  })

  it('names corruption: a flipped byte, a truncated bundle', () => {
    const p = encodePreview(v)
    const bad = p.slice()
    bad[bad.length - 5] ^= 0x40
    expect(() => decodePreview(bad)).toThrow(/^Cached frame preview is corrupt: CRC mismatch$/)
    expect(() => decodePreview(p.subarray(0, 10))).toThrow(/Cached frame preview is corrupt: only 10 bytes/)
    const b = bundle(p, encodeFrame(frame))
    expect(() => decodeForDisplay(b.subarray(0, 30))).toThrow(/the preview runs past the end/)
    // Sealed (a valid CRC) but inconsistent: the light's grid or the split of the payload.
    const text = Buffer.from(p).toString('latin1')
    const edit = (from: string, to: string): Uint8Array => {
      expect(to.length).toBe(from.length)
      expect(text).toContain(from)
      return reseal(patch(p, text.indexOf(from), to))
    }
    expect(() => decodePreview(edit('"light":{"dims":[24,24,24]', '"light":{"dims":[24,24,23]'))).toThrow(/^Cached frame preview is corrupt: light does not decode: the runs cover/)
    expect(() => decodePreview(edit('"light":{"dims":[24,24,24]', '"light":{"dims":[24,24,99]'))).toThrow(/^Cached frame preview is corrupt: bad light dims$/)
    const tb = /"texelCodeBytes":(\d+)/.exec(text)![1]
    expect(() => decodePreview(edit(`"texelCodeBytes":${tb}`, `"texelCodeBytes":-${tb.slice(1)}`))).toThrow(/^Cached frame preview is corrupt: bad texel code length$/)
  })

  it('withoutVolumes keeps particles, meshes, time, frame and stats, and refuses a damaged record', () => {
    const f = { ...frame, stats: { substeps: 2, ms: Number.NaN } }
    f.particles = [{ name: 'vortex', count: 2, positions: new Float32Array([0, 1, 2, 3, 4, 5]), attributes: { id: { components: 1, data: new Float32Array([7, 8]) } } }]
    f.meshes = [{ name: 'm', positions: new Float32Array([0, 0, 0, 1, 0, 0, 0, 1, 0]), indices: new Uint32Array([0, 1, 2]) }]
    const rec = encodeFrame(f, { precision: 'float16' })
    const slim = withoutVolumes(rec)
    expect(slim.length).toBeLessThan(rec.length / 3)
    const back = decodeFrame(slim)
    const full = decodeFrame(rec)
    expect(back.volumes).toEqual([])
    expect({ ...back, volumes: full.volumes }).toEqual(full)
    const bad = rec.slice()
    bad[bad.length - 9] ^= 1
    expect(() => withoutVolumes(bad)).toThrow(/Cached frame record is corrupt: CRC mismatch/)
  })
})

/** p with the ASCII text `to` written at byte `at`. */
function patch(p: Uint8Array, at: number, to: string): Uint8Array {
  const out = p.slice()
  for (let i = 0; i < to.length; i++) out[at + i] = to.charCodeAt(i)
  return out
}
