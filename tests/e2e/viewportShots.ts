// Viewport helpers the picture-checking e2e tests share: waiting for the camera to settle
// (framing animates), projecting world points to canvas pixels, and screenshots taken once the
// viewport has drawn a few more frames.
import type { Page } from 'playwright-core'
import { artifactPath } from './harness'
import { tid, waitFor } from './ui'

export const projectPoint = (page: Page, p: [number, number, number]) => page.evaluate((q) => window.__eddyViewport?.projectPoint?.(q) ?? null, p)
export const renderedFrames = (page: Page) => page.evaluate(() => window.__eddyViewport?.renderedFrames ?? 0)

/**
 * Waits until the viewport has drawn `n` more frames, asking for draws at the display's rate
 * (as any change on screen does) rather than waiting on the idle floor's one a second.
 */
export async function afterDraws(page: Page, n: number, timeoutMs = 60_000): Promise<void> {
  const start = await renderedFrames(page)
  await page.evaluate(() => window.__eddyViewport?.requestDraws?.())
  await waitFor(() => renderedFrames(page), (k) => k >= start + n, 'the viewport to render', timeoutMs)
}

/** Waits until the camera has stopped (a fixed point projects to the same pixel over several rendered frames). */
export async function cameraAtRest(page: Page): Promise<void> {
  let last = ''
  let same = 0
  await waitFor(
    async () => {
      await afterDraws(page, 2)
      const p = JSON.stringify(await projectPoint(page, [0, 1, 0]))
      same = p === last ? same + 1 : 0
      last = p
      return same
    },
    (n) => n >= 3,
    'the camera to come to rest',
    60_000,
  )
}

/** A screenshot of the canvas once the viewport has drawn a few more frames (also saved as a test artifact). */
export async function viewportShot(page: Page, name: string): Promise<Buffer> {
  await afterDraws(page, 3)
  return page.locator(tid('viewport-canvas')).screenshot({ path: artifactPath(name) })
}
