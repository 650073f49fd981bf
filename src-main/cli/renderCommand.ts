// `eddy render PROJECT.eddy --out DIR [--frames A-B] [--sim NAME] [--name NAME] [--size 1280x720]
// [--overlays]`: the viewport flipbook from a terminal. The viewport is the renderer's (Babylon in
// a browser), so this runs what `npm start` runs without a window: the headless host with the
// project open and Chromium headless on it, then View > Render Flipbook as an artist would click
// it. Frames land as NAME_0001.png ... (and NAME.mp4 where ffmpeg is installed). Ctrl-C cancels
// between frames; the frames written stay.
import { spawn } from 'node:child_process'
import { existsSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { createInterface } from 'node:readline'
import { fileURLToPath } from 'node:url'
import { ProjectStore } from '../store/projectStore'
import { parseOptions, UsageError } from './args'
import { parseFrameRange } from './bakeCommand'
import { HEADLESS_CHROMIUM_ARGS } from './headlessChromium'
import { sanitizeName } from '../../src-shared/safeFileName'

const tid = (id: string): string => `[data-testid="${id}"]`

/** The Chromium to drive: EDDY_CHROMIUM, else Debian's. */
function chromiumPath(): string {
  const p = process.env.EDDY_CHROMIUM ?? '/usr/bin/chromium'
  if (!existsSync(p)) throw new UsageError(`eddy render draws with Chromium, which is not at ${p} (install Debian's chromium, or set EDDY_CHROMIUM)`)
  return p
}

interface HostProc {
  launchUrl: string
  stop(): Promise<void>
}

function startHost(projectPath: string, dataDir: string): Promise<HostProc> {
  // Beside this bundle (out/main/cli.js and out/main/host.js).
  const script = fileURLToPath(new URL('./host.js', import.meta.url))
  const proc = spawn(process.execPath, [script, '--port', '0', '--data-dir', dataDir, '--projects-dir', dataDir, '--open', projectPath], { stdio: ['ignore', 'pipe', 'pipe'] })
  const stderr: string[] = []
  createInterface({ input: proc.stderr! }).on('line', (l) => stderr.push(l))
  const stop = () =>
    new Promise<void>((done) => {
      if (proc.exitCode !== null || proc.signalCode !== null) return done()
      proc.once('exit', () => done())
      proc.kill('SIGTERM')
    })
  return new Promise((res, rej) => {
    const timer = setTimeout(() => rej(new Error(`the Eddy host did not start in 30 s: ${stderr.join('\n')}`)), 30_000)
    proc.once('exit', (code) => {
      clearTimeout(timer)
      rej(new Error(`the Eddy host exited with ${code}: ${stderr.join('\n')}`))
    })
    createInterface({ input: proc.stdout! }).on('line', (line) => {
      if (!line.startsWith('EDDY_HOST_READY ')) return
      clearTimeout(timer)
      res({ launchUrl: (JSON.parse(line.slice('EDDY_HOST_READY '.length)) as { launchUrl: string }).launchUrl, stop })
    })
  })
}

export async function renderCommand(args: string[], out: NodeJS.WriteStream): Promise<number> {
  const [file, ...rest] = args
  if (!file || file.startsWith('--')) throw new UsageError('eddy render needs a project file')
  const o = parseOptions(rest, {
    out: { type: 'string' },
    frames: { type: 'string' },
    sim: { type: 'string' },
    name: { type: 'string' },
    size: { type: 'string' },
    overlays: { type: 'flag' },
  })
  if (!o.out) throw new UsageError('eddy render needs --out DIR')
  const projectPath = resolve(file)
  if (!existsSync(projectPath)) throw new UsageError(`There is no project file at ${projectPath}`)
  const size = /^(\d{2,5})x(\d{2,5})$/.exec(o.size ?? '1280x720')
  if (!size) throw new UsageError(`--size must be WIDTHxHEIGHT, e.g. 1280x720 (got ${o.size})`)
  const [width, height] = [Number(size[1]), Number(size[2])]
  if (width > 7680 || height > 4320) throw new UsageError(`--size ${o.size} is larger than 7680x4320`)
  const store = ProjectStore.open(projectPath)
  const doc = store.readDocument()
  store.close()
  const [from, to] = o.frames ? parseFrameRange(o.frames) : [doc.meta.frameStart, doc.meta.frameEnd]
  if (from < doc.meta.frameStart || to > doc.meta.frameEnd) throw new UsageError(`--frames ${from}-${to} lies outside the scene's frames ${doc.meta.frameStart}-${doc.meta.frameEnd}`)
  if (o.sim && !doc.objects.some((x) => x.name === o.sim)) throw new UsageError(`The project has no object named "${o.sim}"`)
  const name = o.name ?? sanitizeName(doc.meta.name, 'flipbook')
  const executablePath = chromiumPath()
  // Not bundled: the browser driver is only loaded by this command.
  const driver = 'playwright-core'
  const { chromium } = (await import(/* @vite-ignore */ driver)) as typeof import('playwright-core')

  const dataDir = mkdtempSync(join(tmpdir(), 'eddy-render-'))
  const host = await startHost(projectPath, dataDir)
  const browser = await chromium.launch({ executablePath, headless: true, args: HEADLESS_CHROMIUM_ARGS })
  let cancel = false
  const onSigint = (): void => void (cancel = true)
  process.on('SIGINT', onSigint)
  try {
    // The frames are the 3D view's canvas: the page is sized so the view (between the outliner,
    // the inspector, the menus and the timeline) comes out at --size.
    const page = await browser.newPage({ viewport: { width: width + 600, height: height + 300 } })
    await page.goto(host.launchUrl)
    await page.waitForSelector(tid('studio'), { timeout: 60_000 })
    for (let attempt = 0; attempt < 3; attempt++) {
      const box = await page.locator(tid('viewport-canvas')).boundingBox()
      const vp = page.viewportSize()!
      if (!box) break
      const [cw, ch] = [Math.round(box.width), Math.round(box.height)]
      if (cw === width && ch === height) break
      await page.setViewportSize({ width: vp.width + width - cw, height: vp.height + height - ch })
      await page.waitForTimeout(100)
    }
    if (o.sim) await page.locator(`${tid('outliner-item')}[data-name="${o.sim.replace(/"/g, '\\"')}"]`).click()
    await page.keyboard.press('Escape') // nothing selected: no outline or gizmo in the frames
    if (!o.overlays) await page.click(tid('overlays-toggle'))
    await page.click(tid('menu-view'))
    await page.click(tid('view-flipbook'))
    await page.fill(tid('flipbook-folder'), resolve(o.out))
    await page.fill(tid('flipbook-name'), name)
    await page.fill(tid('flipbook-from'), String(from))
    await page.fill(tid('flipbook-to'), String(to))
    await page.click(tid('flipbook-start'))
    let last = ''
    for (;;) {
      if (cancel && (await page.locator(tid('flipbook-cancel')).count())) await page.click(tid('flipbook-cancel'))
      const error = await page.locator(tid('flipbook-error')).textContent({ timeout: 100 }).catch(() => null)
      if (error) throw new Error(error)
      const status = await page.locator(tid('flipbook-status')).textContent({ timeout: 100 }).catch(() => null)
      if (status) {
        out.write(`${status}\n`)
        return cancel ? 130 : 0
      }
      const count = await page.locator(tid('flipbook-count')).textContent({ timeout: 100 }).catch(() => null)
      if (count && count !== last) {
        last = count
        out.write(`${count}\n`)
      }
      await new Promise((r) => setTimeout(r, 200))
    }
  } finally {
    process.off('SIGINT', onSigint)
    await browser.close()
    await host.stop()
    rmSync(dataDir, { recursive: true, force: true })
  }
}
