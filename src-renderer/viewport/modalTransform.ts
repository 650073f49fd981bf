// Blender's modal G / R / S: the selected object follows the mouse at once (no gizmo to grab);
// X / Y / Z constrain to a world axis (again: free), digits type an exact value, Ctrl snaps,
// Enter or a left click confirms, Escape or a right click cancels. While it runs it owns the
// keyboard and the mouse buttons, so X does not delete and the click does not select. The
// object's node moves as a gizmo drag moves it; confirming commits the same one undo step.
import { Quaternion, Vector3 } from '@babylonjs/core/Maths/math.vector'
import type { ArcRotateCamera } from '@babylonjs/core/Cameras/arcRotateCamera'
import type { Vec3 } from '../../src-shared/scene/types'
import type { GizmoMode, ObjectVisual } from './objectVisuals'
import { angleStep, moveDelta, scaled, scaleFactor, turnDegrees, typedNumber, type Axis } from './modalMath'

export interface ModalHooks {
  /** World ray under canvas CSS pixel (x, y). */
  ray(x: number, y: number): { origin: Vector3; direction: Vector3 }
  /** Canvas CSS pixel of a world point, or null behind the camera. */
  project(p: Vector3): { x: number; y: number } | null
  camera: ArcRotateCamera
  begin(visual: ObjectVisual, mode: GizmoMode): void
  commit(visual: ObjectVisual, mode: GizmoMode): void
  cancel(visual: ObjectVisual): void
  /** The header line ("Move X 0.25 m"), null when no modal runs. */
  onHeader(text: string | null): void
  /** G, R or S pressed during a run switched it to another mode. */
  onMode(mode: GizmoMode): void
}

interface Run {
  visual: ObjectVisual
  mode: GizmoMode
  axis: Axis | null
  typed: string
  snap: boolean
  mouse: { x: number; y: number }
  startMouse: { x: number; y: number }
  startPosition: Vector3
  startRotation: Quaternion
  startScaling: Vec3
  /** Screen angle of the mouse around the centre at the last event, and the sweep so far. */
  lastAngle: number
  swept: number
}

const AXIS_KEYS: Record<string, Axis> = { x: 0, y: 1, z: 2 }
const MODE_KEYS: Record<string, GizmoMode> = { g: 'translate', r: 'rotate', s: 'scale' }
const AXIS_NAMES = ['X', 'Y', 'Z']
const WORLD_AXES = [new Vector3(1, 0, 0), new Vector3(0, 1, 0), new Vector3(0, 0, 1)]

export class ModalTransform {
  private run: Run | null = null
  private readonly onKey = (e: KeyboardEvent) => this.key(e)
  private readonly onMove = (e: PointerEvent) => this.move(e)
  private readonly onButton = (e: PointerEvent) => this.button(e)
  private readonly swallow = (e: Event) => {
    e.stopPropagation()
    e.preventDefault()
  }

  constructor(
    private readonly canvas: HTMLCanvasElement,
    private readonly hooks: ModalHooks,
  ) {}

  get active(): boolean {
    return this.run !== null
  }

  /** Starts a modal transform of `visual` with the mouse at canvas CSS pixel `mouse`. */
  start(visual: ObjectVisual, mode: GizmoMode, mouse: { x: number; y: number }): void {
    if (this.run) this.finish(false)
    const root = visual.root
    this.run = {
      visual,
      mode,
      axis: null,
      typed: '',
      snap: false,
      mouse: { ...mouse },
      startMouse: { ...mouse },
      startPosition: root.position.clone(),
      startRotation: (root.rotationQuaternion ?? Quaternion.Identity()).clone(),
      startScaling: [root.scaling.x, root.scaling.y, root.scaling.z],
      lastAngle: 0,
      swept: 0,
    }
    this.run.lastAngle = this.screenAngle(this.run, mouse)
    this.hooks.begin(visual, mode)
    // Capture phase on the window: ahead of the shortcuts and of Babylon's canvas listeners.
    window.addEventListener('keydown', this.onKey, true)
    window.addEventListener('pointermove', this.onMove, true)
    window.addEventListener('pointerdown', this.onButton, true)
    window.addEventListener('pointerup', this.swallow, true)
    window.addEventListener('contextmenu', this.swallow, true)
    this.apply()
  }

  private key(e: KeyboardEvent): void {
    const run = this.run
    if (!run) return
    e.stopPropagation()
    e.preventDefault()
    const k = e.key.length === 1 ? e.key.toLowerCase() : e.key
    if (k === 'Escape') return this.finish(false)
    if (k === 'Enter') return this.finish(true)
    if (k in MODE_KEYS && MODE_KEYS[k] !== run.mode && run.visual.gizmoModes.includes(MODE_KEYS[k])) {
      // Blender: R during a move turns it into a rotation, from where things started.
      this.restore(run)
      run.mode = MODE_KEYS[k]
      run.axis = null
      run.typed = ''
      this.hooks.onMode(run.mode)
    } else if (k in AXIS_KEYS) run.axis = run.axis === AXIS_KEYS[k] ? null : AXIS_KEYS[k]
    else if (/^[0-9.]$/.test(k)) run.typed += k
    else if (k === '-') run.typed = run.typed.startsWith('-') ? run.typed.slice(1) : '-' + run.typed
    else if (k === 'Backspace') run.typed = run.typed.slice(0, -1)
    else if (k === 'Control') run.snap = true
    this.apply()
  }

  private move(e: PointerEvent): void {
    const run = this.run
    if (!run) return
    const rect = this.canvas.getBoundingClientRect()
    run.mouse = { x: e.clientX - rect.left, y: e.clientY - rect.top }
    run.snap = e.ctrlKey
    const a = this.screenAngle(run, run.mouse)
    run.swept += angleStep(run.lastAngle, a)
    run.lastAngle = a
    this.apply()
  }

  private button(e: PointerEvent): void {
    if (!this.run) return
    this.swallow(e)
    if (e.button === 0) this.finish(true)
    else if (e.button === 2) this.finish(false)
  }

  /** The object's centre on screen (its start position: it stays put for R and S). */
  private centre(run: Run): { x: number; y: number } {
    return this.hooks.project(run.startPosition) ?? { x: this.canvas.clientWidth / 2, y: this.canvas.clientHeight / 2 }
  }

  private screenAngle(run: Run, m: { x: number; y: number }): number {
    const c = this.centre(run)
    return Math.atan2(m.y - c.y, m.x - c.x)
  }

  /** Where the mouse's ray meets the plane through the object's start position facing the camera. */
  private onPlane(run: Run, m: { x: number; y: number }): Vector3 | null {
    const n = this.hooks.camera.getForwardRay().direction
    const ray = this.hooks.ray(m.x, m.y)
    const denom = Vector3.Dot(ray.direction, n)
    if (Math.abs(denom) < 1e-9) return null
    const t = Vector3.Dot(run.startPosition.subtract(ray.origin), n) / denom
    return ray.origin.add(ray.direction.scale(t))
  }

  private apply(): void {
    const run = this.run
    if (!run) return
    const root = run.visual.root
    const typed = typedNumber(run.typed)
    const axisText = run.axis === null ? '' : ` along ${AXIS_NAMES[run.axis]}`
    const typedText = run.typed ? ` [${run.typed}]` : ''
    const snapText = run.snap ? ' (snapping)' : ''
    switch (run.mode) {
      case 'translate': {
        const a = this.onPlane(run, run.startMouse)
        const b = this.onPlane(run, run.mouse)
        const drag: Vec3 = a && b ? [b.x - a.x, b.y - a.y, b.z - a.z] : [0, 0, 0]
        const d = moveDelta(drag, run.axis, run.snap, typed)
        root.position.set(run.startPosition.x + d[0], run.startPosition.y + d[1], run.startPosition.z + d[2])
        this.hooks.onHeader(`Move${axisText}: ${d.map((v) => v.toFixed(3)).join(', ')} m${typedText}${snapText}`)
        return
      }
      case 'rotate': {
        const deg = turnDegrees(run.swept, run.snap, typed)
        const axis = run.axis === null ? this.hooks.camera.getForwardRay().direction.clone() : WORLD_AXES[run.axis]
        // A clockwise sweep on screen turns the object clockwise as the viewer sees it: about the
        // view direction (into the screen) by a positive angle; about a world axis likewise.
        const q = Quaternion.RotationAxis(axis, (deg * Math.PI) / 180)
        root.rotationQuaternion = q.multiply(run.startRotation)
        this.hooks.onHeader(`Rotate${axisText || ' about the view'}: ${deg.toFixed(1)}°${typedText}${snapText}`)
        return
      }
      case 'scale': {
        const c = this.centre(run)
        const r0 = Math.hypot(run.startMouse.x - c.x, run.startMouse.y - c.y)
        const r = Math.hypot(run.mouse.x - c.x, run.mouse.y - c.y)
        const f = scaleFactor(r0, r, run.snap, typed)
        const s = scaled(run.startScaling, f, run.axis)
        root.scaling.set(s[0], s[1], s[2])
        this.hooks.onHeader(`Scale${axisText}: ${f.toFixed(3)}${typedText}${snapText}`)
        return
      }
    }
  }

  private finish(confirm: boolean): void {
    const run = this.run
    if (!run) return
    this.run = null
    window.removeEventListener('keydown', this.onKey, true)
    window.removeEventListener('pointermove', this.onMove, true)
    window.removeEventListener('pointerdown', this.onButton, true)
    // The button's release still comes: swallow it once more, then stop.
    setTimeout(() => {
      window.removeEventListener('pointerup', this.swallow, true)
      window.removeEventListener('contextmenu', this.swallow, true)
    }, 0)
    this.hooks.onHeader(null)
    if (!confirm) {
      this.restore(run)
      this.hooks.cancel(run.visual)
    } else this.hooks.commit(run.visual, run.mode)
  }

  private restore(run: Run): void {
    const root = run.visual.root
    root.position.copyFrom(run.startPosition)
    root.rotationQuaternion = run.startRotation.clone()
    root.scaling.set(run.startScaling[0], run.startScaling[1], run.startScaling[2])
  }

  dispose(): void {
    this.finish(false)
  }
}
