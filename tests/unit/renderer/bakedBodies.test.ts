// Authored rigid bodies step aside while the baked frame on screen draws their simulated
// counterparts: the shown-ids bookkeeping (pure), CacheDisplay reporting which bodies it draws,
// and sceneSync + the rigid-body visual on Babylon's NullEngine (no GPU in Node) switching the
// authored body to the faint wireframe and back, pickable throughout.
import { NullEngine } from '@babylonjs/core/Engines/nullEngine'
import type { Mesh } from '@babylonjs/core/Meshes/mesh'
import { Scene } from '@babylonjs/core/scene'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { defaultParams } from '../../../src-shared/scene/defaults'
import type { ObjectKind, ParamValue, SceneObject } from '../../../src-shared/scene/types'
import type { FrameData, FrameMesh, RigidBodyState } from '../../../src-shared/sim/frame'
import { CacheDisplay } from '../../../src-renderer/viewport/cache/cacheDisplay'
import { displayFromFrame, type DisplayFrame } from '../../../src-renderer/viewport/cache/displayData'
import { drawnBodyIds, sameIds, ShownBodies } from '../../../src-renderer/viewport/cache/shownBodies'
import { MeshCache } from '../../../src-renderer/viewport/meshCache'
import { pickMetadata, type ObjectVisual } from '../../../src-renderer/viewport/objectVisuals'
import { Palette } from '../../../src-renderer/viewport/palette'
import { SceneSync } from '../../../src-renderer/viewport/sceneSync'
import { RigidBodyVisual } from '../../../src-renderer/viewport/visuals/rigidBody'

const tetra = (): FrameMesh => ({
  name: 'local',
  positions: new Float32Array([0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1]),
  indices: new Uint32Array([0, 2, 1, 0, 1, 3, 0, 3, 2, 1, 2, 3]),
})
const emptyMesh = (): FrameMesh => ({ name: 'none', positions: new Float32Array(0), indices: new Uint32Array(0) })

function body(id: string, mesh: FrameMesh = tetra()): RigidBodyState {
  return { id, name: id, position: [0, 1, 0], orientation: [0, 0, 0, 1], linearVelocity: [0, 0, 0], angularVelocity: [0, 0, 0], mesh }
}

function frame(n: number, bodies: RigidBodyState[]): DisplayFrame {
  const f: FrameData = { time: n / 24, frame: n, volumes: [], meshes: [], particles: [], rigidBodies: bodies, stats: {} }
  return displayFromFrame(f)
}

const ids = (s: ReadonlySet<string>) => [...s].sort()

describe('shown rigid-body ids', () => {
  it('are the bodies with at least one triangle, and none while the display is hidden', () => {
    const f = frame(3, [body('a'), body('b', emptyMesh()), body('c')])
    expect(ids(drawnBodyIds(f.rigidBodies, true))).toEqual(['a', 'c'])
    expect(ids(drawnBodyIds(f.rigidBodies, false))).toEqual([])
    expect(ids(drawnBodyIds([], true))).toEqual([])
    expect(sameIds(new Set(['a', 'c']), new Set(['c', 'a']))).toBe(true)
    expect(sameIds(new Set(['a']), new Set(['a', 'b']))).toBe(false)
    expect(sameIds(new Set(['a', 'x']), new Set(['a', 'b']))).toBe(false)
  })

  it('ShownBodies tells subscribers at once and then only of changes', () => {
    const shown = new ShownBodies()
    const heard: string[][] = []
    const off = shown.subscribe((s) => heard.push(ids(s)))
    expect(heard).toEqual([[]])
    expect(shown.set(new Set(['a']))).toBe(true)
    expect(shown.set(new Set(['a']))).toBe(false)
    expect(shown.set(new Set(['a', 'b']))).toBe(true)
    expect(shown.set(new Set())).toBe(true)
    expect(heard).toEqual([[], ['a'], ['a', 'b'], []])
    // The set handed out is a copy: changing the caller's set later changes nothing.
    const mine = new Set(['z'])
    shown.set(mine)
    mine.add('y')
    expect(ids(shown.ids)).toEqual(['z'])
    off()
    shown.set(new Set(['q']))
    expect(heard).toHaveLength(5)
    shown.subscribe((s) => heard.push(ids(s)))
    shown.dispose()
    shown.set(new Set(['r']))
    expect(heard).toHaveLength(6)
  })
})

describe('on a NullEngine', () => {
  let engine: NullEngine
  let scene: Scene
  let palette: Palette
  let meshes: MeshCache
  let settled: string[]
  beforeEach(() => {
    engine = new NullEngine()
    scene = new Scene(engine)
    scene.useRightHandedSystem = true
    palette = new Palette(scene)
    settled = []
    // One imported mesh, 'm1': a tetrahedron, as 'mesh.data' would send it (base64).
    const b64 = (a: ArrayBufferView) => Buffer.from(a.buffer, a.byteOffset, a.byteLength).toString('base64')
    meshes = new MeshCache(
      async (id) => (id === 'm1' ? { positions: b64(tetra().positions), indices: b64(tetra().indices) } : undefined),
      (id) => settled.push(id),
    )
  })
  afterEach(() => {
    meshes.dispose()
    palette.dispose()
    scene.dispose()
    engine.dispose()
  })

  const obj = (id: string, kind: ObjectKind, params: Record<string, ParamValue> = {}, meshId?: string): SceneObject => ({
    id,
    kind,
    name: id,
    params: { ...defaultParams(kind), ...params },
    ...(meshId ? { meshId } : {}),
  })
  const newSync = () => new SceneSync({ scene, palette, meshes })
  const bodyMesh = (v: ObjectVisual | undefined): Mesh => {
    const [m] = v!.highlightMeshes()
    expect(m).toBeDefined()
    return m
  }
  const look = (v: ObjectVisual | undefined) => bodyMesh(v).material?.name

  it('CacheDisplay reports the bodies it draws: per frame, cleared with the frame, none while hidden', () => {
    const d = new CacheDisplay(scene)
    const heard: string[][] = []
    d.shownBodies.subscribe((s) => heard.push(ids(s)))
    d.show(frame(1, [body('a'), body('b')]))
    expect(ids(d.shownBodies.ids)).toEqual(['a', 'b'])
    // A frame where one body has no triangles: it is not drawn, so not reported.
    d.show(frame(2, [body('a'), body('b', emptyMesh())]))
    expect(ids(d.shownBodies.ids)).toEqual(['a'])
    expect(d.parts.rigidBodies[1].node.isEnabled()).toBe(false)
    // The same bodies again: no news for the listeners.
    d.show(frame(3, [body('a')]))
    d.setSettings({ visible: false })
    expect(ids(d.shownBodies.ids)).toEqual([])
    expect(d.parts.rigidBodies[0].node.isEnabled()).toBe(false)
    d.setSettings({ visible: true })
    expect(ids(d.shownBodies.ids)).toEqual(['a'])
    d.show(null)
    expect(ids(d.shownBodies.ids)).toEqual([])
    expect(heard).toEqual([[], ['a', 'b'], ['a'], [], ['a'], []])
    d.dispose()
  })

  it('the authored body turns into a pickable faint wireframe while its baked body is shown', () => {
    const sync = newSync()
    const objects = [obj('rb', 'rigidBody'), obj('ob', 'obstacle')]
    sync.sync(objects, (o) => o.params)
    const rb = sync.visuals.get('rb')
    expect(rb).toBeInstanceOf(RigidBodyVisual)
    expect(look(rb)).toBe('mat:rigidBody')
    expect(look(sync.visuals.get('ob'))).toBe('mat:obstacle')

    // An id of an obstacle in the set (a stale cache) does nothing to the obstacle.
    sync.setBakedShown(new Set(['rb', 'ob', 'gone']))
    const m = bodyMesh(rb)
    expect(m.material?.name).toBe('mat:rigidBodyGhost')
    expect(m.material?.wireframe).toBe(true)
    expect(m.material!.alpha).toBeLessThan(0.5)
    expect((rb as RigidBodyVisual).ghosted).toBe(true)
    expect(m.isPickable && m.isEnabled() && m.isVisible).toBe(true)
    expect(pickMetadata(m)?.objectId).toBe('rb')
    expect(rb!.boundsMeshes()).toContain(m)
    expect(look(sync.visuals.get('ob'))).toBe('mat:obstacle')

    // A shape change while ghosted rebuilds the body, still ghosted.
    sync.sync([obj('rb', 'rigidBody', { shape: 'sphere' }), objects[1]], (o) => o.params)
    expect(bodyMesh(rb)).not.toBe(m)
    expect(look(rb)).toBe('mat:rigidBodyGhost')

    // A rigid body added while its baked body is on screen starts ghosted.
    sync.setBakedShown(new Set(['rb', 'rb2']))
    sync.sync([obj('rb', 'rigidBody', { shape: 'sphere' }), obj('rb2', 'rigidBody', { shape: 'cylinder' })], (o) => o.params)
    expect(look(sync.visuals.get('rb2'))).toBe('mat:rigidBodyGhost')

    // Nothing baked on screen any more: both drawn normally again.
    sync.setBakedShown(new Set())
    expect(look(rb)).toBe('mat:rigidBody')
    expect(look(sync.visuals.get('rb2'))).toBe('mat:rigidBody')
    expect(bodyMesh(rb).material?.wireframe).toBe(false)
    sync.dispose()
  })

  it('a mesh-shaped rigid body draws its imported mesh, in the two-sided look, and ghosts it too', async () => {
    const sync = newSync()
    const objects = [obj('rb', 'rigidBody', { shape: 'mesh' }, 'm1')]
    sync.sync(objects, (o) => o.params)
    expect(look(sync.visuals.get('rb'))).toBe('mat:placeholder')
    await expect.poll(() => settled).toEqual(['m1'])
    sync.sync(objects, (o) => o.params)
    const rb = sync.visuals.get('rb')
    expect(look(rb)).toBe('mat:meshRigidBody')
    expect(bodyMesh(rb).getTotalVertices()).toBe(4)
    sync.setBakedShown(new Set(['rb']))
    expect(look(rb)).toBe('mat:rigidBodyGhost')
    sync.setBakedShown(new Set())
    expect(look(rb)).toBe('mat:meshRigidBody')
    sync.dispose()
  })

  it('wired like the viewport: a baked frame with the body ghosts it, an uncached frame brings it back', () => {
    const sync = newSync()
    const d = new CacheDisplay(scene)
    const off = d.shownBodies.subscribe((s) => sync.setBakedShown(s))
    sync.sync([obj('rb', 'rigidBody'), obj('other', 'rigidBody')], (o) => o.params)
    d.show(frame(5, [body('rb')]))
    expect(look(sync.visuals.get('rb'))).toBe('mat:rigidBodyGhost')
    expect(look(sync.visuals.get('other'))).toBe('mat:rigidBody')
    d.show(null)
    expect(look(sync.visuals.get('rb'))).toBe('mat:rigidBody')
    d.show(frame(6, [body('rb'), body('other')]))
    d.setSettings({ visible: false })
    expect(look(sync.visuals.get('rb'))).toBe('mat:rigidBody')
    expect(look(sync.visuals.get('other'))).toBe('mat:rigidBody')
    off()
    d.dispose()
    sync.dispose()
  })
})
