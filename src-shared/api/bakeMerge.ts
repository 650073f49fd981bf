// Folding a 'bake.update' increment (kind 'frames') into the cache status and job a receiver
// holds: the renderer's bake state does it for every update while a bake runs, and the tests
// replay a whole bake's updates through it and compare with 'bake.status'. Pure functions;
// folding the same increment twice gives the same result (a status read with 'bake.status'
// may already hold frames an increment then repeats).
import type { z } from 'zod'
import type { bakeJob, bakeUpdate, cacheStatus } from './bakeSchemas'

export type CacheStatusData = z.output<typeof cacheStatus>
export type BakeJobData = z.output<typeof bakeJob>
export type BakeUpdateData = z.output<typeof bakeUpdate>
export type FramesUpdate = Extract<BakeUpdateData, { kind: 'frames' }>
type Range = [number, number]

/** Log lines a job keeps (as src-main/bake/bakeManager.ts does). */
export const JOB_LOG_LINES = 500

/** Sorted, disjoint, inclusive ranges; adjacent ones joined. */
function normalise(ranges: Range[]): Range[] {
  const sorted = ranges.map(([a, b]): Range => [a, b]).sort((x, y) => x[0] - y[0])
  const out: Range[] = []
  for (const [a, b] of sorted) {
    const last = out[out.length - 1]
    if (last && a <= last[1] + 1) last[1] = Math.max(last[1], b)
    else out.push([a, b])
  }
  return out
}

/** The frames of `ranges` and of `add`. */
export function addRanges(ranges: readonly Range[], add: readonly Range[]): Range[] {
  if (add.length === 0) return ranges.map(([a, b]): Range => [a, b])
  return normalise([...ranges, ...add] as Range[])
}

/** The frames of `ranges` not in `remove`. */
export function removeRanges(ranges: readonly Range[], remove: readonly Range[]): Range[] {
  if (remove.length === 0) return ranges.map(([a, b]): Range => [a, b])
  const cut = normalise(remove as Range[])
  const out: Range[] = []
  for (const [a0, b] of ranges) {
    let a = a0
    for (const [c, d] of cut) {
      if (d < a || c > b) continue
      if (c > a) out.push([a, c - 1])
      a = d + 1
      if (a > b) break
    }
    if (a <= b) out.push([a, b])
  }
  return out
}

/** The status after an increment: its frames move to cached or stale, their timings replace any old ones. */
export function applyFramesUpdate(status: CacheStatusData, u: FramesUpdate): CacheStatusData {
  const touched = [...u.cached, ...u.stale]
  let timings = status.timings
  if (u.timings.length) {
    const lastOld = timings.length ? timings[timings.length - 1].frame : -Infinity
    if (u.timings[0].frame > lastOld) timings = [...timings, ...u.timings]
    else {
      const byFrame = new Map(timings.map((t) => [t.frame, t]))
      for (const t of u.timings) byFrame.set(t.frame, t)
      timings = [...byFrame.values()].sort((a, b) => a.frame - b.frame)
    }
  }
  const checkpoints = u.checkpoints.length ? [...new Set([...status.checkpoints, ...u.checkpoints])].sort((a, b) => a - b) : status.checkpoints
  return {
    ...status,
    cached: addRanges(removeRanges(status.cached, touched), u.cached),
    stale: addRanges(removeRanges(status.stale, touched), u.stale),
    checkpoints,
    timings,
    cacheBytes: u.cacheBytes,
  }
}

/** The job after an increment: its new fields, and the new log lines after the old ones. */
export function applyJobUpdate(job: BakeJobData | undefined, u: FramesUpdate): BakeJobData {
  const log = [...(job?.log ?? []), ...u.log]
  return { ...u.job, log: log.length > JOB_LOG_LINES ? log.slice(log.length - JOB_LOG_LINES) : log }
}

/**
 * How an increment relates to the job a receiver holds: 'next' follows it directly (fold it
 * in), 'old' is already part of it (a 'bake.status' read after it was sent), 'gap' means
 * updates were missed (fold it in, then re-read everything).
 */
export function incrementOrder(held: BakeJobData | undefined, u: FramesUpdate): 'next' | 'old' | 'gap' {
  // Increments come only while a bake runs: one after a finished job is a new bake's.
  if (!held || held.projectPath !== u.job.projectPath || (held.phase !== 'queued' && held.phase !== 'running')) return 'gap'
  if (u.job.seq === held.seq + 1) return 'next'
  return u.job.seq <= held.seq ? 'old' : 'gap'
}
