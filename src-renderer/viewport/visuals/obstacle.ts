// Obstacle: a solid light grey unit primitive (or an imported mesh) under the object's
// position / rotation / scale.
import type { Mesh } from '@babylonjs/core/Meshes/mesh'
import { ObjectVisual, tag, type GizmoMode, type VisualContext, type VisualInput } from '../objectVisuals'
import { strOf } from '../values'
import { buildShapeBody, shapeKey } from './shapeBody'

export class ObstacleVisual extends ObjectVisual {
  readonly gizmoModes: readonly GizmoMode[] = ['translate', 'rotate', 'scale']
  private body: Mesh | null = null
  /** What `body` was built from; a change rebuilds it. */
  private bodyKey = ''

  constructor(id: string, ctx: VisualContext) {
    super(id, 'obstacle', ctx)
  }

  update({ obj, values }: VisualInput): void {
    this.applyTransform(values)
    const shape = strOf('obstacle', values, 'shape', 'box')
    if (shapeKey(this.ctx, obj, shape) === this.bodyKey && this.body) return
    this.body?.dispose()
    const { body, key, kind } = buildShapeBody(this.ctx, obj, shape, `obstacle:${this.id}`)
    body.material = this.ctx.palette.get(kind === 'mesh' ? 'meshObstacle' : kind === 'primitive' ? 'obstacle' : 'placeholder')
    body.parent = this.root
    tag(body, this.id)
    this.body = body
    this.bodyKey = key
  }

  highlightMeshes(): Mesh[] {
    return this.body ? [this.body] : []
  }
}
