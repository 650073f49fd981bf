// The cached, still-valid frames of one simulation as an ExportSource. Stale frames (the
// scene changed since they were baked) are not offered: exporting them would hand another
// tool a result that no longer matches the scene.
import { EddyError } from '../../src-shared/api/errors'
import { decodeFrame } from '../../src-shared/formats/frameRecord'
import { hostsSimulations } from '../../src-shared/sim/registry'
import { cacheStatus } from '../bake/status'
import type { ProjectStore } from '../store/projectStore'
import type { FrameCache } from '../store/frameCache'
import { bakeTarget, parseBakeKey, variantTag } from '../../src-shared/sim/wedge'
import type { ExportSource } from './exportOptions'

/**
 * `domainId` is a bake key: a wedge variant exports under the domain's name and the variant's
 * tag ("Smoke_rates_v03"), so every file name carries the variant. `cache`: a farm task's
 * cache file instead of the project's own cache.
 */
export function cacheExportSource(store: ProjectStore, domainId: string, range?: { frameStart?: number; frameEnd?: number }, cache: FrameCache = store.cache): ExportSource {
  const sceneDoc = store.readDocument()
  const { hostId, variant } = parseBakeKey(domainId)
  const host = sceneDoc.objects.find((o) => o.id === hostId && hostsSimulations(o.kind))
  if (!host) throw new EddyError('NOT_FOUND', `There is no simulation domain with id ${hostId}`, { field: 'domainId' })
  const target = bakeTarget(sceneDoc, domainId)
  const domain = variant && target.variant ? { name: `${host.name}_${variantTag(target.variant.wedge, target.variant.k)}` } : host
  const doc = sceneDoc
  const status = cacheStatus(doc, cache, domainId)
  if (status.cached.length === 0 && status.stale.length === 0) {
    throw new EddyError('NOT_FOUND', `"${domain.name}" has no cached frames; bake it before exporting`, { field: 'domainId' })
  }
  const lo = range?.frameStart ?? -Infinity
  const hi = range?.frameEnd ?? Infinity
  const stale = status.stale.filter(([a, b]) => b >= lo && a <= hi)
  if (stale.length > 0) {
    const list = stale.map(([a, b]) => (a === b ? `${a}` : `${a}-${b}`)).join(', ')
    throw new EddyError('INVALID_PARAM', `Frames ${list} of "${domain.name}" are stale (the scene changed since they were baked); re-bake them or choose another range`, {
      field: 'frameStart',
    })
  }
  const frames: number[] = []
  for (const [a, b] of status.cached) for (let f = a; f <= b; f++) frames.push(f)
  return {
    simName: domain.name,
    fps: doc.meta.fps,
    frames,
    read: (frame) => decodeFrame(cache.readFrame(domainId, frame)),
  }
}
