// Helpers for driving Eddy's UI in the end-to-end tests: test ids, menus, fields, the outliner.
import type { Locator, Page } from 'playwright-core'

/**
 * Polls `read` until `ok` accepts its value (helpers also run in beforeAll, where vitest's
 * expect.poll is not available). Throws with the last value seen after `timeoutMs`.
 */
export async function waitFor<T>(read: () => Promise<T>, ok: (v: T) => boolean, what: string, timeoutMs = 10_000): Promise<T> {
  const end = Date.now() + timeoutMs
  let last: T | undefined
  for (;;) {
    last = await read()
    if (ok(last)) return last
    if (Date.now() > end) throw new Error(`timed out waiting for ${what} (last value: ${JSON.stringify(last)})`)
    await new Promise((r) => setTimeout(r, 25))
  }
}

/** CSS selector of a data-testid. */
export const tid = (id: string): string => `[data-testid="${id}"]`

/** Waits until the UI has connected: the project browser or the studio is on screen. */
export async function waitForUi(page: Page): Promise<void> {
  await page.waitForSelector(`${tid('project-browser')}, ${tid('studio')}`, { timeout: 30_000 })
}

/** Creates a project through the UI (start page or File > New) and waits for the studio. */
export async function newProject(page: Page, name: string, dir?: string): Promise<void> {
  await waitForUi(page)
  if (await page.locator(tid('studio')).isVisible()) {
    await page.click(tid('menu-file'))
    await page.click(tid('file-new'))
    await page.waitForSelector(tid('dialog-new'))
  }
  const scope = (await page.locator(tid('dialog-new')).count()) ? tid('dialog-new') + ' ' : tid('project-browser') + ' '
  await page.fill(scope + tid('new-project-name'), name)
  if (dir !== undefined) await page.fill(scope + tid('new-project-dir'), dir)
  await page.click(scope + tid('create-project'))
  await waitFor(() => page.locator(tid('project-name')).textContent(), (v) => v === name, `project "${name}" to open`)
  await waitFor(() => page.locator(tid('dialog-new')).count(), (n) => n === 0, 'the New dialog to close')
}

/** Kinds the Add menu offers in a submenu of primitive shapes ('add-obstacle' > 'add-obstacle-box'). */
type ShapedItem = `${'obstacle' | 'rigidBody'}-${'box' | 'sphere' | 'cylinder'}`

export type AddItem = 'domain' | 'emitter' | 'vortexSeed' | 'ccCage' | 'heatSource' | ShapedItem

/** Adds an object from the Add menu and waits until it is selected in the outliner. */
export async function addObject(page: Page, item: AddItem): Promise<string> {
  const before = await outlinerNames(page)
  await page.click(tid('menu-add'))
  // A shaped item lives in its kind's submenu: open that first.
  const submenu = item.includes('-') ? item.slice(0, item.indexOf('-')) : null
  if (submenu) await page.hover(tid(`add-${submenu}`))
  await page.click(tid(`add-${item}`))
  const after = (await waitFor(() => outlinerNames(page), (n) => n.length === before.length + 1, `a new ${item} in the outliner`))!
  const name = after.find((n) => !before.includes(n))!
  // The new row can show before the selection moves to it (the object arrives with the
  // document, the selection after the add's answer): wait for that row itself to be selected,
  // or the inspector may still be showing the object selected before.
  const selected = page.locator(`${tid('outliner-item')}[aria-selected="true"]`)
  await waitFor(async () => ((await selected.count()) === 1 ? await selected.getAttribute('data-name') : null), (n) => n === name, `the new ${item} (${name}) to be selected`)
  await waitFor(() => page.inputValue(tid('name-input')), (v) => v === name, 'the inspector to show the new object')
  return name
}

export function outlinerNames(page: Page): Promise<string[]> {
  return page.locator(tid('outliner-item')).evaluateAll((els) => els.map((e) => (e as HTMLElement).dataset.name ?? ''))
}

export function outlinerRow(page: Page, name: string): Locator {
  return page.locator(`${tid('outliner-item')}[data-name="${name}"]`)
}

export async function selectObject(page: Page, name: string): Promise<void> {
  await outlinerRow(page, name).click()
  await waitFor(() => page.inputValue(tid('name-input')), (v) => v === name, `the inspector to show ${name}`)
}

/**
 * Types into a field and commits it with Enter; waits until the services accepted it (the
 * field left editing mode) and it shows `expected` (defaults to the typed text).
 */
export async function commitField(page: Page, testid: string, text: string, expected: string = text): Promise<void> {
  const field = page.locator(tid(testid))
  await field.fill(text)
  await field.press('Enter')
  await waitFor(
    async () => ({ value: await field.inputValue(), editing: await field.getAttribute('data-editing') }),
    (v) => v.value === expected && v.editing !== 'true',
    `${testid} to be committed as ${expected}`,
    // The services answer within a second when the machine is idle; SwiftShader drawing a heavy
    // scene on a loaded 2-core machine once held the answer past 10 s.
    30_000,
  )
}

export async function setFrame(page: Page, frame: number): Promise<void> {
  await commitField(page, 'current-frame', String(frame))
  await field(page, 'current-frame').blur()
}

export function field(page: Page, testid: string): Locator {
  return page.locator(tid(testid))
}

/** The undo label as the Edit menu shows it ("Undo Add Emitter"), or null when disabled. */
export async function undoLabel(page: Page): Promise<string | null> {
  await page.click(tid('menu-edit'))
  const undo = page.locator(tid('undo'))
  const text = (await undo.isEnabled()) ? ((await undo.textContent()) ?? '').replace(/Ctrl.*$/, '').trim() : null
  await page.click(tid('menu-edit'))
  return text
}

/** Clicks on empty viewport space so keyboard shortcuts reach the app rather than a field. */
export async function focusCanvasArea(page: Page): Promise<void> {
  await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur())
}

export async function keyMarkers(page: Page): Promise<number[]> {
  return page.locator(tid('key-marker')).evaluateAll((els) => els.map((e) => Number((e as HTMLElement).dataset.frame)))
}
