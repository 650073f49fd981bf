// The inspector at 1600x1000 (issue 18): every label whole, every unit beside its field and not
// under its digits, and the panel wider when its left edge is dragged (remembered).
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Page } from 'playwright-core'
import { artifactPath, startApp, type RunningApp } from './harness'
import { addObject, newProject, selectObject, tid, waitFor } from './ui'

type Box = { x: number; y: number; width: number; height: number }
const overlap = (a: Box, b: Box) => a.x < b.x + b.width - 0.5 && b.x < a.x + a.width - 0.5 && a.y < b.y + b.height - 0.5 && b.y < a.y + a.height - 0.5

/** Labels cut off (their text wider than their box), and units lying over their input, in the inspector. */
function problems(page: Page) {
  return page.evaluate(() => {
    const root = document.querySelector('[data-testid="inspector"]')!
    const box = (e: Element) => {
      const r = e.getBoundingClientRect()
      return { x: r.x, y: r.y, width: r.width, height: r.height }
    }
    const cut = [...root.querySelectorAll('.param .label')].filter((l) => (l as HTMLElement).scrollWidth > (l as HTMLElement).clientWidth + 1).map((l) => l.textContent)
    const units = [...root.querySelectorAll('.number')].map((n) => {
      const u = n.querySelector('.unit')
      const input = n.querySelector('input')!
      return u ? { unit: u.textContent!, u: box(u), input: box(input), clipped: (u as HTMLElement).scrollWidth > (u as HTMLElement).clientWidth + 1 } : null
    })
    const labels = [...root.querySelectorAll('.param')].map((p) => ({ text: p.querySelector('.label')?.textContent ?? '', label: box(p.querySelector('.label')!), widgets: box(p.querySelector('.widgets')!) }))
    return { cut, units: units.filter((u) => u !== null), labels }
  })
}

describe('inspector layout', () => {
  let app: RunningApp
  beforeAll(async () => {
    app = await startApp({ viewport: { width: 1600, height: 1000 } })
    await newProject(app.page, 'Inspector')
  })
  afterAll(async () => {
    await app?.close()
  })

  it('shows whole labels and units beside their fields for a domain, an emitter and a liquid domain', async () => {
    const { page } = app
    await addObject(page, 'domain')
    await addObject(page, 'emitter')
    for (const [name, solver] of [['Domain', 'smoke'], ['Emitter', null], ['Domain', 'liquid']] as const) {
      await selectObject(page, name)
      if (solver) await page.selectOption(tid('param-solver'), solver)
      const p = await problems(page)
      expect(p.cut, `${name}: labels cut off`).toEqual([])
      for (const u of p.units) {
        expect(u.clipped, `unit ${u.unit} clipped`).toBe(false)
        expect(overlap(u.u, u.input), `unit ${u.unit} over its field`).toBe(false)
      }
      for (const l of p.labels) expect(overlap(l.label, l.widgets), `label ${l.text} over its widgets`).toBe(false)
    }
    await selectObject(page, 'Domain')
    await page.selectOption(tid('param-solver'), 'smoke')
    await waitFor(() => page.locator(tid('label-pressureTolerance')).count(), (n) => n === 1, 'the smoke settings')
    expect(await page.textContent(tid('label-pressureTolerance'))).toBe('Pressure tolerance')
    expect(await page.textContent(tid('param-row-checkpointEvery'))).toContain('frames')
    await page.locator(tid('inspector')).screenshot({ path: artifactPath('inspector-1600.png') })
  })

  it('widens when its left edge is dragged, within limits, and remembers the width', async () => {
    const { page } = app
    const width = async () => (await page.locator(tid('inspector')).boundingBox())!.width
    const w0 = await width()
    const h = (await page.locator(tid('inspector-splitter')).boundingBox())!
    await page.mouse.move(h.x + h.width / 2, h.y + 200)
    await page.mouse.down()
    await page.mouse.move(h.x + h.width / 2 - 120, h.y + 200, { steps: 6 })
    await page.mouse.up()
    expect(Math.abs((await width()) - (w0 + 120))).toBeLessThan(3)
    expect(Number(await page.evaluate(() => localStorage.getItem('eddy.inspectorWidth')))).toBeCloseTo(w0 + 120, -1)
    // Far to the right: stops at the narrowest it may be.
    const h2 = (await page.locator(tid('inspector-splitter')).boundingBox())!
    await page.mouse.move(h2.x + h2.width / 2, h2.y + 200)
    await page.mouse.down()
    await page.mouse.move(h2.x + 900, h2.y + 200, { steps: 6 })
    await page.mouse.up()
    expect(Math.abs((await width()) - 260)).toBeLessThan(3)
  })
})
