// The 3D view's navigation, shared by the keyboard, the View menu and the viewport: the
// navigation style (kept across sessions, as Blender keeps its preferences), the corner label
// ("Front Orthographic"), view commands, and the 3D cursor new objects are added at (world
// origin until Shift+right-click puts it elsewhere; kept for the session, not in the project).
// The viewport attaches its handler on mount.
import type { Vec3 } from '../../src-shared/scene/types'
import type { NavigationStyle, ViewCommand, ViewLabelState } from '../viewport/navigation'
import type { GizmoMode } from '../viewport/objectVisuals'

const STORAGE_KEY = 'eddy.navigation'

export interface ViewHandler {
  run(cmd: ViewCommand): void
  setNavigation(style: NavigationStyle): void
  /** Blender's modal G / R / S on the selection, when the mouse is over the view; false when it cannot start. */
  startModal(mode: GizmoMode): boolean
  /** Moves the playhead to `frame`, waits until the view shows it, and returns the view as PNG bytes. */
  capture(frame: number): Promise<Uint8Array>
}

function storedStyle(): NavigationStyle {
  try {
    return globalThis.localStorage?.getItem(STORAGE_KEY) === 'leftOrbit' ? 'leftOrbit' : 'blender'
  } catch {
    return 'blender' // storage refused (privacy settings): the default, not an error
  }
}

class ViewSession {
  navigation = $state<NavigationStyle>(storedStyle())
  label = $state<ViewLabelState>({ label: 'User Perspective', ortho: false })
  cursor = $state<Vec3>([0, 0, 0])
  /** Off: the helpers (emitters, vortex seeds, heat sources, domain boxes), the grid and the cursor are not drawn. */
  overlays = $state(true)
  /** The running modal transform's line ("Move along X: ..."), null when none runs. */
  modalHeader = $state<string | null>(null)
  private handler: ViewHandler | null = null

  attach(handler: ViewHandler | null): void {
    this.handler = handler
    handler?.setNavigation(this.navigation)
  }

  run(cmd: ViewCommand): void {
    this.handler?.run(cmd)
  }

  capture(frame: number): Promise<Uint8Array> {
    if (!this.handler) return Promise.reject(new Error('The 3D view is not running'))
    return this.handler.capture(frame)
  }

  startModal(mode: GizmoMode): boolean {
    return this.handler?.startModal(mode) ?? false
  }

  setNavigation(style: NavigationStyle): void {
    this.navigation = style
    try {
      globalThis.localStorage?.setItem(STORAGE_KEY, style)
    } catch {
      // Not kept for the next session; this session still uses it.
    }
    this.handler?.setNavigation(style)
  }
}

export const view = new ViewSession()
