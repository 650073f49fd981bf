// API handlers of the bake panel, the timeline's cache ranges and the viewport's frame
// reads. Bakes run in worker threads (src-main/bake/bakeManager.ts); everything here reads
// the open project's cache through the host's own connection.
import { resolve } from 'node:path'
import type { ExportJobs } from '../export/exportJobs'
import { EddyError } from '../../src-shared/api/errors'
import type { Handlers } from '../../src-shared/api/dispatch'
import { familyOf, hostsSimulations } from '../../src-shared/sim/registry'
import { chooseKernels } from '../bake/kernelChoice'
import { bakeTarget, parseBakeKey, type BakeTarget } from '../../src-shared/sim/wedge'
import type { SceneDocument } from '../../src-shared/scene/types'
import type { BakeManager } from '../bake/bakeManager'
import { checkFits, estimateBake, machineBudget } from '../bake/estimate'
import { DEFAULT_CHECKPOINT_EVERY, DEFAULT_PRECISION } from '../bake/runner'
import { cacheStatus, type CacheStatus, withLiveState } from '../bake/status'
import type { ProjectStore } from '../store/projectStore'

type BakeHandlerKeys = 'bake.estimate' | 'bake.start' | 'bake.cancel' | 'bake.clear' | 'bake.status' | 'cache.frame' | 'cache.display' | 'export.start' | 'export.cancel'

export interface BakeContext {
  requireStore(): { store: ProjectStore; doc: SceneDocument }
  bakes: BakeManager
  exports: ExportJobs
}

/**
 * The bake key must name an object that hosts a simulation (a kind some registered family
 * hosts), or a variant of one of its wedges; returns what it bakes.
 */
function requireDomain(doc: SceneDocument, domainId: string): BakeTarget {
  const { hostId } = parseBakeKey(domainId)
  const o = doc.objects.find((x) => x.id === hostId)
  if (!o) throw new EddyError('NOT_FOUND', `There is no object with id ${hostId}`, { field: 'domainId' })
  if (!hostsSimulations(o.kind)) throw new EddyError('INVALID_PARAM', `"${o.name}" is not a simulation domain`, { field: 'domainId' })
  return bakeTarget(doc, domainId)
}

/** Estimate against this machine; `problem` holds the refusal sentence when it does not fit. */
function estimateFor(ctx: BakeContext, domainId: string) {
  const { store, doc: sceneDoc } = ctx.requireStore()
  const { doc, hostId } = requireDomain(sceneDoc, domainId)
  const settings = store.cache.bake(domainId)?.settings
  const frames = doc.meta.frameEnd - doc.meta.frameStart + 1
  const e = estimateBake(doc, hostId, frames, settings?.precision ?? DEFAULT_PRECISION, settings?.checkpointEvery ?? DEFAULT_CHECKPOINT_EVERY)
  const budget = machineBudget(store.path, ctx.bakes.reservedMemory())
  let problem: string | null = null
  try {
    checkFits(e, budget, chooseKernels(familyOf(doc, hostId).kernels, undefined, e.memoryBytes).kind)
  } catch (err) {
    if (!(err instanceof EddyError)) throw err
    problem = err.message
  }
  return { ...e, budget: { memoryBytes: budget.memoryBytes, diskBytes: Number.isFinite(budget.diskBytes) ? budget.diskBytes : null }, problem }
}

/**
 * Cache status of every domain of the open project, then of every wedge variant with a bake
 * (a variant never baked has no status: the timeline shows nothing for it).
 */
export function allCacheStatus(store: ProjectStore, doc: SceneDocument, bakes: BakeManager): CacheStatus[] {
  const hosts = doc.objects.filter((o) => hostsSimulations(o.kind))
  const hostIds = new Set(hosts.map((o) => o.id))
  const variants = store.cache
    .bakes()
    .map((b) => b.domainId)
    .filter((key) => {
      try {
        const { hostId, variant } = parseBakeKey(key)
        return variant !== null && hostIds.has(hostId)
      } catch {
        return false
      }
    })
  return [...hosts.map((o) => o.id), ...variants].map((key) => withLiveState(cacheStatus(doc, store.cache, key), bakes.isBaking(key)))
}

export function makeBakeHandlers(ctx: BakeContext): Pick<Handlers, BakeHandlerKeys> {
  return {
    'bake.estimate': ({ domainId }) => estimateFor(ctx, domainId),

    'bake.start': ({ domainId, mode, from, to }) => {
      const { store } = ctx.requireStore()
      const e = estimateFor(ctx, domainId)
      if (e.problem) throw new EddyError('RESOURCE_LIMIT', e.problem, { field: e.lower.key })
      if (mode !== 'bake' && !store.cache.bake(domainId)) throw new EddyError('NOT_FOUND', 'This simulation has not been baked yet; Bake it first', { field: 'mode' })
      return ctx.bakes.start({ projectPath: store.path, domainId, mode, from, to }, e.memoryBytes)
    },

    'bake.cancel': async ({ domainId }) => {
      const cancelled = await ctx.bakes.cancel(domainId)
      return { cancelled, job: ctx.bakes.job(domainId) }
    },

    'bake.clear': ({ domainId }) => {
      const { store, doc } = ctx.requireStore()
      requireDomain(doc, domainId)
      if (ctx.bakes.isBaking(domainId)) throw new EddyError('INVALID_PARAM', 'This simulation is baking; cancel it before clearing its cache', { field: 'domainId' })
      store.cache.deleteBake(domainId)
      ctx.bakes.forget(domainId)
      return cacheStatus(doc, store.cache, domainId)
    },

    'bake.status': () => {
      const { store, doc } = ctx.requireStore()
      return { jobs: ctx.bakes.jobs(store.path), caches: allCacheStatus(store, doc, ctx.bakes) }
    },

    'cache.frame': ({ domainId, frame }) => ctx.requireStore().store.cache.readFrame(domainId, frame),

    'cache.display': ({ domainId, frame }) => {
      const { cache } = ctx.requireStore().store
      // With a preview the viewport draws no volume of the record: the record without them
      // (stored at bake time) is all it needs; otherwise the whole record.
      const shown = cache.readDisplay(domainId, frame)
      const preview = shown?.preview ?? null
      const record = shown ? shown.record : cache.readFrame(domainId, frame)
      const out = new Uint8Array(4 + (preview?.length ?? 0) + record.length)
      new DataView(out.buffer).setUint32(0, preview?.length ?? 0, true)
      if (preview) out.set(preview, 4)
      out.set(record, 4 + (preview?.length ?? 0))
      return out
    },

    'export.start': ({ domainId, outDir, ...rest }) => ctx.exports.start(ctx.requireStore().store, domainId, { ...rest, outDir: resolve(outDir) }),

    'export.cancel': async ({ domainId }) => {
      const cancelled = await ctx.exports.cancel(domainId)
      return { cancelled, job: ctx.exports.job(domainId) }
    },
  }
}
