// The surface curl by amount: the tangent part of a rigid rotation Omega x x has, on any
// surface, the normal vorticity 2 Omega . n (the normal component of curl(Omega x x) = 2 Omega;
// the part along n contributes nothing tangential). Checked cell by cell on a sphere-like and a
// torus-like surface, with the metric; without it (flat squares) the curl is far off.
import { describe, expect, it } from 'vitest'
import { evaluateLimit } from '../../../src-shared/geometry/catmullClarkEval'
import { sphereLikeCage, torusCage } from '../../../src-shared/geometry/voxelCages'
import { fluidOn, setWorldWind } from './scenes'

function curlError(cage: ReturnType<typeof sphereLikeCage>, N: number, flat: boolean): number {
  const fl = fluidOn(cage, N, flat)
  const spin: [number, number, number] = [0.3, 1, 0.2]
  setWorldWind(fl, [0, 0, 0], spin)
  fl.grid.syncShared(fl.fx, fl.fy)
  const omega = fl.vorticity()
  const g = fl.grid
  let e2 = 0, r2 = 0
  for (let p = 0; p < g.P; p++) for (let j = 0; j < N; j++) for (let i = 0; i < N; i++) {
    const k = g.cell(p, i, j)
    const n = evaluateLimit(fl.surface, p, (i + 0.5) / N, (j + 0.5) / N).normal
    const exact = 2 * (spin[0] * n[0] + spin[1] * n[1] + spin[2] * n[2])
    const a = fl.metric.cells.sqrtG[k]
    e2 += (omega[k] - exact) ** 2 * a
    r2 += exact * exact * a
  }
  return Math.sqrt(e2 / r2)
}

describe('surface vorticity', () => {
  for (const [name, cage] of [['sphere-like', sphereLikeCage()], ['torus', torusCage()]] as const) {
    it(`${name}: the curl of a rigid spin's tangent part is 2 Omega . n within 3% (L2) at 16^2, and more than 10 times further off without the metric`, () => {
      const err = curlError(cage, 16, false)
      const flat = curlError(cage, 16, true)
      console.log(`${name}: vorticity L2 error ${err.toFixed(4)} with the metric, ${flat.toFixed(3)} without`)
      expect(err).toBeLessThan(0.03)
      expect(flat).toBeGreaterThan(10 * err)
    })
  }
})
