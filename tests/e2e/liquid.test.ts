// A liquid through the UI: switch a domain to the liquid solver (its settings appear, the
// smoke ones go), make an emitter an initial liquid volume, bake, and see particles and the
// surface mesh in the viewport; then export the mesh as OBJ.
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { artifactPath, startApp, type RunningApp } from './harness'
import { changedFraction } from './pixels'
import { addObject, commitField, newProject, selectObject, setFrame, tid, waitFor } from './ui'
import { afterDraws, viewportShot } from './viewportShots'

describe('a liquid dam break from the inspector', () => {
  let app: RunningApp
  beforeAll(async () => {
    app = await startApp()
  })
  afterAll(async () => {
    await app?.close()
  })

  it('bakes a column of liquid, shows particles and a surface mesh, and exports the mesh', async () => {
    const { page } = app
    await newProject(page, 'Dam', app.projectsDir)
    const water = await addObject(page, 'emitter')
    await page.selectOption(tid('param-fluid'), 'liquid')
    await waitFor(() => page.locator(tid('param-behavior')).count(), (n) => n === 1, 'the liquid emitter settings')
    expect(await page.locator(tid('param-vortexRate')).count()).toBe(0)
    await page.selectOption(tid('param-behavior'), 'geometry')
    await page.selectOption(tid('param-shape'), 'box')
    await commitField(page, 'param-position-0', '-0.5')
    await commitField(page, 'param-position-1', '0.4')
    await commitField(page, 'param-scale-0', '0.8')
    await commitField(page, 'param-scale-1', '0.8')
    await commitField(page, 'param-scale-2', '1.8')
    const domain = await addObject(page, 'domain')
    expect(await page.locator(tid('param-vorticity')).count()).toBe(1)
    await page.selectOption(tid('param-solver'), 'liquid')
    await waitFor(() => page.locator(tid('param-viscosity')).count(), (n) => n === 1, 'the liquid settings')
    expect(await page.locator(tid('param-vorticity')).count()).toBe(0)
    await commitField(page, 'param-resolution', '16')
    await page.click(tid('bake-start'))
    await waitFor(() => page.locator(tid('bake-status')).getAttribute('data-phase'), (p) => p === 'done' || p === 'failed', 'the liquid bake', 180_000)
    expect(await page.locator(tid('bake-error')).count()).toBe(0)
    const shown = () => page.evaluate(() => window.__eddyViewport?.cache?.state() ?? null)
    const parts = () => page.evaluate(() => window.__eddyViewport?.cache?.parts() ?? null)
    await setFrame(page, 1)
    await waitFor(shown, (s) => s?.shownFrame === 1, 'frame 1 on screen')
    const p1 = await parts()
    expect(p1?.volume).toBe(false)
    expect(p1?.particles[0]).toBeGreaterThan(1000)
    expect(p1?.meshes[0]).toBeGreaterThan(100)
    const shot1 = await page.locator(tid('viewport-canvas')).screenshot({ path: artifactPath('liquid-frame-1.png') })
    await setFrame(page, 30)
    await waitFor(shown, (s) => s?.shownFrame === 30, 'frame 30 on screen')
    await page.waitForTimeout(500)
    const shot30 = await page.locator(tid('viewport-canvas')).screenshot({ path: artifactPath('liquid-frame-30.png') })
    // The column has collapsed across the floor by frame 30.
    expect(changedFraction(shot1, shot30)).toBeGreaterThan(0.02)

    // Points: Off leaves the surface mesh alone on screen; any colouring brings the points back.
    await page.selectOption(tid('display-color'), 'off')
    await waitFor(parts, (p) => p?.particlesDrawn?.[0] === false, 'the points hidden')
    expect((await parts())?.meshes[0]).toBeGreaterThan(100)
    // Most points sit under the surface: the ones poking through leave the picture.
    const noPoints = await viewportShot(page, 'liquid-points-off.png')
    const gone = changedFraction(shot30, noPoints)
    expect(gone).toBeGreaterThan(0.001)
    await page.selectOption(tid('display-color'), 'auto')
    await waitFor(parts, (p) => p?.particlesDrawn?.[0] === true, 'the points drawn again')
    expect(changedFraction(shot30, await viewportShot(page, 'liquid-points-on.png'))).toBeLessThan(gone / 2)

    await selectObject(page, domain)
    const out = join(app.projectsDir, 'obj-out')
    await page.selectOption(tid('export-format'), 'obj')
    await page.fill(tid('export-folder'), out)
    await page.fill(tid('export-from'), '30')
    await page.fill(tid('export-to'), '30')
    await page.click(tid('export-start'))
    await waitFor(() => page.locator(tid('export-status')).getAttribute('data-phase'), (p) => p === 'done' || p === 'failed', 'the OBJ export', 60_000)
    const files = readdirSync(out)
    expect(files).toContain('Domain_0030.obj')
    const obj = readFileSync(join(out, 'Domain_0030.obj'), 'utf8')
    expect(obj.split('\n').filter((l) => l.startsWith('f ')).length).toBeGreaterThan(100)
    void water
  }, 300_000)
})

describe('example scenes from the start page', () => {
  let app: RunningApp
  beforeAll(async () => {
    app = await startApp()
  })
  afterAll(async () => {
    await app?.close()
  })

  it('creates the melting bunny from its example: a wax bunny mesh, a heat lamp and a liquid domain', async () => {
    const { page } = app
    await page.waitForSelector(tid('example-list'))
    await page.click(tid('example-melting-bunny'))
    await waitFor(() => page.locator(tid('project-name')).textContent(), (v) => v === 'Melting bunny', 'the example project to open')
    const names = await page.locator(tid('outliner-item')).evaluateAll((els) => els.map((e) => (e as HTMLElement).dataset.name ?? ''))
    expect(names.length).toBeGreaterThanOrEqual(3)
    // Every object has a node in the viewport (the bunny drawn from its imported mesh).
    await waitFor(() => page.evaluate(() => window.__eddyViewport?.objectNodes().length ?? 0), (n) => n === names.length, 'every object drawn', 30_000)
    expect(names).toContain('Wax domain')
    await selectObject(page, 'Wax domain')
    expect(await page.locator(tid('param-solver')).inputValue()).toBe('liquid')
    expect(await page.locator(tid('param-viscosityModel')).inputValue()).toBe('temperature')
    await waitFor(() => page.locator(tid('bake-estimate')).textContent(), (t) => /\d+x\d+x\d+ grid/.test(t ?? ''), 'the bake estimate')
    // The bunny's triangles arrive after the scene: give the viewport a few frames to draw it.
    await afterDraws(page, 10, 30_000)
    const drawn = await page.evaluate(() => window.__eddyViewport?.sceneMeshes?.() ?? [])
    // The bunny is drawn from its imported triangles (1,839 vertices), not a stand-in box.
    expect(drawn.find((m) => m.startsWith('emitter:bunny:mesh'))).toBe('emitter:bunny:mesh 1839')
    await page.locator(tid('viewport-canvas')).screenshot({ path: artifactPath('example-melting-bunny.png') })
  })

  it('asks before reopening an example: the existing copy keeps its edits, or a fresh copy; from File > Open Example too', async () => {
    const { page } = app
    // An edit in the copy opened above.
    await commitField(page, 'frame-end', '77')
    const recentFirst = async () => {
      await page.click(tid('menu-file'))
      await page.hover(tid('file-recent'))
      const path = await page.locator(tid('file-recent-item')).first().getAttribute('data-path')
      await page.click(tid('menu-file'))
      return path
    }
    const firstPath = await recentFirst()
    const openFromMenu = async () => {
      await page.click(tid('menu-file'))
      await page.hover(tid('file-examples'))
      await page.click(tid('file-example-melting-bunny'))
      await page.waitForSelector(tid('example-prompt'))
    }
    await openFromMenu()
    expect(await page.locator(tid('example-open-copy')).first().getAttribute('data-path')).toBe(firstPath)
    await page.locator(tid('example-open-copy')).first().click()
    await waitFor(() => page.inputValue(tid('frame-end')), (v) => v === '77', 'the existing copy with its edit')
    expect(await recentFirst()).toBe(firstPath)

    await openFromMenu()
    await page.click(tid('example-fresh-copy'))
    await waitFor(recentFirst, (p) => p !== firstPath && /Melting bunny 2\.eddy$/.test(p ?? ''), 'a fresh copy beside the first')
    expect(await page.inputValue(tid('frame-end'))).not.toBe('77')
    expect(await page.textContent(tid('project-name'))).toBe('Melting bunny')
  })
})
