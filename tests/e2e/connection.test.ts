// Connection failures are explained on screen: a page opened without its token gets a
// full-page message, and a host that goes away mid-session shows a banner.
import { describe, expect, it } from 'vitest'
import { artifactPath, launchBrowser, makeDirs, startApp, startHost } from './harness'
import { newProject, tid } from './ui'

describe('connection', () => {
  it('explains a missing token on a full page', async () => {
    const host = await startHost(makeDirs())
    const browser = await launchBrowser()
    try {
      const page = await browser.newPage()
      await page.goto(host.url.replace(/#.*$/, ''))
      const message = page.locator(tid('connect-error'))
      await message.waitFor()
      expect(await message.textContent()).toMatch(/could not connect/i)
      expect(await message.textContent()).toMatch(/token/i)
      expect(await page.locator(tid('studio')).count()).toBe(0)
      await page.screenshot({ path: artifactPath('connection-no-token.png') })
    } finally {
      await browser.close()
      await host.stop()
    }
  })

  it('shows a banner when the host goes away', async () => {
    const app = await startApp()
    try {
      await newProject(app.page, 'Lost')
      app.host.proc.kill('SIGKILL')
      const banner = app.page.locator(tid('connection-lost'))
      await banner.waitFor()
      expect(await banner.textContent()).toMatch(/Disconnected/)
      // Edits now fail visibly instead of silently.
      await app.page.click(tid('menu-add'))
      await app.page.click(tid('add-domain'))
      await app.page.locator(tid('error-toast')).waitFor()
      await app.page.screenshot({ path: artifactPath('connection-lost.png') })
    } finally {
      await app.close()
    }
  })
})
