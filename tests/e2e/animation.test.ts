// Keyframes and time through the UI: key diamonds, the auto-key (record) button, timeline
// markers, Insert/Delete key, interpolation, the frame range, scrubbing and playback.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { artifactPath, startApp, type RunningApp } from './harness'
import { addObject, commitField, field, focusCanvasArea, keyMarkers, newProject, setFrame, tid, undoLabel, waitFor } from './ui'

describe('animation', () => {
  let app: RunningApp
  beforeAll(async () => {
    app = await startApp()
    await newProject(app.page, 'Animation')
    await addObject(app.page, 'emitter')
  })
  afterAll(async () => {
    await app?.close()
  })

  const keyState = (path: string) => app.page.getAttribute(tid(`key-${path}`), 'data-state')
  const currentFrame = async () => Number(await app.page.inputValue(tid('current-frame')))

  it('toggles a key with the diamond and auto-keys animated channels', async () => {
    const { page } = app
    expect(await currentFrame()).toBe(1)
    await commitField(page, 'param-rate', '2')
    expect(await keyState('rate')).toBe('none')
    await page.click(tid('key-rate'))
    await expect.poll(() => keyState('rate')).toBe('key')
    expect(await undoLabel(page)).toBe('Undo Insert key on Emitter rate at frame 1')

    await setFrame(page, 50)
    expect(await keyState('rate')).toBe('animated')
    // Auto-key off: an animated channel without a key here keeps its value, and the field says why.
    expect(await page.getAttribute(tid('auto-key'), 'aria-pressed')).toBe('false')
    await field(page, 'param-rate').fill('8')
    await field(page, 'param-rate').press('Enter')
    await expect.poll(() => page.textContent(tid('error-rate'))).toMatch(/animated and has no key at frame 50: turn on auto-key/)
    await field(page, 'param-rate').press('Escape')
    expect(await page.inputValue(tid('param-rate'))).toBe('2')
    expect(await keyState('rate')).toBe('animated')
    expect(await undoLabel(page)).toBe('Undo Insert key on Emitter rate at frame 1')
    // Auto-key on (the record button): editing an animated channel sets a key at the current frame.
    await page.click(tid('auto-key'))
    expect(await page.getAttribute(tid('auto-key'), 'aria-pressed')).toBe('true')
    await commitField(page, 'param-rate', '8')
    await expect.poll(() => keyState('rate')).toBe('key')
    expect(await undoLabel(page)).toBe('Undo Insert key on Emitter rate at frame 50')
    // With a key at this frame, auto-key off still lets the field change that key.
    await page.click(tid('auto-key'))
    await commitField(page, 'param-rate', '7')
    expect(await keyState('rate')).toBe('key')
    await page.click(tid('auto-key'))
    await commitField(page, 'param-rate', '8')

    // Between the keys the field shows the interpolated value (Bezier by default: eased, symmetric).
    await setFrame(page, 25)
    const mid = Number(await page.inputValue(tid('param-rate')))
    expect(mid).toBeGreaterThan(2)
    expect(mid).toBeLessThan(8)
    expect(await keyState('rate')).toBe('animated')
    await page.screenshot({ path: artifactPath('animation-keys.png') })
  })

  it('shows markers for the selected object, or only for the selected channel', async () => {
    const { page } = app
    await setFrame(page, 10)
    await page.click(tid('key-position.1'))
    await expect.poll(() => keyState('position.1')).toBe('key')
    expect(await keyMarkers(page)).toEqual([1, 10, 50])
    expect(await page.textContent(tid('timeline-channel'))).toContain('all channels')

    await page.click(tid('label-rate'))
    await expect.poll(() => page.textContent(tid('timeline-channel'))).toContain('Emitter · Rate')
    expect(await keyMarkers(page)).toEqual([1, 50])
    await page.click(tid('label-position.1'))
    await expect.poll(() => page.textContent(tid('timeline-channel'))).toContain('Position Y')
    expect(await keyMarkers(page)).toEqual([10])
    // Clicking the selected channel's label again goes back to all channels.
    await page.click(tid('label-position.1'))
    await expect.poll(() => keyMarkers(page)).toEqual([1, 10, 50])
  })

  it("shapes the selected channel in the curve editor: a key dragged up, a handle bending the curve, each undoable", async () => {
    const { page } = app
    await page.click(tid('label-rate'))
    await expect.poll(() => page.textContent(tid('timeline-channel'))).toContain('Emitter · Rate')
    await page.click(tid('curve-toggle'))
    await page.waitForSelector(tid('curve-editor'))
    expect(await page.locator(tid('curve-key')).evaluateAll((els) => els.map((e) => Number((e as HTMLElement).dataset.frame)))).toEqual([1, 50])
    const rateAt = async (f: number) => {
      await setFrame(page, f)
      return Number(await page.inputValue(tid('param-rate')))
    }
    const before50 = await rateAt(50)
    const dragBy = async (selector: string, dy: number) => {
      const b = (await page.locator(selector).boundingBox())!
      await page.mouse.move(b.x + b.width / 2, b.y + b.height / 2)
      await page.mouse.down()
      await page.mouse.move(b.x + b.width / 2, b.y + b.height / 2 + dy, { steps: 6 })
      await page.mouse.up()
    }
    // The key at 50 dragged 30 px up: a higher value there, as much as 30 px stand for on the plot.
    const plot = (await page.locator(tid('curve-editor')).boundingBox())!
    const [lo, hi] = await Promise.all(['data-lo', 'data-hi'].map(async (a) => Number(await page.getAttribute(tid('curve-editor'), a))))
    const perPx = (hi - lo) / (plot.height * (130 / 150)) // the plot's value span covers all but 10 px of padding a side (in 150)
    await dragBy(`${tid('curve-key')}[data-frame="50"]`, -30)
    await waitFor(() => undoLabel(page), (l) => l === 'Undo Insert key on Emitter rate at frame 50', 'the key drag committed')
    const after50 = await rateAt(50)
    expect(Math.abs(after50 - before50 - 30 * perPx)).toBeLessThan(0.15 * 30 * perPx)
    // The right handle of the key at 1 pulled up: the curve rises sooner after it.
    const before10 = await rateAt(10)
    await dragBy(`${tid('curve-handle-right')}[data-frame="1"]`, -40)
    await waitFor(() => undoLabel(page), (l) => l === 'Undo Shape Emitter rate key at frame 1', 'the handle drag committed')
    const after10 = await rateAt(10)
    expect(after10).toBeGreaterThan(before10 + 0.2)
    // Undo puts the automatic handle back, and the curve with it.
    await focusCanvasArea(page)
    await page.keyboard.press('Control+z')
    await waitFor(() => rateAt(10), (v) => Math.abs(v - before10) < 1e-3, 'the curve as it was at frame 10')
    await focusCanvasArea(page)
    await page.keyboard.press('Control+z')
    await waitFor(() => rateAt(50), (v) => Math.abs(v - before50) < 1e-3, 'the key back at its value')
    await page.click(tid('curve-toggle'))
    await page.click(tid('label-rate'))
  })

  it('inserts and deletes keys from the timeline and with I, and sets interpolation', async () => {
    const { page } = app
    await page.click(tid('label-rate'))
    await setFrame(page, 30)
    expect(await page.isEnabled(tid('delete-key'))).toBe(false)
    expect(await page.isEnabled(tid('interp-select'))).toBe(false)
    await page.click(tid('insert-key'))
    await expect.poll(() => keyMarkers(page)).toEqual([1, 30, 50])
    expect(await page.isEnabled(tid('delete-key'))).toBe(true)
    await page.click(tid('delete-key'))
    await expect.poll(() => keyMarkers(page)).toEqual([1, 50])

    await setFrame(page, 40)
    await focusCanvasArea(page)
    await page.keyboard.press('i')
    await expect.poll(() => keyMarkers(page)).toEqual([1, 40, 50])
    await page.click(tid('key-rate'))
    await expect.poll(() => keyMarkers(page)).toEqual([1, 50])

    // Constant holds the first key's value; linear is the straight line.
    await setFrame(page, 1)
    expect(await page.inputValue(tid('interp-select'))).toBe('bezier')
    await page.selectOption(tid('interp-select'), 'constant')
    await expect.poll(() => undoLabel(page)).toBe('Undo Set Emitter rate interpolation to constant')
    await setFrame(page, 49)
    expect(await page.inputValue(tid('param-rate'))).toBe('2')
    await setFrame(page, 1)
    await page.selectOption(tid('interp-select'), 'linear')
    await expect.poll(() => undoLabel(page)).toBe('Undo Set Emitter rate interpolation to linear')
    await setFrame(page, 26)
    // 2 + (26 - 1) / 49 * 6
    expect(Number(await page.inputValue(tid('param-rate')))).toBeCloseTo(2 + (25 / 49) * 6, 4)
  })

  it('validates the frame range inline and keeps the current frame inside it', async () => {
    const { page } = app
    await field(page, 'frame-start').fill('500')
    await expect.poll(() => page.textContent(tid('timeline-error'))).toMatch(/Start frame \(500\) must not be after End frame/)
    await field(page, 'frame-start').press('Enter')
    await field(page, 'frame-start').press('Escape')
    expect(await page.inputValue(tid('frame-start'))).toBe('1')

    await field(page, 'current-frame').fill('9999')
    await expect.poll(() => page.textContent(tid('timeline-error'))).toMatch(/Frame must be between/)
    await field(page, 'current-frame').press('Escape')

    await field(page, 'fps').fill('0')
    await expect.poll(() => page.textContent(tid('timeline-error'))).toMatch(/Frame rate/)
    await field(page, 'fps').press('Escape')

    await setFrame(page, 100)
    await commitField(page, 'frame-end', '60')
    await expect.poll(() => currentFrame()).toBe(60)
    expect(await undoLabel(page)).toBe('Undo Change frameEnd')
    await commitField(page, 'fps', '30')
    await commitField(page, 'frame-start', '5')
    await focusCanvasArea(page)
    await page.keyboard.press('Shift+ArrowLeft')
    await expect.poll(() => currentFrame()).toBe(5)
    await page.click(tid('goto-end'))
    await expect.poll(() => currentFrame()).toBe(60)
    await page.click(tid('goto-start'))
    await expect.poll(() => currentFrame()).toBe(5)
  })

  it('scrubs by clicking and dragging the frame track', async () => {
    const { page } = app
    const box = (await page.locator(tid('scrubber')).boundingBox())!
    // The track's frames start 12 px in from either side.
    const x = (f: number): number => box.x + 12 + ((f - 5) / (60 - 5)) * (box.width - 24)
    await page.mouse.click(x(30), box.y + box.height / 2)
    await expect.poll(() => currentFrame()).toBe(30)
    await page.mouse.move(x(20), box.y + box.height / 2)
    await page.mouse.down()
    await page.mouse.move(x(45), box.y + box.height / 2, { steps: 5 })
    await page.mouse.up()
    await expect.poll(() => currentFrame()).toBe(45)
    expect(await page.textContent(tid('playhead'))).toBe('45')
  })

  it('plays at the frame rate, loops at the end, and pauses with Space', async () => {
    const { page } = app
    // Slow enough that software rendering (a few frames per second) still shows every frame.
    await commitField(page, 'fps', '4')
    await commitField(page, 'frame-start', '1')
    await commitField(page, 'frame-end', '6')
    await focusCanvasArea(page)
    await page.keyboard.press('Shift+ArrowLeft')
    const t0 = Date.now()
    await page.click(tid('play'))
    expect(await page.getAttribute(tid('play'), 'aria-pressed')).toBe('true')
    const samples: { t: number; f: number }[] = []
    while (Date.now() - t0 < 4000) {
      samples.push({ t: Date.now() - t0, f: await currentFrame() })
      await page.waitForTimeout(50)
    }
    // 4 s at 4 fps is 16 frames over a 6-frame range: it advanced, wrapped back, never left the range.
    expect(samples.every((s) => s.f >= 1 && s.f <= 6)).toBe(true)
    expect(new Set(samples.map((s) => s.f)).size).toBeGreaterThanOrEqual(4)
    expect(samples.some((s, i) => i > 0 && s.f < samples[i - 1].f)).toBe(true)
    // Wall-clock based: after 2 s it is about 8 frames on (mod 6), whatever the render rate.
    const at = samples.find((s) => s.t >= 2000)!
    const expected = ((Math.floor((at.t * 4) / 1000) % 6) + 6) % 6
    const circular = Math.min(Math.abs(at.f - 1 - expected), 6 - Math.abs(at.f - 1 - expected))
    expect(circular).toBeLessThanOrEqual(2)

    await focusCanvasArea(page)
    await page.keyboard.press('Space')
    await expect.poll(() => page.getAttribute(tid('play'), 'aria-pressed')).toBe('false')
    const stopped = await currentFrame()
    await page.waitForTimeout(600)
    expect(await currentFrame()).toBe(stopped)
    expect(app.pageErrors).toEqual([])
  })
})
