// A lead ball dropped into a pool, as a person would make it: a new project, a liquid pool
// (an initial-volume emitter) in a liquid domain, Add > Rigid Body > Sphere above it with its
// size and a relative density of 11 set in the inspector, a short bake at a low resolution
// from the bake panel, then scrubbing. The baked ball is drawn and falls (its pose through
// the test hooks, and its pixels on screen), the authored ball is a faint ghost while the
// baked one is shown and solid again at a frame outside the cache and once the cache is
// cleared; the glTF export carries the ball's node animation.
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import type { Page } from 'playwright-core'
import { PNG } from 'pngjs'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startApp, type RunningApp } from './harness'
import { addObject, commitField, focusCanvasArea, newProject, outlinerRow, selectObject, setFrame, tid, waitFor } from './ui'
import { cameraAtRest, projectPoint, viewportShot } from './viewportShots'

type V3 = [number, number, number]

const FRAMES = 12
const START: V3 = [0, 1.3, 0]
const DIAMETER = 0.4
const GHOST = 'mat:rigidBodyGhost'
const SOLID = 'mat:rigidBody'

const hooks = {
  state: (page: Page) => page.evaluate(() => window.__eddyViewport?.cache?.state() ?? null),
  parts: (page: Page) => page.evaluate(() => window.__eddyViewport?.cache?.parts() ?? null),
  shownBodies: (page: Page) => page.evaluate(() => window.__eddyViewport?.cache?.shownBodies?.() ?? null),
  poses: (page: Page) => page.evaluate(() => window.__eddyViewport?.cache?.bodyPoses?.() ?? null),
  materials: (page: Page, id: string) => page.evaluate((i) => window.__eddyViewport?.objectMaterials?.(i) ?? null, id),
  project: projectPoint,
}

/** Waits until `frame` is the baked frame on screen with the ball drawn and the authored one ghosted; returns its pose. */
async function showBaked(page: Page, frame: number, ballId: string): Promise<V3> {
  await setFrame(page, frame)
  await waitFor(() => hooks.state(page), (s) => s?.shownFrame === frame, `frame ${frame} on screen`, 60_000)
  const poses = await waitFor(() => hooks.poses(page), (p) => p?.length === 1 && p[0].id === ballId, `the baked ball at frame ${frame}`)
  expect(await hooks.shownBodies(page)).toEqual([ballId])
  expect((await hooks.parts(page))?.rigidBodies?.[0]).toBeGreaterThan(20)
  await waitFor(() => hooks.materials(page, ballId), (m) => m?.join() === GHOST, `the authored ball ghosted at frame ${frame}`)
  return poses![0].position
}

/**
 * Fraction of the pixels within `r` px of (x, y) whose colour differs between two shots by
 * more than `threshold` (0..255) in some channel.
 */
function changedInDisc(a: PNG, b: PNG, x: number, y: number, r: number, threshold = 24): number {
  let changed = 0
  let n = 0
  for (let j = Math.max(0, Math.floor(y - r)); j <= Math.min(a.height - 1, Math.ceil(y + r)); j++) {
    for (let i = Math.max(0, Math.floor(x - r)); i <= Math.min(a.width - 1, Math.ceil(x + r)); i++) {
      if ((i - x) ** 2 + (j - y) ** 2 > r * r) continue
      const o = 4 * (j * a.width + i)
      n++
      if ([0, 1, 2].some((c) => Math.abs(a.data[o + c] - b.data[o + c]) > threshold)) changed++
    }
  }
  return changed / Math.max(1, n)
}

/** Mean luminance of the pixels within `r` px of (x, y) in the band dy from `from` to `to` (px, down positive). */
function bandLuminance(png: PNG, x: number, y: number, r: number, from: number, to: number): number {
  let sum = 0
  let n = 0
  for (let j = Math.ceil(y + from); j <= Math.floor(y + to); j++) {
    for (let i = Math.floor(x - r); i <= Math.ceil(x + r); i++) {
      if ((i - x) ** 2 + (j - y) ** 2 > r * r || i < 0 || j < 0 || i >= png.width || j >= png.height) continue
      const o = 4 * (j * png.width + i)
      sum += 0.2126 * png.data[o] + 0.7152 * png.data[o + 1] + 0.0722 * png.data[o + 2]
      n++
    }
  }
  return sum / Math.max(1, n)
}

/** glTF accessor data as floats (embedded data: URI or a .bin beside the file). */
function accessorFloats(gltf: GltfJson, dir: string, index: number): number[] {
  const acc = gltf.accessors[index]
  const view = gltf.bufferViews[acc.bufferView]
  const uri = gltf.buffers[view.buffer].uri
  const bytes = uri.startsWith('data:') ? Buffer.from(uri.slice(uri.indexOf(',') + 1), 'base64') : readFileSync(join(dir, decodeURIComponent(uri)))
  const width = { SCALAR: 1, VEC3: 3, VEC4: 4 }[acc.type as 'SCALAR' | 'VEC3' | 'VEC4']
  expect(acc.componentType).toBe(5126) // FLOAT
  const start = (view.byteOffset ?? 0) + (acc.byteOffset ?? 0)
  const stride = view.byteStride ?? 4 * width
  const out: number[] = []
  for (let k = 0; k < acc.count; k++) for (let c = 0; c < width; c++) out.push(bytes.readFloatLE(start + k * stride + 4 * c))
  return out
}

interface GltfJson {
  nodes: { name?: string; translation?: number[] }[]
  animations: { channels: { sampler: number; target: { node: number; path: string } }[]; samplers: { input: number; output: number; interpolation?: string }[] }[]
  accessors: { bufferView: number; byteOffset?: number; componentType: number; count: number; type: string }[]
  bufferViews: { buffer: number; byteOffset?: number; byteStride?: number }[]
  buffers: { uri: string }[]
}

describe('a lead ball dropped into a pool', () => {
  let app: RunningApp
  beforeAll(async () => {
    app = await startApp()
  })
  afterAll(async () => {
    await app?.close()
  })

  it('bakes the ball into the liquid, draws it falling, ghosts the authored ball, and exports its animation', async () => {
    const { page } = app
    await newProject(page, 'Lead ball', app.projectsDir)
    // A short bake: the timeline ends at frame 12.
    await commitField(page, 'frame-end', String(FRAMES))

    // The pool: a liquid emitter filling the bottom 0.6 m of the domain at the start.
    await addObject(page, 'emitter')
    await page.selectOption(tid('param-fluid'), 'liquid')
    await waitFor(() => page.locator(tid('param-behavior')).count(), (n) => n === 1, 'the liquid emitter settings')
    await page.selectOption(tid('param-behavior'), 'geometry')
    await page.selectOption(tid('param-shape'), 'box')
    await commitField(page, 'param-position-0', '0')
    await commitField(page, 'param-position-1', '0.3')
    await commitField(page, 'param-position-2', '0')
    await commitField(page, 'param-scale-0', '2')
    await commitField(page, 'param-scale-1', '0.6')
    await commitField(page, 'param-scale-2', '2')

    // The domain: the default 2 m box on the ground, liquid, 16 cells across.
    const domain = await addObject(page, 'domain')
    await page.selectOption(tid('param-solver'), 'liquid')
    await waitFor(() => page.locator(tid('param-viscosity')).count(), (n) => n === 1, 'the liquid settings')
    await commitField(page, 'param-resolution', '16')

    // Add > Rigid Body > Sphere, 0.4 m across, 0.7 m above the water, of lead.
    await addObject(page, 'rigidBody-sphere')
    expect(await page.inputValue(tid('param-shape'))).toBe('sphere')
    await commitField(page, 'name-input', 'Lead ball')
    await waitFor(() => outlinerRow(page, 'Lead ball').count(), (n) => n === 1, 'the renamed ball in the outliner')
    for (let i = 0; i < 3; i++) await commitField(page, `param-position-${i}`, String(START[i]))
    for (let i = 0; i < 3; i++) await commitField(page, `param-scale-${i}`, String(DIAMETER))
    await commitField(page, 'param-relativeDensity', '11')
    const ballId = (await outlinerRow(page, 'Lead ball').getAttribute('data-id'))!
    // Before any bake the authored ball is drawn solid.
    await waitFor(() => hooks.materials(page, ballId), (m) => m?.join() === SOLID, 'the authored ball drawn solid')

    // Bake from the domain's bake panel.
    await selectObject(page, domain)
    await waitFor(() => page.locator(tid('bake-estimate')).textContent(), (t) => /16x16x16 grid/.test(t ?? ''), 'the bake estimate')
    await page.click(tid('bake-start'))
    await waitFor(() => page.locator(tid('bake-status')).getAttribute('data-phase'), (p) => p === 'done' || p === 'failed', 'the bake', 240_000)
    expect(await page.locator(tid('bake-error')).count()).toBe(0)
    const ranges = () => page.locator(tid('cache-range')).evaluateAll((els) => els.map((e) => `${(e as HTMLElement).dataset.state} ${(e as HTMLElement).dataset.from}-${(e as HTMLElement).dataset.to}`))
    await waitFor(ranges, (r) => r.join() === `cached 1-${FRAMES}`, 'the cached range on the timeline')

    // Frame the domain (F), then select nothing, so the gizmo and outline keep out of the pictures.
    await focusCanvasArea(page)
    await page.keyboard.press('f')
    await page.keyboard.press('Escape')
    await waitFor(() => page.locator(`${tid('outliner-item')}[aria-selected="true"]`).count(), (n) => n === 0, 'nothing selected')
    await cameraAtRest(page)

    // (a) The baked ball is drawn where it was placed at frame 1, and lower later on.
    const p1 = await showBaked(page, 1, ballId)
    p1.forEach((x, i) => expect(x).toBeCloseTo(START[i], 2))
    const shot1 = await viewportShot(page, 'rigid-frame-1.png')
    // Frame 8: seven frames of free fall (1/2 g t^2 = 0.42 m), still above the water.
    const p8 = await showBaked(page, 8, ballId)
    expect(p8[1]).toBeLessThan(START[1] - 0.3)
    expect(p8[1] - DIAMETER / 2).toBeGreaterThan(0.6 - 0.05)
    expect(Math.hypot(p8[0], p8[2])).toBeLessThan(0.05)
    const shot8 = await viewportShot(page, 'rigid-frame-8.png')
    const p12 = await showBaked(page, FRAMES, ballId)
    expect(p12[1]).toBeLessThan(p8[1])

    // Scrubbing: dragging the playhead back, the pose shown is that of the frame under it.
    const box = (await page.locator(tid('scrubber')).boundingBox())!
    await page.mouse.move(box.x + box.width * 0.9, box.y + box.height / 2)
    await page.mouse.down()
    for (let i = 1; i <= 8; i++) await page.mouse.move(box.x + box.width * (0.9 - i * 0.08), box.y + box.height / 2)
    await page.mouse.up()
    const scrubbed = Number(await page.locator(tid('playhead')).textContent())
    expect(scrubbed).toBeGreaterThanOrEqual(1)
    expect(scrubbed).toBeLessThan(FRAMES)
    await waitFor(() => hooks.state(page), (s) => s?.shownFrame === scrubbed, `the frame under the playhead (${scrubbed})`, 60_000)
    const ps = (await waitFor(() => hooks.poses(page), (p) => p?.length === 1, 'the ball after scrubbing'))![0].position
    expect(ps[1]).toBeLessThanOrEqual(p1[1] + 1e-6)
    expect(ps[1]).toBeGreaterThan(p12[1])

    // On screen: the ball's pixels left its frame-1 place and arrived at its frame-8 place,
    // while the picture beside it, at the height it started from, stayed as it was.
    const at1 = (await hooks.project(page, p1))!
    const at8 = (await hooks.project(page, p8))!
    const rim = (await hooks.project(page, [p1[0] + DIAMETER / 2, p1[1], p1[2]]))!
    const beside = (await hooks.project(page, [p1[0] + 0.6, p1[1], p1[2]]))!
    const radius = Math.hypot(rim.x - at1.x, rim.y - at1.y)
    expect(radius).toBeGreaterThan(8)
    // It fell 0.42 m, more than its 0.4 m diameter: the two places do not overlap on screen.
    expect(Math.hypot(at8.x - at1.x, at8.y - at1.y)).toBeGreaterThan(2 * radius)
    const img1 = PNG.sync.read(shot1)
    const img8 = PNG.sync.read(shot8)
    const disc = 0.7 * radius
    const left = changedInDisc(img1, img8, at1.x, at1.y, disc)
    const arrived = changedInDisc(img1, img8, at8.x, at8.y, disc)
    const still = changedInDisc(img1, img8, beside.x, beside.y, disc)
    console.log(`ball on screen at (${at1.x.toFixed(0)}, ${at1.y.toFixed(0)}) then (${at8.x.toFixed(0)}, ${at8.y.toFixed(0)}), radius ${radius.toFixed(1)} px; pixels changed: where it was ${(100 * left).toFixed(0)}%, where it went ${(100 * arrived).toFixed(0)}%, beside it ${(100 * still).toFixed(0)}%`)
    expect(left).toBeGreaterThan(0.5)
    expect(arrived).toBeGreaterThan(0.5)
    expect(still).toBeLessThan(0.1)
    // Lit from above like the authored ball: its outside faces the light (a body drawn
    // inside out by two-sided lighting was dark on top and lighter underneath).
    const upper = bandLuminance(img8, at8.x, at8.y, disc, -disc, -0.2 * disc)
    const lower = bandLuminance(img8, at8.x, at8.y, disc, 0.2 * disc, disc)
    console.log(`baked ball luminance: upper ${upper.toFixed(0)}, lower ${lower.toFixed(0)}`)
    expect(upper).toBeGreaterThan(90)
    expect(upper).toBeGreaterThan(lower + 15)

    // Export to glTF from the domain's export panel: the ball's node animation in
    // <domain>_rigid_bodies.gltf.
    await selectObject(page, domain)
    const out = join(app.projectsDir, 'gltf-out')
    await page.selectOption(tid('export-format'), 'gltf')
    await page.fill(tid('export-folder'), out)
    await page.fill(tid('export-from'), '1')
    await page.fill(tid('export-to'), String(FRAMES))
    await page.click(tid('export-start'))
    await waitFor(() => page.locator(tid('export-status')).getAttribute('data-phase'), (p) => p === 'done' || p === 'failed', 'the glTF export', 120_000)
    expect(await page.locator(tid('export-error')).count()).toBe(0)
    const gltf = JSON.parse(readFileSync(join(out, `${domain}_rigid_bodies.gltf`), 'utf8')) as GltfJson
    const node = gltf.nodes.findIndex((n) => n.name === 'Lead ball')
    expect(node).toBeGreaterThanOrEqual(0)
    const channel = gltf.animations[0].channels.find((c) => c.target.node === node && c.target.path === 'translation')!
    expect(channel).toBeDefined()
    const sampler = gltf.animations[0].samplers[channel.sampler]
    const times = accessorFloats(gltf, out, sampler.input)
    const ys = accessorFloats(gltf, out, sampler.output).filter((_, i) => i % 3 === 1)
    expect(times).toHaveLength(FRAMES)
    times.forEach((t, k) => expect(t).toBeCloseTo(k / 24, 5))
    expect(ys[0]).toBeCloseTo(p1[1], 3)
    expect(ys[7]).toBeCloseTo(p8[1], 3)
    expect(ys[FRAMES - 1]).toBeCloseTo(p12[1], 3)
    for (let k = 1; k < 8; k++) expect(ys[k]).toBeLessThan(ys[k - 1])
    // The ball drawn after the scrub was exactly the one of the frame under the playhead.
    expect(ys[scrubbed - 1]).toBeCloseTo(ps[1], 3)

    // (b) At a frame outside the cache the authored ball is solid again, and ghosted when
    // the playhead comes back into the cache.
    await commitField(page, 'frame-end', String(FRAMES + 4))
    await setFrame(page, FRAMES + 2)
    await waitFor(() => hooks.state(page), (s) => s?.frame === FRAMES + 2 && s.shownFrame === null, 'no cached frame at the playhead', 60_000)
    await waitFor(() => hooks.materials(page, ballId), (m) => m?.join() === SOLID, 'the authored ball solid outside the cache')
    expect(await hooks.shownBodies(page)).toEqual([])
    expect((await hooks.parts(page))?.rigidBodies).toEqual([])
    await viewportShot(page, 'rigid-outside-cache.png')
    await showBaked(page, 5, ballId)

    // Clearing the cache hides the cached display: the authored ball is solid at frame 5 too.
    await page.click(tid('bake-clear'))
    await waitFor(() => ranges(), (r) => r.length === 0, 'the cache to be cleared')
    await waitFor(() => hooks.shownBodies(page), (ids) => ids?.length === 0, 'no baked ball shown')
    await waitFor(() => hooks.materials(page, ballId), (m) => m?.join() === SOLID, 'the authored ball solid once the cache is cleared')
    await viewportShot(page, 'rigid-cleared.png')
    expect(app.pageErrors).toEqual([])
  }, 600_000)
})
