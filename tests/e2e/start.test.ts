// `npm start` without the Electron binary: with no display it prints the one-time launch
// address and says why no window opened; under a display (Xvfb here) it opens a Chromium app
// window titled "Eddy" on the headless host. Both launches are checked for secrets on
// command lines and in environments (/proc/*/cmdline, /proc/*/environ): only the launch
// code may appear there (on Chromium's command line), and it is void once used. The
// Chromium profile lives in the app data folder and is reused, never left in /tmp.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process'
import { existsSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { createInterface } from 'node:readline'
import { afterEach, describe, expect, it } from 'vitest'
import { WebSocket } from 'ws'
import { openAppWindow, profileInUse, profileProcesses } from '../../scripts/lib/browserWindow.mjs'
import { ROOT, makeDirs, useLaunchUrl, type HostDirs } from './harness'
import { CdpSession, cdpTargets } from './cdp'
import { tid, waitFor } from './ui'

const children: ChildProcess[] = []
const cleanups: (() => Promise<void>)[] = []
afterEach(async () => {
  for (const c of cleanups.splice(0)) await c().catch(() => undefined)
  for (const c of children.splice(0)) {
    if (c.exitCode === null && c.signalCode === null) {
      const gone = new Promise((r) => c.once('exit', r))
      c.kill('SIGTERM')
      await gone
    }
  }
})

function startEddy(env: NodeJS.ProcessEnv, dirs: HostDirs = makeDirs()): { proc: ChildProcess; lines: string[] } {
  const proc = spawn(process.execPath, [join(ROOT, 'scripts/start.mjs'), '--port', '0'], {
    env: { ...env, EDDY_DATA_DIR: dirs.dataDir, EDDY_PROJECTS_DIR: dirs.projectsDir },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  children.push(proc)
  const lines: string[] = []
  createInterface({ input: proc.stdout! }).on('line', (l) => lines.push(l))
  createInterface({ input: proc.stderr! }).on('line', (l) => lines.push(l))
  return { proc, lines }
}

/**
 * Starts Xvfb on a display number it picks itself (-displayfd), so two runs never collide,
 * and resolves once it writes that number: the server is then accepting clients.
 */
function startXvfb(): Promise<string> {
  const xvfb = spawn('/usr/bin/Xvfb', ['-displayfd', '3', '-screen', '0', '1440x900x24', '-nolisten', 'tcp'], {
    stdio: ['ignore', 'ignore', 'pipe', 'pipe'],
  })
  children.push(xvfb)
  let errors = ''
  xvfb.stderr!.on('data', (d: Buffer) => (errors += d.toString()))
  return new Promise((resolve, reject) => {
    let got = ''
    xvfb.stdio[3]!.on('data', (d: Buffer) => {
      got += d.toString()
      if (got.includes('\n')) resolve(`:${got.trim()}`)
    })
    xvfb.once('exit', (code) => reject(new Error(`Xvfb exited with code ${code} before taking a display: ${errors}`)))
    setTimeout(() => reject(new Error(`Xvfb took no display within 30 s: ${errors}`)), 30_000).unref()
  })
}

function envWithout(...names: string[]): NodeJS.ProcessEnv {
  const env = { ...process.env }
  for (const n of names) delete env[n]
  return env
}

/** Every readable /proc/PID/cmdline and /proc/PID/environ, as text. */
function procTexts(): { pid: string; kind: 'cmdline' | 'environ'; text: string }[] {
  const out: { pid: string; kind: 'cmdline' | 'environ'; text: string }[] = []
  for (const pid of readdirSync('/proc').filter((n) => /^\d+$/.test(n))) {
    for (const kind of ['cmdline', 'environ'] as const) {
      try {
        out.push({ pid, kind, text: readFileSync(`/proc/${pid}/${kind}`).toString('latin1').replaceAll('\0', ' ') })
      } catch {
        // gone, or not readable by us
      }
    }
  }
  return out
}

function holders(secret: string): string[] {
  return procTexts()
    .filter((p) => p.text.includes(secret))
    .map((p) => `/proc/${p.pid}/${p.kind}: ${p.text.slice(0, 4000)}`)
}

function wsStatus(port: number, query: string, headers: Record<string, string> = {}): Promise<'open' | string> {
  return new Promise((resolve) => {
    const ws = new WebSocket(`ws://127.0.0.1:${port}/ws${query}`, { headers })
    ws.once('open', () => {
      ws.close()
      resolve('open')
    })
    ws.once('error', (e) => resolve(e.message))
  })
}

function appInfo(port: number, cookie: string): Promise<{ ok: boolean; result?: { mode?: string } }> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(`ws://127.0.0.1:${port}/ws`, { headers: { Cookie: cookie } })
    ws.once('error', reject)
    ws.once('open', () => ws.send(JSON.stringify({ id: 1, type: 'app.info', params: {} })))
    ws.once('message', (m) => {
      ws.close()
      resolve(JSON.parse(m.toString()))
    })
  })
}

/** Checks with a session secret in hand: the API answers only with the cookie. */
async function expectCookieOnly(port: number, cookieName: string, secret: string, launchCode: string): Promise<void> {
  expect(await appInfo(port, `${cookieName}=${secret}`)).toMatchObject({ ok: true, result: { mode: 'headless' } })
  expect(await wsStatus(port, '')).toMatch(/401/)
  expect(await wsStatus(port, `?token=${secret}`)).toMatch(/401/)
  expect(await wsStatus(port, '', { Cookie: `${cookieName}=${launchCode}` })).toMatch(/401/)
  expect(await wsStatus(port, '', { Cookie: `${cookieName}=${secret}`, Origin: 'http://evil.example' })).toMatch(/401/)
}

const tmpProfiles = (): string[] => readdirSync(tmpdir()).filter((n) => n.startsWith('eddy-chromium-'))

describe('npm start', () => {
  it('prints a one-time launch address and a clear message when there is no display; nothing secret on any command line', async () => {
    const { lines } = startEddy(envWithout('DISPLAY', 'WAYLAND_DISPLAY'))
    await waitFor(async () => lines.join('\n'), (t) => /no display/i.test(t), 'the no-display message', 60_000)
    const text = lines.join('\n')
    expect(text).not.toMatch(/token=/)
    const launchUrl = /http:\/\/127\.0\.0\.1:\d+\/launch\?code=[\w-]+/.exec(text)?.[0]
    expect(launchUrl).toBeDefined()
    const { port } = new URL(launchUrl!)
    const launchCode = new URL(launchUrl!).searchParams.get('code')!
    const page = await fetch(`http://127.0.0.1:${port}/`)
    expect(page.status).toBe(200)
    expect(await page.text()).toMatch(/<title>Eddy<\/title>/)
    // Before the launch address is used there is no session at all.
    expect(await wsStatus(Number(port), '')).toMatch(/401/)

    const first = await useLaunchUrl(launchUrl!)
    expect(first.status).toBe(303)
    expect(first.setCookie).toMatch(/; HttpOnly/)
    expect(first.setCookie).toMatch(/; SameSite=Strict/)
    const cookie = first.cookie!
    const again = await useLaunchUrl(launchUrl!)
    expect(again.status).toBe(403)
    expect(again.body).toMatch(/already used/i)
    expect(again.cookie).toBeNull()

    expect(holders(cookie.value)).toEqual([])
    expect(holders(launchCode)).toEqual([])
    await expectCookieOnly(Number(port), cookie.name, cookie.value, launchCode)
  })

  // The launcher as npm start runs it (scripts/lib/browserWindow.mjs) on the real host, with
  // Chromium's headless platform instead of an X server (and a DevTools port, to read the
  // HttpOnly cookie the page got); runs where Xvfb is missing too.
  it.skipIf(!existsSync('/usr/bin/chromium'))('launches Chromium with only a void launch code on its command line, in a reused profile under the app data folder', async () => {
    const dirs = makeDirs()
    const tmpBefore = tmpProfiles()
    const startHostProcess = async (): Promise<{ proc: ChildProcess; launchUrl: string; port: number }> => {
      const proc = spawn(process.execPath, [join(ROOT, 'out/main/host.js'), '--port', '0', '--data-dir', dirs.dataDir, '--projects-dir', dirs.projectsDir], {
        stdio: ['ignore', 'pipe', 'inherit'],
      })
      children.push(proc)
      const ready = await new Promise<string>((resolve, reject) => {
        proc.once('exit', (code) => reject(new Error(`host exited with ${code}`)))
        createInterface({ input: proc.stdout! }).on('line', (l) => {
          if (l.startsWith('EDDY_HOST_READY ')) resolve(l.slice('EDDY_HOST_READY '.length))
        })
      })
      const info = JSON.parse(ready) as { launchUrl: string; port: number; dataDir: string }
      expect(info.dataDir).toBe(dirs.dataDir)
      return { proc, launchUrl: info.launchUrl, port: info.port }
    }
    const open = (launchUrl: string): ReturnType<typeof openAppWindow> => {
      const w = openAppWindow({ launchUrl, dataDir: dirs.dataDir, extraArgs: ['--ozone-platform=headless', '--remote-debugging-port=0'] })
      children.push(w.proc)
      cleanups.push(async () => {
        w.proc.kill('SIGTERM')
        await w.done()
      })
      return w
    }

    const host = await startHostProcess()
    const win = open(host.launchUrl)
    expect(win.profile).toEqual({ dir: join(dirs.dataDir, 'chromium-profile'), temporary: false })
    const devtools = await waitFor(
      async () => (existsSync(join(win.profile.dir, 'DevToolsActivePort')) ? readFileSync(join(win.profile.dir, 'DevToolsActivePort'), 'utf8').split('\n')[0] : ''),
      (p) => /^\d+$/.test(p),
      "Chromium's DevTools port",
      30_000,
    )
    // The page target alone, over raw CDP (cdp.ts says why not Playwright's connectOverCDP).
    const target = await waitFor(
      async () => (await cdpTargets(Number(devtools)).catch(() => [])).find((t) => t.type === 'page' && t.url.startsWith(`http://127.0.0.1:${host.port}/`)),
      (t) => t !== undefined,
      'the Eddy page',
      60_000,
    )
    const page = await CdpSession.open(target!.webSocketDebuggerUrl)
    try {
      const ui = `${tid('project-browser')}, ${tid('studio')}`
      await waitFor(() => page.evaluate<boolean>(`document.querySelector(${JSON.stringify(ui)}) !== null`).catch(() => false), (v) => v, 'the Eddy UI', 60_000)
      expect(await page.evaluate<number>(`document.querySelectorAll(${JSON.stringify(tid('connect-error'))}).length`)).toBe(0)
      // The window does not force a renderer: on this GPU-less machine WebGL 2 falls back to
      // SwiftShader (--enable-unsafe-swiftshader), and the viewport draws.
      const webgl = await page.evaluate<string>(`(() => { const gl = document.createElement('canvas').getContext('webgl2'); if (!gl) return 'none'; const i = gl.getExtension('WEBGL_debug_renderer_info'); return i ? gl.getParameter(i.UNMASKED_RENDERER_WEBGL) : gl.getParameter(gl.RENDERER) })()`)
      expect(webgl).not.toBe('none')
      expect(holders('--use-angle=').filter((h) => h.includes(`--app=${host.launchUrl}`))).toEqual([])
      const { cookies } = await page.send<{ cookies: { name: string; value: string; httpOnly: boolean; sameSite?: string }[] }>('Network.getCookies', { urls: [`http://127.0.0.1:${host.port}/`] })
      const cookie = cookies.find((c) => c.name.startsWith('eddy_session'))!
      expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Strict' })

      // Chromium's command line holds the launch code, which is used up...
      const launchCode = new URL(host.launchUrl).searchParams.get('code')!
      const withCode = holders(launchCode)
      expect(withCode.some((h) => h.includes(`--app=${host.launchUrl}`))).toBe(true)
      const reuse = await useLaunchUrl(host.launchUrl)
      expect(reuse.status).toBe(403)
      expect(reuse.body).toMatch(/already used/i)
      // ...and the session secret is on no command line and in no environment.
      const t0 = performance.now()
      expect(holders(cookie.value)).toEqual([])
      console.log(`scanned ${procTexts().length} /proc cmdline/environ files in ${(performance.now() - t0).toFixed(0)} ms`)
      await expectCookieOnly(host.port, cookie.name, cookie.value, launchCode)

      // While this window runs, a second Eddy gets its own profile, removed when it closes.
      const second = open(host.launchUrl)
      expect(second.profile).toEqual({ dir: join(dirs.dataDir, `chromium-profile-${process.pid}`), temporary: true })
      await waitFor(async () => profileInUse(second.profile.dir), (b) => b, 'the second profile in use', 30_000)
      second.proc.kill('SIGTERM')
      await second.done()
      expect(existsSync(second.profile.dir)).toBe(false)
    } finally {
      page.close()
    }
    win.proc.kill('SIGTERM')
    await win.done()
    const hostGone = new Promise((r) => host.proc.once('exit', r))
    host.proc.kill('SIGTERM')
    await hostGone
    writeFileSync(join(win.profile.dir, 'kept-marker'), 'x')

    // The next start reuses the same folder.
    const host2 = await startHostProcess()
    const win2 = open(host2.launchUrl)
    expect(win2.profile).toEqual({ dir: join(dirs.dataDir, 'chromium-profile'), temporary: false })
    expect(existsSync(join(win2.profile.dir, 'kept-marker'))).toBe(true)
    win2.proc.kill('SIGTERM')
    await win2.done()
    expect(tmpProfiles().filter((n) => !tmpBefore.includes(n))).toEqual([])
    host2.proc.kill('SIGTERM')
    await new Promise((r) => host2.proc.once('exit', r))
    rmSync(dirname(dirs.dataDir), { recursive: true, force: true, maxRetries: 5, retryDelay: 100 })
  })

  it.skipIf(!existsSync('/usr/bin/chromium'))('says why when the Chromium window dies (a display with no X server), stops the host and exits 1', async () => {
    // A display number far above any Xvfb/X server here: Chromium cannot connect and exits.
    const dirs = makeDirs()
    const { proc, lines } = startEddy({ ...envWithout('WAYLAND_DISPLAY'), DISPLAY: ':1987' }, dirs)
    const code = await new Promise<number | null>((r) => proc.once('exit', (c) => r(c)))
    // Eddy waited for Chromium's helpers too (zygotes outlive the browser process for a
    // moment, writing into the profile): none is left on the profile when it exits.
    const left = profileProcesses(join(dirs.dataDir, 'chromium-profile'))
    rmSync(dirname(dirs.dataDir), { recursive: true, force: true, maxRetries: 5, retryDelay: 100 })
    expect(left).toEqual([])
    const text = lines.join('\n')
    expect(code).toBe(1)
    expect(text).toMatch(/the Chromium window exited with code [1-9]\d*\. Its last messages:/)
    expect(text).toMatch(/Missing X server|cannot open display|platform failed/i)
  })

  const haveX = existsSync('/usr/bin/Xvfb') && existsSync('/usr/bin/xwininfo') && existsSync('/usr/bin/chromium')
  // One retry: in one clean-clone CI (2026-11-30) no X window appeared within 60 s, with
  // nothing to say why (Chromium's output was discarded then). What it says is printed now.
  it.skipIf(!haveX)('opens a Chromium app window titled Eddy under a display, keeps its profile in the app data folder (skipped without Xvfb, xwininfo and chromium)', { retry: 1 }, async () => {
    const display = await startXvfb()
    const dirs = makeDirs()
    const tmpBefore = tmpProfiles()
    const { proc, lines } = startEddy({ ...envWithout('WAYLAND_DISPLAY'), DISPLAY: display }, dirs)
    await waitFor(async () => lines.join('\n'), (t) => /window opened/i.test(t), 'the window-opened message', 60_000)
    expect(lines.join('\n')).toContain(join(dirs.dataDir, 'chromium-profile'))
    // Stops early when Eddy exits (start.mjs then prints why Chromium went away).
    const tree = await waitFor(
      async () => spawnSync('/usr/bin/xwininfo', ['-root', '-tree'], { env: { ...process.env, DISPLAY: display }, encoding: 'utf8' }).stdout,
      (t) => /"Eddy"/.test(t) || proc.exitCode !== null || proc.signalCode !== null,
      'a window titled "Eddy"',
      120_000,
    ).catch((e: Error) => {
      const told = `${e.message}\nEddy printed:\n${lines.join('\n')}\nChromium processes:\n${spawnSync('pgrep', ['-a', 'chromium'], { encoding: 'utf8' }).stdout}`
      console.log(told) // kept in the log should the retry pass
      throw new Error(told)
    })
    const exitedEarly = `Eddy exited before its window appeared; it printed:\n${lines.join('\n')}`
    if (!/"Eddy"/.test(tree)) console.log(exitedEarly) // kept in the log should the retry pass
    expect(tree, exitedEarly).toMatch(/"Eddy"/)
    // The launch code on Chromium's command line was used by the window: it opens nothing now.
    const launchUrl = procTexts()
      .filter((p) => p.kind === 'cmdline' && p.text.includes(`--user-data-dir=${join(dirs.dataDir, 'chromium-profile')}`))
      .map((p) => /--app=(http:\/\/127\.0\.0\.1:\d+\/launch\?code=[\w-]+)/.exec(p.text)?.[1])
      .find((u) => u !== undefined)
    expect(launchUrl).toBeDefined()
    const reuse = await useLaunchUrl(launchUrl!)
    expect(reuse.status).toBe(403)
    expect(reuse.body).toMatch(/already used/i)
    const gone = new Promise((r) => proc.once('exit', r))
    proc.kill('SIGTERM')
    await gone
    expect(existsSync(join(dirs.dataDir, 'chromium-profile'))).toBe(true)
    expect(tmpProfiles().filter((n) => !tmpBefore.includes(n))).toEqual([])
  })
})
