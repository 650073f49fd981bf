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

/**
 * Handles one raw message (already JSON-decoded, or a string to decode). Never throws:
 * every failure becomes `{ ok: false, error }` with the request id when one could be read.
 */
export async function dispatch(handlers: Handlers, raw: unknown): Promise<ResponseEnvelope> {
  let msg: unknown = raw
  if (typeof raw === 'string') {
    try {
      msg = JSON.parse(raw)
    } catch {
      return { id: -1, ok: false, error: { code: 'INVALID_MESSAGE', message: 'Message is not valid JSON' } }
    }
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
