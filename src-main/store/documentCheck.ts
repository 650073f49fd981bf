// Every row of a project checked against the specs before the app switches to it: a file that
// passes SQLite's own checks can still hold a setting out of range, an object with a value no
// edit would have accepted, or data of the wrong shape. Each problem is PROJECT_FORMAT naming
// its row (table, object id and name, or setting key), so the artist knows what is damaged.
// Missing parameters are fine (older files: defaults fill them); so are parameters this build
// does not know (a solver family of another build), which nothing here reads.
import { EddyError } from '../../src-shared/api/errors'
import { KIND_SPECS, specFor } from '../../src-shared/scene/specs'
import { INTERPOLATIONS, OBJECT_KINDS, type SceneDocument, type SceneObject } from '../../src-shared/scene/types'
import { validateCage, validateMeta, validateParam } from '../../src-shared/scene/validate'
import { parseChannel } from '../../src-shared/scene/keyframes'
import { wedge } from '../../src-shared/api/schemas'

export function checkDocument(doc: SceneDocument, path: string): void {
  const damaged = (what: string, details: Record<string, unknown>): EddyError => new EddyError('PROJECT_FORMAT', `${path} is damaged: ${what}`, { path, ...details })

  const meta = validateMeta(doc.meta)
  if (meta.length > 0) throw damaged(`project setting '${meta[0].path}' is invalid: ${meta[0].message}`, { table: 'meta', key: meta[0].path })

  const objects = new Map<string, SceneObject>()
  const meshIds = new Set(doc.meshes.map((m) => m.id))
  for (const o of doc.objects) {
    const name = typeof o.name === 'string' ? o.name : '?'
    const at = { table: 'objects', id: o.id, name }
    const what = `object "${name}" (id ${o.id})`
    if (typeof o.name !== 'string') throw damaged(`${what} has no name`, at)
    if (!(OBJECT_KINDS as readonly string[]).includes(o.kind)) throw damaged(`${what} is of unknown kind "${String(o.kind)}"`, at)
    if (typeof o.params !== 'object' || o.params === null || Array.isArray(o.params)) throw damaged(`${what} has no parameters`, at)
    for (const spec of KIND_SPECS[o.kind].params) {
      if (!Object.hasOwn(o.params, spec.key)) continue
      const problem = validateParam(spec, o.params[spec.key])
      if (problem) throw damaged(`${what}: ${problem}`, { ...at, key: spec.key })
    }
    if (o.cage !== undefined) {
      const cage = o.cage as unknown as { positions?: unknown; faces?: unknown }
      if (!Array.isArray(cage.positions) || !Array.isArray(cage.faces) || !cage.faces.every(Array.isArray)) throw damaged(`${what} has a cage of the wrong shape`, { ...at, key: 'cage' })
      const issues = validateCage(o.cage)
      if (issues.length > 0) throw damaged(`${what}: ${issues[0].message}`, { ...at, key: 'cage' })
    }
    if (o.meshId !== undefined && (typeof o.meshId !== 'string' || !meshIds.has(o.meshId))) throw damaged(`${what} uses mesh ${String(o.meshId)}, which the file does not hold`, { ...at, key: 'meshId' })
    if (o.hidden !== undefined && typeof o.hidden !== 'boolean') throw damaged(`${what} has a visibility of ${JSON.stringify(o.hidden)}, not true or false`, { ...at, key: 'hidden' })
    if (o.wedges !== undefined) {
      // Shape only: a wedge that no longer fits the scene (its object deleted) opens, and its bake says why.
      const bad = Array.isArray(o.wedges) ? o.wedges.findIndex((w) => !wedge.safeParse(w).success) : 0
      if (bad >= 0) throw damaged(`${what} has a wedge of the wrong shape${Array.isArray(o.wedges) ? ` (wedge ${bad + 1})` : ''}`, { ...at, key: 'wedges' })
    }
    objects.set(o.id, o)
  }

  for (const t of doc.tracks) {
    const o = objects.get(t.objectId)
    const at = { table: 'tracks', id: t.objectId, name: o?.name, key: t.path }
    const what = `the animation of ${t.path} on object "${o?.name ?? '?'}" (id ${t.objectId})`
    if (!o) throw damaged(`${what} belongs to no object`, at)
    if (!Array.isArray(t.keys)) throw damaged(`${what} has no keys`, at)
    const { key } = parseChannel(t.path)
    if (!specFor(o.kind, key)) continue // a parameter of another build's solver: not read here
    for (const k of t.keys) {
      const ok =
        typeof k === 'object' && k !== null && Number.isFinite(k.frame) && Number.isFinite(k.value) && (INTERPOLATIONS as readonly string[]).includes(k.interp)
      if (!ok) throw damaged(`${what} has a malformed key`, at)
    }
  }
}
