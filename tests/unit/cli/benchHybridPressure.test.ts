// `eddy bench hybrid` compares AMG-CG with MGPCG on the all-hexahedral mesh's pressure system,
// claiming the grid solver is given the same system (benchHybridPressure.ts). Checked by
// projecting one velocity field both ways, to a tight tolerance: the hybrid projection and the
// smoke family's grid projection must leave the same face velocities.
import { describe, expect, it } from 'vitest'
import { gridFractionsOf } from '../../../src-main/cli/benchHybridPressure'
import type { DomainSides } from '../../../src-shared/sim/core/boundaries'
import { MacGrid, type GridSpec } from '../../../src-shared/sim/core/grid'
import { PressureSolver } from '../../../src-shared/sim/core/pressure'
import { Prng } from '../../../src-shared/sim/core/prng'
import { buildHybridMesh, FACE_INTERIOR, FACE_OPEN } from '../../../src-shared/sim/hybrid/hybridMesh'
import { HybridProjection } from '../../../src-shared/sim/hybrid/hybridProjection'

describe('the bench\'s grid twin of an all-hexahedral hybrid mesh', () => {
  it('projects a random flow to the same face velocities as the hybrid projection (within 1e-6 of the flow: the grid keeps float32), obstacle, walls and open sides included', () => {
    const n = 14
    const grid: GridSpec = { nx: n, ny: n, nz: n, dx: 1 / n, origin: [0, 0, 0] }
    const sides: DomainSides = { xMin: 'open', xMax: 'closed', yMin: 'closed', yMax: 'open', zMin: 'closed', zMax: 'closed' }
    const ball = (x: number, y: number, z: number) => Math.hypot(x - 0.5, y - 0.4, z - 0.5) - 0.2
    const mesh = buildHybridMesh({ grid, obstacle: ball, mode: 'hexahedra', bandCells: 2, sides })
    expect(mesh.tetCount).toBe(0)
    const fractions = new MacGrid(grid), vel = new MacGrid(grid)
    gridFractionsOf(mesh, fractions)
    // One random flow on the open and interior faces, as mesh face normal velocities and as grid components.
    const rng = new Prng(3)
    const z = new Float64Array(mesh.faceCount)
    const cu = vel.u.length, cv = vel.v.length
    const at = (g: number): [Float32Array, number] => (g < cu ? [vel.u, g] : g < cu + cv ? [vel.v, g - cu] : [vel.w, g - cu - cv])
    const axisOf = (f: number) => (Math.abs(mesh.faceNormal[3 * f]) > 0.5 ? 0 : Math.abs(mesh.faceNormal[3 * f + 1]) > 0.5 ? 1 : 2)
    let faces = 0, open = 0
    for (let f = 0; f < mesh.faceCount; f++) {
      const kind = mesh.faceKind[f]
      if (kind !== FACE_INTERIOR && kind !== FACE_OPEN) continue
      // float32 values, so both sides start from the same numbers
      z[f] = Math.fround(rng.range(-1, 1))
      const [arr, i] = at(mesh.faceGridFace[f])
      arr[i] = z[f] * mesh.faceNormal[3 * f + axisOf(f)]
      faces++
      if (kind === FACE_OPEN) open++
    }
    expect(open).toBeGreaterThan(0)
    new HybridProjection(mesh).project(z, { tolerance: 1e-12, maxIterations: 2000 })
    new PressureSolver(grid, { tolerance: 1e-12, maxIterations: 2000 }).project(vel, fractions)
    let worst = 0, scale = 0
    for (let f = 0; f < mesh.faceCount; f++) {
      const kind = mesh.faceKind[f]
      if (kind !== FACE_INTERIOR && kind !== FACE_OPEN) continue
      const [arr, i] = at(mesh.faceGridFace[f])
      worst = Math.max(worst, Math.abs(arr[i] - z[f] * mesh.faceNormal[3 * f + axisOf(f)]))
      scale = Math.max(scale, Math.abs(z[f]))
    }
    console.log(`${faces} faces (${open} open): largest difference ${worst.toExponential(2)} of a flow up to ${scale.toFixed(2)}`)
    expect(worst / scale).toBeLessThan(1e-6)
  })
})
