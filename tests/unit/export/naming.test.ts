// The small pieces behind export file names and messages: sequence naming with colliding
// item names, frame-range sentences, name sanitizing, and the glTF writer's own base64 and
// UTF-8 encoders (src-shared has neither Buffer nor TextEncoder).
import { WebIO } from '@gltf-transform/core'
import { describe, expect, it } from 'vitest'
import { describeFrames, sanitizeName } from '../../../src-main/export/exportOptions'
import { frameDigits, SequenceNamer } from '../../../src-main/export/fileNames'
import { toBase64, writeGltfFrame } from '../../../src-shared/formats/gltfSequence'
import { boxMesh } from './fixtures'

describe('export naming', () => {
  it('pads frame numbers without ever cutting digits', () => {
    expect([frameDigits(7, 4), frameDigits(12345, 4), frameDigits(3, 1), frameDigits(-2, 3)]).toEqual(['0007', '12345', '3', '-002'])
  })

  it('keeps names unique when item names sanitize alike or a particle set and a mesh share one', () => {
    const items = [
      { key: 'particles:foam', name: 'foam', kind: 'particles' },
      { key: 'mesh:foam', name: 'foam', kind: 'mesh' },
      { key: 'mesh:a b', name: 'a b', kind: 'mesh' },
      { key: 'mesh:a_b', name: 'a_b', kind: 'mesh' },
      { key: 'mesh:a/b', name: 'a/b', kind: 'mesh' },
      { key: 'mesh:', name: '', kind: 'mesh' },
    ]
    const namer = new SequenceNamer('sim', 4, 'ply', items)
    expect(items.map((i) => namer.fileName(i, 3))).toEqual([
      'sim_foam_0003.ply', 'sim_foam_mesh_0003.ply', 'sim_a_b_0003.ply', 'sim_a_b_mesh_0003.ply', 'sim_a_b_mesh2_0003.ply', 'sim_mesh_0003.ply',
    ])
    // Stable across frames, whatever order items come in later.
    expect(namer.fileName(items[4], 10)).toBe('sim_a_b_mesh2_0010.ply')
  })

  it('describes missing frames as ranges', () => {
    expect(describeFrames([12, 13, 14, 15])).toBe('Frames 12-15')
    expect(describeFrames([3, 7, 8, 9, 12])).toBe('Frames 3, 7-9 and 12')
    expect(describeFrames([1, 3, 5, 7, 9, 11, 13, 15])).toBe('Frames 1, 3, 5, 7, 9, 11 and 2 more ranges')
  })

  it('sanitizes simulation names for file names', () => {
    expect(sanitizeName('Smoke Plume #1', 'x')).toBe('Smoke_Plume_1')
    expect(sanitizeName('../../etc', 'x')).toBe('etc')
    expect(sanitizeName('ÿ€', 'fallback')).toBe('fallback')
  })
})

describe('glTF frame writer encoders', () => {
  it('base64 matches Node for every tail length', () => {
    for (const n of [0, 1, 2, 3, 4, 5, 7000]) {
      const bytes = Uint8Array.from({ length: n }, (_, i) => (i * 37 + 11) & 255)
      expect(toBase64(bytes)).toBe(Buffer.from(bytes).toString('base64'))
    }
  })

  it('writes non-ASCII mesh names as UTF-8 that glTF readers decode', async () => {
    const { bytes } = await writeGltfFrame([boxMesh('écume 🌊', [0, 0, 0], [1, 1, 1])], { binary: false })
    const json = JSON.parse(Buffer.from(bytes).toString('utf8'))
    expect(json.nodes[0].name).toBe('écume 🌊')
    const doc = await new WebIO().readJSON({ json, resources: {} })
    expect(doc.getRoot().listMeshes()[0].getName()).toBe('écume 🌊')
  })

  it('refuses a mesh whose triangles use missing vertices', async () => {
    await expect(writeGltfFrame([{ name: 'bad', positions: new Float32Array(9), indices: new Uint32Array([0, 1, 3]) }], { binary: true })).rejects.toThrow(/triangle 0 uses vertex 3 of 3/)
  })
})
