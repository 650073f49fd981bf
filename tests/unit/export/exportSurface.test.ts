// Exports of a baked surface flow (Stam 2003, issue 14), from frames the surface family makes:
// PLY carries the painted surface with its colour (sRGB bytes) and density per vertex, glTF
// carries COLOR_0 and _DENSITY per frame, and the values read back are the frame's own.
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { runExport } from '../../../src-main/export/exportJob'
import { linearToSrgb } from '../../../src-shared/formats/vertexColour'
import type { FrameData } from '../../../src-shared/sim/frame'
import { createBakeSolver } from '../../../src-shared/sim/registry'
import { surfaceFamily } from '../../../src-shared/sim/surface/family'
import { sourceOf } from './fixtures'
import { listDir, readPly, removeTempDirs, tempDir } from './readBack'

afterAll(removeTempDirs)

/** Frames 1-3 of the family's own painted-cube scene. */
function bakedFrames(): FrameData[] {
  const { doc, hostId } = surfaceFamily.conformanceScene()
  const s = createBakeSolver(doc, hostId)
  const out: FrameData[] = []
  for (let f = 1; f <= 3; f++) {
    s.stepFrame(f)
    out.push({ ...s.frame(), frame: f })
  }
  return out
}

describe('exporting a baked surface flow', () => {
  const frames = bakedFrames()
  const source = sourceOf('Painted cube', [1, 2, 3], (f) => frames[f - 1])

  it('PLY: the surface with red, green, blue bytes (sRGB of the linear colour) and the density per vertex', async () => {
    const dir = tempDir()
    await runExport(source, { format: 'ply', outDir: dir, upAxis: 'y' })
    const plys = listDir(dir).filter((f) => f.endsWith('.ply'))
    expect(plys.length).toBe(3)
    const ply = readPly(new Uint8Array(readFileSync(join(dir, plys[2]))))
    const mesh = frames[2].meshes[0]
    const n = mesh.positions.length / 3
    expect(ply.vertex.x.length).toBe(n)
    expect(ply.faces.length).toBe(mesh.indices.length / 3)
    const col = mesh.attributes!.color.data, dens = mesh.attributes!.density.data
    let painted = 0
    for (let v = 0; v < n; v++) {
      expect(ply.vertex.density[v]).toBe(dens[v])
      expect(Math.abs(ply.vertex.red[v] - Math.round(255 * linearToSrgb(Math.min(1, Math.max(0, col[3 * v])))))).toBeLessThanOrEqual(1)
      if (dens[v] > 0.1) painted++
    }
    expect(painted).toBeGreaterThan(10)
  })

  it('glTF: COLOR_0 and _density on the surface of every frame', async () => {
    const dir = tempDir()
    await runExport(source, { format: 'gltf', outDir: dir })
    const files = listDir(dir).filter((f) => f.endsWith('.gltf'))
    expect(files.length).toBe(3)
    const gltf = JSON.parse(readFileSync(join(dir, files[2]), 'utf8')) as { meshes: { primitives: { attributes: Record<string, number> }[] }[]; accessors: { count: number }[] }
    const attrs = gltf.meshes[0].primitives[0].attributes
    expect(Object.keys(attrs)).toEqual(expect.arrayContaining(['POSITION', 'NORMAL', 'COLOR_0', '_density']))
    expect(gltf.accessors[attrs.COLOR_0].count).toBe(frames[2].meshes[0].positions.length / 3)
  })
})
