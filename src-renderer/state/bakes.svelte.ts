// Bake, cache and export state of the open project, as the main side reports it: the cache
// ranges of every simulation domain (cached / stale / missing, checkpoints, timings) and the
// running or last bake and export jobs. Refreshed by 'bake.update' / 'export.update' events
// and after every project change (an edit can make frames stale). While a bake runs its
// updates are increments (the frames written since the previous one), folded into the
// status held here; a missed one makes it re-read everything.
import { applyFramesUpdate, applyJobUpdate, incrementOrder } from '../../src-shared/api/bakeMerge'
import type { EventPayload, RequestResult } from '../../src-shared/api/contract'
import type { SceneObject, Wedge } from '../../src-shared/scene/types'
import { hostsSimulations } from '../../src-shared/sim/registry'
import { parseBakeKey } from '../../src-shared/sim/wedge'
import { app } from './app.svelte'

export type CacheStatus = RequestResult<'bake.status'>['caches'][number]
export type BakeJob = RequestResult<'bake.status'>['jobs'][number]
export type ExportJob = EventPayload<'export.update'>['job']

/** A wedge variant that has a bake (its key's cache status is reported). */
export interface BakedVariant {
  wedge: Wedge
  k: number
  key: string
  status: CacheStatus
}

class BakeState {
  caches = $state<Record<string, CacheStatus>>({})
  jobs = $state<Record<string, BakeJob>>({})
  exports = $state<Record<string, ExportJob>>({})
  /** Bumped whenever cached frames change (a frame written, a clear): the viewport re-reads. */
  cacheVersion = $state(0)
  private refreshing: Promise<void> | null = null
  private again = false

  /** The simulation the timeline and the viewport show: the selected host, else the first. */
  get activeDomain(): SceneObject | null {
    const sel = app.selected
    if (sel && hostsSimulations(sel.kind)) return sel
    return app.objects.find((o) => hostsSimulations(o.kind)) ?? null
  }

  get activeStatus(): CacheStatus | null {
    const d = this.activeDomain
    return d ? (this.caches[d.id] ?? null) : null
  }

  isCached(domainId: string, frame: number): boolean {
    const s = this.caches[domainId]
    return !!s && s.cached.some(([a, b]) => frame >= a && frame <= b)
  }

  isBaking(domainId: string): boolean {
    const p = this.jobs[domainId]?.phase
    return p === 'queued' || p === 'running'
  }

  /**
   * The baked variants of a host's current wedges, in wedge order then variant number.
   * Variants of a removed wedge keep their rows in the cache but are not listed.
   */
  variantsOf(host: SceneObject): BakedVariant[] {
    const wedges = host.wedges ?? []
    const out: BakedVariant[] = []
    for (const [key, status] of Object.entries(this.caches)) {
      const v = variantOfKey(key)
      if (!v || v.hostId !== host.id) continue
      const wedge = wedges.find((w) => w.id === v.wedgeId)
      if (wedge) out.push({ wedge, k: v.k, key, status })
    }
    const order = (b: BakedVariant) => wedges.indexOf(b.wedge)
    return out.sort((a, b) => order(a) - order(b) || a.k - b.k)
  }

  /** Re-reads every domain's cache status; coalesces bursts of calls into one request after another. */
  refresh(): Promise<void> {
    if (this.refreshing) {
      this.again = true
      return this.refreshing
    }
    this.refreshing = (async () => {
      do {
        this.again = false
        if (!app.api || !app.project) {
          this.caches = {}
          this.jobs = {}
          return
        }
        try {
          const r = await app.api.call('bake.status', {})
          this.caches = Object.fromEntries(r.caches.map((c) => [c.domainId, c]))
          this.jobs = Object.fromEntries(r.jobs.map((j) => [j.domainId, j]))
          this.cacheVersion++
        } catch {
          // the project closed meanwhile; the next change refreshes again
        }
      } while (this.again)
    })().finally(() => (this.refreshing = null))
    return this.refreshing
  }

  onBakeUpdate(p: EventPayload<'bake.update'>): void {
    if (p.job.projectPath !== app.project?.path) return
    const id = p.job.domainId
    if (p.kind === 'full') {
      this.jobs = { ...this.jobs, [id]: p.job }
      if (p.status) {
        const before = this.caches[id]
        this.caches = { ...this.caches, [id]: p.status }
        if (JSON.stringify(before?.cached) !== JSON.stringify(p.status.cached)) this.cacheVersion++
      }
      return
    }
    const order = incrementOrder(this.jobs[id], p)
    if (order === 'old') return
    this.jobs = { ...this.jobs, [id]: applyJobUpdate(this.jobs[id], p) }
    const held = this.caches[id]
    if (held) {
      this.caches = { ...this.caches, [id]: applyFramesUpdate(held, p) }
      if (p.cached.length || p.stale.length) this.cacheVersion++
    }
    if (order === 'gap' || !held) void this.refresh()
  }

  onExportUpdate(p: EventPayload<'export.update'>): void {
    this.exports = { ...this.exports, [p.job.domainId]: p.job }
  }
}

/** The host, wedge and number of a variant's bake key; null for a host's own key. */
function variantOfKey(key: string): { hostId: string; wedgeId: string; k: number } | null {
  try {
    const { hostId, variant } = parseBakeKey(key)
    return variant ? { hostId, ...variant } : null
  } catch {
    return null // not a key this renderer knows how to read
  }
}

export const bakes = new BakeState()

// Any project change (edit, undo, open, close) may make frames stale or switch projects.
app.onProjectSet = () => void bakes.refresh()
