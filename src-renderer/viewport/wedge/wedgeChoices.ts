// Which wedges of a simulation can be viewed side by side, and which of their variants: a
// wedge qualifies once at least two of its variants have cached frames; the grid shows the
// first MAX_GRID_CELLS of those, in variant order. Pure (documents and cache statuses in,
// plain data out), so it is unit tested without Svelte or Babylon.
import type { SceneDocument, SceneObject, Wedge } from '../../../src-shared/scene/types'
import { bakeKey, variantLabel, variantNumbers, variantTag } from '../../../src-shared/sim/wedge'
import { MAX_GRID_CELLS } from './gridLayout'

type Ranges = readonly (readonly [number, number])[]

/** What the grid needs of a bake key's cache status (bakes.caches entries fit). */
export interface KeyStatus {
  state: string
  cached: Ranges
}

export interface GridVariant {
  /** The bake key: what 'cache.display' is asked for. */
  key: string
  k: number
  /** "rates_v2" */
  tag: string
  /** "Rate 2" */
  label: string
  cached: Ranges
  /** Changes whenever the variant's cached frames do (a re-bake, an edit that made them stale): its frame is re-read. */
  sig: string
}

export interface WedgeChoice {
  wedge: Wedge
  /** Variants with cached frames, all of them (the grid shows `variants`). */
  baked: number
  /** The first MAX_GRID_CELLS baked variants. */
  variants: GridVariant[]
}

export function wedgeChoices(doc: SceneDocument, host: SceneObject, caches: Readonly<Record<string, KeyStatus | undefined>>): WedgeChoice[] {
  const out: WedgeChoice[] = []
  for (const w of host.wedges ?? []) {
    const baked: GridVariant[] = []
    for (const k of variantNumbers(w)) {
      const key = bakeKey(host.id, w.id, k)
      const st = caches[key]
      if (!st || st.cached.length === 0) continue
      baked.push({ key, k, tag: variantTag(w, k), label: variantLabel(doc, w, k), cached: st.cached, sig: `${st.state} ${JSON.stringify(st.cached)}` })
    }
    if (baked.length >= 2) out.push({ wedge: w, baked: baked.length, variants: baked.slice(0, MAX_GRID_CELLS) })
  }
  return out
}
