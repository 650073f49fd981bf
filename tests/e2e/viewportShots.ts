// Viewport helpers the picture-checking e2e tests share: waiting for the camera to settle
// (framing animates), projecting world points to canvas pixels, and screenshots taken once the
// viewport has drawn a few more frames.
import type { Page } from 'playwright-core'
import { artifactPath } from './harness'
import { tid, waitFor } from './ui'

export const projectPoint = (page: Page, p: [number, number, number]) => page.evaluate((q) => window.__eddyViewport?.projectPoint?.(q) ?? null, p)
export const renderedFrames = (page: Page) => page.evaluate(() => window.__eddyViewport?.renderedFrames ?? 0)

/** Waits until the camera has stopped (a fixed point projects to the same pixel over several rendered frames). */
export async function cameraAtRest(page: Page): Promise<void> {
  let last = ''
  let same = 0
  await waitFor(
    async () => {
      const start = await renderedFrames(page)
      await waitFor(() => renderedFrames(page), (n) => n >= start + 2, 'the viewport to render', 60_000)
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
  const start = await renderedFrames(page)
  await waitFor(() => renderedFrames(page), (n) => n >= start + 3, 'the viewport to render', 60_000)
  return page.locator(tid('viewport-canvas')).screenshot({ path: artifactPath(name) })
}
