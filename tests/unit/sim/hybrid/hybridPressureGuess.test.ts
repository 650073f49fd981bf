// The hybrid mesh's projection at a step starts from the pressure extrapolated in time
// (core/pressureGuess.ts, HybridFields.project with the step's length): a pressure growing
// linearly in time is guessed to the tolerance, so PCG has next to nothing left to do at the
// third step, where the warm start from the last solve alone leaves a third of the answer.
import { describe, expect, it } from 'vitest'
import type { GridSpec } from '../../../../src-shared/sim/core/grid'
import { HybridFields } from '../../../../src-shared/sim/hybrid/hybridFields'
import { buildHybridMesh, FACE_OBSTACLE } from '../../../../src-shared/sim/hybrid/hybridMesh'
import { HybridObstacles } from '../../../../src-shared/sim/hybrid/hybridObstacles'

const R = 0.2, C = [0.5, 0.5, 0.5]
const sphere = (x: number, y: number, z: number) => Math.hypot(x - C[0], y - C[1], z - C[2]) - R
const SIDES = { xMin: 'open', xMax: 'open', yMin: 'closed', yMax: 'closed', zMin: 'closed', zMax: 'closed' } as const

function fields(): HybridFields {
  const n = 12, dx = 1 / n
  const grid: GridSpec = { nx: n, ny: n, nz: n, dx, origin: [0, 0, 0] }
  return new HybridFields(buildHybridMesh({ grid, obstacle: sphere, mode: 'hybrid', bandCells: 1, sides: SIDES }), 293.15)
}

/** Three projections of z_k = dt_k t_k z0 (a stream along x through the sphere's surface); step: with the step lengths. */
function threeSolves(dts: readonly number[], step: boolean): { iterations: number[]; z: Float64Array } {
  const f = fields(), m = f.mesh
  const iterations: number[] = []
  let t = 0
  for (const dt of dts) {
    t += dt
    for (let q = 0; q < m.faceCount; q++) f.z[q] = m.faceKind[q] === FACE_OBSTACLE ? 0 : dt * t * m.faceNormal[3 * q]
    f.setClosedFaces(new HybridObstacles([], 0))
    const st = step ? f.project(1e-8, dt) : f.project(1e-8)
    expect(st.converged).toBe(true)
    iterations.push(st.iterations)
  }
  return { iterations, z: Float64Array.from(f.z) }
}

describe('the hybrid projection starts a step from the pressure extrapolated in time', () => {
  for (const dts of [[0.02, 0.02, 0.02], [0.02, 0.03, 0.015]]) {
    it(`steps of ${dts.join(', ')} s: a linearly growing pressure takes at most 1 PCG iteration at the third step (3 or more from the last solve alone), the same face velocities within 1e-6 of their largest`, () => {
      const extrapolated = threeSolves(dts, true)
      const plain = threeSolves(dts, false)
      expect(plain.iterations[2]).toBeGreaterThanOrEqual(3)
      expect(extrapolated.iterations[2]).toBeLessThanOrEqual(1)
      let largest = 0, diff = 0
      for (let q = 0; q < plain.z.length; q++) {
        largest = Math.max(largest, Math.abs(plain.z[q]))
        diff = Math.max(diff, Math.abs(extrapolated.z[q] - plain.z[q]))
      }
      expect(largest).toBeGreaterThan(0)
      expect(diff).toBeLessThan(1e-6 * largest)
    })
  }
})
