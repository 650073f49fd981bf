// decodeFrameAsync (sections inflated by a native inflater) gives what decodeFrame gives, and
// names the same corruption.
import { describe, expect, it } from 'vitest'
import { EddyError } from '../../../src-shared/api/errors'
import { crc32, decodeFrame, decodeFrameAsync, encodeFrame } from '../../../src-shared/formats/frameRecord'
import { nativeInflate } from '../../../src-renderer/viewport/cache/displayData'
import { plume } from '../../fixtures/smokePlume'

const inflate = nativeInflate()!

describe('decodeFrameAsync', () => {
  it('matches decodeFrame bit for bit, whole and partial', async () => {
    expect(inflate).not.toBeNull()
    const frame = plume(24)
    frame.particles.push({ name: 'vortex', count: 2, positions: new Float32Array([0, 1, 2, 3, 4, 5]), attributes: { id: { components: 1, data: new Float32Array([7, 8]) } } })
    frame.meshes.push({ name: 'm', positions: new Float32Array(9), indices: new Uint32Array([0, 1, 2]) })
    const rec = encodeFrame(frame, { precision: 'float16' })
    expect(await decodeFrameAsync(rec, inflate)).toEqual(decodeFrame(rec))
    const part = await decodeFrameAsync(rec, inflate, { volumes: ['density'] })
    expect(part.volumes.map((v) => v.name)).toEqual(['density'])
    expect(part).toEqual(decodeFrame(rec, { volumes: ['density'] }))
  })

  it('a section that does not inflate, or inflates to the wrong size, is PROJECT_FORMAT', async () => {
    const rec = encodeFrame(plume(16))
    const hl = new DataView(rec.buffer, rec.byteOffset).getUint32(8, true)
    const bad = rec.slice()
    bad.fill(0xff, 20 + hl, 20 + hl + 16) // garble the first section's deflate stream
    new DataView(bad.buffer).setUint32(16, crc32(bad, 20, bad.length, crc32(bad, 0, 16)), true)
    const err = await decodeFrameAsync(bad, inflate).catch((e: unknown) => e)
    expect(err).toBeInstanceOf(EddyError)
    expect((err as EddyError).code).toBe('PROJECT_FORMAT')
    expect((err as Error).message).toMatch(/^Cached frame record is corrupt: volume 0 (does not inflate|inflates to)/)
    const short = await decodeFrameAsync(rec, async () => new Uint8Array(3)).catch((e: unknown) => e)
    expect((short as Error).message).toMatch(/volume 0 inflates to 3 bytes/)
  })
})
