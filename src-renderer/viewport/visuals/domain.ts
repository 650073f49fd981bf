// Domain: the axis-aligned simulation box, drawn as light blue edges around an almost
// invisible fill. The fill exists only so clicking inside the box can select it; it has
// the lowest pick priority, so anything else inside the box wins the click.
import { CreateBox } from '@babylonjs/core/Meshes/Builders/boxBuilder'
import type { Mesh } from '@babylonjs/core/Meshes/mesh'
import type { LinesMesh } from '@babylonjs/core/Meshes/linesMesh'
import { ObjectVisual, PICK_PRIORITY, tag, type GizmoMode, type VisualContext, type VisualInput } from '../objectVisuals'
import { COLORS } from '../palette'
import { createUnitBoxLines } from '../shapes'
import { vec3Of } from '../values'

/** Smallest edge the viewport will draw (the spec's minimum size). */
const MIN_SIZE = 0.01

export class DomainVisual extends ObjectVisual {
  // Domains are axis aligned: no rotation; the scale gizmo edits `size`.
  readonly gizmoModes: readonly GizmoMode[] = ['translate', 'scale']
  private readonly fill: Mesh
  private readonly edges: LinesMesh

  constructor(id: string, ctx: VisualContext) {
    super(id, 'domain', ctx)
    this.fill = CreateBox(`domain:${id}:fill`, { size: 1 }, ctx.scene)
    this.fill.material = ctx.palette.get('domainFill')
    this.fill.parent = this.root
    tag(this.fill, id, PICK_PRIORITY.domain)
    this.edges = createUnitBoxLines(`domain:${id}:edges`, ctx.scene)
    this.edges.color = COLORS.domainEdge.clone()
    this.edges.parent = this.root
  }

  update({ values }: VisualInput): void {
    const p = vec3Of('domain', values, 'position')
    const s = vec3Of('domain', values, 'size', [2, 2, 2])
    this.root.position.set(p[0], p[1], p[2])
    // The unit box scaled by size: a scale gizmo on the root then edits exactly `size`.
    this.root.scaling.set(Math.max(MIN_SIZE, Math.abs(s[0])), Math.max(MIN_SIZE, Math.abs(s[1])), Math.max(MIN_SIZE, Math.abs(s[2])))
  }

  highlightMeshes(): Mesh[] {
    return [] // an outline of the fill would tint the whole box; the edges change colour instead
  }

  override setSelected(selected: boolean): void {
    super.setSelected(selected)
    this.edges.color.copyFrom(selected ? COLORS.selected : COLORS.domainEdge)
  }
}
