// The live surface flow in the viewport (issue 14's live mode, as Stam 2003's program ran): the
// flow steps in a worker (liveSurfaceWorker.ts) while the viewport draws its colours on the
// subdivided surface, posed like the cage. Dragging on the surface with the left button paints
// the brush colour there and pushes the flow along the drag (the camera stays put meanwhile);
// other buttons still orbit and pan. With "gravity from the view" the paint runs towards the
// bottom of the screen as the camera turns. The frame rate shown is the worker's steps a second
// and the viewport's own.
import type { ArcRotateCamera } from '@babylonjs/core/Cameras/arcRotateCamera'
import { VertexBuffer } from '@babylonjs/core/Buffers/buffer'
import { PointerEventTypes, type PointerInfo } from '@babylonjs/core/Events/pointerEvents'
import { Matrix, Quaternion, Vector3 } from '@babylonjs/core/Maths/math.vector'
import { Mesh } from '@babylonjs/core/Meshes/mesh'
import { TransformNode } from '@babylonjs/core/Meshes/transformNode'
import { VertexData } from '@babylonjs/core/Meshes/mesh.vertexData'
import type { Observer } from '@babylonjs/core/Misc/observable'
import type { Scene } from '@babylonjs/core/scene'
import type { CageGeometry, Vec3 } from '../../../src-shared/scene/types'
import type { LiveSurfaceSettings } from '../../../src-shared/sim/surface/liveSurface'
import { cacheMaterial } from '../cache/meshDisplay'
import { cssToRender } from '../selection'
import { useCounterClockwiseFront } from '../shapes'
import { eulerXYZDegToQuaternion } from '../transformMath'
import { attachCameraControl } from '../navigation'
import type { LiveRequest, LiveResponse } from './liveProtocol'

/** What the live flow runs on: the cage and its transform (scale is baked into the surface). */
export interface LiveCage {
  id: string
  geometry: CageGeometry
  position: Vec3
  rotation: Vec3
  scale: Vec3
}

/** The artist's settings in world terms; the view turns them into the cage's axes. */
export interface LiveControls {
  N: number
  gravity: Vec3
  /** Gravity points down the screen (its strength is |gravity|) instead of along `gravity`. */
  gravityFromView: boolean
  drag: number
  colorDiffusion: number
  vorticity: number
  baseColor: Vec3
  brushColor: Vec3
  /** m. */
  brushRadius: number
}

export interface LiveState {
  cageId: string | null
  running: boolean
  stepsPerSecond: number
  /** Viewport frames drawn a second while live. */
  fps: number
  steps: number
  paint: number
  error: string | null
}

/** The drag velocity is measured over at least this many ms, and forgotten after STILL_AFTER ms without a move. */
const VELOCITY_WINDOW = 30
const STILL_AFTER = 100

export const IDLE_LIVE: LiveState = { cageId: null, running: false, stepsPerSecond: 0, fps: 0, steps: 0, paint: 0, error: null }

interface WorkerLike {
  onmessage: ((e: { data: LiveResponse }) => void) | null
  onerror: ((e: { message?: string }) => void) | null
  postMessage(m: LiveRequest): void
  terminate(): void
}

/** Vite bundles the worker because of this exact `new Worker(new URL(...), { type: 'module' })` text. */
function bundledWorker(): WorkerLike {
  return new Worker(new URL('./liveSurfaceWorker.ts', import.meta.url), { type: 'module' }) as unknown as WorkerLike
}

export class LiveSurfaceView {
  state: LiveState = { ...IDLE_LIVE }
  onState: ((s: LiveState) => void) | null = null
  private worker: WorkerLike | null = null
  private root: TransformNode | null = null
  private mesh: Mesh | null = null
  private rgba: Float32Array | null = null
  private cage: LiveCage | null = null
  private controls: LiveControls | null = null
  private readonly rotation = new Matrix()
  private painting = false
  private brushAt: Vec3 | null = null
  private lastStroke = 0
  /** Where and when the drag velocity was last measured: over at least VELOCITY_WINDOW ms, so two pointer events a millisecond apart do not fling the paint. */
  private anchor: { at: Vec3; t: number } | null = null
  private velocity: Vec3 = [0, 0, 0]
  private readonly pointer: Observer<PointerInfo>
  private readonly beforeRender: Observer<Scene>
  private frames: number[] = []

  constructor(private readonly scene: Scene, private readonly camera: ArcRotateCamera) {
    this.pointer = scene.onPointerObservable.add((info) => this.onPointer(info))!
    this.beforeRender = scene.onBeforeRenderObservable.add(() => this.tick())!
  }

  /** Whether a live flow runs (the viewport then draws every frame). */
  get running(): boolean {
    return this.worker !== null
  }

  /** Starts (or restarts) the live flow on a cage. */
  start(cage: LiveCage, controls: LiveControls): void {
    this.stop()
    this.cage = cage
    this.controls = controls
    const root = new TransformNode(`live:${cage.id}`, this.scene)
    root.position.set(cage.position[0], cage.position[1], cage.position[2])
    root.rotationQuaternion = eulerXYZDegToQuaternion(cage.rotation)
    this.root = root
    root.rotationQuaternion.toRotationMatrix(this.rotation)
    const positions = cage.geometry.positions.map((x, i) => x * cage.scale[i % 3])
    const worker = bundledWorker()
    this.worker = worker
    worker.onmessage = (e) => this.onMessage(e.data)
    worker.onerror = (e) => this.fail(`The live flow's worker failed: ${e.message ?? 'unknown error'}`)
    this.state = { ...IDLE_LIVE, cageId: cage.id }
    this.emit()
    worker.postMessage({ type: 'start', positions, faces: cage.geometry.faces, N: controls.N, settings: this.settings() })
  }

  /** New settings for a running flow (brush, gravity, rates). */
  update(controls: LiveControls): void {
    this.controls = controls
    this.worker?.postMessage({ type: 'settings', settings: this.settings() })
  }

  stop(): void {
    this.endPaint()
    this.worker?.terminate()
    this.worker = null
    this.mesh?.dispose()
    this.mesh = null
    this.root?.dispose()
    this.root = null
    this.cage = null
    if (this.state.cageId !== null) {
      this.state = { ...IDLE_LIVE }
      this.emit()
    }
  }

  dispose(): void {
    this.stop()
    this.scene.onPointerObservable.remove(this.pointer)
    this.scene.onBeforeRenderObservable.remove(this.beforeRender)
  }

  /** A world vector in the cage's axes (R^T v). */
  private toLocal(v: Vec3): [number, number, number] {
    const m = this.rotation.m
    // Babylon matrices are row-vector (v M): R's columns are m's rows, so R^T v = M v-as-column.
    return [m[0] * v[0] + m[1] * v[1] + m[2] * v[2], m[4] * v[0] + m[5] * v[1] + m[6] * v[2], m[8] * v[0] + m[9] * v[1] + m[10] * v[2]]
  }

  private settings(): LiveSurfaceSettings {
    const c = this.controls!
    let g = c.gravity
    if (c.gravityFromView) {
      // Down the screen: minus the camera's up direction in world axes, at gravity's strength.
      const up = this.camera.getDirection(Vector3.Up())
      const s = Math.hypot(g[0], g[1], g[2])
      g = [-up.x * s, -up.y * s, -up.z * s]
    }
    return { gravity: this.toLocal(g), drag: c.drag, colorDiffusion: c.colorDiffusion, vorticity: c.vorticity, baseColor: [c.baseColor[0], c.baseColor[1], c.baseColor[2]] }
  }

  private onMessage(m: LiveResponse): void {
    if (m.type === 'error') return this.fail(m.message)
    if (m.type === 'ready') {
      const mesh = new Mesh(`live:${this.cage?.id}:surface`, this.scene)
      const data = new VertexData()
      data.positions = m.positions
      data.normals = m.normals
      data.indices = m.indices
      this.rgba = new Float32Array((m.positions.length / 3) * 4).fill(1)
      data.colors = this.rgba
      data.applyToMesh(mesh, true)
      // The patches wind counter-clockwise seen from outside, as the cached meshes do.
      useCounterClockwiseFront(mesh)
      mesh.useVertexColors = true
      mesh.material = cacheMaterial(this.scene, 'cache:coloured')
      mesh.parent = this.root
      mesh.isPickable = true
      this.mesh = mesh
      this.state = { ...this.state, running: true }
      this.emit()
      return
    }
    const rgba = this.rgba
    if (!this.mesh || !rgba) return
    const c = m.colors
    for (let v = 0, n = c.length / 3; v < n; v++) {
      rgba[4 * v] = c[3 * v]
      rgba[4 * v + 1] = c[3 * v + 1]
      rgba[4 * v + 2] = c[3 * v + 2]
    }
    this.mesh.updateVerticesData(VertexBuffer.ColorKind, rgba)
    this.state = { ...this.state, stepsPerSecond: m.stepsPerSecond, steps: m.steps, paint: m.paint }
  }

  private fail(message: string): void {
    const id = this.state.cageId
    this.stop()
    this.state = { ...IDLE_LIVE, cageId: id, error: message }
    this.emit()
  }

  private emit(): void {
    this.onState?.({ ...this.state })
  }

  /** The cage-local point of the live surface under a canvas event, or null. */
  private pickLocal(ev: PointerEvent): Vec3 | null {
    if (!this.mesh || !this.root) return null
    const canvas = this.scene.getEngine().getRenderingCanvas()
    const rect = canvas?.getBoundingClientRect()
    const s = cssToRender(this.scene)
    const hit = this.scene.pick((ev.clientX - (rect?.left ?? 0)) * s.x, (ev.clientY - (rect?.top ?? 0)) * s.y, (m) => m === this.mesh)
    if (!hit?.hit || !hit.pickedPoint) return null
    const p = hit.pickedPoint
    const t = this.root.position
    return this.toLocal([p.x - t.x, p.y - t.y, p.z - t.z])
  }

  private onPointer(info: PointerInfo): void {
    if (!this.mesh) return
    const ev = info.event as PointerEvent
    if (info.type === PointerEventTypes.POINTERDOWN && ev.button === 0) {
      const at = this.pickLocal(ev)
      if (!at) return
      // Painting, not orbiting: the camera lets go of the pointer until the button is up.
      this.camera.detachControl()
      this.painting = true
      this.brushAt = at
      this.lastStroke = performance.now()
      this.anchor = { at, t: this.lastStroke }
      this.velocity = [0, 0, 0]
    } else if (info.type === PointerEventTypes.POINTERMOVE && this.painting) {
      const at = this.pickLocal(ev)
      const now = performance.now()
      if (at) {
        this.brushAt = at
        const a = this.anchor
        if (a && now - a.t >= VELOCITY_WINDOW) {
          const dt = (now - a.t) / 1000
          this.velocity = [(at[0] - a.at[0]) / dt, (at[1] - a.at[1]) / dt, (at[2] - a.at[2]) / dt]
          this.anchor = { at, t: now }
        }
        this.sendStroke(now)
      }
    } else if (info.type === PointerEventTypes.POINTERUP && this.painting) {
      this.endPaint()
    }
  }

  private endPaint(): void {
    if (!this.painting) return
    this.painting = false
    this.brushAt = null
    attachCameraControl(this.camera)
  }

  private sendStroke(now: number): void {
    const c = this.controls
    if (!c || !this.brushAt || !this.worker) return
    const dt = Math.min(0.1, (now - this.lastStroke) / 1000)
    this.lastStroke = now
    // A brush held still paints without pushing.
    if (this.anchor && now - this.anchor.t > STILL_AFTER) {
      this.velocity = [0, 0, 0]
      this.anchor = { at: this.brushAt, t: now }
    }
    const v = this.velocity
    this.worker.postMessage({ type: 'stroke', stroke: { at: [...this.brushAt] as [number, number, number], radius: c.brushRadius, color: [c.brushColor[0], c.brushColor[1], c.brushColor[2]], velocity: [v[0], v[1], v[2]], dt } })
  }

  /** Every rendered frame: a held brush keeps painting, view gravity follows the camera, fps counted. */
  private tick(): void {
    if (!this.worker || !this.state.running) return
    const now = performance.now()
    if (this.painting) this.sendStroke(now)
    if (this.controls?.gravityFromView) this.worker.postMessage({ type: 'settings', settings: this.settings() })
    this.frames.push(now)
    while (this.frames.length > 0 && now - this.frames[0] > 1000) this.frames.shift()
    const fps = this.frames.length
    if (fps !== this.state.fps || this.frames.length % 10 === 0) {
      this.state = { ...this.state, fps }
      this.emit()
    }
  }
}
