// Module worker: frame record in, display data out, off the render thread. Inflating and
// converting a 128^3 smoke frame takes tens of milliseconds (tests/bench/frameDisplay.bench.ts),
// which would drop frames while scrubbing if done between renders. With the headless host,
// the worker can also fetch the record itself (hostRecords.ts) and decode it at once: the
// bytes then never wait for the page's main thread.
// Created by decodeClient.ts as new Worker(new URL('./decodeWorker.ts', import.meta.url), { type: 'module' }).
import { isEddyError } from '../../../src-shared/api/errors'
import type { DecodeRequest, DecodeResponse } from './decodeProtocol'
import { BufferPool } from './bufferPool'
import { decodeForDisplayNative, displayTransferables } from './displayData'
import { HostRecords } from './hostRecords'

// Neither the DOM nor Node type configs know a worker's global scope (WebWorker lib):
// only these two members of it are used. In a worker, globalThis is `self`.
interface WorkerScope {
  onmessage: ((e: { data: DecodeRequest }) => void) | null
  postMessage(message: DecodeResponse, transfer: ArrayBuffer[]): void
}
const scope = globalThis as unknown as WorkerScope

let host: HostRecords | null = null
/** 'fetchDecode' requests cancelled while their fetch was out (their decode is skipped). */
const cancelled = new Set<number>()
/** Output buffers the page gave back ('recycle'): decodes write into them (bufferPool.ts says why). */
const pool = new BufferPool()
/** Spares of each size the decodes need, prepared while idle (BufferPool.warm). */
const SPARES = 2
/** Bytes touched per idle task: about 2 ms, so a message waits no longer than that. */
const WARM_BYTES = 512 * 1024
let warmTimer: ReturnType<typeof setTimeout> | null = null
/** Prepares spare buffers a slice at a time, each slice its own task, after a short rest. */
function warmLater(delayMs: number): void {
  if (warmTimer !== null) clearTimeout(warmTimer)
  warmTimer = setTimeout(() => {
    warmTimer = null
    if (pool.warm(SPARES, WARM_BYTES)) warmLater(0)
  }, delayMs)
}

scope.onmessage = async (e) => {
  const msg = e.data
  if (msg.kind === 'cancel') {
    cancelled.add(msg.id)
    return
  }
  if (msg.kind === 'recycle') {
    pool.give(msg.buffers)
    return
  }
  let reply: DecodeResponse
  let transfer: ArrayBuffer[] = []
  let what = 'Decoding a cached frame'
  try {
    let record: Uint8Array
    let fetchMs: number | undefined
    if (msg.kind === 'fetchDecode') {
      what = `Fetching frame ${msg.frame}`
      const f0 = performance.now()
      if (!host || host.url !== msg.url) {
        host?.close()
        host = new HostRecords(msg.url)
      }
      record = await host.display(msg.domainId, msg.frame)
      fetchMs = performance.now() - f0
      // The playhead left this frame while it was fetched: the decode would only hold up the
      // frame wanted now (the page's fetch path skips it the same way, readAhead.ts).
      if (cancelled.delete(msg.id)) {
        scope.postMessage({ id: msg.id, ok: true, cancelled: true }, [])
        return
      }
      what = 'Decoding a cached frame'
    } else record = new Uint8Array(msg.record)
    const t0 = performance.now()
    const frame = await decodeForDisplayNative(record, msg.options, pool.take)
    reply = { id: msg.id, ok: true, frame, ms: performance.now() - t0, pooled: pool.size, ...(fetchMs === undefined ? {} : { fetchMs }) }
    transfer = displayTransferables(frame)
  } catch (err) {
    reply = {
      id: msg.id,
      ok: false,
      error: isEddyError(err) ? err.toData() : { code: 'INTERNAL', message: `${what} failed: ${err instanceof Error ? err.message : String(err)}` },
    }
  }
  if (msg.kind === 'fetchDecode') cancelled.delete(msg.id) // a cancel that came too late
  scope.postMessage(reply, transfer)
  warmLater(20)
}
