// Rigid body: a solid wood-coloured unit primitive (or an imported mesh) under the object's
// position / rotation / scale: its pose before the simulation takes it over. While a baked
// frame draws the simulated body of the same id, the authored one shrinks to a faint
// wireframe, so it neither covers nor doubles the body the liquid moved; it stays pickable
// (picking uses its faces) and keeps its gizmo and selection outline.
import type { Mesh } from '@babylonjs/core/Meshes/mesh'
import { ObjectVisual, tag, type GizmoMode, type VisualContext, type VisualInput } from '../objectVisuals'
import type { MaterialName } from '../palette'
import { strOf } from '../values'
import { buildShapeBody, shapeKey, type ShapeBody } from './shapeBody'

export class RigidBodyVisual extends ObjectVisual {
  readonly gizmoModes: readonly GizmoMode[] = ['translate', 'rotate', 'scale']
  private body: Mesh | null = null
  /** What `body` was built from; a change rebuilds it. */
  private bodyKey = ''
  private bodyKind: ShapeBody['kind'] = 'primitive'
  /** The simulated body of this id is on screen (setBakedShown). */
  private baked = false

  constructor(id: string, ctx: VisualContext) {
    super(id, 'rigidBody', ctx)
  }

  update({ obj, values }: VisualInput): void {
    this.applyTransform(values)
    const shape = strOf('rigidBody', values, 'shape', 'box')
    if (shapeKey(this.ctx, obj, shape) === this.bodyKey && this.body) return
    this.body?.dispose()
    const { body, key, kind } = buildShapeBody(this.ctx, obj, shape, `rigidBody:${this.id}`)
    body.parent = this.root
    tag(body, this.id)
    this.body = body
    this.bodyKey = key
    this.bodyKind = kind
    this.applyMaterial()
  }

  override setBakedShown(shown: boolean): void {
    if (shown === this.baked) return
    this.baked = shown
    this.applyMaterial()
  }

  /** Whether the authored body is drawn as the faint stand-in (tests, hooks). */
  get ghosted(): boolean {
    return this.baked
  }

  highlightMeshes(): Mesh[] {
    return this.body ? [this.body] : []
  }

  private applyMaterial(): void {
    if (!this.body) return
    const look: MaterialName = this.baked ? 'rigidBodyGhost' : this.bodyKind === 'mesh' ? 'meshRigidBody' : this.bodyKind === 'primitive' ? 'rigidBody' : 'placeholder'
    this.body.material = this.ctx.palette.get(look)
  }
}
