// The hybrid-mesh smoke through the UI: a domain switched to Smoke (hybrid mesh) shows its mesh
// settings beside the gas settings it shares with the grid smoke (and none of the liquids'); a
// jet of smoke under a sphere, seeding tracker particles, bakes; the viewport draws the smoke
// volume and the tracker points at the last frame (a different picture from the first), the
// Points menu offers only what tracker points can be coloured by, and the bake's log names the
// mesh it built.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startApp, type RunningApp } from './harness'
import { changedFraction } from './pixels'
import { addObject, commitField, newProject, setFrame, tid, waitFor } from './ui'
import { viewportShot } from './viewportShots'

describe('a hybrid-mesh smoke from the inspector', () => {
  let app: RunningApp
  beforeAll(async () => {
    app = await startApp()
  })
  afterAll(async () => {
    await app?.close()
  })

  it('bakes a jet around a sphere on tetrahedra and hexahedra, and draws its smoke and tracker particles', async () => {
    const { page } = app
    await newProject(page, 'Hybrid jet', app.projectsDir)
    await addObject(page, 'obstacle-sphere')
    await commitField(page, 'param-position-1', '1.2')
    await commitField(page, 'param-scale-0', '0.6')
    await commitField(page, 'param-scale-1', '0.6')
    await commitField(page, 'param-scale-2', '0.6')
    await addObject(page, 'emitter')
    await waitFor(() => page.locator(tid('param-trackerRate')).count(), (n) => n === 1, 'the emitter\'s tracker particle setting')
    await commitField(page, 'param-position-1', '0.3')
    await commitField(page, 'param-velocity-1', '2')
    await commitField(page, 'param-rate', '24')
    await commitField(page, 'param-trackerRate', '2000')
    await addObject(page, 'domain')
    await page.selectOption(tid('param-solver'), 'hybrid')
    await waitFor(() => page.locator(tid('param-hybridMesh')).count(), (n) => n === 1, 'the hybrid mesh settings')
    for (const own of ['param-hybridBand', 'param-vorticity', 'param-buoyancyBeta', 'param-vortexConfinement', 'param-pressureTolerance']) expect(await page.locator(tid(own)).count(), own).toBe(1)
    for (const other of ['param-viscosity', 'param-tetMesh', 'param-gravity-1', 'param-advection']) expect(await page.locator(tid(other)).count(), other).toBe(0)
    await commitField(page, 'param-resolution', '16')
    await commitField(page, 'frame-end', '10')
    await page.click(tid('bake-start'))
    await waitFor(() => page.locator(tid('bake-status')).getAttribute('data-phase'), (p) => p === 'done' || p === 'failed', 'the hybrid bake', 240_000)
    expect(await page.locator(tid('bake-error')).count()).toBe(0)
    const shown = () => page.evaluate(() => window.__eddyViewport?.cache?.state() ?? null)
    const parts = () => page.evaluate(() => window.__eddyViewport?.cache?.parts() ?? null)
    await setFrame(page, 1)
    await waitFor(shown, (s) => s?.shownFrame === 1, 'frame 1 on screen')
    const first = await viewportShot(page, 'hybrid-frame-1.png')
    await setFrame(page, 10)
    await waitFor(shown, (s) => s?.shownFrame === 10, 'frame 10 on screen')
    await waitFor(parts, (p) => p?.volume === true && (p.particles[0] ?? 0) > 100, 'the smoke volume and the tracker particles')
    const last = await viewportShot(page, 'hybrid-frame-10.png')
    expect(changedFraction(first, last)).toBeGreaterThan(0.01)
    // The emitter seeds tracker points only (no vortex particles): the Points menu offers no
    // colouring by vortex strength, which trackers do not carry, only one colour or off.
    expect((await shown())?.particleAttributes).toEqual(['id'])
    expect(await page.locator(`${tid('display-color')} option`).allTextContents()).toEqual(['One colour', 'Off'])
    expect(app.pageErrors).toEqual([])
  }, 360_000)
})
