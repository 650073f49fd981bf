// The display-data layer for the wider frames: rigid bodies come out as meshes posed for the
// frame (world vertices checked against poses computed here), meshes are coloured by a chosen
// attribute ('color' as RGB, others through viridis), the raymarched volumes are the ones
// the options name; and CacheDisplay draws bodies and coloured meshes on a NullEngine.
import { Constants } from '@babylonjs/core/Engines/constants'
import { VertexBuffer } from '@babylonjs/core/Buffers/buffer'
import { describe, expect, it } from 'vitest'
import { encodeFrame } from '../../../../src-shared/formats/frameRecord'
import type { FrameData, FrameMesh, RigidBodyState } from '../../../../src-shared/sim/frame'
import { CacheDisplay } from '../../../../src-renderer/viewport/cache/cacheDisplay'
import { viridis } from '../../../../src-renderer/viewport/cache/colorRamp'
import { decodeForDisplay, displayFromFrame, displayTransferables, displayVolumeNames, meshDisplay } from '../../../../src-renderer/viewport/cache/displayData'
import { sampleFrame, vol } from './sampleFrames'
import { nullScene } from '../nullEngine'

type V3 = [number, number, number]
const tetra = (): FrameMesh => ({
  name: 'local',
  positions: new Float32Array([0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1]),
  indices: new Uint32Array([0, 2, 1, 0, 1, 3, 0, 3, 2, 1, 2, 3]),
  normals: new Float32Array([0, 0, -1, 1, 0, 0, 0, 1, 0, 0, 0, 1]),
})

// 90 degrees about +x: (x, y, z) -> (x, -z, y).
const QX90: [number, number, number, number] = [Math.SQRT1_2, 0, 0, Math.SQRT1_2]
function crate(position: V3): RigidBodyState {
  return { id: 'b1', name: 'Crate', position, orientation: QX90, linearVelocity: [0, 0, 0], angularVelocity: [0, 0, 0], mesh: tetra() }
}
const world = (p: V3, [x, y, z]: V3): V3 => [x + p[0], -z + p[1], y + p[2]]
const round = (a: ArrayLike<number>) => Array.from(a, (v) => Math.round(v * 1e6) / 1e6 + 0)

function frameWithBody(position: V3): FrameData {
  return { ...sampleFrame(), rigidBodies: [crate(position), { ...crate([0, 0, 0]), id: 'b2', name: 'Still', orientation: [0, 0, 0, 1] }] }
}

describe('rigid bodies in display data', () => {
  it('come out posed for the frame: world vertices, turned normals, the pose, counted bytes', () => {
    const p: V3 = [2, 3, -1]
    const f = displayFromFrame(frameWithBody(p))
    expect(f.rigidBodies.map((b) => [b.id, b.name])).toEqual([['b1', 'Crate'], ['b2', 'Still']])
    const [b] = f.rigidBodies
    const local: V3[] = [[0, 0, 0], [1, 0, 0], [0, 1, 0], [0, 0, 1]]
    expect(round(b.positions)).toEqual(local.flatMap((v) => world(p, v)))
    expect(round(b.normals)).toEqual([[0, 0, -1], [1, 0, 0], [0, 1, 0], [0, 0, 1]].flatMap((n) => world([0, 0, 0], n as V3)))
    expect(Array.from(b.indices)).toEqual(Array.from(tetra().indices))
    expect(b.position).toEqual(p)
    expect(Array.from(f.rigidBodies[1].positions)).toEqual(Array.from(tetra().positions))
    const without = displayFromFrame(sampleFrame())
    expect(without.rigidBodies).toEqual([])
    expect(f.bytes - without.bytes).toBe(2 * (48 + 48 + 48))
    const buffers = displayTransferables(f)
    expect(buffers).toContain(b.positions.buffer)
    expect(buffers).toContain(b.normals.buffer)
  })

  it('each frame is posed on its own: moving the body moves the drawn vertices', () => {
    const a = displayFromFrame(frameWithBody([0, 0, 0])).rigidBodies[0]
    const b = displayFromFrame(frameWithBody([0, 5, 0])).rigidBodies[0]
    expect(round(b.positions.map((v, i) => v - a.positions[i]))).toEqual([0, 5, 0, 0, 5, 0, 0, 5, 0, 0, 5, 0])
  })

  it('decodeForDisplay of a record with bodies matches the frame, preview or not', () => {
    const frame = frameWithBody([1, 1, 1])
    const shown = decodeForDisplay(encodeFrame(frame))
    expect(shown.rigidBodies.map((x) => round(x.positions))).toEqual(displayFromFrame(frame).rigidBodies.map((x) => round(x.positions)))
  })
})

describe('mesh colours', () => {
  const n = 4
  const coloured = (): FrameMesh => ({
    ...tetra(),
    attributes: {
      color: { components: 3, data: new Float32Array([1, 0, 0, 0, 1, 0, 0, 0, 1, 2, -1, 0.5]) },
      density: { components: 1, data: new Float32Array([0, 1, 2, 4]) },
      velocity: { components: 3, data: new Float32Array([3, 4, 0, 0, 0, 0, 0, 0, 1, 0, 2, 0]) },
    },
  })

  it("draws a 'color' attribute as RGB by default, clamped, alpha 1", () => {
    const m = meshDisplay(coloured())
    expect(m.colorBy).toBe('color')
    expect(m.attributes).toEqual(['color', 'density', 'velocity'])
    expect(Array.from(m.colors!)).toEqual([1, 0, 0, 1, 0, 1, 0, 1, 0, 0, 1, 1, 1, 0, 0.5, 1])
  })

  it('maps a scalar through viridis over its range, and a vector by magnitude', () => {
    const d = meshDisplay(coloured(), 'density')
    expect([d.valueMin, d.valueMax]).toEqual([0, 4])
    for (let v = 0; v < n; v++) {
      const want = viridis([0, 1, 2, 4][v] / 4)
      want.forEach((c, k) => expect(d.colors![4 * v + k]).toBeCloseTo(c, 6))
      expect(d.colors![4 * v + 3]).toBe(1)
    }
    const s = meshDisplay(coloured(), 'velocity')
    expect([s.valueMin, s.valueMax]).toEqual([0, 5])
    viridis(2 / 5).forEach((c, k) => expect(s.colors![12 + k]).toBeCloseTo(c, 6))
  })

  it('none when asked for none, for a missing attribute, or by default without a colour', () => {
    expect(meshDisplay(coloured(), null).colors).toBeNull()
    expect(meshDisplay(coloured(), 'nope').colorBy).toBeNull()
    expect(meshDisplay(tetra()).colors).toBeNull()
    const bad = coloured()
    bad.attributes!.density.data = new Float32Array(2) // too short for the vertices
    expect(meshDisplay(bad, 'density').colors).toBeNull()
  })

  it('the option reaches meshes and rigid bodies, and colours are transferred', () => {
    const frame: FrameData = { ...sampleFrame(), meshes: [coloured()], rigidBodies: [{ ...crate([0, 0, 0]), mesh: coloured() }] }
    const f = displayFromFrame(frame, { meshColorBy: 'density' })
    expect(f.meshes[0].colorBy).toBe('density')
    expect(f.rigidBodies[0].colorBy).toBe('density')
    expect(displayTransferables(f)).toContain(f.meshes[0].colors!.buffer)
  })
})

describe('volumes the raymarcher draws', () => {
  const dims: V3 = [2, 1, 1]
  const frame = (): FrameData => ({
    ...sampleFrame(),
    volumes: [vol('smoke', dims, [1, 4]), vol('heat', dims, [300, 500]), vol('density', dims, [0, 0]), vol('velocity', dims, [1, 2, 3, 4, 5, 6], 3)],
  })

  it("default to 'density' and 'temperature', or come from the options", () => {
    expect(displayVolumeNames()).toEqual(['density', 'temperature'])
    expect(displayVolumeNames({ densityVolume: 'smoke', emissionVolume: 'heat' })).toEqual(['smoke', 'heat'])
    expect(displayFromFrame(frame()).volume?.densityMax).toBe(0)
    const named = displayFromFrame(frame(), { densityVolume: 'smoke', emissionVolume: 'heat', ambientTemperature: 300 })
    expect(named.volume?.densityMax).toBe(4)
    expect(named.volume?.temperatureMax).toBe(500)
  })

  it('decodeForDisplay inflates the named volumes', () => {
    const rec = encodeFrame(frame())
    expect(decodeForDisplay(rec, { densityVolume: 'smoke', emissionVolume: 'heat', ambientTemperature: 300 }).volume?.texels).toEqual(new Uint8Array([128, 0, 255, 255]))
    expect(decodeForDisplay(rec).volume?.densityMax).toBe(0)
  })
})

describe('CacheDisplay draws bodies and coloured meshes', () => {
  const babylon = nullScene()
  const noVolume = (f: FrameData) => ({ ...displayFromFrame(f), volume: null })

  it('one rigid-body mesh per body in its own material; cleared with the frame', () => {
    const d = new CacheDisplay(babylon.scene)
    d.show(noVolume(frameWithBody([0, 2, 0])))
    const { rigidBodies } = d.parts
    expect(rigidBodies).toHaveLength(2)
    expect(rigidBodies[0].drawn).toMatchObject({ vertices: 4, indices: 12 })
    expect(rigidBodies[0].node.isEnabled()).toBe(true)
    expect(rigidBodies[0].node.material?.name).toBe('cache:rigid')
    const uploaded = rigidBodies[0].node.getVertexBuffer(VertexBuffer.PositionKind)!.getData() as Float32Array
    expect(round(uploaded.subarray(0, 12))).toEqual(round(displayFromFrame(frameWithBody([0, 2, 0])).rigidBodies[0].positions))
    d.show(noVolume(sampleFrame()))
    expect(rigidBodies[0].node.isEnabled()).toBe(false)
    d.dispose()
    expect(babylon.scene.meshes.filter((m) => m.name.startsWith('cache:'))).toEqual([])
    expect(babylon.scene.materials.filter((m) => m.name.startsWith('cache:'))).toEqual([])
  })

  it('draws counter-clockwise faces as the front (outside lit, not the inside), and reports the poses drawn', () => {
    const d = new CacheDisplay(babylon.scene)
    d.show(noVolume({ ...frameWithBody([0, 2, 0]), meshes: [tetra()] }))
    for (const m of [...d.parts.rigidBodies, ...d.parts.meshes]) expect(m.node.sideOrientation).toBe(Constants.MATERIAL_CounterClockWiseSideOrientation)
    expect(d.bodyPoses()).toEqual([
      { id: 'b1', position: [0, 2, 0], orientation: QX90 },
      { id: 'b2', position: [0, 0, 0], orientation: [0, 0, 0, 1] },
    ])
    d.setSettings({ visible: false })
    expect(d.bodyPoses()).toEqual([])
    d.dispose()
  })

  it('a coloured mesh switches to the vertex-colour material and back; meshColorBy asks for a re-decode', () => {
    const d = new CacheDisplay(babylon.scene)
    const m: FrameMesh = { ...tetra(), attributes: { color: { components: 3, data: new Float32Array(12).fill(0.5) } } }
    d.show(noVolume({ ...sampleFrame(), meshes: [m] }))
    const md = d.parts.meshes[0]
    expect(md.hasColors).toBe(true)
    expect(md.node.material?.name).toBe('cache:coloured')
    expect(md.node.useVertexColors).toBe(true)
    d.show(noVolume(sampleFrame()))
    expect(md.hasColors).toBe(false)
    expect(md.node.material?.name).toBe('cache:liquid')
    expect(d.setSettings({ meshColorBy: 'density' }).redecode).toBe(true)
    expect(d.setSettings({ meshColorBy: 'density' }).redecode).toBe(false)
    d.dispose()
  })
})
