// What the timeline and the bake panel show for one simulation: which frames are cached and
// still valid, which are stale (their signature no longer matches the scene), where the
// checkpoints are, and the per-frame figures for the timing plot.
import type { SceneDocument } from '../../src-shared/scene/types'
import type { BakeRow, FrameCache, FrameStats } from '../store/frameCache'
import { cachedFrameSignatures } from './signature'
import { bakeTarget, type BakeTarget } from '../../src-shared/sim/wedge'
import { isEddyError } from '../../src-shared/api/errors'

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
  timings: FrameTiming[]
  cacheBytes: number
}

/** One baked frame's figures (the timing plot's points). */
export type FrameTiming = { frame: number } & FrameStats

/**
 * What frames a running bake wrote since its previous update changed in its cache status:
 * the renderer folds it into the status it holds (src-shared/api/bakeMerge.ts).
 */
export interface CacheIncrement {
  /** The written frames that are cached and valid now (they leave `stale`). */
  cached: FrameRange[]
  /** The written frames that are cached but already stale (the scene changed during the bake). */
  stale: FrameRange[]
  /** Checkpoints written with these frames that still match the scene. */
  checkpoints: number[]
  /** The written frames' figures. */
  timings: FrameTiming[]
  /** Bytes of all cached frames of the bake now. */
  cacheBytes: number
}

/**
 * The signature chain of a bake key; a variant whose wedge no longer exists or no longer fits
 * the scene has no valid chain (every frame of it is stale: the values it was baked with are
 * not the scene's any more).
 */
function keySignatures(doc: SceneDocument, key: string, S: number, last: number, solver: string): readonly string[] {
  let target: BakeTarget
  try {
    target = bakeTarget(doc, key)
  } catch (e) {
    if (isEddyError(e)) return []
    throw e
  }
  return cachedFrameSignatures(target.doc, target.hostId, S, last, solver)
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

/**
 * The status of a bake key (a host, or a wedge variant of it: its frames are signed with the
 * variant's scene, so changing a wedged value makes that variant's frames stale).
 */
export function cacheStatus(doc: SceneDocument, cache: FrameCache, domainId: string): CacheStatus {
  const bake = cache.bake(domainId)
  if (!bake) {
    return { domainId, state: 'none', message: null, frameStart: doc.meta.frameStart, frameEnd: doc.meta.frameEnd, cached: [], stale: [], checkpoints: [], timings: [], cacheBytes: 0 }
  }
  const { frameStart: S, frameEnd: E, solver } = bake.settings
  const frames = cache.frames(domainId)
  const last = Math.max(E, frames.length ? frames[frames.length - 1].frame : E)
  // Hashed once per document version (signature.ts), not on every status.
  const sigs = keySignatures(doc, domainId, S, last, solver)
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

/**
 * The change a running bake made by writing `written` (frames reported since its previous
 * update), without listing the rest of the cache. `sameDocument`: the scene has not changed
 * since the bake started, so the worker signed these frames with the scene's own chain and
 * they are valid without reading their signatures back; otherwise each one's stored
 * signature is compared with the scene's (cached) chain. Null when the bake row is gone.
 */
export function cacheIncrement(doc: SceneDocument, cache: FrameCache, domainId: string, written: readonly FrameTiming[], sameDocument: boolean): CacheIncrement | null {
  const bake = cache.bake(domainId)
  if (!bake) return null
  const { frameStart: S, solver } = bake.settings
  const byFrame = new Map(written.map((t) => [t.frame, t]))
  const frames = [...byFrame.keys()].sort((a, b) => a - b)
  const lo = frames.length ? frames[0] : 0
  const hi = frames.length ? frames[frames.length - 1] : -1
  let valid: (f: number, sig: string | undefined) => boolean = (f) => f >= S
  if (!sameDocument && frames.length) {
    const sigs = keySignatures(doc, domainId, S, hi, solver)
    valid = (f, sig) => f >= S && sig !== undefined && sigs[f - S] === sig
  }
  const stored = !sameDocument && frames.length ? new Map(cache.frames(domainId).map((r) => [r.frame, r.sig])) : null
  const good: number[] = []
  const stale: number[] = []
  for (const f of frames) (valid(f, stored?.get(f)) ? good : stale).push(f)
  const checkpoints = frames.length ? cache.checkpoints(domainId).filter((c) => c.frame >= lo && c.frame <= hi && byFrame.has(c.frame) && valid(c.frame, c.sig)).map((c) => c.frame) : []
  return {
    cached: toRanges(good),
    stale: toRanges(stale),
    checkpoints,
    timings: frames.map((f) => byFrame.get(f)!),
    cacheBytes: cache.cacheBytes(domainId),
  }
}
