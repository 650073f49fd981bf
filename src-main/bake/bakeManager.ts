// The bake scheduler of a host process: one worker thread per running bake, a queue when
// more bakes are started than there are cores, Cancel, and a log per bake.
//
// Updates are coalesced: a phase change (queued, started, ended) and a worker's first report
// of a run go out at once, while frames and log lines are gathered and sent at most every
// `updateIntervalMs` (a trailing update carries the latest frame), each listing only what is
// new since the previous one. A fast bake then costs a few updates a second, not one per frame.
//
// Worker threads rather than child processes: a cancel flag in shared memory is read
// between substeps (a child process could only be killed, losing the frame in flight and
// the checkpoint bookkeeping), frames go straight from the worker's own SQLite connection
// into the project file without being copied through the host, and the kernel pool's
// threads nest inside the worker. JavaScript and WebAssembly failures inside a worker
// (including a failed memory allocation) end that bake with an error and leave the host
// running; the memory estimate refuses bakes that would not fit before they start.
import { availableParallelism, totalmem } from 'node:os'
import { MACHINE_MEMORY_SHARE } from './estimate'
import { Worker } from 'node:worker_threads'
import type { ApiErrorData } from '../../src-shared/api/errors'
import { EddyError } from '../../src-shared/api/errors'
import type { BakeMode, BakeProgress, BakeRequest } from './runner'
import type { FrameTiming } from './status'
import type { WorkerMessage } from './workerMessages'
import { defaultKernelThreads } from '../sim/kernelCores'

export type BakePhase = 'queued' | 'running' | 'done' | 'cancelled' | 'failed'

export interface BakeJobView {
  domainId: string
  projectPath: string
  mode: BakeMode
  phase: BakePhase
  threads: number
  progress: BakeProgress | null
  error: ApiErrorData | null
  log: string[]
  /** Milliseconds from Cancel to the worker stopping (null until a cancel completes). */
  cancelLatencyMs: number | null
  /** Memory the bake was estimated to need, bytes (reserved while it runs). */
  memoryBytes: number
  /** Updates sent for this job so far (the last one's number): a receiver spots a missed one. */
  seq: number
}

/** What changed since the previous update of the same job. */
export interface BakeDelta {
  /**
   * A phase change (queued, running, done, cancelled, failed) or the worker's first report of
   * a run (it has set up the cache: a fresh bake has cleared it): send the whole status.
   */
  full: boolean
  /** Frames written since the previous update, in order, with their figures. */
  frames: FrameTiming[]
  /** Log lines added since the previous update. */
  log: string[]
}

interface Job extends BakeJobView {
  request: BakeRequest
  worker: Worker | null
  stopFlag: Int32Array
  cancelAt: number | null
  ended: Promise<void>
  resolveEnded: () => void
  /** Coalescing: frames and log lines not yet sent, the pending trailing update, when the last went. */
  pendingFrames: FrameTiming[]
  pendingLog: string[]
  timer: ReturnType<typeof setTimeout> | null
  lastEmit: number
  reported: boolean
}

const LOG_LINES = 500

export interface BakeManagerOptions {
  /** The built worker entry (out/main/bakeWorker.js). */
  workerUrl: URL | string
  /** Cores to share out; default availableParallelism(). */
  cores?: number
  /** Called when a job changes (queued, started, ended at once; progress and log coalesced). */
  onUpdate?: (job: BakeJobView, delta: BakeDelta) => void
  /** Least time between two progress updates of one bake, ms (default 100: 10 a second). */
  updateIntervalMs?: number
  /** Memory bakes may use together, bytes (default: machineBudget's 80% of this machine's). */
  memoryBudget?: () => number
}

export class BakeManager {
  private readonly jobsByDomain = new Map<string, Job>()
  private readonly cores: number
  /** A bake's most threads when its request names none (EDDY_THREADS, else every core). */
  private readonly threadCap: number
  private readonly interval: number
  onUpdate: ((job: BakeJobView, delta: BakeDelta) => void) | null

  private readonly memoryBudget: () => number

  constructor(private readonly opts: BakeManagerOptions) {
    this.cores = Math.max(1, opts.cores ?? availableParallelism())
    this.threadCap = defaultKernelThreads()
    this.memoryBudget = opts.memoryBudget ?? (() => totalmem() * MACHINE_MEMORY_SHARE)
    this.interval = Math.max(0, opts.updateIntervalMs ?? 100)
    this.onUpdate = opts.onUpdate ?? null
  }

  /** Queues a bake; throws when this domain already has one queued or running. */
  start(request: BakeRequest, memoryBytes: number): BakeJobView {
    const current = this.jobsByDomain.get(request.domainId)
    if (current && (current.phase === 'queued' || current.phase === 'running')) {
      throw new EddyError('INVALID_PARAM', 'This simulation is already baking; cancel it first', { field: 'domainId' })
    }
    let resolveEnded = (): void => {}
    const ended = new Promise<void>((r) => (resolveEnded = r))
    const job: Job = {
      domainId: request.domainId,
      projectPath: request.projectPath,
      mode: request.mode,
      phase: 'queued',
      threads: 0,
      progress: null,
      error: null,
      log: [],
      cancelLatencyMs: null,
      memoryBytes,
      request,
      worker: null,
      stopFlag: new Int32Array(new SharedArrayBuffer(4)),
      cancelAt: null,
      ended,
      resolveEnded,
      seq: 0,
      pendingFrames: [],
      pendingLog: [],
      timer: null,
      lastEmit: -Infinity,
      reported: false,
    }
    this.jobsByDomain.set(request.domainId, job)
    this.emit(job)
    this.schedule()
    return view(job)
  }

  /**
   * Memory promised to running bakes, bytes. Queued bakes promise none yet: a sweep of many
   * variants queues them all, and each starts only when the memory of those running leaves
   * room for it (schedule), so a 30-variant wedge is not refused for memory that only two of
   * its bakes at a time will use.
   */
  reservedMemory(): number {
    let sum = 0
    for (const j of this.jobsByDomain.values()) if (j.phase === 'running') sum += j.memoryBytes
    return sum
  }

  /** Asks a bake to stop; resolves when it has. False when nothing was baking. */
  async cancel(domainId: string): Promise<boolean> {
    const job = this.jobsByDomain.get(domainId)
    if (!job || (job.phase !== 'queued' && job.phase !== 'running')) return false
    job.cancelAt = performance.now()
    if (job.phase === 'queued') {
      this.finish(job, 'cancelled', null)
      job.log.push('Cancelled before it started')
      job.pendingLog.push('Cancelled before it started')
      this.emit(job)
      return true
    }
    Atomics.store(job.stopFlag, 0, 1)
    await job.ended
    return true
  }

  /** Cancels every bake of a project (closing it) or of all projects, and waits for them. */
  async cancelAll(projectPath?: string): Promise<void> {
    const jobs = [...this.jobsByDomain.values()].filter((j) => !projectPath || j.projectPath === projectPath)
    await Promise.all(jobs.map((j) => this.cancel(j.domainId)))
  }

  job(domainId: string): BakeJobView | null {
    const j = this.jobsByDomain.get(domainId)
    return j ? view(j) : null
  }

  jobs(projectPath?: string): BakeJobView[] {
    return [...this.jobsByDomain.values()].filter((j) => !projectPath || j.projectPath === projectPath).map(view)
  }

  /** Forgets finished jobs of a project (its cache was cleared or it was closed). */
  forget(domainId: string): void {
    const j = this.jobsByDomain.get(domainId)
    if (j && j.phase !== 'queued' && j.phase !== 'running') this.jobsByDomain.delete(domainId)
  }

  isBaking(domainId: string): boolean {
    const j = this.jobsByDomain.get(domainId)
    return !!j && (j.phase === 'queued' || j.phase === 'running')
  }

  /**
   * Starts queued jobs, in order, while fewer than `cores` run and the memory of the running
   * ones leaves room (a job that does not fit waits; a smaller one behind it may start); each
   * gets an even share of the cores. A job starts alone whatever its size: Bake checked it fits.
   */
  private schedule(): void {
    const all = [...this.jobsByDomain.values()]
    let running = all.filter((j) => j.phase === 'running').length
    let reserved = this.reservedMemory()
    const budget = this.memoryBudget()
    const queued = all.filter((j) => j.phase === 'queued')
    // EDDY_THREADS, when set, caps a bake's share (sim/kernelCores.ts); the queue still runs up
    // to `cores` bakes side by side.
    const share = Math.min(this.threadCap, Math.max(1, Math.floor(this.cores / Math.min(this.cores, running + queued.length))))
    for (const job of queued) {
      if (running >= this.cores) break
      if (running > 0 && reserved + job.memoryBytes > budget) continue
      running++
      reserved += job.memoryBytes
      this.launch(job, job.request.threads ?? share)
    }
  }

  private launch(job: Job, threads: number): void {
    job.phase = 'running'
    job.threads = threads
    const worker = new Worker(this.opts.workerUrl, {
      workerData: { request: { ...job.request, threads, reservedMemory: this.reservedMemory() - job.memoryBytes }, stopFlag: job.stopFlag.buffer },
      name: `eddy-bake-${job.domainId}`,
    })
    job.worker = worker
    let settled = false
    worker.on('message', (m: WorkerMessage) => {
      if (m.type === 'progress' || m.type === 'log') {
        if (m.type === 'progress') {
          job.progress = m.progress
          job.pendingFrames.push({ frame: m.progress.frame, ...m.progress.stats })
        } else pushLog(job, m.line)
        // The first report of a run follows the worker's setup of the cache (a fresh bake
        // cleared it): the whole status then, increments after.
        if (!job.reported) {
          job.reported = true
          this.emit(job)
        } else this.later(job)
        return
      }
      settled = true
      if (m.type === 'done') this.finish(job, m.result.state === 'cancelled' ? 'cancelled' : 'done', null)
      else this.finish(job, m.error.code === 'CANCELLED' ? 'cancelled' : 'failed', m.error)
      this.emit(job)
    })
    worker.on('error', (e) => {
      if (settled) return
      settled = true
      this.finish(job, 'failed', { code: 'INTERNAL', message: `The bake worker crashed: ${e.message}` })
      pushLog(job, `The bake worker crashed: ${e.message}`)
      this.emit(job)
    })
    worker.on('exit', (code) => {
      if (!settled) {
        settled = true
        const message = `The bake worker stopped unexpectedly (exit code ${code}); completed frames are kept, Resume continues from the last checkpoint`
        this.finish(job, 'failed', { code: 'INTERNAL', message })
        pushLog(job, message)
        this.emit(job)
      }
      job.worker = null
      job.resolveEnded()
      this.schedule()
    })
    this.emit(job)
  }

  private finish(job: Job, phase: BakePhase, error: ApiErrorData | null): void {
    job.phase = phase
    job.error = error
    if (phase === 'cancelled' && job.cancelAt !== null) {
      job.cancelLatencyMs = performance.now() - job.cancelAt
      pushLog(job, `Cancel took effect in ${job.cancelLatencyMs.toFixed(0)} ms`)
    }
    if (error && phase === 'failed') pushLog(job, `Failed: ${error.message}`)
    if (!job.worker) job.resolveEnded()
  }

  /** Sends a job's update now, with everything gathered since the previous one. */
  private emit(job: Job, full = true): void {
    if (job.timer) clearTimeout(job.timer)
    job.timer = null
    job.seq++
    job.lastEmit = performance.now()
    const delta: BakeDelta = { full, frames: job.pendingFrames, log: job.pendingLog }
    job.pendingFrames = []
    job.pendingLog = []
    this.onUpdate?.(view(job), delta)
  }

  /** Progress or a log line: sends it now if the last update is old enough, else once it is. */
  private later(job: Job): void {
    if (job.timer) return
    const wait = job.lastEmit + this.interval - performance.now()
    if (wait <= 0) this.emit(job, false)
    else {
      job.timer = setTimeout(() => this.emit(job, false), wait)
      job.timer.unref?.()
    }
  }
}

function pushLog(job: Job, line: string): void {
  const stamp = new Date().toISOString().slice(11, 19)
  job.log.push(`${stamp} ${line}`)
  job.pendingLog.push(`${stamp} ${line}`)
  if (job.log.length > LOG_LINES) job.log.splice(0, job.log.length - LOG_LINES)
  if (job.pendingLog.length > LOG_LINES) job.pendingLog.splice(0, job.pendingLog.length - LOG_LINES)
}

function view(j: Job): BakeJobView {
  return {
    domainId: j.domainId,
    projectPath: j.projectPath,
    mode: j.mode,
    phase: j.phase,
    threads: j.threads,
    progress: j.progress,
    error: j.error,
    log: [...j.log],
    cancelLatencyMs: j.cancelLatencyMs,
    memoryBytes: j.memoryBytes,
    seq: j.seq,
  }
}
