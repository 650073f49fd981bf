// Save As, off the request path: a worker thread with its own read-only connection writes a
// consistent copy of the project (VACUUM INTO) to a hidden temporary sibling of the target,
// flushes it and links it into place. The host's thread never touches the target's disk, so
// a folder on a share that stopped answering costs this request its deadline, nothing else.
// Past the deadline the worker is abandoned (a system call cannot be interrupted) and told,
// through shared memory, never to put the copy in place; it removes its temporary files.
//
// The temporary name is ASCII (".eddy-save-<pid>-<random>.tmp") and every call uses that one
// string, so SQLite and Node write and remove the same bytes (they encode odd names apart).
import { randomBytes } from 'node:crypto'
import { createRequire } from 'node:module'
import nodePath from 'node:path'
import { Worker } from 'node:worker_threads'
import { EddyError } from '../../src-shared/api/errors'
import { describeMs } from '../export/deadline'
import { noteAbandoned } from './abandoned'
import { pathProblem } from './pathNames'

/** Base allowance of a Save As; 1 s per 2 MiB of project is added (slow shares). */
export const SAVE_AS_DEADLINE_MS = 30_000

const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads')
const fs = require('node:fs')
const path = require('node:path')
const { source, target, tmp, sqlite, flag } = workerData
const abandoned = () => Atomics.load(flag, 0) === 1
const cleanup = () => { for (const f of [tmp, tmp + '-journal', tmp + '-wal', tmp + '-shm']) { try { fs.rmSync(f, { force: true }) } catch {} } }
const answer = (m) => parentPort.postMessage(m)
function run() {
  const dir = path.dirname(target)
  let st
  try { st = fs.statSync(dir) } catch (e) { return answer({ ok: false, kind: 'noFolder', code: e.code, message: e.message }) }
  if (!st.isDirectory()) return answer({ ok: false, kind: 'notFolder' })
  if (fs.existsSync(target)) return answer({ ok: false, kind: 'exists' })
  if (abandoned()) return
  try {
    const Database = require(sqlite)
    const db = new Database(source, { readonly: true, fileMustExist: true, timeout: 5000 })
    try { db.prepare('VACUUM INTO ?').run(tmp) } finally { db.close() }
    const fd = fs.openSync(tmp, 'r+')
    try { fs.fsyncSync(fd) } finally { fs.closeSync(fd) }
    if (workerData.failAfterCopy) throw Object.assign(new Error(workerData.failAfterCopy), { code: 'EIO' })
    if (abandoned()) { cleanup(); return }
    try {
      fs.linkSync(tmp, target) // refuses an existing target, where rename would replace it
    } catch (e) {
      if (e.code === 'EEXIST') { cleanup(); return answer({ ok: false, kind: 'exists' }) }
      // No hard links (FAT, exFAT): rename, after checking once more.
      if (fs.existsSync(target)) { cleanup(); return answer({ ok: false, kind: 'exists' }) }
      fs.renameSync(tmp, target)
    }
    cleanup()
    answer({ ok: true })
  } catch (e) {
    cleanup()
    answer({ ok: false, kind: 'error', code: typeof e.code === 'string' ? e.code : undefined, message: String(e && e.message || e) })
  }
}
run()
`

interface WorkerAnswer {
  ok: boolean
  kind?: 'noFolder' | 'notFolder' | 'exists' | 'error'
  code?: string
  message?: string
}

export interface SaveCopyOptions {
  /** Whole-operation deadline; default SAVE_AS_DEADLINE_MS + 1 s per 2 MiB of `bytes`. */
  deadlineMs?: number
  /** Size of the project, for the default deadline. */
  bytes?: number
  /** Tests: fail with this message after the copy was written (checks the cleanup). */
  failAfterCopy?: string
}

/** A hidden ASCII name next to `target`. */
export function saveTempPath(target: string): string {
  return nodePath.join(nodePath.dirname(target), `.eddy-save-${process.pid}-${randomBytes(4).toString('hex')}.tmp`)
}

/**
 * Copies the project file `source` to `target` (which must not exist) in a worker thread.
 * Errors: INVALID_PARAM (a path the file system cannot hold), IO_ERROR (missing folder,
 * existing file, disk errors, no answer within the deadline).
 */
export function saveCopyOffThread(source: string, target: string, opts: SaveCopyOptions = {}): Promise<void> {
  const problem = pathProblem(target)
  if (problem) return Promise.reject(new EddyError('INVALID_PARAM', `The file name "${nodePath.basename(target)}" ${problem}; choose another name`, { field: 'path', path: 'path' }))
  const tmp = saveTempPath(target)
  const dir = nodePath.dirname(target)
  const ms = opts.deadlineMs ?? SAVE_AS_DEADLINE_MS + Math.ceil((opts.bytes ?? 0) / 2097.152)
  const flag = new Int32Array(new SharedArrayBuffer(4))
  const sqlite = createRequire(import.meta.url).resolve('better-sqlite3')
  const worker = new Worker(WORKER_SOURCE, { eval: true, workerData: { source, target, tmp, sqlite, flag, failAfterCopy: opts.failAfterCopy }, name: 'eddy-save-as' })
  return new Promise<void>((resolve, reject) => {
    let done = false
    const finish = (): boolean => {
      if (done) return false
      done = true
      clearTimeout(timer)
      return true
    }
    const timer = setTimeout(() => {
      if (!finish()) return
      Atomics.store(flag, 0, 1)
      worker.unref()
      noteAbandoned(worker, `Save As to ${target}`)
      reject(new EddyError('IO_ERROR', `The disk holding ${dir} did not answer within ${describeMs(ms)}; Save As was abandoned and ${target} not written`, { path: 'path', file: target, cause: 'ETIMEDOUT' }))
    }, ms)
    worker.once('message', (m: WorkerAnswer) => {
      if (!finish()) return
      if (m.ok) resolve()
      else reject(saveError(m, target))
    })
    worker.once('error', (e) => finish() && reject(new EddyError('IO_ERROR', `Could not save ${target}: ${e.message}`, { path: 'path', file: target })))
    worker.once('exit', (code) => finish() && reject(new EddyError('INTERNAL', `The Save As thread stopped (exit code ${code}) without an answer`, { file: target })))
  })
}

function saveError(m: WorkerAnswer, target: string): EddyError {
  const dir = nodePath.dirname(target)
  const details = { path: 'path', file: target, ...(m.code ? { cause: m.code } : {}) }
  switch (m.kind) {
    case 'noFolder':
      return new EddyError('IO_ERROR', `Folder "${dir}" does not exist`, details)
    case 'notFolder':
      return new EddyError('INVALID_PARAM', `"${dir}" is a file, not a folder`, details)
    case 'exists':
      return new EddyError('IO_ERROR', `${target} already exists`, details)
    default:
      switch (m.code) {
        case 'ENOSPC':
        case 'SQLITE_FULL':
          return new EddyError('IO_ERROR', `The disk is full: could not save ${target}`, details)
        case 'EROFS':
        case 'SQLITE_READONLY':
          return new EddyError('IO_ERROR', `Cannot save ${target}: the folder is on a read-only disk`, details)
        case 'EACCES':
        case 'EPERM':
        case 'SQLITE_CANTOPEN':
          return new EddyError('IO_ERROR', `Cannot save ${target}: permission denied or the folder cannot be written (${m.message ?? m.code})`, details)
        default:
          if (m.code?.startsWith('SQLITE_CORRUPT')) return new EddyError('PROJECT_FORMAT', `The open project is damaged, so it cannot be copied to ${target} (${m.message})`, details)
          return new EddyError('IO_ERROR', `Could not save ${target}: ${m.message ?? m.code ?? 'unknown error'}`, details)
      }
  }
}
