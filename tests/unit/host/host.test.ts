import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { mkdtempSync, writeFileSync } from 'node:fs'
import { request } from 'node:http'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { WebSocket } from 'ws'
import { startHost, type RunningHost } from '../../../src-main/host/server'
import { makeService } from '../app/serviceHelpers'

let host: RunningHost
/** `name=value` of the session cookie the launch address set. */
let cookie: string
const service = makeService().service

beforeAll(async () => {
  const dir = mkdtempSync(join(tmpdir(), 'eddy-renderer-'))
  writeFileSync(join(dir, 'index.html'), '<!doctype html><title>Eddy</title>')
  host = await startHost({ service, rendererDir: dir })
  const launch = await get(new URL(host.launchUrl).pathname + new URL(host.launchUrl).search)
  cookie = /^[^;]+/.exec(String((launch.headers['set-cookie'] as string[])[0]))![0]
})
afterAll(async () => {
  await host.close()
  service.close()
})

function connect(query: string, headers: Record<string, string> = {}): Promise<WebSocket> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(`ws://127.0.0.1:${host.port}/ws${query}`, { headers })
    ws.once('open', () => resolve(ws))
    ws.once('error', reject)
  })
}

function roundTrip(ws: WebSocket, data: string | Buffer): Promise<Record<string, unknown>> {
  return new Promise((resolve) => {
    ws.once('message', (m) => resolve(JSON.parse(m.toString()) as Record<string, unknown>))
    ws.send(data)
  })
}

function get(path: string, headers: Record<string, string> = {}): Promise<{ status: number; headers: Record<string, unknown>; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port: host.port, path, headers }, (res) => {
      let body = ''
      res.on('data', (c: Buffer) => (body += c.toString()))
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }))
    })
    req.on('error', reject)
    req.end()
  })
}

describe('headless host', () => {
  it('listens on 127.0.0.1 only', () => {
    const addr = host.server.address()
    expect(typeof addr === 'object' && addr?.address).toBe('127.0.0.1')
  })

  it('refuses WebSocket connections without the session cookie, with a wrong one, or from another origin', async () => {
    const [name, value] = cookie.split('=')
    expect(name).toBe(host.cookieName)
    await expect(connect('')).rejects.toThrow(/401/)
    await expect(connect('', { Cookie: `${name}=wrong` })).rejects.toThrow(/401/)
    await expect(connect('', { Cookie: `eddy_session=${value}` })).rejects.toThrow(/401/)
    await expect(connect('', { Cookie: cookie, Origin: 'http://evil.example' })).rejects.toThrow(/401/)
    await expect(connect('', { Cookie: cookie, Origin: `http://127.0.0.1:${host.port + 1}` })).rejects.toThrow(/401/)
    // The secret is not taken from the query unless the host was started for scripts.
    await expect(connect(`?token=${value}`)).rejects.toThrow(/401/)
    // The launch code is not a session.
    await expect(connect('', { Cookie: `${name}=${new URL(host.launchUrl).searchParams.get('code')}` })).rejects.toThrow(/401/)
    const ok = await connect('', { Cookie: `other=1; ${cookie}`, Origin: `http://127.0.0.1:${host.port}` })
    ok.close()
  })

  it('answers a valid request and survives malformed ones with typed errors', async () => {
    const ws = await connect('', { Cookie: cookie })
    const info = await roundTrip(ws, JSON.stringify({ id: 1, type: 'app.info', params: {} }))
    expect(info).toMatchObject({ id: 1, ok: true, result: { mode: 'headless' } })
    expect(await roundTrip(ws, '{oops')).toMatchObject({ ok: false, error: { code: 'INVALID_MESSAGE' } })
    expect(await roundTrip(ws, Buffer.from([1, 2, 3]))).toMatchObject({ ok: false, error: { code: 'INVALID_MESSAGE' } })
    const bad = await roundTrip(ws, JSON.stringify({ id: 7, type: 'project.create', params: { name: '' } }))
    expect(bad).toMatchObject({ id: 7, ok: false, error: { code: 'INVALID_MESSAGE' } })
    expect((bad.error as { message: string }).message).toMatch(/name/)
    expect(await roundTrip(ws, JSON.stringify({ id: 8, type: 'app.info', params: {} }))).toMatchObject({ id: 8, ok: true })
    ws.close()
  })

  it('sends events to every socket but those opened with ?events=none, which still get answers', async () => {
    const loud = await connect('', { Cookie: cookie })
    const quiet = await connect('?events=none', { Cookie: cookie })
    const heard: string[] = []
    loud.on('message', (m) => heard.push(`loud ${m.toString()}`))
    quiet.on('message', (m) => heard.push(`quiet ${m.toString()}`))
    service.onEvent?.({ event: 'bake.update', payload: { probe: 1 } } as never)
    await new Promise((r) => setTimeout(r, 100))
    expect(heard).toEqual([`loud ${JSON.stringify({ event: 'bake.update', payload: { probe: 1 } })}`])
    quiet.removeAllListeners('message')
    expect(await roundTrip(quiet, JSON.stringify({ id: 3, type: 'app.info', params: {} }))).toMatchObject({ id: 3, ok: true })
    loud.close()
    quiet.close()
  })

  it('serves the renderer with isolation and CSP headers, and nothing outside it', async () => {
    const index = await get('/')
    expect(index.status).toBe(200)
    expect(index.headers['cross-origin-opener-policy']).toBe('same-origin')
    expect(index.headers['cross-origin-embedder-policy']).toBe('require-corp')
    expect(String(index.headers['content-security-policy'])).toMatch(/default-src 'self'/)
    expect((await get('/../../etc/passwd')).status).not.toBe(200)
    expect((await get('/%2e%2e/%2e%2e/etc/passwd')).status).not.toBe(200)
    expect((await get('/..%2f..%2fetc%2fpasswd')).status).not.toBe(200)
    expect((await get('/missing.js')).status).toBe(404)
  })
})
