// The headless host: the same services as the Electron main process, served to a browser
// over HTTP (the renderer's files) and a WebSocket (the API) on 127.0.0.1 only. A random
// per-run token guards the WebSocket: a connection without it is refused at the upgrade.
import { randomBytes, timingSafeEqual } from 'node:crypto'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { WebSocketServer, type WebSocket } from 'ws'
import type { EventEnvelope } from '../../src-shared/api/contract'
import type { EddyService } from '../app/service'
import { serveStatic } from './staticFiles'

export interface HostOptions {
  service: EddyService
  rendererDir: string
  port?: number
  token?: string
}

export interface RunningHost {
  url: string
  port: number
  token: string
  server: Server
  close(): Promise<void>
}

/** 80 MiB: the largest mesh import (64 MiB of base64) plus envelope. */
const MAX_MESSAGE_BYTES = 80 * 1024 * 1024

function sameToken(given: string | null, expected: string): boolean {
  if (!given) return false
  const a = Buffer.from(given)
  const b = Buffer.from(expected)
  return a.length === b.length && timingSafeEqual(a, b)
}

export function startHost(opts: HostOptions): Promise<RunningHost> {
  const token = opts.token ?? randomBytes(24).toString('base64url')
  const server = createServer((req, res) => serveStatic(opts.rendererDir, req, res))
  const wss = new WebSocketServer({ noServer: true, maxPayload: MAX_MESSAGE_BYTES })
  const clients = new Set<WebSocket>()

  server.on('upgrade', (req, socket, head) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1')
    const origin = req.headers.origin
    const port = (server.address() as AddressInfo).port
    const originOk = !origin || origin === `http://127.0.0.1:${port}` || origin === `http://localhost:${port}`
    if (url.pathname !== '/ws' || !sameToken(url.searchParams.get('token'), token) || !originOk) {
      socket.write('HTTP/1.1 401 Unauthorized\r\nConnection: close\r\nContent-Length: 0\r\n\r\n')
      socket.destroy()
      return
    }
    wss.handleUpgrade(req, socket, head, (ws) => wss.emit('connection', ws, req))
  })

  const send = (ws: WebSocket, data: unknown): void => {
    if (ws.readyState === ws.OPEN) ws.send(JSON.stringify(data))
  }

  wss.on('connection', (ws) => {
    clients.add(ws)
    ws.on('close', () => clients.delete(ws))
    ws.on('error', () => clients.delete(ws))
    ws.on('message', (data, isBinary) => {
      if (isBinary) {
        send(ws, { id: -1, ok: false, error: { code: 'INVALID_MESSAGE', message: 'Binary messages are not part of the API' } })
        return
      }
      void opts.service.request(data.toString()).then((resp) => {
        // Binary results (cached frame records, megabytes) go as one binary message:
        // u32 little-endian request id, then the bytes; JSON + base64 would cost a third
        // more bytes and a decode pass in the renderer.
        if (resp.ok && resp.result instanceof Uint8Array) {
          if (ws.readyState !== ws.OPEN) return
          const head = Buffer.alloc(4)
          head.writeUInt32LE(resp.id >>> 0, 0)
          ws.send(Buffer.concat([head, resp.result]), { binary: true })
          return
        }
        send(ws, resp)
      })
    })
  })

  // Other windows learn about changes made elsewhere; the requester already has the state.
  opts.service.onProjectChanged = (state) => {
    const ev: EventEnvelope = { event: 'project.changed', payload: { state } }
    for (const c of clients) send(c, ev)
  }

  opts.service.onEvent = (ev) => {
    for (const c of clients) send(c, ev)
  }

  return new Promise((resolve, reject) => {
    server.once('error', reject)
    server.listen(opts.port ?? 0, '127.0.0.1', () => {
      const port = (server.address() as AddressInfo).port
      resolve({
        url: `http://127.0.0.1:${port}/#token=${token}`,
        port,
        token,
        server,
        close: () =>
          new Promise<void>((done) => {
            for (const c of clients) c.terminate()
            wss.close()
            server.close(() => done())
          }),
      })
    })
  })
}
