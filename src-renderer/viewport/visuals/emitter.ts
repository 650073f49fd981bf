// Emitter: a translucent unit primitive or imported mesh (orange for gas, blue for liquid) and an arrow for
// its velocity. The velocity is in world space, so the arrow is not parented to the
// rotated/scaled root; `follow` keeps it on the root's position, also while a gizmo drags.
import type { Mesh } from '@babylonjs/core/Meshes/mesh'
import { Vector3 } from '@babylonjs/core/Maths/math.vector'
import { ObjectVisual, tag, type GizmoMode, type VisualContext, type VisualInput } from '../objectVisuals'
import { Arrow } from '../shapes'
import { buildShapeBody, shapeKey } from './shapeBody'
import { strOf, vec3Of } from '../values'

/** Arrow length per m/s: the distance the emitted fluid travels in one second... */
const ARROW_SECONDS = 1
/** ...up to this length (m), so a fast jet does not draw a kilometre-long arrow. */
const MAX_ARROW = 10

export class EmitterVisual extends ObjectVisual {
  readonly gizmoModes: readonly GizmoMode[] = ['translate', 'rotate', 'scale']
  private body: Mesh | null = null
  private bodyKey = ''
  private readonly arrow: Arrow

  constructor(id: string, ctx: VisualContext) {
    super(id, 'emitter', ctx)
    this.arrow = new Arrow(`emitter:${id}:velocity`, ctx.scene, ctx.palette.get('arrowGas'))
    for (const m of this.arrow.meshes()) tag(m, id)
  }

  update({ obj, values }: VisualInput): void {
    this.applyTransform(values)
    const shape = strOf('emitter', values, 'shape', 'sphere')
    if (shapeKey(this.ctx, obj, shape) !== this.bodyKey || !this.body) {
      this.body?.dispose()
      const { body, key } = buildShapeBody(this.ctx, obj, shape, `emitter:${this.id}`)
      body.parent = this.root
      tag(body, this.id)
      this.body = body
      this.bodyKey = key
    }
    const liquid = strOf('emitter', values, 'fluid', 'gas') === 'liquid'
    this.body.material = this.ctx.palette.get(liquid ? 'emitterLiquid' : 'emitterGas')
    const arrowMat = this.ctx.palette.get(liquid ? 'arrowLiquid' : 'arrowGas')
    for (const m of this.arrow.meshes()) m.material = arrowMat

    const v = vec3Of('emitter', values, 'velocity', [0, 1, 0])
    const vel = new Vector3(v[0], v[1], v[2])
    const sc = vec3Of('emitter', values, 'scale', [1, 1, 1]).map(Math.abs)
    const thickness = 0.025 * Math.min(10, Math.max(0.5, Math.max(...sc)))
    this.arrow.set(vel, Math.min(MAX_ARROW, vel.length() * ARROW_SECONDS), thickness)
    this.follow()
  }

  override follow(): void {
    this.arrow.node.position.copyFrom(this.root.position)
  }

  highlightMeshes(): Mesh[] {
    return this.body ? [this.body, ...this.arrow.meshes()] : this.arrow.meshes()
  }

  override boundsMeshes() {
    // The body only: framing an emitter should not zoom out to a long velocity arrow.
    return this.body ? [this.body] : []
  }

  override dispose(): void {
    this.arrow.node.dispose(false, false)
    super.dispose()
  }
}
