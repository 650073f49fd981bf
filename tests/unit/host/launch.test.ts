// The one-time launch address: the first GET trades the code for an HttpOnly, SameSite=Strict
// session cookie; every later use is refused with a page saying so; the WebSocket then
// needs the cookie (the query form only on a host started for scripts, and never with an Origin).
import { afterEach, describe, expect, it } from 'vitest'
import { mkdtempSync, writeFileSync } from 'node:fs'
import { request } from 'node:http'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { WebSocket } from 'ws'
import { cookieValues, startHost, type HostOptions, type RunningHost } from '../../../src-main/host/server'
import { parseHostArgs } from '../../../src-main/host/args'
import { makeService } from '../app/serviceHelpers'

const open: { host: RunningHost; close(): void }[] = []
afterEach(async () => {
  for (const o of open.splice(0)) {
    await o.host.close()
    o.close()
  }
})

async function host(opts: Partial<HostOptions> = {}): Promise<RunningHost> {
  const dir = mkdtempSync(join(tmpdir(), 'eddy-renderer-'))
  writeFileSync(join(dir, 'index.html'), '<!doctype html><title>Eddy</title>')
  const { service } = makeService()
  const h = await startHost({ service, rendererDir: dir, ...opts })
  open.push({ host: h, close: () => void service.close() })
  return h
}

function get(h: RunningHost, path: string, opts: { method?: string; headers?: Record<string, string> } = {}): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port: h.port, path, method: opts.method ?? 'GET', headers: opts.headers }, (res) => {
      let body = ''
      res.on('data', (c: Buffer) => (body += c.toString()))
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }))
    })
    req.on('error', reject)
    req.end()
  })
}

const launchPath = (h: RunningHost): string => new URL(h.launchUrl).pathname + new URL(h.launchUrl).search

function connect(h: RunningHost, query: string, headers: Record<string, string> = {}): Promise<WebSocket> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(`ws://127.0.0.1:${h.port}/ws${query}`, { headers })
    ws.once('open', () => resolve(ws))
    ws.once('error', reject)
  })
}

function appInfo(ws: WebSocket): Promise<Record<string, unknown>> {
  return new Promise((resolve) => {
    ws.once('message', (m) => resolve(JSON.parse(m.toString()) as Record<string, unknown>))
    ws.send(JSON.stringify({ id: 3, type: 'app.info', params: {} }))
  })
}

describe('launch address', () => {
  it('is printed as an address on the host without the session secret, and the app address carries nothing secret', async () => {
    const h = await host()
    expect(h.url).toBe(`http://127.0.0.1:${h.port}/`)
    expect(h.launchUrl).toMatch(new RegExp(`^http://127\\.0\\.0\\.1:${h.port}/launch\\?code=[A-Za-z0-9_-]{32}$`))
    expect(h.cookieName).toBe(`eddy_session_${h.port}`)
  })

  it('is exchanged once for an HttpOnly, SameSite=Strict host-only cookie, then refused', async () => {
    const h = await host()
    // No session exists before the launch: nothing opens the API.
    await expect(connect(h, '')).rejects.toThrow(/401/)
    const first = await get(h, launchPath(h))
    expect(first.status).toBe(303)
    expect(first.headers.location).toBe('/')
    expect(first.headers['cache-control']).toBe('no-store')
    const setCookie = (first.headers['set-cookie'] as string[])[0]
    expect(setCookie).toMatch(new RegExp(`^${h.cookieName}=[A-Za-z0-9_-]{43}; `))
    const attrs = setCookie.split(';').map((a) => a.trim().toLowerCase())
    expect(attrs).toEqual(expect.arrayContaining(['httponly', 'samesite=strict', 'path=/']))
    expect(attrs.some((a) => a.startsWith('domain=') || a.startsWith('max-age=') || a.startsWith('expires='))).toBe(false)
    const cookie = setCookie.split(';')[0]
    // The session is not the launch code.
    expect(cookie.split('=')[1]).not.toBe(new URL(h.launchUrl).searchParams.get('code'))

    const again = await get(h, launchPath(h))
    expect(again.status).toBe(403)
    expect(again.headers['set-cookie']).toBeUndefined()
    expect(again.headers['content-type']).toMatch(/text\/html/)
    expect(again.body).toMatch(/already used/i)
    // Even a browser that holds the session gets no second cookie from the used code.
    expect((await get(h, launchPath(h), { headers: { Cookie: cookie } })).status).toBe(403)

    const ws = await connect(h, '', { Cookie: cookie })
    expect(await appInfo(ws)).toMatchObject({ id: 3, ok: true })
    ws.close()
  })

  it('refuses a wrong code and methods other than GET without using the code up', async () => {
    const h = await host()
    const wrong = await get(h, '/launch?code=AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA')
    expect(wrong.status).toBe(403)
    expect(wrong.body).toMatch(/not valid/i)
    expect((await get(h, '/launch')).status).toBe(403)
    expect((await get(h, launchPath(h), { method: 'POST' })).status).toBe(405)
    expect((await get(h, launchPath(h), { method: 'HEAD' })).status).toBe(405)
    expect((await get(h, launchPath(h))).status).toBe(303)
  })

  it('takes ?token= only on a host started for scripts, and only from clients without an Origin', async () => {
    const h = await host({ allowTokenQuery: true })
    await expect(connect(h, '?token=')).rejects.toThrow(/401/)
    const first = await get(h, launchPath(h))
    const secret = (first.headers['set-cookie'] as string[])[0].split(';')[0].split('=')[1]
    await expect(connect(h, '?token=wrong')).rejects.toThrow(/401/)
    await expect(connect(h, `?token=${secret}`, { Origin: `http://127.0.0.1:${h.port}` })).rejects.toThrow(/401/)
    const ws = await connect(h, `?token=${secret}`)
    expect(await appInfo(ws)).toMatchObject({ ok: true })
    ws.close()
    expect(parseHostArgs(['--allow-token-query']).allowTokenQuery).toBe(true)
    expect(parseHostArgs([]).allowTokenQuery).toBeUndefined()
  })

  it('reads every value of the session cookie from a Cookie header', () => {
    expect(cookieValues(undefined, 'a')).toEqual([])
    expect(cookieValues('a=1; b=2;a=3 ; c', 'a')).toEqual(['1', '3'])
    expect(cookieValues('ab=1', 'a')).toEqual([])
  })
})
