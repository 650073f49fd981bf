// A uniform flow through an empty hybrid mesh stays uniform across the tetrahedral/hexahedral
// transition (issue: spurious velocity below 1e-6 of the flow). The mesh has a slab of
// tetrahedra across the whole channel, so the flow enters and leaves it through split transition
// faces; the channel is open at both ends (ambient pressure) and closed along its sides, which
// the flow runs parallel to. Each substep runs exactly what the solver runs: advection (MLS
// vertex field, eq. 11 carried values, trilinear in plain hexahedra), forces (buoyancy and
// vorticity confinement, which a uniform flow must not feel), closed faces, projection.
// The answer is known from outside: u = U everywhere, for ever.
import { describe, expect, it } from 'vitest'
import type { GridSpec } from '../../../src-shared/sim/core/grid'
import { HybridFields } from '../../../src-shared/sim/hybrid/hybridFields'
import type { HybridPayload } from '../../../src-shared/sim/hybrid/hybridInput'
import { buildHybridMesh, CELL_TET, CELL_TRANSITION } from '../../../src-shared/sim/hybrid/hybridMesh'
import { HybridObstacles } from '../../../src-shared/sim/hybrid/hybridObstacles'
import { TrackerParticles } from '../../../src-shared/sim/hybrid/trackerParticles'

const U = [0.8, 0, 0]

function payload(): HybridPayload {
  return {
    vorticity: 0.3,
    buoyancy: { alpha: 0.1, beta: 9.81 / 293.15, ambientTemperature: 293.15 },
    dissipation: { density: 0, temperature: 0 },
    vortex: { confinement: 0, radiusCells: 4 },
    vortexSeeds: [],
    tolerance: 1e-10,
  }
}

describe('uniform flow through a hybrid mesh', () => {
  it.each([12, 20])('stays uniform to 1e-6 of the flow across the transition (%i cubes a side, 8 substeps at 1.5 cells each)', (n) => {
    const grid: GridSpec = { nx: n, ny: Math.round(n / 2), nz: Math.round(n / 2), dx: 1 / n, origin: [0, 0, 0] }
    const roles = new Uint8Array(grid.nx * grid.ny * grid.nz)
    for (let k = 0; k < grid.nz; k++) for (let j = 0; j < grid.ny; j++) for (let i = 0; i < grid.nx; i++) {
      if (i >= n / 3 && i < (2 * n) / 3) roles[i + grid.nx * (j + grid.ny * k)] = 1
    }
    const sides = { xMin: 'open', xMax: 'open', yMin: 'closed', yMax: 'closed', zMin: 'closed', zMax: 'closed' } as const
    const mesh = buildHybridMesh({ grid, obstacle: null, mode: 'hybrid', bandCells: 1, sides, cubeRoles: roles })
    const kinds = [0, 0, 0]
    for (let c = 0; c < mesh.cellCount; c++) kinds[mesh.cellKind[c]]++
    expect(kinds[CELL_TET]).toBeGreaterThan(0)
    expect(kinds[CELL_TRANSITION]).toBeGreaterThan(0)
    const f = new HybridFields(mesh, 293.15)
    for (let q = 0; q < mesh.faceCount; q++) f.z[q] = U[0] * mesh.faceNormal[3 * q] + U[1] * mesh.faceNormal[3 * q + 1] + U[2] * mesh.faceNormal[3 * q + 2]
    const obstacles = new HybridObstacles([], 0)
    const trackers = new TrackerParticles(0)
    const h = (1.5 * grid.dx) / U[0]
    for (let s = 0; s < 8; s++) {
      f.advect(h, trackers)
      f.addForces(h, payload())
      f.setClosedFaces(obstacles)
      f.project(1e-10)
    }
    let worst = 0
    for (let q = 0; q < mesh.faceCount; q++) {
      const exact = U[0] * mesh.faceNormal[3 * q] + U[1] * mesh.faceNormal[3 * q + 1] + U[2] * mesh.faceNormal[3 * q + 2]
      worst = Math.max(worst, Math.abs(f.z[q] - exact))
    }
    console.log(`${n} cubes: ${mesh.hexCount} hexahedra (${kinds[CELL_TRANSITION]} transition), ${mesh.tetCount} tetrahedra; worst spurious velocity ${(worst / U[0]).toExponential(2)} of the flow`)
    expect(worst / U[0]).toBeLessThan(1e-6)
  })
})
