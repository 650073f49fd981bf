// The tetrahedral liquid through the UI: a domain switched to Liquid (tetrahedral) shows its own
// settings (mesh, tolerance, keep volume, thickening) and gravity, not the marker liquid's; a column of water
// bakes, its surface is drawn, and "Tetrahedra (cut-away)" swaps the surface for the cut-away
// of the simulation's tetrahedra (a different picture), and back.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startApp, type RunningApp } from './harness'
import { changedFraction } from './pixels'
import { addObject, commitField, newProject, setFrame, tid, waitFor } from './ui'
import { viewportShot } from './viewportShots'

describe('a tetrahedral liquid from the inspector', () => {
  let app: RunningApp
  beforeAll(async () => {
    app = await startApp()
  })
  afterAll(async () => {
    await app?.close()
  })

  it('bakes a column of water, draws its surface, and shows the cut-away of its tetrahedra on request', async () => {
    const { page } = app
    await newProject(page, 'Tet column', app.projectsDir)
    await addObject(page, 'emitter')
    await page.selectOption(tid('param-fluid'), 'liquid')
    await waitFor(() => page.locator(tid('param-behavior')).count(), (n) => n === 1, 'the liquid emitter settings')
    await page.selectOption(tid('param-behavior'), 'geometry')
    await page.selectOption(tid('param-shape'), 'box')
    await commitField(page, 'param-position-0', '-0.5')
    await commitField(page, 'param-position-1', '0.5')
    await commitField(page, 'param-scale-0', '0.8')
    await commitField(page, 'param-scale-1', '1')
    await commitField(page, 'param-scale-2', '1.8')
    await addObject(page, 'domain')
    await page.selectOption(tid('param-solver'), 'tetliquid')
    await waitFor(() => page.locator(tid('param-tetMesh')).count(), (n) => n === 1, 'the tetrahedral liquid settings')
    for (const own of ['param-tetTolerance', 'param-volumeCorrection', 'param-thickening', 'param-thinness', 'param-breakUp', 'param-gravity-1']) expect(await page.locator(tid(own)).count(), own).toBe(1)
    for (const other of ['param-viscosity', 'param-particlesPerCell', 'param-vorticity']) expect(await page.locator(tid(other)).count(), other).toBe(0)
    await commitField(page, 'param-resolution', '24')
    await commitField(page, 'frame-end', '12')
    await page.click(tid('bake-start'))
    await waitFor(() => page.locator(tid('bake-status')).getAttribute('data-phase'), (p) => p === 'done' || p === 'failed', 'the tetrahedral bake', 180_000)
    expect(await page.locator(tid('bake-error')).count()).toBe(0)
    const shown = () => page.evaluate(() => window.__eddyViewport?.cache?.state() ?? null)
    const parts = () => page.evaluate(() => window.__eddyViewport?.cache?.parts() ?? null)
    await setFrame(page, 12)
    await waitFor(shown, (s) => s?.shownFrame === 12, 'frame 12 on screen')
    // The surface and the (hidden) cut-away are both in the frame.
    await waitFor(parts, (p) => (p?.meshes.length ?? 0) === 2 && p!.meshesDrawn?.[0] === true && p!.meshesDrawn?.[1] === false, 'the surface drawn, the cut-away hidden')
    expect((await parts())!.meshes[0]).toBeGreaterThan(100)
    const surface = await viewportShot(page, 'tet-surface.png')

    await page.check(tid('display-cutaway'))
    await waitFor(parts, (p) => p?.meshesDrawn?.[0] === false && p?.meshesDrawn?.[1] === true, 'the cut-away drawn instead of the surface')
    expect((await parts())!.meshes[1]).toBeGreaterThan(300)
    const cut = await viewportShot(page, 'tet-cutaway.png')
    expect(changedFraction(surface, cut)).toBeGreaterThan(0.005)

    await page.uncheck(tid('display-cutaway'))
    await waitFor(parts, (p) => p?.meshesDrawn?.[0] === true && p?.meshesDrawn?.[1] === false, 'the surface back')
    expect(changedFraction(surface, await viewportShot(page, 'tet-surface-again.png'))).toBeLessThan(0.005)
    expect(app.pageErrors).toEqual([])
  }, 300_000)
})
