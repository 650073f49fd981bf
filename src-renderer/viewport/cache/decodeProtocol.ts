// The messages between decodeClient.ts and decodeWorker.ts. Errors cross as plain data (a
// code and a sentence) because structured clone drops an EddyError's class.
import type { ApiErrorData } from '../../../src-shared/api/errors'
import type { DisplayFrame, DisplayOptions } from './displayData'

export interface DecodeRequest {
  id: number
  /** The whole frame record; transferred, so the sender's copy is detached. */
  record: ArrayBuffer
  options: DisplayOptions
}

/** `ms`: the decode itself inside the worker (queueing and messaging excluded). */
export type DecodeResponse = { id: number; ok: true; frame: DisplayFrame; ms?: number } | { id: number; ok: false; error: ApiErrorData }
