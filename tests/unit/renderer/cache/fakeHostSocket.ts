// A stand-in for the headless host's WebSocket as a decode worker sees it (hostRecords.ts):
// it opens on the next tick, answers 'cache.display' requests with a binary message (u32
// little-endian request id, then the bytes) or a JSON error, as host/server.ts does, and
// broadcasts an event first to show that events are ignored.
import type { SocketLike } from '../../../../src-renderer/viewport/cache/hostRecords'

export interface FakeHost {
  /** The records by frame; a missing frame answers NOT_FOUND. */
  frames: Map<number, Uint8Array>
  /** Every request text received. */
  requests: string[]
  /** Sockets made so far. */
  sockets: FakeHostSocket[]
  /** Refuse the next connections (closes before open). */
  refuse: boolean
  /** Frames whose requests are never answered (a hung host). */
  silent: Set<number>
}

export class FakeHostSocket implements SocketLike {
  binaryType = 'blob'
  readyState = 0
  onopen: (() => void) | null = null
  onclose: ((e: { code: number; reason: string }) => void) | null = null
  onerror: (() => void) | null = null
  onmessage: ((e: { data: unknown }) => void) | null = null

  constructor(
    readonly url: string,
    private readonly host: FakeHost,
  ) {
    host.sockets.push(this)
    setTimeout(() => {
      if (host.refuse) {
        this.readyState = 3
        this.onerror?.()
        this.onclose?.({ code: 1006, reason: '' })
        return
      }
      this.readyState = 1
      this.onopen?.()
    }, 0)
  }

  send(text: string): void {
    this.host.requests.push(text)
    const req = JSON.parse(text) as { id: number; type: string; params: { frame: number } }
    setTimeout(() => {
      if (this.readyState !== 1 || this.host.silent.has(req.params.frame)) return
      this.onmessage?.({ data: JSON.stringify({ event: 'project.changed', payload: {} }) })
      const rec = this.host.frames.get(req.params.frame)
      if (!rec) {
        this.onmessage?.({ data: JSON.stringify({ id: req.id, ok: false, error: { code: 'NOT_FOUND', message: `Frame ${req.params.frame} is not in the cache` } }) })
        return
      }
      const out = new Uint8Array(4 + rec.length)
      new DataView(out.buffer).setUint32(0, req.id, true)
      out.set(rec, 4)
      this.onmessage?.({ data: out.buffer })
    }, 0)
  }

  /** The host going away (or this socket dropped). */
  close(): void {
    if (this.readyState === 3) return
    this.readyState = 3
    setTimeout(() => this.onclose?.({ code: 1001, reason: 'going away' }), 0)
  }
}

export function fakeHost(): FakeHost {
  return { frames: new Map(), requests: [], sockets: [], refuse: false, silent: new Set() }
}
