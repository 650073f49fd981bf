// Heat source: a translucent red sphere of `radius`. Position only (no rotation/scale gizmo).
import { CreateSphere } from '@babylonjs/core/Meshes/Builders/sphereBuilder'
import type { Mesh } from '@babylonjs/core/Meshes/mesh'
import { ObjectVisual, tag, type GizmoMode, type VisualContext, type VisualInput } from '../objectVisuals'
import { numOf } from '../values'

export class HeatSourceVisual extends ObjectVisual {
  readonly gizmoModes: readonly GizmoMode[] = ['translate']
  private readonly sphere: Mesh

  constructor(id: string, ctx: VisualContext) {
    super(id, 'heatSource', ctx)
    this.sphere = CreateSphere(`heat:${id}:sphere`, { diameter: 1, segments: 24 }, ctx.scene)
    this.sphere.material = ctx.palette.get('heat')
    this.sphere.parent = this.root
    tag(this.sphere, id)
  }

  update({ values }: VisualInput): void {
    this.applyTransform(values, { rotation: false, scale: false })
    this.sphere.scaling.setAll(2 * Math.max(1e-3, numOf('heatSource', values, 'radius', 0.25)))
  }

  highlightMeshes(): Mesh[] {
    return [this.sphere]
  }
}
