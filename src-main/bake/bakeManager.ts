// The bake scheduler of a host process: one worker thread per running bake, a queue when
// more bakes are started than there are cores, Cancel, and a log per bake.
//
// Worker threads rather than child processes: a cancel flag in shared memory is read
// between substeps (a child process could only be killed, losing the frame in flight and
// the checkpoint bookkeeping), frames go straight from the worker's own SQLite connection
// into the project file without being copied through the host, and the kernel pool's
// threads nest inside the worker. JavaScript and WebAssembly failures inside a worker
// (including a failed memory allocation) end that bake with an error and leave the host
// running; the memory estimate refuses bakes that would not fit before they start.
import { availableParallelism } from 'node:os'
import { Worker } from 'node:worker_threads'
import type { ApiErrorData } from '../../src-shared/api/errors'
import { EddyError } from '../../src-shared/api/errors'
import type { BakeMode, BakeProgress, BakeRequest } from './runner'
import type { WorkerMessage } from './workerMessages'

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
}

interface Job extends BakeJobView {
  request: BakeRequest
  worker: Worker | null
  stopFlag: Int32Array
  cancelAt: number | null
  ended: Promise<void>
  resolveEnded: () => void
}

const LOG_LINES = 500

export interface BakeManagerOptions {
  /** The built worker entry (out/main/bakeWorker.js). */
  workerUrl: URL | string
  /** Cores to share out; default availableParallelism(). */
  cores?: number
  /** Called whenever a job changes (queued, progress, log line, end). */
  onUpdate?: (job: BakeJobView) => void
}

export class BakeManager {
  private readonly jobsByDomain = new Map<string, Job>()
  private readonly cores: number
  onUpdate: ((job: BakeJobView) => void) | null

  constructor(private readonly opts: BakeManagerOptions) {
    this.cores = Math.max(1, opts.cores ?? availableParallelism())
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
    }
    this.jobsByDomain.set(request.domainId, job)
    this.emit(job)
    this.schedule()
    return view(job)
  }

  /** Memory promised to running and queued bakes, bytes. */
  reservedMemory(): number {
    let sum = 0
    for (const j of this.jobsByDomain.values()) if (j.phase === 'queued' || j.phase === 'running') sum += j.memoryBytes
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

  /** Starts queued jobs while fewer than `cores` run; each gets an even share of the cores. */
  private schedule(): void {
    const all = [...this.jobsByDomain.values()]
    let running = all.filter((j) => j.phase === 'running').length
    const queued = all.filter((j) => j.phase === 'queued')
    const share = Math.max(1, Math.floor(this.cores / Math.min(this.cores, running + queued.length)))
    for (const job of queued) {
      if (running >= this.cores) break
      running++
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
      if (m.type === 'progress') job.progress = m.progress
      else if (m.type === 'log') pushLog(job, m.line)
      else if (m.type === 'done') {
        settled = true
        this.finish(job, m.result.state === 'cancelled' ? 'cancelled' : 'done', null)
      } else if (m.type === 'error') {
        settled = true
        this.finish(job, m.error.code === 'CANCELLED' ? 'cancelled' : 'failed', m.error)
      }
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

  private emit(job: Job): void {
    this.onUpdate?.(view(job))
  }
}

function pushLog(job: Job, line: string): void {
  const stamp = new Date().toISOString().slice(11, 19)
  job.log.push(`${stamp} ${line}`)
  if (job.log.length > LOG_LINES) job.log.splice(0, job.log.length - LOG_LINES)
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
  }
}
