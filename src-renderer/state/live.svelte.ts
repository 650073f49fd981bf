// The live surface flow's session (issue 14): which cage runs live, the brush, whether gravity
// follows the view, and the figures the worker reports. The viewport attaches its
// LiveSurfaceView here on mount; the inspector's Live panel starts and stops it. Settings the
// cage holds (cells per patch, gravity, drag, diffusion, vorticity, base colour) are read from
// the cage at the current frame when live starts and whenever they change.
import type { SceneObject, Vec3 } from '../../src-shared/scene/types'
import { IDLE_LIVE, type LiveControls, type LiveState, type LiveSurfaceView } from '../viewport/live/liveSurfaceView'
import { app } from './app.svelte'

class LiveSession {
  state = $state<LiveState>({ ...IDLE_LIVE })
  /** Linear RGB. */
  brushColor = $state<Vec3>([0.9, 0.12, 0.03])
  brushRadius = $state(0.08)
  gravityFromView = $state(false)
  private view: LiveSurfaceView | null = null

  attach(view: LiveSurfaceView | null): void {
    this.view?.stop()
    this.view = view
    if (view) view.onState = (s) => (this.state = s)
    else this.state = { ...IDLE_LIVE }
  }

  get available(): boolean {
    return this.view !== null
  }

  isLive(id: string): boolean {
    return this.state.cageId === id && this.state.error === null
  }

  controls(obj: SceneObject): LiveControls {
    const v = app.valuesAt(obj)
    const vec = (k: string, d: Vec3): Vec3 => (Array.isArray(v[k]) ? (v[k] as Vec3) : d)
    const num = (k: string, d: number): number => (typeof v[k] === 'number' ? (v[k] as number) : d)
    return {
      N: num('cellsPerPatch', 32),
      gravity: vec('surfaceGravity', [0, -9.81, 0]),
      gravityFromView: this.gravityFromView,
      drag: num('surfaceDrag', 0.5),
      colorDiffusion: num('colorDiffusion', 0),
      vorticity: num('surfaceVorticity', 0),
      baseColor: vec('baseColor', [0.18, 0.18, 0.2]),
      brushColor: [...this.brushColor] as Vec3,
      brushRadius: this.brushRadius,
    }
  }

  start(obj: SceneObject): void {
    if (!this.view || !obj.cage) return
    const v = app.valuesAt(obj)
    this.view.start(
      { id: obj.id, geometry: { positions: [...obj.cage.positions], faces: obj.cage.faces.map((f) => [...f]) }, position: v.position as Vec3, rotation: v.rotation as Vec3, scale: v.scale as Vec3 },
      this.controls(obj),
    )
  }

  /** Sends changed brush or cage settings to the running flow. */
  update(obj: SceneObject): void {
    if (this.isLive(obj.id)) this.view?.update(this.controls(obj))
  }

  stop(): void {
    this.view?.stop()
  }
}

export const live = new LiveSession()
