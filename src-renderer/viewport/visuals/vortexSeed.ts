// Vortex seed: a small violet sphere of the core radius, a ring around the spin axis and
// an arrow along it (right-hand rule). Position only: no rotation/scale gizmo; the axis is
// the `direction` parameter and the size is `radius`.
import { CreateSphere } from '@babylonjs/core/Meshes/Builders/sphereBuilder'
import { CreateTorus } from '@babylonjs/core/Meshes/Builders/torusBuilder'
import { TransformNode } from '@babylonjs/core/Meshes/transformNode'
import { Quaternion, Vector3 } from '@babylonjs/core/Maths/math.vector'
import type { Mesh } from '@babylonjs/core/Meshes/mesh'
import { ObjectVisual, tag, type GizmoMode, type VisualContext, type VisualInput } from '../objectVisuals'
import { Arrow, rotationFromY } from '../shapes'
import { numOf, vec3Of } from '../values'

export class VortexSeedVisual extends ObjectVisual {
  readonly gizmoModes: readonly GizmoMode[] = ['translate']
  private readonly core: Mesh
  /** Child of the root whose +Y is the spin axis; the ring and arrow live in it. */
  private readonly axis: TransformNode
  private readonly ring: Mesh
  private readonly arrow: Arrow

  constructor(id: string, ctx: VisualContext) {
    super(id, 'vortexSeed', ctx)
    const { scene, palette } = ctx
    this.core = CreateSphere(`vortex:${id}:core`, { diameter: 1, segments: 16 }, scene)
    this.core.material = palette.get('vortexCore')
    this.core.parent = this.root
    this.axis = new TransformNode(`vortex:${id}:axis`, scene)
    this.axis.rotationQuaternion = Quaternion.Identity()
    this.axis.parent = this.root
    this.ring = CreateTorus(`vortex:${id}:ring`, { diameter: 1, thickness: 0.04, tessellation: 48 }, scene)
    this.ring.material = palette.get('vortex')
    this.ring.parent = this.axis
    this.arrow = new Arrow(`vortex:${id}:arrow`, scene, palette.get('vortex'))
    this.arrow.node.parent = this.axis
    for (const m of [this.core, this.ring, ...this.arrow.meshes()]) tag(m, id)
  }

  update({ values }: VisualInput): void {
    this.applyTransform(values, { rotation: false, scale: false })
    const r = Math.max(1e-3, numOf('vortexSeed', values, 'radius', 0.1))
    const d = vec3Of('vortexSeed', values, 'direction', [0, 1, 0])
    const dir = new Vector3(d[0], d[1], d[2])
    if (dir.lengthSquared() < 1e-12) dir.set(0, 1, 0)
    rotationFromY(dir, this.axis.rotationQuaternion!)
    this.core.scaling.setAll(2 * r)
    this.ring.scaling.setAll(4 * r)
    this.arrow.set(new Vector3(0, 1, 0), 3.5 * r, 0.12 * r)
  }

  highlightMeshes(): Mesh[] {
    return [this.core, this.ring, ...this.arrow.meshes()]
  }
}
