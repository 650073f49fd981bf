// The side-by-side wedge view without a GPU: the grid layouts, which wedges and variants can be
// compared, and WedgeGrid on Babylon's NullEngine (cameras on layer bits and viewport rects
// following the main camera, one frame per variant fetched and decoded on the calling
// thread, the single view restored on leaving). What the cells draw is the e2e test's job.
import { NullEngine } from '@babylonjs/core/Engines/nullEngine'
import { ArcRotateCamera } from '@babylonjs/core/Cameras/arcRotateCamera'
import { Camera } from '@babylonjs/core/Cameras/camera'
import { Vector3 } from '@babylonjs/core/Maths/math.vector'
import { Scene } from '@babylonjs/core/scene'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { encodeFrame } from '../../../src-shared/formats/frameRecord'
import type { SceneDocument, SceneObject } from '../../../src-shared/scene/types'
import { CacheDisplay, DEFAULT_LAYER_MASK } from '../../../src-renderer/viewport/cache/cacheDisplay'
import { DecodeClient } from '../../../src-renderer/viewport/cache/decodeClient'
import { type DisplayFrame, displayFromFrame } from '../../../src-renderer/viewport/cache/displayData'
import { cellAt, cellRect, cellViewport, gridLayout } from '../../../src-renderer/viewport/wedge/gridLayout'
import { followCamera } from '../../../src-renderer/viewport/wedge/followCamera'
import { wedgeChoices } from '../../../src-renderer/viewport/wedge/wedgeChoices'
import { WedgeGrid, type GridCellSource } from '../../../src-renderer/viewport/wedge/wedgeGrid'
import { sampleFrame } from './cache/sampleFrames'
import { installTexture3dStandIns, nullScene } from './nullEngine'

describe('grid layout', () => {
  it('puts 2 variants side by side, 3-4 in 2x2, 5-6 in 3x2, 7-9 in 3x3', () => {
    const shape = (n: number) => {
      const l = gridLayout(n)
      return `${l.cols}x${l.rows}`
    }
    expect([2, 3, 4, 5, 6, 7, 8, 9].map(shape)).toEqual(['2x1', '2x2', '2x2', '3x2', '3x2', '3x3', '3x3', '3x3'])
  })

  it('fills cells in reading order; Babylon rects count from the bottom left', () => {
    const l = gridLayout(3)
    expect(cellRect(l, 1)).toEqual({ left: 0.5, top: 0, width: 0.5, height: 0.5 })
    expect(cellRect(l, 2)).toEqual({ left: 0, top: 0.5, width: 0.5, height: 0.5 })
    expect(cellViewport(l, 0)).toEqual({ x: 0, y: 0.5, width: 0.5, height: 0.5 })
    expect(cellViewport(l, 2)).toEqual({ x: 0, y: 0, width: 0.5, height: 0.5 })
    expect(cellAt(l, 3, 0.75, 0.25)).toBe(1)
    expect(cellAt(l, 3, 0.25, 0.75)).toBe(2)
    // The empty fourth cell and points off the canvas are no cell.
    expect(cellAt(l, 3, 0.75, 0.75)).toBe(-1)
    expect(cellAt(l, 3, 1.2, 0.1)).toBe(-1)
  })
})

function scene3(values: number[], subset?: number[]): { doc: SceneDocument; host: SceneObject } {
  const emitter: SceneObject = { id: 'em', kind: 'emitter', name: 'Emitter', params: { rate: 1 } } as SceneObject
  const host: SceneObject = {
    id: 'dom',
    kind: 'domain',
    name: 'Domain',
    params: {},
    wedges: [{ id: 'w1', name: 'rates', parameters: [{ objectId: 'em', path: 'rate', values }], ...(subset ? { subset } : {}) }],
  } as SceneObject
  const doc = { objects: [host, emitter], tracks: [], meta: { frameStart: 1, frameEnd: 24 } } as unknown as SceneDocument
  return { doc, host }
}

describe('wedgeChoices', () => {
  const done = { state: 'done', cached: [[1, 24]] as [number, number][] }
  it('offers a wedge once two of its variants have cached frames, labelled with their values', () => {
    const { doc, host } = scene3([0.5, 4, 30])
    expect(wedgeChoices(doc, host, { 'dom~w1~2': done })).toEqual([])
    const [c] = wedgeChoices(doc, host, { 'dom~w1~1': done, 'dom~w1~3': done, 'dom~w1~2': { state: 'none', cached: [] } })
    expect(c.wedge.id).toBe('w1')
    expect(c.baked).toBe(2)
    expect(c.variants.map((v) => [v.key, v.tag, v.label])).toEqual([
      ['dom~w1~1', 'rates_v1', 'Rate 0.5'],
      ['dom~w1~3', 'rates_v3', 'Rate 30'],
    ])
  })

  it('shows the first nine baked variants of a larger wedge, and only those of its subset', () => {
    const { doc, host } = scene3(Array.from({ length: 12 }, (_, i) => i + 1))
    const caches = Object.fromEntries(Array.from({ length: 12 }, (_, i) => [`dom~w1~${i + 1}`, done]))
    const [c] = wedgeChoices(doc, host, caches)
    expect(c.baked).toBe(12)
    expect(c.variants.map((v) => v.k)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9])
    expect(c.variants[0].tag).toBe('rates_v01')
    const sub = scene3(Array.from({ length: 12 }, (_, i) => i + 1), [4, 11])
    expect(wedgeChoices(sub.doc, sub.host, caches)[0].variants.map((v) => v.k)).toEqual([4, 11])
  })

  it("changes a variant's sig when its cached frames change, not otherwise", () => {
    const { doc, host } = scene3([1, 2])
    const a = wedgeChoices(doc, host, { 'dom~w1~1': done, 'dom~w1~2': done })[0].variants[0].sig
    const b = wedgeChoices(doc, host, { 'dom~w1~1': { ...done }, 'dom~w1~2': done })[0].variants[0].sig
    const c = wedgeChoices(doc, host, { 'dom~w1~1': { state: 'baking', cached: [[1, 10]] }, 'dom~w1~2': done })[0].variants[0].sig
    expect(b).toBe(a)
    expect(c).not.toBe(a)
  })
})

describe('followCamera', () => {
  const babylon = nullScene()

  it("copies the main camera's pose; a narrower cell keeps the horizontal extent", () => {
    const main = new ArcRotateCamera('main', 1.2, 0.8, 7, new Vector3(1, 2, 3), babylon.scene)
    const cell = new ArcRotateCamera('cell', 0, 1, 1, Vector3.Zero(), babylon.scene)
    followCamera(cell, main, 2, 2)
    expect([cell.alpha, cell.beta, cell.radius, cell.target.asArray()]).toEqual([1.2, 0.8, 7, [1, 2, 3]])
    expect(cell.fovMode).toBe(Camera.FOVMODE_VERTICAL_FIXED)
    expect(cell.fov).toBe(main.fov)
    followCamera(cell, main, 2, 1)
    expect(cell.fovMode).toBe(Camera.FOVMODE_HORIZONTAL_FIXED)
    expect(Math.tan(cell.fov / 2)).toBeCloseTo(Math.tan(main.fov / 2) * 2, 12)
    // Orthographic: the same half width as the main view's (2 across for 1 up), on the cell's aspect.
    main.mode = Camera.ORTHOGRAPHIC_CAMERA
    main.orthoTop = 1
    main.orthoBottom = -1
    followCamera(cell, main, 2, 1)
    expect([cell.mode, cell.orthoLeft, cell.orthoRight, cell.orthoTop, cell.orthoBottom]).toEqual([Camera.ORTHOGRAPHIC_CAMERA, -2, 2, 2, -2])
  })
})

describe('WedgeGrid on a NullEngine', () => {
  let engine: NullEngine
  let scene: Scene
  let main: ArcRotateCamera
  let fetches: string[]
  beforeEach(() => {
    engine = new NullEngine({ renderWidth: 800, renderHeight: 600, textureSize: 256, deterministicLockstep: false, lockstepMaxSteps: 1 })
    // The NullEngine has no 3D textures (Babylon's use WebGL directly): stand-ins.
    installTexture3dStandIns(engine)
    scene = new Scene(engine)
    main = new ArcRotateCamera('main', 0.7, 1.1, 9, new Vector3(0, 0.8, 0), scene)
    fetches = []
  })
  afterEach(() => {
    scene.dispose()
    engine.dispose()
  })

  const makeGrid = () =>
    new WedgeGrid({
      scene,
      camera: main,
      fetchRecord: async (key, frame) => {
        fetches.push(`${key}@${frame}`)
        return encodeFrame({ ...sampleFrame(), frame })
      },
      createDecoder: () => new DecodeClient({ workers: 0 }),
    })
  const sources = (n: number, cached: [number, number][] = [[1, 24]], sig = 'a'): GridCellSource[] => Array.from({ length: n }, (_, i) => ({ key: `dom~w1~${i + 1}`, cached, sig }))
  const settle = async (g: WedgeGrid, frame: number) => {
    for (let i = 0; i < 200 && !g.answered(frame); i++) await new Promise((r) => setTimeout(r, 5))
    expect(g.answered(frame)).toBe(true)
  }
  const cacheMeshes = () => scene.meshes.filter((m) => m.name.startsWith('cache:'))

  it('gives each variant a camera, a viewport rect and a layer bit; its display draws only there', async () => {
    const g = makeGrid()
    const settled: number[] = []
    g.onSettled = (f) => settled.push(f)
    g.setCells(sources(3))
    expect(g.active).toBe(true)
    expect(scene.activeCameras!.map((c) => [c.layerMask, c.viewport.x, c.viewport.y, c.viewport.width, c.viewport.height])).toEqual([
      [1, 0, 0.5, 0.5, 0.5],
      [2, 0.5, 0.5, 0.5, 0.5],
      [4, 0, 0, 0.5, 0.5],
    ])
    expect(g.cameraAt(0.75, 0.25)).toBe(scene.activeCameras![1])
    expect(g.cameraAt(0.75, 0.75)).toBeNull()
    g.show(12)
    await settle(g, 12)
    expect(settled).toEqual([12])
    expect(fetches.sort()).toEqual(['dom~w1~1@12', 'dom~w1~2@12', 'dom~w1~3@12'])
    // Every part of a cell's frame is on that cell's bit only.
    const masks = new Set(cacheMeshes().map((m) => m.layerMask))
    expect([...masks].sort()).toEqual([1, 2, 4])
    scene.render()
    const st = g.testState()!
    expect([st.cols, st.rows]).toEqual([2, 2])
    expect(st.cells.map((c) => [c.key, c.frame, c.shownFrame, c.drawnFrame, c.volume])).toEqual([
      ['dom~w1~1', 12, 12, 12, true],
      ['dom~w1~2', 12, 12, 12, true],
      ['dom~w1~3', 12, 12, 12, true],
    ])
    g.dispose()
  })

  it('moves every cell with the main camera, and updates the main camera itself', async () => {
    const g = makeGrid()
    g.setCells(sources(2))
    main.alpha = 2.5
    main.radius = 4
    scene.render()
    expect(g.testState()!.cells.map((c) => [c.camera.alpha, c.camera.radius])).toEqual([
      [2.5, 4],
      [2.5, 4],
    ])
    // Babylon updates only scene.activeCameras; the grid updates the main one (its mouse input).
    let updates = 0
    const update = main.update.bind(main)
    main.update = () => {
      updates++
      update()
    }
    scene.render()
    expect(updates).toBe(1)
    g.dispose()
  })

  it('answers a frame a variant has not cached with nothing, and re-reads only on a new sig or decode option', async () => {
    const g = makeGrid()
    g.setCells([
      { key: 'dom~w1~1', cached: [[1, 24]], sig: 'a' },
      { key: 'dom~w1~2', cached: [[1, 10]], sig: 'a' },
    ])
    g.show(20)
    await settle(g, 20)
    expect(g.testState()!.cells.map((c) => [c.frame, c.shownFrame])).toEqual([
      [20, 20],
      [20, null],
    ])
    expect(fetches).toEqual(['dom~w1~1@20'])
    g.setCells([
      { key: 'dom~w1~1', cached: [[1, 24]], sig: 'a' },
      { key: 'dom~w1~2', cached: [[1, 24]], sig: 'b' },
    ])
    await settle(g, 20)
    expect(fetches).toEqual(['dom~w1~1@20', 'dom~w1~2@20'])
    g.setDecodeOptions({ ambientTemperature: 300 })
    await settle(g, 20)
    expect(fetches.length).toBe(4)
    g.dispose()
  })

  it('while scrubbing, loads the latest frame asked for, not every one passed', async () => {
    const g = makeGrid()
    g.setCells(sources(2))
    for (const f of [3, 4, 5, 6, 7]) g.show(f)
    await settle(g, 7)
    expect(fetches.filter((f) => f.startsWith('dom~w1~1@'))).toEqual(['dom~w1~1@3', 'dom~w1~1@7'])
    g.dispose()
  })

  it('gives a frame that leaves a cell back to the decoder once the cell shows the next, never the one on screen', async () => {
    const recycled: number[] = []
    class Recording extends DecodeClient {
      override recycle(f: DisplayFrame): void {
        recycled.push(f.frame)
      }
    }
    const g = new WedgeGrid({ scene, camera: main, fetchRecord: async (_key, frame) => encodeFrame({ ...sampleFrame(), frame }), createDecoder: () => new Recording({ workers: 0 }) })
    g.setCells(sources(2))
    g.show(12)
    await settle(g, 12)
    expect(recycled).toEqual([])
    g.show(13)
    await settle(g, 13)
    expect(recycled).toEqual([12, 12])
    g.show(14)
    await settle(g, 14)
    expect(recycled).toEqual([12, 12, 13, 13])
    g.dispose()
  })

  it('leaving restores the single view and keeps the materials the main display still uses', async () => {
    const mainDisplay = new CacheDisplay(scene)
    mainDisplay.show(displayFromFrame(sampleFrame()))
    const g = makeGrid()
    g.setCells(sources(3))
    g.show(5)
    await settle(g, 5)
    scene.render()
    g.setCells(null)
    expect(g.active).toBe(false)
    expect(g.testState()).toBeNull()
    expect(scene.activeCameras?.length).toBe(0)
    expect(scene.activeCamera).toBe(main)
    expect([...scene.cameras]).toEqual([main])
    // Only the main display's meshes are left, with their material.
    expect(cacheMeshes().every((m) => m.layerMask === DEFAULT_LAYER_MASK)).toBe(true)
    expect(scene.materials).toContain(mainDisplay.parts.meshes[0].node.material)
    expect(scene.getMaterialByName('cache:liquid')).not.toBeNull()
    mainDisplay.setLayerMask(0)
    expect(cacheMeshes().every((m) => m.layerMask === 0)).toBe(true)
    g.dispose()
    mainDisplay.dispose()
    expect(cacheMeshes()).toEqual([])
    expect(scene.getMaterialByName('cache:liquid')).toBeNull()
  })
})
