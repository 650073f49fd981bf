// Edits are saved as they happen: after the host and browser are gone, a new host shows the
// same scene, keys and frame range when the project is reopened from the recent list.
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { makeDirs, startApp } from './harness'
import { addObject, commitField, keyMarkers, newProject, outlinerNames, selectObject, setFrame, tid, waitForUi } from './ui'

describe('persistence', () => {
  it('reopens a project with everything edited in the previous session', async () => {
    const dirs = makeDirs()
    const first = await startApp({ dirs })
    try {
      const { page } = first
      await newProject(page, 'Persist')
      await addObject(page, 'domain')
      await addObject(page, 'emitter')
      await commitField(page, 'name-input', 'Burner')
      await commitField(page, 'param-temperature', '1200')
      await page.click(tid('key-temperature'))
      await expect.poll(() => page.getAttribute(tid('key-temperature'), 'data-state')).toBe('key')
      await page.click(tid('auto-key'))
      await setFrame(page, 40)
      await commitField(page, 'param-temperature', '300')
      await commitField(page, 'frame-end', '80')
      await expect.poll(() => keyMarkers(page)).toEqual([1, 40])
      expect(first.pageErrors).toEqual([])
    } finally {
      await first.close()
    }

    const second = await startApp({ dirs })
    try {
      const { page } = second
      await waitForUi(page)
      const path = join(dirs.projectsDir, 'Persist.eddy')
      if (await page.locator(tid('project-browser')).isVisible()) await page.click(`${tid('recent-project')}[data-path="${path}"]`)
      await page.waitForSelector(tid('studio'))
      expect(await page.textContent(tid('project-path'))).toBe(path)
      expect(await outlinerNames(page)).toEqual(['Domain', 'Burner'])
      expect(await page.inputValue(tid('frame-end'))).toBe('80')
      await selectObject(page, 'Burner')
      expect(await page.inputValue(tid('param-temperature'))).toBe('1200')
      expect(await keyMarkers(page)).toEqual([1, 40])
      await setFrame(page, 40)
      expect(await page.inputValue(tid('param-temperature'))).toBe('300')
      // Undo history does not outlive the session's edits it belongs to, but the file does.
      expect(second.pageErrors).toEqual([])
    } finally {
      await second.close()
    }
  })
})
