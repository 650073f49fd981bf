// Promise wrapper around one or two decode workers (decodeWorker.ts). Where module workers do
// not exist (Node tests, benchmarks) or every worker has died, the same decodeForDisplay runs
// on the calling thread: slower for the UI, identical output. With the headless host's
// WebSocket, a worker can also fetch a record itself and decode it (fetchAndDecode): the
// bytes then never wait for, or pass through, the page's thread.
import { EddyError } from '../../../src-shared/api/errors'
import type { DecodeRequest, DecodeResponse } from './decodeProtocol'
import { decodeForDisplay, type DisplayFrame, type DisplayOptions } from './displayData'

// Only structural types here, no DOM names: the unit tests' type check (tsconfig.main.json)
// has Node's globals, not the DOM's.

/** What the client needs of a Worker; a real Worker satisfies it, tests may pass another. */
export interface DecodeWorkerLike {
  onmessage: ((e: { data: DecodeResponse }) => void) | null
  onerror: ((e: { message?: string }) => void) | null
  postMessage(message: DecodeRequest, transfer: ArrayBuffer[]): void
  terminate(): void
}

type WorkerConstructor = new (url: URL, options: { type: 'module' }) => DecodeWorkerLike
const scope = globalThis as unknown as { Worker?: WorkerConstructor; navigator?: { hardwareConcurrency?: number } }

export interface DecodeClientOptions {
  /** Number of workers; 0 decodes on the calling thread. Default 1 on 1-2 cores, else 2. */
  workers?: number
  /** Default: the bundled decodeWorker.ts as a module worker, when Worker exists. */
  createWorker?: () => DecodeWorkerLike
  /** Options every decode uses (ambient temperature, particle colour attribute). */
  display?: DisplayOptions
}

/** A worker's answer: the frame (null: a cancelled fetch) and its timings. */
interface Decoded {
  frame: DisplayFrame | null
  ms?: number
  fetchMs?: number
}

interface Pending {
  resolve(d: Decoded): void
  reject(e: Error): void
}

interface Slot {
  worker: DecodeWorkerLike
  pending: Map<number, Pending>
  /** Buffers the worker keeps for reuse: its last report, plus the frames recycled to it since. */
  pooled: number
}

/** Vite bundles the worker because of this exact `new Worker(new URL(...), { type: 'module' })` text. */
function bundledWorker(): DecodeWorkerLike {
  const Worker = scope.Worker
  if (!Worker) throw new Error('Worker is not available')
  return new Worker(new URL('./decodeWorker.ts', import.meta.url), { type: 'module' })
}

export class DecodeClient {
  /** Used by every later decode; the read-ahead buffer must be invalidated after a change. */
  display: DisplayOptions
  private slots: Slot[] = []
  private nextId = 1
  private turn = 0
  private disposed = false

  constructor(opts: DecodeClientOptions = {}) {
    this.display = { ...opts.display }
    const canSpawn = opts.createWorker !== undefined || scope.Worker !== undefined
    const cores = scope.navigator?.hardwareConcurrency ?? 2
    const count = canSpawn ? Math.max(0, Math.floor(opts.workers ?? (cores <= 2 ? 1 : 2))) : 0
    const create = opts.createWorker ?? bundledWorker
    for (let i = 0; i < count; i++) {
      let worker: DecodeWorkerLike
      try {
        worker = create()
      } catch {
        break // e.g. a CSP that forbids workers: the calling thread still decodes
      }
      const slot: Slot = { worker, pending: new Map(), pooled: 0 }
      worker.onmessage = (e) => this.settle(slot, e.data)
      worker.onerror = (e) => this.fail(slot, e)
      this.slots.push(slot)
    }
  }

  /** Workers alive (0: decoding on the calling thread). */
  /** Decode times measured inside the workers, ms (without queueing and messaging). */
  readonly workerMs: number[] = []

  get workerCount(): number {
    return this.slots.length
  }

  /**
   * Display data for one frame record. Takes ownership of `record`: its buffer is transferred
   * to a worker (detached here) when the view spans the whole buffer, copied otherwise.
   */
  decode(record: Uint8Array): Promise<DisplayFrame> {
    if (this.disposed) return Promise.reject(new EddyError('INTERNAL', 'The frame decoder was closed'))
    const display = { ...this.display }
    const slot = this.pick()
    if (!slot) return Promise.resolve().then(() => decodeForDisplay(record, display))
    const whole = record.byteOffset === 0 && record.byteLength === record.buffer.byteLength && record.buffer instanceof ArrayBuffer
    const buffer = whole ? (record.buffer as ArrayBuffer) : record.slice().buffer
    const id = this.nextId++
    return this.post(slot, { kind: 'decode', id, record: buffer, options: display }, [buffer]).then((r) => {
      if (!r.frame) throw new EddyError('INTERNAL', 'The frame decode worker answered a decode with no frame')
      return r.frame
    })
  }

  /** Whether fetchAndDecode can run (a worker is alive to fetch in). */
  get canFetch(): boolean {
    return !this.disposed && this.slots.length > 0
  }

  /**
   * Has a worker fetch the frame's display bundle from the host's WebSocket at `url`
   * ('cache.display') and decode it there. `result` rejects when no worker is alive (see
   * canFetch) or the host refuses (with the host's error code and sentence), and resolves
   * with frame null when cancel() came before the decode began. `fetchMs` and `decodeMs`: the
   * worker's round trip to the host and its decode.
   */
  fetchAndDecode(url: string, domainId: string, frame: number): { result: Promise<{ frame: DisplayFrame | null; fetchMs: number; decodeMs: number }>; cancel(): void } {
    const slot = this.disposed ? null : this.pick()
    if (!slot) return { result: Promise.reject(new EddyError('INTERNAL', this.disposed ? 'The frame decoder was closed' : 'No frame decode worker is running to fetch in')), cancel: () => undefined }
    const id = this.nextId++
    const result = this.post(slot, { kind: 'fetchDecode', id, url, domainId, frame, options: { ...this.display } }, []).then((r) => ({ frame: r.frame, fetchMs: r.fetchMs ?? 0, decodeMs: r.ms ?? 0 }))
    const cancel = () => {
      if (!slot.pending.has(id)) return
      try {
        slot.worker.postMessage({ kind: 'cancel', id }, [])
      } catch {
        // A worker that cannot take a message is failing; its requests fail with it.
      }
    }
    return { result, cancel }
  }

  /**
   * Gives a decoded frame's volume arrays back to a worker, whose later decodes write into them
   * (bufferPool.ts). They are transferred: the frame must not be shown or read again. Arrays
   * that are views of part of a buffer, or the frame decoded on this thread, stay.
   */
  recycle(frame: DisplayFrame): void {
    if (this.disposed || this.slots.length === 0 || !frame.volume) return
    const buffers: ArrayBuffer[] = []
    for (const a of [frame.volume.texels, frame.volume.light ?? null]) {
      if (!a || !(a.buffer instanceof ArrayBuffer) || a.byteOffset !== 0 || a.byteLength !== a.buffer.byteLength || a.byteLength === 0) continue
      if (!buffers.includes(a.buffer)) buffers.push(a.buffer)
    }
    if (buffers.length === 0) return
    // To the worker keeping the fewest (pick() sends decodes where they are most).
    let slot = this.slots[0]
    for (const s of this.slots) if (s.pooled < slot.pooled) slot = s
    try {
      slot.worker.postMessage({ kind: 'recycle', id: 0, buffers }, buffers)
      slot.pooled += buffers.length
    } catch {
      // A worker that cannot take a message is failing; the buffers are only lost to reuse.
    }
  }

  private post(slot: Slot, message: DecodeRequest, transfer: ArrayBuffer[]): Promise<Decoded> {
    return new Promise<Decoded>((resolve, reject) => {
      slot.pending.set(message.id, { resolve, reject })
      try {
        slot.worker.postMessage(message, transfer)
      } catch (e) {
        slot.pending.delete(message.id)
        reject(e instanceof Error ? e : new Error(String(e)))
      }
    })
  }

  dispose(): void {
    this.disposed = true
    for (const slot of this.slots) {
      slot.worker.terminate()
      for (const p of slot.pending.values()) p.reject(new EddyError('INTERNAL', 'The frame decoder was closed'))
    }
    this.slots = []
  }

  /**
   * The worker with the fewest decodes waiting; among those, the one keeping the most buffers
   * for reuse (its decode then writes into used memory); ties go round robin.
   */
  private pick(): Slot | null {
    if (this.slots.length === 0) return null
    let best: Slot | null = null
    for (let k = 0; k < this.slots.length; k++) {
      const s = this.slots[(this.turn + k) % this.slots.length]
      if (!best || s.pending.size < best.pending.size || (s.pending.size === best.pending.size && s.pooled > best.pooled)) best = s
    }
    this.turn = (this.turn + 1) % this.slots.length
    return best
  }

  private settle(slot: Slot, msg: DecodeResponse): void {
    const p = slot.pending.get(msg.id)
    if (!p) return
    slot.pending.delete(msg.id)
    if (msg.ok && 'cancelled' in msg) p.resolve({ frame: null })
    else if (msg.ok) {
      if (msg.ms !== undefined) {
        this.workerMs.push(msg.ms)
        if (this.workerMs.length > 512) this.workerMs.shift()
      }
      if ('frame' in msg && msg.pooled !== undefined) slot.pooled = msg.pooled
      p.resolve(msg)
    } else p.reject(new EddyError(msg.error.code, msg.error.message, msg.error.details))
  }

  /** A worker that errors outside a request (failed to load, crashed) is dropped with its requests. */
  private fail(slot: Slot, e: { message?: string }): void {
    const why = e && typeof e.message === 'string' && e.message ? e.message : 'the worker stopped'
    slot.worker.terminate()
    this.slots = this.slots.filter((s) => s !== slot)
    for (const p of slot.pending.values()) p.reject(new EddyError('INTERNAL', `The frame decode worker failed: ${why}`))
    slot.pending.clear()
  }
}
