// Every export file appears under its final name complete or not at all: bytes go to a hidden
// temporary sibling (same folder, so the rename stays on one file system and is atomic),
// which is flushed to disk and then renamed over the final name. A cancel, a full disk or a
// crash leaves at worst a hidden ".tmp" file, which this module also removes on failure.
// Every call runs against a deadline and the job's AbortSignal (deadline.ts): a disk that
// stops answering fails the file with IO_ERROR, a Cancel stops waiting at once, and a write
// abandoned that way still has its temporary file removed once the system call returns.
import { randomBytes } from 'node:crypto'
import { constants as fsConstants, promises as fsp } from 'node:fs'
import * as nodePath from 'node:path'
import { EddyError } from '../../src-shared/api/errors'
import { ExportCancelledError } from './cancelled'
import { AbortedWaitError, DeadlineError, describeMs, withDeadline } from './deadline'
import { exportIoError } from './fsErrors'

/** The file-system calls an export makes; tests substitute one to provoke failures. */
export interface ExportFs {
  /** Creates the folder and its parents when missing (mkdir -p). */
  mkdirp(dir: string): Promise<void>
  /** Writes `bytes` to a file that must not exist yet, and flushes it to disk. */
  writeNew(path: string, bytes: Uint8Array): Promise<void>
  /** Renames, replacing an existing file at `to`. */
  rename(from: string, to: string): Promise<void>
  /** Deletes a file; a missing file is not an error. */
  remove(path: string): Promise<void>
  /** Resolves when new entries may be created in the existing folder `dir` (access W_OK). */
  checkWritable?(dir: string): Promise<void>
}

export const nodeExportFs: ExportFs = {
  async mkdirp(dir) {
    await fsp.mkdir(dir, { recursive: true })
  },
  async writeNew(path, bytes) {
    // 'wx' fails rather than follow a link or reuse a file someone else left under our name.
    const handle = await fsp.open(path, 'wx')
    try {
      await handle.writeFile(bytes)
      await handle.sync()
    } finally {
      await handle.close()
    }
  },
  async rename(from, to) {
    await fsp.rename(from, to)
  },
  async remove(path) {
    await fsp.rm(path, { force: true })
  },
  async checkWritable(dir) {
    // Reports EROFS for a read-only mount even to root, EACCES to a user without permission.
    await fsp.access(dir, fsConstants.W_OK)
  },
}

/**
 * How long one file-system call of an export may take before the disk counts as gone: a
 * fixed allowance for the call plus 1 s per MiB written (slow USB sticks and shares).
 */
export const EXPORT_FS_DEADLINE_MS = 30_000

export interface FsGuard {
  signal?: AbortSignal
  /** Per call; default EXPORT_FS_DEADLINE_MS. */
  deadlineMs?: number
}

/**
 * `op` raced against the guard: CANCELLED when the signal fires first, IO_ERROR naming `path`
 * when the deadline passes first (`bytes` extends the deadline by 1 s per MiB).
 */
export async function guarded<T>(op: Promise<T>, guard: FsGuard, what: string, path: string, bytes = 0): Promise<T> {
  const ms = (guard.deadlineMs ?? EXPORT_FS_DEADLINE_MS) + Math.ceil(bytes / 1048.576)
  try {
    return await withDeadline(op, ms, guard.signal)
  } catch (e) {
    if (e instanceof AbortedWaitError) throw new ExportCancelledError(`Export cancelled while ${what} ${path}`)
    if (e instanceof DeadlineError) {
      throw new EddyError('IO_ERROR', `The disk did not answer within ${describeMs(ms)} while ${what} ${path}; it may be a network share that went away`, { path, cause: 'ETIMEDOUT' })
    }
    throw e
  }
}

/** Hidden name next to `target`: `.name.ext.<pid>-<random>.tmp`. */
export function tempSibling(target: string): string {
  return nodePath.join(nodePath.dirname(target), `.${nodePath.basename(target)}.${process.pid}-${randomBytes(4).toString('hex')}.tmp`)
}

export const isTempName = (name: string): boolean => /^\..*\.tmp$/.test(name)

/** Writes `bytes` to `target` atomically; failures become IO_ERROR naming `target`. */
export async function writeFileAtomic(fs: ExportFs, target: string, bytes: Uint8Array, guard: FsGuard = {}): Promise<void> {
  const tmp = tempSibling(target)
  let written = false
  const write = fs.writeNew(tmp, bytes).then(() => void (written = true))
  try {
    await guarded(write, guard, 'writing', target, bytes.byteLength)
    await guarded(fs.rename(tmp, target), guard, 'renaming into place', target)
  } catch (e) {
    // The original failure is what the artist needs to see: cleanup errors are dropped. A
    // write still in flight (cancelled or past its deadline) may yet create the temporary
    // file, so it is removed when that write returns, by the very path it was written to.
    const remove = (): Promise<void> => fs.remove(tmp).catch(() => undefined)
    const removal = write.then(remove, remove)
    if (written || (await settledSoon(write))) await withDeadline(removal, 2000).catch(() => undefined)
    throw exportIoError(e, target, nodePath.dirname(target))
  }
}

/** Whether `p` has settled by the next turn of the event loop (without waiting for it). */
async function settledSoon(p: Promise<unknown>): Promise<boolean> {
  let done = false
  p.then(
    () => (done = true),
    () => (done = true),
  )
  await new Promise((r) => setImmediate(r))
  return done
}
