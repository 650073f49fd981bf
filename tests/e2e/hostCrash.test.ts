// kill -9 of the host in the middle of a stream of edits: every acknowledged edit is in the
// file, at most the one in flight is lost, and SQLite's integrity check passes.
import { describe, expect, it } from 'vitest'
import { WebSocket } from 'ws'
import Database from 'better-sqlite3'
import { ProjectStore } from '../../src-main/store/projectStore'
import { makeDirs, startHost } from './harness'

describe('host killed during edits', () => {
  it('keeps every acknowledged edit and an intact file', async () => {
    const dirs = makeDirs()
    const host = await startHost(dirs)
    const token = /token=([^&]+)/.exec(host.url)![1]
    const ws = new WebSocket(`ws://127.0.0.1:${host.port}/ws?token=${token}`)
    await new Promise((r) => ws.once('open', r))
    const pending = new Map<number, (v: { ok: boolean; result?: { path?: string } }) => void>()
    ws.on('message', (m) => {
      const r = JSON.parse(m.toString()) as { id: number; ok: boolean }
      pending.get(r.id)?.(r)
    })
    let id = 0
    const send = (type: string, params: unknown): Promise<{ ok: boolean; result?: { path?: string } }> =>
      new Promise((resolve) => {
        pending.set(++id, resolve)
        ws.send(JSON.stringify({ id, type, params }))
      })
    const created = await send('project.create', { name: 'Crash' })
    expect(created.ok).toBe(true)
    const path = created.result!.path!
    let acked = 0
    // Edits go out back to back; the kill lands while several are queued or in flight.
    const inFlight: Promise<unknown>[] = []
    for (let i = 0; i < 400; i++) {
      inFlight.push(
        send('object.add', { kind: 'emitter', params: { rate: (i % 100) + 0.5 } }).then((r) => {
          if (r.ok) acked++
        }),
      )
      if (i === 150) await inFlight[100]
    }
    while (acked < 120) await new Promise((r) => setTimeout(r, 2))
    host.proc.kill('SIGKILL')
    await new Promise((r) => host.proc.once('exit', r))
    const ackedAtKill = acked
    ws.terminate()

    const db = new Database(path, { readonly: true })
    expect(db.pragma('integrity_check', { simple: true })).toBe('ok')
    db.close()
    const store = ProjectStore.open(path)
    const n = store.readDocument().objects.length
    store.close()
    expect(n).toBeGreaterThanOrEqual(ackedAtKill)
    // Anything beyond the acknowledged edits was committed just before the kill; none is half-written.
    expect(n).toBeLessThanOrEqual(400)
    console.log(`host crash: ${ackedAtKill} edits acknowledged at kill, ${n} found after reopening`)
  })
})
