// End-to-end harness: starts the built headless host (out/main/host.js) with private data
// and project folders, and drives the real renderer in headless Chromium (Debian's
// /usr/bin/chromium through playwright-core; software WebGL via SwiftShader).
import { spawn, type ChildProcess } from 'node:child_process'
import { existsSync, mkdirSync, mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { createInterface } from 'node:readline'
import { chromium, type Browser, type Page } from 'playwright-core'

export const ROOT = resolve(import.meta.dirname, '../..')
export const ARTIFACTS = join(ROOT, 'test-results/e2e')

export const CHROMIUM_ARGS = [
  '--use-angle=swiftshader',
  '--enable-unsafe-swiftshader',
  '--no-sandbox',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
]

export interface Host {
  proc: ChildProcess
  url: string
  port: number
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

export function startHost(dirs: HostDirs, extraArgs: string[] = []): Promise<Host> {
  const script = join(ROOT, 'out/main/host.js')
  if (!existsSync(script)) throw new Error('out/main/host.js is missing: run `npx electron-vite build` (npm test does it)')
  const proc = spawn(process.execPath, [script, '--port', '0', '--data-dir', dirs.dataDir, '--projects-dir', dirs.projectsDir, ...extraArgs], {
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
      const info = JSON.parse(line.slice('EDDY_HOST_READY '.length)) as { url: string; port: number }
      resolvePromise({
        proc,
        url: info.url,
        port: info.port,
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
  const host = await startHost(dirs, opts.hostArgs)
  const browser = await launchBrowser()
  const page = await browser.newPage({ viewport: opts.viewport ?? { width: 1400, height: 860 } })
  const pageErrors: string[] = []
  page.on('pageerror', (e) => pageErrors.push(String(e)))
  page.on('console', (m) => {
    if (m.type() === 'error') pageErrors.push(m.text())
  })
  await page.goto(host.url)
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
