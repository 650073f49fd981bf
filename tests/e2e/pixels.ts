// Reads a PNG screenshot and measures what is in it, so tests can tell a drawn viewport
// from a blank one and see that adding an object changed the picture.
import { PNG } from 'pngjs'

export interface PixelStats {
  width: number
  height: number
  /** Variance of luminance over all pixels (0 for a flat image). */
  variance: number
  /** How many distinct colours (quantised to 5 bits per channel) appear. */
  colours: number
}

export function pixelStats(png: Buffer): PixelStats {
  const img = PNG.sync.read(png)
  let sum = 0
  let sumSq = 0
  const colours = new Set<number>()
  const n = img.width * img.height
  for (let p = 0; p < n; p++) {
    const r = img.data[4 * p]
    const g = img.data[4 * p + 1]
    const b = img.data[4 * p + 2]
    const y = 0.2126 * r + 0.7152 * g + 0.0722 * b
    sum += y
    sumSq += y * y
    colours.add(((r >> 3) << 10) | ((g >> 3) << 5) | (b >> 3))
  }
  const mean = sum / n
  return { width: img.width, height: img.height, variance: sumSq / n - mean * mean, colours: colours.size }
}

/** Fraction of pixels whose colour differs by more than `threshold` (0..255) in any channel. */
export function changedFraction(a: Buffer, b: Buffer, threshold = 24): number {
  const x = PNG.sync.read(a)
  const y = PNG.sync.read(b)
  if (x.width !== y.width || x.height !== y.height) return 1
  let changed = 0
  for (let i = 0; i < x.data.length; i += 4) {
    if (Math.abs(x.data[i] - y.data[i]) > threshold || Math.abs(x.data[i + 1] - y.data[i + 1]) > threshold || Math.abs(x.data[i + 2] - y.data[i + 2]) > threshold) changed++
  }
  return changed / (x.width * x.height)
}
