// A frame cache in a file of its own, beside the project: what one farm task writes, so that
// concurrent tasks never write the same SQLite file (SQLite's locking is not to be trusted
// on network file systems, and one writer per file needs none). The file has the project
// schema (openDatabase), with an empty scene, so FrameCache reads and writes it unchanged;
// the studio copies its bakes into the project when it opens it (mergeCacheFile).
import fs from 'node:fs'
import type Database from 'better-sqlite3'
import { EddyError } from '../../src-shared/api/errors'
import { openDatabase, toEddyError } from './database'
import { FrameCache } from './frameCache'

export interface CacheFile {
  path: string
  cache: FrameCache
  close(): void
}

/**
 * A rollback journal rather than a write-ahead log: one task writes the file, maybe on a
 * network file system, where a write-ahead log's shared-memory index cannot live.
 */
export function openCacheFile(path: string, opts: { create: boolean }): CacheFile {
  const db = openDatabase(path, { create: opts.create, journal: 'delete' })
  return {
    path,
    cache: new FrameCache(db),
    close: () => {
      if (db.open) db.close()
    },
  }
}

// Named columns: a file written by another build keeps these even if it has more.
const BAKE_COLUMNS = 'id, domain_id, status, message, params_hash, created_at, updated_at, settings'
const FRAME_COLUMNS = 'bake_id, frame, kind, encoding, data, stats, sig'
const CHECKPOINT_COLUMNS = 'bake_id, frame, data, sig'

export interface MergedBake {
  key: string
  frames: number
  /** Why a bake of the file was left out (still baking, older than the project's). */
  skipped: string | null
}

/**
 * Copies the finished bakes of a cache file into the project's cache, each replacing the
 * project's bake of the same key when the file's is newer, in one transaction per bake: a
 * merge killed half-way leaves each bake either as it was or wholly the file's. A bake still
 * at 'baking' (a task that runs, or one that was killed) stays out: it is resumed from its
 * file. Merging the same file again changes nothing.
 */
export function mergeCacheFile(db: Database.Database, file: string, busy: (key: string) => boolean = () => false): MergedBake[] {
  if (!fs.existsSync(file)) throw new EddyError('NOT_FOUND', `Cache file ${file} does not exist`, { path: file })
  // Opened (not just attached) first: the file is checked to be Eddy's and its WAL replayed.
  openCacheFile(file, { create: false }).close()
  try {
    db.prepare('ATTACH DATABASE ? AS farm').run(file)
  } catch (e) {
    throw toEddyError(e, file)
  }
  try {
    const rows = db.prepare('SELECT id, domain_id, status, updated_at FROM farm.bakes').all() as { id: string; domain_id: string; status: string; updated_at: string }[]
    const out: MergedBake[] = []
    for (const r of rows) {
      if (r.status === 'baking') {
        out.push({ key: r.id, frames: 0, skipped: 'still baking, or stopped without finishing (resume it on the farm)' })
        continue
      }
      if (busy(r.id)) {
        out.push({ key: r.id, frames: 0, skipped: 'the studio is baking it now' })
        continue
      }
      const mine = db.prepare('SELECT updated_at FROM main.bakes WHERE id = ?').pluck().get(r.id) as string | undefined
      if (mine !== undefined && mine >= r.updated_at) {
        out.push({ key: r.id, frames: 0, skipped: mine === r.updated_at ? 'already merged' : 'the project holds a newer bake of it' })
        continue
      }
      const frames = db.transaction(() => {
        db.prepare('DELETE FROM main.bakes WHERE id = ?').run(r.id)
        db.prepare(`INSERT INTO main.bakes (${BAKE_COLUMNS}) SELECT ${BAKE_COLUMNS} FROM farm.bakes WHERE id = ?`).run(r.id)
        const n = db.prepare(`INSERT INTO main.frames (${FRAME_COLUMNS}) SELECT ${FRAME_COLUMNS} FROM farm.frames WHERE bake_id = ? AND kind = 'frame'`).run(r.id).changes
        db.prepare(`INSERT INTO main.frames (${FRAME_COLUMNS}) SELECT ${FRAME_COLUMNS} FROM farm.frames WHERE bake_id = ? AND kind <> 'frame'`).run(r.id)
        db.prepare(`INSERT INTO main.checkpoints (${CHECKPOINT_COLUMNS}) SELECT ${CHECKPOINT_COLUMNS} FROM farm.checkpoints WHERE bake_id = ?`).run(r.id)
        return n
      }).immediate()
      out.push({ key: r.id, frames: frames, skipped: null })
    }
    return out
  } finally {
    db.prepare('DETACH DATABASE farm').run()
  }
}
