// The Babylon side of the cache display on Babylon's NullEngine (no GPU in Node): which
// nodes are enabled, that GPU buffers and the 3D texture are reused while they fit, and that
// capacities grow by doubling. What the shaders draw is not checked here. The NullEngine has
// no 3D texture calls (Babylon's use WebGL directly), so the test gives it two that record
// what would be uploaded (../nullEngine.ts).
import { Constants } from '@babylonjs/core/Engines/constants'
import { NullEngine } from '@babylonjs/core/Engines/nullEngine'
import { Scene } from '@babylonjs/core/scene'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { CacheDisplay } from '../../../../src-renderer/viewport/cache/cacheDisplay'
import { displayFromFrame, type DisplayFrame } from '../../../../src-renderer/viewport/cache/displayData'
import { grownCapacity } from '../../../../src-renderer/viewport/cache/capacity'
import { sampleFrame } from './sampleFrames'
import { installTexture3dStandIns, type Texture3dUpload } from '../nullEngine'

let engine: NullEngine
let scene: Scene
let uploads: Texture3dUpload[]
beforeEach(() => {
  engine = new NullEngine()
  uploads = []
  installTexture3dStandIns(engine, (u) => uploads.push(u))
  scene = new Scene(engine)
  scene.useRightHandedSystem = true
})
afterEach(() => {
  scene.dispose()
  engine.dispose()
})

function withParticles(n: number): DisplayFrame {
  const f = displayFromFrame(sampleFrame())
  const positions = new Float32Array(n * 3)
  const values = new Float32Array(n).map((_, i) => i)
  f.particles = [{ ...f.particles[0], count: n, positions, values, valueMin: 0, valueMax: n - 1 }]
  return f
}

describe('CacheDisplay on a NullEngine', () => {
  it('shows the volume box over the grid bounds, particles and meshes; null clears them', () => {
    const d = new CacheDisplay(scene)
    const f = displayFromFrame(sampleFrame())
    d.show(f)
    const { volume, particles, meshes } = d.parts
    expect(volume.node.isEnabled()).toBe(true)
    // 12x10x9 cells of 0.25 m from (-1, 0, 2): box centre and size.
    expect(volume.node.position.asArray()).toEqual([0.5, 1.25, 3.125])
    expect(volume.node.scaling.asArray()).toEqual([3, 2.5, 2.25])
    expect(particles).toHaveLength(1)
    expect(particles[0].node.isEnabled()).toBe(true)
    expect(meshes[0].drawn).toMatchObject({ vertices: 4, indices: 12 })
    expect(d.shownFrame).toBe(37)
    d.show(null)
    expect(volume.node.isEnabled()).toBe(false)
    expect(particles[0].node.isEnabled()).toBe(false)
    expect(meshes[0].node.isEnabled()).toBe(false)
    d.dispose()
    expect(scene.meshes.filter((m) => m.name.startsWith('cache:'))).toEqual([])
  })

  it('reuses the 3D texture while the grid size holds and replaces it when it changes', () => {
    const d = new CacheDisplay(scene)
    const f = displayFromFrame(sampleFrame())
    d.show(f)
    const mat = d.parts.volume.node.material
    const tex = mat?.getActiveTextures()[0]
    expect(tex).toBeDefined()
    d.show(f) // the same frame object again: nothing to upload
    expect(uploads).toHaveLength(2) // the smoke (RG8) and its light volume (R8)
    d.show(displayFromFrame(sampleFrame()))
    expect(mat?.getActiveTextures()[0]).toBe(tex)
    const rg8 = { format: Constants.TEXTUREFORMAT_RG, type: Constants.TEXTURETYPE_UNSIGNED_BYTE, size: [12, 10, 9], bytes: 12 * 10 * 9 * 2 }
    const r8 = { format: Constants.TEXTUREFORMAT_R, type: Constants.TEXTURETYPE_UNSIGNED_BYTE, size: [12, 10, 9], bytes: 12 * 10 * 9 }
    expect(uploads).toEqual([
      { op: 'create', ...rg8 },
      { op: 'create', ...r8 },
      { op: 'update', ...rg8 },
      { op: 'update', ...r8 },
    ])
    const bigger = displayFromFrame(sampleFrame())
    if (!bigger.volume) throw new Error('no volume')
    bigger.volume = { ...bigger.volume, dims: [6, 20, 9] }
    d.show(bigger)
    expect(mat?.getActiveTextures()[0]).not.toBe(tex)
    expect(tex?.getInternalTexture()).toBeNull() // the old one was disposed
    // The smoke texture is replaced; its light volume (same grid in this made-up frame) is updated.
    expect(uploads.map((u) => u.op)).toEqual(['create', 'create', 'update', 'update', 'create', 'update'])
    expect(uploads[4].size).toEqual([6, 20, 9])
    d.dispose()
  })

  it('particle buffers grow by doubling and are rewritten in place while the count fits', () => {
    expect(grownCapacity(0, 10)).toBe(1024)
    expect(grownCapacity(1024, 1025)).toBe(2048)
    expect(grownCapacity(2048, 9000)).toBe(16384)
    const d = new CacheDisplay(scene)
    d.show(withParticles(1000))
    const p = d.parts.particles[0]
    const buffer = p.node.getVertexBuffer('position')
    expect(p.drawn).toEqual({ count: 1000, capacity: 1024 })
    d.show(withParticles(20))
    expect(p.node.getVertexBuffer('position')).toBe(buffer)
    expect(p.node.subMeshes[0].verticesCount).toBe(20)
    d.show(withParticles(3000))
    expect(p.drawn).toEqual({ count: 3000, capacity: 4096 })
    expect(p.node.getVertexBuffer('position')).not.toBe(buffer)
    d.dispose()
  })

  it('mesh buffers keep their room across frames and indices are drawn at each frame\'s length', () => {
    const d = new CacheDisplay(scene)
    d.show(displayFromFrame(sampleFrame()))
    const m = d.parts.meshes[0]
    const positions = m.node.getVertexBuffer('position')
    const f = displayFromFrame(sampleFrame())
    f.meshes[0] = { ...f.meshes[0], indices: f.meshes[0].indices.subarray(0, 6) }
    d.show(f)
    expect(m.node.getVertexBuffer('position')).toBe(positions)
    expect(m.drawn).toEqual({ vertices: 4, indices: 6, capacity: 1024 })
    expect(m.node.subMeshes.map((s) => [s.indexStart, s.indexCount])).toEqual([[0, 6]])
    d.dispose()
  })

  it('settings reach the parts; a new colour attribute asks for a re-decode', () => {
    const d = new CacheDisplay(scene, { visible: false })
    d.show(displayFromFrame(sampleFrame()))
    expect(d.parts.volume.node.isEnabled()).toBe(false)
    expect(d.parts.particles[0].node.isEnabled()).toBe(false)
    expect(d.setSettings({ visible: true, densityScale: 9 }).redecode).toBe(false)
    expect(d.parts.volume.node.isEnabled()).toBe(true)
    expect(d.setSettings({ particleColorBy: 'radius' }).redecode).toBe(true)
    expect(d.setSettings({ particleColorBy: 'radius' }).redecode).toBe(false)
    d.dispose()
  })
})
