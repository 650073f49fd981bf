// workerLoads.ts: frames come through the decode worker's own connection while it works; a
// connection failure (IO_ERROR) sends that load and all later ones through the page's fetch,
// and any other error (the host's refusal) is the load's answer, with no fallback. A load the
// playhead left is cancelled in the worker (it answers null), unless it cannot be.
import { describe, expect, it } from 'vitest'
import { EddyError } from '../../../../src-shared/api/errors'
import type { DisplayFrame } from '../../../../src-renderer/viewport/cache/displayData'
import { type WorkerLoadClient, WorkerLoads } from '../../../../src-renderer/viewport/cache/workerLoads'

const shown = (frame: number) => ({ frame, time: 0, volume: null, particles: [], meshes: [], rigidBodies: [], bytes: 1 }) as unknown as DisplayFrame

class FakeClient implements WorkerLoadClient {
  canFetch = true
  workerError: Error | null = null
  calls: string[] = []
  /** Worker jobs waiting for finish(), by frame. */
  held = new Map<number, { finish(): void }>()
  hold = false
  fetchAndDecode(url: string, domainId: string, frame: number) {
    this.calls.push(`worker ${url} ${domainId} ${frame}`)
    let cancelled = false
    const result = new Promise<{ frame: DisplayFrame | null; fetchMs: number; decodeMs: number }>((resolve, reject) => {
      const finish = () => {
        if (this.workerError) reject(this.workerError)
        else resolve({ frame: cancelled ? null : shown(frame), fetchMs: 2, decodeMs: cancelled ? 0 : 5 })
      }
      if (this.hold) this.held.set(frame, { finish })
      else finish()
    })
    return {
      result,
      cancel: () => {
        this.calls.push(`cancel ${frame}`)
        cancelled = true
      },
    }
  }
  async decode(record: Uint8Array) {
    this.calls.push(`decode ${record[0]}`)
    return shown(record[0])
  }
}

describe('WorkerLoads', () => {
  it('loads through the worker, reporting its times', async () => {
    const client = new FakeClient()
    const times: number[][] = []
    const loads = new WorkerLoads(client, 'ws://h/ws', 'dom', async () => Uint8Array.from([0]), (f, d) => times.push([f, d]))
    expect((await loads.load(4))?.frame).toBe(4)
    expect(client.calls).toEqual(['worker ws://h/ws dom 4'])
    expect(times).toEqual([[2, 5]])
  })

  it('a load abandoned while its fetch is out answers null; one that cannot be cancelled, or is done, is not touched', async () => {
    const client = new FakeClient()
    client.hold = true
    const loads = new WorkerLoads(client, 'ws://h/ws', 'dom', async () => Uint8Array.from([0]))
    const a = loads.load(7)
    const b = loads.load(8, false)
    loads.abandon(7)
    loads.abandon(8)
    loads.abandon(9) // nothing out for it
    client.held.get(7)!.finish()
    client.held.get(8)!.finish()
    expect(await a).toBeNull()
    expect((await b)?.frame).toBe(8)
    loads.abandon(7) // already answered: no second cancel
    expect(client.calls).toEqual(['worker ws://h/ws dom 7', 'worker ws://h/ws dom 8', 'cancel 7'])
  })

  it('falls back to the page for good after a connection failure', async () => {
    const client = new FakeClient()
    client.workerError = new EddyError('IO_ERROR', 'The decode worker could not connect to the Eddy host at ws://h/ws')
    const pages: number[] = []
    const loads = new WorkerLoads(client, 'ws://h/ws', 'dom', async (_d, f) => (pages.push(f), Uint8Array.from([f])))
    expect((await loads.load(5))?.frame).toBe(5)
    expect(loads.failed).toBe(true)
    expect((await loads.load(6))?.frame).toBe(6)
    expect(client.calls).toEqual(['worker ws://h/ws dom 5', 'decode 5', 'decode 6'])
    expect(pages).toEqual([5, 6])
  })

  it("passes the host's refusal on, without falling back", async () => {
    const client = new FakeClient()
    client.workerError = new EddyError('NOT_FOUND', 'Frame 9 is not in the cache')
    const loads = new WorkerLoads(client, 'ws://h/ws', 'dom', async () => {
      throw new Error('the page should not be asked')
    })
    await expect(loads.load(9)).rejects.toMatchObject({ code: 'NOT_FOUND' })
    expect(loads.failed).toBe(false)
  })

  it('uses the page when no worker can fetch, or when told not to', async () => {
    const client = new FakeClient()
    client.canFetch = false
    const loads = new WorkerLoads(client, 'ws://h/ws', 'dom', async (_d, f) => Uint8Array.from([f]))
    expect((await loads.load(2))?.frame).toBe(2)
    const other = new FakeClient()
    let on = false
    const switched = new WorkerLoads(other, 'ws://h/ws', 'dom', async (_d, f) => Uint8Array.from([f]), undefined, () => on)
    expect((await switched.load(3))?.frame).toBe(3)
    on = true
    expect((await switched.load(4))?.frame).toBe(4)
    expect(client.calls).toEqual(['decode 2'])
    expect(other.calls).toEqual(['decode 3', 'worker ws://h/ws dom 4'])
  })
})
