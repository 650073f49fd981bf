// Project lifecycle through the UI: the start page, creating, closing, reopening from the
// recent list, the folder listing and a typed path, Save As, and inline errors.
import { existsSync, mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { artifactPath, startApp, type RunningApp } from './harness'
import { addObject, newProject, outlinerNames, tid, waitForUi } from './ui'

describe('projects', () => {
  let app: RunningApp
  beforeAll(async () => {
    app = await startApp()
  })
  afterAll(async () => {
    await app?.close()
  })

  async function closeProject(): Promise<void> {
    await app.page.click(tid('menu-file'))
    await app.page.click(tid('file-close'))
    await app.page.waitForSelector(tid('project-browser'))
  }

  it('starts on the project browser and creates a project in the projects folder', async () => {
    const { page } = app
    await waitForUi(page)
    expect(await page.title()).toBe('Eddy')
    expect(await page.locator(tid('studio')).count()).toBe(0)
    expect(await page.inputValue(tid('new-project-dir'))).toBe(app.projectsDir)
    await page.screenshot({ path: artifactPath('projects-browser.png') })

    await newProject(page, 'First')
    const path = join(app.projectsDir, 'First.eddy')
    expect(await page.textContent(tid('project-path'))).toBe(path)
    expect(await page.textContent(tid('saved-indicator'))).toContain('Saved')
    expect(existsSync(path)).toBe(true)
    await addObject(page, 'domain')
    await page.screenshot({ path: artifactPath('projects-studio.png') })
  })

  it('an empty name is refused inline', async () => {
    const { page } = app
    await page.keyboard.press('Control+n')
    await page.waitForSelector(tid('dialog-new'))
    await page.fill(`${tid('dialog-new')} ${tid('new-project-name')}`, '   ')
    await page.click(`${tid('dialog-new')} ${tid('create-project')}`)
    await expect.poll(() => page.locator(tid('new-project-error')).textContent()).toMatch(/name/i)
    await page.keyboard.press('Escape')
    await expect.poll(() => page.locator(tid('dialog-new')).count()).toBe(0)
    expect(await page.textContent(tid('project-name'))).toBe('First')
  })

  it('closes to the browser and reopens from the recent list', async () => {
    const { page } = app
    const path = join(app.projectsDir, 'First.eddy')
    await closeProject()
    const recent = page.locator(`${tid('recent-project')}[data-path="${path}"]`)
    await recent.waitFor()
    await recent.click()
    await page.waitForSelector(tid('studio'))
    expect(await page.textContent(tid('project-path'))).toBe(path)
    expect(await outlinerNames(page)).toEqual(['Domain'])
  })

  it('opens from the folder listing and from a typed path', async () => {
    const { page } = app
    const first = join(app.projectsDir, 'First.eddy')
    await newProject(page, 'Second')
    const second = join(app.projectsDir, 'Second.eddy')
    expect(await outlinerNames(page)).toEqual([])

    // File > Open lists the projects folder.
    await page.click(tid('menu-file'))
    await page.click(tid('file-open'))
    await page.waitForSelector(tid('dialog-open'))
    const row = page.locator(`${tid('dialog-open')} ${tid('project-file')}[data-path="${first}"]`)
    await row.waitFor()
    expect(await page.locator(`${tid('dialog-open')} ${tid('project-file')}`).count()).toBe(2)
    await row.click()
    await expect.poll(() => page.textContent(tid('project-path'))).toBe(first)
    expect(await page.locator(tid('dialog-open')).count()).toBe(0)
    expect(await outlinerNames(page)).toEqual(['Domain'])

    // The start page's path field.
    await closeProject()
    await page.fill(tid('open-path'), second)
    await page.click(tid('open-project'))
    await page.waitForSelector(tid('studio'))
    expect(await page.textContent(tid('project-path'))).toBe(second)
  })

  it('shows an inline error for a missing file and for a folder that cannot be listed', async () => {
    const { page } = app
    await page.keyboard.press('Control+o')
    await page.waitForSelector(tid('dialog-open'))
    const dialog = tid('dialog-open')
    await page.fill(`${dialog} ${tid('open-path')}`, join(app.projectsDir, 'missing.eddy'))
    await page.click(`${dialog} ${tid('open-project')}`)
    await expect.poll(() => page.locator(tid('open-project-error')).textContent()).toBeTruthy()
    // The open project is untouched.
    expect(await page.textContent(tid('project-path'))).toBe(join(app.projectsDir, 'Second.eddy'))

    await page.fill(`${dialog} ${tid('open-dir')}`, join(app.projectsDir, 'no-such-folder'))
    await page.click(`${dialog} ${tid('open-dir-list')}`)
    await expect.poll(() => page.locator(`${dialog} ${tid('project-file')}`).count()).toBe(0)
    expect(await page.textContent(`${dialog} ${tid('project-files')}`)).not.toBe('')
    await page.screenshot({ path: artifactPath('projects-open-errors.png') })
    await page.click(tid('dialog-close'))
    await expect.poll(() => page.locator(dialog).count()).toBe(0)
  })

  it('creates a project in another folder and saves a copy with Save As', async () => {
    const { page } = app
    const elsewhere = mkdtempSync(join(tmpdir(), 'eddy-e2e-elsewhere-'))
    await newProject(page, 'Elsewhere', elsewhere)
    expect(await page.textContent(tid('project-path'))).toBe(join(elsewhere, 'Elsewhere.eddy'))
    await addObject(page, 'emitter')

    await page.click(tid('menu-file'))
    await page.click(tid('file-save-as'))
    await page.waitForSelector(tid('dialog-save-as'))
    expect(await page.inputValue(tid('save-as-dir'))).toBe(elsewhere)
    await page.fill(tid('save-as-name'), 'Copy')
    expect(await page.textContent(tid('save-as-target'))).toBe(join(elsewhere, 'Copy.eddy'))
    await page.click(tid('save-as-confirm'))
    await expect.poll(() => page.textContent(tid('project-path'))).toBe(join(elsewhere, 'Copy.eddy'))
    expect(existsSync(join(elsewhere, 'Copy.eddy'))).toBe(true)
    expect(await outlinerNames(page)).toEqual(['Emitter'])
  })

  it('lists recent projects in File > Open Recent and opens them', async () => {
    const { page } = app
    const first = join(app.projectsDir, 'First.eddy')
    await page.click(tid('menu-file'))
    await page.hover(tid('file-recent'))
    const item = page.locator(`${tid('file-recent-item')}[data-path="${first}"]`)
    await item.waitFor()
    await item.click()
    await expect.poll(() => page.textContent(tid('project-path'))).toBe(first)
  })

  it('shows the About dialog with version, mode and the simulation methods Eddy implements', async () => {
    const { page } = app
    await page.click(tid('menu-help'))
    await page.click(tid('help-about'))
    await page.waitForSelector(tid('dialog-about'))
    expect(await page.textContent(tid('about-version'))).toMatch(/^\d+\.\d+\.\d+/)
    expect(await page.textContent(tid('about-mode'))).toMatch(/headless host/)
    // One line per registered solver family (the other papers' methods are not built yet, so not listed).
    const methods = await page.locator(`${tid('about')} li`).allTextContents()
    expect(methods).toHaveLength(5)
    expect(methods[0]).toMatch(/^Smoke: vortex particles for smoke, water and explosions \(Selle, Rasmussen, Fedkiw 2005\)/)
    expect(methods[1]).toMatch(/^Liquid: marker particles .*\(Carlson 2004, chapters 3, 4 and 6\)/)
    expect(methods[2]).toMatch(/^Surface flow: stable fluids and Gray-Scott reaction-diffusion on Catmull-Clark surfaces .*\(Stam 2003\)/)
    expect(methods[3]).toMatch(/^Tetrahedral liquid: semi-Lagrangian contouring, isosurface stuffing every step.*\(Chentanez, Feldman, Labelle, O'Brien and Shewchuk 2007\)/)
    expect(methods[4]).toMatch(/^Hybrid-mesh smoke: regular hexahedra in open space and tetrahedra conforming to obstacles.*\(Feldman, O'Brien and Klingner 2005\)/)
    await page.keyboard.press('Escape')
    await expect.poll(() => page.locator(tid('dialog-about')).count()).toBe(0)
    expect(app.pageErrors).toEqual([])
  })
})
