// Side-by-side wedge viewing: a smoke domain with a wedge of three emission rates, its
// variants baked through the API (and the main bake, to see the single view come back), then
// through the real UI: the header's toggle puts the three variants in a grid, each labelled;
// each cell shows its own plume (more smoke the higher the rate) through one camera; orbiting
// in a cell moves every cell; scrubbing draws the new frame in every cell; the toggle returns
// to the single view. The test waits on the viewport's state (test hooks), never on frame rate.
import { writeFileSync } from 'node:fs'
import type { Page } from 'playwright-core'
import { PNG } from 'pngjs'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { WebSocket } from 'ws'
import { artifactPath, startApp, type RunningApp } from './harness'
import { changedFraction } from './pixels'
import { addObject, commitField, newProject, selectObject, setFrame, tid, waitFor } from './ui'
import { afterDraws, cameraAtRest, projectPoint } from './viewportShots'

const RATES = [0.5, 4, 30]
const LAST = 24

type Grid = NonNullable<ReturnType<NonNullable<NonNullable<Window['__eddyViewport']>['wedgeGrid']>>>

/** The host, asked directly on a second connection (the window hears of every change it makes). */
class HostClient {
  private next = 1
  private readonly pending = new Map<number, (m: { ok: boolean; result?: unknown; error?: { message: string } }) => void>()
  readonly phases = new Map<string, string>()
  private constructor(private readonly ws: WebSocket) {
    ws.on('message', (data: Buffer, isBinary: boolean) => {
      if (isBinary) return
      const m = JSON.parse(data.toString()) as { id?: number; ok: boolean; event?: string; payload?: { job?: { domainId: string; phase: string } } }
      if (m.event === 'bake.update' && m.payload?.job) this.phases.set(m.payload.job.domainId, m.payload.job.phase)
      else if (typeof m.id === 'number') this.pending.get(m.id)?.(m as never)
    })
  }

  static async open(app: RunningApp): Promise<HostClient> {
    const token = /token=([^&]+)/.exec(app.host.url)![1]
    const ws = new WebSocket(`ws://127.0.0.1:${app.host.port}/ws?token=${token}`)
    await new Promise((r) => ws.once('open', r))
    return new HostClient(ws)
  }

  call<T>(type: string, params: Record<string, unknown>): Promise<T> {
    const id = this.next++
    return new Promise<T>((resolve, reject) => {
      this.pending.set(id, (m) => {
        this.pending.delete(id)
        if (m.ok) resolve(m.result as T)
        else reject(new Error(`${type}: ${m.error?.message}`))
      })
      this.ws.send(JSON.stringify({ id, type, params }))
    })
  }

  close(): void {
    this.ws.close()
  }
}

const grid = (page: Page): Promise<Grid | null> => page.evaluate(() => window.__eddyViewport?.wedgeGrid?.() ?? null)

/**
 * The canvas's own pixels once it has drawn a few more frames (not a screenshot of the page:
 * the HTML over it, labels and display settings, stays out), also saved as a test artifact.
 */
async function canvasShot(page: Page, name: string): Promise<Buffer> {
  await afterDraws(page, 3)
  const url = await page.locator(tid('viewport-canvas')).evaluate((c) => (c as HTMLCanvasElement).toDataURL('image/png'))
  const png = Buffer.from(url.slice(url.indexOf(',') + 1), 'base64')
  writeFileSync(artifactPath(name), png)
  return png
}

/**
 * Per cell of a 2x2 grid shot: how many pixels differ from the same cell of the reference shot
 * (the smoke each variant adds), and how far each cell's reference differs from cell 0's
 * (the same scene through the same camera: about nothing).
 */
function cellFigures(reference: Buffer, shot: Buffer, cells: number): { smoke: number[]; sameAsFirst: number[] } {
  const [ref, img] = [reference, shot].map((b) => PNG.sync.read(b))
  const cw = Math.floor(ref.width / 2)
  const ch = Math.floor(ref.height / 2)
  const differs = (a: PNG, i: number, b: PNG, j: number, t: number) => Math.max(...[0, 1, 2].map((c) => Math.abs(a.data[i + c] - b.data[j + c]))) > t
  const smoke: number[] = []
  const sameAsFirst: number[] = []
  for (let k = 0; k < cells; k++) {
    const ox = (k % 2) * cw
    const oy = Math.floor(k / 2) * ch
    let n = 0
    let d = 0
    let total = 0
    // A margin off each cell's edges (a cell is a pixel wider or narrower when the canvas is odd).
    for (let y = 4; y < ch - 4; y++)
      for (let x = 4; x < cw - 4; x++) {
        const i = 4 * ((oy + y) * ref.width + ox + x)
        const j = 4 * (y * ref.width + x)
        total++
        if (differs(img, i, ref, i, 24)) n++
        if (differs(ref, i, ref, j, 40)) d++
      }
    smoke.push(n)
    sameAsFirst.push(d / total)
  }
  return { smoke, sameAsFirst }
}

describe('wedge variants side by side', () => {
  let app: RunningApp
  let host: HostClient
  beforeAll(async () => {
    app = await startApp()
    host = await HostClient.open(app)
  })
  afterAll(async () => {
    host?.close()
    await app?.close()
  })

  it('shows 3 baked variants in a synchronised, labelled grid and returns to the single view', async () => {
    const { page } = app
    const t0 = performance.now()
    await newProject(page, 'Wedge grid', app.projectsDir)
    await addObject(page, 'emitter')
    const domainName = await addObject(page, 'domain')
    await commitField(page, 'param-resolution', '16')
    await commitField(page, 'frame-end', String(LAST))

    const doc = await host.call<{ document: { objects: { id: string; kind: string; params: Record<string, unknown> }[] } }>('project.get', {})
    const emitterObject = doc.document.objects.find((o) => o.kind === 'emitter')!
    const emitter = emitterObject.id
    const domain = doc.document.objects.find((o) => o.kind === 'domain')!.id
    await host.call('object.update', { id: domain, patch: { wedges: [{ id: 'w1', name: 'rates', parameters: [{ objectId: emitter, path: 'rate', values: RATES }] }] } })
    // A wedge without baked variants offers nothing to compare.
    await waitFor(() => host.call<{ document: { objects: { wedges?: unknown[] }[] } }>('project.get', {}), (s) => s.document.objects.some((o) => o.wedges?.length), 'the wedge in the document')
    expect(await page.locator(tid('wedge-grid-toggle')).count()).toBe(0)

    const keys = RATES.map((_, i) => `${domain}~w1~${i + 1}`)
    for (const key of [...keys, domain]) await host.call('bake.start', { domainId: key, mode: 'bake' })
    await waitFor(
      () => Promise.resolve([...keys, domain].map((k) => host.phases.get(k) ?? 'none')),
      (p) => p.every((x) => x === 'done' || x === 'failed'),
      'the four bakes to finish',
      240_000,
    )
    expect([...keys, domain].map((k) => host.phases.get(k))).toEqual(['done', 'done', 'done', 'done'])
    const baked = performance.now()

    // Into the grid through the header's toggle.
    await selectObject(page, domainName)
    await setFrame(page, 1)
    await waitFor(() => page.locator(tid('wedge-grid-toggle')).count(), (n) => n === 1, 'the side-by-side toggle')
    await page.click(tid('wedge-grid-toggle'))
    expect(await page.getAttribute(tid('wedge-grid-toggle'), 'aria-pressed')).toBe('true')
    await waitFor(() => page.locator(tid('wedge-cell')).count(), (n) => n === 3, 'three cells')
    const labels = await page.locator(tid('wedge-cell-label')).allTextContents()
    expect(labels.map((l) => l.replace(/\s+/g, ' ').trim())).toEqual(['rates_v1 Rate 0.5', 'rates_v2 Rate 4', 'rates_v3 Rate 30'])
    for (const l of await page.locator(tid('wedge-cell-label')).all()) expect(await l.isVisible()).toBe(true)

    const drawn = (f: number) => (g: Grid | null) => !!g && g.cells.length === 3 && g.cells.every((c) => c.drawnFrame === f && c.shownFrame === f && c.error === null)
    let g = await waitFor(() => grid(page), drawn(1), 'frame 1 drawn in every cell', 60_000)
    expect([g!.cols, g!.rows]).toEqual([2, 2])
    expect(g!.cells.map((c) => c.key)).toEqual(keys)
    // Frame 1 holds no smoke yet: every cell is the same scene through the same camera.
    const empty = await canvasShot(page, 'wedge-grid-frame-1.png')

    await setFrame(page, LAST)
    g = await waitFor(() => grid(page), drawn(LAST), `frame ${LAST} drawn in every cell`, 60_000)
    expect(g!.cells.every((c) => c.volume)).toBe(true)
    const plumes = await canvasShot(page, 'wedge-grid-plumes.png')
    const fig = cellFigures(empty, plumes, 3)
    console.log(`smoke pixels per cell (rates ${RATES.join(', ')}): ${fig.smoke.join(', ')}; cells' frame 1 unlike cell 0's: ${fig.sameAsFirst.map((f) => f.toFixed(4)).join(', ')}`)
    for (const f of fig.sameAsFirst) expect(f).toBeLessThan(0.01)
    for (const n of fig.smoke) expect(n).toBeGreaterThan(200)
    // More emission, more smoke on screen; and clearly different amounts.
    expect(fig.smoke[1]).toBeGreaterThan(fig.smoke[0] * 1.1)
    expect(fig.smoke[2]).toBeGreaterThan(fig.smoke[1] * 1.1)

    // Orbit with the middle button in the bottom left cell: every cell's camera turns alike.
    const before = g!.cells.map((c) => c.camera)
    const box = (await page.locator(tid('viewport-canvas')).boundingBox())!
    const x = box.x + box.width * 0.25
    const y = box.y + box.height * 0.75
    await page.mouse.move(x, y)
    await page.mouse.down({ button: 'middle' })
    await page.mouse.move(x + 120, y + 30, { steps: 10 })
    await page.mouse.up({ button: 'middle' })
    const mainCamera = () => page.evaluate(() => window.__eddyViewport?.camera?.() ?? null)
    g = await waitFor(
      async () => {
        const [a, main] = [await grid(page), await mainCamera()]
        // Every cell on the main camera's pose.
        return a && main && a.cells.every((c) => Math.abs(c.camera.alpha - main.alpha) < 1e-9 && Math.abs(c.camera.beta - main.beta) < 1e-9 && c.camera.radius === main.radius) ? a : null
      },
      // 0.1 rad: slow SwiftShader frames cut Babylon's orbit glide short (navigation.test.ts).
      (a) => !!a && Math.abs(a.cells[0].camera.alpha - before[0].alpha) > 0.1,
      'every cell to follow the orbit',
    )
    for (const c of g!.cells) {
      expect(Math.abs(c.camera.alpha - before[0].alpha)).toBeGreaterThan(0.1)
      expect(c.camera.target).toEqual(g!.cells[0].camera.target)
    }
    await cameraAtRest(page)
    const orbited = await canvasShot(page, 'wedge-grid-orbited.png')
    expect(changedFraction(plumes, orbited)).toBeGreaterThan(0.02)

    // A click in a cell picks through that cell's camera: a 2x2 cell has the canvas's shape,
    // so it shows the main view at half size; the emitter in the bottom left cell selects it.
    const p = (await projectPoint(page, emitterObject.params.position as [number, number, number]))!
    const inCell = { x: p.x / 2, y: box.height / 2 + p.y / 2 }
    expect(await page.evaluate((q) => window.__eddyViewport?.screenToObject?.(q.x, q.y) ?? null, inCell)).toBe(emitter)
    await page.mouse.click(box.x + inCell.x, box.y + inCell.y)
    await waitFor(() => page.getAttribute(`${tid('outliner-item')}[aria-selected="true"]`, 'data-name'), (n) => n === 'Emitter', 'the emitter selected by a click in a cell')
    // The grid stays: the domain is still the simulation the timeline and the view show.
    expect((await grid(page))?.cells.length).toBe(3)

    // Scrubbing: every cell draws the frame under the playhead.
    for (const f of [12, 5]) {
      await setFrame(page, f)
      await waitFor(() => grid(page), drawn(f), `frame ${f} drawn in every cell`, 60_000)
    }
    expect(await page.evaluate(() => window.__eddyViewport?.cache?.state().shownFrame ?? null)).not.toBe(5) // the main view rests meanwhile

    // Back to the single view: no cells, no labels, the main bake on screen again.
    await page.click(tid('wedge-grid-toggle'))
    await waitFor(() => page.locator(tid('wedge-cell')).count(), (n) => n === 0, 'the cells gone')
    expect(await grid(page)).toBeNull()
    expect(await page.getAttribute(tid('wedge-grid-toggle'), 'aria-pressed')).toBe('false')
    await waitFor(() => page.evaluate(() => window.__eddyViewport?.cache?.state() ?? null), (s) => s?.shownFrame === 5, 'the main bake at frame 5')
    expect(await page.evaluate(() => window.__eddyViewport?.cache?.parts().volume)).toBe(true)
    const single = await canvasShot(page, 'wedge-grid-single.png')
    expect(changedFraction(orbited, single)).toBeGreaterThan(0.02)
    await page.screenshot({ path: artifactPath('wedge-grid-page.png') })
    console.log(`wedge grid: set up and baked in ${((baked - t0) / 1000).toFixed(1)} s, viewed in ${((performance.now() - baked) / 1000).toFixed(1)} s`)
    expect(app.pageErrors).toEqual([])
  })
})
