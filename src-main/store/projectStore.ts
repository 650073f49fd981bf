// A project file on disk: the scene document and imported meshes, read whole and written
// as change sets. Every write is one transaction, so a crash or a failing change leaves
// the document exactly as it was before the change.
import fs from 'node:fs'
import os from 'node:os'
import nodePath from 'node:path'
import { randomBytes } from 'node:crypto'
import type Database from 'better-sqlite3'
import { EddyError } from '../../src-shared/api/errors'
import { MESH_FORMATS } from '../../src-shared/scene/types'
import type { Keyframe, MeshInfo, ProjectMeta, SceneDocument, SceneObject, Track } from '../../src-shared/scene/types'
import { openDatabase, openDatabaseReadOnly, toEddyError } from './database'
import { checkDocument } from './documentCheck'
import { mergeCacheFile, type MergedBake } from './cacheFile'
import { FrameCache } from './frameCache'
import { checkPathParam } from './pathNames'
import { saveCopyOffThread, saveTempPath, type SaveCopyOptions } from './saveCopy'

/** after null = delete; ord = outliner position, kept on re-insert so undoing a delete restores order. */
export interface ObjectChange {
  id: string
  after: SceneObject | null
  ord?: number
}
export interface TrackChange {
  objectId: string
  path: string
  after: Track | null
}
export interface ChangeSet {
  meta?: ProjectMeta
  objects?: ObjectChange[]
  tracks?: TrackChange[]
}

const META_KEYS = ['name', 'fps', 'frameStart', 'frameEnd'] as const

export class ProjectStore {
  readonly path: string
  /** Baked frames and checkpoints in this file. */
  readonly cache: FrameCache
  private readonly db: Database.Database

  private constructor(path: string, db: Database.Database) {
    this.path = path
    this.db = db
    this.cache = new FrameCache(db)
  }

  /**
   * Creates a new project file. It is built under a temporary name and renamed into place
   * once complete, so `path` never holds a half-initialised project.
   */
  static create(path: string, meta: ProjectMeta): ProjectStore {
    const target = nodePath.resolve(path)
    refuseExisting(target)
    const tmp = tempSibling(target)
    try {
      const db = openDatabase(tmp, { create: true })
      try {
        db.transaction(() => {
          writeMeta(db, meta)
          setMeta(db, 'createdAt', new Date().toISOString())
        }).immediate()
      } finally {
        db.close() // checkpoints the WAL into the file and removes it
      }
      fs.renameSync(tmp, target)
    } catch (e) {
      removeDatabaseFiles(tmp)
      throw toEddyError(e, target)
    }
    return ProjectStore.open(target)
  }

  static open(path: string): ProjectStore {
    const target = nodePath.resolve(path)
    return new ProjectStore(target, openDatabase(target, { create: false }))
  }

  /** Read only, changing nothing on disk (database.ts openDatabaseReadOnly): a farm task's scene copy. */
  static openReadOnly(path: string): ProjectStore {
    const target = nodePath.resolve(path)
    return new ProjectStore(target, openDatabaseReadOnly(target))
  }

  /**
   * Opens and reads every row of the document, checking each against the specs, before
   * anything may switch to it: a damaged row is PROJECT_FORMAT naming the table and the
   * object (id and name) or setting, and the connection is closed again.
   */
  static openChecked(path: string): { store: ProjectStore; doc: SceneDocument } {
    const store = ProjectStore.open(path)
    try {
      const doc = store.readDocument()
      checkDocument(doc, store.path)
      return { store, doc }
    } catch (e) {
      store.close()
      throw toEddyError(e, store.path)
    }
  }

  readDocument(): SceneDocument {
    const path = this.path
    // One read transaction: a consistent snapshot even if another connection writes.
    return this.db.transaction(() => ({
      meta: readMeta(this.db, path),
      objects: (this.db.prepare('SELECT id, name, data FROM objects ORDER BY ord, id').all() as { id: string; name: string; data: string }[]).map((r) => {
        const o = parseRow<SceneObject>(r.data, () => `object "${r.name}" (id ${r.id})`, path, { table: 'objects', id: r.id, name: r.name })
        if (typeof o !== 'object' || o === null || Array.isArray(o) || o.id !== r.id) {
          throw new EddyError('PROJECT_FORMAT', `${path} is damaged: object "${r.name}" (id ${r.id}) holds data of another object or none`, { path, table: 'objects', id: r.id, name: r.name })
        }
        return o
      }),
      tracks: (
        this.db
          .prepare('SELECT t.object_id, t.path, t.keys, o.name FROM tracks t JOIN objects o ON o.id = t.object_id ORDER BY o.ord, o.id, t.path')
          .all() as { object_id: string; path: string; keys: string; name: string }[]
      ).map((r) => ({
        objectId: r.object_id,
        path: r.path,
        keys: parseRow<Keyframe[]>(r.keys, () => `the animation of ${r.path} on object "${r.name}" (id ${r.object_id})`, path, { table: 'tracks', id: r.object_id, name: r.name, key: r.path }),
      })),
      // Info columns only: the triangles are fetched one mesh at a time by readMesh.
      meshes: (
        this.db.prepare('SELECT id, name, format, vertex_count, triangle_count, bounds FROM meshes ORDER BY name, id').all() as MeshRow[]
      ).map((r) => meshInfo(r, path)),
    }))()
  }

  objectOrders(): Map<string, number> {
    const rows = this.db.prepare('SELECT id, ord FROM objects').all() as { id: string; ord: number }[]
    return new Map(rows.map((r) => [r.id, r.ord]))
  }

  /**
   * Applies a change set in ONE transaction: all or nothing. Order: meta, object upserts,
   * track changes, object deletes, so a set may create an object and its tracks together,
   * and deleting an object also removes its tracks (ON DELETE CASCADE).
   */
  apply(change: ChangeSet): void {
    const db = this.db
    const run = db.transaction(() => {
      if (change.meta) writeMeta(db, change.meta)

      const objects = change.objects ?? []
      // Upsert, not INSERT OR REPLACE: REPLACE deletes the old row first, and that delete
      // would cascade to the object's tracks.
      const upsert = db.prepare(`
        INSERT INTO objects (id, kind, name, ord, data) VALUES (@id, @kind, @name, @ord, @data)
        ON CONFLICT (id) DO UPDATE SET kind = excluded.kind, name = excluded.name, ord = excluded.ord, data = excluded.data`)
      const currentOrd = db.prepare('SELECT ord FROM objects WHERE id = ?').pluck()
      const nextOrd = db.prepare('SELECT coalesce(max(ord) + 1, 0) FROM objects').pluck()
      for (const c of objects) {
        if (c.after === null) continue
        if (c.after.id !== c.id) {
          throw new EddyError('INVALID_PARAM', `Object change for ${c.id} carries object ${c.after.id}`, { id: c.id })
        }
        if (c.ord !== undefined && !Number.isSafeInteger(c.ord)) {
          throw new EddyError('INVALID_PARAM', `Object order must be an integer (got ${c.ord})`, { id: c.id })
        }
        // An existing object keeps its place unless told otherwise; a new one goes last.
        const ord = c.ord ?? (currentOrd.get(c.id) as number | undefined) ?? (nextOrd.get() as number)
        upsert.run({ id: c.id, kind: c.after.kind, name: c.after.name, ord, data: JSON.stringify(c.after) })
      }

      const objectExists = db.prepare('SELECT 1 FROM objects WHERE id = ?').pluck()
      const putTrack = db.prepare(`
        INSERT INTO tracks (object_id, path, keys) VALUES (?, ?, ?)
        ON CONFLICT (object_id, path) DO UPDATE SET keys = excluded.keys`)
      const deleteTrack = db.prepare('DELETE FROM tracks WHERE object_id = ? AND path = ?')
      for (const t of change.tracks ?? []) {
        if (t.after === null) {
          deleteTrack.run(t.objectId, t.path)
          continue
        }
        if (t.after.objectId !== t.objectId || t.after.path !== t.path) {
          throw new EddyError('INVALID_PARAM', `Track change for ${t.objectId}/${t.path} carries ${t.after.objectId}/${t.after.path}`, {
            objectId: t.objectId,
            path: t.path,
          })
        }
        // The foreign key would refuse this too; checking first gives the artist a sentence.
        if (objectExists.get(t.objectId) === undefined) {
          throw new EddyError('NOT_FOUND', `Cannot animate ${t.path}: object ${t.objectId} does not exist`, {
            objectId: t.objectId,
            path: t.path,
          })
        }
        putTrack.run(t.objectId, t.path, JSON.stringify(t.after.keys))
      }

      // Deleting an absent object is a no-op: replaying a delete (redo after a reload) is harmless.
      const remove = db.prepare('DELETE FROM objects WHERE id = ?')
      for (const c of objects) if (c.after === null) remove.run(c.id)
    })
    try {
      run.immediate()
    } catch (e) {
      throw toEddyError(e, this.path)
    }
  }

  insertMesh(info: MeshInfo, positions: Float32Array, indices: Uint32Array): void {
    if (!(MESH_FORMATS as readonly string[]).includes(info.format)) {
      throw new EddyError('INVALID_PARAM', `Unknown mesh format '${info.format}'`, { id: info.id })
    }
    if (positions.length !== info.vertexCount * 3 || indices.length !== info.triangleCount * 3) {
      throw new EddyError(
        'INVALID_PARAM',
        `Mesh ${info.name}: ${positions.length} floats and ${indices.length} indices do not match ${info.vertexCount} vertices and ${info.triangleCount} triangles`,
        { id: info.id },
      )
    }
    const db = this.db
    const run = db.transaction(() => {
      if (db.prepare('SELECT 1 FROM meshes WHERE id = ?').get(info.id) !== undefined) {
        throw new EddyError('INVALID_PARAM', `A mesh with id ${info.id} already exists`, { id: info.id })
      }
      db.prepare(
        `INSERT INTO meshes (id, name, format, vertex_count, triangle_count, bounds, positions, indices)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
      ).run(
        info.id,
        info.name,
        info.format,
        info.vertexCount,
        info.triangleCount,
        JSON.stringify(info.bounds),
        toBlob(positions, 'float32'),
        toBlob(indices, 'uint32'),
      )
    })
    try {
      run.immediate()
    } catch (e) {
      throw toEddyError(e, this.path)
    }
  }

  readMesh(id: string): { info: MeshInfo; positions: Float32Array; indices: Uint32Array } {
    const row = this.db.prepare('SELECT * FROM meshes WHERE id = ?').get(id) as MeshRow | undefined
    if (!row) throw new EddyError('NOT_FOUND', `Mesh ${id} does not exist`, { id })
    const damaged = () => new EddyError('PROJECT_FORMAT', `${this.path} is damaged: mesh ${id} has truncated data`, { id })
    if (row.positions.byteLength % 4 !== 0 || row.indices.byteLength % 4 !== 0) throw damaged()
    const positions = new Float32Array(fromBlob(row.positions, 'float32'))
    const indices = new Uint32Array(fromBlob(row.indices, 'uint32'))
    if (positions.length !== row.vertex_count * 3 || indices.length !== row.triangle_count * 3) throw damaged()
    return { info: meshInfo(row, this.path), positions, indices }
  }

  /** Removes meshes that no object's meshId references; returns how many went. */
  deleteUnusedMeshes(): number {
    const run = this.db.transaction(
      () =>
        this.db
          .prepare(
            `DELETE FROM meshes WHERE id NOT IN (
               SELECT json_extract(data, '$.meshId') FROM objects WHERE json_extract(data, '$.meshId') IS NOT NULL)`,
          )
          .run().changes,
    )
    try {
      return run.immediate()
    } catch (e) {
      throw toEddyError(e, this.path)
    }
  }

  /**
   * Writes a consistent copy (VACUUM INTO a temporary sibling, fsync, rename) and returns a
   * store opened on it. Refuses an existing file. This store stays open; the caller closes it.
   */
  saveAs(path: string): ProjectStore {
    const target = nodePath.resolve(path)
    checkPathParam(target, 'path')
    refuseExisting(target)
    // An ASCII name, used for every call: SQLite and Node encode odd names differently.
    const tmp = saveTempPath(target)
    try {
      this.db.prepare('VACUUM INTO ?').run(tmp)
      // VACUUM INTO does not sync its output; make the copy durable before it gets its name.
      const fd = fs.openSync(tmp, 'r+')
      try {
        fs.fsyncSync(fd)
      } finally {
        fs.closeSync(fd)
      }
      fs.renameSync(tmp, target)
    } catch (e) {
      removeDatabaseFiles(tmp)
      throw toEddyError(e, target)
    }
    return ProjectStore.open(target)
  }

  /**
   * saveAs off the request path: the copy is written by a worker thread (saveCopy.ts) with a
   * deadline, then opened here. Same checks and errors as saveAs, plus IO_ERROR on timeout.
   */
  async saveAsOffThread(path: string, opts: SaveCopyOptions = {}): Promise<ProjectStore> {
    const target = nodePath.resolve(path)
    checkPathParam(target, 'path')
    const pages = this.db.pragma('page_count', { simple: true }) as number
    const pageSize = this.db.pragma('page_size', { simple: true }) as number
    await saveCopyOffThread(this.path, target, { bytes: pages * pageSize, ...opts })
    return ProjectStore.open(target)
  }

  /** 'ok', or one line per problem (SQLite's integrity check, then dangling references). */
  integrityCheck(): string {
    const problems = (this.db.pragma('integrity_check') as { integrity_check: string }[]).map((r) => r.integrity_check)
    if (problems.length === 1 && problems[0] === 'ok') problems.length = 0
    for (const r of this.db.pragma('foreign_key_check') as { table: string; rowid: number; parent: string }[]) {
      problems.push(`${r.table} row ${r.rowid} refers to a missing ${r.parent} row`)
    }
    return problems.length === 0 ? 'ok' : problems.join('\n')
  }

  /**
   * Writes the scene alone (settings, objects, animation, meshes; no cached frames) as a new
   * project file at `target`: what a farm submission bakes, frozen when it was submitted.
   */
  writeSceneCopy(target: string): void {
    refuseExisting(target)
    openDatabase(target, { create: true }).close()
    try {
      this.db.prepare('ATTACH DATABASE ? AS copy').run(target)
    } catch (e) {
      throw toEddyError(e, target)
    }
    try {
      this.db.transaction(() => {
        for (const table of ['meta', 'objects', 'tracks', 'meshes']) {
          this.db.prepare(`DELETE FROM copy.${table}`).run()
          this.db.prepare(`INSERT INTO copy.${table} SELECT * FROM main.${table}`).run()
        }
      })()
      // A rollback journal, not a write-ahead log: farm tasks read it read-only, many at once,
      // maybe over a network file system, where a write-ahead log cannot be shared.
      this.db.pragma('copy.journal_mode = DELETE')
    } finally {
      this.db.prepare('DETACH DATABASE copy').run()
    }
  }

  /** Copies the finished bakes of a farm task's cache file into this project (cacheFile.ts). */
  mergeCacheFile(file: string, busy?: (key: string) => boolean): MergedBake[] {
    return mergeCacheFile(this.db, file, busy)
  }

  close(): void {
    if (this.db.open) this.db.close()
  }
}

// --- meta ---------------------------------------------------------------------------

function setMeta(db: Database.Database, key: string, value: unknown): void {
  db.prepare('INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value').run(
    key,
    JSON.stringify(value),
  )
}

function writeMeta(db: Database.Database, meta: ProjectMeta): void {
  for (const key of META_KEYS) setMeta(db, key, meta[key])
}

/** JSON of one row; unreadable JSON is PROJECT_FORMAT naming the row. */
function parseRow<T>(text: string, what: () => string, path: string, details: Record<string, unknown>): T {
  try {
    return JSON.parse(text) as T
  } catch (e) {
    throw new EddyError('PROJECT_FORMAT', `${path} is damaged: ${what()} is truncated or not valid JSON (${e instanceof Error ? e.message : String(e)})`, { path, ...details })
  }
}

function readMeta(db: Database.Database, path: string): ProjectMeta {
  const rows = db.prepare('SELECT key, value FROM meta').all() as { key: string; value: string }[]
  const values = new Map(rows.map((r) => [r.key, parseRow<unknown>(r.value, () => `project setting '${r.key}'`, path, { table: 'meta', key: r.key })]))
  for (const key of META_KEYS) {
    if (!values.has(key)) throw new EddyError('PROJECT_FORMAT', `${path} is damaged: project setting '${key}' is missing`, { path, table: 'meta', key })
  }
  return {
    name: values.get('name') as string,
    fps: values.get('fps') as number,
    frameStart: values.get('frameStart') as number,
    frameEnd: values.get('frameEnd') as number,
  }
}

// --- meshes -------------------------------------------------------------------------

interface MeshRow {
  id: string
  name: string
  format: MeshInfo['format']
  vertex_count: number
  triangle_count: number
  bounds: string
  positions: Buffer
  indices: Buffer
}

function meshInfo(r: MeshRow, path = ''): MeshInfo {
  return {
    id: r.id,
    name: r.name,
    format: r.format,
    vertexCount: r.vertex_count,
    triangleCount: r.triangle_count,
    bounds: parseRow<MeshInfo['bounds']>(r.bounds, () => `the bounds of mesh "${r.name}" (id ${r.id})`, path, { table: 'meshes', id: r.id, name: r.name }),
  }
}

const LITTLE_ENDIAN = os.endianness() === 'LE'

/** Typed array -> little-endian bytes. A view suffices: SQLite copies bound blobs. */
function toBlob(a: Float32Array | Uint32Array, type: 'float32' | 'uint32'): Buffer {
  if (LITTLE_ENDIAN) return Buffer.from(a.buffer, a.byteOffset, a.byteLength)
  const out = Buffer.alloc(a.length * 4)
  for (let i = 0; i < a.length; i++) {
    if (type === 'float32') out.writeFloatLE(a[i], i * 4)
    else out.writeUInt32LE(a[i], i * 4)
  }
  return out
}

/**
 * Little-endian bytes -> a fresh, 4-aligned ArrayBuffer. Buffers returned by SQLite may sit
 * at any offset (Node's pool), and a Float32Array view needs a multiple of 4, so copy.
 */
function fromBlob(b: Buffer, type: 'float32' | 'uint32'): ArrayBuffer {
  const out = new ArrayBuffer(b.byteLength)
  if (LITTLE_ENDIAN) {
    new Uint8Array(out).set(b)
    return out
  }
  const view = new DataView(out)
  for (let i = 0; i < b.byteLength; i += 4) {
    if (type === 'float32') view.setFloat32(i, b.readFloatLE(i), false)
    else view.setUint32(i, b.readUInt32LE(i), false)
  }
  return out
}

// --- files --------------------------------------------------------------------------

function refuseExisting(target: string): void {
  const dir = nodePath.dirname(target)
  if (!fs.existsSync(dir)) throw new EddyError('IO_ERROR', `Folder ${dir} does not exist`, { path: dir })
  if (fs.existsSync(target)) throw new EddyError('IO_ERROR', `${target} already exists`, { path: target })
}

/** A hidden name in the same folder, so the final rename stays on one file system (atomic). */
// ASCII only: SQLite and Node would write an odd name (a lone surrogate) as different bytes.
export function tempSibling(target: string): string {
  return nodePath.join(nodePath.dirname(target), `.eddy-new-${process.pid}-${randomBytes(4).toString('hex')}.tmp`)
}

/** Best-effort cleanup after a failed create/saveAs; must not mask the original error. */
function removeDatabaseFiles(file: string): void {
  for (const f of [file, `${file}-wal`, `${file}-shm`, `${file}-journal`]) {
    try {
      fs.rmSync(f, { force: true })
    } catch {
      // ignored: see above
    }
  }
}
