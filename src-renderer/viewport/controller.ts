// Wires the viewport's parts together and to the app state. Viewport.svelte creates one
// controller per canvas and calls `update()` from an $effect: every app state read in
// there (objects, their keyframed values at app.frame, selection, modes) re-runs it.
import { Matrix, Vector3 } from '@babylonjs/core/Maths/math.vector'
import { app } from '../state/app.svelte'
import { CageEdit } from './cageEdit'
import { createViewportEngine, DEFAULT_VIEW, type ViewportEngine } from './engine'
import { CameraFramer, worldBounds } from './frameSelected'
import { Gizmos, paramsFromGizmo, type GizmoTarget } from './gizmos'
import { MeshCache } from './meshCache'
import type { ObjectVisual } from './objectVisuals'
import { Palette } from './palette'
import { SceneSync } from './sceneSync'
import { cssToRender, pickAt, Selection, type PickFilter, type PickHit } from './selection'
import { CachePlayback, type CacheSource } from './cachePlayback'
import { DEFAULT_LAYER_MASK, type CacheDisplaySettings } from './cache/cacheDisplay'
import { WedgeGrid, type GridCellSource } from './wedge/wedgeGrid'
import { RedrawScheduler } from './redrawScheduler'
import { installTestHooks, type EddyViewportTestApi } from './testHooks'
import { CcCageVisual } from './visuals'
import { LiveSurfaceView } from './live/liveSurfaceView'
import { live as liveSession } from '../state/live.svelte'
import { view as viewSession } from '../state/view.svelte'
import { applyNavigationStyle, ViewOrientation, type ViewCommand } from './navigation'
import { Cursor3D } from './cursor3d'
import { autoKeyMessage, needsAutoKey } from '../panels/paramEdit'
import { ModalTransform } from './modalTransform'
import type { GizmoMode } from './objectVisuals'
import type { ObjectKind, SceneObject } from '../../src-shared/scene/types'

/** What the overlays switch hides besides the grid: objects that only steer a simulation. */
const HELPER_KINDS: readonly ObjectKind[] = ['domain', 'emitter', 'vortexSeed', 'heatSource']

export class ViewportController {
  private readonly ve: ViewportEngine
  private readonly palette: Palette
  private readonly meshes: MeshCache
  private readonly sync: SceneSync
  private readonly selection: Selection
  private readonly gizmos: Gizmos
  private readonly cageEdit: CageEdit
  private readonly framer: CameraFramer
  private readonly orientation: ViewOrientation
  private readonly cursor3d: Cursor3D
  private readonly modal: ModalTransform
  /** The mouse over the canvas (CSS pixels), or null when it is elsewhere. */
  private mouse: { x: number; y: number } | null = null
  private readonly trackMouse = (e: PointerEvent) => {
    const r = this.canvas.getBoundingClientRect()
    this.mouse = { x: e.clientX - r.left, y: e.clientY - r.top }
  }
  private readonly loseMouse = () => (this.mouse = null)
  private readonly resizeObserver: ResizeObserver
  private readonly hooks: EddyViewportTestApi
  /** Baked frames under the playhead. */
  readonly cache: CachePlayback
  /** The side-by-side view of a wedge's variants (wedge/wedgeGrid.ts); inactive until setWedgeGrid. */
  readonly wedgeGrid: WedgeGrid
  private readonly uninstallHooks: () => void
  private readonly preventMenu = (e: Event) => e.preventDefault()
  private readonly unsubscribeBodies: () => void
  private readonly unsubscribeHost: () => void
  /** The live surface flow (live/liveSurfaceView.ts), driven from the inspector's Live panel. */
  readonly live: LiveSurfaceView
  /** Objects whose baked counterpart the cache display draws, and the cage running live: both ghost the authored object. */
  private cacheShown: ReadonlySet<string> = new Set()
  private hostShown: ReadonlySet<string> = new Set()
  private disposed = false
  /** Draws only when something on screen can have changed (redrawScheduler.ts). */
  private readonly redraw: RedrawScheduler

  constructor(
    private readonly canvas: HTMLCanvasElement,
    container: HTMLElement,
  ) {
    this.ve = createViewportEngine(canvas)
    const { engine, scene, camera } = this.ve
    this.palette = new Palette(scene)
    this.meshes = new MeshCache(
      async (meshId) => {
        if (!app.api) return undefined
        try {
          return await app.api.call('mesh.data', { meshId })
        } catch (e) {
          app.showError(e)
          throw e
        }
      },
      () => this.update(),
    )
    this.sync = new SceneSync({ scene, palette: this.palette, meshes: this.meshes })
    this.selection = new Selection(scene, (x, y) => this.onClick(x, y))
    this.cageEdit = new CageEdit(scene, this.palette)
    this.gizmos = new Gizmos(scene, {
      onDragStart: (t) => this.onDragStart(t),
      onDrag: () => {},
      onDragEnd: (t) => void this.onDragEnd(t),
    })
    this.framer = new CameraFramer(scene, camera)
    this.orientation = new ViewOrientation(scene, camera)
    this.orientation.onChange = (s) => (viewSession.label = s)
    this.cursor3d = new Cursor3D(scene, camera, (p) => (viewSession.cursor = p))
    this.modal = new ModalTransform(canvas, {
      camera,
      ray: (x, y) => {
        const s = cssToRender(scene)
        return scene.createPickingRay(x * s.x, y * s.y, Matrix.Identity(), camera)
      },
      project: (p) => this.project(p),
      begin: (visual, mode) => this.onDragStart({ type: 'object', visual, mode }),
      commit: (visual, mode) => void this.onDragEnd({ type: 'object', visual, mode }),
      cancel: (visual) => {
        this.sync.locked.delete(visual.id)
        this.sync.invalidate(visual.id)
        this.gizmos.refresh()
        this.update()
      },
      onHeader: (text) => (viewSession.modalHeader = text),
      onMode: (mode) => (app.transformMode = mode),
    })
    canvas.addEventListener('pointermove', this.trackMouse)
    canvas.addEventListener('pointerleave', this.loseMouse)
    viewSession.attach({ run: (cmd) => this.view(cmd), setNavigation: (style) => applyNavigationStyle(camera, style), startModal: (mode) => this.startModal(mode), capture: (frame) => this.capture(frame) })
    const fetchRecord = async (domainId: string, frame: number): Promise<Uint8Array> => {
      if (!app.api) throw new Error('Not connected to the Eddy services')
      return app.api.call('cache.display', { domainId, frame })
    }
    // With the headless host, the decode worker fetches records over its own WebSocket.
    const hostUrl = () => (app.api?.transport.kind === 'websocket' ? (app.api.transport.url ?? null) : null)
    this.cache = new CachePlayback(scene, fetchRecord, hostUrl)
    // Variant bake keys are asked for exactly like a simulation's id.
    this.wedgeGrid = new WedgeGrid({ scene, camera, fetchRecord })
    this.wedgeGrid.onShown = () => this.ghostStandIns()
    // A simulated rigid body on screen: the authored body of its id steps aside (visuals/rigidBody.ts).
    this.live = new LiveSurfaceView(scene, camera)
    this.unsubscribeBodies = this.cache.display.shownBodies.subscribe((ids) => {
      this.cacheShown = ids
      this.ghostStandIns()
    })
    this.unsubscribeHost = this.cache.display.shownHost.subscribe((ids) => {
      this.hostShown = ids
      this.ghostStandIns()
    })
    liveSession.attach(this.live)
    const onLive = this.live.onState
    this.live.onState = (st) => {
      onLive?.(st)
      this.ghostStandIns()
    }

    scene.onBeforeRenderObservable.add(() => {
      for (const v of this.sync.visuals.values()) v.follow()
      this.cageEdit.beforeRender(camera)
    })

    this.hooks = {
      ready: false,
      renderedFrames: 0,
      requestDraws: () => this.redraw.request(),
      objectNodes: () => [...this.sync.visuals.keys()],
      sceneMeshes: () => scene.meshes.filter((m) => m.isEnabled() && m.isVisible).map((m) => `${m.name} ${m.getTotalVertices()}`),
      screenToObject: (x, y) => this.pickInView(x, y, (m) => m.cageVertex === undefined)?.objectId ?? null,
      projectToScreen: (id) => this.projectToScreen(id),
      projectPoint: (p) => this.project(new Vector3(p[0], p[1], p[2])),
      cursor: () => [...viewSession.cursor],
      camera: () => ({
        alpha: camera.alpha,
        beta: camera.beta,
        radius: camera.radius,
        target: [camera.target.x, camera.target.y, camera.target.z],
        ortho: this.orientation.state.ortho,
      }),
      objectMaterials: (id) =>
        this.sync.visuals
          .get(id)
          ?.root.getChildMeshes(false)
          .filter((m) => m.isEnabled() && m.isVisible)
          .map((m) => m.material?.name ?? '') ?? [],
      wedgeGrid: () => this.wedgeGrid.testState(),
      cache: {
        state: () => this.cache.state,
        timings: () => this.cache.timings(),
        uploadTimings: () => this.cache.uploadTimings(),
        stageTimings: () => this.cache.stageTimings(),
        setIdleFill: (on: boolean) => this.cache.setIdleFill(on),
        setWorkerFetch: (on: boolean) => this.cache.setWorkerFetch(on),
        buffered: () => this.cache.bufferedFrames(),
        settings: () => ({ ...this.cache.display.settings }),
        parts: () => {
          const { volume, particles, meshes, rigidBodies } = this.cache.display.parts
          return {
            volume: volume.node.isEnabled(),
            particles: particles.map((p) => p.drawn.count),
            particlesDrawn: particles.map((p) => p.drawing),
            meshes: meshes.map((m) => m.drawn.vertices),
            meshesDrawn: meshes.map((m) => m.node.isEnabled()),
            rigidBodies: rigidBodies.filter((b) => b.node.isEnabled()).map((b) => b.drawn.vertices),
          }
        },
        shownBodies: () => [...this.cache.display.shownBodies.ids],
        volumeSteps: () => this.cache.display.parts.volume.steps,
        bodyPoses: () => this.cache.display.bodyPoses(),
      },
    }
    this.uninstallHooks = installTestHooks(this.hooks)

    const draw = (): void => {
      scene.render()
      this.hooks.renderedFrames++
      this.hooks.ready = true
    }
    this.redraw = new RedrawScheduler(engine, scene, camera, canvas, window, () => this.live.running)
    const renderFrame = (): void => void this.redraw.tick(draw)
    // Benchmarks of the data path switch drawing off: SwiftShader's seconds per raymarched
    // frame would otherwise be measured instead of decode and upload (see tests/bench/scrub.bench.ts).
    let rendering = true
    // The scheduler stops the loop while nothing is due and starts it again (redrawScheduler.ts).
    this.redraw.attachLoop(
      () => {
        if (rendering) engine.runRenderLoop(renderFrame)
      },
      () => engine.stopRenderLoop(renderFrame),
    )
    engine.runRenderLoop(renderFrame)
    this.hooks.cache!.setRendering = (on: boolean) => {
      rendering = on
      engine.stopRenderLoop(renderFrame)
      if (on) {
        engine.runRenderLoop(renderFrame)
        this.redraw.request()
      }
    }
    this.resizeObserver = new ResizeObserver(() => {
      engine.resize()
      this.redraw.request()
    })
    this.resizeObserver.observe(container)
    canvas.addEventListener('contextmenu', this.preventMenu) // right drag pans
  }

  /** Brings the scene, highlight, cage handles and gizmo in line with the app state. */
  update(): void {
    if (this.disposed) return
    // Optional: the mesh cache can call update() before the constructor made the scheduler.
    this.redraw?.request()
    try {
      this.updateUnsafe()
    } catch (e) {
      // A broken visual must not take the Svelte effect (and with it the UI) down.
      console.error('viewport: update failed', e)
    }
  }

  private updateUnsafe(): void {
    const frame = app.frame
    const overlays = viewSession.overlays
    this.cursor3d.setPosition(viewSession.cursor)
    this.cursor3d.setVisible(overlays)
    for (const m of this.ve.grid) if (m.isEnabled(false) !== overlays) m.setEnabled(overlays)
    const shown = (o: SceneObject) => !o.hidden && (overlays || !HELPER_KINDS.includes(o.kind))
    this.sync.sync(app.objects, (o) => app.valuesAt(o, frame), shown)
    const visuals = this.sync.visuals
    this.selection.apply(app.selection.map((id) => visuals.get(id)).filter((v): v is ObjectVisual => !!v))

    const sel = app.selected
    // A hidden object keeps its selection but shows no gizmo (Blender's behaviour).
    const visual = sel && shown(sel) ? visuals.get(sel.id) : undefined
    const cageVisual = app.editMode === 'cage' && visual instanceof CcCageVisual ? visual : null
    const vertex = app.selectedCageVertex
    this.cageEdit.setActive(cageVisual, vertex)

    if (this.wedgeGrid.active) {
      // The grid is for comparing variants: the gizmo would be drawn in one cell only.
      this.gizmos.setTarget(null)
    } else if (cageVisual) {
      const node = this.cageEdit.handleNode(vertex)
      this.gizmos.setTarget(node && vertex !== null ? { type: 'vertex', objectId: cageVisual.id, vertex, node } : null)
    } else if (visual) {
      const mode = app.transformMode
      this.gizmos.setTarget(visual.gizmoModes.includes(mode) ? { type: 'object', visual, mode } : null)
    } else {
      this.gizmos.setTarget(null)
    }
  }

  /** The active simulation's cache (Viewport.svelte); the wedge grid decodes its variants alike. */
  setCacheSource(source: CacheSource): void {
    this.redraw.request()
    this.cache.setSource(source)
    this.wedgeGrid.setDecodeOptions(this.cache.decodeOptions)
  }

  /** The cache display's look, for the main view and every cell of the wedge grid. */
  setCacheSettings(s: Partial<CacheDisplaySettings>): void {
    // A slider drag sets uniforms that no upload or app state change announces.
    this.redraw.request()
    this.cache.setSettings(s)
    this.wedgeGrid.setSettings(this.cache.display.settings)
    this.wedgeGrid.setDecodeOptions(this.cache.decodeOptions)
  }

  /** The playhead moved: the main view's cached frame, or every cell's while the grid is up. */
  showFrame(frame: number): void {
    this.redraw.request()
    if (this.wedgeGrid.active) this.wedgeGrid.show(frame)
    else this.cache.show(frame)
  }

  /**
   * Side by side: the variants to show in a grid (2-9 bake keys), or null for the single view.
   * The main display steps aside (no camera draws it) and keeps what it holds for the return.
   */
  setWedgeGrid(cells: readonly GridCellSource[] | null): void {
    this.redraw.request()
    const was = this.wedgeGrid.active
    this.wedgeGrid.setSettings(this.cache.display.settings)
    this.wedgeGrid.setDecodeOptions(this.cache.decodeOptions)
    this.wedgeGrid.setCells(cells)
    const now = this.wedgeGrid.active
    if (now === was) return
    this.cache.display.setLayerMask(now ? 0 : DEFAULT_LAYER_MASK)
    if (now) this.wedgeGrid.show(app.frame)
    else this.cache.show(app.frame)
    this.ghostStandIns()
    this.update()
  }

  /** F: frame the selection, or everything when nothing is selected. */
  frameSelection(animate = true): void {
    // From the View menu too, not only the F key: the glide starts in the next draw.
    this.redraw.request()
    const all = [...this.sync.visuals.values()]
    const selected = app.selection.map((id) => this.sync.visuals.get(id)).filter((v): v is ObjectVisual => !!v)
    const bounds = worldBounds(selected.length ? selected : all)
    if (bounds) this.framer.frame(bounds, animate)
  }

  /** G / R / S with the mouse over the view: the selected object follows it (modalTransform.ts). */
  private startModal(mode: GizmoMode): boolean {
    const sel = app.selected
    const visual = sel && !sel.hidden ? this.sync.visuals.get(sel.id) : undefined
    if (this.wedgeGrid.active || !this.mouse || !visual || app.editMode !== 'object' || !visual.gizmoModes.includes(mode) || !visual.root.isEnabled()) return false
    this.modal.start(visual, mode, this.mouse)
    return true
  }

  /**
   * The flipbook's frame: the playhead moved to `frame`, the view waited for that frame's cache
   * (when there is one) and two more renders (so the objects at that frame are drawn), then
   * the canvas as PNG bytes.
   */
  private async capture(frame: number): Promise<Uint8Array> {
    app.setFrame(frame)
    const start = performance.now()
    while (!(this.wedgeGrid.active ? this.wedgeGrid.answered(frame) : this.cache.answered(frame))) {
      if (this.disposed) throw new Error('The 3D view closed')
      if (performance.now() - start > 60_000) throw new Error(`Frame ${frame} did not reach the view within a minute`)
      await new Promise((r) => setTimeout(r, 15))
    }
    this.redraw.request()
    const target = this.hooks.renderedFrames + 2
    while (this.hooks.renderedFrames < target) {
      if (this.disposed) throw new Error('The 3D view closed')
      if (performance.now() - start > 60_000) throw new Error(`The view did not draw frame ${frame} within a minute`)
      await new Promise((r) => setTimeout(r, 10))
    }
    const blob = await new Promise<Blob | null>((r) => this.canvas.toBlob(r, 'image/png'))
    if (!blob) throw new Error('The 3D view could not be read back as an image')
    return new Uint8Array(await blob.arrayBuffer())
  }

  /** Numpad views, numpad 5 and Home (View menu and keyboard). */
  view(cmd: ViewCommand): void {
    this.redraw.request()
    if (cmd.type === 'frameAll') {
      const bounds = worldBounds(this.sync.visuals.values())
      if (bounds) this.framer.frame(bounds)
      return
    }
    this.framer.stop()
    this.orientation.run(cmd)
  }

  /**
   * A project was opened: Blender's default view direction, centred on the whole scene,
   * at the default distance unless the scene needs more room.
   */
  resetView(): void {
    this.redraw.request()
    const camera = this.ve.camera
    this.framer.stop()
    camera.alpha = DEFAULT_VIEW.alpha
    camera.beta = DEFAULT_VIEW.beta
    camera.radius = DEFAULT_VIEW.radius
    camera.target.copyFrom(DEFAULT_VIEW.target)
    this.orientation.reset()
    const bounds = worldBounds(this.sync.visuals.values())
    if (bounds) this.framer.frame(bounds, false, DEFAULT_VIEW.radius)
  }

  private onClick(x: number, y: number): void {
    const cageId = this.cageEdit.activeObjectId
    if (cageId) {
      // Edit mode: clicks pick vertices of this cage only; empty space deselects the vertex.
      const hit = this.pickInView(x, y, (m) => m.cageVertex !== undefined && m.objectId === cageId)
      app.selectedCageVertex = hit?.cageVertex ?? null
      return
    }
    const hit = this.pickInView(x, y, (m) => m.cageVertex === undefined)
    app.select(hit?.objectId ?? null)
  }

  private onDragStart(t: GizmoTarget): void {
    if (t.type === 'object') this.sync.locked.add(t.visual.id)
    else this.cageEdit.beginDrag(t.vertex)
  }

  /** pickAt through the camera of the view under (x, y): in the side-by-side grid its cell's, and nothing in the grid's empty cell. */
  private pickInView(x: number, y: number, filter: PickFilter): PickHit | null {
    if (!this.wedgeGrid.active) return pickAt(this.ve.scene, x, y, filter)
    const camera = this.wedgeGrid.cameraAt(x / (this.canvas.clientWidth || 1), y / (this.canvas.clientHeight || 1))
    return camera ? pickAt(this.ve.scene, x, y, filter, camera) : null
  }

  private async onDragEnd(t: GizmoTarget): Promise<void> {
    if (t.type === 'object') {
      const id = t.visual.id
      try {
        const params = paramsFromGizmo(t.visual, t.mode)
        // An animated channel without a key here takes the drag only while auto-key is on.
        const channels = Object.entries(params).flatMap(([k, v]) => (Array.isArray(v) ? [0, 1, 2].map((i) => `${k}.${i}`) : [k]))
        const blocked = needsAutoKey(id, channels)
        if (blocked.length) app.showError(new Error(autoKeyMessage(id, blocked)))
        else await app.run('object.update', { id, patch: { params }, frame: app.frame })
      } finally {
        // Whatever the answer (new state, or an error toast), the document decides again.
        this.sync.locked.delete(id)
        this.sync.invalidate(id)
        this.gizmos.refresh()
        this.update()
      }
      return
    }
    const cage = this.cageEdit.endDrag()
    this.gizmos.refresh()
    if (!cage) return
    const ok = await app.run('object.update', { id: t.objectId, patch: { cage } })
    if (!ok) this.cageEdit.cancel()
    this.update()
  }

  /** World point to canvas CSS pixels; null when behind the camera. */
  private project(p: Vector3): { x: number; y: number } | null {
    const { scene, camera, engine } = this.ve
    const forward = camera.getForwardRay().direction
    if (Vector3.Dot(p.subtract(camera.globalPosition), forward) <= 0) return null
    const viewport = camera.viewport.toGlobal(engine.getRenderWidth(), engine.getRenderHeight())
    const s = Vector3.Project(p, Matrix.IdentityReadOnly, scene.getTransformMatrix(), viewport)
    const scale = cssToRender(scene)
    return { x: s.x / scale.x, y: s.y / scale.y }
  }

  private projectToScreen(id: string): { x: number; y: number } | null {
    const visual = this.sync.visuals.get(id)
    if (!visual) return null
    const bounds = worldBounds([visual])
    if (!bounds) return null
    const project = (p: Vector3) => this.project(p)
    const centre = bounds.min.add(bounds.max).scaleInPlace(0.5)
    const c = project(centre)
    if (!c) return null
    const picks = (p: { x: number; y: number }) => this.hooks.screenToObject?.(p.x, p.y) === id
    if (picks(c)) return c
    // Something else is in front of the centre: try points towards the box corners.
    const inside = (p: { x: number; y: number }) => p.x >= 0 && p.y >= 0 && p.x < this.canvas.clientWidth && p.y < this.canvas.clientHeight
    for (const f of [0.5, 0.8, 0.3, 0.95]) {
      for (const cx of [bounds.min.x, bounds.max.x])
        for (const cy of [bounds.min.y, bounds.max.y])
          for (const cz of [bounds.min.z, bounds.max.z]) {
            const q = project(Vector3.Lerp(centre, new Vector3(cx, cy, cz), f))
            if (q && inside(q) && picks(q)) return q
          }
    }
    return c
  }

  /** The authored objects drawn as faint stand-ins: those the cache draws baked (the grid's cells while it is up), and the live cage. */
  private ghostStandIns(): void {
    const grid = this.wedgeGrid
    const ids = grid?.active ? new Set([...grid.shownBodies(), ...grid.shownHosts()]) : new Set([...this.cacheShown, ...this.hostShown])
    const id = this.live?.state.running ? this.live.state.cageId : null
    if (id) ids.add(id)
    this.sync.setBakedShown(ids)
  }

  dispose(): void {
    if (this.disposed) return
    this.disposed = true
    this.canvas.removeEventListener('contextmenu', this.preventMenu)
    this.canvas.removeEventListener('pointermove', this.trackMouse)
    this.canvas.removeEventListener('pointerleave', this.loseMouse)
    this.modal.dispose()
    this.resizeObserver.disconnect()
    this.uninstallHooks()
    this.unsubscribeBodies()
    this.unsubscribeHost()
    liveSession.attach(null)
    viewSession.attach(null)
    this.orientation.dispose()
    this.cursor3d.dispose()
    this.live.dispose()
    this.framer.stop()
    this.gizmos.dispose()
    this.wedgeGrid.dispose()
    this.cache.dispose()
    this.cageEdit.dispose()
    this.selection.dispose()
    this.sync.dispose()
    this.meshes.dispose()
    this.palette.dispose()
    this.ve.engine.stopRenderLoop()
    this.redraw.dispose()
    this.ve.dispose()
  }
}
