// Blender's 3D cursor: a red and white ring with a cross, where new objects are added.
// Shift+right-click puts it on the surface under the mouse (objects, not a domain's see-through
// box), else on the ground plane, else at the orbit centre's depth along the ray.
import { Camera } from '@babylonjs/core/Cameras/camera'
import { CreateLineSystem } from '@babylonjs/core/Meshes/Builders/linesBuilder'
import { Color4 } from '@babylonjs/core/Maths/math.color'
import { Matrix, Vector3 } from '@babylonjs/core/Maths/math.vector'
import { Mesh } from '@babylonjs/core/Meshes/mesh'
import type { ArcRotateCamera } from '@babylonjs/core/Cameras/arcRotateCamera'
import type { LinesMesh } from '@babylonjs/core/Meshes/linesMesh'
import type { Observer } from '@babylonjs/core/Misc/observable'
import type { Scene } from '@babylonjs/core/scene'
import type { Vec3 } from '../../src-shared/scene/types'
import { PICK_PRIORITY, pickMetadata } from './objectVisuals'
import { cssToRender } from './selection'

const SEGMENTS = 24
/** Ring radius in CSS pixels, whatever the zoom (Blender's cursor keeps its screen size). */
const RADIUS_PX = 12
/** A press and release closer than this is a click, not a drag (CSS pixels). */
const CLICK_SLOP_PX = 4

export class Cursor3D {
  private readonly ring: LinesMesh
  private readonly canvas: HTMLCanvasElement | null
  private readonly onDown: (ev: PointerEvent) => void
  private readonly onUp: (ev: PointerEvent) => void
  private down: { x: number; y: number } | null = null
  private readonly sizer: Observer<Scene>

  constructor(
    private readonly scene: Scene,
    private readonly camera: ArcRotateCamera,
    /** A Shift+right-click chose a new place (world metres). */
    onPlace: (p: Vec3) => void,
  ) {
    // A unit ring of alternating red and white dashes, and a cross through it.
    const lines: Vector3[][] = []
    const colors: Color4[][] = []
    const red = new Color4(0.9, 0.15, 0.15, 1)
    const white = new Color4(0.95, 0.95, 0.95, 1)
    for (let i = 0; i < SEGMENTS; i++) {
      const a = (i / SEGMENTS) * 2 * Math.PI
      const b = ((i + 1) / SEGMENTS) * 2 * Math.PI
      lines.push([new Vector3(Math.cos(a), Math.sin(a), 0), new Vector3(Math.cos(b), Math.sin(b), 0)])
      const c = Math.floor(i / 2) % 2 === 0 ? red : white
      colors.push([c, c])
    }
    const cross = new Color4(0.1, 0.1, 0.1, 1)
    for (const [x, y] of [
      [1, 0],
      [0, 1],
    ]) {
      lines.push([new Vector3(0.5 * x, 0.5 * y, 0), new Vector3(1.6 * x, 1.6 * y, 0)])
      lines.push([new Vector3(-0.5 * x, -0.5 * y, 0), new Vector3(-1.6 * x, -1.6 * y, 0)])
      colors.push([cross, cross], [cross, cross])
    }
    this.ring = CreateLineSystem('viewport:cursor3d', { lines, colors }, scene)
    this.ring.isPickable = false
    this.ring.billboardMode = Mesh.BILLBOARDMODE_ALL
    // Drawn over the scene, as Blender draws it (group 1 starts with a cleared depth buffer).
    this.ring.renderingGroupId = 1

    this.sizer = scene.onBeforeRenderObservable.add(() => this.keepScreenSize())
    // A right click, not a right drag (which pans): the DOM's own events, since Babylon's tap
    // detection is for the left button.
    this.canvas = scene.getEngine().getRenderingCanvas()
    this.onDown = (ev: PointerEvent) => {
      this.down = ev.button === 2 && ev.shiftKey ? { x: ev.clientX, y: ev.clientY } : null
    }
    this.onUp = (ev: PointerEvent) => {
      const d = this.down
      this.down = null
      if (!d || ev.button !== 2 || Math.hypot(ev.clientX - d.x, ev.clientY - d.y) > CLICK_SLOP_PX) return
      const rect = this.canvas?.getBoundingClientRect()
      const p = this.pointUnder(ev.clientX - (rect?.left ?? 0), ev.clientY - (rect?.top ?? 0))
      if (p) onPlace([p.x, p.y, p.z])
    }
    this.canvas?.addEventListener('pointerdown', this.onDown)
    this.canvas?.addEventListener('pointerup', this.onUp)
  }

  setVisible(on: boolean): void {
    if (this.ring.isEnabled(false) !== on) this.ring.setEnabled(on)
  }

  setPosition(p: Vec3): void {
    this.ring.position.set(p[0], p[1], p[2])
  }

  /** The surface point, ground point or orbit-depth point under canvas CSS pixel (x, y). */
  pointUnder(x: number, y: number): Vector3 | null {
    const scale = cssToRender(this.scene)
    const ray = this.scene.createPickingRay(x * scale.x, y * scale.y, Matrix.Identity(), this.camera)
    const hits = this.scene.multiPickWithRay(ray, (m) => {
      const meta = pickMetadata(m)
      return !!meta && m.isEnabled() && m.isVisible && meta.cageVertex === undefined && meta.pickPriority !== PICK_PRIORITY.domain
    })
    let best: Vector3 | null = null
    let bestDistance = Infinity
    for (const h of hits ?? [])
      if (h.hit && h.pickedPoint && h.distance < bestDistance) {
        best = h.pickedPoint
        bestDistance = h.distance
      }
    if (best) return best
    if (ray.direction.y < -1e-6 && ray.origin.y > 0) {
      const t = -ray.origin.y / ray.direction.y
      return ray.origin.add(ray.direction.scale(t))
    }
    // Looking up or along the ground: as deep as the orbit centre.
    const forward = this.camera.getForwardRay().direction
    const depth = Vector3.Dot(this.camera.target.subtract(ray.origin), forward) / Math.max(1e-6, Vector3.Dot(ray.direction, forward))
    return Number.isFinite(depth) && depth > 0 ? ray.origin.add(ray.direction.scale(depth)) : null
  }

  private keepScreenSize(): void {
    const engine = this.scene.getEngine()
    const h = engine.getRenderHeight() / cssToRender(this.scene).y || 1
    const cam = this.camera
    // World metres per CSS pixel at the cursor's depth (or across the orthographic frustum).
    const perPixel =
      cam.mode === Camera.ORTHOGRAPHIC_CAMERA
        ? ((cam.orthoTop ?? 1) - (cam.orthoBottom ?? -1)) / h
        : (2 * Math.max(1e-3, Vector3.Distance(cam.globalPosition, this.ring.position)) * Math.tan(cam.fov / 2)) / h
    this.ring.scaling.setAll(RADIUS_PX * perPixel)
  }

  dispose(): void {
    this.canvas?.removeEventListener('pointerdown', this.onDown)
    this.canvas?.removeEventListener('pointerup', this.onUp)
    this.scene.onBeforeRenderObservable.remove(this.sizer)
    this.ring.dispose()
  }
}
