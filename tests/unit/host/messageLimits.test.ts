// Hostile messages are refused before JSON.parse with the typed INVALID_MESSAGE envelope:
// nesting deeper than the limit (a 5-million-deep '[' would stall every client for seconds),
// text over the size limit, and request ids that cannot be echoed back intact (1e999 parses
// to Infinity, which JSON.stringify writes as null).
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { mkdtempSync, writeFileSync } from 'node:fs'
import { get } from 'node:http'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { WebSocket } from 'ws'
import { MAX_MESSAGE_DEPTH, MAX_REQUEST_ID, nestingDeeperThan, refuseRawMessage } from '../../../src-shared/api/dispatch'
import { startHost, type RunningHost } from '../../../src-main/host/server'
import { makeService } from '../app/serviceHelpers'

let host: RunningHost
let cookie: string
const { service } = makeService()

beforeAll(async () => {
  const dir = mkdtempSync(join(tmpdir(), 'eddy-renderer-'))
  writeFileSync(join(dir, 'index.html'), '<!doctype html><title>Eddy</title>')
  host = await startHost({ service, rendererDir: dir })
  cookie = await new Promise<string>((resolve, reject) =>
    get(host.launchUrl, (res) => {
      res.resume()
      resolve(String((res.headers['set-cookie'] ?? [])[0]).split(';')[0])
    }).on('error', reject),
  )
})
afterAll(async () => {
  await host.close()
  await service.close()
})

function connect(): Promise<WebSocket> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(`ws://127.0.0.1:${host.port}/ws`, { headers: { Cookie: cookie } })
    ws.once('open', () => resolve(ws))
    ws.once('error', reject)
  })
}

function roundTrip(ws: WebSocket, data: string): Promise<{ id: unknown; ok: boolean; error?: { code: string; message: string; details?: { issues?: { path: string }[] } } }> {
  return new Promise((resolve) => {
    ws.once('message', (m) => resolve(JSON.parse(m.toString())))
    ws.send(data)
  })
}

describe('nesting depth scan', () => {
  it('counts brackets outside strings only', () => {
    expect(nestingDeeperThan('[[[]]]', 3)).toBe(false)
    expect(nestingDeeperThan('[[[[]]]]', 3)).toBe(true)
    expect(nestingDeeperThan('{"a":{"b":[1]}}', 3)).toBe(false)
    expect(nestingDeeperThan('{"a":{"b":[[1]]}}', 3)).toBe(true)
    // Brackets inside strings, escaped quotes and escaped backslashes before a closing quote.
    expect(nestingDeeperThan(JSON.stringify({ s: '[[[[[[{{{{' }), 2)).toBe(false)
    expect(nestingDeeperThan(JSON.stringify({ s: 'say \\"[[[[[[" ok' }), 2)).toBe(false)
    expect(nestingDeeperThan(JSON.stringify({ s: 'ends in a backslash\\' }) + '[[[', 2)).toBe(true)
    expect(nestingDeeperThan(JSON.stringify({ s: '\\\\"' + '['.repeat(10) }), 1)).toBe(false)
    // An unterminated string ends the scan (JSON.parse rejects it).
    expect(nestingDeeperThan('["[[[[[[', 2)).toBe(false)
    // Siblings do not add up.
    expect(nestingDeeperThan('[' + '[],'.repeat(1000) + '[]]', 2)).toBe(false)
  })

  it('refuses over-size and over-deep text with the typed error, and lets ordinary requests through', () => {
    const limits = { maxBytes: 100, maxDepth: 4 }
    expect(refuseRawMessage('x'.repeat(101), undefined, limits)).toMatchObject({ id: -1, ok: false, error: { code: 'INVALID_MESSAGE', message: expect.stringMatching(/too large/) } })
    expect(refuseRawMessage(null, 101, limits)).toMatchObject({ id: -1, ok: false, error: { code: 'INVALID_MESSAGE' } })
    expect(refuseRawMessage('[[[[[]]]]]', undefined, limits)).toMatchObject({ id: -1, ok: false, error: { code: 'INVALID_MESSAGE', message: expect.stringMatching(/deeper than 4/) } })
    expect(refuseRawMessage(JSON.stringify({ id: 1, type: 'app.info', params: {} }))).toBeNull()
  })
})

describe('hostile messages over the WebSocket', () => {
  it(`refuses a 5,000,000-deep message (limit ${MAX_MESSAGE_DEPTH}) while another client is answered`, async () => {
    const [a, b] = await Promise.all([connect(), connect()])
    const deep = '['.repeat(5e6)
    const t0 = performance.now()
    const refused = roundTrip(a, deep).then((r) => ({ r, ms: performance.now() - t0 }))
    const answered = roundTrip(b, JSON.stringify({ id: 2, type: 'app.info', params: {} })).then((r) => ({ r, ms: performance.now() - t0 }))
    const [deepReply, otherReply] = await Promise.all([refused, answered])
    console.log(`5e6-deep message refused after ${deepReply.ms.toFixed(1)} ms; the other client's app.info answered after ${otherReply.ms.toFixed(1)} ms`)
    expect(deepReply.r).toMatchObject({ id: -1, ok: false, error: { code: 'INVALID_MESSAGE', message: expect.stringMatching(new RegExp(`deeper than ${MAX_MESSAGE_DEPTH}`)) } })
    expect(otherReply.r).toMatchObject({ id: 2, ok: true })
    // The connection stays usable.
    expect(await roundTrip(a, JSON.stringify({ id: 4, type: 'app.info', params: {} }))).toMatchObject({ id: 4, ok: true })
    // The same through the service's string path (what Electron IPC would hand it).
    expect(await service.request('{"a":' + '['.repeat(100) + ']'.repeat(100) + '}')).toMatchObject({ id: -1, ok: false, error: { code: 'INVALID_MESSAGE' } })
    // Depth at the limit is still parsed (and then judged by the schema as usual).
    const atLimit = await roundTrip(a, JSON.stringify({ id: 5, type: 'app.info', params: {}, pad: JSON.parse('['.repeat(MAX_MESSAGE_DEPTH - 1) + ']'.repeat(MAX_MESSAGE_DEPTH - 1)) }))
    expect(atLimit).toMatchObject({ id: 5, ok: true })
    a.close()
    b.close()
  })

  it('refuses ids that are not integers 0..2^32-1, naming the field id and never echoing null', async () => {
    const ws = await connect()
    const cases: [string, RegExp][] = [
      ['{"id":1e999,"type":"app.info","params":{}}', /id: must be an integer/],
      ['{"id":-1e999,"type":"app.info","params":{}}', /id: must be an integer/],
      ['{"id":1.5,"type":"app.info","params":{}}', /id: must be an integer/],
      ['{"id":-3,"type":"app.info","params":{}}', /id: must be an integer/],
      [`{"id":${MAX_REQUEST_ID + 1},"type":"app.info","params":{}}`, /id: must be an integer/],
      [`{"id":${Number.MAX_SAFE_INTEGER + 2},"type":"app.info","params":{}}`, /id: must be an integer/],
      [`{"id":"${'x'.repeat(1_000_000)}","type":"app.info","params":{}}`, /id: must be a number/],
    ]
    for (const [text, message] of cases) {
      const raw = await new Promise<string>((resolve) => {
        ws.once('message', (m) => resolve(m.toString()))
        ws.send(text)
      })
      expect(raw.length).toBeLessThan(1000) // an over-long id is not echoed back
      const r = JSON.parse(raw) as { id: unknown; ok: boolean; error: { code: string; message: string; details: { issues: { path: string }[] } } }
      expect(r.id).toBe(-1)
      expect(r).toMatchObject({ ok: false, error: { code: 'INVALID_MESSAGE' } })
      expect(r.error.message).toMatch(message)
      expect(r.error.details.issues[0].path).toBe('id')
    }
    expect(await roundTrip(ws, `{"id":${MAX_REQUEST_ID},"type":"app.info","params":{}}`)).toMatchObject({ id: MAX_REQUEST_ID, ok: true })
    expect(await roundTrip(ws, '{"id":0,"type":"app.info","params":{}}')).toMatchObject({ id: 0, ok: true })
    ws.close()
  })
})
