// What the wedge editor offers and how it reads what the artist types: the objects and
// channels a host's wedge may vary, a fresh wedge, and the value and subset fields' text.
// The checks that decide whether a wedge can bake are wedgeProblem's (src-shared/sim/wedge.ts);
// here only the text is turned into numbers.
import { evaluateObject, readChannel } from '../../src-shared/scene/keyframes'
import { KIND_SPECS, specVisible } from '../../src-shared/scene/specs'
import type { SceneDocument, SceneObject, Wedge, WedgeParameter } from '../../src-shared/scene/types'
import { familyOf } from '../../src-shared/sim/registry'
import { formatNumbers } from '../../src-shared/sim/wedge'
import { formatNumber } from './paramEdit'

export interface ChannelChoice {
  path: string
  label: string
}

const AXES = ['X', 'Y', 'Z'] as const

/** The host and the objects its solver reads (a wedge on anything else would change nothing). */
export function wedgeTargets(doc: SceneDocument, host: SceneObject): SceneObject[] {
  let reads: readonly string[] = []
  try {
    reads = familyOf(doc, host.id).reads
  } catch {
    // no known solver: only the host's own parameters
  }
  return [host, ...doc.objects.filter((o) => o.id !== host.id && reads.includes(o.kind))]
}

/**
 * An object's numeric channels as the inspector shows them now: floats and ints, and each
 * component of a vector ("Position X" → "position.0"); menus and switches cannot be wedged.
 */
export function channelChoices(doc: SceneDocument, obj: SceneObject, frame: number): ChannelChoice[] {
  const values = evaluateObject(obj, doc.tracks, frame)
  const out: ChannelChoice[] = []
  for (const spec of KIND_SPECS[obj.kind].params) {
    if (!specVisible(spec, values, obj.kind)) continue
    if (spec.type === 'float' || spec.type === 'int') out.push({ path: spec.key, label: spec.label })
    else if (spec.type === 'vec3') AXES.forEach((a, i) => out.push({ path: `${spec.key}.${i}`, label: `${spec.label} ${a}` }))
  }
  return out
}

/** A parameter row on `path` of `obj`, starting from the value the artist sees now. */
export function parameterAt(doc: SceneDocument, obj: SceneObject, path: string, frame: number): WedgeParameter {
  const v = readChannel(evaluateObject(obj, doc.tracks, frame), path)
  return { objectId: obj.id, path, values: v === undefined ? [] : [v] }
}

/**
 * The first channel of the host not yet varied by `w` (a new wedge, or Add parameter):
 * scalars first, since a domain's first channels are its position and size.
 */
export function nextParameter(doc: SceneDocument, host: SceneObject, frame: number, w?: Wedge): WedgeParameter | null {
  const used = new Set((w?.parameters ?? []).map((p) => `${p.objectId}/${p.path}`))
  for (const obj of wedgeTargets(doc, host)) {
    const free = channelChoices(doc, obj, frame).filter((c) => !used.has(`${obj.id}/${c.path}`))
    const pick = free.find((c) => !c.path.includes('.')) ?? free[0]
    if (pick) return parameterAt(doc, obj, pick.path, frame)
  }
  return null
}

/** Eight random lower-case letters and digits: wedge ids end up in bake keys and file names. */
export function newWedgeId(): string {
  const abc = 'abcdefghijklmnopqrstuvwxyz0123456789'
  const bytes = crypto.getRandomValues(new Uint8Array(8))
  return Array.from(bytes, (b) => abc[b % abc.length]).join('')
}

/** "wedge1", "wedge2", ...: the first not taken on this host. */
export function newWedgeName(existing: readonly Wedge[]): string {
  const names = new Set(existing.map((w) => w.name))
  let n = 1
  while (names.has(`wedge${n}`)) n++
  return `wedge${n}`
}

export type Parsed<T> = { ok: true; value: T } | { ok: false; message: string }

/** "0.5, 1, 2" (commas, semicolons or spaces between): an empty list is wedgeProblem's to name. */
export function parseValues(text: string): Parsed<number[]> {
  const parts = text.split(/[,;\s]+/).filter((s) => s !== '')
  const out: number[] = []
  for (const s of parts) {
    const n = Number(s)
    if (!Number.isFinite(n)) return { ok: false, message: `"${s}" is not a number: list values like 0.5, 1, 2` }
    out.push(n)
  }
  return { ok: true, value: out }
}

export function formatValues(values: readonly number[]): string {
  return values.map((v) => formatNumber(v)).join(', ')
}

/** "1-3, 7" → [1, 2, 3, 7]; empty text clears the subset (every variant bakes). */
export function parseSubset(text: string): Parsed<number[] | undefined> {
  const parts = text.split(/[,;\s]+/).filter((s) => s !== '')
  if (parts.length === 0) return { ok: true, value: undefined }
  const out: number[] = []
  for (const s of parts) {
    const m = /^(\d+)(?:-(\d+))?$/.exec(s)
    if (!m) return { ok: false, message: `Subset: "${s}" is not a variant number or a range like 2-5` }
    const a = Number(m[1])
    const b = m[2] === undefined ? a : Number(m[2])
    if (b < a) return { ok: false, message: `Subset: the range ${s} runs backwards (write ${b}-${a})` }
    if (b - a > 1000) return { ok: false, message: `Subset: the range ${s} is longer than any wedge` }
    for (let k = a; k <= b; k++) out.push(k)
  }
  return { ok: true, value: [...new Set(out)].sort((x, y) => x - y) }
}

export function formatSubset(subset: readonly number[] | undefined): string {
  return subset ? formatNumbers([...new Set(subset)].sort((a, b) => a - b)) : ''
}
