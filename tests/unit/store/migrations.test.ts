import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { randomBytes } from 'node:crypto'
import Database from 'better-sqlite3'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { EddyError } from '../../../src-shared/api/errors'
import type { SceneObject, Track } from '../../../src-shared/scene/types'
import { EDDY_APPLICATION_ID, LATEST_SCHEMA_VERSION, migrate, openDatabase } from '../../../src-main/store/database'
import { MIGRATIONS } from '../../../src-main/store/migrations'
import { ProjectStore } from '../../../src-main/store/projectStore'

let dir: string
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'eddy-migrate-'))
})
afterEach(() => {
  fs.rmSync(dir, { recursive: true, force: true })
})

function expectEddyError(fn: () => unknown, code: string, messagePart?: string): EddyError {
  try {
    fn()
  } catch (e) {
    expect(e).toBeInstanceOf(EddyError)
    expect((e as EddyError).code).toBe(code)
    if (messagePart) expect((e as EddyError).message).toContain(messagePart)
    return e as EddyError
  }
  throw new Error(`expected EddyError ${code}`)
}

/** Everything SQLite could have written next to a database file. */
function snapshot(file: string): Record<string, string> {
  const out: Record<string, string> = {}
  for (const f of [file, `${file}-wal`, `${file}-shm`, `${file}-journal`]) {
    if (fs.existsSync(f)) out[path.basename(f)] = fs.readFileSync(f).toString('hex')
  }
  return out
}

function tables(file: string): string[] {
  const db = new Database(file, { readonly: true })
  const names = db.prepare("SELECT name FROM sqlite_schema WHERE type = 'table' ORDER BY name").pluck().all() as string[]
  db.close()
  return names
}

const OBJECT: SceneObject = {
  id: 'emitter-1',
  kind: 'emitter',
  name: 'Old nozzle',
  params: { position: [0, 0.5, 0], rate: 2, enabled: true, profile: 'smooth' },
}
const TRACK: Track = {
  objectId: 'emitter-1',
  path: 'position.1',
  keys: [
    { frame: 1, value: 0.5, interp: 'bezier', handleLeft: [-5, 0.5], handleRight: [8, 0.5] },
    { frame: 30, value: 1.5, interp: 'linear' },
  ],
}

/** A project exactly as the first release (schema v1) wrote it. */
function buildV1File(file: string): void {
  const db = new Database(file)
  db.pragma('journal_mode = WAL')
  db.transaction(() => {
    db.pragma(`application_id = ${EDDY_APPLICATION_ID}`)
    MIGRATIONS[0].up(db)
    db.pragma('user_version = 1')
  })()
  const meta = db.prepare('INSERT INTO meta (key, value) VALUES (?, ?)')
  for (const [k, v] of Object.entries({ name: 'Legacy', fps: 30, frameStart: 0, frameEnd: 120, createdAt: '2024-01-02T03:04:05.000Z' })) {
    meta.run(k, JSON.stringify(v))
  }
  db.prepare('INSERT INTO objects (id, kind, name, ord, data) VALUES (?, ?, ?, ?, ?)').run(OBJECT.id, OBJECT.kind, OBJECT.name, 0, JSON.stringify(OBJECT))
  db.prepare('INSERT INTO tracks (object_id, path, keys) VALUES (?, ?, ?)').run(TRACK.objectId, TRACK.path, JSON.stringify(TRACK.keys))
  db.close()
}

describe('migrations', () => {
  it('is an ordered, gapless history starting at 1', () => {
    expect(MIGRATIONS.map((m) => m.version)).toEqual(MIGRATIONS.map((_, i) => i + 1))
    expect(LATEST_SCHEMA_VERSION).toBe(4)
    for (const m of MIGRATIONS) expect(m.description.length).toBeGreaterThan(0)
  })

  it('brings a v1 file forward to the latest schema, keeping its content', () => {
    const file = path.join(dir, 'legacy.eddy')
    buildV1File(file)
    expect(tables(file)).toEqual(['meta', 'objects', 'tracks'])

    const store = ProjectStore.open(file)
    expect(store.readDocument()).toEqual({
      meta: { name: 'Legacy', fps: 30, frameStart: 0, frameEnd: 120 },
      objects: [OBJECT],
      tracks: [TRACK],
      meshes: [],
    })
    expect(store.integrityCheck()).toBe('ok')
    store.close()

    const db = new Database(file, { readonly: true })
    expect(db.pragma('user_version', { simple: true })).toBe(LATEST_SCHEMA_VERSION)
    expect(db.pragma('application_id', { simple: true })).toBe(EDDY_APPLICATION_ID)
    expect(JSON.parse(db.prepare("SELECT value FROM meta WHERE key = 'createdWith'").pluck().get() as string)).toBe('eddy 0.1')
    // createdAt of the original file survives.
    expect(JSON.parse(db.prepare("SELECT value FROM meta WHERE key = 'createdAt'").pluck().get() as string)).toBe('2024-01-02T03:04:05.000Z')
    db.close()
    expect(tables(file)).toEqual(['bakes', 'checkpoints', 'frames', 'meshes', 'meta', 'objects', 'tracks'])

    // Reopening an up-to-date file runs nothing and changes nothing.
    const again = ProjectStore.open(file)
    expect(again.readDocument().objects).toEqual([OBJECT])
    again.close()
  })

  it('migrates a v2 file and keeps a createdWith written by its creator', () => {
    const file = path.join(dir, 'v2.eddy')
    const db = new Database(file)
    db.transaction(() => {
      db.pragma(`application_id = ${EDDY_APPLICATION_ID}`)
      MIGRATIONS[0].up(db)
      MIGRATIONS[1].up(db)
      db.pragma('user_version = 2')
    })()
    const meta = db.prepare('INSERT INTO meta (key, value) VALUES (?, ?)')
    for (const [k, v] of Object.entries({ name: 'V2', fps: 24, frameStart: 1, frameEnd: 10, createdWith: 'eddy 0.0-dev' })) {
      meta.run(k, JSON.stringify(v))
    }
    db.close()
    ProjectStore.open(file).close()
    const check = new Database(file, { readonly: true })
    expect(check.pragma("user_version", { simple: true })).toBe(LATEST_SCHEMA_VERSION)
    expect(JSON.parse(check.prepare("SELECT value FROM meta WHERE key = 'createdWith'").pluck().get() as string)).toBe('eddy 0.0-dev')
    check.close()
  })

  it('a new project is created at the latest version with the Eddy application id', () => {
    const file = path.join(dir, 'new.eddy')
    ProjectStore.create(file, { name: 'New', fps: 24, frameStart: 1, frameEnd: 100 }).close()
    const db = new Database(file, { readonly: true })
    expect(db.pragma('user_version', { simple: true })).toBe(LATEST_SCHEMA_VERSION)
    expect(db.pragma('application_id', { simple: true })).toBe(EDDY_APPLICATION_ID)
    db.close()
  })

  it('refuses a file from a newer Eddy without modifying it', () => {
    const file = path.join(dir, 'future.eddy')
    ProjectStore.create(file, { name: 'Future', fps: 24, frameStart: 1, frameEnd: 100 }).close()
    const raw = new Database(file)
    raw.pragma(`user_version = ${LATEST_SCHEMA_VERSION + 1}`)
    raw.exec('CREATE TABLE something_new (x)')
    raw.close()
    const before = snapshot(file)
    expect(Object.keys(before)).toEqual(['future.eddy'])

    const err = expectEddyError(() => ProjectStore.open(file), 'PROJECT_FORMAT', 'newer version of Eddy')
    expect(err.message).toContain(`schema ${LATEST_SCHEMA_VERSION + 1}, this build knows up to ${LATEST_SCHEMA_VERSION}`)
    expect(snapshot(file)).toEqual(before)
    // Not even "create" mode touches it.
    expectEddyError(() => openDatabase(file, { create: true }), 'PROJECT_FORMAT', 'newer version')
    expect(snapshot(file)).toEqual(before)
  })

  it('refuses a file that is not SQLite at all, naming it', () => {
    const file = path.join(dir, 'noise.eddy')
    fs.writeFileSync(file, Buffer.concat([Buffer.from('definitely not a database\n'), randomBytes(8192)]))
    const before = snapshot(file)
    expectEddyError(() => ProjectStore.open(file), 'PROJECT_FORMAT', file)
    expect(snapshot(file)).toEqual(before)

    const short = path.join(dir, 'short.eddy')
    fs.writeFileSync(short, 'hello')
    expectEddyError(() => ProjectStore.open(short), 'PROJECT_FORMAT', short)
  })

  it('refuses foreign SQLite files (other application id, or unlabelled with tables)', () => {
    const other = path.join(dir, 'other-app.db')
    let db = new Database(other)
    db.pragma('application_id = 0x12345678')
    db.exec("CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL); INSERT INTO meta VALUES ('name', '\"x\"')")
    db.close()
    const otherBefore = snapshot(other)
    expectEddyError(() => ProjectStore.open(other), 'PROJECT_FORMAT', 'another application')
    expectEddyError(() => openDatabase(other, { create: true }), 'PROJECT_FORMAT')
    expect(snapshot(other)).toEqual(otherBefore)

    const plain = path.join(dir, 'plain.sqlite')
    db = new Database(plain)
    db.exec('CREATE TABLE customers (id INTEGER PRIMARY KEY, name TEXT)')
    db.close()
    const plainBefore = snapshot(plain)
    expectEddyError(() => ProjectStore.open(plain), 'PROJECT_FORMAT', 'not an Eddy project')
    expectEddyError(() => openDatabase(plain, { create: true }), 'PROJECT_FORMAT')
    expect(snapshot(plain)).toEqual(plainBefore)

    // An empty, unlabelled file is only acceptable when creating.
    const empty = path.join(dir, 'empty.eddy')
    fs.writeFileSync(empty, '')
    expectEddyError(() => ProjectStore.open(empty), 'PROJECT_FORMAT')
    openDatabase(empty, { create: true }).close()
    expect(tables(empty)).toContain('frames')
  })

  it('reports a missing file as NOT_FOUND without creating it', () => {
    const file = path.join(dir, 'nowhere.eddy')
    expectEddyError(() => ProjectStore.open(file), 'NOT_FOUND', file)
    expectEddyError(() => openDatabase(file, { create: false }), 'NOT_FOUND', file)
    expect(fs.existsSync(file)).toBe(false)
  })
})

describe('two processes opening one new file', () => {
  it('a connection that read an older version before another migrated the file skips what is done (the farm race: "table bakes already exists")', () => {
    const file = path.join(dir, 'race.eddycache')
    // The other process: creates the file and runs every migration.
    openDatabase(file, { create: true }).close()
    // This one read user_version 0 (or 1) before that, and only now gets the write lock.
    for (const seen of [0, 1]) {
      const db = new Database(file, { timeout: 5000 })
      try {
        expect(() => migrate(db, seen)).not.toThrow()
        expect(db.pragma('user_version', { simple: true })).toBe(LATEST_SCHEMA_VERSION)
        expect(db.pragma('application_id', { simple: true })).toBe(EDDY_APPLICATION_ID)
      } finally {
        db.close()
      }
    }
    // The file opens as before.
    openDatabase(file, { create: false }).close()
  })
})
