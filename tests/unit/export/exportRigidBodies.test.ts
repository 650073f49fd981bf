// Rigid bodies and mesh attributes through the exporters, read back from the files: the glTF
// animation's keys per body and frame (NodeIO), the posed world-space triangles in OBJ and
// PLY (checked against poses computed here from axis and angle, not with Eddy's own helper),
// and per-vertex attributes as PLY properties, OBJ vertex colours and glTF accessors.
import { NodeIO } from '@gltf-transform/core'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { runExport } from '../../../src-main/export/exportJob'
import { parseGltf } from '../../../src-shared/formats/gltf'
import { parseObj } from '../../../src-shared/formats/obj'
import { linearToSrgb } from '../../../src-shared/formats/vertexColour'
import type { FrameData, FrameMesh, RigidBodyState } from '../../../src-shared/sim/frame'
import { boxMesh, frameOf, sourceOf } from './fixtures'
import { listDir, readPly, removeTempDirs, tempDir } from './readBack'

afterAll(removeTempDirs)

type V3 = [number, number, number]
const FPS = 24
const AXIS_A: V3 = [0, 1, 0]
const AXIS_B: V3 = [Math.SQRT1_2, Math.SQRT1_2, 0]
const angleA = (f: number) => 0.3 * f
const angleB = (f: number) => 0.5 * f
const posA = (f: number): V3 => [f, 1, -0.5 * f]
const posB = (f: number): V3 => [0, 2 + 0.1 * f, 3]

function quat(axis: V3, angle: number): [number, number, number, number] {
  const s = Math.sin(angle / 2)
  return [axis[0] * s, axis[1] * s, axis[2] * s, Math.cos(angle / 2)]
}

/** Rodrigues: v rotated by angle about the unit axis, then moved by t. */
function pose(v: V3, axis: V3, angle: number, t: V3): V3 {
  const [kx, ky, kz] = axis
  const c = Math.cos(angle), s = Math.sin(angle)
  const dot = kx * v[0] + ky * v[1] + kz * v[2]
  const cross: V3 = [ky * v[2] - kz * v[1], kz * v[0] - kx * v[2], kx * v[1] - ky * v[0]]
  return [0, 1, 2].map((i) => v[i] * c + cross[i] * s + axis[i] * dot * (1 - c) + t[i]) as V3
}

const triples = (a: ArrayLike<number>): V3[] => Array.from({ length: a.length / 3 }, (_, i) => [a[3 * i], a[3 * i + 1], a[3 * i + 2]])

function expectPoints(got: V3[], want: V3[], digits = 4): void {
  expect(got.length).toBe(want.length)
  got.forEach((p, i) => p.forEach((x, k) => expect(x, `point ${i}[${k}]`).toBeCloseTo(want[i][k], digits)))
}

function crateMesh(): FrameMesh {
  const m = boxMesh('crate local', [-0.5, -0.25, -0.5], [0.5, 0.25, 0.5])
  const n = m.positions.length / 3
  m.attributes = { color: { components: 3, data: new Float32Array(3 * n).map((_, i) => ((i % 3) + 1) / 4) } }
  return m
}

const ballMesh = (): FrameMesh => ({
  name: 'ball local',
  positions: new Float32Array([0, 0, 0, 0.2, 0, 0, 0, 0.2, 0, 0, 0, 0.2]),
  indices: new Uint32Array([0, 2, 1, 0, 1, 3, 0, 3, 2, 1, 2, 3]),
})

function bodies(f: number): RigidBodyState[] {
  return [
    { id: 'obj-a', name: 'Crate', position: posA(f), orientation: quat(AXIS_A, angleA(f)), linearVelocity: [1, 0, -0.5], angularVelocity: [0, 0.3 * FPS, 0], mesh: crateMesh() },
    { id: 'obj-b', name: 'Ball', position: posB(f), orientation: quat(AXIS_B, angleB(f)), linearVelocity: [0, 0.1, 0], angularVelocity: [0, 0, 0], mesh: ballMesh() },
  ]
}

/** A liquid surface with a colour, a scalar and a vector per vertex. */
function surface(f: number): FrameMesh {
  const m = boxMesh('surface', [0, 0, 0], [1, 0.5, 2])
  const n = m.positions.length / 3
  m.attributes = {
    color: { components: 3, data: new Float32Array(3 * n).map((_, i) => (i % 7) / 6) },
    density: { components: 1, data: new Float32Array(n).map((_, i) => i * 0.5 + f) },
    velocity: { components: 3, data: new Float32Array(3 * n).map((_, i) => i - 3) },
  }
  return m
}

const withBodies = (f: number, meshes: FrameMesh[] = []): FrameData => ({ ...frameOf(f, { meshes }), rigidBodies: bodies(f) })
const FRAMES = [1, 2, 3]
const crateWorld = (f: number) => triples(crateMesh().positions).map((v) => pose(v, AXIS_A, angleA(f), posA(f)))
const ballWorld = (f: number) => triples(ballMesh().positions).map((v) => pose(v, AXIS_B, angleB(f), posB(f)))

describe('rigid bodies in glTF', () => {
  it('glb: one animated file whose node channels key each body at every frame, plus a posed file per frame', async () => {
    const dir = tempDir()
    const m = await runExport(sourceOf('bodies', FRAMES, (f) => withBodies(f)), { format: 'glb', outDir: dir })
    expect(listDir(dir)).toEqual(['bodies_0001.glb', 'bodies_0002.glb', 'bodies_0003.glb', 'bodies_glb_manifest.json', 'bodies_rigid_bodies.glb'])
    const anim = m.files.find((x) => x.kind === 'animation')!
    expect(anim).toMatchObject({ frame: 1, lastFrame: 3, path: 'bodies_rigid_bodies.glb', name: 'Crate, Ball', counts: { bodies: 2, keyframes: 6, vertices: 28, triangles: 16 } })

    const doc = await new NodeIO().readBinary(new Uint8Array(readFileSync(join(dir, 'bodies_rigid_bodies.glb'))))
    const root = doc.getRoot()
    expect(root.listNodes().map((n) => n.getName())).toEqual(['Crate', 'Ball'])
    const [animation] = root.listAnimations()
    expect(animation.listChannels()).toHaveLength(4)
    const keys = (node: string, path: string) => {
      const ch = animation.listChannels().find((c) => c.getTargetNode()!.getName() === node && c.getTargetPath() === path)!
      const s = ch.getSampler()!
      expect(s.getInterpolation()).toBe('LINEAR')
      return { times: Array.from(s.getInput()!.getArray()!), values: Array.from(s.getOutput()!.getArray()!) }
    }
    for (const [node, axis, angle, pos] of [['Crate', AXIS_A, angleA, posA], ['Ball', AXIS_B, angleB, posB]] as const) {
      const t = keys(node, 'translation')
      const r = keys(node, 'rotation')
      FRAMES.forEach((f, k) => {
        expect(t.times[k]).toBeCloseTo((f - 1) / FPS, 6)
        expect(r.times[k]).toBeCloseTo((f - 1) / FPS, 6)
        pos(f).forEach((x, c) => expect(t.values[3 * k + c], `${node} frame ${f} translation`).toBeCloseTo(x, 5))
        quat(axis, angle(f)).forEach((x, c) => expect(r.values[4 * k + c], `${node} frame ${f} rotation`).toBeCloseTo(x, 5))
      })
    }
    // The mesh on each node is the body-local one; the node starts at the first pose.
    const crateNode = root.listNodes()[0]
    expectPoints(triples(crateNode.getMesh()!.listPrimitives()[0].getAttribute('POSITION')!.getArray()!), triples(crateMesh().positions))
    expectPoints([crateNode.getTranslation() as V3], [posA(1)])

    // A per-frame file read as a mesh by Eddy's own importer: the nodes' transforms put the
    // triangles exactly where the posed bodies are.
    const flat = await parseGltf(new Uint8Array(readFileSync(join(dir, 'bodies_0002.glb'))), 'f2', true)
    expectPoints(triples(flat.positions), [...crateWorld(2), ...ballWorld(2)])
  })

  it('gltf: fluid meshes and bodies in the frame file, and the animation as embedded JSON', async () => {
    const dir = tempDir()
    await runExport(sourceOf('mix', [4, 5], (f) => withBodies(f, [surface(f)])), { format: 'gltf', outDir: dir })
    expect(listDir(dir)).toEqual(['mix_0004.gltf', 'mix_0005.gltf', 'mix_gltf_manifest.json', 'mix_rigid_bodies.gltf'])
    const json = JSON.parse(readFileSync(join(dir, 'mix_rigid_bodies.gltf'), 'utf8'))
    expect(json.animations[0].channels.map((c: { target: { path: string } }) => c.target.path)).toEqual(['translation', 'rotation', 'translation', 'rotation'])
    const flat = await parseGltf(new Uint8Array(readFileSync(join(dir, 'mix_0005.gltf'))), 'f5', false)
    expectPoints(triples(flat.positions), [...triples(surface(5).positions), ...crateWorld(5), ...ballWorld(5)])
  })
})

describe('rigid bodies in OBJ and PLY', () => {
  it('obj: one file per frame with an object per body, in world space', async () => {
    const dir = tempDir()
    const m = await runExport(sourceOf('rb', FRAMES, (f) => withBodies(f)), { format: 'obj', outDir: dir })
    expect(listDir(dir)).toEqual(['rb_0001.obj', 'rb_0002.obj', 'rb_0003.obj', 'rb_obj_manifest.json'])
    expect(m.files[2]).toMatchObject({ kind: 'rigidBodies', counts: { bodies: 2, vertices: 28, triangles: 16 } })
    const text = readFileSync(join(dir, 'rb_0003.obj'), 'utf8')
    expect(text.match(/^o .*$/gm)).toEqual(['o Crate', 'o Ball'])
    const mesh = parseObj(new TextEncoder().encode(text), 'rb_0003.obj')
    expectPoints(triples(mesh.positions), [...crateWorld(3), ...ballWorld(3)])
    // The ball's faces index its own vertices, after the crate's 24 (and the crate's normals).
    expect(Array.from(mesh.indices.subarray(36))).toEqual(Array.from(ballMesh().indices).map((i) => i + 24))
    expect(text).toMatch(/^f 25 27 26$/m)
  })

  it('obj in Z up rotates the posed bodies too', async () => {
    const dir = tempDir()
    await runExport(sourceOf('rb', [2], (f) => withBodies(f)), { format: 'obj', outDir: dir, upAxis: 'z' })
    const mesh = parseObj(readFileSync(join(dir, 'rb_0002.obj')), 'rb')
    expectPoints(triples(mesh.positions), [...crateWorld(2), ...ballWorld(2)].map(([x, y, z]) => [x, -z, y] as V3))
  })

  it('ply: one file per body per frame, in world space, beside the fluid mesh', async () => {
    const dir = tempDir()
    const m = await runExport(sourceOf('rb', [1, 2], (f) => withBodies(f, [surface(f)])), { format: 'ply', outDir: dir, upAxis: 'y' })
    expect(listDir(dir)).toEqual(['rb_Ball_0001.ply', 'rb_Ball_0002.ply', 'rb_Crate_0001.ply', 'rb_Crate_0002.ply', 'rb_ply_manifest.json', 'rb_surface_0001.ply', 'rb_surface_0002.ply'])
    expect(m.files.filter((x) => x.kind === 'rigidBodies').map((x) => x.name)).toEqual(['Crate', 'Ball', 'Crate', 'Ball'])
    const crate = readPly(readFileSync(join(dir, 'rb_Crate_0002.ply')))
    expectPoints(crate.vertex.x.map((x, i) => [x, crate.vertex.y[i], crate.vertex.z[i]] as V3), crateWorld(2))
    const ball = readPly(readFileSync(join(dir, 'rb_Ball_0001.ply')))
    expectPoints(ball.vertex.x.map((x, i) => [x, ball.vertex.y[i], ball.vertex.z[i]] as V3), ballWorld(1))
    expect(ball.faces).toEqual(triples(ballMesh().indices))
    // Normals turn with the body: the crate's +x face normal after the frame-2 rotation.
    const n0 = pose([1, 0, 0], AXIS_A, angleA(2), [0, 0, 0])
    const i = triples(crateMesh().normals!).findIndex(([x]) => x === 1)
    expectPoints([[crate.vertex.nx[i], crate.vertex.ny[i], crate.vertex.nz[i]]], [n0])
  })
})

describe('mesh attributes in exported files', () => {
  const s = surface(2)
  const attr = (name: string) => s.attributes![name].data

  it('ply: every attribute as vertex properties, the colour as sRGB bytes', async () => {
    const dir = tempDir()
    await runExport(sourceOf('attr', [2], (f) => frameOf(f, { meshes: [surface(f)] })), { format: 'ply', outDir: dir, upAxis: 'y' })
    const ply = readPly(readFileSync(join(dir, 'attr_0002.ply')))
    expect(ply.elements[0].props.map((p) => `${p.type} ${p.name}`)).toEqual([
      ...['x', 'y', 'z', 'nx', 'ny', 'nz'].map((p) => `float ${p}`),
      'uchar red', 'uchar green', 'uchar blue', 'float density', 'float vx', 'float vy', 'float vz',
    ])
    expect(ply.vertex.density).toEqual(Array.from(attr('density')))
    expect(ply.vertex.vx.flatMap((x, i) => [x, ply.vertex.vy[i], ply.vertex.vz[i]])).toEqual(Array.from(attr('velocity')))
    const rgb = ply.vertex.red.flatMap((r, i) => [r, ply.vertex.green[i], ply.vertex.blue[i]])
    expect(rgb).toEqual(Array.from(attr('color')).map((c) => Math.round(255 * linearToSrgb(c))))
  })

  it('ply in Z up rotates vector attributes but not colours or scalars', async () => {
    const dir = tempDir()
    await runExport(sourceOf('attr', [2], (f) => frameOf(f, { meshes: [surface(f)] })), { format: 'ply', outDir: dir })
    const ply = readPly(readFileSync(join(dir, 'attr_0002.ply')))
    expect(ply.vertex.vx.flatMap((x, i) => [x, ply.vertex.vy[i], ply.vertex.vz[i]])).toEqual(triples(attr('velocity')).flatMap(([x, y, z]) => [x, -z + 0, y]))
    expect(ply.vertex.density).toEqual(Array.from(attr('density')))
    expect(ply.vertex.red[1]).toBe(Math.round(255 * linearToSrgb(attr('color')[3])))
  })

  it('obj: the colour attribute as v x y z r g b, positions still read bit for bit', async () => {
    const dir = tempDir()
    await runExport(sourceOf('attr', [2], (f) => frameOf(f, { meshes: [surface(f)] })), { format: 'obj', outDir: dir })
    const bytes = readFileSync(join(dir, 'attr_0002.obj'))
    const v = bytes.toString('utf8').split('\n').filter((l) => l.startsWith('v ')).map((l) => l.slice(2).split(' ').map(Number))
    expect(v.every((r) => r.length === 6)).toBe(true)
    v.forEach((r, i) => r.slice(3).forEach((c, k) => expect(c).toBeCloseTo(linearToSrgb(attr('color')[3 * i + k]), 6)))
    expect(parseObj(bytes, 'attr').positions).toEqual(s.positions)
  })

  it('obj without a colour attribute writes plain vertices', async () => {
    const dir = tempDir()
    const m = { ...surface(2), attributes: { density: surface(2).attributes!.density } }
    await runExport(sourceOf('plain', [2], (f) => frameOf(f, { meshes: [m] })), { format: 'obj', outDir: dir })
    expect(readFileSync(join(dir, 'plain_0002.obj'), 'utf8')).toMatch(/^v 0 0 0$/m)
  })

  it('glTF: COLOR_0 for the colour, _name accessors for the others, values exact', async () => {
    const dir = tempDir()
    await runExport(sourceOf('attr', [2], (f) => frameOf(f, { meshes: [surface(f)] })), { format: 'glb', outDir: dir })
    const doc = await new NodeIO().readBinary(new Uint8Array(readFileSync(join(dir, 'attr_0002.glb'))))
    const prim = doc.getRoot().listMeshes()[0].listPrimitives()[0]
    expect(prim.listSemantics().sort()).toEqual(['COLOR_0', 'NORMAL', 'POSITION', '_density', '_velocity'])
    expect(prim.getAttribute('COLOR_0')!.getType()).toBe('VEC3')
    expect(prim.getAttribute('_density')!.getType()).toBe('SCALAR')
    expect(prim.getAttribute('_velocity')!.getType()).toBe('VEC3')
    expect(Array.from(prim.getAttribute('COLOR_0')!.getArray()!)).toEqual(Array.from(attr('color')))
    expect(Array.from(prim.getAttribute('_density')!.getArray()!)).toEqual(Array.from(attr('density')))
    expect(Array.from(prim.getAttribute('_velocity')!.getArray()!)).toEqual(Array.from(attr('velocity')))
  })
})
