// The renderer's one API client: typed calls over whichever transport this window has.
// Responses are validated against the contract here too, so a broken host cannot hand the
// UI malformed data.
import { EddyError } from '../../src-shared/api/errors'
import { eventEnvelope, events, type EventPayload, type EventType, type RequestParams, type RequestResult, type RequestType } from '../../src-shared/api/contract'
import { parseResult } from '../../src-shared/api/dispatch'
import { ipcTransport } from './ipcTransport'
import type { Transport } from './transport'
import { wsTransport } from './wsTransport'

export class ApiClient {
  private nextId = 1
  constructor(readonly transport: Transport) {}

  async call<K extends RequestType>(type: K, params: RequestParams<K>): Promise<RequestResult<K>> {
    const resp = await this.transport.send({ id: this.nextId++, type, params })
    if (!resp.ok) throw new EddyError(resp.error.code, resp.error.message, resp.error.details)
    return parseResult(type, resp.result)
  }

  on<K extends EventType>(event: K, cb: (payload: EventPayload<K>) => void): () => void {
    return this.transport.onEvent((raw) => {
      const env = eventEnvelope.safeParse(raw)
      if (!env.success || env.data.event !== event) return
      const p = events[event].safeParse(env.data.payload)
      if (p.success) cb(p.data as EventPayload<K>)
    })
  }
}

/** Picks the transport: Electron's preload API when present, else the host's WebSocket. */
export async function connectApi(): Promise<ApiClient> {
  if (window.eddyIpc) return new ApiClient(ipcTransport(window.eddyIpc))
  // The session cookie set by the launch address goes along with the upgrade by itself.
  const proto = window.location.protocol === 'https:' ? 'wss:' : 'ws:'
  return new ApiClient(await wsTransport(`${proto}//${window.location.host}/ws`))
}
