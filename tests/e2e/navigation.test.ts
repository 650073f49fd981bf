// Blender habits in the viewport (issue 18): middle-drag orbits, Shift+middle pans, the wheel
// zooms and the left button only selects; numpad 1/3/7 give orthographic axis views, 5 toggles
// the projection, Home frames everything; the left-drag orbit is one View menu click away;
// Help lists every binding; after Enter in a field the keys reach the view again.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Page } from 'playwright-core'
import { artifactPath, startApp, type RunningApp } from './harness'
import { PNG } from 'pngjs'
import { changedFraction } from './pixels'
import { addObject, commitField, field, focusCanvasArea, newProject, outlinerNames, outlinerRow, selectObject, tid, undoLabel, waitFor } from './ui'
import { cameraAtRest, projectPoint, viewportShot } from './viewportShots'

type Cam = { alpha: number; beta: number; radius: number; target: [number, number, number]; ortho: boolean }
const cam = (page: Page) => page.evaluate(() => window.__eddyViewport?.camera?.() ?? null) as Promise<Cam | null>
const label = (page: Page) => page.textContent(tid('view-label'))
const dist = (a: [number, number, number], b: [number, number, number]) => Math.hypot(a[0] - b[0], a[1] - b[1], a[2] - b[2])

async function at(page: Page, p: [number, number, number]): Promise<{ x: number; y: number }> {
  const q = await projectPoint(page, p)
  if (!q) throw new Error(`${p} is behind the camera`)
  return q
}

/** A drag across the canvas with one button, from (fx, fy) of its size, dx/dy pixels far. */
async function drag(page: Page, button: 'left' | 'middle', fx: number, fy: number, dx: number, dy: number): Promise<void> {
  const box = (await page.locator(tid('viewport-canvas')).boundingBox())!
  const x = box.x + box.width * fx
  const y = box.y + box.height * fy
  await page.mouse.move(x, y)
  await page.mouse.down({ button })
  await page.mouse.move(x + dx, y + dy, { steps: 10 })
  await page.mouse.up({ button })
}

describe('viewport navigation', () => {
  let app: RunningApp
  beforeAll(async () => {
    app = await startApp()
    await newProject(app.page, 'Navigation')
    await addObject(app.page, 'obstacle-box')
    await focusCanvasArea(app.page)
  })
  afterAll(async () => {
    await app?.close()
  })

  it('orbits with the middle button, pans with Shift+middle, zooms with the wheel; a left drag on empty space leaves the view', async () => {
    const { page } = app
    await cameraAtRest(page)
    expect(await label(page)).toBe('User Perspective')
    const c0 = (await cam(page))!
    const shot0 = await viewportShot(page, 'nav-start.png')

    // Left drag in an empty corner: Blender's left button selects, it does not orbit.
    await drag(page, 'left', 0.9, 0.9, -80, -40)
    await cameraAtRest(page)
    const c1 = (await cam(page))!
    expect(Math.abs(c1.alpha - c0.alpha)).toBeLessThan(1e-9)
    expect(Math.abs(c1.beta - c0.beta)).toBeLessThan(1e-9)
    expect(dist(c1.target, c0.target)).toBeLessThan(1e-9)

    // From the middle of the view, over the selected box's gizmo: the camera still orbits.
    await drag(page, 'middle', 0.5, 0.5, 160, 0)
    await cameraAtRest(page)
    const c2 = (await cam(page))!
    // 0.4 rad here; less when slow frames cut the glide short (see the zoom below).
    expect(Math.abs(c2.alpha - c0.alpha)).toBeGreaterThan(0.1)
    expect(dist(c2.target, c0.target)).toBeLessThan(1e-6)
    // The picture turned with it.
    expect(changedFraction(shot0, await viewportShot(page, 'nav-orbited.png'))).toBeGreaterThan(0.01)

    await page.keyboard.down('Shift')
    await drag(page, 'middle', 0.5, 0.5, 120, 0)
    await page.keyboard.up('Shift')
    await cameraAtRest(page)
    const c3 = (await cam(page))!
    expect(Math.abs(c3.alpha - c2.alpha)).toBeLessThan(1e-6)
    expect(dist(c3.target, c2.target)).toBeGreaterThan(0.1)

    const box = (await page.locator(tid('viewport-canvas')).boundingBox())!
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2)
    await page.mouse.wheel(0, -400)
    await cameraAtRest(page)
    // Closer by a few percent: 8% here at a steady frame rate, but Babylon's zoom glide decays
    // by each frame's duration, so when a SwiftShader frame on a loaded machine takes far longer
    // than the one that took the wheel, the glide is cut short (3% seen in CI).
    expect((await cam(page))!.radius).toBeLessThan(c3.radius * 0.99)
  })

  it('numpad 1/3/7 are orthographic axis views, Ctrl the opposite side, 5 toggles perspective, orbiting leaves the axis view', async () => {
    const { page } = app
    await focusCanvasArea(page)
    await page.keyboard.press('Numpad7')
    await waitFor(() => label(page), (l) => l === 'Top Orthographic', 'the top view')
    await cameraAtRest(page)
    expect((await cam(page))!.ortho).toBe(true)
    // From above: +X to the right, -Z up the screen, and the vertical is a single pixel.
    let o = await at(page, [0, 0, 0])
    const x = await at(page, [1, 0, 0])
    const mz = await at(page, [0, 0, -1])
    const y = await at(page, [0, 1, 0])
    expect(x.x - o.x).toBeGreaterThan(20)
    expect(Math.abs(x.y - o.y)).toBeLessThan(1)
    expect(o.y - mz.y).toBeGreaterThan(20)
    expect(Math.hypot(y.x - o.x, y.y - o.y)).toBeLessThan(1)
    const top = await viewportShot(page, 'nav-top.png')

    await page.keyboard.press('Numpad1')
    await waitFor(() => label(page), (l) => l === 'Front Orthographic', 'the front view')
    await cameraAtRest(page)
    o = await at(page, [0, 0, 0])
    const up = await at(page, [0, 1, 0])
    const right = await at(page, [1, 0, 0])
    expect(o.y - up.y).toBeGreaterThan(20)
    expect(Math.abs(up.x - o.x)).toBeLessThan(1)
    expect(right.x - o.x).toBeGreaterThan(20)
    // Orthographic: depth does not move a point on screen, even off the axis.
    const near = await at(page, [1, 0.5, 1])
    const far = await at(page, [1, 0.5, -1])
    expect(Math.hypot(near.x - far.x, near.y - far.y)).toBeLessThan(1)
    expect(changedFraction(top, await viewportShot(page, 'nav-front.png'))).toBeGreaterThan(0.01)

    await page.keyboard.press('Numpad3')
    await waitFor(() => label(page), (l) => l === 'Right Orthographic', 'the right view')
    await cameraAtRest(page)
    expect((await at(page, [0, 0, -1])).x - (await at(page, [0, 0, 0])).x).toBeGreaterThan(20)

    await page.keyboard.press('Control+Numpad1')
    await waitFor(() => label(page), (l) => l === 'Back Orthographic', 'the back view')
    await cameraAtRest(page)
    expect((await at(page, [0, 0, 0])).x - (await at(page, [1, 0, 0])).x).toBeGreaterThan(20)

    await page.keyboard.press('Numpad5')
    await waitFor(() => label(page), (l) => l === 'Back Perspective', 'perspective')
    await cameraAtRest(page)
    expect((await cam(page))!.ortho).toBe(false)
    const pn = await at(page, [1, 0.5, 1])
    const pf = await at(page, [1, 0.5, -1])
    expect(Math.hypot(pn.x - pf.x, pn.y - pf.y)).toBeGreaterThan(3)

    // Ortho chosen with 5 stays when orbiting; ortho that came with an axis view does not.
    await page.keyboard.press('Numpad5')
    await page.keyboard.press('Numpad4')
    await waitFor(() => label(page), (l) => l === 'User Orthographic', 'a user view that stays orthographic')
    await page.keyboard.press('Numpad5')
    await waitFor(() => label(page), (l) => l === 'User Perspective', 'back to perspective')
    await page.keyboard.press('Numpad7')
    await waitFor(() => label(page), (l) => l === 'Top Orthographic', 'the top view again')
    await drag(page, 'middle', 0.5, 0.5, 80, 0)
    await waitFor(() => label(page), (l) => l === 'User Perspective', 'orbiting away to return to perspective')
  })

  it('Home frames everything after a pan took the scene out of sight; so does View > Frame All', async () => {
    const { page } = app
    const canvas = (await page.locator(tid('viewport-canvas')).boundingBox())!
    const centred = async () => {
      const p = await at(page, [0, 0.5, 0])
      return Math.abs(p.x - canvas.width / 2) < canvas.width * 0.1 && Math.abs(p.y - canvas.height / 2) < canvas.height * 0.1
    }
    for (const frameAll of [() => page.keyboard.press('Home'), async () => (await page.click(tid('menu-view')), await page.click(tid('view-frame-all')))]) {
      await page.keyboard.down('Shift')
      await drag(page, 'middle', 0.5, 0.5, 400, 250)
      await page.keyboard.up('Shift')
      await cameraAtRest(page)
      expect(await centred()).toBe(false)
      await focusCanvasArea(page)
      await frameAll()
      await cameraAtRest(page)
      expect(await centred()).toBe(true)
    }
  })

  it('View > Orbit with Left Button makes a left drag orbit, and is remembered', async () => {
    const { page } = app
    await page.click(tid('menu-view'))
    await page.click(tid('view-left-orbit'))
    await page.click(tid('menu-view'))
    expect(await page.getAttribute(tid('view-left-orbit'), 'aria-checked')).toBe('true')
    await page.click(tid('menu-view'))
    expect(await page.evaluate(() => localStorage.getItem('eddy.navigation'))).toBe('leftOrbit')
    const before = (await cam(page))!
    await drag(page, 'left', 0.9, 0.9, -150, 0)
    await cameraAtRest(page)
    // As the middle-drag orbit above: 0.1 rad, which slow frames still reach.
    expect(Math.abs((await cam(page))!.alpha - before.alpha)).toBeGreaterThan(0.1)
    // Help describes the bindings in use.
    await page.click(tid('menu-help'))
    await page.click(tid('help-shortcuts'))
    const orbitRow = page.locator(tid('shortcut-row')).filter({ hasText: /^Orbit/ }).first()
    expect(await orbitRow.textContent()).toContain('Left-drag')
    await page.keyboard.press('Escape')
    // Back to Blender's buttons for the tests that follow.
    await page.click(tid('menu-view'))
    await page.click(tid('view-left-orbit'))
    expect(await page.evaluate(() => localStorage.getItem('eddy.navigation'))).toBe('blender')
  })

  it('adds new objects at the 3D cursor, which Shift+right-click places on the ground or on a surface, standing on the ground', async () => {
    const { page } = app
    await focusCanvasArea(page)
    await page.keyboard.press('Shift+C')
    await cameraAtRest(page)
    const cursor = () => page.evaluate(() => window.__eddyViewport?.cursor?.() ?? null) as Promise<number[] | null>
    expect(await cursor()).toEqual([0, 0, 0])
    const canvas = (await page.locator(tid('viewport-canvas')).boundingBox())!
    const reddish = async (shot: Buffer, c: { x: number; y: number }) => {
      const img = PNG.sync.read(shot)
      let n = 0
      for (let y = Math.round(c.y) - 20; y <= c.y + 20; y++)
        for (let x = Math.round(c.x) - 20; x <= c.x + 20; x++) {
          const i = 4 * (y * img.width + x)
          if (img.data[i] > 170 && img.data[i + 1] < 90 && img.data[i + 2] < 90) n++
        }
      return n
    }
    const shiftRightClick = async (c: { x: number; y: number }) => {
      await page.keyboard.down('Shift')
      await page.mouse.click(canvas.x + c.x, canvas.y + c.y, { button: 'right' })
      await page.keyboard.up('Shift')
    }
    const position = async () => [0, 1, 2].map(async (i) => Number(await page.inputValue(tid(`param-position-${i}`))))

    // Framing the lone box brought the camera close: step back until the ground around it shows.
    const box = (await page.locator(tid('viewport-canvas')).boundingBox())!
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2)
    for (let i = 0; i < 20 && (await cam(page))!.radius < 8; i++) {
      await page.mouse.wheel(0, 400)
      await cameraAtRest(page)
    }
    // On the ground, away from everything.
    const ground = await at(page, [1.6, 0, 1.2])
    expect(ground.x > 30 && ground.y > 30 && ground.x < canvas.width - 30 && ground.y < canvas.height - 30).toBe(true)
    const before = await viewportShot(page, 'cursor-before.png')
    await shiftRightClick(ground)
    const c1 = (await waitFor(cursor, (c) => !!c && Math.hypot(c[0] - 1.6, c[2] - 1.2) < 0.05, 'the cursor on the ground where clicked'))!
    expect(Math.abs(c1[1])).toBeLessThan(1e-6)
    // The red and white ring is drawn there.
    expect((await reddish(await viewportShot(page, 'cursor-placed.png'), ground)) - (await reddish(before, ground))).toBeGreaterThan(8)

    // A 1 m box stands on the ground at the cursor rather than sinking half into it.
    await addObject(page, 'obstacle-box')
    const [bx, by, bz] = await Promise.all(await position())
    expect(Math.abs(bx - c1[0])).toBeLessThan(0.01)
    expect(by).toBe(0.5)
    expect(Math.abs(bz - c1[2])).toBeLessThan(0.01)

    // On the box's top face: the cursor is on the surface, and an emitter goes there as it is.
    await cameraAtRest(page)
    await shiftRightClick(await at(page, [bx, 1, bz]))
    const c2 = (await waitFor(cursor, (c) => !!c && Math.abs(c[1] - 1) < 0.02, 'the cursor on top of the box'))!
    expect(Math.hypot(c2[0] - bx, c2[2] - bz)).toBeLessThan(0.1)
    await addObject(page, 'emitter')
    const [, ey] = await Promise.all(await position())
    expect(Math.abs(ey - c2[1])).toBeLessThan(0.01)

    // View > Cursor to World Origin: a vortex seed added then sits on the floor at the origin.
    await page.click(tid('menu-view'))
    await page.click(tid('view-cursor-origin'))
    expect(await cursor()).toEqual([0, 0, 0])
    await addObject(page, 'vortexSeed')
    expect(await Promise.all(await position())).toEqual([0, 0.1, 0])
  })

  it('hides helpers with the Overlays switch, and any object with its eye in the outliner or H', async () => {
    const { page } = app
    await focusCanvasArea(page)
    await page.keyboard.press('Home')
    await cameraAtRest(page)
    const materials = (name: string) =>
      page.evaluate(async (n) => {
        const row = document.querySelector(`[data-testid="outliner-item"][data-name="${n}"]`) as HTMLElement
        return window.__eddyViewport?.objectMaterials?.(row.dataset.id!) ?? []
      }, name)
    for (const n of ['Obstacle', 'Emitter', 'Vortex seed']) expect((await materials(n)).length, `${n} drawn`).toBeGreaterThan(0)
    const on = await viewportShot(page, 'overlays-on.png')
    await page.click(tid('overlays-toggle'))
    expect(await page.getAttribute(tid('overlays-toggle'), 'aria-pressed')).toBe('false')
    await waitFor(() => materials('Emitter'), (m) => m.length === 0, 'the emitter hidden with the overlays')
    expect(await materials('Vortex seed')).toEqual([])
    expect((await materials('Obstacle')).length).toBeGreaterThan(0)
    // The grid and the helpers left the picture; the box is still there.
    const off = await viewportShot(page, 'overlays-off.png')
    expect(changedFraction(on, off)).toBeGreaterThan(0.02)
    await page.click(tid('overlays-toggle'))
    await waitFor(() => materials('Emitter'), (m) => m.length > 0, 'the emitter back with the overlays')

    // The eye: hidden in the view, kept in the scene, undoable.
    const eye = outlinerRow(page, 'Obstacle').locator(tid('outliner-eye'))
    await eye.click()
    await waitFor(() => materials('Obstacle'), (m) => m.length === 0, 'the box hidden by its eye')
    expect(await eye.getAttribute('aria-pressed')).toBe('false')
    expect(await undoLabel(page)).toBe('Undo Hide Obstacle')
    await eye.click()
    await waitFor(() => materials('Obstacle'), (m) => m.length > 0, 'the box shown by its eye')
    // H hides the selection.
    await selectObject(page, 'Emitter')
    await focusCanvasArea(page)
    await page.keyboard.press('h')
    await waitFor(() => materials('Emitter'), (m) => m.length === 0, 'the emitter hidden by H')
    await page.keyboard.press('Control+z')
    await waitFor(() => materials('Emitter'), (m) => m.length > 0, 'the emitter back after undo')
  })

  it("moves, turns and scales with Blender's modal G / R / S: axis keys, typed values, Ctrl snapping, confirm and cancel", async () => {
    const { page } = app
    await selectObject(page, 'Obstacle')
    await focusCanvasArea(page)
    await page.keyboard.press('Numpad1')
    await cameraAtRest(page)
    const canvas = (await page.locator(tid('viewport-canvas')).boundingBox())!
    const vec = async (key: string) => Promise.all([0, 1, 2].map(async (i) => Number(await page.inputValue(tid(`param-${key}-${i}`)))))
    const p0 = await vec('position')
    const c = await at(page, p0 as [number, number, number])
    const ppm = (await at(page, [p0[0] + 1, p0[1], p0[2]])).x - c.x // front view: +X is to the right
    expect(ppm).toBeGreaterThan(20)
    const mouseAt = (dx: number, dy: number, steps = 8) => page.mouse.move(canvas.x + c.x + dx, canvas.y + c.y + dy, { steps })
    const header = () => page.locator(tid('modal-header')).count()

    // G, the mouse 100 px right, X: the box follows along X only; a click confirms (and does not select).
    await mouseAt(0, 0, 1)
    await page.keyboard.press('g')
    await waitFor(header, (n) => n === 1, 'the modal header')
    await mouseAt(100, -40)
    await page.keyboard.press('x') // constrains: does not delete
    await page.mouse.down()
    await page.mouse.up()
    await waitFor(header, (n) => n === 0, 'the modal to end')
    await waitFor(async () => (await vec('position'))[0], (x) => Math.abs(x - p0[0] - 100 / ppm) < 0.03 * (100 / ppm), 'the box moved 100 px along X')
    const p1 = await vec('position')
    expect(p1[1]).toBe(p0[1])
    expect(p1[2]).toBe(p0[2])
    expect(await undoLabel(page)).toBe('Undo Change Obstacle Position')
    expect(await page.locator(`${tid('outliner-item')}[aria-selected="true"]`).getAttribute('data-name')).toBe('Obstacle')

    // G Z 1.5 Enter: exactly 1.5 m along Z.
    await mouseAt(0, 0, 1)
    await page.keyboard.press('g')
    await page.keyboard.press('z')
    await page.keyboard.type('1.5')
    await page.keyboard.press('Enter')
    await waitFor(async () => (await vec('position'))[2], (z) => Math.abs(z - (p1[2] + 1.5)) < 1e-9, 'a typed move of 1.5 m along Z')

    // Cancelled with Escape, and with a right click: nothing changes.
    const before = await vec('position')
    for (const cancel of [() => page.keyboard.press('Escape'), () => page.mouse.click(canvas.x + c.x + 60, canvas.y + c.y, { button: 'right' })]) {
      await mouseAt(0, 0, 1)
      await page.keyboard.press('g')
      await mouseAt(60, 30)
      await cancel()
      await waitFor(header, (n) => n === 0, 'the modal to end')
      await page.waitForTimeout(200)
      expect(await vec('position')).toEqual(before)
    }

    // Ctrl snaps the move to 0.1 m steps.
    const c2 = await at(page, before as [number, number, number])
    await page.mouse.move(canvas.x + c2.x, canvas.y + c2.y)
    await page.keyboard.press('g')
    await page.keyboard.down('Control')
    await page.mouse.move(canvas.x + c2.x + 0.37 * ppm, canvas.y + c2.y - 0.21 * ppm, { steps: 6 })
    await page.keyboard.up('Control')
    await page.keyboard.press('Enter')
    await waitFor(async () => (await vec('position'))[0], (x) => x !== before[0], 'the snapped move')
    const snapped = await vec('position')
    for (const a of [0, 1]) expect(Math.abs(((snapped[a] - before[a]) / 0.1) % 1) < 1e-6 || Math.abs(((snapped[a] - before[a]) / 0.1) % 1) > 1 - 1e-6).toBe(true)
    expect(snapped[0] - before[0]).toBeCloseTo(0.4, 6)
    expect(snapped[1] - before[1]).toBeCloseTo(0.2, 6) // up the screen is up in the front view

    // R: a quarter turn of the mouse clockwise around the box turns it clockwise as seen from
    // the front, i.e. -90 degrees about +Z (the view looks along -Z).
    const c3 = await at(page, snapped as [number, number, number])
    await page.mouse.move(canvas.x + c3.x + 120, canvas.y + c3.y)
    await page.keyboard.press('r')
    for (let k = 1; k <= 9; k++) await page.mouse.move(canvas.x + c3.x + 120 * Math.cos((k * Math.PI) / 18), canvas.y + c3.y + 120 * Math.sin((k * Math.PI) / 18))
    await page.keyboard.press('Enter')
    await waitFor(async () => (await vec('rotation'))[2], (z) => Math.abs(z + 90) < 2, 'a quarter turn clockwise on screen')
    // R X 30 Enter: typed degrees about X, on top.
    await page.mouse.move(canvas.x + c3.x + 50, canvas.y + c3.y)
    await page.keyboard.press('r')
    await page.keyboard.press('x')
    await page.keyboard.type('30')
    await page.keyboard.press('Enter')
    await waitFor(() => undoLabel(page), (l) => l === 'Undo Change Obstacle Rotation', 'the typed rotation committed')

    // S: the mouse from 60 px to 120 px away doubles the size; S Y 0.5 halves Y only.
    const s0 = await vec('scale')
    await page.mouse.move(canvas.x + c3.x + 60, canvas.y + c3.y)
    await page.keyboard.press('s')
    await page.mouse.move(canvas.x + c3.x + 120, canvas.y + c3.y, { steps: 6 })
    await page.keyboard.press('Enter')
    await waitFor(async () => (await vec('scale'))[0], (x) => Math.abs(x / s0[0] - 2) < 0.04, 'the size doubled')
    const s1 = await vec('scale')
    await page.mouse.move(canvas.x + c3.x + 60, canvas.y + c3.y)
    await page.keyboard.press('s')
    await page.keyboard.press('y')
    await page.keyboard.type('0.5')
    await page.keyboard.press('Enter')
    await waitFor(async () => (await vec('scale'))[1], (y) => Math.abs(y - s1[1] * 0.5) < 1e-6, 'Y halved')
    expect((await vec('scale'))[0]).toBe(s1[0])
    expect(await outlinerNames(page)).toContain('Obstacle')
  })

  it('draws only on change: an idle view about 1 frame a second; an orbit is drawn, and the view at rest keeps the picture shown', async () => {
    const { page } = app
    await cameraAtRest(page)
    const frames = () => page.evaluate(() => window.__eddyViewport?.renderedFrames ?? 0)
    // Idle: nothing moves, nothing arrives; the idle floor draws once a second (redrawScheduler.ts).
    await page.mouse.move(1, 1)
    await page.waitForTimeout(1000)
    const idle0 = await frames()
    await page.waitForTimeout(4000)
    const idle = (await frames()) - idle0
    expect(idle).toBeGreaterThanOrEqual(3)
    expect(idle).toBeLessThanOrEqual(5)
    // An orbit drags the camera: every step of it is drawn, and the last picture shows where
    // it stopped. Nothing asks for draws after the drag: the camera is watched until it holds
    // still, the hot period (600 ms) passes, and before the idle floor's next draw (1 s after
    // the last) the canvas as the scheduler left it is the picture a fresh draw makes.
    const before = await viewportShot(page, 'redraw-before-orbit.png')
    await drag(page, 'middle', 0.5, 0.5, 120, 0)
    let last = ''
    await waitFor(
      async () => {
        await page.waitForTimeout(100)
        const c = JSON.stringify(await cam(page))
        const still = c === last
        last = c
        return still
      },
      (still) => still,
      'the orbit to stop',
    )
    await page.waitForTimeout(650)
    const left = await page.locator(tid('viewport-canvas')).screenshot({ path: artifactPath('redraw-after-orbit.png') })
    expect(changedFraction(before, left)).toBeGreaterThan(0.01)
    expect(changedFraction(left, await viewportShot(page, 'redraw-after-orbit-redrawn.png'), 2)).toBe(0)
  })

  it('Help > Keyboard and Mouse lists every binding', async () => {
    const { page } = app
    await page.click(tid('menu-help'))
    await page.click(tid('help-shortcuts'))
    await page.waitForSelector(tid('dialog-shortcuts'))
    const rows = await page.locator(tid('shortcut-row')).allTextContents()
    for (const keys of ['Middle-drag', 'Shift + middle-drag', 'Wheel', 'Home', 'Numpad 1 / 3 / 7', 'Numpad 5', 'Shift + right-click', 'Shift + C', 'G / R / S', 'H', 'X / Y / Z', 'X, Delete', 'Tab', 'Space', 'Shift + Left / Right arrow', 'Ctrl + Z', 'Enter'])
      expect(rows.some((r) => r.includes(keys)), `a row with ${keys}`).toBe(true)
    await page.keyboard.press('Escape')
    await waitFor(() => page.locator(tid('dialog-shortcuts')).count(), (n) => n === 0, 'the dialog to close')
  })

  it('after Enter in a number field, or a choice in a drop-down, hotkeys reach the view', async () => {
    const { page } = app
    await selectObject(page, 'Obstacle')
    await page.click(tid('mode-translate'))
    await commitField(page, 'param-position-0', '0.25')
    expect(await page.evaluate(() => document.activeElement?.tagName)).not.toBe('INPUT')
    await page.keyboard.press('r')
    await waitFor(() => page.getAttribute(tid('mode-rotate'), 'aria-pressed'), (v) => v === 'true', 'R to pick rotate')
    expect(await field(page, 'param-position-0').inputValue()).toBe('0.25')
    await page.selectOption(tid('param-shape'), 'sphere')
    await page.keyboard.press('s')
    await waitFor(() => page.getAttribute(tid('mode-scale'), 'aria-pressed'), (v) => v === 'true', 'S to pick scale')
    expect(await page.inputValue(tid('param-shape'))).toBe('sphere')
    // The timeline's keys from there too: Right and Left step, Shift jumps to the ends.
    const playhead = async () => Number(await page.textContent(tid('playhead')))
    const first = await playhead()
    await page.keyboard.press('ArrowRight')
    await page.keyboard.press('ArrowRight')
    await waitFor(playhead, (f) => f === first + 2, 'two frames on')
    await page.keyboard.press('ArrowLeft')
    await waitFor(playhead, (f) => f === first + 1, 'one frame back')
    await page.keyboard.press('Shift+ArrowRight')
    const [start, end] = [Number(await page.inputValue(tid('frame-start'))), Number(await page.inputValue(tid('frame-end')))]
    await waitFor(playhead, (f) => f === end, 'the last frame')
    await page.keyboard.press('Shift+ArrowLeft')
    await waitFor(playhead, (f) => f === start, 'the first frame')
  })
})
