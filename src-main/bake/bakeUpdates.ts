// The 'bake.update' events of the service: the whole cache status when a bake is queued,
// starts or ends, and increments while it runs (the frames written since the previous
// update), so watching a long bake costs each update only its new frames
// (src-shared/api/bakeSchemas.ts describes the event, bakeMerge.ts folds it in).
import type { EventPayload } from '../../src-shared/api/contract'
import type { SceneDocument } from '../../src-shared/scene/types'
import type { FrameCache } from '../store/frameCache'
import type { BakeDelta, BakeJobView } from './bakeManager'
import { cacheIncrement, cacheStatus, withLiveState } from './status'

export type BakeUpdatePayload = EventPayload<'bake.update'>

/** The open project, when there is one: its cache and its document as the service holds it now. */
export interface OpenProject {
  path: string
  cache: FrameCache
  doc: SceneDocument
}

export class BakeUpdates {
  /**
   * The document each running bake was started under (by project path and domain). The
   * worker reads the project file after it is queued, so while the service's document is
   * still this object the worker signed its frames with the scene's own chain; after an edit
   * (a new document object) increments compare stored signatures.
   */
  private readonly startedUnder = new Map<string, SceneDocument>()

  payload(job: BakeJobView, delta: BakeDelta, open: OpenProject | null, running: boolean): BakeUpdatePayload {
    const key = `${job.projectPath}\n${job.domainId}`
    const mine = open && open.path === job.projectPath ? open : null
    if (job.seq === 1) {
      if (mine) this.startedUnder.set(key, mine.doc)
      else this.startedUnder.delete(key)
    }
    if (!running) this.startedUnder.delete(key)
    if (!mine) return { kind: 'full', job, status: null }
    try {
      if (!delta.full) {
        const inc = cacheIncrement(mine.doc, mine.cache, job.domainId, delta.frames, this.startedUnder.get(key) === mine.doc)
        if (inc) {
          const { log: _whole, ...rest } = job
          return { kind: 'frames', job: rest, log: delta.log, ...inc }
        }
      }
      return { kind: 'full', job, status: withLiveState(cacheStatus(mine.doc, mine.cache, job.domainId), running) }
    } catch {
      return { kind: 'full', job, status: null } // the project is closing; the job alone still tells the panel
    }
  }
}
