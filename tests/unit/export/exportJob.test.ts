// Export jobs end to end on small synthetic frames: which files each format writes, their
// names and padding, the manifest, frame ranges, and the Y-up -> Z-up conversion read back
// from the files themselves (OBJ with Eddy's parser, PLY with a reader here, glTF with NodeIO).
import { NodeIO } from '@gltf-transform/core'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { runExport, type ExportManifest } from '../../../src-main/export/exportJob'
import { parseObj } from '../../../src-shared/formats/obj'
import { boxMesh, frameOf, liquidSource, particleSet, smokeSource, sourceOf } from './fixtures'
import { listDir, readPly, removeTempDirs, tempDir } from './readBack'

afterAll(removeTempDirs)
const manifestOn = (dir: string, base: string, format: string): ExportManifest => JSON.parse(readFileSync(join(dir, `${base}_${format}_manifest.json`), 'utf8'))
/** Eddy Y-up point as a Z-up tool sees it. */
const zUp = ([x, y, z]: number[]) => [x, -z, y]
const triples = (a: ArrayLike<number>) => Array.from({ length: a.length / 3 }, (_, i) => [a[3 * i], a[3 * i + 1], a[3 * i + 2]])

describe('runExport: files and names', () => {
  it('vdb writes one file per frame with a sanitized base name, padding and a manifest that matches', async () => {
    const dir = join(tempDir(), 'new', 'folder') // created on the way
    const manifest = await runExport(smokeSource(), { format: 'vdb', outDir: dir })
    expect(listDir(dir)).toEqual(['Smoke_Plume_1_0001.vdb', 'Smoke_Plume_1_0002.vdb', 'Smoke_Plume_1_0003.vdb', 'Smoke_Plume_1_vdb_manifest.json'])
    expect(manifestOn(dir, 'Smoke_Plume_1', 'vdb')).toEqual(manifest)
    expect(manifest).toMatchObject({ manifestVersion: 1, format: 'vdb', upAxis: 'z', fps: 24, frameStart: 1, frameEnd: 3, padding: 4, baseName: 'Smoke_Plume_1', simName: 'Smoke Plume #1' })
    const f1 = manifest.files[0]
    expect(f1).toMatchObject({ frame: 1, path: 'Smoke_Plume_1_0001.vdb', kind: 'volume', name: 'density, temperature, velocity' })
    // A radius-4 ball holds 257 cells, its radius-2 core 33; velocity is set on the whole ball.
    expect(f1.grids).toEqual([
      { name: 'density', type: 'float', voxels: 257, voxelSize: 0.05 },
      { name: 'temperature', type: 'float', voxels: 33, voxelSize: 0.05 },
      { name: 'velocity', type: 'vec3s', voxels: 257, voxelSize: 0.05 },
    ])
    expect(f1.counts).toEqual({ voxels: 257 + 33 + 257 })
    const bytes = readFileSync(join(dir, f1.path))
    expect(bytes.readUInt32LE(0)).toBe(0x56444220) // OpenVDB magic
  })

  it('obj writes one file per mesh per frame, qualified by mesh name when a frame has several', async () => {
    const dir = tempDir()
    const src = sourceOf('two', [7, 8], (f) => frameOf(f, { meshes: [boxMesh('surface', [0, 0, 0], [1, 1, 1]), boxMesh('splash', [2, 0, 0], [3, 1, 1])] }))
    const m = await runExport(src, { format: 'obj', outDir: dir, padding: 3 })
    expect(listDir(dir)).toEqual(['two_obj_manifest.json', 'two_splash_007.obj', 'two_splash_008.obj', 'two_surface_007.obj', 'two_surface_008.obj'])
    expect(m.files.map((f) => [f.frame, f.path, f.kind, f.name, f.counts])).toEqual([
      [7, 'two_surface_007.obj', 'mesh', 'surface', { vertices: 24, triangles: 12 }],
      [7, 'two_splash_007.obj', 'mesh', 'splash', { vertices: 24, triangles: 12 }],
      [8, 'two_surface_008.obj', 'mesh', 'surface', { vertices: 24, triangles: 12 }],
      [8, 'two_splash_008.obj', 'mesh', 'splash', { vertices: 24, triangles: 12 }],
    ])
    const text = readFileSync(join(dir, 'two_splash_008.obj'), 'utf8')
    expect(text.match(/^vn /gm)).toHaveLength(24)
    expect(text).toMatch(/^f 1\/\/1 /m)
  })

  it('ply writes particles and meshes of each frame; a frame number longer than the padding keeps its digits', async () => {
    const dir = tempDir()
    const src = liquidSource([99, 100])
    const m = await runExport(src, { format: 'ply', outDir: dir, padding: 2, baseName: 'shot-12.liquid' })
    expect(listDir(dir)).toEqual(['shot-12.liquid_ply_manifest.json', 'shot-12.liquid_spray_100.ply', 'shot-12.liquid_spray_99.ply', 'shot-12.liquid_surface_100.ply', 'shot-12.liquid_surface_99.ply'])
    expect(m.files.map((f) => [f.path, f.kind, f.counts])).toEqual([
      ['shot-12.liquid_spray_99.ply', 'particles', { particles: 5 }],
      ['shot-12.liquid_surface_99.ply', 'mesh', { vertices: 24, triangles: 12 }],
      ['shot-12.liquid_spray_100.ply', 'particles', { particles: 5 }],
      ['shot-12.liquid_surface_100.ply', 'mesh', { vertices: 24, triangles: 12 }],
    ])
  })

  it('keeps one name per item for the whole sequence when later frames add items', async () => {
    const dir = tempDir()
    const src = sourceOf('drip', [1, 2], (f) => frameOf(f, { meshes: f === 1 ? [boxMesh('surface', [0, 0, 0], [1, 1, 1])] : [boxMesh('surface', [0, 0, 0], [1, 1, 1]), boxMesh('drop', [0, 2, 0], [0.1, 2.1, 0.1])] }))
    await runExport(src, { format: 'obj', outDir: dir })
    expect(listDir(dir)).toEqual(['drip_0001.obj', 'drip_0002.obj', 'drip_drop_0002.obj', 'drip_obj_manifest.json'])
  })

  it('exports only the requested frame range and reads only those frames', async () => {
    const dir = tempDir()
    const src = smokeSource([1, 2, 3, 4, 5])
    const m = await runExport(src, { format: 'vdb', outDir: dir, frameStart: 2, frameEnd: 4, padding: 1, baseName: 'plume' })
    expect(src.reads).toEqual([2, 3, 4])
    expect(listDir(dir)).toEqual(['plume_2.vdb', 'plume_3.vdb', 'plume_4.vdb', 'plume_vdb_manifest.json'])
    expect([m.frameStart, m.frameEnd, m.padding]).toEqual([2, 4, 1])
  })

  it('replaces files of an earlier export of the same name', async () => {
    const dir = tempDir()
    await runExport(liquidSource([1]), { format: 'obj', outDir: dir, baseName: 'a' })
    const first = readFileSync(join(dir, 'a_0001.obj'), 'utf8')
    const src = sourceOf('liquid', [1], (f) => frameOf(f, { meshes: [boxMesh('surface', [0, 0, 0], [5, 5, 5])] }))
    await runExport(src, { format: 'obj', outDir: dir, baseName: 'a' })
    expect(readFileSync(join(dir, 'a_0001.obj'), 'utf8')).not.toBe(first)
    expect(listDir(dir)).toEqual(['a_0001.obj', 'a_obj_manifest.json'])
  })

  it('exports of two formats into one folder keep one manifest each', async () => {
    const dir = tempDir()
    const obj = await runExport(liquidSource([1, 2]), { format: 'obj', outDir: dir, baseName: 'a' })
    const ply = await runExport(liquidSource([1, 2]), { format: 'ply', outDir: dir, baseName: 'a' })
    expect(listDir(dir).filter((f) => f.endsWith('.json'))).toEqual(['a_obj_manifest.json', 'a_ply_manifest.json'])
    expect(manifestOn(dir, 'a', 'obj')).toEqual(obj)
    expect(manifestOn(dir, 'a', 'ply')).toEqual(ply)
    expect(obj.files.every((f) => f.path.endsWith('.obj'))).toBe(true)
  })
})

describe('runExport: axes', () => {
  const box = boxMesh('surface', [0.5, 1, -2], [1.5, 3, -1])

  it('obj defaults to Y up (Eddy coordinates, bit for bit) and converts to Z up on request', async () => {
    const src = sourceOf('box', [1], (f) => frameOf(f, { meshes: [box] }))
    const yDir = tempDir()
    await runExport(src, { format: 'obj', outDir: yDir })
    const y = parseObj(readFileSync(join(yDir, 'box_0001.obj')), 'y')
    expect(Array.from(y.positions)).toEqual(Array.from(box.positions))
    expect(Array.from(y.indices)).toEqual(Array.from(box.indices))

    const zDir = tempDir()
    const m = await runExport(src, { format: 'obj', outDir: zDir, upAxis: 'z' })
    expect(m.upAxis).toBe('z')
    const text = readFileSync(join(zDir, 'box_0001.obj'), 'utf8')
    const z = parseObj(new TextEncoder().encode(text), 'z')
    expect(triples(z.positions)).toEqual(triples(box.positions).map(zUp))
    // Normals rotate with the points: +Y face normal (0,1,0) becomes +Z.
    const vn = text.split('\n').filter((l) => l.startsWith('vn ')).map((l) => l.slice(3).split(' ').map(Number))
    expect(vn).toEqual(triples(box.normals!).map(zUp).map((v) => v.map((c) => c + 0)))
    expect(vn).toContainEqual([0, 0, 1])
  })

  it('ply defaults to Z up and rotates positions, velocity and mesh normals, keeping ids and scalars', async () => {
    const dir = tempDir()
    const set = particleSet('spray', 4, 3)
    const src = sourceOf('p', [3], (f) => frameOf(f, { particles: [set], meshes: [box] }))
    const m = await runExport(src, { format: 'ply', outDir: dir })
    expect(m.upAxis).toBe('z')
    const p = readPly(readFileSync(join(dir, 'p_spray_0003.ply')))
    expect(p.header).toContain('property uint id')
    expect(p.elements[0].props.map((q) => q.name)).toEqual(['x', 'y', 'z', 'vx', 'vy', 'vz', 'id', 'age'])
    const cols = (a: string, b: string, c: string) => p.vertex[a].map((_, i) => [p.vertex[a][i], p.vertex[b][i], p.vertex[c][i]])
    expect(cols('x', 'y', 'z')).toEqual(triples(set.positions).map(zUp).map((v) => v.map(Math.fround)))
    expect(cols('vx', 'vy', 'vz')).toEqual(triples(set.attributes.velocity.data).map(zUp))
    expect(p.vertex.id).toEqual([100, 101, 102, 103])
    expect(p.vertex.age).toEqual(Array.from(set.attributes.age.data))

    const mesh = readPly(readFileSync(join(dir, 'p_surface_0003.ply')))
    const mp = mesh.vertex
    expect(mp.x.map((_, i) => [mp.x[i], mp.y[i], mp.z[i]])).toEqual(triples(box.positions).map(zUp))
    expect(mp.nx.map((_, i) => [mp.nx[i], mp.ny[i], mp.nz[i]])).toEqual(triples(box.normals!).map(zUp).map((v) => v.map((c) => c + 0)))
    expect(mesh.faces).toEqual(triples(box.indices))
  })

  it('ply in Y up writes the particle set unchanged', async () => {
    const dir = tempDir()
    const set = particleSet('spray', 3, 1)
    await runExport(sourceOf('p', [1], (f) => frameOf(f, { particles: [set] })), { format: 'ply', outDir: dir, upAxis: 'y' })
    const p = readPly(readFileSync(join(dir, 'p_0001.ply')))
    expect(p.vertex.y).toEqual(triples(set.positions).map((v) => v[1]))
    expect(p.vertex.vy).toEqual([2, 3, 4])
  })

  it.each(['gltf', 'glb'] as const)('%s holds every mesh of the frame in Y up and reads back with NodeIO', async (format) => {
    const dir = tempDir()
    const other = boxMesh('splash', [3, 0, 0], [4, 1, 1])
    const empty = { name: 'empty', positions: new Float32Array(0), indices: new Uint32Array(0) }
    const src = sourceOf('g', [1, 2], (f) => frameOf(f, { meshes: [box, other, empty] }))
    const m = await runExport(src, { format, outDir: dir })
    expect(listDir(dir)).toEqual([`g_0001.${format}`, `g_0002.${format}`, `g_${format}_manifest.json`])
    expect(m.files[0]).toMatchObject({ kind: 'mesh', name: 'surface, splash, empty', counts: { vertices: 48, triangles: 24 } })
    const doc = await new NodeIO().read(join(dir, `g_0002.${format}`))
    const nodes = doc.getRoot().getDefaultScene()!.listChildren()
    expect(nodes.map((n) => n.getName())).toEqual(['surface', 'splash', 'empty'])
    expect(nodes[2].getMesh()).toBeNull()
    const prim = nodes[0].getMesh()!.listPrimitives()[0]
    expect(Array.from(prim.getAttribute('POSITION')!.getArray()!)).toEqual(Array.from(box.positions))
    expect(Array.from(prim.getAttribute('NORMAL')!.getArray()!)).toEqual(Array.from(box.normals!))
    expect(Array.from(prim.getIndices()!.getArray()!)).toEqual(Array.from(box.indices))
    expect(doc.getRoot().getDefaultScene()!.getExtras()).toEqual({ eddyFrame: 2, eddyTime: 1 / 24 })
    if (format === 'gltf') expect(readFileSync(join(dir, 'g_0001.gltf'), 'utf8')).toMatch(/"uri":"data:application\/octet-stream;base64,/)
  })
})
