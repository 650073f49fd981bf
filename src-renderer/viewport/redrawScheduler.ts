// Draws the viewport when something on it can have changed, as Blender's 3D view redraws on
// events, instead of every animation frame. Drawing an unchanged scene over and over cost two
// whole cores on a machine without a GPU (Chromium's software WebGL, 18.5 CPU seconds in 10 s of
// an idle project at about 20 frames a second), which the bakes, hosted by the same machine,
// then did not get; with a GPU it still costs power and fans.
//
// A draw is due, at the display's rate, for HOT_MS after any of:
//  - request(): the app state changed (the controller's update()), a flipbook capture, a resize;
//  - input on the canvas or the keyboard (navigation, gizmos, modal transforms, hover);
//  - data reaching the GPU outside a draw (a baked frame's volume, points or surface, a wedge
//    cell, the live flow's colours): every buffer and texture upload passes the engine;
//  - a mesh, material or texture added to or removed from the scene;
//  - the camera or a mesh moved, a mesh shown, hidden or given another material since the last
//    draw (checked every animation frame: a few comparisons a mesh);
//  - a draw that itself moved the camera (framing glides, view snaps and orbit inertia advance
//    inside draws), or left the scene not ready (shaders still compiling).
// Continuous sources (playback, the live flow) keep it due. Anything these miss, such as a
// shader parameter set from a panel without an app state change, is drawn by the idle floor:
// one draw every IDLE_MS, so nothing stays stale longer than that. The floor is a safety net,
// not a way of showing changes, so it is slow: at one draw every 250 ms an idle project kept
// Chromium's software renderer at 0.6-0.8 of a core (a composited frame costs it about 60 ms
// of CPU), at one a second about a quarter of that.
//
// Between draws the animation-frame loop itself sleeps (attachLoop): an animation frame that
// draws nothing still has Chromium's compositor, viz and GPU threads produce a frame, about 0.11
// of a core on an idle project here (1.1 of 1.9 CPU seconds in 10 s, measured from /proc with
// the loop running and stopped). Asleep, a timer runs the same cheap checks every
// ASLEEP_POLL_MS and wakes the loop for anything they see or for the idle floor; request(),
// input and uploads wake it at once.
import type { Engine } from '@babylonjs/core/Engines/engine'
import type { ArcRotateCamera } from '@babylonjs/core/Cameras/arcRotateCamera'
import type { Scene } from '@babylonjs/core/scene'
import type { Observable } from '@babylonjs/core/Misc/observable'
import type { AbstractMesh } from '@babylonjs/core/Meshes/abstractMesh'
import type { Node } from '@babylonjs/core/node'
import { TransformNode } from '@babylonjs/core/Meshes/transformNode'

/** How long draws continue at the display's rate after the last sign of change, ms. */
export const HOT_MS = 600
/** The longest an idle viewport goes without a draw, ms. */
export const IDLE_MS = 1000
/**
 * How long after a sign of change a scene that is not ready (shaders compiling, textures
 * loading) keeps the display's rate, ms; past that a mesh that never gets ready (a failed
 * shader) is left to the idle floor rather than keeping the view drawing.
 */
export const READY_WAIT_MS = 3000
/** How often an asleep loop's checks run (camera, meshes, continuous sources, the idle floor), ms. */
export const ASLEEP_POLL_MS = 100

/** Engine methods that put new data on the GPU (those this Babylon build has are watched). */
const UPLOADS = [
  'createVertexBuffer',
  'createDynamicVertexBuffer',
  'createIndexBuffer',
  'updateDynamicVertexBuffer',
  'updateDynamicIndexBuffer',
  'createRawTexture',
  'createRawTexture2DArray',
  'createRawTexture3D',
  'updateRawTexture',
  'updateRawTexture2DArray',
  'updateRawTexture3D',
  'updateDynamicTexture',
  'updateTextureData',
] as const

/** How many numbers cameraKey writes. */
const CAMERA_KEY_LENGTH = 12
/**
 * Writes the camera state a draw can change (orbit angles, distance, target, orthographic
 * extent) into `out`; numbers, not a string, since it runs every animation frame.
 */
function cameraKey(c: ArcRotateCamera, out: Float64Array): void {
  const t = c.target
  out[0] = c.alpha
  out[1] = c.beta
  out[2] = c.radius
  out[3] = t.x
  out[4] = t.y
  out[5] = t.z
  out[6] = c.mode
  // Babylon leaves the orthographic extent null until it is set.
  out[7] = c.orthoLeft ?? NaN
  out[8] = c.orthoRight ?? NaN
  out[9] = c.orthoTop ?? NaN
  out[10] = c.orthoBottom ?? NaN
  out[11] = c.fov
}

/** Whether two camera keys differ (NaN, an unset extent, equals NaN). */
function sameCamera(a: Float64Array, b: Float64Array): boolean {
  for (let i = 0; i < CAMERA_KEY_LENGTH; i++) if (a[i] !== b[i] && !(Number.isNaN(a[i]) && Number.isNaN(b[i]))) return false
  return true
}

/** A node's own transform was set since Babylon last computed its world matrix. */
interface Dirtyable {
  _isDirty?: boolean
}
function transformSet(node: TransformNode): boolean {
  const d = (v: unknown) => (v as Dirtyable | null | undefined)?._isDirty === true
  return d(node) || d(node.position) || d(node.scaling) || d(node.rotation) || d(node.rotationQuaternion)
}

/** Whether the mesh or a node above it was moved since the last draw. */
function moved(mesh: AbstractMesh): boolean {
  for (let n: Node | null = mesh; n; n = n.parent) if (n instanceof TransformNode && transformSet(n)) return true
  return false
}

/** Enabled, visible, visibility and material as one number. */
function shownKey(m: AbstractMesh): number {
  return (m.isEnabled() ? 1 : 0) + (m.isVisible ? 2 : 0) + 4 * Math.round(m.visibility * 255) + 1024 * ((m.material?.uniqueId ?? -1) + 1)
}

export class RedrawScheduler {
  private hotUntil = 0
  private readyWaitUntil = 0
  private lastDraw = -Infinity
  private drawing = false
  /** Per mesh: shownKey when last drawn. */
  private readonly shown = new WeakMap<AbstractMesh, number>()
  /**
   * Meshes Babylon leaves marked as moved after a draw (it skips computing the world matrix of
   * a mesh it does not draw, e.g. one scaled to zero): ignored, or the view would never rest.
   */
  private stuck = new WeakSet<AbstractMesh>()
  /** Whether stuck holds anything (request() then forgets it; pointer moves call it often). */
  private anyStuck = false
  private meshCount = -1
  /** cameraKey after the last draw (NaN before the first, so it differs), and this frame's. */
  private drawnCamera = new Float64Array(CAMERA_KEY_LENGTH).fill(NaN)
  private readonly frameCamera = new Float64Array(CAMERA_KEY_LENGTH)
  private readonly restore: (() => void)[] = []
  /** Starts and stops the animation-frame loop that calls tick (null: never put to sleep). */
  private loop: { start: () => void; stop: () => void } | null = null
  private asleep = false
  private pollTimer: ReturnType<typeof setTimeout> | null = null

  constructor(
    engine: Engine,
    private readonly scene: Scene,
    private readonly camera: ArcRotateCamera,
    /** The canvas (pointer and wheel input) and where key presses arrive (the window). */
    inputTarget: EventTarget,
    keyTarget: EventTarget,
    /** Sources that need a draw every frame while they run (the live flow). */
    private readonly continuous: () => boolean,
  ) {
    const watched = engine as unknown as Record<string, unknown>
    for (const name of UPLOADS) {
      const original = watched[name]
      if (typeof original !== 'function') continue
      const self = this
      watched[name] = function (this: unknown, ...args: unknown[]) {
        if (!self.drawing) self.request()
        return (original as (...a: unknown[]) => unknown).apply(this, args)
      }
      this.restore.push(() => delete watched[name])
    }
    const request = () => this.request()
    const observables = [
      scene.onNewMeshAddedObservable,
      scene.onMeshRemovedObservable,
      scene.onNewMaterialAddedObservable,
      scene.onMaterialRemovedObservable,
      scene.onNewTextureAddedObservable,
      scene.onTextureRemovedObservable,
    ] as unknown as Observable<unknown>[]
    for (const o of observables) {
      const observer = o.add(request)
      this.restore.push(() => o.remove(observer))
    }
    for (const type of ['pointerdown', 'pointermove', 'pointerup', 'wheel']) {
      inputTarget.addEventListener(type, request, { passive: true })
      this.restore.push(() => inputTarget.removeEventListener(type, request))
    }
    for (const type of ['keydown', 'keyup']) {
      keyTarget.addEventListener(type, request)
      this.restore.push(() => keyTarget.removeEventListener(type, request))
    }
  }

  /**
   * Lets the scheduler stop the animation-frame loop that calls tick() while nothing is due,
   * and start it again when something is (see the file comment). start() must tolerate being
   * called while the loop runs (Babylon's runRenderLoop does).
   */
  attachLoop(start: () => void, stop: () => void): void {
    this.loop = { start, stop }
  }

  /** Whether the loop is asleep (diagnostics and tests). */
  get sleeping(): boolean {
    return this.asleep
  }

  /** Something on screen may have changed: draw at the display's rate for a while. */
  request(): void {
    this.wake()
    const now = performance.now()
    this.hotUntil = Math.max(this.hotUntil, now + HOT_MS)
    this.readyWaitUntil = now + READY_WAIT_MS
    // A mesh that was not drawn (its shader still compiling) may be now.
    if (this.anyStuck) {
      this.stuck = new WeakSet()
      this.anyStuck = false
    }
  }

  /**
   * Called every animation frame: draws with `draw` when a draw is due (see the file comment).
   * Returns whether it drew.
   */
  tick(draw: () => void): boolean {
    const now = performance.now()
    if (!this.due(now)) {
      // Nothing to draw and not hot (HOT_MS after the last sign of change): the loop sleeps.
      this.sleep()
      return false
    }
    this.drawing = true
    try {
      draw()
    } finally {
      this.drawing = false
    }
    this.lastDraw = now
    this.recordMeshes()
    // Orbit inertia, framing glides and view snaps move the camera inside draws; shaders
    // compile over several. Either way the next frame is due too.
    cameraKey(this.camera, this.drawnCamera)
    if (!sameCamera(this.drawnCamera, this.frameCamera)) this.request()
    else if (now < this.readyWaitUntil && !this.scene.isReady(false)) this.hotUntil = Math.max(this.hotUntil, now + HOT_MS)
    return true
  }

  /** Whether a draw is due now (see the file comment); leaves the camera's state in frameCamera. */
  private due(now: number): boolean {
    cameraKey(this.camera, this.frameCamera)
    const cameraMoved = !sameCamera(this.frameCamera, this.drawnCamera)
    return now < this.hotUntil || this.continuous() || cameraMoved || this.meshesChanged() || now - this.lastDraw >= IDLE_MS
  }

  private sleep(): void {
    if (!this.loop || this.asleep) return
    this.asleep = true
    this.loop.stop()
    this.schedulePoll()
  }

  private wake(): void {
    if (!this.asleep) return
    this.asleep = false
    if (this.pollTimer !== null) clearTimeout(this.pollTimer)
    this.pollTimer = null
    this.loop?.start()
  }

  /** While asleep: the tick's checks every ASLEEP_POLL_MS; the loop wakes when a draw is due. */
  private schedulePoll(): void {
    this.pollTimer = setTimeout(() => {
      this.pollTimer = null
      if (!this.asleep) return
      if (this.due(performance.now())) this.wake()
      else this.schedulePoll()
    }, ASLEEP_POLL_MS)
  }

  /** Whether a mesh was added, removed, moved, shown, hidden or re-materialled since the last draw. */
  private meshesChanged(): boolean {
    const meshes = this.scene.meshes
    if (meshes.length !== this.meshCount) return true
    for (const m of meshes) {
      if (this.shown.get(m) !== shownKey(m)) return true
      if (m.isEnabled() && !this.stuck.has(m) && moved(m)) return true
    }
    return false
  }

  private recordMeshes(): void {
    const meshes = this.scene.meshes
    this.meshCount = meshes.length
    for (const m of meshes) {
      this.shown.set(m, shownKey(m))
      if (m.isEnabled() && moved(m)) {
        this.stuck.add(m)
        this.anyStuck = true
      }
    }
  }

  dispose(): void {
    if (this.pollTimer !== null) clearTimeout(this.pollTimer)
    this.pollTimer = null
    this.loop = null
    for (const r of this.restore.splice(0)) r()
  }
}
