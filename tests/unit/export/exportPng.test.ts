// PNG export of per-patch textures (surface flows): one RGBA atlas per texture per frame,
// read back with pngjs texel by texel: tile placement in the near-square grid, v up inside a
// tile, sRGB encoding of linear colour, transparent unused tiles, scalar textures as grey over
// their min..max; the manifest's layout; names; frames without textures; the refusal.
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { PNG } from 'pngjs'
import { afterAll, describe, expect, it } from 'vitest'
import { runExport, type ExportManifest } from '../../../src-main/export/exportJob'
import { atlasLayout, textureAtlas } from '../../../src-main/export/textureAtlas'
import { EddyError } from '../../../src-shared/api/errors'
import { decodeFrame, encodeFrame } from '../../../src-shared/formats/frameRecord'
import type { FrameData, FrameTexture } from '../../../src-shared/sim/frame'
import { boxMesh, frameOf, liquidSource, smokeSource, sourceOf } from './fixtures'
import { listDir, removeTempDirs, tempDir } from './readBack'

afterAll(removeTempDirs)

const LAYER_RED = [0, 0.5, 1] // linear; sRGB 8-bit 0, 188, 255
const srgbOf = (linear: number): number => ({ 0: 0, 0.5: 188, 1: 255 })[linear]!

/** 3 layers of 2x2 linear RGB: red from the layer, green from i (0, 1), blue from j (0, 0.5). */
function colourTexture(): FrameTexture {
  const width = 2, height = 2, layers = 3
  const data = new Float32Array(3 * width * height * layers)
  for (let l = 0; l < layers; l++)
    for (let j = 0; j < height; j++)
      for (let i = 0; i < width; i++) data.set([LAYER_RED[l], i, 0.5 * j], 3 * (i + width * (j + height * l)))
  return { name: 'color', width, height, layers, components: 3, data }
}

/** 2 layers of 3x2 scalars: -1 + 0.5 * (6 l + i + 3 j), so min -1, max 4.5, each value once. */
const scalarValue = (l: number, i: number, j: number): number => -1 + 0.5 * (6 * l + i + 3 * j)
function scalarTexture(offset = 0): FrameTexture {
  const width = 3, height = 2, layers = 2
  const data = new Float32Array(width * height * layers)
  for (let l = 0; l < layers; l++) for (let j = 0; j < height; j++) for (let i = 0; i < width; i++) data[i + width * (j + height * l)] = scalarValue(l, i, j) + offset
  return { name: 'height', width, height, layers, components: 1, data }
}

const withTextures = (frame: number, textures: FrameTexture[] | undefined): FrameData => ({ ...frameOf(frame, { meshes: [boxMesh('surface', [0, 0, 0], [1, 1, 1])] }), textures })

function readPng(path: string): { width: number; height: number; px: (x: number, y: number) => number[] } {
  const png = PNG.sync.read(readFileSync(path))
  expect([png.colorType, png.depth, png.alpha]).toEqual([6, 8, true]) // RGBA, 8 bits
  return { width: png.width, height: png.height, px: (x, y) => Array.from(png.data.subarray(4 * (x + png.width * y), 4 * (x + png.width * y) + 4)) }
}

async function failure(p: Promise<unknown>): Promise<EddyError> {
  try {
    await p
  } catch (e) {
    return e as EddyError
  }
  throw new Error('expected the export to fail')
}

describe('texture atlas layout', () => {
  it('uses ceil(sqrt(layers)) columns and as many rows as needed', () => {
    const grid = (layers: number) => {
      const l = atlasLayout({ width: 4, height: 3, layers })
      return [l.cols, l.rows]
    }
    expect([1, 2, 3, 4, 5, 9, 10, 24].map(grid)).toEqual([[1, 1], [2, 1], [2, 2], [2, 2], [3, 2], [3, 3], [4, 3], [5, 5]])
    expect(atlasLayout({ width: 4, height: 3, layers: 5 })).toEqual({ tileWidth: 4, tileHeight: 3, cols: 3, rows: 2, layers: 5 })
  })

  it('clamps colour to [0, 1] before sRGB encoding and makes NaN black', () => {
    const t: FrameTexture = { name: 'color', width: 2, height: 2, layers: 1, components: 3, data: new Float32Array([2, -1, NaN, 0.001, 0.5, 1, 0.25, 0.75, 0, 0, 0, 0]) }
    const a = textureAtlas(t)
    expect([a.width, a.height, a.encoding]).toEqual([2, 2, 'srgb'])
    // Row j = 0 is the image's bottom row (y = 1).
    expect(Array.from(a.rgba.subarray(8, 16))).toEqual([255, 0, 0, 255, 3, 188, 255, 255])
    expect(Array.from(a.rgba.subarray(0, 8))).toEqual([137, 225, 0, 255, 0, 0, 0, 255])
  })

  it('maps a constant scalar texture to mid grey and refuses data of the wrong length', () => {
    const flat = textureAtlas({ name: 'h', width: 2, height: 1, layers: 1, components: 1, data: new Float32Array([3, 3]) })
    expect([flat.min, flat.max, Array.from(flat.rgba)]).toEqual([3, 3, [128, 128, 128, 255, 128, 128, 128, 255]])
    expect(() => textureAtlas({ name: 'bad', width: 2, height: 2, layers: 2, components: 3, data: new Float32Array(10) })).toThrow(/Texture "bad" is malformed: .* need 24 values, it has 10/)
  })
})

describe('runExport: png', () => {
  it('writes one atlas per texture per frame: tiles row-major from the top, v up, sRGB, transparent spare tile', async () => {
    const dir = tempDir()
    const src = sourceOf('Surface flow', [1, 2], (f) => withTextures(f, [colourTexture(), scalarTexture(f - 1)]))
    const m = await runExport(src, { format: 'png', outDir: dir })
    expect(listDir(dir)).toEqual([
      'Surface_flow_color_0001.png', 'Surface_flow_color_0002.png', 'Surface_flow_height_0001.png', 'Surface_flow_height_0002.png', 'Surface_flow_png_manifest.json',
    ])
    expect(JSON.parse(readFileSync(join(dir, 'Surface_flow_png_manifest.json'), 'utf8'))).toEqual(m)
    expect(m.format).toBe('png')

    const img = readPng(join(dir, 'Surface_flow_color_0002.png'))
    expect([img.width, img.height]).toEqual([4, 4]) // 2 x 2 tiles of 2 x 2 texels
    for (let l = 0; l < 3; l++) {
      const x0 = 2 * (l % 2), y0 = 2 * Math.floor(l / 2)
      for (let j = 0; j < 2; j++)
        for (let i = 0; i < 2; i++) {
          // Texel row j = 0 (v = 0) is the tile's bottom image row.
          expect(img.px(x0 + i, y0 + 1 - j), `layer ${l} texel ${i},${j}`).toEqual([srgbOf(LAYER_RED[l]), i ? 255 : 0, j ? 188 : 0, 255])
        }
    }
    for (const [x, y] of [[2, 2], [3, 2], [2, 3], [3, 3]]) expect(img.px(x, y)).toEqual([0, 0, 0, 0]) // tile 3 unused

    const colour = m.files.find((f) => f.path === 'Surface_flow_color_0001.png')!
    expect(colour).toEqual({
      frame: 1, path: 'Surface_flow_color_0001.png', kind: 'texture', name: 'color', counts: { layers: 3 },
      texture: { tileWidth: 2, tileHeight: 2, cols: 2, rows: 2, layers: 3, components: 3, encoding: 'srgb' },
    })
  })

  it("maps a scalar texture's min..max in each frame to grey 0..255 and records them", async () => {
    const dir = tempDir()
    const src = sourceOf('flow', [1, 2], (f) => withTextures(f, [scalarTexture(10 * (f - 1))]))
    const m = await runExport(src, { format: 'png', outDir: dir, upAxis: 'z' }) // the up axis is ignored
    // A frame's only texture takes the unqualified name, as any single item does.
    expect(listDir(dir)).toEqual(['flow_0001.png', 'flow_0002.png', 'flow_png_manifest.json'])
    expect(m.files.map((f) => [f.frame, f.kind, f.name, f.texture])).toEqual([
      [1, 'texture', 'height', { tileWidth: 3, tileHeight: 2, cols: 2, rows: 1, layers: 2, components: 1, encoding: 'range', min: -1, max: 4.5 }],
      [2, 'texture', 'height', { tileWidth: 3, tileHeight: 2, cols: 2, rows: 1, layers: 2, components: 1, encoding: 'range', min: 9, max: 14.5 }],
    ])
    for (const file of ['flow_0001.png', 'flow_0002.png']) {
      const img = readPng(join(dir, file))
      expect([img.width, img.height]).toEqual([6, 2]) // two 3 x 2 tiles side by side
      for (let l = 0; l < 2; l++)
        for (let j = 0; j < 2; j++)
          for (let i = 0; i < 3; i++) {
            const g = Math.round((255 * (scalarValue(l, i, j) + 1)) / 5.5)
            expect(img.px(3 * l + i, 1 - j), `${file} layer ${l} texel ${i},${j}`).toEqual([g, g, g, 255])
          }
      expect(img.px(0, 1)).toEqual([0, 0, 0, 255]) // layer 0, (0, 0): the minimum
      expect(img.px(5, 0)).toEqual([255, 255, 255, 255]) // layer 1, (2, 1): the maximum
    }
  })

  it('writes nothing for a frame without textures and goes on with the next', async () => {
    const dir = tempDir()
    const src = sourceOf('gaps', [1, 2, 3], (f) => withTextures(f, f === 2 ? undefined : [colourTexture()]))
    const m = await runExport(src, { format: 'png', outDir: dir, padding: 2 })
    expect(listDir(dir)).toEqual(['gaps_01.png', 'gaps_03.png', 'gaps_png_manifest.json'])
    expect(m.files.map((f) => f.frame)).toEqual([1, 3])
    expect([m.frameStart, m.frameEnd]).toEqual([1, 3])
  })

  it.each([
    ['a smoke simulation', () => smokeSource([1, 2]), '"Smoke Plume #1"'],
    ['a liquid simulation', () => liquidSource([1, 2]), '"liquid"'],
    ['empty texture lists', () => sourceOf('flat', [1, 2], (f) => withTextures(f, [])), '"flat"'],
  ])('refuses %s (no textures) with INVALID_PARAM and writes nothing', async (_, make, sim) => {
    const dir = tempDir()
    const e = await failure(runExport(make(), { format: 'png', outDir: dir }))
    expect(e).toBeInstanceOf(EddyError)
    expect(e.code).toBe('INVALID_PARAM')
    expect(e.details).toMatchObject({ field: 'format' })
    expect(e.message).toBe(`${sim} has no per-patch textures to write as PNG; PNG atlases come from surface flows (checked on frame 1, the first of the range)`)
    expect(listDir(dir)).toEqual([])
  })

  it('exports textures that went through the frame cache record (what cacheExportSource reads)', async () => {
    const dir = tempDir()
    const records = new Map([1, 2].map((f) => [f, encodeFrame(withTextures(f, [colourTexture(), scalarTexture(f)]))]))
    const src = sourceOf('cached', [1, 2], (f) => decodeFrame(records.get(f)!))
    const m = await runExport(src, { format: 'png', outDir: dir })
    expect(m.files.map((f) => [f.path, f.texture?.min, f.texture?.max])).toEqual([
      ['cached_color_0001.png', undefined, undefined],
      ['cached_height_0001.png', 0, 5.5],
      ['cached_color_0002.png', undefined, undefined],
      ['cached_height_0002.png', 1, 6.5],
    ])
    const img = readPng(join(dir, 'cached_color_0002.png'))
    expect(img.px(2, 1)).toEqual([188, 0, 0, 255]) // layer 1, texel (0, 0): bottom-left of the top-right tile
    expect(img.px(3, 3)).toEqual([0, 0, 0, 0])
  })

  it('reports every atlas written as progress', async () => {
    const seen: string[] = []
    const m: ExportManifest = await runExport(sourceOf('p', [5], (f) => withTextures(f, [colourTexture(), scalarTexture()])), { format: 'png', outDir: tempDir() }, { onProgress: (p) => seen.push(p.file) })
    expect(seen).toEqual(['p_color_0005.png', 'p_height_0005.png'])
    expect(m.files).toHaveLength(2)
  })
})
