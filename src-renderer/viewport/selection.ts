// Click picking and the selection highlight.
// Picking collects every hit under the cursor and prefers, in order: cage handles, ordinary
// objects, domains (whose near-invisible fill would otherwise swallow clicks on everything
// inside it), then the nearest hit. A click is a POINTERTAP, so orbit drags never select.
import { SelectionOutlineLayer } from '@babylonjs/core/Layers/selectionOutlineLayer'
import { PointerEventTypes } from '@babylonjs/core/Events/pointerEvents'
import type { Mesh } from '@babylonjs/core/Meshes/mesh'
import type { AbstractMesh } from '@babylonjs/core/Meshes/abstractMesh'
import type { Observer } from '@babylonjs/core/Misc/observable'
import type { PointerInfo } from '@babylonjs/core/Events/pointerEvents'
import type { Scene } from '@babylonjs/core/scene'
import type { Camera } from '@babylonjs/core/Cameras/camera'
import { pickMetadata, type ObjectVisual, type PickMetadata } from './objectVisuals'
import { COLORS } from './palette'

export interface PickHit extends PickMetadata {
  distance: number
}

export type PickFilter = (meta: PickMetadata, mesh: AbstractMesh) => boolean

/**
 * Best hit at canvas CSS pixel (x, y), or null on empty space. `camera`: the one whose view
 * was clicked (a cell of the side-by-side wedge view); default the scene's active camera.
 */
export function pickAt(scene: Scene, x: number, y: number, filter: PickFilter = () => true, camera?: Camera): PickHit | null {
  const scale = cssToRender(scene)
  const hits = scene.multiPick(
    x * scale.x,
    y * scale.y,
    (mesh) => {
      if (!mesh.isPickable || !mesh.isEnabled() || !mesh.isVisible) return false
      const meta = pickMetadata(mesh)
      return !!meta && filter(meta, mesh)
    },
    camera,
  )
  let best: PickHit | null = null
  for (const h of hits ?? []) {
    const meta = pickMetadata(h.pickedMesh)
    if (!h.hit || !meta) continue
    const cand: PickHit = { ...meta, distance: h.distance }
    if (!best || cand.pickPriority < best.pickPriority || (cand.pickPriority === best.pickPriority && cand.distance < best.distance)) best = cand
  }
  return best
}

/** Render pixels per CSS pixel (1 with adaptToDeviceRatio off, but resizes can lag a frame). */
export function cssToRender(scene: Scene): { x: number; y: number } {
  const engine = scene.getEngine()
  const canvas = engine.getRenderingCanvas()
  const cw = canvas?.clientWidth || engine.getRenderWidth()
  const ch = canvas?.clientHeight || engine.getRenderHeight()
  return { x: engine.getRenderWidth() / (cw || 1), y: engine.getRenderHeight() / (ch || 1) }
}

export class Selection {
  readonly outline: SelectionOutlineLayer
  private highlighted = new Set<Mesh>()
  private selectedVisuals = new Set<ObjectVisual>()
  private readonly tapObserver: Observer<PointerInfo>

  constructor(
    private readonly scene: Scene,
    /** Left click that did not drag: canvas CSS pixel coordinates. */
    onClick: (x: number, y: number) => void,
  ) {
    // A thin solid outline around the selection, like Blender's, not a soft glow.
    // No depth occlusion: it needs a depth pre-pass of the whole scene every frame, which
    // halves the frame rate of software rendering (CI) for a barely visible effect.
    this.outline = new SelectionOutlineLayer('viewport:selection', scene, { useDepthOcclusion: false })
    this.outline.outlineColor = COLORS.selected.clone()
    this.outline.outlineThickness = 2
    this.tapObserver = scene.onPointerObservable.add((info) => {
      if (info.type !== PointerEventTypes.POINTERTAP || info.event.button !== 0) return
      const canvas = scene.getEngine().getRenderingCanvas()
      const rect = canvas?.getBoundingClientRect()
      const ev = info.event as PointerEvent
      onClick(ev.clientX - (rect?.left ?? 0), ev.clientY - (rect?.top ?? 0))
    })!
  }

  /** Outlines the selected visuals' solid meshes; only the difference is applied. */
  apply(selected: readonly ObjectVisual[]): void {
    const nowSelected = new Set(selected)
    for (const v of this.selectedVisuals) if (!nowSelected.has(v)) v.setSelected(false)
    for (const v of nowSelected) if (!this.selectedVisuals.has(v)) v.setSelected(true)
    this.selectedVisuals = nowSelected

    const want = new Set<Mesh>()
    for (const v of selected) for (const m of v.highlightMeshes()) want.add(m)
    const same = want.size === this.highlighted.size && [...want].every((m) => this.highlighted.has(m))
    if (same) return
    // The layer has no per-mesh removal: rebuild its (small) selection set.
    this.outline.clearSelection()
    if (want.size) this.outline.addSelection([...want])
    this.highlighted = want
  }

  dispose(): void {
    this.scene.onPointerObservable.remove(this.tapObserver)
    this.outline.dispose()
    this.highlighted.clear()
    this.selectedVisuals.clear()
  }
}
