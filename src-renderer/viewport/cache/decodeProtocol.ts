// The messages between decodeClient.ts and decodeWorker.ts. Errors cross as plain data (a
// code and a sentence) because structured clone drops an EddyError's class.
import type { ApiErrorData } from '../../../src-shared/api/errors'
import type { DisplayFrame, DisplayOptions } from './displayData'

export type DecodeRequest =
  /** Decode this record (transferred, so the sender's copy is detached). */
  | { kind: 'decode'; id: number; record: ArrayBuffer; options: DisplayOptions }
  /** Fetch the frame's display bundle from the host's WebSocket at `url` (hostRecords.ts), then decode it. */
  | { kind: 'fetchDecode'; id: number; url: string; domainId: string; frame: number; options: DisplayOptions }
  /** The 'fetchDecode' `id` is no longer wanted: if its fetch has not finished, skip the decode. */
  | { kind: 'cancel'; id: number }
  /**
   * Buffers of decoded frames the page has let go of (transferred back): later decodes write
   * their texels and light into them instead of new arrays (decodeWorker.ts). No answer.
   */
  | { kind: 'recycle'; id: number; buffers: ArrayBuffer[] }

/**
 * `ms`: the decode itself inside the worker (queueing and messaging excluded); `fetchMs`: for
 * 'fetchDecode', the worker's round trip to the host; `pooled`: the buffers the worker keeps for
 * reuse after this decode (the client sends recycled ones where they are fewest).
 */
export type DecodeResponse =
  | { id: number; ok: true; frame: DisplayFrame; ms?: number; fetchMs?: number; pooled?: number }
  /** A 'fetchDecode' cancelled before its decode began. */
  | { id: number; ok: true; cancelled: true }
  | { id: number; ok: false; error: ApiErrorData }
