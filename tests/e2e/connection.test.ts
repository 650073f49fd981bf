// Connection failures are explained on screen: a page opened without a session (no launch
// address used in this browser) gets a full-page message, a used launch address says so,
// and a host that goes away mid-session shows a banner.
import { describe, expect, it } from 'vitest'
import { artifactPath, launchBrowser, makeDirs, spawnHost, startApp, startHost } from './harness'
import { newProject, tid, waitForUi } from './ui'

describe('connection', () => {
  it('explains a missing session on a full page', async () => {
    const host = await startHost(makeDirs())
    const browser = await launchBrowser()
    try {
      const page = await browser.newPage()
      await page.goto(host.appUrl)
      const message = page.locator(tid('connect-error'))
      await message.waitFor()
      expect(await message.textContent()).toMatch(/could not connect/i)
      expect(await message.textContent()).toMatch(/launch address/i)
      expect(await page.locator(tid('studio')).count()).toBe(0)
      // An old-style address with the secret in the fragment opens nothing either.
      await page.goto(`${host.appUrl}#token=${host.session}`)
      await page.reload()
      await page.locator(tid('connect-error')).waitFor()
      await page.screenshot({ path: artifactPath('connection-no-token.png') })
    } finally {
      await browser.close()
      await host.stop()
    }
  })

  it('opens the UI from the launch address once; a second browser gets the already-used page', async () => {
    const host = await spawnHost(makeDirs())
    const browser = await launchBrowser()
    try {
      const first = await browser.newContext()
      const page = await first.newPage()
      await page.goto(host.launchUrl)
      await waitForUi(page)
      // The address bar no longer shows the code, and the page cannot read the cookie.
      expect(page.url()).toBe(host.appUrl)
      expect(await page.evaluate(() => document.cookie)).toBe('')
      const cookie = (await first.cookies(host.appUrl)).find((c) => c.name === host.cookieName)
      expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Strict', domain: '127.0.0.1', path: '/' })
      // Another tab of the same browser shares the session.
      const tab = await first.newPage()
      await tab.goto(host.appUrl)
      await waitForUi(tab)

      const other = await browser.newContext()
      const late = await other.newPage()
      const resp = await late.goto(host.launchUrl)
      expect(resp?.status()).toBe(403)
      expect(await late.textContent('body')).toMatch(/already used/i)
      expect(await other.cookies(host.appUrl)).toEqual([])
      await late.screenshot({ path: artifactPath('connection-launch-used.png') })
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
