// kill -9 in the middle of editing: the file must stay intact and hold every edit that was
// reported committed (plus at most the one in flight, committed but not yet reported).
//
// The child is a plain .mjs script: vitest runs our TypeScript in-process, but a separate
// Node 20 process cannot import .ts. So the child MIRRORS the store's connection setup
// (src-main/store/database.ts: WAL, synchronous=FULL, foreign_keys=ON) and its write
// pattern (one IMMEDIATE transaction per edit, upserts as in projectStore.ts apply()),
// on a file created by the real ProjectStore, which then reads the result back.
import { spawn } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { ProjectStore } from '../../../src-main/store/projectStore'

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..')

const CHILD = `
import fs from 'node:fs'
import { createRequire } from 'node:module'
const [root, file, firstArg] = process.argv.slice(2)
const Database = createRequire(root + '/package.json')('better-sqlite3')
const db = new Database(file, { fileMustExist: true, timeout: 5000 })
// Same pragmas as openDatabase() in src-main/store/database.ts.
if (db.pragma('journal_mode = WAL', { simple: true }) !== 'wal') throw new Error('no WAL')
db.pragma('synchronous = FULL')
db.pragma('foreign_keys = ON')
const putObject = db.prepare(\`INSERT INTO objects (id, kind, name, ord, data) VALUES (?, ?, ?, ?, ?)
  ON CONFLICT (id) DO UPDATE SET kind = excluded.kind, name = excluded.name, ord = excluded.ord, data = excluded.data\`)
const putTrack = db.prepare(\`INSERT INTO tracks (object_id, path, keys) VALUES (?, ?, ?)
  ON CONFLICT (object_id, path) DO UPDATE SET keys = excluded.keys\`)
const putMeta = db.prepare(\`INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value\`)
// One edit = several rows that must appear together or not at all.
const edit = db.transaction((n) => {
  const id = 'obj-' + n
  const obj = { id, kind: 'emitter', name: 'Emitter ' + n, params: { rate: n, position: [n, 0, 0], pad: 'x'.repeat(200) } }
  putObject.run(id, obj.kind, obj.name, n, JSON.stringify(obj))
  putTrack.run(id, 'rate', JSON.stringify([{ frame: 1, value: 0, interp: 'linear' }, { frame: 24, value: n, interp: 'bezier' }]))
  const anchor = { id: 'anchor', kind: 'domain', name: 'Domain', params: { edits: n } }
  putObject.run('anchor', 'domain', 'Domain', 0, JSON.stringify(anchor))
  putMeta.run('name', JSON.stringify('edit ' + n))
})
for (let n = Number(firstArg); n < Number(firstArg) + 1_000_000; n++) {
  edit.immediate(n)
  // Synchronous write: once the parent can read n, edit n is committed.
  fs.writeSync(1, n + '\\n')
}
`

let dir: string
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'eddy-crash-'))
})
afterEach(() => {
  fs.rmSync(dir, { recursive: true, force: true })
})

/** Runs the child from edit `first`, SIGKILLs it once it reported `killAfter` commits; returns the last reported edit. */
function editUntilKilled(script: string, file: string, first: number, killAfter: number): Promise<number> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [script, ROOT, file, String(first)], { stdio: ['ignore', 'pipe', 'pipe'] })
    let out = ''
    let err = ''
    let killed = false
    const lastReported = () => {
      const complete = out.slice(0, out.lastIndexOf('\n'))
      const lines = complete.split('\n').filter(Boolean)
      return lines.length ? Number(lines[lines.length - 1]) : first - 1
    }
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      out += chunk
      if (!killed && lastReported() - first + 1 >= killAfter) {
        killed = true
        child.kill('SIGKILL')
      }
    })
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (err += chunk))
    child.on('error', reject)
    // 'close' waits for stdout to drain: everything the child wrote before dying is counted.
    child.on('close', (code, signal) => {
      if (signal !== 'SIGKILL') reject(new Error(`child ended without being killed (code ${code}): ${err}`))
      else resolve(lastReported())
    })
  })
}

function checkFile(file: string, reported: number): number {
  const store = ProjectStore.open(file)
  try {
    expect(store.integrityCheck()).toBe('ok')
    const doc = store.readDocument()
    const edits = doc.objects.filter((o) => o.id.startsWith('obj-'))
    const n = edits.length
    expect(n).toBeGreaterThanOrEqual(reported)
    expect(n).toBeLessThanOrEqual(reported + 1)
    // Every edit is whole: objects 1..n in order, each with its track, and the rows
    // updated by the same transactions (anchor, meta) agree on n.
    expect(edits.map((o) => o.id)).toEqual(Array.from({ length: n }, (_, i) => `obj-${i + 1}`))
    expect(doc.tracks.map((t) => t.objectId)).toEqual(edits.map((o) => o.id))
    expect(doc.tracks.every((t, i) => t.keys[1].value === i + 1)).toBe(true)
    expect(doc.objects[0]).toMatchObject({ id: 'anchor', params: { edits: n } })
    expect(doc.meta.name).toBe(`edit ${n}`)
    return n
  } finally {
    store.close()
  }
}

describe('crash safety', () => {
  it('keeps every reported edit and a sound file when the process is killed mid-edit', async () => {
    const file = path.join(dir, 'crash.eddy')
    ProjectStore.create(file, { name: 'edit 0', fps: 24, frameStart: 1, frameEnd: 100 }).close()
    const script = path.join(dir, 'child.mjs')
    fs.writeFileSync(script, CHILD)

    // Round 1 from a clean file; round 2 continues on the recovered file.
    const reported1 = await editUntilKilled(script, file, 1, 200)
    expect(reported1).toBeGreaterThanOrEqual(200)
    // The child died with its WAL open: the next open must recover from it.
    expect(fs.existsSync(`${file}-wal`)).toBe(true)
    const n1 = checkFile(file, reported1)

    const reported2 = await editUntilKilled(script, file, n1 + 1, 200 + Math.floor(Math.random() * 100))
    expect(reported2).toBeGreaterThanOrEqual(n1 + 200)
    checkFile(file, reported2)
  })
})
