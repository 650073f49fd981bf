// The schema history of a project file. Each entry moves a file from version-1 to version;
// database.ts runs the pending ones, each in its own transaction together with the
// `PRAGMA user_version` bump, so a file is always at exactly one known version.
//
// Rules for adding a migration: never edit a released one (files in the wild were made by
// it), append a new version instead. Creating tables is safe with foreign_keys=ON; a future
// migration that rebuilds a referenced table must follow SQLite's 12-step ALTER procedure
// (foreign_keys cannot be switched off inside the migration's transaction).
import type Database from 'better-sqlite3'

export interface Migration {
  version: number
  description: string
  up(db: Database.Database): void
}

export const MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    description: 'scene document: meta, objects, tracks',
    up(db) {
      db.exec(`
        CREATE TABLE meta (
          key   TEXT PRIMARY KEY,
          value TEXT NOT NULL            -- JSON: name, fps, frameStart, frameEnd, createdAt
        );
        CREATE TABLE objects (
          id   TEXT PRIMARY KEY,
          kind TEXT NOT NULL,
          name TEXT NOT NULL,
          ord  INTEGER NOT NULL,         -- outliner position; gaps allowed, never compacted
          data TEXT NOT NULL             -- JSON of the SceneObject
        );
        CREATE TABLE tracks (
          object_id TEXT NOT NULL REFERENCES objects(id) ON DELETE CASCADE,
          path      TEXT NOT NULL,
          keys      TEXT NOT NULL,       -- JSON array of Keyframe
          PRIMARY KEY (object_id, path)
        );
      `)
    },
  },
  {
    version: 2,
    description: 'imported meshes',
    up(db) {
      // Nothing to move: v1 files had no meshes.
      db.exec(`
        CREATE TABLE meshes (
          id             TEXT PRIMARY KEY,
          name           TEXT NOT NULL,
          format         TEXT NOT NULL,
          vertex_count   INTEGER NOT NULL,
          triangle_count INTEGER NOT NULL,
          bounds         TEXT NOT NULL,  -- JSON { min: Vec3, max: Vec3 }
          positions      BLOB NOT NULL,  -- little-endian float32 xyz
          indices        BLOB NOT NULL   -- little-endian uint32, 3 per triangle
        );
      `)
    },
  },
  {
    version: 3,
    description: 'bakes, cached frames and checkpoints; meta.createdWith',
    up(db) {
      db.exec(`
        CREATE TABLE bakes (
          id          TEXT PRIMARY KEY,
          domain_id   TEXT NOT NULL,
          status      TEXT NOT NULL,
          params_hash TEXT,
          created_at  TEXT NOT NULL,
          updated_at  TEXT NOT NULL,
          settings    TEXT NOT NULL      -- JSON
        );
        CREATE TABLE frames (
          bake_id  TEXT NOT NULL REFERENCES bakes(id) ON DELETE CASCADE,
          frame    INTEGER NOT NULL,
          kind     TEXT NOT NULL,
          encoding TEXT NOT NULL,
          data     BLOB NOT NULL,
          stats    TEXT,                 -- JSON
          PRIMARY KEY (bake_id, frame, kind)
        );
        CREATE TABLE checkpoints (
          bake_id TEXT NOT NULL REFERENCES bakes(id) ON DELETE CASCADE,
          frame   INTEGER NOT NULL,
          data    BLOB NOT NULL,
          PRIMARY KEY (bake_id, frame)
        );
      `)
      // Files older than v3 cannot know which build made them; 'eddy 0.1' is the only one
      // that wrote v1/v2 files. OR IGNORE keeps a value a newer creator already wrote.
      db.prepare(`INSERT OR IGNORE INTO meta (key, value) VALUES ('createdWith', ?)`).run(JSON.stringify('eddy 0.1'))
    },
  },
  {
    version: 4,
    description: 'frame and checkpoint signatures (stale detection, exact resume)',
    up(db) {
      // sig: the hash chain of every scene input the solver read up to that frame
      // (src-main/bake/signature.ts). A cached frame whose sig differs from the scene's
      // current one is stale. v3 files hold no frames, so the empty default is never read.
      db.exec(`
        ALTER TABLE frames ADD COLUMN sig TEXT NOT NULL DEFAULT '';
        ALTER TABLE checkpoints ADD COLUMN sig TEXT NOT NULL DEFAULT '';
        ALTER TABLE bakes ADD COLUMN message TEXT;
      `)
    },
  },
]
