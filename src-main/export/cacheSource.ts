// The cached, still-valid frames of one simulation as an ExportSource. Stale frames (the
// scene changed since they were baked) are not offered: exporting them would hand another
// tool a result that no longer matches the scene.
import { EddyError } from '../../src-shared/api/errors'
import { decodeFrame } from '../../src-shared/formats/frameRecord'
import { hostsSimulations } from '../../src-shared/sim/registry'
import { cacheStatus } from '../bake/status'
import type { ProjectStore } from '../store/projectStore'
import type { ExportSource } from './exportOptions'

export function cacheExportSource(store: ProjectStore, domainId: string, range?: { frameStart?: number; frameEnd?: number }): ExportSource {
  const doc = store.readDocument()
  const domain = doc.objects.find((o) => o.id === domainId && hostsSimulations(o.kind))
  if (!domain) throw new EddyError('NOT_FOUND', `There is no simulation domain with id ${domainId}`, { field: 'domainId' })
  const status = cacheStatus(doc, store.cache, domainId)
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
    read: (frame) => decodeFrame(store.cache.readFrame(domainId, frame)),
  }
}
