// Playback and cold jumps along cached 128^3 smoke (scrub.bench.ts's; each jump to a frame not held: one
// fetch and one decode) timed with Chromium driven by bareChromium.ts instead of Playwright, so
// nothing copies the frame records the host sends to the page's decode workers (Playwright's
// Network domain is told every WebSocket message, base64-coded). The playhead still moves as a
// person moves it: the frame field is typed into and Enter pressed. Figures only; the issue's
// aim is a 95th percentile under 50 ms. Both fetch paths alternate jump by jump, as there.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { coldFrame, makeScrubProject, p50p95 } from '../fixtures/scrubProject'
import { openBarePage, type BarePage } from '../e2e/bareChromium'
import { makeDirs, spawnHost, type Host } from '../e2e/harness'
import { tid } from '../e2e/ui'

const cache = 'window.__eddyViewport?.cache'
/** Jumps per fetch path: 40, so the 95th percentile is not the second slowest of 20. */
const JUMPS = 40

/** Waits in the page (polling there, not over the protocol) until `condition` holds. */
const until = (page: BarePage, condition: string, what: string, timeoutMs = 30_000): Promise<void> =>
  page
    .evaluate<boolean>(
      `new Promise((resolve) => { const end = performance.now() + ${timeoutMs}; const look = () => { let ok = false; try { ok = !!(${condition}) } catch {} if (ok) resolve(true); else if (performance.now() > end) resolve(false); else setTimeout(look, 10) }; look() })`,
    )
    .then((ok) => {
      if (!ok) throw new Error(`timed out waiting for ${what}`)
    })

describe('scrubbing 128^3 cached smoke, Chromium without Playwright', () => {
  let host: Host
  let page: BarePage
  beforeAll(async () => {
    host = await spawnHost(makeDirs(), ['--open', makeScrubProject()])
    page = await openBarePage(host.launchUrl)
  })
  afterAll(async () => {
    await page?.close()
    await host?.stop()
  })

  it('playback and cold jumps: playhead move -> decoded -> GPU, printed', async () => {
    await until(page, `document.querySelector('${tid('studio')}')`, 'the studio', 60_000)
    await until(page, `${cache}.state().shownFrame === 1`, 'frame 1 on screen', 60_000)
    await page.evaluate(`${cache}.setRendering(false)`)
    // Playback for about 4 s first, as scrub.bench.ts does before its jumps (the decode
    // workers' buffer pools fill and their code warms up); its frames are timed too.
    const before = await page.evaluate<number>(`${cache}.timings().length`)
    await page.click(tid('play'))
    await new Promise((r) => setTimeout(r, 4000))
    await page.click(tid('play'))
    const play = (await page.evaluate<number[]>(`${cache}.timings()`)).slice(before)
    await page.evaluate(`${cache}.setIdleFill(false)`)
    let frame = 1
    const cold: number[] = []
    const coldPage: number[] = []
    for (let i = 0; i < 2 * JUMPS; i++) {
      const inWorker = i % 2 === 0
      await page.evaluate(`${cache}.setWorkerFetch(${inWorker})`)
      frame = coldFrame(new Set(await page.evaluate<number[]>(`${cache}.buffered()`)), frame)
      const n0 = await page.evaluate<number>(`${cache}.timings().length`)
      await page.fillAndEnter(tid('current-frame'), String(frame))
      await until(page, `${cache}.state().shownFrame === ${frame}`, `frame ${frame} on screen`)
      await page.evaluate(`document.querySelector('${tid('current-frame')}').blur()`)
      const t = await page.evaluate<number[]>(`${cache}.timings()`)
      if (t.length > n0) (inWorker ? cold : coldPage).push(t[t.length - 1])
    }
    const stages = await page.evaluate<{ fetch: number[]; decode: number[]; decodeInWorker: number[] }>(`${cache}.stageTimings()`)
    const uploads = await page.evaluate<number[]>(`${cache}.uploadTimings()`)
    console.log(
      `128^3 cached smoke, Chromium without Playwright, playhead move -> decoded -> handed to the GPU: playback ${play.length} frames ${p50p95(play)}; cold jumps (one fetch and one decode each), ` +
        `the decode worker fetching: ${cold.length} ${p50p95(cold)} (aim: p95 < 50 ms); ` +
        `the page fetching, the worker decoding: ${coldPage.length} ${p50p95(coldPage)}; ` +
        `of which, per load: fetch ${p50p95(stages.fetch)}, ` +
        `the decode itself ${p50p95(stages.decodeInWorker)}, ` +
        `GPU hand-over ${p50p95(uploads)}`,
    )
    expect(play.length).toBeGreaterThan(0)
    // Every jump showed its own frame and was timed (a jump that was not would be a load the
    // cache skipped: not a figure of this path).
    expect(cold.length).toBe(JUMPS)
    expect(coldPage.length).toBe(JUMPS)
    expect(await page.evaluate<number | null>(`${cache}.state().shownFrame`)).toBe(frame)
  }, 180_000)
})
