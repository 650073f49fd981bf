// Scene editing through the UI: the Add menu, outliner selection/rename/delete, the inspector
// (values, inline validation, server-side validation), undo/redo by keyboard and menu, and
// the keyboard shortcuts.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { artifactPath, startApp, type RunningApp } from './harness'
import { addObject, commitField, field, focusCanvasArea, newProject, outlinerNames, outlinerRow, selectObject, tid, undoLabel } from './ui'

describe('editing', () => {
  let app: RunningApp
  beforeAll(async () => {
    app = await startApp()
    await newProject(app.page, 'Editing')
  })
  afterAll(async () => {
    await app?.close()
  })

  it('adds every kind of object from the Add menu', async () => {
    const { page } = app
    await addObject(page, 'domain')
    await addObject(page, 'obstacle-box')
    await addObject(page, 'obstacle-sphere')
    await addObject(page, 'obstacle-cylinder')
    await addObject(page, 'emitter')
    await addObject(page, 'vortexSeed')
    await addObject(page, 'ccCage')
    await addObject(page, 'heatSource')
    const kinds = await page.locator(tid('outliner-item')).evaluateAll((els) => els.map((e) => (e as HTMLElement).dataset.kind))
    expect(kinds).toEqual(['domain', 'obstacle', 'obstacle', 'obstacle', 'emitter', 'vortexSeed', 'ccCage', 'heatSource'])
    expect(await outlinerNames(page)).toEqual(['Domain', 'Obstacle', 'Obstacle.001', 'Obstacle.002', 'Emitter', 'Vortex seed', 'Catmull-Clark cage', 'Heat source'])
    // The obstacle items set the shape.
    await selectObject(page, 'Obstacle.001')
    expect(await page.inputValue(tid('param-shape'))).toBe('sphere')
    await selectObject(page, 'Obstacle.002')
    expect(await page.inputValue(tid('param-shape'))).toBe('cylinder')
    expect(await page.locator(`${tid('outliner-item')}[aria-selected="true"]`).getAttribute('data-name')).toBe('Obstacle.002')
    await page.screenshot({ path: artifactPath('editing-all-kinds.png') })
  })

  it('shows every parameter of the selected kind with its value and unit', async () => {
    const { page } = app
    await selectObject(page, 'Domain')
    expect(await page.inputValue(tid('param-position-1'))).toBe('1')
    expect(await page.inputValue(tid('param-size-0'))).toBe('2')
    expect(await page.inputValue(tid('param-solver'))).toBe('smoke')
    expect(await page.inputValue(tid('param-resolution'))).toBe('64')
    expect(await page.locator(tid('param-row-resolution')).textContent()).toContain('cells')
    for (const g of ['Transform', 'Solver', 'Time']) expect(await page.locator(tid(`group-${g}`)).count()).toBe(1)

    await selectObject(page, 'Emitter')
    expect(await page.inputValue(tid('param-temperature'))).toBe('600')
    expect(await page.locator(tid('param-row-temperature')).textContent()).toContain('K')
    // Numeric parameters have a key button; enums and switches do not.
    expect(await page.locator(tid('key-rate')).count()).toBe(1)
    expect(await page.locator(tid('key-position.2')).count()).toBe(1)
    expect(await page.locator(tid('key-shape')).count()).toBe(0)
    await selectObject(page, 'Domain')
    expect(await page.locator(tid('key-resolution')).count()).toBe(1)
    expect(await page.locator(tid('key-solver')).count()).toBe(0)
    expect(await page.locator(tid('key-openYMax')).count()).toBe(0)
  })

  it('commits valid values and refuses invalid ones inline without sending them', async () => {
    const { page } = app
    await selectObject(page, 'Emitter')
    await commitField(page, 'param-rate', '3.5')
    expect(await undoLabel(page)).toBe('Undo Change Emitter Rate')

    const rate = field(page, 'param-rate')
    await rate.fill('-5')
    await expect.poll(() => page.locator(tid('error-rate')).textContent()).toBe('Rate must be between 0 and 1000 1/s (got -5)')
    expect(await rate.getAttribute('aria-invalid')).toBe('true')
    await rate.press('Enter')
    await rate.blur()
    // Still shown, and nothing reached the services.
    expect(await page.locator(tid('error-rate')).count()).toBe(1)
    expect(await undoLabel(page)).toBe('Undo Change Emitter Rate')

    await rate.fill('abc')
    await expect.poll(() => page.locator(tid('error-rate')).textContent()).toMatch(/number/)
    await rate.press('Escape')
    await expect.poll(() => page.locator(tid('error-rate')).count()).toBe(0)
    expect(await rate.inputValue()).toBe('3.5')

    // Integer parameters refuse fractions; vectors are checked per component.
    await selectObject(page, 'Domain')
    await field(page, 'param-resolution').fill('64.5')
    await expect.poll(() => page.locator(tid('error-resolution')).textContent()).toMatch(/whole number/)
    await field(page, 'param-resolution').press('Escape')
    await field(page, 'param-size-2').fill('0')
    await expect.poll(() => page.locator(tid('error-size')).textContent()).toMatch(/Size z must be between 0.01 and 1000 m/)
    await page.screenshot({ path: artifactPath('editing-inline-error.png') })
    await field(page, 'param-size-2').press('Escape')

    // The committed value is the stored one (reselecting rebuilds the inspector from the document).
    await selectObject(page, 'Emitter')
    expect(await page.inputValue(tid('param-rate'))).toBe('3.5')
  })

  it('shows service-side validation next to the field', async () => {
    const { page } = app
    await selectObject(page, 'Vortex seed')
    await field(page, 'param-direction-1').fill('0')
    await field(page, 'param-direction-1').press('Enter')
    await expect.poll(() => page.locator(tid('error-direction')).textContent()).toMatch(/zero vector/)
    await field(page, 'param-direction-1').press('Escape')
    expect(await page.inputValue(tid('param-direction-1'))).toBe('1')

    // A mesh shape needs an imported mesh: the select goes back and says why.
    await selectObject(page, 'Obstacle')
    await page.selectOption(tid('param-shape'), 'mesh')
    await expect.poll(() => page.locator(tid('error-shape')).textContent()).toMatch(/Import Mesh/)
    expect(await page.inputValue(tid('param-shape'))).toBe('box')
  })

  it('edits enums and the name, and renames by double-clicking in the outliner', async () => {
    const { page } = app
    await selectObject(page, 'Emitter')
    await page.selectOption(tid('param-fluid'), 'liquid')
    await expect.poll(() => undoLabel(page)).toBe('Undo Change Emitter Fluid')

    await commitField(page, 'name-input', 'Nozzle')
    await expect.poll(() => outlinerNames(page)).toContain('Nozzle')
    await field(page, 'name-input').fill('')
    await expect.poll(() => page.locator(tid('error-name')).count()).toBe(1)
    await field(page, 'name-input').press('Escape')

    await outlinerRow(page, 'Nozzle').dblclick()
    await page.fill(tid('outliner-rename'), 'Jet')
    await page.press(tid('outliner-rename'), 'Enter')
    await expect.poll(() => outlinerNames(page)).toContain('Jet')
    expect(await page.inputValue(tid('name-input'))).toBe('Jet')
    expect(await page.inputValue(tid('param-fluid'))).toBe('liquid')
  })

  it('deletes with the outliner button and the X key, and undoes/redoes by keyboard and menu', async () => {
    const { page } = app
    const before = await outlinerNames(page)
    await selectObject(page, 'Heat source')
    await outlinerRow(page, 'Heat source').locator(tid('outliner-delete')).click()
    await expect.poll(() => outlinerNames(page)).not.toContain('Heat source')
    expect(await page.locator(tid('name-input')).count()).toBe(0)

    await selectObject(page, 'Catmull-Clark cage')
    await focusCanvasArea(page)
    await page.keyboard.press('x')
    await expect.poll(() => outlinerNames(page)).not.toContain('Catmull-Clark cage')

    await page.keyboard.press('Control+z')
    await expect.poll(() => outlinerNames(page)).toContain('Catmull-Clark cage')
    await page.click(tid('menu-edit'))
    expect(await page.textContent(tid('undo'))).toContain('Undo Delete Heat source')
    expect(await page.textContent(tid('redo'))).toContain('Redo Delete Catmull-Clark cage')
    await page.click(tid('undo'))
    await expect.poll(() => outlinerNames(page)).toEqual(before)

    await page.keyboard.press('Control+Shift+Z')
    await expect.poll(() => outlinerNames(page)).not.toContain('Heat source')
    await page.keyboard.press('Control+y')
    await expect.poll(() => outlinerNames(page)).not.toContain('Catmull-Clark cage')
    await page.click(tid('menu-edit'))
    expect(await page.isEnabled(tid('redo'))).toBe(false)
    await page.click(tid('menu-edit'))
    await page.keyboard.press('Control+z')
    await page.keyboard.press('Control+z')
    await expect.poll(() => outlinerNames(page)).toEqual(before)
  })

  it('Ctrl+Z in a text field undoes the typing, not the scene', async () => {
    const { page } = app
    await selectObject(page, 'Domain')
    const names = await outlinerNames(page)
    await field(page, 'param-cfl').click()
    await page.keyboard.press('Control+z')
    await page.keyboard.press('Escape')
    expect(await outlinerNames(page)).toEqual(names)
  })

  it('switches transform modes with G/R/S, deselects with Escape and toggles cage editing with Tab', async () => {
    const { page } = app
    await selectObject(page, 'Domain')
    await focusCanvasArea(page)
    await page.keyboard.press('r')
    expect(await page.getAttribute(tid('mode-rotate'), 'aria-pressed')).toBe('true')
    await page.keyboard.press('s')
    expect(await page.getAttribute(tid('mode-scale'), 'aria-pressed')).toBe('true')
    await page.keyboard.press('g')
    expect(await page.getAttribute(tid('mode-translate'), 'aria-pressed')).toBe('true')
    await page.click(tid('mode-rotate'))
    expect(await page.getAttribute(tid('mode-rotate'), 'aria-pressed')).toBe('true')
    await page.keyboard.press('g')

    await page.keyboard.press('Escape')
    await expect.poll(() => page.locator(`${tid('outliner-item')}[aria-selected="true"]`).count()).toBe(0)

    await selectObject(page, 'Catmull-Clark cage')
    expect(await page.textContent(tid('cage-edit-toggle'))).toContain('Edit vertices (Tab)')
    await focusCanvasArea(page)
    await page.keyboard.press('Tab')
    await expect.poll(() => page.textContent(tid('cage-edit-toggle'))).toContain('Done editing')
    expect(await page.textContent(tid('status-bar'))).toContain('Edit vertices')
    await page.click(tid('cage-edit-toggle'))
    await expect.poll(() => page.textContent(tid('cage-edit-toggle'))).toContain('Edit vertices (Tab)')
    // Tab on anything else is ordinary focus navigation.
    await selectObject(page, 'Domain')
    await focusCanvasArea(page)
    await page.keyboard.press('Tab')
    expect(await page.locator(tid('cage-edit-toggle')).count()).toBe(0)
    expect(app.pageErrors).toEqual([])
  })
})
