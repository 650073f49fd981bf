// Keeps the Babylon scene in step with the document: one visual per object, updated only
// when the object's evaluated parameters (at the current frame), cage or mesh changed.
// Cheap enough to run on every frame change: per object it builds one small signature
// string and compares it with the last one. It also tells each visual whether the baked frame
// on screen draws its simulated counterpart (setBakedShown), as the cache display reports it.
import { MESH_SHAPED_KINDS } from '../../src-shared/scene/specs'
import type { CageGeometry, SceneObject } from '../../src-shared/scene/types'
import type { ObjectVisual, VisualContext } from './objectVisuals'
import type { Values } from './values'
import { createVisual } from './visuals'

interface CageCopy {
  sig: string
  plain: CageGeometry
  /** Distinct per distinct geometry; stands for the (possibly huge) sig in object signatures. */
  version: number
}

export class SceneSync {
  readonly visuals = new Map<string, ObjectVisual>()
  private readonly signatures = new Map<string, string>()
  /**
   * Plain copies of the document's (reactive, proxied) cages, keyed by the cage object
   * itself: reading big arrays through the proxy once per project state is enough, and
   * an unchanged cage keeps handing the same copy to its visual (no rebuild).
   */
  private readonly cageCopies = new WeakMap<object, CageCopy>()
  private readonly lastCage = new Map<string, CageCopy>()
  /** Objects the gizmo is dragging right now: their node belongs to the gizmo until drag end. */
  readonly locked = new Set<string>()
  private cageVersion = 0
  /** Objects whose simulated rigid body the cache display draws now (cache/shownBodies.ts). */
  private bakedShown: ReadonlySet<string> = new Set()

  constructor(private readonly ctx: VisualContext) {}

  /**
   * `shown`: whether an object is drawn at all (its eye in the outliner, the overlays switch);
   * a hidden object keeps its visual, disabled, so showing it again costs nothing.
   */
  sync(objects: readonly SceneObject[], valuesOf: (obj: SceneObject) => Values, shown: (obj: SceneObject) => boolean = () => true): void {
    const alive = new Set<string>()
    for (const obj of objects) {
      alive.add(obj.id)
      let visual = this.visuals.get(obj.id)
      if (visual && visual.kind !== obj.kind) {
        this.remove(obj.id)
        visual = undefined
      }
      const show = shown(obj)
      if (visual && visual.root.isEnabled(false) !== show) visual.root.setEnabled(show)
      if (this.locked.has(obj.id)) continue
      const values = valuesOf(obj)
      const cage = obj.kind === 'ccCage' ? this.cageOf(obj) : undefined
      const sig = JSON.stringify([values, obj.meshId ?? null, cage?.version ?? null, this.meshReady(obj, values)])
      if (visual && this.signatures.get(obj.id) === sig) continue
      if (!visual) {
        const created = createVisual(obj.kind, obj.id, this.ctx)
        if (!created) continue
        visual = created
        this.visuals.set(obj.id, visual)
        visual.setBakedShown(this.bakedShown.has(obj.id))
        visual.root.setEnabled(show)
      }
      visual.update({ obj, values, cage: cage?.plain })
      visual.lastValues = values
      this.signatures.set(obj.id, sig)
    }
    for (const id of [...this.visuals.keys()]) if (!alive.has(id)) this.remove(id)
  }

  /**
   * The ids of the simulated bodies drawn now: visuals whose id joins or leaves the set hear of
   * it at once, visuals created later when they are made.
   */
  setBakedShown(ids: ReadonlySet<string>): void {
    const before = this.bakedShown
    this.bakedShown = new Set(ids)
    for (const [id, v] of this.visuals) if (before.has(id) !== ids.has(id)) v.setBakedShown(ids.has(id))
  }

  /** Forces the next sync to re-apply this object (after a failed edit, a cancelled drag). */
  invalidate(id: string): void {
    this.signatures.delete(id)
  }

  /** Whether a mesh-shaped object's mesh data is loaded: part of the signature so loading completes the visual. */
  private meshReady(obj: SceneObject, values: Values): boolean {
    return MESH_SHAPED_KINDS.includes(obj.kind) && values.shape === 'mesh' && !!obj.meshId && this.ctx.meshes.get(obj.meshId) !== undefined
  }

  private cageOf(obj: SceneObject): CageCopy | undefined {
    const cage = obj.cage
    if (!cage) return undefined
    let copy = this.cageCopies.get(cage)
    if (!copy) {
      const sig = JSON.stringify(cage)
      const prev = this.lastCage.get(obj.id)
      // Same geometry in a new project state (another object was edited): keep the old copy.
      copy = prev && prev.sig === sig ? prev : { sig, plain: JSON.parse(sig) as CageGeometry, version: ++this.cageVersion }
      this.cageCopies.set(cage, copy)
    }
    this.lastCage.set(obj.id, copy)
    return copy
  }

  private remove(id: string): void {
    this.visuals.get(id)?.dispose()
    this.visuals.delete(id)
    this.signatures.delete(id)
    this.lastCage.delete(id)
    this.locked.delete(id)
  }

  dispose(): void {
    for (const v of this.visuals.values()) v.dispose()
    this.visuals.clear()
    this.signatures.clear()
    this.lastCage.clear()
  }
}
