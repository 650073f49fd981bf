// Chromium driven over the DevTools protocol with nothing listening to the network: for
// benchmarks whose figure a harness would change. Playwright enables the Network domain on
// every page and worker it attaches to, and Chromium then reports each WebSocket message's
// payload to it, base64-coded: a 684 kB frame record costs the page's worker, the browser's
// main thread and the test's process a copy each (the scrubbing bench's cold jumps measured
// about a third of the machine's CPU going there). This driver speaks to one page target only,
// through the Runtime, Page and Input domains, so what it measures is the app's own work.
// A person's actions still go through the browser's input pipeline (Input.insertText and
// key events on the focused field), as Playwright's fill() and press() do.
import { spawn, type ChildProcess } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createInterface } from 'node:readline'
import WebSocket from 'ws'
import { CHROMIUM_ARGS } from './harness'

interface Pending {
  resolve(v: unknown): void
  reject(e: Error): void
}

export interface BarePage {
  /** Evaluates `expression` in the page (awaiting a promise it returns) and returns its JSON value. */
  evaluate<T>(expression: string): Promise<T>
  /** Types `text` into the element matched by `selector` as fill() does, then presses Enter. */
  fillAndEnter(selector: string, text: string): Promise<void>
  /** A left click at the middle of the element matched by `selector`. */
  click(selector: string): Promise<void>
  close(): Promise<void>
}

/** Launches headless Chromium on `url` (a host's launch address) and returns its page. */
export async function openBarePage(url: string, viewport = { width: 1400, height: 860 }): Promise<BarePage> {
  const profile = mkdtempSync(join(tmpdir(), 'eddy-bare-chromium-'))
  const proc: ChildProcess = spawn(
    '/usr/bin/chromium',
    ['--headless=new', '--remote-debugging-port=0', `--user-data-dir=${profile}`, `--window-size=${viewport.width},${viewport.height}`, ...CHROMIUM_ARGS, 'about:blank'],
    { stdio: ['ignore', 'ignore', 'pipe'] },
  )
  const endpoint = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('Chromium did not print its DevTools address within 30 s')), 30_000)
    proc.once('exit', (code) => reject(new Error(`Chromium exited with ${code} before it listened`)))
    createInterface({ input: proc.stderr! }).on('line', (line) => {
      const m = /DevTools listening on (ws:\/\/\S+)/.exec(line)
      if (m) {
        clearTimeout(timer)
        resolve(m[1])
      }
    })
  })
  const ws = new WebSocket(endpoint, { perMessageDeflate: false, maxPayload: 256 * 1024 * 1024 })
  await new Promise<void>((resolve, reject) => {
    ws.once('open', () => resolve())
    ws.once('error', reject)
  })
  const pending = new Map<number, Pending>()
  let nextId = 1
  ws.on('message', (data) => {
    const msg = JSON.parse(String(data)) as { id?: number; result?: unknown; error?: { message: string } }
    if (msg.id === undefined) return // an event: none is enabled but the target's own
    const p = pending.get(msg.id)
    if (!p) return
    pending.delete(msg.id)
    if (msg.error) p.reject(new Error(msg.error.message))
    else p.resolve(msg.result)
  })
  // A closed connection (the browser gone) fails whatever is still waiting for an answer.
  ws.on('close', () => {
    for (const p of pending.values()) p.reject(new Error('the DevTools connection to Chromium closed'))
    pending.clear()
  })
  const send = <T>(method: string, params: object = {}, sessionId?: string): Promise<T> =>
    new Promise<T>((resolve, reject) => {
      const id = nextId++
      pending.set(id, { resolve: resolve as (v: unknown) => void, reject })
      ws.send(JSON.stringify({ id, method, params, ...(sessionId ? { sessionId } : {}) }))
    })
  // The page Chromium opened on about:blank (no second page to draw).
  const { targetInfos } = await send<{ targetInfos: { targetId: string; type: string }[] }>('Target.getTargets')
  const first = targetInfos.find((t) => t.type === 'page')
  const targetId = first ? first.targetId : (await send<{ targetId: string }>('Target.createTarget', { url: 'about:blank' })).targetId
  const { sessionId } = await send<{ sessionId: string }>('Target.attachToTarget', { targetId, flatten: true })
  await send('Emulation.setDeviceMetricsOverride', { width: viewport.width, height: viewport.height, deviceScaleFactor: 1, mobile: false }, sessionId)
  await send('Page.navigate', { url }, sessionId)

  const evaluate = async <T>(expression: string): Promise<T> => {
    const r = await send<{ result: { value?: T }; exceptionDetails?: { text: string; exception?: { description?: string } } }>(
      'Runtime.evaluate',
      { expression, awaitPromise: true, returnByValue: true },
      sessionId,
    )
    if (r.exceptionDetails) throw new Error(`in the page: ${r.exceptionDetails.exception?.description ?? r.exceptionDetails.text}`)
    return r.result.value as T
  }
  return {
    evaluate,
    async fillAndEnter(selector, text) {
      // fill(): focus, select what is there, replace it by inserting the text.
      const found = await evaluate<boolean>(`(() => { const el = document.querySelector(${JSON.stringify(selector)}); if (!el) return false; el.focus(); el.select?.(); return true })()`)
      if (!found) throw new Error(`no element matches ${selector}`)
      await send('Input.insertText', { text }, sessionId)
      // Enter, as press('Enter') sends it (the key down carries the text a form would see).
      await send('Input.dispatchKeyEvent', { type: 'keyDown', key: 'Enter', code: 'Enter', windowsVirtualKeyCode: 13, text: '\r' }, sessionId)
      await send('Input.dispatchKeyEvent', { type: 'keyUp', key: 'Enter', code: 'Enter', windowsVirtualKeyCode: 13 }, sessionId)
    },
    async click(selector) {
      const at = await evaluate<{ x: number; y: number } | null>(
        `(() => { const el = document.querySelector(${JSON.stringify(selector)}); if (!el) return null; const r = el.getBoundingClientRect(); return { x: r.left + r.width / 2, y: r.top + r.height / 2 } })()`,
      )
      if (!at) throw new Error(`no element matches ${selector}`)
      for (const type of ['mouseMoved', 'mousePressed', 'mouseReleased'] as const) {
        await send('Input.dispatchMouseEvent', { type, x: at.x, y: at.y, button: type === 'mouseMoved' ? 'none' : 'left', clickCount: type === 'mouseMoved' ? 0 : 1 }, sessionId)
      }
    },
    async close() {
      const exited = new Promise<void>((resolve) => {
        if (proc.exitCode !== null || proc.signalCode !== null) return resolve()
        proc.once('exit', () => resolve())
      })
      // Closed as a person closes it, so its helpers stop writing the profile; killed if it hangs.
      await Promise.race([send('Browser.close').catch(() => undefined), new Promise((r) => setTimeout(r, 5000))])
      const killer = setTimeout(() => proc.kill('SIGKILL'), 5000)
      await exited
      clearTimeout(killer)
      ws.close()
      for (let attempt = 0; ; attempt++) {
        try {
          rmSync(profile, { recursive: true, force: true })
          return
        } catch (e) {
          // A crash reporter or GPU helper may still be finishing a write.
          if (attempt >= 20) throw e
          await new Promise((r) => setTimeout(r, 100))
        }
      }
    },
  }
}
