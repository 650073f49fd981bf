// Translate / rotate / scale gizmos on the selected object (or on a cage vertex handle in
// cage edit mode). While dragging, only the Babylon node moves; the document is edited
// once, on drag end, by the callbacks (one 'object.update' = one undo step).
import { GizmoManager } from '@babylonjs/core/Gizmos/gizmoManager'
import type { Node } from '@babylonjs/core/node'
import type { Scene } from '@babylonjs/core/scene'
import type { Observer } from '@babylonjs/core/Misc/observable'
import type { PointerInfoPre } from '@babylonjs/core/Events/pointerEvents'
import type { ParamValue, Vec3 } from '../../src-shared/scene/types'
import type { GizmoMode, ObjectVisual } from './objectVisuals'
import { quaternionToEulerXYZDeg, tidy, tidyVec } from './transformMath'
import { vec3Of } from './values'

export type GizmoTarget =
  | { type: 'object'; visual: ObjectVisual; mode: GizmoMode }
  | { type: 'vertex'; objectId: string; vertex: number; node: Node }

export interface GizmoCallbacks {
  onDragStart(target: GizmoTarget): void
  onDrag(target: GizmoTarget): void
  onDragEnd(target: GizmoTarget): void
}

function sameTarget(a: GizmoTarget | null, b: GizmoTarget | null): boolean {
  if (!a || !b) return a === b
  if (a.type === 'object' && b.type === 'object') return a.visual === b.visual && a.mode === b.mode
  if (a.type === 'vertex' && b.type === 'vertex') return a.node === b.node
  return false
}

export class Gizmos {
  private readonly manager: GizmoManager
  private target: GizmoTarget | null = null
  /** The target of the drag in progress (it may no longer be `target` if state moved on). */
  private dragTarget: GizmoTarget | null = null
  private readonly leftButtonOnly: Observer<PointerInfoPre>

  constructor(
    private readonly scene: Scene,
    cb: GizmoCallbacks,
  ) {
    this.manager = new GizmoManager(scene, 1.2)
    // The gizmos answer the left button only: a middle or right press over a gizmo belongs to
    // the camera (Blender orbits and pans wherever the cursor is). The gizmo layer takes every
    // pointer event that hits it away from the scene, so its picking is off while another
    // button is involved; this observer runs before the layer's.
    const layer = this.manager.utilityLayer
    this.leftButtonOnly = scene.onPrePointerObservable.add(
      (info) => {
        const e = info.event as PointerEvent
        layer.pickingEnabled = e.button <= 0 && (e.buttons & ~1) === 0
      },
      undefined,
      true,
    )
    // Selection is ours (selection.ts): the manager must not attach on its own clicks.
    this.manager.usePointerToAttachGizmos = false
    this.manager.clearGizmoOnEmptyPointerEvent = false
    // Create all three once so their observables can be wired up here.
    this.manager.positionGizmoEnabled = true
    this.manager.rotationGizmoEnabled = true
    this.manager.scaleGizmoEnabled = true
    const { positionGizmo, rotationGizmo, scaleGizmo } = this.manager.gizmos
    // Blender's default orientation is global for move/rotate; scaling is along local axes.
    if (positionGizmo) positionGizmo.updateGizmoRotationToMatchAttachedMesh = false
    if (rotationGizmo) rotationGizmo.updateGizmoRotationToMatchAttachedMesh = false
    for (const g of [positionGizmo, rotationGizmo, scaleGizmo]) {
      if (!g) continue
      g.onDragStartObservable.add(() => {
        this.dragTarget = this.target
        if (this.dragTarget) cb.onDragStart(this.dragTarget)
      })
      g.onDragObservable.add(() => {
        if (this.dragTarget) cb.onDrag(this.dragTarget)
      })
      g.onDragEndObservable.add(() => {
        const t = this.dragTarget
        this.dragTarget = null
        if (t) cb.onDragEnd(t)
      })
    }
    this.apply(null)
  }

  get isDragging(): boolean {
    return this.dragTarget !== null
  }

  /** Shows the gizmo for `target` (null hides it); no-op when nothing changed. */
  setTarget(target: GizmoTarget | null): void {
    if (sameTarget(target, this.target)) return
    this.target = target
    // Never yank the gizmo from under an active drag; the next call after it ends applies.
    if (!this.isDragging) this.apply(target)
  }

  private apply(target: GizmoTarget | null): void {
    const mode = !target ? null : target.type === 'vertex' ? 'translate' : target.mode
    this.manager.positionGizmoEnabled = mode === 'translate'
    this.manager.rotationGizmoEnabled = mode === 'rotate'
    this.manager.scaleGizmoEnabled = mode === 'scale'
    this.manager.attachToNode(!target ? null : target.type === 'object' ? target.visual.root : target.node)
  }

  /** Re-applies the current target after a drag (setTarget calls during it were deferred). */
  refresh(): void {
    if (!this.isDragging) this.apply(this.target)
  }

  dispose(): void {
    this.scene.onPrePointerObservable.remove(this.leftButtonOnly)
    this.manager.dispose()
  }
}

const MIN_SCALE = 0.001
const MIN_SIZE = 0.01

/** The parameter patch for what a gizmo did to an object's root node. */
export function paramsFromGizmo(visual: ObjectVisual, mode: GizmoMode): Record<string, ParamValue> {
  const root = visual.root
  switch (mode) {
    case 'translate':
      return { position: tidyVec(root.position) }
    case 'rotate': {
      const previous = vec3Of(visual.kind, visual.lastValues, 'rotation')
      const q = root.rotationQuaternion
      return { rotation: q ? tidyVec(quaternionToEulerXYZDeg(q, previous), 4) : previous }
    }
    case 'scale': {
      const min = visual.kind === 'domain' ? MIN_SIZE : MIN_SCALE
      const s: Vec3 = [root.scaling.x, root.scaling.y, root.scaling.z].map((v) => tidy(Math.max(min, Math.abs(v)))) as Vec3
      // A domain's root is scaled by its size (visuals/domain.ts): scaling there is `size`.
      return visual.kind === 'domain' ? { size: s } : { scale: s }
    }
  }
}
