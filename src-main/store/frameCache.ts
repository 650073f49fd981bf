// The frame cache inside a project file: one `bakes` row per simulation domain (its id is
// the domain's id), one `frames` row per baked frame (an encoded frame record, see
// src-shared/formats/frameRecord) and a `checkpoints` row every N frames (the solver's full
// state, deflated). Each frame and each checkpoint is written in its own transaction, so a
// process killed mid-bake keeps every frame it finished and never a half-written one.
//
// A smoke frame also gets two rows the viewport reads instead of the record: its preview
// (framePreview.ts, kind 'preview') and the record without its volumes (kind 'display'), both
// written with the frame, so showing a cached frame reads neither the volumes nor their CRC.
//
// Several connections use this at once (the host's, and one per bake worker); WAL lets the
// viewport read frames while a worker writes them.
import { openCheckpoint, sealCheckpoint } from './checkpointSeal'
import type Database from 'better-sqlite3'
import { EddyError } from '../../src-shared/api/errors'
import { withoutVolumes } from '../../src-shared/formats/frameRecord'

export type BakeState = 'baking' | 'done' | 'cancelled' | 'failed'

export interface BakeSettings {
  /** Frames the bake covers, inclusive. */
  frameStart: number
  frameEnd: number
  /** Checkpoint every N frames (and at the last frame of a run). */
  checkpointEvery: number
  precision: 'float32' | 'float16' | 'uint8'
  solver: string
}

export interface BakeRow {
  domainId: string
  state: BakeState
  message: string | null
  settings: BakeSettings
  updatedAt: string
}

/** Solver figures stored with each frame (timing plot, log). */
export interface FrameStats {
  ms: number
  substeps: number
  pressureIterations: number
  particleCount: number
  bytes: number
}

export interface CachedFrameInfo {
  frame: number
  sig: string
  stats: FrameStats | null
}

export class FrameCache {
  constructor(private readonly db: Database.Database) {}

  bake(domainId: string): BakeRow | null {
    const r = this.db.prepare('SELECT domain_id, status, message, settings, updated_at FROM bakes WHERE id = ?').get(domainId) as
      | { domain_id: string; status: BakeState; message: string | null; settings: string; updated_at: string }
      | undefined
    if (!r) return null
    return { domainId: r.domain_id, state: r.status, message: r.message, settings: JSON.parse(r.settings) as BakeSettings, updatedAt: r.updated_at }
  }

  bakes(): BakeRow[] {
    const ids = this.db.prepare('SELECT id FROM bakes ORDER BY id').pluck().all() as string[]
    return ids.map((id) => this.bake(id)).filter((b): b is BakeRow => b !== null)
  }

  /** Creates or updates the bake row (settings and state); keeps its frames. */
  setBake(domainId: string, settings: BakeSettings, state: BakeState, message: string | null = null): void {
    const now = new Date().toISOString()
    this.db
      .prepare(
        `INSERT INTO bakes (id, domain_id, status, message, params_hash, created_at, updated_at, settings)
         VALUES (@id, @id, @state, @message, NULL, @now, @now, @settings)
         ON CONFLICT (id) DO UPDATE SET status = excluded.status, message = excluded.message, updated_at = excluded.updated_at, settings = excluded.settings`,
      )
      .run({ id: domainId, state, message, now, settings: JSON.stringify(settings) })
  }

  setState(domainId: string, state: BakeState, message: string | null = null): void {
    this.db.prepare('UPDATE bakes SET status = ?, message = ?, updated_at = ? WHERE id = ?').run(state, message, new Date().toISOString(), domainId)
  }

  /** Deletes every frame and checkpoint of a bake (a fresh Bake), keeping its row. */
  clearFrames(domainId: string): void {
    this.db.transaction(() => {
      this.db.prepare('DELETE FROM frames WHERE bake_id = ?').run(domainId)
      this.db.prepare('DELETE FROM checkpoints WHERE bake_id = ?').run(domainId)
    })()
  }

  /**
   * Replaces bake `to` with a copy of bake `from` (its row, frames and checkpoints), in one
   * transaction: promoting a wedge variant to the main cache.
   */
  copyBake(from: string, to: string): number {
    return this.db.transaction(() => {
      const row = this.db.prepare('SELECT status, message, settings FROM bakes WHERE id = ?').get(from) as { status: string; message: string | null; settings: string } | undefined
      if (!row) throw new EddyError('NOT_FOUND', 'This variant has not been baked yet; bake it before promoting it', { field: 'variant' })
      const now = new Date().toISOString()
      this.db.prepare('DELETE FROM bakes WHERE id = ?').run(to)
      this.db
        .prepare(`INSERT INTO bakes (id, domain_id, status, message, params_hash, created_at, updated_at, settings) VALUES (?, ?, ?, ?, NULL, ?, ?, ?)`)
        .run(to, to, row.status, row.message, now, now, row.settings)
      const n = this.db.prepare(`INSERT INTO frames (bake_id, frame, kind, encoding, data, stats, sig) SELECT ?, frame, kind, encoding, data, stats, sig FROM frames WHERE bake_id = ?`).run(to, from).changes
      this.db.prepare(`INSERT INTO checkpoints (bake_id, frame, data, sig) SELECT ?, frame, data, sig FROM checkpoints WHERE bake_id = ?`).run(to, from)
      return n
    })()
  }

  /** Deletes the bake and all its frames (Clear). */
  deleteBake(domainId: string): void {
    this.db.prepare('DELETE FROM bakes WHERE id = ?').run(domainId)
  }

  /**
   * A frame's record and, for smoke, its viewport preview (framePreview.ts) and the record
   * without volumes, in one transaction: neither outlives nor predates its frame.
   */
  writeFrame(domainId: string, frame: number, record: Uint8Array, sig: string, stats: FrameStats, preview: Uint8Array | null = null): void {
    this.db.transaction(() => {
      this.db
        .prepare(`INSERT OR REPLACE INTO frames (bake_id, frame, kind, encoding, data, stats, sig) VALUES (?, ?, 'frame', 'EDFR', ?, ?, ?)`)
        .run(domainId, frame, blob(record), JSON.stringify(stats), sig)
      if (preview) {
        this.db.prepare(`INSERT OR REPLACE INTO frames (bake_id, frame, kind, encoding, data, stats, sig) VALUES (?, ?, 'preview', 'EDPV', ?, NULL, ?)`).run(domainId, frame, blob(preview), sig)
        this.db.prepare(`INSERT OR REPLACE INTO frames (bake_id, frame, kind, encoding, data, stats, sig) VALUES (?, ?, 'display', 'EDFR', ?, NULL, ?)`).run(domainId, frame, blob(withoutVolumes(record)), sig)
      } else {
        this.db.prepare(`DELETE FROM frames WHERE bake_id = ? AND frame = ? AND kind IN ('preview', 'display')`).run(domainId, frame)
      }
    })()
  }

  /** The viewport preview of a frame, or null when it has none (liquids, older bakes). */
  readPreview(domainId: string, frame: number): Uint8Array<ArrayBuffer> | null {
    return this.readRow(domainId, frame, 'preview', 'Cached frame preview')
  }

  /**
   * What the viewport draws of a frame with a preview: the preview and the record without its
   * volumes (stored with the frame; stripped from the record here for frames baked before
   * that row existed). null when the frame has no preview (the viewport reads the record).
   */
  readDisplay(domainId: string, frame: number): { preview: Uint8Array<ArrayBuffer>; record: Uint8Array } | null {
    const preview = this.readPreview(domainId, frame)
    if (preview === null) return null
    const record = this.readRow(domainId, frame, 'display', 'Cached frame record') ?? withoutVolumes(this.readFrame(domainId, frame))
    return { preview, record }
  }

  /** One frame row of `kind` as bytes of its own (null when absent). */
  private readRow(domainId: string, frame: number, kind: 'preview' | 'display', what: string): Uint8Array<ArrayBuffer> | null {
    const data = this.db.prepare(`SELECT data FROM frames WHERE bake_id = ? AND frame = ? AND kind = ?`).pluck().get(domainId, frame, kind) as Buffer | undefined
    if (data === undefined) return null
    if (!Buffer.isBuffer(data)) throw new EddyError('PROJECT_FORMAT', `${what} is corrupt: frame ${frame} holds ${typeof data} data, not bytes`, { domainId, frame })
    const out = new Uint8Array(data.byteLength)
    out.set(data)
    return out
  }

  /** Stores a checkpoint sealed with its CRC (checkpointSeal.ts). */
  writeCheckpoint(domainId: string, frame: number, bytes: Uint8Array, sig: string): void {
    this.db.prepare('INSERT OR REPLACE INTO checkpoints (bake_id, frame, data, sig) VALUES (?, ?, ?, ?)').run(domainId, frame, blob(sealCheckpoint(bytes)), sig)
  }

  frames(domainId: string): CachedFrameInfo[] {
    const rows = this.db.prepare(`SELECT frame, sig, stats FROM frames WHERE bake_id = ? AND kind = 'frame' ORDER BY frame`).all(domainId) as {
      frame: number
      sig: string
      stats: string | null
    }[]
    return rows.map((r) => ({ frame: r.frame, sig: r.sig, stats: r.stats ? (JSON.parse(r.stats) as FrameStats) : null }))
  }

  checkpoints(domainId: string): { frame: number; sig: string }[] {
    return this.db.prepare('SELECT frame, sig FROM checkpoints WHERE bake_id = ? ORDER BY frame').all(domainId) as { frame: number; sig: string }[]
  }

  /** The stored record of one frame; NOT_FOUND when that frame is not cached. */
  readFrame(domainId: string, frame: number): Uint8Array<ArrayBuffer> {
    const data = this.db.prepare(`SELECT data FROM frames WHERE bake_id = ? AND frame = ? AND kind = 'frame'`).pluck().get(domainId, frame) as Buffer | undefined
    if (!data) throw new EddyError('NOT_FOUND', `Frame ${frame} is not in the cache`, { domainId, frame })
    if (!Buffer.isBuffer(data)) throw new EddyError('PROJECT_FORMAT', `Cached frame record is corrupt: frame ${frame} holds ${typeof data} data, not bytes`, { domainId, frame })
    // A copy with its own ArrayBuffer: it travels to the renderer as is.
    const out = new Uint8Array(data.byteLength)
    out.set(data)
    return out
  }

  readCheckpoint(domainId: string, frame: number): Uint8Array {
    const data = this.db.prepare('SELECT data FROM checkpoints WHERE bake_id = ? AND frame = ?').pluck().get(domainId, frame) as Buffer | undefined
    if (!data) throw new EddyError('NOT_FOUND', `There is no checkpoint at frame ${frame}`, { domainId, frame })
    if (!Buffer.isBuffer(data)) throw new EddyError('PROJECT_FORMAT', `The checkpoint at frame ${frame} is corrupt (${typeof data} data, not bytes)`, { domainId, frame })
    return openCheckpoint(new Uint8Array(data.buffer, data.byteOffset, data.byteLength), frame, domainId)
  }

  /** Bytes of all cached frames of a bake. */
  cacheBytes(domainId: string): number {
    return (this.db.prepare('SELECT coalesce(sum(length(data)), 0) FROM frames WHERE bake_id = ?').pluck().get(domainId) as number) ?? 0
  }
}

/** A view is enough: better-sqlite3 copies bound blobs. */
function blob(a: Uint8Array): Buffer {
  return Buffer.from(a.buffer, a.byteOffset, a.byteLength)
}
