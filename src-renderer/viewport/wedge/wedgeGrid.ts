// Side-by-side wedge viewing: 2-9 variants of one wedge, each in a cell of the canvas, at the
// same playhead and through the same camera. One scene: every variant has its own cache
// display on its own layer bit (cell i draws bit 1 << i) and its own camera (a viewport rect
// of the canvas, copying the main camera's pose every frame); the scene's objects keep
// Babylon's default mask (every bit), so the domain box, emitters and floor grid are in every
// cell. While the grid is up the main camera is not among scene.activeCameras, so Babylon no
// longer updates it: the grid does, before the cells copy it, so the mouse still orbits it.
import { ArcRotateCamera } from '@babylonjs/core/Cameras/arcRotateCamera'
import type { Camera } from '@babylonjs/core/Cameras/camera'
import { Vector3 } from '@babylonjs/core/Maths/math.vector'
import type { Observer } from '@babylonjs/core/Misc/observable'
import type { Scene } from '@babylonjs/core/scene'
import type { CacheDisplaySettings } from '../cache/cacheDisplay'
import { DecodeClient } from '../cache/decodeClient'
import type { DisplayOptions } from '../cache/displayData'
import type { FetchRecord } from '../cachePlayback'
import { cameraPose, followCamera } from './followCamera'
import { cellAt, cellViewport, gridLayout, MAX_GRID_CELLS, type GridLayout } from './gridLayout'
import { VariantCell, type VariantCellState } from './variantCell'

type Ranges = readonly (readonly [number, number])[]

export interface GridCellSource {
  /** The variant's bake key. */
  key: string
  cached: Ranges
  /** Changes whenever the variant's cached frames do. */
  sig: string
}

/** What the end-to-end tests read of the grid (testHooks.ts). */
export interface WedgeGridTestState {
  cols: number
  rows: number
  cells: {
    key: string
    /** Frame last answered, frame whose data is on screen, and frame the cell's camera has drawn since. */
    frame: number | null
    shownFrame: number | null
    drawnFrame: number | null
    error: string | null
    /** The smoke volume of the frame is drawn. */
    volume: boolean
    camera: { alpha: number; beta: number; radius: number; target: [number, number, number] }
  }[]
}

export interface WedgeGridOptions {
  scene: Scene
  camera: ArcRotateCamera
  fetchRecord: FetchRecord
  /** Tests pass a decoder without workers. */
  createDecoder?: () => DecodeClient
}

interface Cell {
  variant: VariantCell
  camera: ArcRotateCamera
  /** The frame this cell's camera drew last (after the data of `variant.state.frame` was on screen). */
  drawnFrame: number | null
}

export class WedgeGrid {
  private readonly scene: Scene
  private readonly main: ArcRotateCamera
  private readonly fetchRecord: FetchRecord
  private readonly createDecoder: () => DecodeClient
  private cells: Cell[] = []
  private layout: GridLayout = { cols: 1, rows: 1 }
  private client: DecodeClient | null = null
  private settings: Partial<CacheDisplaySettings> = {}
  private decodeOptions: DisplayOptions = {}
  private wanted: number | null = null
  private settled: number | null = null
  private readonly observers: { before: Observer<Scene>; render: Observer<Scene>; drawn: Observer<Camera> }
  /** Every cell answered the playhead's frame (the timeline's playback waits for it). */
  onSettled: ((frame: number) => void) | null = null
  /** Which baked bodies and hosts the cells draw changed. */
  onShown: (() => void) | null = null
  /** A cell answered a frame (or the cells changed): each cell's state, in reading order (the labels say "not cached here"). */
  onCells: ((states: VariantCellState[]) => void) | null = null

  constructor(opts: WedgeGridOptions) {
    this.scene = opts.scene
    this.main = opts.camera
    this.fetchRecord = opts.fetchRecord
    this.createDecoder = opts.createDecoder ?? (() => new DecodeClient({ workers: 2 }))
    this.observers = {
      // Before Babylon updates the active cameras (which no longer include the main one).
      before: this.scene.onBeforeAnimationsObservable.add(() => {
        if (this.active) this.main.update()
      }),
      // After the main camera's per-frame fixes (ortho fit, framing animation, pan speed).
      render: this.scene.onBeforeRenderObservable.add(() => this.beforeRender()),
      drawn: this.scene.onAfterRenderCameraObservable.add((cam) => {
        const cell = this.cells.find((c) => c.camera === cam)
        if (cell) cell.drawnFrame = cell.variant.state.frame
      }),
    }
  }

  get active(): boolean {
    return this.cells.length > 0
  }

  /** The variants to show, at most MAX_GRID_CELLS (the rest are ignored); null or [] leaves the grid. */
  setCells(sources: readonly GridCellSource[] | null): void {
    const want = (sources ?? []).slice(0, MAX_GRID_CELLS)
    if (want.length === 0) return this.leave()
    const same = want.length === this.cells.length && want.every((s, i) => s.key === this.cells[i].variant.key)
    if (!same) this.rebuild(want.map((s) => s.key))
    want.forEach((s, i) => this.cells[i].variant.setSource(s.cached, s.sig))
    if (!same && this.wanted !== null) this.show(this.wanted)
  }

  /** Shows the cached frame under the playhead in every cell. */
  show(frame: number): void {
    this.wanted = frame
    this.settled = null
    for (const c of this.cells) c.variant.show(frame)
    this.checkSettled()
  }

  /** Whether every cell answered `frame` (true with no grid). */
  answered(frame: number): boolean {
    return this.cells.every((c) => c.variant.answered(frame))
  }

  /** The main display's look, mirrored by every cell. */
  setSettings(s: Partial<CacheDisplaySettings>): void {
    this.settings = { ...this.settings, ...s }
    for (const c of this.cells) c.variant.display.setSettings(s)
  }

  /** The main decoder's options (ambient temperature, colour attributes, light): a change re-decodes every cell. */
  setDecodeOptions(o: DisplayOptions): void {
    if (JSON.stringify(o) === JSON.stringify(this.decodeOptions)) return
    this.decodeOptions = { ...o }
    if (this.client) this.client.display = { ...o }
    for (const c of this.cells) c.variant.invalidate()
  }

  /**
   * The camera of the cell under a point given as fractions of the canvas (origin top left), or
   * null outside the grid's cells (a click in a cell picks through its camera).
   */
  cameraAt(fx: number, fy: number): Camera | null {
    if (!this.active) return null
    const i = cellAt(this.layout, this.cells.length, fx, fy)
    return i < 0 ? null : this.cells[i].camera
  }

  /** Scene object ids of the baked bodies any cell draws. */
  shownBodies(): Set<string> {
    return new Set(this.cells.flatMap((c) => [...c.variant.display.shownBodies.ids]))
  }

  /** The hosts any cell draws a baked surface of. */
  shownHosts(): Set<string> {
    return new Set(this.cells.flatMap((c) => [...c.variant.display.shownHost.ids]))
  }

  testState(): WedgeGridTestState | null {
    if (!this.active) return null
    return {
      cols: this.layout.cols,
      rows: this.layout.rows,
      cells: this.cells.map((c) => ({
        key: c.variant.key,
        frame: c.variant.state.frame,
        shownFrame: c.variant.state.shownFrame,
        drawnFrame: c.drawnFrame,
        error: c.variant.state.error,
        volume: c.variant.display.parts.volume.node.isEnabled(),
        camera: cameraPose(c.camera),
      })),
    }
  }

  dispose(): void {
    this.leave()
    this.scene.onBeforeAnimationsObservable.remove(this.observers.before)
    this.scene.onBeforeRenderObservable.remove(this.observers.render)
    this.scene.onAfterRenderCameraObservable.remove(this.observers.drawn)
  }

  private rebuild(keys: string[]): void {
    this.disposeCells()
    if (!this.client) {
      this.client = this.createDecoder()
      this.client.display = { ...this.decodeOptions }
    }
    this.layout = gridLayout(keys.length)
    this.cells = keys.map((key, i) => {
      const variant = new VariantCell(this.scene, key, this.client!, this.fetchRecord, this.settings)
      variant.display.setLayerMask(1 << i)
      const camera = new ArcRotateCamera(`viewport:wedgeCamera:${i}`, this.main.alpha, this.main.beta, this.main.radius, Vector3.Zero(), this.scene)
      camera.layerMask = 1 << i
      const v = cellViewport(this.layout, i)
      camera.viewport.x = v.x
      camera.viewport.y = v.y
      camera.viewport.width = v.width
      camera.viewport.height = v.height
      const cell: Cell = { variant, camera, drawnFrame: null }
      variant.onState = () => {
        cell.drawnFrame = null
        this.reportCells()
        this.checkSettled()
      }
      variant.display.shownBodies.subscribe(() => this.onShown?.())
      variant.display.shownHost.subscribe(() => this.onShown?.())
      return cell
    })
    this.follow()
    this.scene.activeCameras = this.cells.map((c) => c.camera)
    this.onShown?.()
    this.reportCells()
  }

  private leave(): void {
    if (!this.active) return
    this.disposeCells()
    this.client?.dispose()
    this.client = null
    this.settled = null
    this.onShown?.()
    this.reportCells()
  }

  private reportCells(): void {
    this.onCells?.(this.cells.map((c) => c.variant.state))
  }

  private disposeCells(): void {
    if (this.cells.length === 0) return
    this.scene.activeCameras = []
    // Babylon leaves the last cell's camera as the active one: the main camera is again.
    this.scene.activeCamera = this.main
    for (const c of this.cells) {
      c.variant.dispose()
      c.camera.dispose()
    }
    this.cells = []
  }

  private beforeRender(): void {
    if (!this.active) return
    const narrower = this.follow()
    // Pan so the point at the orbit centre follows the cursor in a cell too: engine.ts sets the
    // speed for the whole canvas, and a cell shows the same metres on 1/rows of its height
    // (or, when it keeps the horizontal extent, on 1/cols of its width).
    this.main.panningSensibility /= narrower ? this.layout.cols : this.layout.rows
  }

  /** Cells copy the main camera; returns whether they are narrower than the canvas (they keep its horizontal extent). */
  private follow(): boolean {
    const engine = this.scene.getEngine()
    const w = engine.getRenderWidth() || 1
    const h = engine.getRenderHeight() || 1
    const cellAspect = (w / this.layout.cols) / (h / this.layout.rows)
    for (const c of this.cells) followCamera(c.camera, this.main, w / h, cellAspect)
    return cellAspect < w / h
  }

  private checkSettled(): void {
    const f = this.wanted
    if (f === null || this.settled === f || !this.active || !this.answered(f)) return
    this.settled = f
    this.onSettled?.(f)
  }
}
