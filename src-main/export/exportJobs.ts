// Export jobs of the host: one at a time per simulation, run in the background so the
// request queue stays free (the artist keeps editing), reported by 'export.update' events,
// cancelled through an AbortSignal between files. Cancel answers at once: every file-system
// call of a job stops waiting when it is aborted (a call stuck on a dead disk is left behind,
// see deadline.ts), and Cancel waits at most CANCEL_WAIT_MS for the job to wind down.
import { join } from 'node:path'
import type { ApiErrorData } from '../../src-shared/api/errors'
import { EddyError, isEddyError } from '../../src-shared/api/errors'
import type { ProjectStore } from '../store/projectStore'
import { cacheExportSource } from './cacheSource'
import type { ExportFs } from './atomicFile'
import { withDeadline } from './deadline'
import { runExport, type ExportManifest, type ExportOptions } from './exportJob'
import { resolveExportOptions } from './exportOptions'
import { manifestFileName } from './fileNames'

/** The longest Cancel (and closing the project) waits for a job to stop. */
export const CANCEL_WAIT_MS = 1000

export interface ExportJobsOptions {
  /** File-system seam for tests (default: node:fs). */
  fs?: ExportFs
  /** Deadline of one file-system call (default: runExport's). */
  fsDeadlineMs?: number
}

export interface ExportJobView {
  domainId: string
  phase: 'running' | 'done' | 'cancelled' | 'failed'
  format: ExportOptions['format']
  outDir: string
  done: number
  total: number
  lastFile: string | null
  manifestPath: string | null
  files: number
  error: ApiErrorData | null
}

interface Job extends ExportJobView {
  abort: AbortController
  ended: Promise<void>
}

export class ExportJobs {
  private readonly jobs = new Map<string, Job>()
  onUpdate: ((job: ExportJobView) => void) | null = null

  constructor(private readonly opts: ExportJobsOptions = {}) {}

  start(store: ProjectStore, domainId: string, options: ExportOptions): ExportJobView {
    const current = this.jobs.get(domainId)
    if (current?.phase === 'running') throw new EddyError('INVALID_PARAM', 'This simulation is already exporting; cancel it first', { field: 'domainId' })
    // Checked now, so a bad range or an empty cache is the request's error, not a later event.
    const source = cacheExportSource(store, domainId, options)
    resolveExportOptions(source, options)
    const abort = new AbortController()
    const job = { domainId, phase: 'running', format: options.format, outDir: options.outDir, done: 0, total: 0, lastFile: null, manifestPath: null, files: 0, error: null, abort } as Omit<Job, 'ended'> as Job
    job.ended = runExport(source, options, {
      signal: abort.signal,
      fs: this.opts.fs,
      fsDeadlineMs: this.opts.fsDeadlineMs,
      onProgress: (p) => {
        if (job.phase !== 'running') return
        job.done = p.done
        job.total = p.total
        job.lastFile = p.file
        job.files++
        this.emit(job)
      },
    }).then(
      (m: ExportManifest) => {
        if (job.phase !== 'running') return // Cancel gave up waiting and already ended it
        job.phase = 'done'
        job.done = job.total = m.files.length ? new Set(m.files.map((f) => f.frame)).size : 0
        job.manifestPath = join(options.outDir, manifestFileName(m.baseName, m.format))
        this.emit(job)
      },
      (e: unknown) => {
        if (job.phase !== 'running') return
        job.phase = isEddyError(e) && e.code === 'CANCELLED' ? 'cancelled' : 'failed'
        job.error = isEddyError(e) ? e.toData() : { code: 'INTERNAL', message: `Export failed: ${e instanceof Error ? e.message : String(e)}` }
        this.emit(job)
      },
    )
    this.jobs.set(domainId, job)
    this.emit(job)
    return view(job)
  }

  async cancel(domainId: string): Promise<boolean> {
    const job = this.jobs.get(domainId)
    if (!job || job.phase !== 'running') return false
    job.abort.abort()
    const ended = await withDeadline(job.ended, CANCEL_WAIT_MS).then(
      () => true,
      () => false,
    )
    if (!ended && job.phase === 'running') {
      // Something other than a file-system call is holding it (a frame still encoding): it
      // stops at its next check of the signal; for the artist it is cancelled now.
      job.phase = 'cancelled'
      job.error = { code: 'CANCELLED', message: 'Export cancelled' }
      this.emit(job)
    }
    return true
  }

  async cancelAll(): Promise<void> {
    await Promise.all([...this.jobs.keys()].map((id) => this.cancel(id)))
  }

  /** Resolves when the job (if any) has ended; for tests and the CLI. */
  async settled(domainId: string): Promise<ExportJobView | null> {
    const job = this.jobs.get(domainId)
    if (!job) return null
    await job.ended
    return view(job)
  }

  job(domainId: string): ExportJobView | null {
    const j = this.jobs.get(domainId)
    return j ? view(j) : null
  }

  private emit(job: Job): void {
    this.onUpdate?.(view(job))
  }
}

function view(j: Job): ExportJobView {
  const { abort: _a, ended: _e, ...rest } = j
  return { ...rest }
}
