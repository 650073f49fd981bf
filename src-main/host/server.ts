// The headless host: the same services as the Electron main process, served to a browser
// over HTTP (the renderer's files) and a WebSocket (the API) on 127.0.0.1 only.
//
// Access: the host makes a one-time launch code per run and hands it to its parent only
// (the EDDY_HOST_READY line on stdout), never through arguments or the environment. The
// first GET of the launch address (/launch?code=...) voids the code and answers with an
// HttpOnly, SameSite=Strict session cookie for this host; the WebSocket upgrade then needs
// that cookie (and a local Origin). The session secret itself never leaves the host except
// in that one Set-Cookie header, so reading another process's command line (which shows
// at most the used-up launch code) opens nothing. Any later use of the code is refused.
import { randomBytes, timingSafeEqual } from 'node:crypto'
import { createServer, type IncomingMessage, type ServerResponse, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { WebSocketServer, type WebSocket } from 'ws'
import type { EventEnvelope } from '../../src-shared/api/contract'
import { MAX_MESSAGE_BYTES, refuseRawMessage } from '../../src-shared/api/dispatch'
import type { EddyService } from '../app/service'
import { CONTENT_SECURITY_POLICY, serveStatic } from './staticFiles'

export interface HostOptions {
  service: EddyService
  rendererDir: string
  port?: number
  /**
   * For test harnesses and scripts: also accept the session secret as `?token=` on the
   * WebSocket upgrade, from clients that send no Origin header (every browser sends one,
   * so pages still need the cookie). Off for `npm start`.
   */
  allowTokenQuery?: boolean
}

export interface RunningHost {
  /** The app's address, http://127.0.0.1:PORT/ (needs a session to connect). */
  url: string
  /** The one-time launch address: the first GET of it starts the session. */
  launchUrl: string
  port: number
  /** Name of the session cookie (per port, so two hosts never overwrite each other's). */
  cookieName: string
  server: Server
  close(): Promise<void>
}

/**
 * The WebSocket's hard cap: twice the message limit, so a message somewhat over the limit
 * gets the typed INVALID_MESSAGE error (see refuseRawMessage) and only a gross one closes
 * the connection (1009) before it is buffered whole.
 */
const WS_MAX_PAYLOAD = 2 * MAX_MESSAGE_BYTES

function sameSecret(given: string | null | undefined, expected: string | null): boolean {
  if (!given || !expected) return false
  const a = Buffer.from(given)
  const b = Buffer.from(expected)
  return a.length === b.length && timingSafeEqual(a, b)
}

/** Every value sent for cookie `name` (a browser may send several of one name). */
export function cookieValues(header: string | undefined, name: string): string[] {
  if (!header) return []
  const out: string[] = []
  for (const part of header.split(';')) {
    const eq = part.indexOf('=')
    if (eq < 0) continue
    if (part.slice(0, eq).trim() === name) out.push(part.slice(eq + 1).trim())
  }
  return out
}

function page(res: ServerResponse, status: number, title: string, text: string, extraHeaders: Record<string, string> = {}): void {
  const esc = (t: string): string => t.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c] ?? c)
  const body = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${esc(title)}</title></head><body style="font-family:sans-serif;max-width:40em;margin:3em auto"><h1>${esc(title)}</h1><p>${esc(text)}</p></body></html>`
  res.writeHead(status, {
    'Content-Type': 'text/html; charset=utf-8',
    'Content-Security-Policy': CONTENT_SECURITY_POLICY,
    'Cache-Control': 'no-store',
    'Referrer-Policy': 'no-referrer',
    'X-Content-Type-Options': 'nosniff',
    ...extraHeaders,
  })
  res.end(body)
}

export function startHost(opts: HostOptions): Promise<RunningHost> {
  const launchCode = randomBytes(24).toString('base64url')
  let launchUsed = false
  /** The session secret, made when the launch code is exchanged (one per run). */
  let session: string | null = null
  let cookieName = 'eddy_session'

  const launch = (req: IncomingMessage, res: ServerResponse, url: URL): void => {
    if (req.method !== 'GET') {
      page(res, 405, 'Method not allowed', 'Open the launch address in a browser.', { Allow: 'GET' })
      return
    }
    const code = url.searchParams.get('code')
    if (!sameSecret(code, launchCode)) {
      page(res, 403, 'This Eddy link is not valid', 'Start Eddy with "npm start" and open the address it prints.')
      return
    }
    if (launchUsed) {
      page(
        res,
        403,
        'This Eddy link was already used',
        'Each launch link opens Eddy once. If Eddy is already open in this browser, use that window; otherwise start Eddy again with "npm start" for a new link.',
      )
      return
    }
    launchUsed = true
    session = randomBytes(32).toString('base64url')
    // No Domain attribute: the cookie goes back to this host name only; no Max-Age: it ends
    // with the browser session (the secret ends with the host anyway).
    res.writeHead(303, {
      Location: '/',
      'Set-Cookie': `${cookieName}=${session}; Path=/; HttpOnly; SameSite=Strict`,
      'Cache-Control': 'no-store',
      'Referrer-Policy': 'no-referrer',
      'Content-Length': '0',
    })
    res.end()
  }

  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1')
    if (url.pathname === '/launch') launch(req, res, url)
    else serveStatic(opts.rendererDir, req, res)
  })
  const wss = new WebSocketServer({ noServer: true, maxPayload: WS_MAX_PAYLOAD })
  /** Every socket (closed with the host). */
  const clients = new Set<WebSocket>()
  /**
   * The sockets that take the events every window gets: all but those opened with
   * `?events=none` (a decode worker fetching cached frames, which would only parse and drop
   * each project state and bake update).
   */
  const listeners = new Set<WebSocket>()

  const authorized = (req: IncomingMessage, url: URL): boolean => {
    if (session === null) return false
    // Compare every candidate (no early exit on the first match) in constant time each.
    let ok = false
    for (const v of cookieValues(req.headers.cookie, cookieName)) ok = sameSecret(v, session) || ok
    if (opts.allowTokenQuery && req.headers.origin === undefined) ok = sameSecret(url.searchParams.get('token'), session) || ok
    return ok
  }

  server.on('upgrade', (req, socket, head) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1')
    const origin = req.headers.origin
    const port = (server.address() as AddressInfo).port
    const originOk = !origin || origin === `http://127.0.0.1:${port}` || origin === `http://localhost:${port}`
    if (url.pathname !== '/ws' || !originOk || !authorized(req, url)) {
      socket.write('HTTP/1.1 401 Unauthorized\r\nConnection: close\r\nContent-Length: 0\r\n\r\n')
      socket.destroy()
      return
    }
    wss.handleUpgrade(req, socket, head, (ws) => wss.emit('connection', ws, req))
  })

  const send = (ws: WebSocket, data: unknown): void => {
    if (ws.readyState === ws.OPEN) ws.send(JSON.stringify(data))
  }

  wss.on('connection', (ws, req: IncomingMessage) => {
    clients.add(ws)
    if (new URL(req.url ?? '/', 'http://127.0.0.1').searchParams.get('events') !== 'none') listeners.add(ws)
    const forget = () => {
      clients.delete(ws)
      listeners.delete(ws)
    }
    ws.on('close', forget)
    ws.on('error', forget)
    ws.on('message', (data, isBinary) => {
      if (isBinary) {
        send(ws, { id: -1, ok: false, error: { code: 'INVALID_MESSAGE', message: 'Binary messages are not part of the API' } })
        return
      }
      // Size and nesting depth are checked on the raw text before anything parses it: a
      // '['.repeat(5e6) would otherwise hold every client up for seconds in JSON.parse.
      const buf = Buffer.isBuffer(data) ? data : Array.isArray(data) ? Buffer.concat(data) : Buffer.from(data)
      const text = buf.length > MAX_MESSAGE_BYTES ? null : buf.toString()
      const refused = refuseRawMessage(text, buf.length)
      if (refused) {
        send(ws, refused)
        return
      }
      void opts.service.request(text).then((resp) => {
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
    for (const c of listeners) send(c, ev)
  }

  opts.service.onEvent = (ev) => {
    for (const c of listeners) send(c, ev)
  }

  return new Promise((resolve, reject) => {
    server.once('error', reject)
    server.listen(opts.port ?? 0, '127.0.0.1', () => {
      const port = (server.address() as AddressInfo).port
      cookieName = `eddy_session_${port}`
      resolve({
        url: `http://127.0.0.1:${port}/`,
        launchUrl: `http://127.0.0.1:${port}/launch?code=${launchCode}`,
        port,
        cookieName,
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
