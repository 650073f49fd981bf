// An artist's first session, end to end through the real UI: create a project, add a domain,
// an emitter, a vortex seed, a Catmull-Clark cage and the Stanford bunny from an OBJ file,
// keyframe the emitter rate at frames 1 and 50, undo and redo, try a corrupt OBJ, then close
// and reopen the project and find everything identical. The viewport screenshots are kept
// in test-results/e2e/ and checked for content.
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import type { Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { WebSocket } from 'ws'
import { bunnyObjText } from '../fixtures/makeBunnyObj'
import { artifactPath, startApp, type RunningApp } from './harness'
import { viewportShot } from './viewportShots'
import { changedFraction, pixelStats } from './pixels'
import { addObject, commitField, focusCanvasArea, keyMarkers, newProject, outlinerNames, selectObject, setFrame, tid, waitFor } from './ui'

/** A screenshot of the viewport canvas once it has drawn `objects` objects and a few more frames. */
async function viewportShotOf(page: Page, name: string, objects: number): Promise<Buffer> {
  await waitFor(() => page.evaluate(() => window.__eddyViewport?.objectNodes().length ?? -1), (n) => n === objects, `${objects} objects in the viewport`, 20_000)
  return viewportShot(page, name)
}

/** The saved document, asked of the host directly (what the file holds, not what the UI shows). */
async function savedDocument(app: RunningApp): Promise<unknown> {
  const token = /token=([^&]+)/.exec(app.host.url)![1]
  const ws = new WebSocket(`ws://127.0.0.1:${app.host.port}/ws?token=${token}`)
  await new Promise((r) => ws.once('open', r))
  const reply = await new Promise<{ ok: boolean; result: { document: unknown } | null }>((resolve) => {
    ws.once('message', (m) => resolve(JSON.parse(m.toString())))
    ws.send(JSON.stringify({ id: 1, type: 'project.get', params: {} }))
  })
  ws.close()
  expect(reply.ok).toBe(true)
  return reply.result?.document ?? null
}

/** Every inspector value of every object, as the artist sees them at the current frame. */
async function inspectorSnapshot(page: Page): Promise<Record<string, Record<string, string>>> {
  const out: Record<string, Record<string, string>> = {}
  for (const name of await outlinerNames(page)) {
    await selectObject(page, name)
    out[name] = await page.locator('[data-testid^="param-"]').evaluateAll((els) =>
      Object.fromEntries(els.map((e) => [(e as HTMLElement).dataset.testid!, (e as HTMLInputElement).value])),
    )
  }
  return out
}

describe('an artist session', () => {
  let app: RunningApp
  beforeAll(async () => {
    app = await startApp()
  })
  afterAll(async () => {
    await app?.close()
  })

  it('builds a scene, keyframes it, survives a corrupt import, and reopens identical', async () => {
    const { page } = app
    await newProject(page, 'Journey')

    const empty = await viewportShotOf(page, 'journey-0-empty.png', 0)
    const emptyStats = pixelStats(empty)
    // Grid and axes on a dark background: far from a flat image.
    expect(emptyStats.variance).toBeGreaterThan(5) // a flat canvas is 0; this grid measures about 14
    expect(emptyStats.colours).toBeGreaterThan(8)

    await addObject(page, 'domain')
    const withDomain = await viewportShotOf(page, 'journey-1-domain.png', 1)
    expect(changedFraction(empty, withDomain)).toBeGreaterThan(0.005)

    await addObject(page, 'emitter')
    await addObject(page, 'vortexSeed')
    await addObject(page, 'ccCage')
    await page.setInputFiles(tid('import-mesh-input'), { name: 'bunny.obj', mimeType: 'text/plain', buffer: Buffer.from(bunnyObjText()) })
    await waitFor(() => outlinerNames(page), (n) => n.includes('bunny'), 'the bunny in the outliner')
    expect(await outlinerNames(page)).toEqual(['Domain', 'Emitter', 'Vortex seed', 'Catmull-Clark cage', 'bunny'])
    // The bunny file is in decimetres (about 10 units tall): scale it to 1 m, as an artist would.
    for (const axis of [0, 1, 2]) await commitField(page, `param-scale-${axis}`, '0.1')
    await focusCanvasArea(page)
    await page.keyboard.press('Escape')
    await page.keyboard.press('f')
    const full = await viewportShotOf(page, 'journey-2-scene.png', 5)
    expect(pixelStats(full).variance).toBeGreaterThan(emptyStats.variance * 0.5)
    expect(changedFraction(withDomain, full)).toBeGreaterThan(0.01)

    // Keyframe the emitter's rate: 2 at frame 1, 40 at frame 50.
    await selectObject(page, 'Emitter')
    await setFrame(page, 1)
    await commitField(page, 'param-rate', '2')
    await page.click(tid('key-rate'))
    await waitFor(() => page.getAttribute(tid('key-rate'), 'data-state'), (s) => s === 'key', 'a key on rate at frame 1')
    // Auto-key on (the record button), so the new value at 50 becomes a key.
    await page.click(tid('auto-key'))
    await setFrame(page, 50)
    await commitField(page, 'param-rate', '40')
    await waitFor(() => keyMarkers(page), (m) => m.join() === '1,50', 'key markers at 1 and 50')
    await setFrame(page, 25)
    const mid = Number(await page.inputValue(tid('param-rate')))
    expect(mid).toBeGreaterThan(2)
    expect(mid).toBeLessThan(40)

    // Undo the key at 50, then redo it.
    await focusCanvasArea(page)
    await page.keyboard.press('Control+z')
    await waitFor(() => keyMarkers(page), (m) => m.join() === '1', 'undo to remove the key at 50')
    await page.keyboard.press('Control+Shift+z')
    await waitFor(() => keyMarkers(page), (m) => m.join() === '1,50', 'redo to restore the key at 50')

    // A corrupt OBJ: a clear error naming the problem; nothing in the project changes.
    const before = await savedDocument(app)
    await page.setInputFiles(tid('import-mesh-input'), { name: 'broken.obj', mimeType: 'text/plain', buffer: Buffer.from('v 0 0 0\nv 1 0 0\nv 0 1 zero\nf 1 2 3\n') })
    const toast = page.locator(tid('error-toast'))
    await toast.waitFor()
    expect(await toast.textContent()).toMatch(/broken\.obj.*line 3|line 3.*broken\.obj/s)
    expect(await outlinerNames(page)).toEqual(['Domain', 'Emitter', 'Vortex seed', 'Catmull-Clark cage', 'bunny'])
    expect(await savedDocument(app)).toEqual(before)

    // Close and reopen from File > Open Recent: the same document and the same inspector values.
    await setFrame(page, 25)
    const shown = await inspectorSnapshot(page)
    await page.click(tid('menu-file'))
    await page.click(tid('file-close'))
    await page.waitForSelector(tid('project-browser'))
    const path = join(app.projectsDir, 'Journey.eddy')
    await page.click(`${tid('recent-project')}[data-path="${path}"]`)
    await page.waitForSelector(tid('studio'))
    expect(await savedDocument(app)).toEqual(before)
    await setFrame(page, 25)
    expect(await inspectorSnapshot(page)).toEqual(shown)
    await selectObject(page, 'Emitter')
    expect(await keyMarkers(page)).toEqual([1, 50])
    const reopened = await viewportShotOf(page, 'journey-3-reopened.png', 5)
    expect(pixelStats(reopened).variance).toBeGreaterThan(emptyStats.variance)
    writeFileSync(artifactPath('journey-document.json'), JSON.stringify(before, null, 2))
    expect(app.pageErrors).toEqual([])
  })
})
