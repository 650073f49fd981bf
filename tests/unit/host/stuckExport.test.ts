// Issue 11, end to end in a real process: the built host (out/main/host.js; build with
// `npx electron-vite build`) exports into a folder whose mkdir never settles. Node's
// recursive mkdir under /proc/1 loops forever in a libuv thread (mkdir answers ENOENT, the
// parent "exists", repeat), even for root, like a call on a dead hard-mounted share. Other
// requests must still be answered, export.cancel must answer at once, and SIGTERM must end
// the host within 2 s.
import { spawn, type ChildProcess } from 'node:child_process'
import fs from 'node:fs'
import { get as httpGet } from 'node:http'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { WebSocket } from 'ws'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { runBake } from '../../../src-main/bake/runner'
import { makeSmokeProject, tempDir } from '../bake/bakeFixtures'

const HOST = fileURLToPath(new URL('../../../out/main/host.js', import.meta.url))
const canReproduce = process.platform === 'linux' && fs.existsSync('/proc/1')

const dir = tempDir('eddy-stuck-host-')
let file = ''
let proc: ChildProcess | null = null

beforeAll(async () => {
  file = makeSmokeProject(dir, { name: 'stuck', frames: 2 })
  await runBake({ projectPath: file, domainId: 'domain', mode: 'bake', kernels: 'ts' })
})
afterAll(() => {
  if (proc && proc.exitCode === null && proc.signalCode === null) proc.kill('SIGKILL')
  fs.rmSync(dir, { recursive: true, force: true })
})

function startHost(): Promise<{ proc: ChildProcess; port: number; launchUrl: string }> {
  const data = path.join(dir, 'data')
  const projects = path.join(dir, 'projects')
  fs.mkdirSync(data, { recursive: true })
  const child = spawn(process.execPath, [HOST, '--port', '0', '--data-dir', data, '--projects-dir', projects, '--open', file], { stdio: ['ignore', 'pipe', 'pipe'] })
  proc = child
  return new Promise((resolve, reject) => {
    let out = ''
    let err = ''
    child.stderr!.on('data', (c: Buffer) => (err += c.toString()))
    child.once('exit', (code) => reject(new Error(`host exited with ${code}: ${err}`)))
    child.stdout!.on('data', (c: Buffer) => {
      out += c.toString()
      const line = out.split('\n').find((l) => l.startsWith('EDDY_HOST_READY '))
      if (line) {
        const info = JSON.parse(line.slice('EDDY_HOST_READY '.length)) as { port: number; launchUrl: string }
        resolve({ proc: child, port: info.port, launchUrl: info.launchUrl })
      }
    })
  })
}

/** The session cookie the one-time launch address sets. */
function sessionCookie(launchUrl: string): Promise<string> {
  return new Promise((resolve, reject) => {
    httpGet(launchUrl, (res) => {
      res.resume()
      const set = (res.headers['set-cookie'] ?? [])[0]
      if (!set) return reject(new Error(`launch answered ${res.statusCode} without a cookie`))
      resolve(/^[^;]+/.exec(set)![0])
    }).on('error', reject)
  })
}

class Client {
  private next = 1
  private readonly waiting = new Map<number, (m: Record<string, unknown>) => void>()
  readonly events: Record<string, unknown>[] = []
  constructor(private readonly ws: WebSocket) {
    ws.on('message', (data) => {
      const m = JSON.parse(data.toString()) as Record<string, unknown>
      if (typeof m.id === 'number' && this.waiting.has(m.id)) {
        this.waiting.get(m.id)!(m)
        this.waiting.delete(m.id)
      } else this.events.push(m)
    })
  }
  static async connect(port: number, cookie: string): Promise<Client> {
    const ws = new WebSocket(`ws://127.0.0.1:${port}/ws`, { headers: { Cookie: cookie } })
    await new Promise((resolve, reject) => {
      ws.once('open', resolve)
      ws.once('error', reject)
    })
    return new Client(ws)
  }
  /** The answer, or 'timeout' after `ms`. */
  request(type: string, params: unknown, ms = 3000): Promise<Record<string, unknown> | 'timeout'> {
    const id = this.next++
    return new Promise((resolve) => {
      const timer = setTimeout(() => resolve('timeout'), ms)
      this.waiting.set(id, (m) => {
        clearTimeout(timer)
        resolve(m)
      })
      this.ws.send(JSON.stringify({ id, type, params }))
    })
  }
}

describe.skipIf(!canReproduce)('the host with an export stuck in mkdir', () => {
  it('answers other requests, cancels at once, and exits within 2 s of SIGTERM', async () => {
    expect(fs.existsSync(HOST), `${HOST} is missing: run npx electron-vite build`).toBe(true)
    const host = await startHost()
    const cookie = await sessionCookie(host.launchUrl)
    const client = await Client.connect(host.port, cookie)
    const stuckDir = `/proc/1/eddy-stuck-${process.pid}/out`

    const started = await client.request('export.start', { domainId: 'domain', format: 'vdb', outDir: stuckDir })
    expect(started).toMatchObject({ ok: true, result: { phase: 'running' } })
    await new Promise((r) => setTimeout(r, 300))
    // Still stuck: no end of the job was reported.
    expect(client.events.some((e) => e.event === 'export.update' && (e.payload as { job: { phase: string } }).job.phase !== 'running')).toBe(false)

    // Other requests flow, from this and from another connection.
    // (Time limits of seconds, far inside the export's 30 s deadline: the host answers while the
    // disk call hangs, with room for a loaded CI machine.)
    expect(await client.request('app.info', {}, 3000)).toMatchObject({ ok: true })
    expect(await client.request('project.list', { dir }, 3000)).toMatchObject({ ok: true })
    const other = await Client.connect(host.port, cookie)
    expect(await other.request('project.get', {}, 3000)).toMatchObject({ ok: true })

    const t0 = performance.now()
    const cancel = await client.request('export.cancel', { domainId: 'domain' }, 5000)
    expect(performance.now() - t0).toBeLessThan(3000)
    expect(cancel).toMatchObject({ ok: true, result: { cancelled: true, job: { phase: 'cancelled' } } })
    expect(await client.request('object.update', { id: 'source', patch: { name: 'Still editing' } }, 3000)).toMatchObject({ ok: true })

    // Stuck again, then SIGTERM: the host is gone within 2 s.
    expect(await client.request('export.start', { domainId: 'domain', format: 'vdb', outDir: `${stuckDir}2` })).toMatchObject({ ok: true })
    await new Promise((r) => setTimeout(r, 200))
    const gone = new Promise<number>((resolve) => host.proc.once('exit', () => resolve(performance.now())))
    const sent = performance.now()
    host.proc.kill('SIGTERM')
    const ended = await Promise.race([gone, new Promise<number>((r) => setTimeout(() => r(Infinity), 4000))])
    expect(ended - sent).toBeLessThan(2000)
  })
})
