// One bake, start to finish, on the calling thread: read the scene from the project file,
// pick the state to start from (fresh, or the newest valid checkpoint), step the solver
// frame by frame, and write each frame (and a checkpoint every N frames) in its own
// transaction. The bake worker (bakeWorker.ts) and `eddy bake` both run this.
//
// Frame f of the cache is the state at animation time (f-1)/fps, the clock compileInput
// uses (frame = 1 + t fps): the first frame S of a bake is the initial state (empty air for
// smoke, the initial volumes for a liquid), and frame f > S is frame f-1 stepped by one
// frame under the scene evaluated at frame f-1.
import { availableParallelism } from 'node:os'
import { deflateRawSync } from 'node:zlib'
import { inflateSync } from 'fflate'
import { EddyError, isEddyError } from '../../src-shared/api/errors'
import { encodeFrame, type FramePrecision } from '../../src-shared/formats/frameRecord'
import type { KernelKind } from '../../src-shared/sim/core/kernelBackend'
import { createBakeSolver, familyOf, findHost } from '../../src-shared/sim/registry'
import { emptyStepStats } from '../../src-shared/sim/solver'
import { evaluateObject } from '../../src-shared/scene/keyframes'
import type { BakeSettings, FrameCache, FrameStats } from '../store/frameCache'
import { ProjectStore } from '../store/projectStore'
import { openCacheFile, type CacheFile } from '../store/cacheFile'
import type { SceneDocument } from '../../src-shared/scene/types'
import { bakeTarget, variantLabel, variantTag } from '../../src-shared/sim/wedge'
import { createKernelBackend } from '../sim/workerPool'
import { deflateCheckpoint } from './checkpointDeflate'
import { checkFits, estimateBake, formatBytes, machineBudget } from './estimate'
import { chooseKernels } from './kernelChoice'
import { DEFAULT_MAX_GRID_BYTES } from '../../src-shared/sim/core/grid'
import { frameSignatures } from './signature'

export type BakeMode = 'bake' | 'resume' | 'range'

export interface BakeRequest {
  projectPath: string
  /** The bake key: a simulation host's id, or a wedge variant of it (sim/wedge.ts bakeKey). */
  domainId: string
  /**
   * Write the frames into this cache file instead of the project (a farm task: concurrent
   * tasks never share a SQLite file; the studio merges the file when it opens the project).
   */
  cacheFile?: string
  /**
   * bake: a fresh bake of the whole range (the cache is cleared first);
   * resume: continue after frame `from` (default: the last valid frame) to the end;
   * range: re-bake frames from..to, leaving frames outside it as they are.
   */
  mode: BakeMode
  from?: number
  to?: number
  /** Fresh bakes: override the project's frame range (the CLI's --frames). */
  frameStart?: number
  frameEnd?: number
  checkpointEvery?: number
  precision?: FramePrecision
  threads?: number
  kernels?: KernelKind
  /** Memory already promised to other running bakes, bytes. */
  reservedMemory?: number
  /** Unix nice value for the kernel threads (the bake worker sets its own). */
  nice?: number
}

export interface BakeProgress {
  domainId: string
  frame: number
  /** Frames written in this run, and how many it will write in total. */
  done: number
  total: number
  firstFrame: number
  lastFrame: number
  msFrame: number
  etaMs: number
  stats: FrameStats
}

export interface BakeHooks {
  progress?(p: BakeProgress): void
  log?(line: string): void
  /** Polled between frames and between substeps; true cancels the bake. */
  shouldStop?(): boolean
}

export interface BakeResult {
  domainId: string
  state: 'done' | 'cancelled'
  framesWritten: number
  firstFrame: number
  lastFrame: number
  ms: number
}

export const DEFAULT_CHECKPOINT_EVERY = 10

export const DEFAULT_PRECISION: FramePrecision = 'float16'

interface Plan {
  settings: BakeSettings
  /**
   * Checkpoints to start from, newest first: each at or before the state the run needs and
   * still matching the scene. Empty: a fresh solver from frameStart - 1.
   */
  checkpoints: number[]
  lastFrame: number
  sigs: string[]
}

function checkFrame(value: number | undefined, field: string, lo: number, hi: number): number | undefined {
  if (value === undefined) return undefined
  if (!Number.isInteger(value) || value < lo || value > hi) {
    throw new EddyError('INVALID_PARAM', `${field} must be a whole frame from ${lo} to ${hi} (got ${value})`, { field, value })
  }
  return value
}

/** Decides where the run starts and ends, and prepares the bake row. */
function plan(req: BakeRequest, cache: FrameCache, doc: SceneDocument, hostId: string): Plan {
  const solver = familyOf(doc, hostId).id
  const previous = cache.bake(req.domainId)
  if (req.mode === 'bake' || !previous) {
    const frameStart = req.frameStart ?? doc.meta.frameStart
    const frameEnd = req.frameEnd ?? doc.meta.frameEnd
    if (!(Number.isInteger(frameStart) && Number.isInteger(frameEnd) && frameEnd >= frameStart)) {
      throw new EddyError('INVALID_PARAM', `The frame range ${frameStart}-${frameEnd} is empty`, { field: 'frames' })
    }
    if (req.mode !== 'bake') throw new EddyError('NOT_FOUND', 'This simulation has not been baked yet; Bake it first', { field: 'mode' })
    const dp = evaluateObject(findHost(doc, hostId), doc.tracks, frameStart)
    const settings: BakeSettings = {
      frameStart,
      frameEnd,
      checkpointEvery: req.checkpointEvery ?? Number(dp.checkpointEvery ?? DEFAULT_CHECKPOINT_EVERY),
      precision: req.precision ?? ((dp.cachePrecision as FramePrecision | undefined) ?? DEFAULT_PRECISION),
      solver,
    }
    return { settings, checkpoints: [], lastFrame: frameEnd, sigs: frameSignatures(doc, hostId, frameStart, frameEnd, solver) }
  }
  // A resume or re-bake follows the timeline's current end (extending the timeline and
  // pressing Resume continues the bake); the start stays, since every frame chains from it.
  const frameEnd = Math.max(previous.settings.frameStart, doc.meta.frameEnd)
  const settings: BakeSettings = { ...previous.settings, frameEnd, solver, ...(req.checkpointEvery ? { checkpointEvery: req.checkpointEvery } : {}) }
  const { frameStart: S, frameEnd: E } = settings
  const sigs = frameSignatures(doc, hostId, S, E, solver)
  const valid = (f: number, sig: string) => f >= S && f <= E && sigs[f - S] === sig
  const cached = new Map(cache.frames(req.domainId).map((r) => [r.frame, r.sig]))
  let needState: number
  let lastFrame = E
  if (req.mode === 'resume') {
    let lastValid = S - 1
    while (lastValid < E && valid(lastValid + 1, cached.get(lastValid + 1) ?? '')) lastValid++
    needState = checkFrame(req.from, 'from', S, E) ?? lastValid
    if (needState >= E) throw new EddyError('INVALID_PARAM', `Frames up to ${E}, the end of the bake, are already cached; nothing to resume`, { field: 'from' })
  } else {
    const from = checkFrame(req.from, 'from', S, E) ?? S
    lastFrame = checkFrame(req.to, 'to', from, E) ?? E
    needState = from - 1
  }
  // The checkpoints at or before the needed state that still match the scene, newest first.
  const checkpoints = cache
    .checkpoints(req.domainId)
    .filter((c) => c.frame <= needState && valid(c.frame, c.sig))
    .map((c) => c.frame)
    .reverse()
  return { settings, checkpoints, lastFrame, sigs }
}

/**
 * Node's zlib for the records' raw deflate: 1.5-2x fflate's speed on a liquid's frames (the
 * 64^3 dam break's 5 MB record took fflate about as long as the step), for records about 3%
 * larger. fflate inflates them as it does its own. Checkpoints: checkpointDeflate.ts.
 */
function nativeDeflate(raw: Uint8Array, level: number): Uint8Array {
  return deflateRawSync(raw, { level })
}

/** Runs one bake on this thread. Cancellation ends it with state 'cancelled', not an error. */
export async function runBake(req: BakeRequest, hooks: BakeHooks = {}): Promise<BakeResult> {
  const log = hooks.log ?? (() => {})
  const stop = hooks.shouldStop ?? (() => false)
  // A farm task (its frames go to a cache file of their own) only reads the scene copy.
  const store = req.cacheFile ? ProjectStore.openReadOnly(req.projectPath) : ProjectStore.open(req.projectPath)
  let cacheFile: CacheFile | null = null
  let kernels: ReturnType<typeof createKernelBackend> | null = null
  let began = false
  // The domain's name for the log; its id until the document is read.
  let name = req.domainId
  let cache = store.cache
  try {
    // A wedge variant bakes the scene with its values (sim/wedge.ts); the main bake the scene.
    const target = bakeTarget(store.readDocument(), req.domainId)
    const { doc, hostId } = target
    name = doc.objects.find((o) => o.id === hostId)?.name ?? name
    if (target.variant) name = `${name} ${variantTag(target.variant.wedge, target.variant.k)} (${variantLabel(doc, target.variant.wedge, target.variant.k)})`
    if (req.cacheFile) {
      cacheFile = openCacheFile(req.cacheFile, { create: true })
      cache = cacheFile.cache
    }
    const { settings, checkpoints, lastFrame, sigs } = plan(req, cache, doc, hostId)
    const estimate = estimateBake(doc, hostId, settings.frameEnd - settings.frameStart + 1, settings.precision, settings.checkpointEvery)
    // Where the kernels run: the family's preference, the request's, and WebAssembly's 4 GiB
    // (kernelChoice.ts); only kernels in WebAssembly hold the grids to its 4 GiB.
    const family = familyOf(doc, hostId)
    const choice = chooseKernels(family.kernels, req.kernels, estimate.memoryBytes)
    const budget = machineBudget(req.projectPath, req.reservedMemory ?? 0)
    checkFits(estimate, budget, choice.kind)
    if (choice.note) log(`${name}: ${choice.note}`)
    const kind = choice.kind
    // More kernel threads than cores only adds memory and switching (256 on 2 cores: 2.1 GiB,
    // 16x slower): a request above the core count is capped, and the log says so.
    const cores = availableParallelism()
    const threads = req.threads ? Math.min(req.threads, cores) : undefined
    if (req.threads && req.threads > cores) log(`${name}: ${req.threads} threads requested; using ${cores}, the cores of this machine`)
    kernels = createKernelBackend(kind, { ...(threads ? { threads } : {}), ...(req.nice ? { nice: req.nice } : {}) })
    const build = () =>
      createBakeSolver(doc, hostId, {
        kernels: kernels!,
        shared: kind === 'wasm',
        // On the JavaScript heap the grids may use what the machine has for bakes.
        ...(kind === 'ts' ? { maxBytes: Math.max(budget.memoryBytes, DEFAULT_MAX_GRID_BYTES) } : {}),
        resolveMesh: (id) => {
          const m = store.readMesh(id)
          return { positions: m.positions, indices: m.indices }
        },
      })
    let solver = build()
    if (req.mode === 'bake') cache.clearFrames(req.domainId)
    cache.setBake(req.domainId, settings, 'baking')
    began = true
    // The newest checkpoint that reads back whole; a damaged one is named and skipped, and the
    // run falls back to the one before it (or to the start), re-simulating the frames between.
    let startAfter = settings.frameStart - 1
    for (const frame of checkpoints) {
      try {
        solver.restore(inflateSync(cache.readCheckpoint(req.domainId, frame)))
        startAfter = frame
        break
      } catch (e) {
        log(`${name}: ${isEddyError(e) ? e.message : `the checkpoint at frame ${frame} could not be restored (${e instanceof Error ? e.message : String(e)})`}; skipped`)
        // A restore that failed part-way leaves the solver half-written: start from a new one.
        solver = build()
      }
    }
    const first = startAfter + 1
    const total = lastFrame - startAfter
    log(
      `${name}: ${req.mode === 'bake' ? 'baking' : req.mode === 'resume' ? 'resuming' : 're-baking'} frames ${first}-${lastFrame}` +
        `${startAfter >= settings.frameStart ? ` from the checkpoint at frame ${startAfter}` : ''}; ${solver.layout}, ${settings.precision} cache, checkpoint every ${settings.checkpointEvery} frames; estimated memory ${formatBytes(estimate.memoryBytes)}, cache ${formatBytes(estimate.cacheBytes)}`,
    )
    const control = { shouldStop: stop }
    const previewContext = { doc, hostId, frameStart: settings.frameStart }
    const NO_STEP = emptyStepStats(family.phases)
    const started = performance.now()
    let written = 0
    for (let f = first; f <= lastFrame; f++) {
      if (stop()) return finishCancelled(f)
      const t0 = performance.now()
      let stepStats = NO_STEP
      if (f > settings.frameStart) {
        try {
          stepStats = solver.stepFrame(f - 1, control)
        } catch (e) {
          if (isEddyError(e) && e.code === 'CANCELLED') return finishCancelled(f)
          throw atFrame(e, f)
        }
      }
      // Transient: the record and the preview are made from it before the solver steps again.
      const frame = solver.frame({ transient: true })
      // Timings stay out of the record (they live in the stats column), so a re-bake of an
      // unchanged scene writes byte-identical records.
      const record = encodeFrame({ ...frame, frame: f, stats: {} }, { precision: settings.precision, deflate: nativeDeflate })
      const ms = performance.now() - t0
      const stats: FrameStats = {
        ms,
        substeps: stepStats.substeps,
        pressureIterations: stepStats.pressureIterations,
        particleCount: stepStats.particleCount,
        bytes: record.byteLength,
      }
      const preview = family.preview?.(frame, previewContext) ?? null
      writeOrExplain(() => cache.writeFrame(req.domainId, f, record, sigs[f - settings.frameStart], stats, preview), f)
      written++
      if ((f - settings.frameStart + 1) % settings.checkpointEvery === 0 || f === lastFrame) {
        const bytes = deflateCheckpoint(solver.checkpoint())
        writeOrExplain(() => cache.writeCheckpoint(req.domainId, f, bytes, sigs[f - settings.frameStart]), f)
      }
      // Let the event loop run between frames (signals, the CLI's terminal output).
      await new Promise<void>((r) => setImmediate(r))
      const elapsed = performance.now() - started
      hooks.progress?.({
        domainId: req.domainId,
        frame: f,
        done: written,
        total,
        firstFrame: first,
        lastFrame,
        msFrame: ms,
        etaMs: (elapsed / written) * (total - written),
        stats,
      })
    }
    const ms = performance.now() - started
    cache.setState(req.domainId, 'done')
    log(`${name}: baked ${written} frames in ${(ms / 1000).toFixed(1)} s (${(ms / Math.max(1, written)).toFixed(0)} ms/frame), cache ${formatBytes(cache.cacheBytes(req.domainId))}`)
    return { domainId: req.domainId, state: 'done', framesWritten: written, firstFrame: first, lastFrame, ms }

    function finishCancelled(f: number): BakeResult {
      cache.setState(req.domainId, 'cancelled', `Cancelled at frame ${f}`)
      log(`${name}: cancelled at frame ${f}; frames ${first}-${f - 1} are cached`)
      return { domainId: req.domainId, state: 'cancelled', framesWritten: written, firstFrame: first, lastFrame: f - 1, ms: performance.now() - started }
    }
  } catch (e) {
    const err = isEddyError(e) ? e : new EddyError('INTERNAL', `Bake failed: ${e instanceof Error ? e.message : String(e)}`)
    if (began) {
      try {
        cache.setState(req.domainId, 'failed', err.message)
      } catch {
        // the store itself failed (disk full): the error below already says so
      }
    }
    log(`${name}: ${err.message}`)
    throw err
  } finally {
    await (kernels as { dispose?: () => Promise<void> } | null)?.dispose?.()
    cacheFile?.close()
    store.close()
  }
}

function atFrame(e: unknown, f: number): unknown {
  if (isEddyError(e)) return new EddyError(e.code, `Frame ${f}: ${e.message}`, { ...e.details, frame: f })
  return e
}

/** Cache writes: a full disk gets a sentence that says what was kept. */
function writeOrExplain(write: () => void, f: number): void {
  try {
    write()
  } catch (e) {
    const code = (e as { code?: unknown }).code
    if (code === 'SQLITE_FULL') {
      throw new EddyError('IO_ERROR', `The disk is full: frame ${f} could not be cached. Frames before ${f} are kept; free some space and Resume.`, { frame: f, cause: code })
    }
    if (typeof code === 'string' && code.startsWith('SQLITE_')) {
      throw new EddyError('IO_ERROR', `Could not write frame ${f} to the project file: ${(e as Error).message}. Frames before ${f} are kept.`, { frame: f, cause: code })
    }
    throw e
  }
}
