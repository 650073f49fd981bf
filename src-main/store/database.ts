// Opening a project file: recognise it as Eddy's, set the connection's safety pragmas and
// bring its schema up to date. Everything that can tell "not ours" or "too new" runs
// before the first write, so a refused file is left byte-for-byte as it was.
import fs from 'node:fs'
import nodePath from 'node:path'
import Database from 'better-sqlite3'
import { EddyError } from '../../src-shared/api/errors'
import { MIGRATIONS } from './migrations'

/** 'EDDY' in ASCII: stored in the SQLite header so an Eddy file is told from any other. */
export const EDDY_APPLICATION_ID = 0x45444459

export const LATEST_SCHEMA_VERSION: number = MIGRATIONS[MIGRATIONS.length - 1].version

export interface OpenOptions {
  /** Allow a missing or empty file and initialise it; false requires an existing Eddy file. */
  create: boolean
  /**
   * 'wal' (default): readers never block the writer, but every process must be on one machine
   * (the log's index is shared memory). 'delete', a rollback journal: for a file one process
   * writes that may lie on a network file system (a farm task's cache file).
   */
  journal?: 'wal' | 'delete'
}

/**
 * A project file opened to read only, changing nothing on disk (no journal-mode switch, no
 * migration, no -wal or -shm files): what a farm task opens, many at once and maybe over a
 * network file system, where SQLite's write-ahead log cannot work. A scene copy is in
 * rollback-journal mode at this build's schema (ProjectStore.writeSceneCopy writes it so); a
 * project in write-ahead-log mode is opened as usual instead.
 */
export function openDatabaseReadOnly(path: string): Database.Database {
  if (!fs.existsSync(path)) throw new EddyError('NOT_FOUND', `Project file ${path} does not exist`, { path })
  let db: Database.Database
  try {
    db = new Database(path, { readonly: true, fileMustExist: true, timeout: 5000 })
  } catch (e) {
    throw toEddyError(e, path)
  }
  try {
    checkIdentity(db, path, false)
    const version = db.pragma('user_version', { simple: true }) as number
    if (version !== LATEST_SCHEMA_VERSION) throw new EddyError('PROJECT_FORMAT', `${path} is at schema ${version}, not this build's ${LATEST_SCHEMA_VERSION}: open it in the studio once, or submit again`, { path })
    // A project the studio writes (write-ahead log) rather than a scene copy: read it the usual
    // way, which needs its -shm file and so the same machine.
    if (db.pragma('journal_mode', { simple: true }) === 'wal') {
      db.close()
      return openDatabase(path, { create: false })
    }
    return db
  } catch (e) {
    db.close()
    throw toEddyError(e, path)
  }
}

export function openDatabase(path: string, options: OpenOptions): Database.Database {
  if (!options.create && !fs.existsSync(path)) {
    throw new EddyError('NOT_FOUND', `Project file ${path} does not exist`, { path })
  }
  if (options.create) {
    const dir = nodePath.dirname(nodePath.resolve(path))
    if (!fs.existsSync(dir)) throw new EddyError('IO_ERROR', `Folder ${dir} does not exist`, { path: dir })
  }

  let db: Database.Database
  try {
    // 5 s busy timeout: another Eddy process (a bake worker) may briefly hold the write lock.
    db = new Database(path, { fileMustExist: !options.create, timeout: 5000 })
  } catch (e) {
    throw toEddyError(e, path)
  }
  try {
    checkIdentity(db, path, options.create)
    // Only now may the file change: WAL switches the header's format bytes.
    setPragmas(db, path, options.journal ?? 'wal')
    migrate(db)
    return db
  } catch (e) {
    db.close()
    throw toEddyError(e, path)
  }
}

/** Read-only checks: application_id, schema version, emptiness. */
function checkIdentity(db: Database.Database, path: string, create: boolean): void {
  // The first read is where SQLite notices a non-database file (SQLITE_NOTADB).
  const appId = db.pragma('application_id', { simple: true }) as number
  const version = db.pragma('user_version', { simple: true }) as number
  if (appId === 0) {
    const objects = db.prepare('SELECT count(*) FROM sqlite_schema').pluck().get() as number
    const fresh = objects === 0 && version === 0
    if (!(create && fresh)) {
      throw new EddyError('PROJECT_FORMAT', `${path} is not an Eddy project (it is a different kind of database)`, { path })
    }
    return
  }
  if (appId !== EDDY_APPLICATION_ID) {
    throw new EddyError('PROJECT_FORMAT', `${path} is not an Eddy project (it belongs to another application)`, {
      path,
      applicationId: appId,
    })
  }
  if (version > LATEST_SCHEMA_VERSION) {
    throw new EddyError(
      'PROJECT_FORMAT',
      `${path} was saved by a newer version of Eddy (schema ${version}, this build knows up to ${LATEST_SCHEMA_VERSION})`,
      { path, schemaVersion: version, latestSchemaVersion: LATEST_SCHEMA_VERSION },
    )
  }
}

function setPragmas(db: Database.Database, path: string, journal: 'wal' | 'delete'): void {
  // WAL: readers (the viewport, a bake worker) never block the writer, and a killed
  // process leaves the main file intact; the WAL is replayed or discarded on next open.
  const mode = db.pragma(`journal_mode = ${journal === 'wal' ? 'WAL' : 'DELETE'}`, { simple: true })
  if (journal === 'delete') {
    if (mode !== 'delete') throw new EddyError('IO_ERROR', `Cannot use a rollback journal for ${path} (got journal mode '${String(mode)}')`, { path })
  } else if (mode !== 'wal') {
    // e.g. a network share without shared memory: safer to refuse than to run unjournalled.
    throw new EddyError('IO_ERROR', `Cannot use write-ahead logging for ${path} (got journal mode '${String(mode)}')`, { path })
  }
  // FULL: fsync the WAL on every commit. Edits are small, so the cost is negligible and a
  // crash or power cut loses at most the edit in flight (NORMAL could lose recent commits).
  db.pragma('synchronous = FULL')
  // Per connection and off by default: tracks must die with their object.
  db.pragma('foreign_keys = ON')
}

/**
 * Runs every migration newer than the file, each atomically with its user_version bump.
 * `seen` is the version this connection read before taking the write lock; another process
 * (a farm task creating the cache file the studio is opening) may have migrated the file since,
 * so each migration checks the version again under the lock and skips what is done (a test
 * passes a stale `seen` to play that race).
 */
export function migrate(db: Database.Database, seen = db.pragma('user_version', { simple: true }) as number): void {
  for (const m of MIGRATIONS) {
    if (m.version <= seen) continue
    db.transaction(() => {
      if ((db.pragma('user_version', { simple: true }) as number) >= m.version) return
      // Stamped with the first migration so a half-created file is never labelled Eddy.
      if (m.version === 1) db.pragma(`application_id = ${EDDY_APPLICATION_ID}`)
      m.up(db)
      db.pragma(`user_version = ${m.version}`)
    }).immediate()
  }
}

const FS_ERROR_CODES = new Set(['ENOENT', 'EACCES', 'EPERM', 'ENOSPC', 'EDQUOT', 'EEXIST', 'EROFS', 'EISDIR', 'ENOTDIR', 'EBUSY', 'EIO', 'EMFILE', 'EXDEV'])

/**
 * Turns SQLite and file-system failures into EddyErrors the artist can act on; EddyErrors
 * pass through and anything unrecognised (a bug) is returned unchanged.
 */
export function toEddyError(e: unknown, path: string): unknown {
  if (e instanceof EddyError) return e
  const code = (e as { code?: unknown } | null)?.code
  const message = e instanceof Error ? e.message : String(e)
  if (typeof code === 'string') {
    if (code === 'SQLITE_NOTADB') {
      return new EddyError('PROJECT_FORMAT', `${path} is not an Eddy project (file is not a database)`, { path })
    }
    if (code.startsWith('SQLITE_CORRUPT')) {
      return new EddyError('PROJECT_FORMAT', `${path} is damaged (${message})`, { path })
    }
    if (
      code.startsWith('SQLITE_CANTOPEN') ||
      code.startsWith('SQLITE_IOERR') ||
      code.startsWith('SQLITE_READONLY') ||
      code.startsWith('SQLITE_BUSY') ||
      code === 'SQLITE_FULL' ||
      code === 'SQLITE_PERM' ||
      FS_ERROR_CODES.has(code)
    ) {
      return new EddyError('IO_ERROR', `Cannot access ${path}: ${message}`, { path, cause: code })
    }
  }
  // better-sqlite3 reports a missing folder as a plain TypeError.
  if (e instanceof TypeError && /directory does not exist/.test(message)) {
    return new EddyError('IO_ERROR', `Cannot access ${path}: ${message}`, { path })
  }
  return e
}
