// DecodeClient: the calling-thread fallback in Node, and the worker protocol with the real
// decodeWorker.ts module loaded behind a stand-in Worker that copies messages with
// structuredClone and its transfer list (so a transferred record really is detached).
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { EddyError } from '../../../../src-shared/api/errors'
import { encodeFrame } from '../../../../src-shared/formats/frameRecord'
import { DecodeClient, type DecodeWorkerLike } from '../../../../src-renderer/viewport/cache/decodeClient'
import type { DecodeRequest, DecodeResponse } from '../../../../src-renderer/viewport/cache/decodeProtocol'
import { decodeForDisplay } from '../../../../src-renderer/viewport/cache/displayData'
import { encodePreview } from '../../../../src-shared/formats/framePreview'
import { volumeDisplay } from '../../../../src-shared/formats/volumePreview'
import { plume } from '../../../fixtures/smokePlume'
import { sampleFrame } from './sampleFrames'
import { FakeHostSocket, fakeHost } from './fakeHostSocket'

interface WorkerGlobal {
  onmessage: ((e: { data: DecodeRequest }) => void) | null
  postMessage(msg: DecodeResponse, transfer: ArrayBuffer[]): void
}

// The worker module installs its handler on its global scope when imported.
const g = globalThis as unknown as WorkerGlobal
let workerScope: WorkerGlobal
let replyTo: ((msg: DecodeResponse) => void) | null = null

beforeAll(async () => {
  g.postMessage = (msg, transfer) => {
    const copy = structuredClone(msg, { transfer })
    const to = replyTo
    setTimeout(() => to?.(copy), 0)
  }
  await import('../../../../src-renderer/viewport/cache/decodeWorker')
  workerScope = g
})
afterAll(() => {
  // Node's globalThis has no postMessage of its own; leave it as found.
  delete (g as Partial<WorkerGlobal>).postMessage
  g.onmessage = null
})

let queue: Promise<void> = Promise.resolve()

/** A Worker stand-in that hands each message to the real worker module, one at a time. */
class ModuleWorker implements DecodeWorkerLike {
  onmessage: ((e: { data: DecodeResponse }) => void) | null = null
  onerror: ((e: { message?: string }) => void) | null = null
  received = 0
  terminated = false
  postMessage(message: DecodeRequest, transfer: ArrayBuffer[]): void {
    const copy = structuredClone(message, { transfer })
    // A cancel (or a recycle) gets no reply and must reach the module while its fetch awaits
    // the host, as in a real worker between tasks: hand it over at once, not behind that fetch.
    if (copy.kind === 'cancel' || copy.kind === 'recycle') {
      if (!this.terminated) workerScope.onmessage?.({ data: copy })
      return
    }
    this.received++
    // The module's scope is shared by every stand-in and its handler is async (native
    // inflate), so messages run one at a time: the next starts when the previous replied.
    queue = queue.then(
      () =>
        new Promise<void>((done) => {
          if (this.terminated) return done()
          replyTo = (msg) => {
            this.onmessage?.({ data: msg })
            done()
          }
          workerScope.onmessage?.({ data: copy })
        }),
    )
  }
  terminate(): void {
    this.terminated = true
  }
}

describe('DecodeClient', () => {
  const record = encodeFrame(sampleFrame(), { precision: 'float16' })
  const expected = decodeForDisplay(record, { particleColorBy: 'radius' })

  it('decodes on the calling thread when there is no Worker (Node)', async () => {
    const client = new DecodeClient({ display: { particleColorBy: 'radius' } })
    expect(client.workerCount).toBe(0)
    const copy = record.slice()
    expect(await client.decode(copy)).toEqual(expected)
    expect(copy.byteLength).toBe(record.byteLength) // not transferred anywhere
    await expect(client.decode(copy.subarray(0, 40))).rejects.toMatchObject({ code: 'PROJECT_FORMAT' })
  })

  it('decodes through the worker module, transferring the record', async () => {
    const workers: ModuleWorker[] = []
    const client = new DecodeClient({ workers: 2, createWorker: () => (workers.push(new ModuleWorker()), workers[workers.length - 1]), display: { particleColorBy: 'radius' } })
    expect(client.workerCount).toBe(2)
    const a = record.slice()
    const b = record.slice()
    const [fa, fb] = await Promise.all([client.decode(a), client.decode(b)])
    expect(fa).toEqual(expected)
    expect(fb).toEqual(expected)
    expect(a.byteLength).toBe(0) // detached: the worker owns it now
    expect(workers.map((w) => w.received)).toEqual([1, 1])

    // A view into a larger buffer is copied, so the rest of that buffer survives.
    const big = new Uint8Array(record.length + 16)
    big.set(record, 8)
    expect(await client.decode(big.subarray(8, 8 + record.length))).toEqual(expected)
    expect(big.byteLength).toBe(record.length + 16)
    client.dispose()
    expect(workers.every((w) => w.terminated)).toBe(true)
  })

  it('a corrupt record rejects with the typed error from the worker', async () => {
    const client = new DecodeClient({ workers: 1, createWorker: () => new ModuleWorker() })
    const bad = record.slice()
    bad[bad.length - 3] ^= 0xff
    const err = await client.decode(bad).catch((e: unknown) => e)
    expect(err).toBeInstanceOf(EddyError)
    expect((err as EddyError).code).toBe('PROJECT_FORMAT')
    expect((err as EddyError).message).toMatch(/CRC/)
  })

  it('a worker that dies rejects its requests and the client carries on without it', async () => {
    let dead: ModuleWorker | null = null
    const client = new DecodeClient({
      workers: 1,
      createWorker: () => {
        const w = new ModuleWorker()
        // This one never answers: it fails as a worker whose script cannot load would.
        w.postMessage = () => setTimeout(() => w.onerror?.({ message: 'script failed to load' }), 0)
        dead = w
        return w
      },
    })
    await expect(client.decode(record.slice())).rejects.toThrow(/decode worker failed: script failed to load/)
    expect(client.workerCount).toBe(0)
    expect((dead as ModuleWorker | null)?.terminated).toBe(true)
    // Now decoding on the calling thread.
    expect((await client.decode(record.slice())).frame).toBe(37)
  })
  it('decodes previews into the buffers of frames given back (recycle): another frame decodes exactly as into new arrays', async () => {
    const bundleOf = (t: number): Uint8Array => {
      const f = plume(20, 293.15, t)
      const preview = encodePreview(volumeDisplay(f.volumes[0], f.volumes[1], 293.15)!)
      const rec = encodeFrame({ ...f, frame: Math.round(10 * t) }, { precision: 'float16' })
      const out = new Uint8Array(4 + preview.length + rec.length)
      new DataView(out.buffer).setUint32(0, preview.length, true)
      out.set(preview, 4)
      out.set(rec, 4 + preview.length)
      return out
    }
    const a = bundleOf(0.6), b = bundleOf(2.4)
    const wantB = decodeForDisplay(b)
    const client = new DecodeClient({ workers: 1, createWorker: () => new ModuleWorker() })
    const fa = await client.decode(a.slice())
    expect(fa.volume!.texels.length).toBe(wantB.volume!.texels.length)
    client.recycle(fa)
    expect(fa.volume!.texels.byteLength).toBe(0)
    const fb = await client.decode(b.slice())
    expect(fb).toEqual(wantB)
    client.dispose()
  })

  it('fetches from the host inside the worker and decodes there (fetchAndDecode), with the host\'s errors typed', async () => {
    const host = fakeHost()
    host.frames.set(12, record)
    const scopeWs = globalThis as unknown as { WebSocket?: unknown }
    const before = scopeWs.WebSocket
    // The worker module opens its connection with the global WebSocket, as in a browser worker.
    scopeWs.WebSocket = class extends FakeHostSocket {
      constructor(url: string) {
        super(url, host)
      }
    }
    try {
      const client = new DecodeClient({ workers: 1, createWorker: () => new ModuleWorker(), display: { particleColorBy: 'radius' } })
      expect(client.canFetch).toBe(true)
      const got = await client.fetchAndDecode('ws://127.0.0.1:5/ws', 'dom', 12).result
      expect(got.frame).toEqual(expected)
      expect(got.fetchMs).toBeGreaterThanOrEqual(0)
      expect(host.sockets.map((s) => s.url)).toEqual(['ws://127.0.0.1:5/ws?events=none'])
      expect(JSON.parse(host.requests[0])).toMatchObject({ type: 'cache.display', params: { domainId: 'dom', frame: 12 } })
      const err = await client.fetchAndDecode('ws://127.0.0.1:5/ws', 'dom', 13).result.catch((e: unknown) => e)
      expect(err).toBeInstanceOf(EddyError)
      expect((err as EddyError).code).toBe('NOT_FOUND')
      // Cancelled while the host has not answered: the worker skips the decode (frame null).
      const job = client.fetchAndDecode('ws://127.0.0.1:5/ws', 'dom', 12)
      job.cancel()
      expect((await job.result).frame).toBeNull()
      // A cancel after the answer changes nothing.
      const done = client.fetchAndDecode('ws://127.0.0.1:5/ws', 'dom', 12)
      expect((await done.result).frame).toEqual(expected)
      done.cancel()
      expect((await client.fetchAndDecode('ws://127.0.0.1:5/ws', 'dom', 12).result).frame).toEqual(expected)
      client.dispose()
      expect(client.canFetch).toBe(false)
      await expect(client.fetchAndDecode('ws://127.0.0.1:5/ws', 'dom', 12).result).rejects.toMatchObject({ code: 'INTERNAL' })
    } finally {
      scopeWs.WebSocket = before
    }
  })
})
