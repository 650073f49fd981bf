// End-to-end harness: starts the built headless host (out/main/host.js) with private data
// and project folders, and drives the real renderer in headless Chromium (Debian's
// /usr/bin/chromium through playwright-core; software WebGL via SwiftShader). The host's
// one-time launch address (printed on its stdout) gives the page, or the harness, a session.
import { spawn, type ChildProcess } from 'node:child_process'
import { existsSync, mkdirSync, mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { get as httpGet } from 'node:http'
import { createInterface } from 'node:readline'
import { chromium, type Browser, type Page } from 'playwright-core'
import { HEADLESS_CHROMIUM_ARGS } from '../../src-main/cli/headlessChromium'

export const ROOT = resolve(import.meta.dirname, '../..')
export const ARTIFACTS = join(ROOT, 'test-results/e2e')

export const CHROMIUM_ARGS = HEADLESS_CHROMIUM_ARGS

export interface Host {
  proc: ChildProcess
  /**
   * The app's address. Once a session exists (startHost, or startApp after the page used the
   * launch address) it carries `#token=<session secret>` for scripts that connect with
   * `ws://.../ws?token=...`: the harness runs the host with --allow-token-query, which lets
   * clients without an Origin header (never a browser) present the secret that way.
   */
  url: string
  /** http://127.0.0.1:PORT/ */
  appUrl: string
  /** The one-time launch address the host printed (used up by startHost and startApp). */
  launchUrl: string
  port: number
  /** The session secret (the cookie's value) once the launch address was used, else null. */
  session: string | null
  cookieName: string
  /** Everything the host printed to stderr (for diagnosing failures). */
  stderr: string[]
  stop(): Promise<void>
}

export interface HostDirs {
  dataDir: string
  projectsDir: string
}

export function makeDirs(): HostDirs {
  const base = mkdtempSync(join(tmpdir(), 'eddy-e2e-'))
  const dirs = { dataDir: join(base, 'data'), projectsDir: join(base, 'projects') }
  mkdirSync(dirs.dataDir)
  mkdirSync(dirs.projectsDir)
  return dirs
}

/** GET of a launch address: the status, the session cookie it set (if any) and the body. */
export function useLaunchUrl(launchUrl: string, headers: Record<string, string> = {}): Promise<{ status: number; cookie: { name: string; value: string } | null; setCookie: string; body: string }> {
  return new Promise((resolvePromise, reject) => {
    const req = httpGet(launchUrl, { headers }, (res) => {
      let body = ''
      res.on('data', (c: Buffer) => (body += c.toString()))
      res.on('end', () => {
        const setCookie = (res.headers['set-cookie'] ?? [])[0] ?? ''
        const m = /^([^=;\s]+)=([^;]*)/.exec(setCookie)
        resolvePromise({ status: res.statusCode ?? 0, cookie: m ? { name: m[1], value: m[2] } : null, setCookie, body })
      })
    })
    req.on('error', reject)
  })
}

/** The bare host process: the launch address is not used yet. */
export function spawnHost(dirs: HostDirs, extraArgs: string[] = []): Promise<Host> {
  const script = join(ROOT, 'out/main/host.js')
  if (!existsSync(script)) throw new Error('out/main/host.js is missing: run `npx electron-vite build` (npm test does it)')
  const proc = spawn(process.execPath, [script, '--port', '0', '--data-dir', dirs.dataDir, '--projects-dir', dirs.projectsDir, '--allow-token-query', ...extraArgs], {
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  const stderr: string[] = []
  createInterface({ input: proc.stderr! }).on('line', (l) => stderr.push(l))
  return new Promise((resolvePromise, reject) => {
    const timer = setTimeout(() => reject(new Error(`host did not start in 20 s: ${stderr.join('\n')}`)), 20_000)
    proc.once('exit', (code) => {
      clearTimeout(timer)
      reject(new Error(`host exited with ${code}: ${stderr.join('\n')}`))
    })
    createInterface({ input: proc.stdout! }).on('line', (line) => {
      if (!line.startsWith('EDDY_HOST_READY ')) return
      clearTimeout(timer)
      const info = JSON.parse(line.slice('EDDY_HOST_READY '.length)) as { url: string; launchUrl: string; port: number }
      resolvePromise({
        proc,
        url: info.url,
        appUrl: info.url,
        launchUrl: info.launchUrl,
        port: info.port,
        session: null,
        cookieName: `eddy_session_${info.port}`,
        stderr,
        stop: () =>
          new Promise<void>((done) => {
            if (proc.exitCode !== null || proc.signalCode !== null) return done()
            proc.once('exit', () => done())
            proc.kill('SIGTERM')
          }),
      })
    })
  })
}

function setSession(host: Host, name: string, value: string): void {
  host.cookieName = name
  host.session = value
  host.url = `${host.appUrl}#token=${value}`
}

/** A host with a session: the harness used the launch address itself (see Host.url). */
export async function startHost(dirs: HostDirs, extraArgs: string[] = []): Promise<Host> {
  const host = await spawnHost(dirs, extraArgs)
  const r = await useLaunchUrl(host.launchUrl)
  if (r.status !== 303 || !r.cookie) {
    await host.stop()
    throw new Error(`the launch address answered ${r.status} without a session cookie`)
  }
  setSession(host, r.cookie.name, r.cookie.value)
  return host
}

export function launchBrowser(): Promise<Browser> {
  return chromium.launch({ executablePath: '/usr/bin/chromium', headless: true, args: CHROMIUM_ARGS })
}

export interface RunningApp extends HostDirs {
  browser: Browser
  page: Page
  host: Host
  /** Console errors and page errors seen so far (a test can assert there were none). */
  pageErrors: string[]
  close(): Promise<void>
}

/** Host + browser + a page on the app, waiting until the UI has connected. */
export async function startApp(opts: { dirs?: HostDirs; viewport?: { width: number; height: number }; hostArgs?: string[] } = {}): Promise<RunningApp> {
  const dirs = opts.dirs ?? makeDirs()
  const host = await spawnHost(dirs, opts.hostArgs)
  const browser = await launchBrowser()
  const page = await browser.newPage({ viewport: opts.viewport ?? { width: 1400, height: 860 } })
  const pageErrors: string[] = []
  page.on('pageerror', (e) => pageErrors.push(String(e)))
  page.on('console', (m) => {
    if (m.type() === 'error') pageErrors.push(m.text())
  })
  // The real launch: the page uses the one-time address and gets the session cookie.
  await page.goto(host.launchUrl)
  const cookie = (await page.context().cookies(host.appUrl)).find((c) => c.name === host.cookieName)
  if (!cookie) throw new Error(`the launch address left no session cookie (page at ${page.url()})`)
  setSession(host, cookie.name, cookie.value)
  return {
    ...dirs,
    browser,
    page,
    host,
    pageErrors,
    close: async () => {
      await browser.close()
      await host.stop()
    },
  }
}

export function artifactPath(name: string): string {
  mkdirSync(ARTIFACTS, { recursive: true })
  return join(ARTIFACTS, name)
}
