// Every document edit as a pure function: (document, request) -> a labelled pair of change
// sets (what to write, and what undoes it). Validation against the parameter specs happens
// here, so nothing invalid ever reaches the store.
import { EddyError } from '../../src-shared/api/errors'
import type { ChangeSet, ObjectChange, TrackChange } from '../store/projectStore'
import type { CageGeometry, Interpolation, Keyframe, ObjectKind, ParamValue, ProjectMeta, SceneDocument, SceneObject, Track, Wedge } from '../../src-shared/scene/types'
import { hostsSimulations } from '../../src-shared/sim/registry'
import { checkWedge } from '../../src-shared/sim/wedge'
import { kindLabel, MESH_SHAPED_KINDS, specFor } from '../../src-shared/scene/specs'
import { defaultCage, defaultParams, uniqueName } from '../../src-shared/scene/defaults'
import { validateCage, validateChannel, validateMeta, validateParams, type ValidationIssue } from '../../src-shared/scene/validate'
import { deleteKey, evaluateTrack, findKey, readChannel, setKey, writeChannel } from '../../src-shared/scene/keyframes'

export interface Edit {
  label: string
  forward: ChangeSet
  backward: ChangeSet
}

function invalid(issues: ValidationIssue[], what: string): never {
  const first = issues[0]
  throw new EddyError('INVALID_PARAM', `${what}: ${first.message}`, { path: first.path, issues })
}

function findObject(doc: SceneDocument, id: string): SceneObject {
  const obj = doc.objects.find((o) => o.id === id)
  if (!obj) throw new EddyError('NOT_FOUND', `No object with id "${id}" in this project`)
  return obj
}

function findTrack(doc: SceneDocument, objectId: string, path: string): Track | undefined {
  return doc.tracks.find((t) => t.objectId === objectId && t.path === path)
}

export function addObjectEdit(
  doc: SceneDocument,
  id: string,
  kind: ObjectKind,
  opts: { name?: string; params?: Record<string, ParamValue>; cage?: CageGeometry; meshId?: string },
): Edit {
  const params = { ...defaultParams(kind), ...(opts.params ?? {}) }
  const issues = validateParams(kind, params)
  if (issues.length) invalid(issues, `Cannot add ${kindLabel(kind)}`)
  if ((kind === 'obstacle' || kind === 'rigidBody') && params.shape === 'mesh' && !opts.meshId) {
    throw new EddyError('INVALID_PARAM', `A mesh ${kindLabel(kind).toLowerCase()} needs an imported mesh: use Add > Import Mesh`, { path: 'shape' })
  }
  const obj: SceneObject = { id, kind, name: uniqueName(opts.name ?? kindLabel(kind), doc.objects.map((o) => o.name)), params }
  if (kind === 'ccCage') {
    obj.cage = opts.cage ?? defaultCage()
    const cageIssues = validateCage(obj.cage)
    if (cageIssues.length) invalid(cageIssues, 'Invalid Catmull-Clark cage')
  }
  if (opts.meshId) obj.meshId = opts.meshId
  return {
    label: `Add ${obj.name}`,
    forward: { objects: [{ id, after: obj }] },
    backward: { objects: [{ id, after: null }] },
  }
}

/** `hidden: false` is stored as no field at all, so a shown object's JSON is as it always was. */
function setHidden(obj: SceneObject, hidden: boolean): void {
  if (hidden) obj.hidden = true
  else delete obj.hidden
}

function visibilityEdit(before: SceneObject, hidden: boolean): Edit {
  const after: SceneObject = structuredClone(before)
  setHidden(after, hidden)
  return {
    label: `${hidden ? 'Hide' : 'Show'} ${before.name}`,
    forward: { objects: [{ id: before.id, after }] },
    backward: { objects: [{ id: before.id, after: before }] },
  }
}

export function updateObjectEdit(
  doc: SceneDocument,
  id: string,
  patch: { name?: string; params?: Record<string, ParamValue>; cage?: CageGeometry; meshId?: string; hidden?: boolean; wedges?: Wedge[] },
  frame?: number,
): Edit {
  const before = findObject(doc, id)
  // Hiding in the viewport alone: its own undo step, named as Blender names it.
  if (patch.hidden !== undefined && Object.keys(patch).length === 1) return visibilityEdit(before, patch.hidden)
  if (frame !== undefined && patch.params) return updateAnimatedEdit(doc, before, patch, frame)
  const after: SceneObject = structuredClone(before)
  const what: string[] = []
  if (patch.name !== undefined && patch.name !== before.name) {
    after.name = uniqueName(patch.name, doc.objects.filter((o) => o.id !== id).map((o) => o.name))
    what.push('name')
  }
  if (patch.params) {
    const partialIssues = validateParams(before.kind, patch.params, { partial: true })
    if (partialIssues.length) invalid(partialIssues, `Cannot change ${before.name}`)
    if (MESH_SHAPED_KINDS.includes(before.kind) && patch.params.shape === 'mesh' && !(patch.meshId ?? before.meshId) && doc.meshes.length === 0) {
      throw new EddyError('INVALID_PARAM', 'Shape "mesh" needs an imported mesh: use Add > Import Mesh', { path: 'shape' })
    }
    after.params = { ...before.params, ...patch.params }
    const issues = validateParams(before.kind, after.params)
    if (issues.length) invalid(issues, `Cannot change ${before.name}`)
    what.push(...Object.keys(patch.params).map((k) => specFor(before.kind, k)?.label ?? k))
  }
  if (patch.meshId !== undefined) {
    if (!MESH_SHAPED_KINDS.includes(before.kind)) throw new EddyError('INVALID_PARAM', `${before.name} cannot use a mesh`, { path: 'meshId' })
    const mesh = doc.meshes.find((m) => m.id === patch.meshId)
    if (!mesh) throw new EddyError('NOT_FOUND', `There is no imported mesh with id ${patch.meshId}`, { path: 'meshId' })
    after.meshId = patch.meshId
    what.push(`mesh ${mesh.name}`)
  }
  if (patch.hidden !== undefined && patch.hidden !== !!before.hidden) {
    setHidden(after, patch.hidden)
    what.push('visibility')
  }
  if (patch.cage) {
    if (before.kind !== 'ccCage') throw new EddyError('INVALID_PARAM', `${before.name} is not a Catmull-Clark surface`, { path: 'cage' })
    const issues = validateCage(patch.cage)
    if (issues.length) invalid(issues, 'Invalid Catmull-Clark cage')
    after.cage = patch.cage
    what.push('cage')
  }
  if (patch.wedges !== undefined) {
    setWedges(doc, after, patch.wedges)
    what.push('wedges')
  }
  return {
    label: `Change ${before.name} ${what.join(', ')}`.trim(),
    forward: { objects: [{ id, after }] },
    backward: { objects: [{ id, after: before }] },
  }
}

/**
 * A host's wedges replaced, each checked against the scene as it will be (the same patch may
 * change the parameters a wedge reads): a bad wedge is refused with its sentence.
 */
function setWedges(doc: SceneDocument, after: SceneObject, wedges: Wedge[]): void {
  if (!hostsSimulations(after.kind)) throw new EddyError('INVALID_PARAM', `${after.name} hosts no simulation, so it cannot have wedges`, { path: 'wedges' })
  const ids = new Set<string>()
  const names = new Set<string>()
  for (const w of wedges) {
    if (ids.has(w.id)) throw new EddyError('INVALID_PARAM', `Two wedges share the id "${w.id}"`, { path: 'wedges' })
    if (names.has(w.name)) throw new EddyError('INVALID_PARAM', `Two wedges are named "${w.name}": give each its own name`, { path: 'wedges' })
    ids.add(w.id)
    names.add(w.name)
  }
  const next = { ...doc, objects: doc.objects.map((o) => (o.id === after.id ? after : o)) }
  for (const w of wedges) checkWedge(next, after.id, w)
  if (wedges.length) after.wedges = structuredClone(wedges)
  else delete after.wedges
}

/** Channels of a parameter value: 'rate', or 'position.0'..'position.2' for a vector. */
function channelsOf(key: string, value: ParamValue): { path: string; value: number }[] {
  if (Array.isArray(value)) return value.map((v, i) => ({ path: `${key}.${i}`, value: v }))
  return typeof value === 'number' ? [{ path: key, value }] : []
}

/**
 * An update at a frame: channels that have a track get a key there, the rest change
 * statically; one undo step for both.
 */
function updateAnimatedEdit(doc: SceneDocument, obj: SceneObject, patch: { name?: string; params?: Record<string, ParamValue>; cage?: CageGeometry }, frame: number): Edit {
  const staticParams: Record<string, ParamValue> = {}
  const keyed: { path: string; value: number }[] = []
  for (const [key, value] of Object.entries(patch.params ?? {})) {
    const channels = channelsOf(key, value)
    const animated = channels.filter((c) => findTrack(doc, obj.id, c.path))
    if (animated.length === 0) staticParams[key] = value
    else keyed.push(...channels.filter((c) => findTrack(doc, obj.id, c.path)))
    // Unanimated components of a partly animated vector change statically.
    if (animated.length && animated.length < channels.length && Array.isArray(value)) {
      const base = [...(obj.params[key] as number[])]
      for (const c of channels) if (!findTrack(doc, obj.id, c.path)) base[Number(c.path.split('.')[1])] = c.value
      staticParams[key] = base as ParamValue
    }
  }
  const hasStatic = Object.keys(staticParams).length > 0 || patch.name !== undefined || patch.cage !== undefined
  const base = hasStatic ? updateObjectEdit(doc, obj.id, { ...patch, params: staticParams }) : { label: '', forward: {}, backward: {} }
  const forwardTracks: TrackChange[] = []
  const backwardTracks: TrackChange[] = []
  let working = doc
  for (const c of keyed) {
    const e = setKeyEdit(working, obj.id, c.path, frame, c.value, undefined)
    forwardTracks.push(...(e.forward.tracks ?? []))
    backwardTracks.unshift(...(e.backward.tracks ?? []))
    const after = e.forward.tracks?.[0]?.after
    if (after) working = { ...working, tracks: [...working.tracks.filter((t) => !(t.objectId === obj.id && t.path === c.path)), after] }
  }
  return {
    label: base.label || `Key ${obj.name} ${keyed.map((k) => k.path).join(', ')} at frame ${frame}`,
    forward: { ...base.forward, tracks: forwardTracks },
    backward: { ...base.backward, tracks: backwardTracks },
  }
}

export function deleteObjectsEdit(doc: SceneDocument, ids: string[], orders: Map<string, number>): Edit {
  const objs = ids.map((id) => findObject(doc, id))
  const idSet = new Set(ids)
  const tracks = doc.tracks.filter((t) => idSet.has(t.objectId))
  const fwdTracks: TrackChange[] = tracks.map((t) => ({ objectId: t.objectId, path: t.path, after: null }))
  const backTracks: TrackChange[] = tracks.map((t) => ({ objectId: t.objectId, path: t.path, after: t }))
  const backObjects: ObjectChange[] = objs.map((o) => ({ id: o.id, after: o, ord: orders.get(o.id) }))
  return {
    label: objs.length === 1 ? `Delete ${objs[0].name}` : `Delete ${objs.length} objects`,
    forward: { tracks: fwdTracks, objects: objs.map((o) => ({ id: o.id, after: null })) },
    backward: { objects: backObjects, tracks: backTracks },
  }
}

function trackEdit(label: string, objectId: string, path: string, before: Track | undefined, keys: Track['keys']): Edit {
  const after: Track | null = keys.length ? { objectId, path, keys } : null
  return {
    label,
    forward: { tracks: [{ objectId, path, after }] },
    backward: { tracks: [{ objectId, path, after: before ?? null }] },
  }
}

export function setKeyEdit(doc: SceneDocument, objectId: string, path: string, frame: number, value: number | undefined, interp: Interpolation | undefined): Edit {
  const obj = findObject(doc, objectId)
  const track = findTrack(doc, objectId, path)
  // Without an explicit value the key records what the channel shows at that frame.
  const v = value ?? (track && track.keys.length ? evaluateTrack(track.keys, frame) : readChannel(obj.params, path))
  if (v === undefined) throw new EddyError('INVALID_PARAM', `${obj.name} has no animatable parameter "${path}"`, { path })
  const problem = validateChannel(obj.kind, path, v)
  if (problem) throw new EddyError('INVALID_PARAM', problem, { path })
  // Cross-field rules (a vortex direction must not become the zero vector) on the keyed value.
  const keyed = validateParams(obj.kind, writeChannel(obj.params, path, v))
  if (keyed.length) invalid(keyed, `Cannot key ${obj.name} ${path}`)
  const existing = track ? findKey(track.keys, frame) : undefined
  const key: Keyframe = { frame, value: v, interp: interp ?? existing?.interp ?? 'bezier' }
  // A key given a new value keeps its shape: explicit handles move with it.
  const dv = existing ? v - existing.value : 0
  if (existing?.handleLeft) key.handleLeft = [existing.handleLeft[0], existing.handleLeft[1] + dv]
  if (existing?.handleRight) key.handleRight = [existing.handleRight[0], existing.handleRight[1] + dv]
  const keys = setKey(track?.keys ?? [], key)
  return trackEdit(`Insert key on ${obj.name} ${path} at frame ${frame}`, objectId, path, track, keys)
}

export function deleteKeyEdit(doc: SceneDocument, objectId: string, path: string, frame: number): Edit {
  const obj = findObject(doc, objectId)
  const track = findTrack(doc, objectId, path)
  if (!track || !findKey(track.keys, frame)) throw new EddyError('NOT_FOUND', `${obj.name} has no key on ${path} at frame ${frame}`, { path })
  return trackEdit(`Delete key on ${obj.name} ${path} at frame ${frame}`, objectId, path, track, deleteKey(track.keys, frame))
}

export function setInterpEdit(doc: SceneDocument, objectId: string, path: string, frame: number, interp: Interpolation): Edit {
  const obj = findObject(doc, objectId)
  const track = findTrack(doc, objectId, path)
  const key = track ? findKey(track.keys, frame) : undefined
  if (!track || !key) throw new EddyError('NOT_FOUND', `${obj.name} has no key on ${path} at frame ${frame}`, { path })
  const keys = setKey(track.keys, { ...key, interp })
  return trackEdit(`Set ${obj.name} ${path} interpolation to ${interp}`, objectId, path, track, keys)
}

export function setHandlesEdit(
  doc: SceneDocument,
  objectId: string,
  path: string,
  frame: number,
  handleLeft: [number, number] | null,
  handleRight: [number, number] | null,
): Edit {
  const obj = findObject(doc, objectId)
  const track = findTrack(doc, objectId, path)
  const key = track ? findKey(track.keys, frame) : undefined
  if (!track || !key) throw new EddyError('NOT_FOUND', `${obj.name} has no key on ${path} at frame ${frame}`, { path })
  if (handleLeft && handleLeft[0] > key.frame) throw new EddyError('INVALID_PARAM', `The left handle of the key at frame ${frame} must not lie after it (frame ${handleLeft[0]})`, { path })
  if (handleRight && handleRight[0] < key.frame) throw new EddyError('INVALID_PARAM', `The right handle of the key at frame ${frame} must not lie before it (frame ${handleRight[0]})`, { path })
  const next: Keyframe = { frame: key.frame, value: key.value, interp: key.interp }
  if (handleLeft) next.handleLeft = [handleLeft[0], handleLeft[1]]
  if (handleRight) next.handleRight = [handleRight[0], handleRight[1]]
  return trackEdit(`Shape ${obj.name} ${path} key at frame ${frame}`, objectId, path, track, setKey(track.keys, next))
}

export function setMetaEdit(doc: SceneDocument, patch: Partial<ProjectMeta>): Edit {
  const after = { ...doc.meta, ...patch }
  const issues = validateMeta(after)
  if (issues.length) invalid(issues, 'Invalid project settings')
  return {
    label: `Change ${Object.keys(patch).join(', ')}`,
    forward: { meta: after },
    backward: { meta: doc.meta },
  }
}
