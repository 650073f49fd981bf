// Solver frames to OpenVDB: the Y-up to Z-up conversion puts every cell and vector where the
// world transform says, and a real smoke frame written to .vdb reads back in OpenVDB's own
// vdb_print with the expected grids, voxel counts and voxel size.
import { execFileSync } from 'node:child_process'
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { vdbGridsFromVolumes, writeVdbWithSummary } from '../../../src-shared/formats/openvdb'
import type { Volume } from '../../../src-shared/sim/frame'
import { blenderSmokeScene } from '../../../src-shared/sim/smoke/benchScene'
import { compileSmokeInput as compileInput, compileSmokeScene as compileScene } from '../../../src-shared/sim/smoke/compileSmoke'
import { SmokeSolver } from '../../../src-shared/sim/smoke/smokeSolver'

/** World centre of a grid cell, from a grid's origin (min corner) and voxel size. */
const centre = (origin: number[], h: number, ijk: number[]): number[] => ijk.map((n, a) => origin[a] + (n + 0.5) * h)

describe('volumes to OpenVDB grids', () => {
  it('keeps Y-up volumes as they are and maps Z-up cells and vectors to the same world points', () => {
    const dims: [number, number, number] = [3, 4, 5]
    const h = 0.1
    const origin: [number, number, number] = [1, 2, 3]
    const density = new Float32Array(60)
    const velocity = new Float32Array(180)
    const at = [2, 1, 3] // one marked cell
    const c = at[0] + 3 * (at[1] + 4 * at[2])
    density[c] = 7
    velocity.set([0.1, 0.2, 0.3], 3 * c)
    const vols: Volume[] = [
      { name: 'density', components: 1, dims, voxelSize: h, origin, data: density },
      { name: 'velocity', components: 3, dims, voxelSize: h, origin, data: velocity },
    ]
    const yUp = vdbGridsFromVolumes(vols)
    expect(yUp[0].data).toBe(density)
    expect(yUp[1].type).toBe('vec3s')

    const [zd, zv] = vdbGridsFromVolumes(vols, { zUp: true })
    expect(zd.dims).toEqual([3, 5, 4])
    const idx = zd.data.findIndex((x) => x === 7)
    const ijk = [idx % 3, Math.floor(idx / 3) % 5, Math.floor(idx / 15)]
    const [x, y, z] = centre(origin, h, at)
    // (x, y, z) in Eddy is (x, -z, y) in a Z-up tool.
    centre(zd.origin, h, ijk).forEach((v, a) => expect(v).toBeCloseTo([x, -z, y][a], 9))
    expect(Array.from(zv.data.slice(3 * idx, 3 * idx + 3)).map((v) => +v.toFixed(6))).toEqual([0.1, -0.3, 0.2])
  })

  const vdbPrint = '/usr/bin/vdb_print'
  it.skipIf(!existsSync(vdbPrint))('writes a baked smoke frame that vdb_print reads (skipped without libopenvdb-tools)', () => {
    const doc = blenderSmokeScene(16)
    const domain = doc.objects.find((o) => o.kind === 'domain')!
    const setup = compileScene(doc, domain.id)
    const solver = new SmokeSolver(setup)
    for (let f = 0; f < 6; f++) solver.step(1 / 24, compileInput(doc, domain.id, f / 24, 24, { meshes: setup.meshes }))
    const frame = solver.frame()
    const { bytes, grids } = writeVdbWithSummary(vdbGridsFromVolumes(frame.volumes, { zUp: true }))
    const file = join(mkdtempSync(join(tmpdir(), 'eddy-vdb-')), 'smoke_0006.vdb')
    writeFileSync(file, bytes)
    const out = execFileSync(vdbPrint, ['-l', '-m', file], { encoding: 'utf8' })
    for (const g of grids) {
      expect(out).toContain(`Name: ${g.name}`)
      const block = out.slice(out.indexOf(`Name: ${g.name}`))
      const count = /Number of active voxels:\s+([\d,]+)/.exec(block)![1].replace(/,/g, '')
      expect(Number(count)).toBe(g.activeVoxels)
    }
    const density = frame.volumes.find((v) => v.name === 'density')!
    expect(grids.find((g) => g.name === 'density')!.activeVoxels).toBe(density.data.filter((v) => v !== 0).length)
    expect(out).toMatch(/voxel size: 0\.125/)
    expect(out).toContain('Tree_vec3s_5_4_3')
  })
})

describe('level sets and backgrounds', () => {
  const dims: [number, number, number] = [24, 24, 24]
  const h = 0.1
  /** Signed distance to a sphere of radius 0.8 in the middle, clamped to three cells. */
  function sphere(): Float32Array {
    const d = new Float32Array(24 ** 3)
    for (let k = 0; k < 24; k++) for (let j = 0; j < 24; j++) for (let i = 0; i < 24; i++) d[i + 24 * (j + 24 * k)] = Math.max(-3 * h, Math.min(3 * h, Math.hypot(i - 11.5, j - 11.5, k - 11.5) * h - 0.8))
    return d
  }

  it("writes the liquid's distance as a level set 'surface': band active, interior kept inside", () => {
    const data = sphere()
    const [grid] = vdbGridsFromVolumes([{ name: 'liquid', components: 1, dims, voxelSize: h, origin: [0, 0, 0], data }])
    expect(grid).toMatchObject({ name: 'surface', gridClass: 'level set' })
    expect(grid.background).toBeCloseTo(0.3, 12)
    const { grids } = writeVdbWithSummary([grid])
    expect(grids[0].activeVoxels).toBe(data.filter((d) => Math.abs(d) < 0.3).length)
    // The sphere's 8^3 block at the centre has no band cell but is inside: it is still written
    // (inactive, at -background), so the 27 blocks of the 24^3 grid are all there.
    expect(grids[0].leafCount).toBe(27)
  })

  it('refuses a level set without a positive background', () => {
    expect(() => writeVdbWithSummary([{ name: 's', type: 'float', dims: [8, 8, 8], voxelSize: 1, origin: [0, 0, 0], data: new Float32Array(512), gridClass: 'level set' }])).toThrow(/positive background/)
  })

  it('uses the value most cells hold as a scalar grid background, so air at ambient stays inactive', () => {
    const t = new Float32Array(24 ** 3).fill(293.15)
    t[100] = 400
    t[101] = 0
    const [grid] = vdbGridsFromVolumes([{ name: 'temperature', components: 1, dims, voxelSize: h, origin: [0, 0, 0], data: t }])
    expect(grid.background).toBeCloseTo(293.15, 4)
    expect(writeVdbWithSummary([grid]).grids[0].activeVoxels).toBe(2)
    // Smoke density: mostly zero, background 0 as before.
    const d = new Float32Array(24 ** 3)
    d[5] = 1
    expect(vdbGridsFromVolumes([{ name: 'density', components: 1, dims, voxelSize: h, origin: [0, 0, 0], data: d }])[0].background).toBe(0)
  })
})
