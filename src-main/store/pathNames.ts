// Paths the file system cannot hold, refused before anything is written. A lone UTF-16
// surrogate ("a\uD800b") has no UTF-8 form: Node writes U+FFFD in its place while SQLite
// writes the surrogate's three raw bytes, so one name would become two different files.
import nodePath from 'node:path'
import { EddyError } from '../../src-shared/api/errors'

/** Longest file name (one path component) common file systems hold, in UTF-8 bytes. */
export const MAX_NAME_BYTES = 255

/** Why `path` cannot be a file system path, or null when it can. */
export function pathProblem(path: string): string | null {
  if (path.includes('\0')) return 'contains a NUL character'
  if (/\p{Cs}/u.test(path)) return 'contains a character no file system can store (a lone UTF-16 surrogate)'
  for (const part of path.split(/[\\/]/)) {
    if (Buffer.byteLength(part, 'utf8') > MAX_NAME_BYTES) return `has a name longer than ${MAX_NAME_BYTES} bytes ("${part.slice(0, 24)}...")`
  }
  return null
}

/** INVALID_PARAM naming `field` when `path` cannot be a file system path. */
export function checkPathParam(path: string, field: string): void {
  const problem = pathProblem(path)
  if (problem) throw new EddyError('INVALID_PARAM', `The ${field === 'dir' ? 'folder' : 'path'} "${nodePath.basename(path)}" ${problem}; choose another name`, { field, path: field })
}
