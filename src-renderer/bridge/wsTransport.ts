// WebSocket transport to the headless host. The per-run token arrives in the URL fragment
// (#token=...), which the browser never sends over the network, and goes back to the host
// as a query parameter on the WebSocket upgrade, where the host checks it.
import { eventEnvelope, responseEnvelope, type EventEnvelope, type RequestEnvelope, type ResponseEnvelope } from '../../src-shared/api/contract'
import type { Transport } from './transport'

export function tokenFromLocation(loc: Location): string | null {
  const m = /(?:^#|&)token=([A-Za-z0-9_-]+)/.exec(loc.hash)
  return m ? m[1] : null
}

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
    ws.onerror = () => {
      if (!opened) reject(new Error('Could not connect to the Eddy host'))
    }
    ws.onclose = (e) => {
      const reason = opened ? `Connection to the Eddy host closed (${e.code}${e.reason ? ': ' + e.reason : ''})` : 'The Eddy host refused the connection (wrong or missing token?)'
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
