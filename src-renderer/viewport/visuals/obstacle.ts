// Obstacle: a solid light grey unit primitive (or an imported mesh) under the object's
// position / rotation / scale.
import { Mesh } from '@babylonjs/core/Meshes/mesh'
import { VertexData } from '@babylonjs/core/Meshes/mesh.vertexData'
import { ObjectVisual, tag, type GizmoMode, type VisualContext, type VisualInput } from '../objectVisuals'
import { createUnitPrimitive, isPrimitiveShape, useCounterClockwiseFront } from '../shapes'
import { strOf } from '../values'

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
    const data = shape === 'mesh' && obj.meshId ? this.ctx.meshes.get(obj.meshId) : undefined
    const key = shape === 'mesh' ? `mesh:${obj.meshId ?? ''}:${data ? 'ready' : 'pending'}` : shape
    if (key === this.bodyKey && this.body) return
    this.body?.dispose()
    const { scene, palette } = this.ctx
    let body: Mesh
    if (data) {
      body = new Mesh(`obstacle:${this.id}:mesh`, scene)
      const vd = new VertexData()
      vd.positions = data.positions
      vd.indices = data.indices
      vd.normals = data.normals
      vd.applyToMesh(body)
      useCounterClockwiseFront(body)
      body.material = palette.get('meshObstacle')
    } else if (isPrimitiveShape(shape)) {
      body = createUnitPrimitive(shape, `obstacle:${this.id}:${shape}`, scene)
      body.material = palette.get('obstacle')
    } else {
      // A mesh obstacle whose triangles are still loading (or missing): a dim stand-in box.
      body = createUnitPrimitive('box', `obstacle:${this.id}:placeholder`, scene)
      body.material = palette.get('placeholder')
    }
    body.parent = this.root
    tag(body, this.id)
    this.body = body
    this.bodyKey = key
  }

  highlightMeshes(): Mesh[] {
    return this.body ? [this.body] : []
  }
}
