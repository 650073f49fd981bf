// The viewport preview stored with each smoke frame: round trip, the bundle the viewport
// fetches, and corruption named as such.
import { describe, expect, it } from 'vitest'
import { decodePreview, encodePreview, parsePreview, PREVIEW_DEFLATE, PREVIEW_ZERO_RUNS } from '../../../src-shared/formats/framePreview'
import { decodeFrame, encodeFrame, withoutVolumes } from '../../../src-shared/formats/frameRecord'
import { volumeDisplay } from '../../../src-shared/formats/volumePreview'
import { decodeForDisplay, splitDisplayBundle } from '../../../src-renderer/viewport/cache/displayData'
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

describe('frame preview', () => {
  it('round trips the texels and the numbers the shader needs', () => {
    const back = decodePreview(encodePreview(v))
    expect(back).toEqual(v)
    expect(back.texels.some((t) => t > 0)).toBe(true)
  })

  it('writes zero-run coded texels and still reads the deflated previews of older bakes', () => {
    expect(parsePreview(encodePreview(v)).version).toBe(PREVIEW_ZERO_RUNS)
    const old = encodePreview(v, PREVIEW_DEFLATE)
    expect(parsePreview(old).version).toBe(PREVIEW_DEFLATE)
    expect(decodePreview(old)).toEqual(v)
    const record = encodeFrame(frame, { precision: 'float32' })
    expect(decodeForDisplay(bundle(old, record), { ambientTemperature: 293.15 }).volume).toEqual(decodeForDisplay(bundle(encodePreview(v), record), { ambientTemperature: 293.15 }).volume)
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
