// WebSocket transport to the headless host. The page holds no secret: the launch address
// that opened this window left an HttpOnly session cookie, which the browser sends with the
// WebSocket upgrade (same origin), and the host checks it there.
import { eventEnvelope, responseEnvelope, type EventEnvelope, type RequestEnvelope, type ResponseEnvelope } from '../../src-shared/api/contract'
import type { Transport } from './transport'

/** What the page says when the host refused or could not be reached before any message. */
export const NOT_CONNECTED_MESSAGE =
  'The Eddy host refused the connection or is not running. This window needs a session: start Eddy with "npm start" and open the launch address it prints (each launch address works once).'

export function wsTransport(url: string): Promise<Transport> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url)
    ws.binaryType = 'arraybuffer'
    const pending = new Map<number, (r: ResponseEnvelope) => void>()
    const listeners = new Set<(ev: EventEnvelope) => void>()
    const closers: ((reason: string) => void)[] = []
    let opened = false
    ws.onopen = () => {
      opened = true
      resolve(transport)
    }
    // A refused upgrade fires error, then close: the close handler explains it.
    ws.onerror = () => undefined
    ws.onclose = (e) => {
      const reason = opened ? `Connection to the Eddy host closed (${e.code}${e.reason ? ': ' + e.reason : ''})` : NOT_CONNECTED_MESSAGE
      for (const [, res] of pending) res({ id: -1, ok: false, error: { code: 'IO_ERROR', message: reason } })
      pending.clear()
      if (!opened) reject(new Error(reason))
      for (const c of closers) c(reason)
    }
    ws.onmessage = (e) => {
      if (e.data instanceof ArrayBuffer) {
        // A binary result: u32 little-endian request id, then the bytes (see host/server.ts).
        if (e.data.byteLength < 4) return
        const id = new DataView(e.data).getUint32(0, true)
        const res = pending.get(id)
        if (res) {
          pending.delete(id)
          res({ id, ok: true, result: new Uint8Array(e.data, 4) })
        }
        return
      }
      let data: unknown
      try {
        data = JSON.parse(String(e.data))
      } catch {
        console.error('Eddy host sent a message that is not JSON')
        return
      }
      const resp = responseEnvelope.safeParse(data)
      if (resp.success) {
        const res = pending.get(resp.data.id)
        if (res) {
          pending.delete(resp.data.id)
          res(resp.data)
        }
        return
      }
      const ev = eventEnvelope.safeParse(data)
      if (ev.success) for (const l of listeners) l(ev.data)
      else console.error('Eddy host sent an unknown message', data)
    }
    const transport: Transport = {
      kind: 'websocket',
      url,
      send(env: RequestEnvelope) {
        return new Promise((res) => {
          if (ws.readyState !== WebSocket.OPEN) {
            res({ id: env.id, ok: false, error: { code: 'IO_ERROR', message: 'Not connected to the Eddy host' } })
            return
          }
          pending.set(env.id, res)
          ws.send(JSON.stringify(env))
        })
      },
      onEvent(cb) {
        listeners.add(cb)
        return () => listeners.delete(cb)
      },
      onClose(cb) {
        closers.push(cb)
      },
    }
  })
}
