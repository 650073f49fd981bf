// decodeFrame(bytes, { volumes }) decodes only the named volumes: the viewport skips velocity.
// Skipped sections must still be covered by the CRC and the record's length checks.
import { describe, expect, it } from 'vitest'
import { EddyError } from '../../../src-shared/api/errors'
import { crc32, decodeFrame, encodeFrame } from '../../../src-shared/formats/frameRecord'
import type { FrameData, Volume } from '../../../src-shared/sim/frame'

function volume(name: string, components: 1 | 3, seed: number): Volume {
  const dims: [number, number, number] = [9, 5, 6]
  const data = new Float32Array(dims[0] * dims[1] * dims[2] * components)
  for (let i = 0; i < data.length; i++) data[i] = i % 7 === 0 ? 0 : Math.sin(i * 0.37 + seed) * 3
  return { name, components, dims, voxelSize: 0.1, origin: [-0.5, 0, 0.25], data }
}

function frame(): FrameData {
  return {
    time: 0.5,
    frame: 13,
    volumes: [volume('density', 1, 1), volume('velocity', 3, 2), volume('temperature', 1, 3)],
    meshes: [{ name: 'surface', positions: new Float32Array([0, 0, 0, 1, 0, 0, 0, 1, 0]), indices: new Uint32Array([0, 1, 2]) }],
    particles: [{ name: 'p', count: 2, positions: new Float32Array([1, 2, 3, 4, 5, 6]), attributes: { strength: { components: 1, data: new Float32Array([0.5, 2]) } } }],
    stats: { substeps: 2 },
  }
}

function formatError(f: () => unknown): EddyError {
  try {
    f()
  } catch (e) {
    expect(e).toBeInstanceOf(EddyError)
    expect((e as EddyError).code).toBe('PROJECT_FORMAT')
    return e as EddyError
  }
  throw new Error('expected a PROJECT_FORMAT error')
}

describe('decodeFrame with a volume list', () => {
  const src = frame()
  const bytes = encodeFrame(src, { precision: 'float16' })

  it('returns only the listed volumes, in record order, equal to a full decode', () => {
    const full = decodeFrame(bytes)
    const part = decodeFrame(bytes, { volumes: ['temperature', 'density'] })
    expect(part.volumes.map((v) => v.name)).toEqual(['density', 'temperature'])
    expect(part.volumes[0]).toEqual(full.volumes[0])
    expect(part.volumes[1]).toEqual(full.volumes[2])
    // Meshes, particles, time and stats come after the skipped section: their offsets must be right.
    expect(part.meshes).toEqual(full.meshes)
    expect(part.particles).toEqual(full.particles)
    expect(part.frame).toBe(13)
    expect(part.stats).toEqual({ substeps: 2 })
  })

  it('an empty list decodes no volume, an unknown name is simply absent, no option decodes all', () => {
    expect(decodeFrame(bytes, { volumes: [] }).volumes).toEqual([])
    expect(decodeFrame(bytes, { volumes: ['smoke'] }).volumes).toEqual([])
    expect(decodeFrame(bytes, {}).volumes.map((v) => v.name)).toEqual(['density', 'velocity', 'temperature'])
  })

  it('a flipped byte inside a skipped section still fails the CRC', () => {
    const full = decodeFrame(bytes)
    expect(full.volumes).toHaveLength(3)
    // The velocity section is the second: find it from the header's packed lengths.
    const dv = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength)
    const headerLength = dv.getUint32(8, true)
    const header = JSON.parse(new TextDecoder().decode(bytes.subarray(20, 20 + headerLength))) as { volumes: { packed: number }[] }
    const velocityStart = 20 + headerLength + header.volumes[0].packed
    const bad = bytes.slice()
    bad[velocityStart + Math.floor(header.volumes[1].packed / 2)] ^= 0x10
    expect(formatError(() => decodeFrame(bad, { volumes: ['density'] })).message).toMatch(/CRC/)
  })

  it('a skipped section whose length runs past the record is refused even with a valid CRC', () => {
    // Rewrite the header so velocity claims more packed bytes than exist, then fix up lengths
    // and the CRC: only the bounds check can catch it.
    const dv = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength)
    const headerLength = dv.getUint32(8, true)
    const payloadLength = dv.getUint32(12, true)
    const header = JSON.parse(new TextDecoder().decode(bytes.subarray(20, 20 + headerLength))) as { volumes: { packed: number }[] }
    header.volumes[1].packed += payloadLength
    const headerBytes = new TextEncoder().encode(JSON.stringify(header))
    const out = new Uint8Array(20 + headerBytes.length + payloadLength)
    out.set(bytes.subarray(0, 20))
    out.set(headerBytes, 20)
    out.set(bytes.subarray(20 + headerLength), 20 + headerBytes.length)
    const odv = new DataView(out.buffer)
    odv.setUint32(8, headerBytes.length, true)
    odv.setUint32(16, crc32(out, 20, out.length, crc32(out, 0, 16)), true)
    expect(formatError(() => decodeFrame(out, { volumes: ['density', 'temperature'] })).message).toMatch(/volume 1 runs past the end/)
  })
})
