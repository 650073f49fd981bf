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
