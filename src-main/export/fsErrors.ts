// File-system failures as sentences an artist can act on: what went wrong and which path.
// Node's own messages ("ENOSPC: no space left on device, write") name neither the cause in
// plain words nor, for write(), the file.
import { promises as fsp, statSync } from 'node:fs'
import * as nodePath from 'node:path'
import { EddyError } from '../../src-shared/api/errors'
import { withDeadline } from './deadline'

/**
 * `path` is the file (or folder) being written, `dir` the export folder. Errors without an
 * errno code (bugs) and EddyErrors are returned unchanged.
 */
export function exportIoError(e: unknown, path: string, dir: string): unknown {
  if (e instanceof EddyError) return e
  const code = (e as { code?: unknown } | null)?.code
  if (typeof code !== 'string') return e
  const details = { path, cause: code }
  switch (code) {
    case 'ENOSPC':
      return new EddyError('IO_ERROR', `The disk is full: could not write ${path}`, details)
    case 'EDQUOT':
      return new EddyError('IO_ERROR', `The disk quota is used up: could not write ${path}`, details)
    case 'EACCES':
    case 'EPERM':
      return new EddyError('IO_ERROR', `Cannot write to the export folder ${dir}: permission denied`, details)
    case 'EROFS':
      return new EddyError('IO_ERROR', `Cannot write to the export folder ${dir}: it is on a read-only disk`, details)
    case 'ENOTDIR':
      return new EddyError('IO_ERROR', `${firstFileOnPath(path) ?? dir} is a file, not a folder`, { ...details, path: firstFileOnPath(path) ?? dir })
    case 'EEXIST':
      // mkdir -p reports EEXIST when the folder's name is taken by a file.
      return new EddyError('IO_ERROR', `${path} is a file, not a folder`, details)
    case 'EISDIR':
      return new EddyError('IO_ERROR', `${path} is a folder, so the export cannot write a file there`, details)
    case 'ENOENT':
      return new EddyError('IO_ERROR', `The export folder ${dir} disappeared while writing ${path}`, details)
    case 'EMFILE':
    case 'ENFILE':
      return new EddyError('IO_ERROR', `Too many open files: could not write ${path}`, details)
    default: {
      const why = e instanceof Error ? e.message : String(e)
      return new EddyError('IO_ERROR', `Could not write ${path}: ${why}`, details)
    }
  }
}

/** The first existing non-folder on the way to `path` (what ENOTDIR complains about). */
function firstFileOnPath(path: string): string | undefined {
  // Synchronous on purpose: only ever called once, on the failure path.
  const parts = nodePath.resolve(path).split(nodePath.sep)
  for (let i = 2; i <= parts.length; i++) {
    const p = parts.slice(0, i).join(nodePath.sep) || nodePath.sep
    try {
      if (!statSync(p).isDirectory()) return p
    } catch {
      return undefined
    }
  }
  return undefined
}

/**
 * A failure to create the export folder (mkdir -p). ENOENT there does not mean a folder
 * "disappeared": some part of the path does not exist and cannot be created. The nearest
 * existing folder on the way is asked why (read-only file system, permission), within 2 s.
 */
export async function exportFolderError(e: unknown, outDir: string, checkWritable?: (dir: string) => Promise<void>): Promise<unknown> {
  const code = (e as { code?: unknown } | null)?.code
  if (e instanceof EddyError || code !== 'ENOENT') return exportIoError(e, outDir, outDir)
  const details = { path: outDir, cause: code }
  const ancestor = await withDeadline(nearestExistingFolder(outDir), 2000).catch(() => undefined)
  if (ancestor === undefined) {
    return new EddyError('IO_ERROR', `The export folder ${outDir} does not exist and cannot be created`, details)
  }
  let why: string | undefined
  try {
    if (checkWritable) await withDeadline(checkWritable(ancestor), 2000)
  } catch (err) {
    const c = (err as { code?: unknown } | null)?.code
    if (c === 'EROFS') why = `${ancestor} is on a read-only file system`
    else if (c === 'EACCES' || c === 'EPERM') why = `permission denied to create folders in ${ancestor}`
  }
  if (why) return new EddyError('IO_ERROR', `The export folder ${outDir} does not exist and cannot be created: ${why}`, { ...details, parent: ancestor })
  return new EddyError('IO_ERROR', `The export folder ${outDir} does not exist and cannot be created in ${ancestor} (the system refused: ${e instanceof Error ? e.message : String(e)})`, { ...details, parent: ancestor })
}

/** The deepest existing folder on the way to `path`, or undefined. */
async function nearestExistingFolder(path: string): Promise<string | undefined> {
  let p = nodePath.dirname(nodePath.resolve(path))
  for (;;) {
    try {
      if ((await fsp.stat(p)).isDirectory()) return p
    } catch {
      // missing: go up
    }
    const up = nodePath.dirname(p)
    if (up === p) return undefined
    p = up
  }
}
