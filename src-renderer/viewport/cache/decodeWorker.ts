// Module worker: frame record in, display data out, off the render thread. Inflating and
// converting a 128^3 smoke frame takes tens of milliseconds (tests/bench/frameDisplay.bench.ts),
// which would drop frames while scrubbing if done between renders.
// Created by decodeClient.ts as new Worker(new URL('./decodeWorker.ts', import.meta.url), { type: 'module' }).
import { isEddyError } from '../../../src-shared/api/errors'
import type { DecodeRequest, DecodeResponse } from './decodeProtocol'
import { decodeForDisplayNative, displayTransferables } from './displayData'

// Neither the DOM nor Node type configs know a worker's global scope (WebWorker lib):
// only these two members of it are used. In a worker, globalThis is `self`.
interface WorkerScope {
  onmessage: ((e: { data: DecodeRequest }) => void) | null
  postMessage(message: DecodeResponse, transfer: ArrayBuffer[]): void
}
const scope = globalThis as unknown as WorkerScope

scope.onmessage = async (e) => {
  const { id, record, options } = e.data
  let reply: DecodeResponse
  let transfer: ArrayBuffer[] = []
  try {
    const t0 = performance.now()
    const frame = await decodeForDisplayNative(new Uint8Array(record), options)
    reply = { id, ok: true, frame, ms: performance.now() - t0 }
    transfer = displayTransferables(frame)
  } catch (err) {
    reply = {
      id,
      ok: false,
      error: isEddyError(err) ? err.toData() : { code: 'INTERNAL', message: `Decoding a cached frame failed: ${err instanceof Error ? err.message : String(err)}` },
    }
  }
  scope.postMessage(reply, transfer)
}
