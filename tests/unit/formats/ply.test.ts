import { describe, expect, it } from 'vitest'
import { execFileSync } from 'node:child_process'
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { writeMeshPly, writeParticlePly } from '../../../src-shared/formats/ply'

/** A small reader for what the writer emits: header lines, then little-endian rows. */
function readPly(bytes: Uint8Array): { header: string[]; body: DataView; offset: number } {
  let end = 0
  const text = String.fromCharCode(...bytes.subarray(0, Math.min(bytes.length, 4096)))
  end = text.indexOf('end_header\n') + 'end_header\n'.length
  return { header: text.slice(0, end).trim().split('\n'), body: new DataView(bytes.buffer, bytes.byteOffset), offset: end }
}

describe('binary PLY', () => {
  it('writes particles with positions, velocity, vector attributes and integer ids', () => {
    const bytes = writeParticlePly({
      name: 'vortex',
      count: 2,
      positions: new Float32Array([1, 2, 3, -4, 5.5, 6]),
      attributes: {
        velocity: { components: 3, data: new Float32Array([0.1, 0.2, 0.3, 0.4, 0.5, 0.6]) },
        vorticity: { components: 3, data: new Float32Array([7, 8, 9, 10, 11, 12]) },
        id: { components: 1, data: new Float32Array([41, 42]) },
      },
    })
    const { header, body, offset } = readPly(bytes)
    expect(header).toEqual([
      'ply',
      'format binary_little_endian 1.0',
      'comment Eddy particle cache',
      'element vertex 2',
      ...['x', 'y', 'z', 'vx', 'vy', 'vz', 'vorticity_x', 'vorticity_y', 'vorticity_z'].map((p) => `property float ${p}`),
      'property uint id',
      'end_header',
    ])
    expect(bytes.length).toBe(offset + 2 * 10 * 4)
    const row = (v: number) => Array.from({ length: 9 }, (_, c) => +body.getFloat32(offset + v * 40 + 4 * c, true).toFixed(5))
    expect(row(1)).toEqual([-4, 5.5, 6, 0.4, 0.5, 0.6, 10, 11, 12])
    expect(body.getUint32(offset + 36, true)).toBe(41)
    expect(body.getUint32(offset + 40 + 36, true)).toBe(42)
  })

  it('writes a triangle mesh with normals and faces', () => {
    const bytes = writeMeshPly({
      name: 'tri',
      positions: new Float32Array([0, 0, 0, 1, 0, 0, 0, 1, 0]),
      normals: new Float32Array([0, 0, 1, 0, 0, 1, 0, 0, 1]),
      indices: new Uint32Array([0, 1, 2]),
    })
    const { header, body, offset } = readPly(bytes)
    expect(header).toContain('element face 1')
    expect(header).toContain('property list uchar uint vertex_indices')
    const faces = offset + 3 * 6 * 4
    expect(body.getFloat32(offset + 24, true)).toBe(1) // second vertex x
    expect(body.getFloat32(offset + 20, true)).toBe(1) // first vertex nz
    expect([body.getUint8(faces), body.getUint32(faces + 1, true), body.getUint32(faces + 5, true), body.getUint32(faces + 9, true)]).toEqual([3, 0, 1, 2])
    expect(bytes.length).toBe(faces + 13)
  })

  it('refuses inconsistent arrays and bad names with typed errors', () => {
    expect(() => writeParticlePly({ name: 'p', count: 2, positions: new Float32Array(3), attributes: {} })).toThrow(/positions/)
    expect(() => writeParticlePly({ name: 'p', count: 1, positions: new Float32Array(3), attributes: { 'bad name': { components: 1, data: new Float32Array(1) } } })).toThrow(/property name/)
    expect(() => writeMeshPly({ name: 'm', positions: new Float32Array(9), indices: new Uint32Array([0, 1, 3]) })).toThrow(/uses vertex 3 of 3/)
  })
})

describe('binary PLY in Blender', () => {
  const blender = ['/usr/bin/blender', '/usr/local/bin/blender'].find((p) => existsSync(p))
  it.skipIf(!blender)('imports our mesh and particle files with the same counts (skipped without blender on PATH)', () => {
    const dir = mkdtempSync(join(tmpdir(), 'eddy-ply-'))
    writeFileSync(join(dir, 'm.ply'), writeMeshPly({ name: 'quad', positions: new Float32Array([0, 0, 0, 1, 0, 0, 0, 1, 0, 1, 1, 0]), indices: new Uint32Array([0, 1, 2, 1, 3, 2]) }))
    writeFileSync(join(dir, 'p.ply'), writeParticlePly({ name: 'p', count: 3, positions: new Float32Array([0, 0, 0, 1, 1, 1, 2, 2, 2]), attributes: { id: { components: 1, data: new Float32Array([1, 2, 3]) } } }))
    const script = [
      'import bpy',
      'bpy.ops.wm.read_factory_settings(use_empty=True)',
      `bpy.ops.import_mesh.ply(filepath=${JSON.stringify(join(dir, 'm.ply'))})`,
      "o = bpy.context.selected_objects[0]; print('EDDY_MESH', len(o.data.vertices), len(o.data.polygons))",
      `bpy.ops.import_mesh.ply(filepath=${JSON.stringify(join(dir, 'p.ply'))})`,
      "o = bpy.context.selected_objects[0]; print('EDDY_POINTS', len(o.data.vertices))",
    ].join('\n')
    const out = execFileSync(blender!, ['-b', '--python-expr', script], { encoding: 'utf8', timeout: 120_000 })
    expect(out).toMatch(/EDDY_MESH 4 2/)
    expect(out).toMatch(/EDDY_POINTS 3/)
  })
})
