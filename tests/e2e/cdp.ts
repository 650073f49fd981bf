// A minimal Chrome DevTools Protocol client for the one test that attaches to a Chromium it did
// not launch (start.test.ts: the app window `npm start` opens). Playwright's connectOverCDP
// attaches to every pre-existing target and waits for each to initialise; it hung there after
// "<ws connected>" in about one CI run in four (30 s, then 90 s timeouts; Playwright issues
// 41093 and 42730 describe the same hang with a target that does not answer). Here each call
// goes to the one page target we need, with its own timeout, and the page is polled.
import { WebSocket } from 'ws'

export interface CdpTarget {
  id: string
  type: string
  url: string
  webSocketDebuggerUrl: string
}

/** The targets DevTools lists on `port` (its HTTP /json/list endpoint). */
export async function cdpTargets(port: number): Promise<CdpTarget[]> {
  const res = await fetch(`http://127.0.0.1:${port}/json/list`)
  return (await res.json()) as CdpTarget[]
}

export class CdpSession {
  private nextId = 1
  private readonly pending = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void }>()

  private constructor(private readonly ws: WebSocket) {
    ws.on('message', (data) => {
      const msg = JSON.parse(String(data)) as { id?: number; result?: unknown; error?: { message: string } }
      if (msg.id === undefined) return
      const p = this.pending.get(msg.id)
      if (!p) return
      this.pending.delete(msg.id)
      if (msg.error) p.reject(new Error(msg.error.message))
      else p.resolve(msg.result)
    })
  }

  static open(url: string, timeoutMs = 10_000): Promise<CdpSession> {
    return new Promise((resolve, reject) => {
      const ws = new WebSocket(url)
      const timer = setTimeout(() => {
        ws.terminate()
        reject(new Error(`CDP: no connection to ${url} within ${timeoutMs} ms`))
      }, timeoutMs)
      ws.once('open', () => {
        clearTimeout(timer)
        resolve(new CdpSession(ws))
      })
      ws.once('error', (e) => {
        clearTimeout(timer)
        reject(e)
      })
    })
  }

  send<T = unknown>(method: string, params: Record<string, unknown> = {}, timeoutMs = 10_000): Promise<T> {
    const id = this.nextId++
    return new Promise<T>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.pending.delete(id)
        reject(new Error(`CDP: ${method} got no answer within ${timeoutMs} ms`))
      }, timeoutMs)
      this.pending.set(id, {
        resolve: (v) => (clearTimeout(timer), resolve(v as T)),
        reject: (e) => (clearTimeout(timer), reject(e)),
      })
      this.ws.send(JSON.stringify({ id, method, params }))
    })
  }

  /** The value of a JavaScript expression in the page (by value). */
  async evaluate<T>(expression: string, timeoutMs = 10_000): Promise<T> {
    const r = await this.send<{ result: { value: T }; exceptionDetails?: { text: string } }>('Runtime.evaluate', { expression, returnByValue: true }, timeoutMs)
    if (r.exceptionDetails) throw new Error(`CDP: ${expression} threw ${r.exceptionDetails.text}`)
    return r.result.value
  }

  close(): void {
    this.ws.close()
  }
}
