// Every export file appears under its final name complete or not at all: bytes go to a hidden
// temporary sibling (same folder, so the rename stays on one file system and is atomic),
// which is flushed to disk and then renamed over the final name. A cancel, a full disk or a
// crash leaves at worst a hidden ".tmp" file, which this module also removes on failure.
import { randomBytes } from 'node:crypto'
import { promises as fsp } from 'node:fs'
import * as nodePath from 'node:path'
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
}

/** Hidden name next to `target`: `.name.ext.<pid>-<random>.tmp`. */
export function tempSibling(target: string): string {
  return nodePath.join(nodePath.dirname(target), `.${nodePath.basename(target)}.${process.pid}-${randomBytes(4).toString('hex')}.tmp`)
}

export const isTempName = (name: string): boolean => /^\..*\.tmp$/.test(name)

/** Writes `bytes` to `target` atomically; failures become IO_ERROR naming `target`. */
export async function writeFileAtomic(fs: ExportFs, target: string, bytes: Uint8Array): Promise<void> {
  const tmp = tempSibling(target)
  try {
    await fs.writeNew(tmp, bytes)
    await fs.rename(tmp, target)
  } catch (e) {
    try {
      await fs.remove(tmp)
    } catch {
      // The original failure is what the artist needs to see.
    }
    throw exportIoError(e, target, nodePath.dirname(target))
  }
}
