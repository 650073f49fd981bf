// Wedges: parameter sweeps on a simulation (Houdini's Wedge ROP). A wedge lives on its host
// (a domain) and lists parameters of the host or of the objects its solver reads, each with
// a list of values or a start/stop/count. The variants are the product of those lists,
// numbered 1..N with the last parameter varying fastest; a subset keeps some of them under
// their product numbers, so "variant 7" names the same values whatever the subset is.
//
// A variant is the scene with each wedged channel held at its value for the whole bake (its
// keys, if any, are set aside): applyVariant builds that scene, and everything downstream
// (signatures, bake, cache status, export) runs on it unchanged. Each variant bakes under its
// own bake key (bakeKey), so the frame cache keeps one row set per variant beside the main one.
import { EddyError } from '../api/errors'
import { compactRanges } from '../compactRanges'
import { parseChannel, writeChannel } from '../scene/keyframes'
import { kindLabel, specFor } from '../scene/specs'
import type { SceneDocument, SceneObject, Wedge, WedgeParameter } from '../scene/types'
import { familyOf, findHost } from './registry'

export type { Wedge, WedgeParameter } from '../scene/types'

/** A farm submits one array task per variant; beyond this a sweep is a mistake, not a plan. */
export const MAX_VARIANTS = 256
export const MAX_WEDGE_PARAMETERS = 8
/** Bake keys join the host id, the wedge id and the variant number with this. */
const KEY_SEP = '~'

export function parameterValues(p: WedgeParameter): number[] {
  if (p.values) return p.values
  if (!p.range) return []
  const { start, stop, count } = p.range
  if (count <= 1) return count === 1 ? [start] : []
  const out: number[] = []
  // Rounded to 12 significant digits so 0.1-steps read 0.3, not 0.30000000000000004.
  for (let i = 0; i < count; i++) out.push(Number((start + ((stop - start) * i) / (count - 1)).toPrecision(12)))
  return out
}

/** Variants in the full product. */
export function productSize(w: Wedge): number {
  return w.parameters.reduce((n, p) => n * parameterValues(p).length, 1)
}

/** The variant numbers a wedge bakes, ascending. */
export function variantNumbers(w: Wedge): number[] {
  if (w.subset) return [...new Set(w.subset)].sort((a, b) => a - b)
  return Array.from({ length: productSize(w) }, (_, i) => i + 1)
}

/** Each parameter's value in variant `k` (1-based product number). */
export function variantValues(w: Wedge, k: number): number[] {
  const lists = w.parameters.map(parameterValues)
  const out = new Array<number>(lists.length)
  let rest = k - 1
  for (let i = lists.length - 1; i >= 0; i--) {
    out[i] = lists[i][rest % lists[i].length]
    rest = Math.floor(rest / lists[i].length)
  }
  return out
}

function objectOf(doc: SceneDocument, id: string): SceneObject | undefined {
  return doc.objects.find((o) => o.id === id)
}

/** "Rate 2, Buoyancy 1.5": the values of a variant as the viewport labels it. */
export function variantLabel(doc: SceneDocument, w: Wedge, k: number): string {
  const values = variantValues(w, k)
  return w.parameters
    .map((p, i) => {
      const o = objectOf(doc, p.objectId)
      const { key, component } = parseChannel(p.path)
      const spec = o ? specFor(o.kind, key) : undefined
      const label = `${spec?.label ?? key}${component === null ? '' : ` ${'XYZ'[component]}`}`
      return `${label} ${values[i]}`
    })
    .join(', ')
}

/** A file-name-safe tag of a variant: "<wedge>_v007" (padded to the product's digits). */
export function variantTag(w: Wedge, k: number): string {
  const name = w.name.replace(/[^A-Za-z0-9_-]+/g, '_').replace(/^_+|_+$/g, '') || 'wedge'
  return `${name}_v${String(k).padStart(String(productSize(w)).length, '0')}`
}

export function bakeKey(hostId: string, wedgeId: string, k: number): string {
  return `${hostId}${KEY_SEP}${wedgeId}${KEY_SEP}${k}`
}

export interface BakeKeyParts {
  hostId: string
  variant: { wedgeId: string; k: number } | null
}

export function parseBakeKey(key: string): BakeKeyParts {
  const parts = key.split(KEY_SEP)
  if (parts.length === 1) return { hostId: key, variant: null }
  const k = Number(parts[2])
  if (parts.length !== 3 || !parts[0] || !parts[1] || !Number.isInteger(k) || k < 1) {
    throw new EddyError('INVALID_PARAM', `"${key}" is not a simulation or a wedge variant of one`, { field: 'domainId', value: key })
  }
  return { hostId: parts[0], variant: { wedgeId: parts[1], k } }
}

export function findWedge(host: SceneObject, wedgeIdOrName: string): Wedge {
  const ws = host.wedges ?? []
  const w = ws.find((x) => x.id === wedgeIdOrName) ?? ws.find((x) => x.name === wedgeIdOrName)
  if (!w) {
    throw new EddyError('NOT_FOUND', `"${host.name}" has no wedge named "${wedgeIdOrName}" (wedges: ${ws.map((x) => `"${x.name}"`).join(', ') || 'none'})`, {
      field: 'wedge',
      value: wedgeIdOrName,
    })
  }
  return w
}

/**
 * Why a wedge cannot be baked, in the artist's words; null when it can. Checks every
 * parameter names a numeric channel of the host or of an object its solver reads, every
 * value is legal for that channel, no list is empty, and the variants number 1..256.
 */
export function wedgeProblem(doc: SceneDocument, hostId: string, w: Wedge): string | null {
  const host = findHost(doc, hostId)
  if (!w.name.trim()) return 'A wedge needs a name'
  if (w.parameters.length === 0) return `Wedge "${w.name}" has no parameters: add the parameter to vary`
  if (w.parameters.length > MAX_WEDGE_PARAMETERS) return `Wedge "${w.name}" varies ${w.parameters.length} parameters; at most ${MAX_WEDGE_PARAMETERS}`
  const family = familyOf(doc, hostId)
  const seen = new Set<string>()
  for (const p of w.parameters) {
    const o = objectOf(doc, p.objectId)
    if (!o) return `Wedge "${w.name}" varies an object that is no longer in the scene (id ${p.objectId})`
    if (o.id !== host.id && !family.reads.includes(o.kind)) return `${kindLabel(o.kind)} "${o.name}" is not read by ${host.name}'s solver, so wedging it would change nothing`
    const { key, component } = parseChannel(p.path)
    const spec = specFor(o.kind, key)
    if (!spec) return `${kindLabel(o.kind)} "${o.name}" has no parameter "${key}"`
    const what = `${spec.label} of "${o.name}"`
    if (spec.type === 'enum' || spec.type === 'bool') return `${what} is a ${spec.type === 'enum' ? 'menu' : 'switch'}, not a number: it cannot be wedged`
    if (spec.type === 'vec3' && component === null) return `${what} is a vector: wedge one component (${key}.0, ${key}.1 or ${key}.2)`
    if (spec.type !== 'vec3' && component !== null) return `${what} is not a vector, so "${p.path}" has no component`
    if (seen.has(`${o.id}/${p.path}`)) return `Wedge "${w.name}" varies ${what} twice`
    seen.add(`${o.id}/${p.path}`)
    if (p.range && p.values) return `${what}: give a list of values or a start/stop/count, not both`
    if (p.range && !(Number.isInteger(p.range.count) && p.range.count >= 1)) return `${what}: the count must be a whole number of at least 1 (got ${p.range.count})`
    const values = parameterValues(p)
    if (values.length === 0) return `${what} has an empty list of values`
    for (const v of values) {
      if (!Number.isFinite(v)) return `${what}: ${v} is not a finite number`
      if ((spec.min !== undefined && v < spec.min) || (spec.max !== undefined && v > spec.max)) return `${what}: ${v} is outside ${spec.min} to ${spec.max}${spec.unit ? ` ${spec.unit}` : ''}`
      if (spec.type === 'int' && !Number.isInteger(v)) return `${what} takes whole numbers (got ${v})`
    }
  }
  const n = productSize(w)
  if (n > MAX_VARIANTS) return `Wedge "${w.name}" makes ${n} variants; at most ${MAX_VARIANTS} (use fewer values or a subset)`
  if (w.subset) {
    if (w.subset.length === 0) return `Wedge "${w.name}" has an empty subset: list the variants to bake, or clear the subset`
    const bad = w.subset.find((k) => !Number.isInteger(k) || k < 1 || k > n)
    if (bad !== undefined) return `Wedge "${w.name}" has no variant ${bad} (its variants are 1-${n})`
  }
  return null
}

/** Throws wedgeProblem's sentence. */
export function checkWedge(doc: SceneDocument, hostId: string, w: Wedge): void {
  const problem = wedgeProblem(doc, hostId, w)
  if (problem) throw new EddyError('INVALID_PARAM', problem, { field: 'wedge', value: w.name })
}

/** The scene of variant k: each wedged channel set to its value, its keys set aside. */
export function applyVariant(doc: SceneDocument, hostId: string, w: Wedge, k: number): SceneDocument {
  checkWedge(doc, hostId, w)
  if (!variantNumbers(w).includes(k)) throw new EddyError('NOT_FOUND', `Wedge "${w.name}" has no variant ${k} (it bakes ${formatNumbers(variantNumbers(w))})`, { field: 'variant', value: k })
  const values = variantValues(w, k)
  const objects = doc.objects.map((o) => {
    let params = o.params
    w.parameters.forEach((p, i) => {
      if (p.objectId === o.id) params = writeChannel(params, p.path, values[i])
    })
    return params === o.params ? o : { ...o, params }
  })
  const wedged = new Set(w.parameters.map((p) => `${p.objectId}/${p.path}`))
  const tracks = doc.tracks.filter((t) => !wedged.has(`${t.objectId}/${t.path}`))
  return { ...doc, objects, tracks }
}

/** "1-3, 7": variant numbers as ranges. */
export function formatNumbers(ns: readonly number[]): string {
  return compactRanges(ns).join(', ')
}

const variantDocs = new WeakMap<SceneDocument, Map<string, SceneDocument>>()

export interface BakeTarget {
  key: string
  hostId: string
  /** The scene the bake runs on: the document itself, or a variant's. */
  doc: SceneDocument
  variant: { wedge: Wedge; k: number } | null
}

/**
 * What a bake key bakes. Variant scenes are built once per document version (the service
 * replaces its document on every edit), so signature chains cached per document stay cached.
 */
export function bakeTarget(doc: SceneDocument, key: string): BakeTarget {
  const { hostId, variant } = parseBakeKey(key)
  if (!variant) return { key, hostId, doc, variant: null }
  const w = findWedge(findHost(doc, hostId), variant.wedgeId)
  let byKey = variantDocs.get(doc)
  if (!byKey) variantDocs.set(doc, (byKey = new Map()))
  let vdoc = byKey.get(key)
  if (!vdoc) byKey.set(key, (vdoc = applyVariant(doc, hostId, w, variant.k)))
  return { key, hostId, doc: vdoc, variant: { wedge: w, k: variant.k } }
}

/**
 * The variant bake keys among `keys` that no wedge of the scene bakes any more (their host,
 * wedge or variant number is gone): nothing can show, export or clear them, so opening the
 * project drops their frames, as it drops meshes no object uses.
 */
export function orphanVariantKeys(doc: SceneDocument, keys: readonly string[]): string[] {
  return keys.filter((key) => {
    let parts: BakeKeyParts
    try {
      parts = parseBakeKey(key)
    } catch {
      return false
    }
    if (!parts.variant) return false
    const host = doc.objects.find((o) => o.id === parts.hostId)
    const w = host?.wedges?.find((x) => x.id === parts.variant!.wedgeId)
    return !w || parts.variant.k > productSize(w)
  })
}
