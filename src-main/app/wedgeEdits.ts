// Promoting a wedge variant: the variant's values become the scene's, as Houdini's wedge
// "promote" does. The wedged channels get the variant's values and lose their keys (the
// variant was baked with them held constant), so the promoted scene is exactly the scene
// the variant baked: its frames, copied to the main cache, keep valid signatures.
import type { SceneDocument } from '../../src-shared/scene/types'
import { findHost } from '../../src-shared/sim/registry'
import { applyVariant, findWedge, variantLabel, variantTag } from '../../src-shared/sim/wedge'
import type { Edit } from './edits'
import type { ObjectChange, TrackChange } from '../store/projectStore'

export function promoteVariantEdit(doc: SceneDocument, hostId: string, wedgeId: string, k: number): Edit {
  const host = findHost(doc, hostId)
  const w = findWedge(host, wedgeId)
  const variant = applyVariant(doc, hostId, w, k)
  const forwardObjects: ObjectChange[] = []
  const backwardObjects: ObjectChange[] = []
  variant.objects.forEach((after, i) => {
    const before = doc.objects[i]
    if (after === before) return
    forwardObjects.push({ id: after.id, after })
    backwardObjects.push({ id: before.id, after: before })
  })
  const kept = new Set(variant.tracks)
  const removed = doc.tracks.filter((t) => !kept.has(t))
  const forwardTracks: TrackChange[] = removed.map((t) => ({ objectId: t.objectId, path: t.path, after: null }))
  const backwardTracks: TrackChange[] = removed.map((t) => ({ objectId: t.objectId, path: t.path, after: t }))
  return {
    label: `Promote ${variantTag(w, k)} (${variantLabel(doc, w, k)})`,
    forward: { objects: forwardObjects, tracks: forwardTracks },
    backward: { objects: backwardObjects, tracks: backwardTracks },
  }
}
