// The hybrid-mesh smoke as a family: the bake's log line names the mesh it built (cells and the
// tetrahedra's dihedral angles, the "quality bounds reported" of issue 17), the estimate bounds
// the cells the bake really has, and a bad band width is refused by name.
import { describe, expect, it } from 'vitest'
import { rampJetScene } from '../../../../src-shared/scene/examples/hybridGases'
import { hybridFamily } from '../../../../src-shared/sim/hybrid/family'
import { CLOSED_BOX } from '../../../../src-shared/sim/core/boundaries'
import { HybridFields } from '../../../../src-shared/sim/hybrid/hybridFields'
import { buildHybridMesh } from '../../../../src-shared/sim/hybrid/hybridMesh'
import { TrackerParticles } from '../../../../src-shared/sim/hybrid/trackerParticles'

describe('tracker particles', () => {
  it.each([['closed', 40], ['open', 0]] as const)('carried against a %s side: %i of 40 kept (a wall stops them, an open side lets them go)', (side, kept) => {
    const grid = { nx: 8, ny: 8, nz: 8, dx: 1 / 8, origin: [0, 0, 0] as [number, number, number] }
    const sides = { ...CLOSED_BOX, xMax: side }
    const mesh = buildHybridMesh({ grid, obstacle: null, mode: 'hexahedra', bandCells: 1, sides })
    const f = new HybridFields(mesh, 293.15)
    for (let q = 0; q < mesh.faceCount; q++) f.z[q] = mesh.faceNormal[3 * q]
    const t = new TrackerParticles(100)
    for (let i = 0; i < 40; i++) t.add(0.9, 0.1 + 0.02 * i, 0.5)
    for (let s = 0; s < 4; s++) f.advect(0.1, t)
    expect(t.count).toBe(kept)
    for (let i = 0; i < t.count; i++) expect(t.x[i]).toBeLessThanOrEqual(1)
  })
})

describe('the hybrid family', () => {
  it.each(['hybrid', 'tetrahedra', 'hexahedra'] as const)('%s: the layout reports the cells and the dihedral angles; the estimate is an upper bound', (mode) => {
    const { doc } = rampJetScene({ resolution: 14, mode })
    const setup = hybridFamily.compileSetup(doc, 'domain', {})
    const layout = hybridFamily.layout(setup)
    const m = setup.initial.mesh
    if (mode !== 'hexahedra') {
      expect(layout).toMatch(new RegExp(`${m.tetCount.toLocaleString('en-US')} tetrahedra \\(dihedral angles \\d+\\.\\d-\\d+\\.\\d degrees\\)`))
      expect(m.quality!.minDihedral).toBeGreaterThan(5)
    } else expect(layout).not.toMatch(/tetrahedra \(/)
    if (mode !== 'tetrahedra') expect(layout).toContain(`${m.hexCount.toLocaleString('en-US')} hexahedra`)
    const est = hybridFamily.estimate({ doc, hostId: 'domain', frames: 10, precision: 'float16', checkpointEvery: 10 })
    expect(est.cells).toBeGreaterThanOrEqual(m.cellCount)
    expect(est.cells).toBeLessThan(3 * m.cellCount)
  })

  it('refuses a band width outside 1-16 cells by name', () => {
    const { doc } = rampJetScene({ resolution: 12 })
    doc.objects.find((o) => o.kind === 'domain')!.params.hybridBand = 0
    expect(() => hybridFamily.compileSetup(doc, 'domain', {})).toThrow(/Band width/)
  })
})
