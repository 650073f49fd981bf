// Catmull-Clark cage: the subdivided surface at `level` (smooth shaded, light teal) and the
// cage itself as wire lines. Geometry is rebuilt only when the cage or the level changes
// (sceneSync hands over the same plain cage object while the document's cage is unchanged);
// cage edit mode previews vertex drags through `previewPositions` without touching the document.
import { Mesh } from '@babylonjs/core/Meshes/mesh'
import { LinesMesh } from '@babylonjs/core/Meshes/linesMesh'
import { VertexData } from '@babylonjs/core/Meshes/mesh.vertexData'
import { subdivide } from '../../../src-shared/geometry/catmullClark'
import { defaultCage } from '../../../src-shared/scene/defaults'
import type { CageGeometry } from '../../../src-shared/scene/types'
import { ObjectVisual, tag, type GizmoMode, type VisualContext, type VisualInput } from '../objectVisuals'
import { COLORS } from '../palette'
import { numOf } from '../values'
import { useCounterClockwiseFront } from '../shapes'

/** Unique undirected edges of the cage's faces, as index pairs for a line mesh. */
function edgeIndices(faces: number[][], vertexCount: number): number[] {
  const seen = new Set<number>()
  const out: number[] = []
  for (const f of faces) {
    for (let i = 0; i < f.length; i++) {
      const a = f[i], b = f[(i + 1) % f.length]
      if (a >= vertexCount || b >= vertexCount) continue
      const key = Math.min(a, b) * vertexCount + Math.max(a, b)
      if (seen.has(key)) continue
      seen.add(key)
      out.push(a, b)
    }
  }
  return out
}

export class CcCageVisual extends ObjectVisual {
  readonly gizmoModes: readonly GizmoMode[] = ['translate', 'rotate', 'scale']
  private readonly surface: Mesh
  private readonly wire: LinesMesh
  /** The document's cage as last drawn (plain data, local space). */
  cage: CageGeometry = defaultCage()
  private level = 0
  private built: CageGeometry | null = null
  private baked = false

  constructor(id: string, ctx: VisualContext) {
    super(id, 'ccCage', ctx)
    this.surface = new Mesh(`cc:${id}:surface`, ctx.scene)
    this.surface.material = ctx.palette.get('ccSurface')
    useCounterClockwiseFront(this.surface)
    this.surface.parent = this.root
    tag(this.surface, id)
    this.wire = new LinesMesh(`cc:${id}:cage`, ctx.scene)
    this.wire.color = COLORS.cageWire.clone()
    this.wire.parent = this.root
    this.wire.isPickable = false
  }

  update({ values, cage }: VisualInput): void {
    this.applyTransform(values)
    const level = Math.min(4, Math.max(1, Math.round(numOf('ccCage', values, 'level', 2))))
    const c = cage ?? this.cage
    if (c === this.built && level === this.level) return
    this.cage = c
    this.level = level
    this.built = c
    this.rebuild(c.positions)
  }

  /** While the baked surface flow is on screen the authored surface is a faint wireframe (as rigid bodies do). */
  override setBakedShown(shown: boolean): void {
    this.baked = shown
    this.surface.material = this.ctx.palette.get(shown ? 'ccSurfaceGhost' : 'ccSurface')
  }

  /** Whether the authored surface is drawn as the faint stand-in (tests, hooks). */
  get ghosted(): boolean {
    return this.baked
  }

  /** Shows the surface for moved cage vertices (same faces) while a handle is dragged. */
  previewPositions(positions: number[]): void {
    this.rebuild(positions)
  }

  /** Back to the document's cage (a drag was cancelled or its commit failed). */
  restore(): void {
    this.rebuild(this.cage.positions)
  }

  private rebuild(positions: number[]): void {
    const faces = this.cage.faces
    const n = Math.floor(positions.length / 3)
    const wireData = new VertexData()
    wireData.positions = positions.slice(0, n * 3)
    wireData.indices = edgeIndices(faces, n)
    wireData.applyToMesh(this.wire, true)
    try {
      const s = subdivide({ positions, faces }, this.level)
      const vd = new VertexData()
      vd.positions = s.positions
      vd.indices = s.triangles
      const normals = new Float32Array(s.positions.length)
      VertexData.ComputeNormals(s.positions, s.triangles, normals, { useRightHandedSystem: true })
      vd.normals = normals
      vd.applyToMesh(this.surface, true)
      this.surface.setEnabled(true)
    } catch (e) {
      // A cage the subdivider rejects (bad faces, too many triangles): show the cage only.
      console.warn(`viewport: cannot subdivide cage ${this.id}:`, e instanceof Error ? e.message : e)
      this.surface.setEnabled(false)
    }
  }

  highlightMeshes(): Mesh[] {
    return this.surface.isEnabled() ? [this.surface] : []
  }

  override boundsMeshes() {
    return [this.wire] // the cage encloses the surface
  }

  override setSelected(selected: boolean): void {
    super.setSelected(selected)
    this.wire.color.copyFrom(selected ? COLORS.cageWireSelected : COLORS.cageWire)
  }
}
