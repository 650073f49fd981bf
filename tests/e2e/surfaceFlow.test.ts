// Paint flowing on a Catmull-Clark surface (Stam 2003), as a person would make it: a new
// project, Add > Catmull-Clark surface (the default cube cage) with a coarse grid set in its
// inspector, Add > Emitter placed on the cage's top with a red paint colour, a short bake
// from the cage's own bake panel, then the baked frame on screen: the top of the surface is
// red where it was grey-green before, the authored surface steps aside as a faint wireframe,
// and the PNG atlas export writes the patches' textures with the red in them.
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import type { Page } from 'playwright-core'
import { PNG } from 'pngjs'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startApp, type RunningApp } from './harness'
import { addObject, commitField, focusCanvasArea, newProject, outlinerRow, selectObject, setFrame, tid, waitFor } from './ui'
import { cameraAtRest, projectPoint, viewportShot } from './viewportShots'

const FRAMES = 12
// The top of the default cube cage's limit surface.
const TOP: [number, number, number] = [0, 0.42, 0]

const hooks = {
  state: (page: Page) => page.evaluate(() => window.__eddyViewport?.cache?.state() ?? null),
  materials: (page: Page, id: string) => page.evaluate((i) => window.__eddyViewport?.objectMaterials?.(i) ?? null, id),
  project: projectPoint,
}

const shot = async (page: Page, name: string): Promise<PNG> => PNG.sync.read(await viewportShot(page, name))

/** Share of the pixels within r px of (x, y) that are clearly red (red well above green and blue). */
function redShare(png: PNG, x: number, y: number, r: number): number {
  let red = 0, n = 0
  for (let j = Math.max(0, Math.floor(y - r)); j <= Math.min(png.height - 1, Math.ceil(y + r)); j++) {
    for (let i = Math.max(0, Math.floor(x - r)); i <= Math.min(png.width - 1, Math.ceil(x + r)); i++) {
      if ((i - x) ** 2 + (j - y) ** 2 > r * r) continue
      const o = 4 * (j * png.width + i)
      n++
      if (png.data[o] > png.data[o + 1] + 60 && png.data[o] > png.data[o + 2] + 60) red++
    }
  }
  return red / Math.max(1, n)
}

describe('paint flowing on a Catmull-Clark surface', () => {
  let app: RunningApp
  beforeAll(async () => {
    app = await startApp()
  })
  afterAll(async () => {
    await app?.close()
  })

  it('bakes paint from an emitter on the cage, shows it on the surface, and exports PNG atlases', async () => {
    const { page } = app
    await newProject(page, 'Painted cube', app.projectsDir)
    await commitField(page, 'frame-end', String(FRAMES))

    // The surface: the default cube cage, 8 cells a patch edge.
    const cage = await addObject(page, 'ccCage')
    const cageId = (await outlinerRow(page, cage).getAttribute('data-id'))!
    // New objects stand on the ground; this test's cube is centred on the origin.
    await commitField(page, 'param-position-1', '0')
    await waitFor(() => page.locator(tid('param-cellsPerPatch')).count(), (n) => n === 1, 'the surface flow settings')
    await commitField(page, 'param-cellsPerPatch', '8')

    // The brush: a sphere on the cage's top painting red.
    await addObject(page, 'emitter')
    await page.selectOption(tid('param-shape'), 'sphere')
    const brushAt = [0, 0.4, 0]
    for (let i = 0; i < 3; i++) await commitField(page, `param-position-${i}`, String(brushAt[i]))
    for (let i = 0; i < 3; i++) await commitField(page, `param-scale-${i}`, '0.5')
    const red = ['1', '0.02', '0.02']
    for (let i = 0; i < 3; i++) await commitField(page, `param-paintColor-${i}`, red[i])
    await commitField(page, 'param-rate', '20')

    // Frame everything, select nothing, and take the picture before the bake.
    await selectObject(page, cage)
    await focusCanvasArea(page)
    await page.keyboard.press('f')
    await page.keyboard.press('Escape')
    await waitFor(() => page.locator(`${tid('outliner-item')}[aria-selected="true"]`).count(), (n) => n === 0, 'nothing selected')
    await waitFor(() => hooks.materials(page, cageId), (m) => (m ?? []).includes('mat:ccSurface'), 'the authored surface drawn')
    await cameraAtRest(page)
    const top = (await hooks.project(page, TOP))!
    const rim = (await hooks.project(page, [0.3, TOP[1], 0]))!
    const r = 0.6 * Math.hypot(rim.x - top.x, rim.y - top.y)
    expect(r).toBeGreaterThan(6)
    const before = await shot(page, 'surface-before.png')

    // Bake from the cage's bake panel.
    await selectObject(page, cage)
    await waitFor(() => page.locator(tid('bake-estimate')).textContent(), (t) => /24 patches x 8\^2 cells/.test(t ?? ''), 'the bake estimate')
    await page.click(tid('bake-start'))
    await waitFor(() => page.locator(tid('bake-status')).getAttribute('data-phase'), (p) => p === 'done' || p === 'failed', 'the bake', 240_000)
    expect(await page.locator(tid('bake-error')).count()).toBe(0)

    // The baked frame on screen: the top is red, the authored surface a faint wireframe.
    await page.keyboard.press('Escape')
    await focusCanvasArea(page)
    await page.keyboard.press('Escape')
    await setFrame(page, FRAMES)
    await waitFor(() => hooks.state(page), (s) => s?.shownFrame === FRAMES, `frame ${FRAMES} on screen`, 60_000)
    await waitFor(() => hooks.materials(page, cageId), (m) => (m ?? []).includes('mat:ccSurfaceGhost'), 'the authored surface ghosted')
    const after = await shot(page, 'surface-after.png')
    const redBefore = redShare(before, top.x, top.y, r), redAfter = redShare(after, top.x, top.y, r)
    console.log(`red share around the top (r ${r.toFixed(0)} px): before ${(100 * redBefore).toFixed(0)}%, after ${(100 * redAfter).toFixed(0)}%`)
    expect(redBefore).toBeLessThan(0.05)
    expect(redAfter).toBeGreaterThan(0.4)

    // PNG atlases from the cage's export panel: one file per frame, with red texels in it.
    await selectObject(page, cage)
    const out = join(app.projectsDir, 'png-out')
    await page.selectOption(tid('export-format'), 'png')
    await page.fill(tid('export-folder'), out)
    await page.fill(tid('export-from'), '1')
    await page.fill(tid('export-to'), String(FRAMES))
    await page.click(tid('export-start'))
    await waitFor(() => page.locator(tid('export-status')).getAttribute('data-phase'), (p) => p === 'done' || p === 'failed', 'the PNG export', 120_000)
    expect(await page.locator(tid('export-error')).count()).toBe(0)
    const pngs = readdirSync(out).filter((f) => f.endsWith('.png')).sort()
    expect(pngs.length).toBe(FRAMES)
    const atlas = PNG.sync.read(readFileSync(join(out, pngs[pngs.length - 1])))
    // 24 patches of 8 x 8 in a 5 x 5 grid.
    expect([atlas.width, atlas.height]).toEqual([40, 40])
    let redTexels = 0
    for (let o = 0; o < atlas.data.length; o += 4) if (atlas.data[o + 3] === 255 && atlas.data[o] > atlas.data[o + 1] + 60) redTexels++
    expect(redTexels).toBeGreaterThan(20)
  }, 420_000)

  it('runs live: dragging across the surface paints it and pushes the flow, with the pace shown', async () => {
    const { page } = app
    await newProject(page, 'Live paint', app.projectsDir)
    const cage = await addObject(page, 'ccCage')
    const cageId = (await outlinerRow(page, cage).getAttribute('data-id'))!
    // New objects stand on the ground; this test's cube is centred on the origin.
    await commitField(page, 'param-position-1', '0')
    await commitField(page, 'param-cellsPerPatch', '8')
    // No gravity and a strong drag, so the paint stays about where the brush put it.
    for (let i = 0; i < 3; i++) await commitField(page, `param-surfaceGravity-${i}`, '0')
    await commitField(page, 'param-surfaceDrag', '5')
    await focusCanvasArea(page)
    await page.keyboard.press('f')
    await cameraAtRest(page)
    await page.keyboard.press('Escape')
    await selectObject(page, cage)

    // Start live with a green brush.
    await page.fill(tid('live-brush-color'), '#00ff00')
    await page.fill(tid('live-brush-radius'), '0.12')
    await page.locator(tid('live-brush-radius')).dispatchEvent('change')
    await page.click(tid('live-toggle'))
    const rate = page.locator(tid('live-rate'))
    await waitFor(() => rate.getAttribute('data-steps'), (n) => Number(n) > 3, 'the live flow stepping', 60_000)
    await waitFor(() => hooks.materials(page, cageId), (m) => (m ?? []).includes('mat:ccSurfaceGhost'), 'the authored surface ghosted while live')
    const at = (await hooks.project(page, TOP))!
    const rim = (await hooks.project(page, [0.3, TOP[1], 0]))!
    const r = 0.5 * Math.hypot(rim.x - at.x, rim.y - at.y)
    const greenShare = (png: PNG) => {
      let g = 0, n = 0
      for (let j = Math.floor(at.y - r); j <= at.y + r; j++) for (let i = Math.floor(at.x - r); i <= at.x + r; i++) {
        if ((i - at.x) ** 2 + (j - at.y) ** 2 > r * r) continue
        const o = 4 * (j * png.width + i)
        n++
        if (png.data[o + 1] > png.data[o] + 60 && png.data[o + 1] > png.data[o + 2] + 60) g++
      }
      return g / Math.max(1, n)
    }
    const before = greenShare(await shot(page, 'live-before.png'))

    // Drag across the top of the surface with the left button.
    const box = (await page.locator(tid('viewport-canvas')).boundingBox())!
    await page.mouse.move(box.x + at.x - r, box.y + at.y)
    await page.mouse.down()
    for (let k = 0; k <= 20; k++) {
      await page.mouse.move(box.x + at.x - r + (2 * r * k) / 20, box.y + at.y + 0.3 * r * Math.sin(k / 3))
      await page.waitForTimeout(30)
    }
    await page.mouse.up()
    await waitFor(async () => greenShare(await shot(page, 'live-after.png')), (g) => g > 0.3, 'green paint where the brush went', 60_000)
    const sps = Number(await rate.getAttribute('data-steps-per-second')), fps = Number(await rate.getAttribute('data-fps'))
    console.log(`live: green share around the top before ${(100 * before).toFixed(0)}%; ${sps} steps/s, ${fps} fps (SwiftShader)`)
    expect(before).toBeLessThan(0.05)
    expect(sps).toBeGreaterThan(0)
    expect(fps).toBeGreaterThan(0)
    // The camera did not orbit while painting: the top projects where it did.
    const again = (await hooks.project(page, TOP))!
    expect(Math.hypot(again.x - at.x, again.y - at.y)).toBeLessThan(2)

    // Stop: the live surface goes and the authored one is drawn again.
    await page.click(tid('live-toggle'))
    await waitFor(() => hooks.materials(page, cageId), (m) => (m ?? []).includes('mat:ccSurface'), 'the authored surface back after live')
  }, 300_000)
})
