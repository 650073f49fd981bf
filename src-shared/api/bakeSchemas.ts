// Shapes of the bake, cache and export messages (src-main/bake and src-main/export fill
// them; the bake panel, timeline and viewport read them).
import { z } from 'zod'
import { apiError, filePath, objectId } from './schemas'

const count = z.number().int().nonnegative()
const frameNumber = z.number().int().min(-100000).max(1000000)
const range = z.tuple([frameNumber, frameNumber])

export const frameStats = z.object({
  ms: z.number(),
  substeps: count,
  pressureIterations: count,
  particleCount: count,
  bytes: count,
})

/** One baked frame's figures: a point of the timing plot. */
export const frameTiming = frameStats.extend({ frame: frameNumber })

export const bakeProgress = z.object({
  domainId: z.string(),
  frame: frameNumber,
  done: count,
  total: count,
  firstFrame: frameNumber,
  lastFrame: frameNumber,
  msFrame: z.number(),
  etaMs: z.number(),
  stats: frameStats,
})

export const bakeMode = z.enum(['bake', 'resume', 'range'])
export const bakePhase = z.enum(['queued', 'running', 'done', 'cancelled', 'failed'])

export const bakeJob = z.object({
  domainId: z.string(),
  projectPath: z.string(),
  mode: bakeMode,
  phase: bakePhase,
  threads: count,
  progress: bakeProgress.nullable(),
  error: apiError.nullable(),
  log: z.array(z.string()),
  cancelLatencyMs: z.number().nullable(),
  memoryBytes: z.number(),
  /** Number of the job's last 'bake.update' (1, 2, ...): an increment must follow it directly. */
  seq: count,
})

export const cacheStatus = z.object({
  domainId: z.string(),
  state: z.enum(['none', 'baking', 'done', 'cancelled', 'failed']),
  message: z.string().nullable(),
  frameStart: frameNumber,
  frameEnd: frameNumber,
  cached: z.array(range),
  stale: z.array(range),
  checkpoints: z.array(frameNumber),
  timings: z.array(frameTiming),
  cacheBytes: count,
})

/**
 * 'bake.update', either the whole picture or an increment.
 *
 * full: sent when a bake is queued, starts (its worker's first report), ends (done, cancelled,
 * failed): the job with its whole log and the domain's whole cache status (null when the
 * bake's project is not the open one).
 *
 * frames: sent while a bake runs, at most about 10 a second per bake, with only what changed
 * since the update numbered seq - 1: the job without its log, the log lines added, the frames
 * written (as cached or, when the scene changed during the bake, stale ranges, with their
 * figures and any checkpoints) and the cache's size. The receiver adds them to the status it
 * holds (bakeMerge.ts); when seq does not follow the job's seq it holds, it missed an update
 * and re-reads everything with 'bake.status'.
 */
export const bakeUpdate = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('full'), job: bakeJob, status: cacheStatus.nullable() }),
  z.object({
    kind: z.literal('frames'),
    job: bakeJob.omit({ log: true }),
    log: z.array(z.string()),
    cached: z.array(range),
    stale: z.array(range),
    checkpoints: z.array(frameNumber),
    timings: z.array(frameTiming),
    cacheBytes: count,
  }),
])

export const bakeEstimate = z.object({
  /** The simulation's size in the family's words ("64x64x64 grid"). */
  layout: z.string(),
  cells: count,
  frames: count,
  particles: count,
  memoryBytes: z.number(),
  scalingBytes: z.number(),
  cacheBytes: z.number(),
  cacheBytesMax: z.number(),
  checkpointBytes: z.number(),
  /** The setting to lower when the bake does not fit, and how memory grows with it. */
  lower: z.object({ key: z.string(), label: z.string(), value: z.number(), exponent: z.number(), min: z.number() }),
  budget: z.object({ memoryBytes: z.number(), diskBytes: z.number().nullable() }),
  /** Null when it fits, else the sentence a Bake would be refused with. */
  problem: z.string().nullable(),
})

export const exportFormat = z.enum(['vdb', 'obj', 'ply', 'gltf', 'glb', 'png'])

export const exportJob = z.object({
  domainId: z.string(),
  phase: z.enum(['running', 'done', 'cancelled', 'failed']),
  format: exportFormat,
  outDir: z.string(),
  done: count,
  total: count,
  lastFile: z.string().nullable(),
  manifestPath: z.string().nullable(),
  files: count,
  error: apiError.nullable(),
})

export const bakeRequests = {
  'bake.estimate': { params: z.object({ domainId: objectId }).strict(), result: bakeEstimate },
  /** bake: fresh, whole range; resume: after `from` (default the last valid frame); range: re-bake from..to. */
  'bake.start': {
    params: z.object({ domainId: objectId, mode: bakeMode, from: frameNumber.optional(), to: frameNumber.optional() }).strict(),
    result: bakeJob,
  },
  'bake.cancel': { params: z.object({ domainId: objectId }).strict(), result: z.object({ cancelled: z.boolean(), job: bakeJob.nullable() }) },
  'bake.clear': { params: z.object({ domainId: objectId }).strict(), result: cacheStatus },
  'bake.status': { params: z.object({}).strict(), result: z.object({ jobs: z.array(bakeJob), caches: z.array(cacheStatus) }) },
  /**
   * What the viewport needs to show a frame, as binary: u32 LE length of the preview (0 when
   * the frame has none), the preview record (framePreview.ts), then the frame record.
   */
  'cache.display': { params: z.object({ domainId: objectId, frame: frameNumber }).strict(), result: z.instanceof(Uint8Array) },
  /** One cached frame's record (src-shared/formats/frameRecord), sent as binary. */
  'cache.frame': { params: z.object({ domainId: objectId, frame: frameNumber }).strict(), result: z.instanceof(Uint8Array) },
  /** Starts an export in the background; 'export.update' events report it. */
  'export.start': {
    params: z
      .object({
        domainId: objectId,
        format: exportFormat,
        outDir: filePath,
        frameStart: frameNumber.optional(),
        frameEnd: frameNumber.optional(),
        padding: z.number().int().min(1).max(8).optional(),
        upAxis: z.enum(['y', 'z']).optional(),
      })
      .strict(),
    result: exportJob,
  },
  'export.cancel': { params: z.object({ domainId: objectId }).strict(), result: z.object({ cancelled: z.boolean(), job: exportJob.nullable() }) },
} as const

export const bakeEvents = {
  /** A bake was queued, started, progressed, logged or ended (see bakeUpdate). */
  'bake.update': bakeUpdate,
  'export.update': z.object({ job: exportJob }),
} as const

export { filePath }
