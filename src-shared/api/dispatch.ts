// Boundary validation shared by both transports: parse a raw message, check it against the
// contract, call the handler, and always answer with a well-formed response envelope.
import { z } from 'zod'
import { EddyError, isEddyError, type ApiErrorData } from './errors'
import { requestEnvelope, requests, type RequestParams, type RequestResult, type RequestType, type ResponseEnvelope } from './contract'

export type Handlers = { [K in RequestType]: (params: z.output<(typeof requests)[K]['params']>) => RequestResult<K> | Promise<RequestResult<K>> }

/** Turns a zod failure into one readable sentence naming the field. */
export function describeZodError(err: z.ZodError): { message: string; issues: { path: string; message: string }[] } {
  const issues = err.issues.map((i) => ({ path: i.path.join('.') || '(message)', message: i.message }))
  const first = issues[0]
  const message = first ? `${first.path}: ${first.message}` : 'invalid message'
  return { message, issues }
}

function errorData(e: unknown): ApiErrorData {
  if (isEddyError(e)) return e.toData()
  const text = e instanceof Error ? e.message : String(e)
  return { code: 'INTERNAL', message: `Internal error: ${text}` }
}

/** Largest message text either transport takes: the largest mesh import (64 MiB of base64) plus envelope. */
export const MAX_MESSAGE_BYTES = 80 * 1024 * 1024
/** Deepest bracket nesting a request may have; real requests stay under 10. */
export const MAX_MESSAGE_DEPTH = 64
/** Request ids are u32: the host's binary replies carry the id in 4 bytes (see host/server.ts). */
export const MAX_REQUEST_ID = 0xffff_ffff

/**
 * True when the JSON text nests `[`/`{` deeper than `limit`. One linear pass with no
 * allocation, skipping string contents (where brackets are text), so a hostile
 * '['.repeat(5e6) is refused in milliseconds instead of stalling JSON.parse. It only counts:
 * malformed text within the limit is left for JSON.parse to reject.
 */
export function nestingDeeperThan(text: string, limit: number): boolean {
  let depth = 0
  let i = 0
  const n = text.length
  while (i < n) {
    const c = text.charCodeAt(i)
    if (c === 0x22) {
      // Jump to the closing quote: a quote preceded by an odd run of backslashes is escaped.
      let j = i
      for (;;) {
        j = text.indexOf('"', j + 1)
        if (j < 0) return false
        let k = j - 1
        while (text.charCodeAt(k) === 0x5c) k--
        if ((j - 1 - k) % 2 === 0) break
      }
      i = j + 1
      continue
    }
    if (c === 0x5b || c === 0x7b) {
      if (++depth > limit) return true
    } else if (c === 0x5d || c === 0x7d) depth--
    i++
  }
  return false
}

/**
 * The checks a raw message text must pass before JSON.parse sees it (size, then nesting
 * depth), as the typed error to answer with, or null when it may be parsed. `size` is the
 * byte length when the caller has it (the WebSocket's buffer), else the text length.
 */
export function refuseRawMessage(text: string | null, size = text?.length ?? 0, limits = { maxBytes: MAX_MESSAGE_BYTES, maxDepth: MAX_MESSAGE_DEPTH }): ResponseEnvelope | null {
  if (size > limits.maxBytes) {
    return {
      id: -1,
      ok: false,
      error: { code: 'INVALID_MESSAGE', message: `Message is too large (${size} bytes; the limit is ${limits.maxBytes})`, details: { limit: limits.maxBytes } },
    }
  }
  if (text !== null && nestingDeeperThan(text, limits.maxDepth)) {
    return {
      id: -1,
      ok: false,
      error: { code: 'INVALID_MESSAGE', message: `Message nests deeper than ${limits.maxDepth} levels`, details: { limit: limits.maxDepth } },
    }
  }
  return null
}

/** Why a request's id is unusable (named as field `id`), or null when it is fine or absent. */
function badId(msg: unknown): string | null {
  if (typeof msg !== 'object' || msg === null || Array.isArray(msg) || !Object.hasOwn(msg, 'id')) return null
  const id = (msg as { id: unknown }).id
  if (typeof id === 'number') {
    // 1e999 parses to Infinity, which JSON.stringify would echo back as null.
    return Number.isInteger(id) && id >= 0 && id <= MAX_REQUEST_ID ? null : `must be an integer from 0 to ${MAX_REQUEST_ID}`
  }
  if (typeof id === 'string') return `must be a number, not a string (of ${id.length} characters)`
  return null
}

/**
 * Handles one raw message (already JSON-decoded, or a string to decode). Never throws:
 * every failure becomes `{ ok: false, error }` with the request id when one could be read.
 */
export async function dispatch(handlers: Handlers, raw: unknown): Promise<ResponseEnvelope> {
  let msg: unknown = raw
  if (typeof raw === 'string') {
    const refused = refuseRawMessage(raw)
    if (refused) return refused
    try {
      msg = JSON.parse(raw)
    } catch {
      return { id: -1, ok: false, error: { code: 'INVALID_MESSAGE', message: 'Message is not valid JSON' } }
    }
  }
  const idProblem = badId(msg)
  if (idProblem) {
    return { id: -1, ok: false, error: { code: 'INVALID_MESSAGE', message: `Malformed request: id: ${idProblem}`, details: { issues: [{ path: 'id', message: idProblem }] } } }
  }
  const env = requestEnvelope.safeParse(msg)
  if (!env.success) {
    const id = typeof (msg as { id?: unknown })?.id === 'number' ? (msg as { id: number }).id : -1
    const d = describeZodError(env.error)
    return { id, ok: false, error: { code: 'INVALID_MESSAGE', message: `Malformed request: ${d.message}`, details: { issues: d.issues } } }
  }
  const { id, type } = env.data
  if (!Object.hasOwn(requests, type)) {
    return { id, ok: false, error: { code: 'INVALID_MESSAGE', message: `Unknown request type "${type}"` } }
  }
  const spec = requests[type as RequestType]
  const params = spec.params.safeParse(env.data.params ?? {})
  if (!params.success) {
    const d = describeZodError(params.error)
    return { id, ok: false, error: { code: 'INVALID_MESSAGE', message: `Invalid ${type} request: ${d.message}`, details: { issues: d.issues } } }
  }
  try {
    const handler = handlers[type as RequestType] as (p: unknown) => unknown
    const result = await handler(params.data)
    return { id, ok: true, result }
  } catch (e) {
    return { id, ok: false, error: errorData(e) }
  }
}

/** Validates a response result against its schema (used by the client side). */
export function parseResult<K extends RequestType>(type: K, result: unknown): RequestResult<K> {
  const r = requests[type].result.safeParse(result)
  if (!r.success) throw new EddyError('INVALID_MESSAGE', `Invalid ${type} response: ${describeZodError(r.error).message}`)
  return r.data as RequestResult<K>
}

export type { RequestParams }
