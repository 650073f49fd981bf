// What the timeline and the bake panel show for one simulation: which frames are cached and
// still valid, which are stale (their signature no longer matches the scene), where the
// checkpoints are, and the per-frame figures for the timing plot.
import type { SceneDocument } from '../../src-shared/scene/types'
import type { BakeRow, FrameCache, FrameStats } from '../store/frameCache'
import { frameSignatures } from './signature'

export type FrameRange = [number, number]

export interface CacheStatus {
  domainId: string
  state: BakeRow['state'] | 'none'
  message: string | null
  frameStart: number
  frameEnd: number
  cached: FrameRange[]
  stale: FrameRange[]
  /** Checkpoints that still match the scene (resume points). */
  checkpoints: number[]
  timings: ({ frame: number } & FrameStats)[]
  cacheBytes: number
}

/** Consecutive frames folded into inclusive ranges. */
export function toRanges(frames: readonly number[]): FrameRange[] {
  const out: FrameRange[] = []
  for (const f of frames) {
    const last = out[out.length - 1]
    if (last && f === last[1] + 1) last[1] = f
    else out.push([f, f])
  }
  return out
}

/**
 * A bake row left at 'baking' with no bake running is a process that died mid-bake (kill -9,
 * power cut): say so, and that Resume continues from the last checkpoint.
 */
export function withLiveState(s: CacheStatus, running: boolean): CacheStatus {
  if (s.state !== 'baking' || running) return s
  return { ...s, state: 'cancelled', message: 'Interrupted: the bake stopped without finishing; Resume continues from the last checkpoint' }
}

export function cacheStatus(doc: SceneDocument, cache: FrameCache, domainId: string): CacheStatus {
  const bake = cache.bake(domainId)
  if (!bake) {
    return { domainId, state: 'none', message: null, frameStart: doc.meta.frameStart, frameEnd: doc.meta.frameEnd, cached: [], stale: [], checkpoints: [], timings: [], cacheBytes: 0 }
  }
  const { frameStart: S, frameEnd: E, solver } = bake.settings
  const frames = cache.frames(domainId)
  const last = Math.max(E, frames.length ? frames[frames.length - 1].frame : E)
  const sigs = frameSignatures(doc, domainId, S, last, solver)
  const valid = (f: number, sig: string) => f >= S && sigs[f - S] === sig
  const good: number[] = []
  const stale: number[] = []
  for (const r of frames) (valid(r.frame, r.sig) ? good : stale).push(r.frame)
  return {
    domainId,
    state: bake.state,
    message: bake.message,
    frameStart: S,
    frameEnd: E,
    cached: toRanges(good),
    stale: toRanges(stale),
    checkpoints: cache.checkpoints(domainId).filter((c) => valid(c.frame, c.sig)).map((c) => c.frame),
    timings: frames.filter((r) => r.stats).map((r) => ({ frame: r.frame, ...(r.stats as FrameStats) })),
    cacheBytes: cache.cacheBytes(domainId),
  }
}
