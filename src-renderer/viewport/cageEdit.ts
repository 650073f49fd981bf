// Cage edit mode (Tab on a selected Catmull-Clark cage): a small pickable handle on every
// cage vertex, drawn on top of the surface at a constant on-screen size. Vertex positions
// are stored in the cage's local space, handles live in world space: every frame they are
// placed through the object's world matrix, and a dragged handle is brought back through
// its inverse. The surface previews the drag; the document changes once, on drag end.
import { CreateSphere } from '@babylonjs/core/Meshes/Builders/sphereBuilder'
import { Matrix, Vector3 } from '@babylonjs/core/Maths/math.vector'
// Side effect: Mesh.prototype.createInstance (handles are instances of one sphere).
import '@babylonjs/core/Meshes/instancedMesh'
import type { AbstractMesh } from '@babylonjs/core/Meshes/abstractMesh'
import type { Mesh } from '@babylonjs/core/Meshes/mesh'
import type { Camera } from '@babylonjs/core/Cameras/camera'
import type { Scene } from '@babylonjs/core/scene'
import type { CageGeometry } from '../../src-shared/scene/types'
import { PICK_PRIORITY, type PickMetadata } from './objectVisuals'
import type { Palette } from './palette'
import { tidy } from './transformMath'
import type { CcCageVisual } from './visuals'

/** Handle diameter on screen, CSS pixels. */
const HANDLE_PX = 9
/** Handles and their marker draw after (and over) everything else. */
const ON_TOP_GROUP = 1

export class CageEdit {
  private visual: CcCageVisual | null = null
  /** The document cage the handles currently stand for. */
  private cage: CageGeometry | null = null
  private handles: AbstractMesh[] = []
  private base: Mesh | null = null
  private marker: Mesh | null = null
  private selectedVertex: number | null = null
  /** Local positions while a drag is in progress or waiting for its commit to come back. */
  private working: number[] | null = null
  private draggingVertex: number | null = null
  private previewDirty = false
  private readonly world = new Matrix()
  private readonly inverse = new Matrix()
  private readonly tmp = new Vector3()

  constructor(
    private readonly scene: Scene,
    private readonly palette: Palette,
  ) {}

  get activeObjectId(): string | null {
    return this.visual?.id ?? null
  }

  /** The cage being edited (null leaves cage mode) and the selected vertex. */
  setActive(visual: CcCageVisual | null, selectedVertex: number | null): void {
    if (this.draggingVertex !== null && visual === this.visual) {
      this.selectedVertex = selectedVertex
      return // keep the handles still under the gizmo
    }
    if (visual !== this.visual) {
      this.clearHandles()
      this.visual = visual
      this.cage = null
      this.working = null
    }
    if (visual && visual.cage !== this.cage) {
      // New document cage (our own commit came back, undo, another edit): start from it.
      this.cage = visual.cage
      this.working = null
      const n = Math.floor(visual.cage.positions.length / 3)
      if (n !== this.handles.length) this.buildHandles(n)
    }
    const n = this.handles.length
    this.selectedVertex = selectedVertex !== null && selectedVertex >= 0 && selectedVertex < n ? selectedVertex : null
    this.updateMarker()
  }

  /** The node a position gizmo attaches to for the selected vertex. */
  handleNode(vertex: number | null): AbstractMesh | null {
    return vertex === null ? null : (this.handles[vertex] ?? null)
  }

  private buildHandles(n: number): void {
    this.clearHandles()
    if (n === 0 || !this.visual) return
    const id = this.visual.id
    const base = CreateSphere(`cage:${id}:handle`, { diameter: 1, segments: 6 }, this.scene)
    base.material = this.palette.get('handle')
    base.renderingGroupId = ON_TOP_GROUP
    base.isPickable = true
    this.base = base
    for (let i = 0; i < n; i++) {
      const h = i === 0 ? base : base.createInstance(`cage:${id}:handle:${i}`)
      h.metadata = { objectId: id, pickPriority: PICK_PRIORITY.handle, cageVertex: i } satisfies PickMetadata
      h.isPickable = true
      this.handles.push(h)
    }
    const marker = CreateSphere(`cage:${id}:selectedHandle`, { diameter: 1.35, segments: 8 }, this.scene)
    marker.material = this.palette.get('handleSelected')
    marker.renderingGroupId = ON_TOP_GROUP
    marker.isPickable = false
    this.marker = marker
  }

  private clearHandles(): void {
    for (const h of this.handles) if (h !== this.base) h.dispose()
    this.base?.dispose()
    this.marker?.dispose()
    this.handles = []
    this.base = null
    this.marker = null
  }

  private updateMarker(): void {
    if (!this.marker) return
    const h = this.handleNode(this.selectedVertex)
    this.marker.setEnabled(!!h)
  }

  private localPositions(): number[] {
    return this.working ?? this.cage?.positions ?? []
  }

  /** Places handles through the object's (possibly animated or gizmo-moved) transform. */
  beforeRender(camera: Camera): void {
    const visual = this.visual
    if (!visual || this.handles.length === 0) return
    this.world.copyFrom(visual.root.computeWorldMatrix(true))
    const pos = this.localPositions()
    const engine = this.scene.getEngine()
    const pxToWorld = (2 * Math.tan(camera.fov / 2)) / Math.max(1, engine.getRenderHeight())
    const camPos = camera.globalPosition
    for (let i = 0; i < this.handles.length; i++) {
      const h = this.handles[i]
      if (i === this.draggingVertex) {
        // The gizmo owns this handle: read it back into local space for the preview.
        this.world.invertToRef(this.inverse)
        Vector3.TransformCoordinatesToRef(h.position, this.inverse, this.tmp)
        const w = (this.working ??= [...pos])
        if (w[3 * i] !== this.tmp.x || w[3 * i + 1] !== this.tmp.y || w[3 * i + 2] !== this.tmp.z) {
          w[3 * i] = this.tmp.x
          w[3 * i + 1] = this.tmp.y
          w[3 * i + 2] = this.tmp.z
          this.previewDirty = true
        }
      } else {
        Vector3.TransformCoordinatesFromFloatsToRef(pos[3 * i], pos[3 * i + 1], pos[3 * i + 2], this.world, this.tmp)
        h.position.copyFrom(this.tmp)
      }
      h.scaling.setAll(Vector3.Distance(camPos, h.position) * pxToWorld * HANDLE_PX)
    }
    const sel = this.handleNode(this.selectedVertex)
    if (sel && this.marker) {
      this.marker.position.copyFrom(sel.position)
      this.marker.scaling.copyFrom(sel.scaling)
    }
    if (this.previewDirty && this.working) {
      this.previewDirty = false
      visual.previewPositions(this.working)
    }
  }

  beginDrag(vertex: number): void {
    this.draggingVertex = vertex
    this.working = [...this.localPositions()]
  }

  /** Ends a drag; returns the new cage for the document (local space, tidied) or null. */
  endDrag(): CageGeometry | null {
    const v = this.draggingVertex
    this.draggingVertex = null
    if (v === null || !this.working || !this.cage) return null
    const moved = this.working.some((x, i) => x !== this.cage!.positions[i])
    if (!moved) {
      this.working = null
      return null
    }
    // Keep `working` until the committed cage comes back, so the handle does not jump back.
    return { positions: this.working.map((x) => tidy(x)), faces: this.cage.faces.map((f) => [...f]) }
  }

  /** The commit failed (or was refused): back to the document's cage. */
  cancel(): void {
    this.working = null
    this.draggingVertex = null
    this.visual?.restore()
  }

  dispose(): void {
    this.clearHandles()
    this.visual = null
    this.cage = null
  }
}
