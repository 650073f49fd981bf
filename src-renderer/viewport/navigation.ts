// Blender's viewport navigation on Babylon's orbit camera: which mouse buttons orbit and pan,
// the numpad's axis views (1/3/7 front/right/top, Ctrl for the opposite side, 9 the far side,
// 2/4/6/8 orbit steps), numpad 5's perspective/orthographic switch, and the label Blender
// shows in the view's corner ("Front Orthographic", "User Perspective").
//
// Eddy is Y up and Blender Z up; a Blender file converts as glTF does (x, y, z) -> (x, z, -y),
// so Blender's front view (looking along +Y_b from -Y_b) looks along -Z from +Z here.
import type { ArcRotateCamera } from '@babylonjs/core/Cameras/arcRotateCamera'
import type { InputMapEntry } from '@babylonjs/core/Cameras/inputMapper'
import type { ArcRotateInteraction } from '@babylonjs/core/Cameras/arcRotateCameraMovement'
import { Camera } from '@babylonjs/core/Cameras/camera'
import type { Observer } from '@babylonjs/core/Misc/observable'
import type { Scene } from '@babylonjs/core/scene'

/**
 * 'blender': middle-drag orbits, Shift+middle pans, the left button only selects (Alt+left
 * orbits and Alt+Shift+left pans, Blender's "emulate 3 button mouse"); 'leftOrbit': left-drag
 * orbits and the middle button pans, as Eddy did before.
 */
export type NavigationStyle = 'blender' | 'leftOrbit'

/** Right-drag pans in both: Blender's right button opens a context menu Eddy does not have. */
export function navigationInputMap(style: NavigationStyle): InputMapEntry<ArcRotateInteraction>[] {
  const common: InputMapEntry<ArcRotateInteraction>[] = [
    { source: 'pointer', button: 2, interaction: 'pan' },
    { source: 'wheel', interaction: 'zoom' },
  ]
  if (style === 'leftOrbit')
    return [
      { source: 'pointer', button: 0, modifiers: { ctrl: true }, interaction: 'pan' },
      { source: 'pointer', button: 0, interaction: 'rotate' },
      { source: 'pointer', button: 1, interaction: 'pan' },
      ...common,
    ]
  return [
    { source: 'pointer', button: 1, modifiers: { shift: true }, interaction: 'pan' },
    { source: 'pointer', button: 1, interaction: 'rotate' },
    { source: 'pointer', button: 0, modifiers: { alt: true, shift: true }, interaction: 'pan' },
    { source: 'pointer', button: 0, modifiers: { alt: true }, interaction: 'rotate' },
    ...common,
  ]
}

const stylesInUse = new WeakMap<ArcRotateCamera, NavigationStyle>()

export function applyNavigationStyle(camera: ArcRotateCamera, style: NavigationStyle): void {
  stylesInUse.set(camera, style)
  // Most specific entries first: resolveInteraction takes the first match.
  camera.movement.input.inputMap = navigationInputMap(style)
}

/**
 * Gives the camera the mouse again (after a paint stroke let go of it). Babylon's attachControl
 * puts its own Ctrl+left pan and panning button back into the map, so the style is applied after.
 */
export function attachCameraControl(camera: ArcRotateCamera): void {
  camera.attachControl(true)
  applyNavigationStyle(camera, stylesInUse.get(camera) ?? 'blender')
}

/** Lets the camera reach the top and bottom views (Babylon stops 0.01 rad short of the poles). */
export function allowPoleViews(camera: ArcRotateCamera): void {
  camera.lowerBetaLimit = POLE
  camera.upperBetaLimit = Math.PI - POLE
}

export type AxisView = 'front' | 'back' | 'right' | 'left' | 'top' | 'bottom'

// An exactly vertical view is a pole of the orbit camera's spherical coordinates: stop just
// short of it (a thousandth of a degree) so the camera's up vector stays defined.
const POLE = 1e-5
const HALF_PI = Math.PI / 2

/** Orbit angles of each axis view; alpha = pi/2 keeps +X to the right in front, top and bottom. */
export const AXIS_VIEWS: Record<AxisView, { alpha: number; beta: number; label: string; opposite: AxisView }> = {
  front: { alpha: HALF_PI, beta: HALF_PI, label: 'Front', opposite: 'back' },
  back: { alpha: -HALF_PI, beta: HALF_PI, label: 'Back', opposite: 'front' },
  right: { alpha: 0, beta: HALF_PI, label: 'Right', opposite: 'left' },
  left: { alpha: Math.PI, beta: HALF_PI, label: 'Left', opposite: 'right' },
  top: { alpha: HALF_PI, beta: POLE, label: 'Top', opposite: 'bottom' },
  bottom: { alpha: HALF_PI, beta: Math.PI - POLE, label: 'Bottom', opposite: 'top' },
}

/** Blender's numpad orbit step (Preferences > Navigation > Orbit: 15 degrees). */
export const ORBIT_STEP = Math.PI / 12

export type ViewCommand =
  | { type: 'axis'; view: AxisView }
  | { type: 'opposite' }
  | { type: 'orbit'; yaw: number; pitch: number }
  | { type: 'toggleOrtho' }
  | { type: 'frameAll' }

export interface ViewLabelState {
  /** "Front Orthographic", "User Perspective", ... */
  label: string
  ortho: boolean
}

/**
 * Owns the camera's projection and the corner label. An axis view switches to orthographic
 * as Blender's "Auto Perspective" does, and orbiting away from it switches back; numpad 5
 * toggles on purpose, and that choice sticks until toggled again.
 */
export class ViewOrientation {
  private axis: AxisView | null = null
  private autoOrtho = false
  private ortho = false
  private readonly observer: Observer<Scene>
  onChange: ((s: ViewLabelState) => void) | null = null
  private last = ''

  constructor(
    private readonly scene: Scene,
    private readonly camera: ArcRotateCamera,
  ) {
    this.observer = scene.onBeforeRenderObservable.add(() => this.beforeRender())
  }

  get state(): ViewLabelState {
    const name = this.axis ? AXIS_VIEWS[this.axis].label : 'User'
    return { label: `${name} ${this.ortho ? 'Orthographic' : 'Perspective'}`, ortho: this.ortho }
  }

  run(cmd: Exclude<ViewCommand, { type: 'frameAll' }>): void {
    const cam = this.camera
    switch (cmd.type) {
      case 'axis':
        return this.toAxis(cmd.view)
      case 'opposite':
        if (this.axis) return this.toAxis(AXIS_VIEWS[this.axis].opposite)
        cam.alpha += Math.PI
        cam.beta = Math.PI - cam.beta
        return
      case 'orbit':
        this.leaveAxis()
        cam.alpha += cmd.yaw
        cam.beta = Math.min(Math.PI - POLE, Math.max(POLE, cam.beta + cmd.pitch))
        return this.publish()
      case 'toggleOrtho':
        this.autoOrtho = false
        this.setOrtho(!this.ortho)
        return this.publish()
    }
  }

  /** A project opened: the default perspective view. */
  reset(): void {
    this.axis = null
    this.autoOrtho = false
    this.setOrtho(false)
    this.publish()
  }

  private toAxis(view: AxisView): void {
    const v = AXIS_VIEWS[view]
    const cam = this.camera
    cam.inertialAlphaOffset = 0
    cam.inertialBetaOffset = 0
    cam.alpha = v.alpha
    cam.beta = v.beta
    this.axis = view
    if (!this.ortho) {
      this.autoOrtho = true
      this.setOrtho(true)
    }
    this.publish()
  }

  private leaveAxis(): void {
    if (!this.axis) return
    this.axis = null
    if (this.autoOrtho) {
      this.autoOrtho = false
      this.setOrtho(false)
    }
  }

  private setOrtho(on: boolean): void {
    this.ortho = on
    this.camera.mode = on ? Camera.ORTHOGRAPHIC_CAMERA : Camera.PERSPECTIVE_CAMERA
    this.fitOrtho()
  }

  /** The orthographic frustum shows what the perspective one shows at the orbit centre, so wheel zoom still zooms. */
  private fitOrtho(): void {
    if (!this.ortho) return
    const cam = this.camera
    const engine = this.scene.getEngine()
    const aspect = engine.getRenderWidth() / Math.max(1, engine.getRenderHeight())
    const half = Math.max(cam.radius, 1e-3) * Math.tan(cam.fov / 2)
    cam.orthoTop = half
    cam.orthoBottom = -half
    cam.orthoLeft = -half * aspect
    cam.orthoRight = half * aspect
  }

  private beforeRender(): void {
    // The mouse orbited away from the axis view: it is a user view again.
    if (this.axis) {
      const v = AXIS_VIEWS[this.axis]
      const cam = this.camera
      if (Math.abs(angleBetween(cam.alpha, v.alpha)) > 1e-6 || Math.abs(cam.beta - v.beta) > 1e-6) this.leaveAxis()
    }
    this.fitOrtho()
    this.publish()
  }

  private publish(): void {
    const s = this.state
    const key = s.label
    if (key === this.last) return
    this.last = key
    this.onChange?.(s)
  }

  dispose(): void {
    this.scene.onBeforeRenderObservable.remove(this.observer)
  }
}

/** Signed difference of two angles, in (-pi, pi]. */
function angleBetween(a: number, b: number): number {
  const d = (a - b) % (2 * Math.PI)
  return d > Math.PI ? d - 2 * Math.PI : d <= -Math.PI ? d + 2 * Math.PI : d
}
