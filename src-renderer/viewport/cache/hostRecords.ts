// A decode worker's own connection to the headless host, for cached frame records (the
// 'cache.display' request), so a record goes from the host's socket into the worker that
// decodes it without passing through the page's main thread. There the reply waited for
// whatever the main thread was doing (the host answers in about 1.4 ms; the page's fetch took
// 10-37 ms while scrubbing), and the bytes were transferred once more.
//
// Only for the WebSocket transport (the headless host): the page's session cookie goes along
// with this socket's upgrade as with the page's own (same origin). Messages are the API's
// envelopes (src-shared/api/contract.ts): JSON requests out; a binary reply (u32 little-endian
// request id, then the bytes, host/server.ts) or a JSON error in. The socket asks for no events
// (`?events=none`: the host then sends it none of the project states and bake updates every
// window gets); any that arrive are ignored.
import { EddyError, ERROR_CODES, type ErrorCode } from '../../../src-shared/api/errors'

interface Waiting {
  resolve(bytes: Uint8Array): void
  reject(e: Error): void
}

/** The structural part of a WebSocket this file uses (tests pass a fake). */
export interface SocketLike {
  binaryType: string
  readyState: number
  onopen: (() => void) | null
  onclose: ((e: { code: number; reason: string }) => void) | null
  onerror: (() => void) | null
  onmessage: ((e: { data: unknown }) => void) | null
  send(text: string): void
  close(): void
}

const OPEN = 1
/** How long a frame request may wait for the host before it fails (the page's fetch then takes over, workerLoads.ts). */
export const ANSWER_TIMEOUT_MS = 20_000

export class HostRecords {
  private socket: SocketLike | null = null
  private opened: Promise<SocketLike> | null = null
  private readonly waiting = new Map<number, Waiting>()
  private nextId = 1

  constructor(
    readonly url: string,
    private readonly connect: (url: string) => SocketLike = (u) => new (globalThis as unknown as { WebSocket: new (u: string) => SocketLike }).WebSocket(u),
    private readonly timeoutMs = ANSWER_TIMEOUT_MS,
  ) {}

  /** The frame's display bundle from the host's cache (what 'cache.display' answers). */
  async display(domainId: string, frame: number): Promise<Uint8Array> {
    const ws = await this.open()
    const id = this.nextId++
    return new Promise<Uint8Array>((resolve, reject) => {
      // A host that never answers (hung, or a reply lost) must not hold the frame forever.
      const timer = setTimeout(() => {
        if (!this.waiting.delete(id)) return
        reject(new EddyError('IO_ERROR', `The Eddy host did not answer the request for frame ${frame} within ${Math.round(this.timeoutMs / 1000)} s`))
      }, this.timeoutMs)
      const settle = <T>(f: (v: T) => void) => (v: T) => {
        clearTimeout(timer)
        f(v)
      }
      this.waiting.set(id, { resolve: settle(resolve), reject: settle(reject) })
      try {
        ws.send(JSON.stringify({ id, type: 'cache.display', params: { domainId, frame } }))
      } catch (e) {
        this.waiting.delete(id)
        clearTimeout(timer)
        reject(new EddyError('IO_ERROR', `Could not ask the Eddy host for frame ${frame}: ${e instanceof Error ? e.message : String(e)}`))
      }
    })
  }

  close(): void {
    this.socket?.close()
  }

  /** The open socket, connecting (again, after a close) when there is none. */
  private open(): Promise<SocketLike> {
    if (this.socket && this.socket.readyState === OPEN && this.opened) return this.opened
    if (this.opened && this.socket && this.socket.readyState < OPEN) return this.opened
    const address = new URL(this.url)
    address.searchParams.set('events', 'none')
    const ws = this.connect(address.toString())
    ws.binaryType = 'arraybuffer'
    this.socket = ws
    this.opened = new Promise<SocketLike>((resolve, reject) => {
      let isOpen = false
      ws.onopen = () => {
        isOpen = true
        resolve(ws)
      }
      ws.onerror = () => undefined
      ws.onclose = (e) => {
        const why = isOpen
          ? `The decode worker's connection to the Eddy host closed (${e.code}${e.reason ? ': ' + e.reason : ''})`
          : `The decode worker could not connect to the Eddy host at ${this.url}`
        const err = new EddyError('IO_ERROR', why)
        for (const w of this.waiting.values()) w.reject(err)
        this.waiting.clear()
        if (this.socket === ws) {
          this.socket = null
          this.opened = null
        }
        if (!isOpen) reject(err)
      }
      ws.onmessage = (e) => this.receive(e.data)
    })
    return this.opened
  }

  private receive(data: unknown): void {
    if (data instanceof ArrayBuffer) {
      if (data.byteLength < 4) return
      const id = new DataView(data).getUint32(0, true)
      const w = this.waiting.get(id)
      if (!w) return
      this.waiting.delete(id)
      w.resolve(new Uint8Array(data, 4))
      return
    }
    let msg: { id?: unknown; ok?: unknown; error?: { code?: unknown; message?: unknown } }
    try {
      msg = JSON.parse(String(data))
    } catch {
      return
    }
    if (typeof msg.id !== 'number') return // an event, or a reply to nobody
    const w = this.waiting.get(msg.id)
    if (!w) return
    this.waiting.delete(msg.id)
    if (msg.ok === false && msg.error) {
      const code = (ERROR_CODES as readonly unknown[]).includes(msg.error.code) ? (msg.error.code as ErrorCode) : 'INTERNAL'
      const message = typeof msg.error.message === 'string' ? msg.error.message : 'The Eddy host refused the request'
      w.reject(new EddyError(code, message))
    } else w.reject(new EddyError('INTERNAL', 'The Eddy host answered a frame request with something that is not a frame record'))
  }
}
