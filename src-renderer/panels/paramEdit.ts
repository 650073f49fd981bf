// How an inspector edit reaches the services: a static value (object.update) or, on an
// animated channel, a key at the current frame: the key already there, or a new one while
// auto-key is on (Blender's record button).
// Range errors from the services come back as a message for the field, not a toast.
import { isEddyError } from '../../src-shared/api/errors'
import { findKey } from '../../src-shared/scene/keyframes'
import type { ParamValue, SceneObject, Track, Vec3 } from '../../src-shared/scene/types'
import { app } from '../state/app.svelte'
import { request } from './commands'

export function trackFor(objectId: string, path: string): Track | undefined {
  return app.tracks.find((t) => t.objectId === objectId && t.path === path && t.keys.length > 0)
}

export type KeyState = 'key' | 'animated' | 'none'

export function keyState(objectId: string, path: string, frame: number): KeyState {
  const track = trackFor(objectId, path)
  if (!track) return 'none'
  return findKey(track.keys, frame) ? 'key' : 'animated'
}

/** Does an INVALID_PARAM error's details.path point at this parameter (or one of its components)? */
function pointsAt(details: Record<string, unknown> | undefined, key: string): boolean {
  const p = details?.path
  const path = Array.isArray(p) ? p.join('.') : typeof p === 'string' ? p : ''
  return path === key || path.startsWith(key + '.') || path.endsWith('.' + key)
}

/**
 * Sends a request for a field. Returns null on success, or the message to show next to the
 * field when the services rejected the value for this parameter; other failures are toasts.
 */
async function send(key: string, run: () => Promise<unknown>): Promise<string | null> {
  try {
    await run()
    return null
  } catch (e) {
    if (isEddyError(e) && e.code === 'INVALID_PARAM' && pointsAt(e.details, key)) return e.message
    app.showError(e)
    return null
  }
}

/** Commits one numeric channel ("rate", "position.1"). */
export function commitChannel(obj: SceneObject, key: string, component: number | null, value: number): Promise<string | null> {
  const path = component === null ? key : `${key}.${component}`
  if (trackFor(obj.id, path)) {
    const blocked = needsAutoKey(obj.id, [path])
    if (blocked.length) return Promise.resolve(autoKeyMessage(obj.id, blocked))
    return send(key, () => request('key.set', { objectId: obj.id, path, frame: app.frame, value }))
  }
  let next: ParamValue = value
  if (component !== null) {
    const old = obj.params[key]
    const vec: Vec3 = Array.isArray(old) ? [old[0], old[1], old[2]] : [0, 0, 0]
    vec[component] = value
    next = vec
  }
  return commitParam(obj, key, next)
}

/**
 * The animated channels among `paths` that have no key at the current frame: with auto-key
 * off they cannot take a new value (there is nothing at this frame to hold it).
 */
export function needsAutoKey(objectId: string, paths: readonly string[]): string[] {
  if (app.autoKey) return []
  return paths.filter((p) => keyState(objectId, p, app.frame) === 'animated')
}

/** What the field (or a toast, for a gizmo drag) says when auto-key is off. */
export function autoKeyMessage(objectId: string, paths: readonly string[]): string {
  const name = app.objects.find((o) => o.id === objectId)?.name ?? 'This object'
  return `${name} ${paths.join(', ')} ${paths.length > 1 ? 'are' : 'is'} animated and has no key at frame ${app.frame}: turn on auto-key (● in the timeline) or click the diamond to key it`
}

/** Commits a whole (static) parameter value. */
export function commitParam(obj: SceneObject, key: string, value: ParamValue): Promise<string | null> {
  return send(key, () => request('object.update', { id: obj.id, patch: { params: { [key]: value } } }))
}

/** Toggles the key at the current frame on one channel. */
export async function toggleKey(obj: SceneObject, path: string, value: number): Promise<void> {
  if (keyState(obj.id, path, app.frame) === 'key') await app.run('key.delete', { objectId: obj.id, path, frame: app.frame })
  else await app.run('key.set', { objectId: obj.id, path, frame: app.frame, value })
}

/** Number shown in a field: up to 6 significant digits, no trailing zeros. */
export function formatNumber(n: number, integer = false): string {
  if (!Number.isFinite(n)) return String(n)
  if (integer) return String(Math.round(n))
  return String(Number.parseFloat(n.toPrecision(6)))
}
