// "Frame selected" (F): glide the orbit camera so the selection's bounding box fills the
// view, keeping the viewing direction; with nothing selected, frame every object.
import { Vector3 } from '@babylonjs/core/Maths/math.vector'
import type { ArcRotateCamera } from '@babylonjs/core/Cameras/arcRotateCamera'
import type { Observer } from '@babylonjs/core/Misc/observable'
import type { Scene } from '@babylonjs/core/scene'
import type { ObjectVisual } from './objectVisuals'

export interface Bounds {
  min: Vector3
  max: Vector3
}

/** World-space box around the visuals' meshes, or null when there is nothing to frame. */
export function worldBounds(visuals: Iterable<ObjectVisual>): Bounds | null {
  const min = new Vector3(Infinity, Infinity, Infinity)
  const max = new Vector3(-Infinity, -Infinity, -Infinity)
  let any = false
  for (const v of visuals) {
    v.root.computeWorldMatrix(true)
    for (const m of v.boundsMeshes()) {
      m.computeWorldMatrix(true)
      const bb = m.getBoundingInfo().boundingBox
      min.minimizeInPlace(bb.minimumWorld)
      max.maximizeInPlace(bb.maximumWorld)
      any = true
    }
    if (v.boundsMeshes().length === 0) {
      // Nothing drawable yet (mesh loading): at least frame its position.
      const p = v.root.getAbsolutePosition()
      min.minimizeInPlace(p)
      max.maximizeInPlace(p)
      any = true
    }
  }
  return any && Number.isFinite(min.x) ? { min, max } : null
}

const DURATION_MS = 220

export class CameraFramer {
  private observer: Observer<Scene> | null = null

  constructor(
    private readonly scene: Scene,
    private readonly camera: ArcRotateCamera,
  ) {}

  /** `minRadius`: never closer than this (opening a project keeps small scenes at the default distance). */
  frame(bounds: Bounds, animate = true, minRadius = 0): void {
    const center = bounds.min.add(bounds.max).scaleInPlace(0.5)
    const sphereRadius = Math.max(0.05, Vector3.Distance(bounds.min, bounds.max) / 2)
    const engine = this.scene.getEngine()
    const aspect = engine.getRenderWidth() / Math.max(1, engine.getRenderHeight())
    // The narrower of the two fields of view decides the distance.
    const halfV = this.camera.fov / 2
    const halfH = Math.atan(Math.tan(halfV) * aspect)
    const radius = Math.max(minRadius, (sphereRadius / Math.sin(Math.min(halfV, halfH))) * 1.05)
    this.glide(center, Math.min(Math.max(radius, this.camera.lowerRadiusLimit ?? 0), this.camera.upperRadiusLimit ?? Infinity), animate)
  }

  private glide(target: Vector3, radius: number, animate: boolean): void {
    this.stop()
    const cam = this.camera
    if (!animate) {
      cam.target.copyFrom(target)
      cam.radius = radius
      return
    }
    const fromT = cam.target.clone()
    const fromR = cam.radius
    const start = performance.now()
    this.observer = this.scene.onBeforeRenderObservable.add(() => {
      const t = Math.min(1, (performance.now() - start) / DURATION_MS)
      const k = t * t * (3 - 2 * t) // smoothstep
      Vector3.LerpToRef(fromT, target, k, cam.target)
      cam.radius = fromR + (radius - fromR) * k
      if (t >= 1) this.stop()
    })
  }

  stop(): void {
    if (this.observer) this.scene.onBeforeRenderObservable.remove(this.observer)
    this.observer = null
  }
}
