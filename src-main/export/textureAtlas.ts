// One per-patch texture stack (FrameTexture: a surface flow's image per Catmull-Clark patch)
// as a single 8-bit RGBA image, the PNG export's atlas.
//
// Why this layout: a PNG holds one 2D image, and a stack of `layers` same-sized tiles packs
// most squarely (so stays within image viewers' and texture units' size limits longest) in a
// grid of cols = ceil(sqrt(layers)) columns and rows = ceil(layers / cols). Tiles go
// row-major from the top-left, as one reads, so patch l is at column l % cols and row
// floor(l / cols) counted from the top: a tool finds a patch's tile from the manifest's
// layout alone. Inside a tile the texel row j = 0 (the patch's v = 0 edge) is at the tile's
// BOTTOM, because image rows run top-down: the tile then looks like the patch seen with u
// to the right and v up, the way UV editors (Blender's, for one) draw UV space.
// Tiles past the last layer are transparent black (alpha 0), so they cannot be mistaken
// for a patch. Values:
//   3 components: linear RGB in [0, 1] (the 'color' convention of frame.ts), sRGB-encoded
//     (PNG viewers and texture loaders take 8-bit colour as sRGB), clamped, rounded.
//   1 component: grey from the texture's own min..max in this frame to 0..255 (a constant
//     texture is mid grey, 128; non-finite texels are black and do not count); the min and
//     max go to the manifest so the grey can be mapped back to values.
import { EddyError } from '../../src-shared/api/errors'
import { linearToSrgb } from '../../src-shared/formats/vertexColour'
import type { FrameTexture } from '../../src-shared/sim/frame'

export interface AtlasLayout {
  /** One tile (one patch's image), texels. */
  tileWidth: number
  tileHeight: number
  /** Tiles across and down; tile l is at column l % cols, row floor(l / cols) from the top. */
  cols: number
  rows: number
  /** Tiles in use (the rest are transparent). */
  layers: number
}

export interface TextureAtlas {
  width: number
  height: number
  /** width * height RGBA texels, 8 bits each, rows top-down. */
  rgba: Uint8Array
  layout: AtlasLayout
  /** 'srgb': linear RGB sRGB-encoded; 'range': 1-component values mapped min..max -> 0..255. */
  encoding: 'srgb' | 'range'
  /** 'range' only: the finite values' minimum and maximum (both 0 when there are none). */
  min?: number
  max?: number
}

export function atlasLayout(t: Pick<FrameTexture, 'width' | 'height' | 'layers'>): AtlasLayout {
  const cols = Math.ceil(Math.sqrt(t.layers))
  return { tileWidth: t.width, tileHeight: t.height, cols, rows: Math.ceil(t.layers / cols), layers: t.layers }
}

/** Throws INTERNAL for a texture whose sizes and data disagree (a solver or cache bug). */
export function textureAtlas(t: FrameTexture): TextureAtlas {
  const { width, height, layers, components, data } = t
  const whole = (n: number): boolean => Number.isInteger(n) && n > 0
  if (!whole(width) || !whole(height) || !whole(layers) || (components !== 1 && components !== 3) || data.length !== components * width * height * layers) {
    throw new EddyError('INTERNAL', `Texture "${t.name}" is malformed: ${width}x${height}x${layers} texels of ${components} components need ${components * width * height * layers} values, it has ${data.length}`, { texture: t.name })
  }
  const layout = atlasLayout(t)
  const atlasWidth = layout.cols * width
  const atlasHeight = layout.rows * height
  const rgba = new Uint8Array(4 * atlasWidth * atlasHeight) // unused tiles stay 0: transparent black

  let min = Infinity
  let max = -Infinity
  if (components === 1) {
    for (let n = 0; n < data.length; n++) {
      const v = data[n]
      if (!Number.isFinite(v)) continue
      if (v < min) min = v
      if (v > max) max = v
    }
    if (min > max) min = max = 0
  }
  const span = max - min
  const grey = (v: number): number => (!Number.isFinite(v) ? 0 : span > 0 ? Math.round((255 * (v - min)) / span) : 128)
  const srgb8 = (v: number): number => Math.round(255 * linearToSrgb(v))

  for (let l = 0; l < layers; l++) {
    const x0 = (l % layout.cols) * width
    const y0 = Math.floor(l / layout.cols) * height
    for (let j = 0; j < height; j++) {
      const y = y0 + (height - 1 - j) // v = 0 at the tile's bottom
      for (let i = 0; i < width; i++) {
        const src = components * (i + width * (j + height * l))
        const dst = 4 * (x0 + i + atlasWidth * y)
        if (components === 3) {
          rgba[dst] = srgb8(data[src])
          rgba[dst + 1] = srgb8(data[src + 1])
          rgba[dst + 2] = srgb8(data[src + 2])
        } else {
          rgba[dst] = rgba[dst + 1] = rgba[dst + 2] = grey(data[src])
        }
        rgba[dst + 3] = 255
      }
    }
  }
  return components === 3 ? { width: atlasWidth, height: atlasHeight, rgba, layout, encoding: 'srgb' } : { width: atlasWidth, height: atlasHeight, rgba, layout, encoding: 'range', min, max }
}
