// One Babylon node tree per scene object. Each visual owns a root TransformNode (the node
// gizmos move) and builds its children by kind (visuals/*.ts); `update` is called by
// sceneSync only when the object's evaluated parameters changed.
import { TransformNode } from '@babylonjs/core/Meshes/transformNode'
import { Quaternion } from '@babylonjs/core/Maths/math.vector'
import type { AbstractMesh } from '@babylonjs/core/Meshes/abstractMesh'
import type { Mesh } from '@babylonjs/core/Meshes/mesh'
import type { Scene } from '@babylonjs/core/scene'
import type { CageGeometry, ObjectKind, SceneObject } from '../../src-shared/scene/types'
import type { Palette } from './palette'
import type { MeshCache } from './meshCache'
import { eulerXYZDegToQuaternion } from './transformMath'
import { vec3Of, type Values } from './values'

/** Lower is preferred when several objects are under the cursor (handles > objects > domains). */
export const PICK_PRIORITY = { handle: 0, object: 1, domain: 2 } as const

/** What every pickable viewport mesh carries, so a pick can be traced back to its object. */
export interface PickMetadata {
  objectId: string
  pickPriority: number
  /** Cage edit handles only: index of the cage vertex. */
  cageVertex?: number
}

export function tag(mesh: AbstractMesh, objectId: string, pickPriority: number = PICK_PRIORITY.object): void {
  mesh.metadata = { objectId, pickPriority } satisfies PickMetadata
  mesh.isPickable = true
}

export function pickMetadata(mesh: AbstractMesh | null | undefined): PickMetadata | null {
  const m = mesh?.metadata as Partial<PickMetadata> | null | undefined
  return m && typeof m.objectId === 'string' ? { objectId: m.objectId, pickPriority: m.pickPriority ?? PICK_PRIORITY.object, cageVertex: m.cageVertex } : null
}

export interface VisualContext {
  scene: Scene
  palette: Palette
  meshes: MeshCache
}

/** Everything a visual is built from; `cage` is a plain (non-reactive) copy of obj.cage. */
export interface VisualInput {
  obj: SceneObject
  values: Values
  cage?: CageGeometry
}

/** Which gizmo modes make sense for a kind (the rest hide the gizmo). */
export type GizmoMode = 'translate' | 'rotate' | 'scale'

export abstract class ObjectVisual {
  readonly root: TransformNode
  protected selected = false
  /** The evaluated values last drawn (set by sceneSync); gizmo results start from them. */
  lastValues: Values = {}

  constructor(
    readonly id: string,
    readonly kind: ObjectKind,
    protected readonly ctx: VisualContext,
  ) {
    this.root = new TransformNode(`obj:${id}`, ctx.scene)
    this.root.metadata = { objectId: id }
    // Always quaternion-driven: the document's XYZ Euler order is not Babylon's.
    this.root.rotationQuaternion = Quaternion.Identity()
  }

  abstract update(input: VisualInput): void

  /** Gizmo modes this kind supports. */
  abstract readonly gizmoModes: readonly GizmoMode[]

  /** Solid meshes outlined by the highlight layer while selected. */
  abstract highlightMeshes(): Mesh[]

  /** Meshes whose world bounds stand for the object (framing, projectToScreen). */
  boundsMeshes(): AbstractMesh[] {
    return this.root.getChildMeshes(false).filter((m) => m.isEnabled() && m.isVisible)
  }

  /** Line colours etc.; the highlight layer itself is handled by selection.ts. */
  setSelected(selected: boolean): void {
    this.selected = selected
  }

  /**
   * Whether the baked frame on screen draws this object's simulated counterpart (a rigid body
   * of the same id, cache/cacheDisplay.ts): kinds that have one then step out of its way. Called
   * by sceneSync on every change and once after the visual is created; the default ignores it.
   */
  setBakedShown(_shown: boolean): void {}

  /** Called before every render: keeps world-space attachments with the (maybe dragged) root. */
  follow(): void {}

  /** position / rotation (XYZ deg) / scale of kinds that have them. */
  protected applyTransform(values: Values, opts: { rotation?: boolean; scale?: boolean } = { rotation: true, scale: true }): void {
    const p = vec3Of(this.kind, values, 'position')
    this.root.position.set(p[0], p[1], p[2])
    if (opts.rotation) eulerXYZDegToQuaternion(vec3Of(this.kind, values, 'rotation'), this.root.rotationQuaternion!)
    else this.root.rotationQuaternion!.copyFromFloats(0, 0, 0, 1)
    if (opts.scale) {
      const s = vec3Of(this.kind, values, 'scale', [1, 1, 1])
      this.root.scaling.set(s[0], s[1], s[2])
    } else this.root.scaling.set(1, 1, 1)
  }

  dispose(): void {
    // Children go with the root; materials are shared (palette) and stay.
    this.root.dispose(false, false)
  }
}
