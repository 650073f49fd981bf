// `npm start` without the Electron binary: with no display it prints the address and says
// why no window opened; under a display (Xvfb here) it opens a Chromium app window titled
// "Eddy" on the headless host.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process'
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { createInterface } from 'node:readline'
import { afterEach, describe, expect, it } from 'vitest'
import { ROOT, makeDirs } from './harness'
import { waitFor } from './ui'

const children: ChildProcess[] = []
afterEach(async () => {
  for (const c of children.splice(0)) {
    if (c.exitCode === null && c.signalCode === null) {
      const gone = new Promise((r) => c.once('exit', r))
      c.kill('SIGTERM')
      await gone
    }
  }
})

function startEddy(env: NodeJS.ProcessEnv): { proc: ChildProcess; lines: string[] } {
  const dirs = makeDirs()
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

function envWithout(...names: string[]): NodeJS.ProcessEnv {
  const env = { ...process.env }
  for (const n of names) delete env[n]
  return env
}

describe('npm start', () => {
  it('prints the address and a clear message when there is no display', async () => {
    const { lines } = startEddy(envWithout('DISPLAY', 'WAYLAND_DISPLAY'))
    await waitFor(async () => lines.join('\n'), (t) => /no display/i.test(t), 'the no-display message', 60_000)
    const text = lines.join('\n')
    const url = /http:\/\/127\.0\.0\.1:\d+\/#token=[\w-]+/.exec(text)?.[0]
    expect(url).toBeDefined()
    const page = await fetch(url!.split('#')[0])
    expect(page.status).toBe(200)
    expect(await page.text()).toMatch(/<title>Eddy<\/title>/)
  })

  const haveX = existsSync('/usr/bin/Xvfb') && existsSync('/usr/bin/xwininfo') && existsSync('/usr/bin/chromium')
  it.skipIf(!haveX)('opens a Chromium app window titled Eddy under a display (skipped without Xvfb, xwininfo and chromium)', async () => {
    const display = `:${90 + Math.floor(Math.random() * 100)}`
    const xvfb = spawn('/usr/bin/Xvfb', [display, '-screen', '0', '1440x900x24', '-nolisten', 'tcp'], { stdio: 'ignore' })
    children.push(xvfb)
    await new Promise((r) => setTimeout(r, 500))
    const { lines } = startEddy({ ...envWithout('WAYLAND_DISPLAY'), DISPLAY: display })
    await waitFor(async () => lines.join('\n'), (t) => /window opened/i.test(t), 'the window-opened message', 60_000)
    const tree = await waitFor(
      async () => spawnSync('/usr/bin/xwininfo', ['-root', '-tree'], { env: { ...process.env, DISPLAY: display }, encoding: 'utf8' }).stdout,
      (t) => /"Eddy"/.test(t),
      'a window titled "Eddy"',
      60_000,
    )
    expect(tree).toMatch(/"Eddy"/)
  })
})
