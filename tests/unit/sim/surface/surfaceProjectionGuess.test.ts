// The projection's start at a step (surfaceProjection.ts projectStep): p extrapolated linearly
// in time from the last two step solves, p being dt times the pressure. A pressure that grows
// linearly in time is then guessed to the solver's tolerance, so PCG has next to nothing left
// to do, while the warm start from the last solve alone (what project() does) leaves a third of
// the answer to find. The answer itself is the same to the tolerance either way.
import { describe, expect, it } from 'vitest'
import { buildLimitSurface } from '../../../../src-shared/geometry/catmullClarkEval'
import { buildPatchAtlas } from '../../../../src-shared/geometry/patchAtlas'
import { sphereLikeCage } from '../../../../src-shared/geometry/voxelCages'
import { SurfaceFluid } from '../../../../src-shared/sim/surface/surfaceFluid'
import { setWorldWind } from '../../../validation/surface/scenes'

const N = 8

function fluid(): SurfaceFluid {
  const S = buildLimitSurface(sphereLikeCage())
  return new SurfaceFluid(S, buildPatchAtlas(S.faces), { N, densities: 1 })
}

/** A wind blowing through the sphere (not divergence free on it), as flux densities. */
function baseField(): { fx: Float64Array; fy: Float64Array } {
  const fl = fluid()
  setWorldWind(fl, [0.3, -0.2, 0.1], [0.05, 0.4, -0.1])
  fl.grid.syncShared(fl.fx, fl.fy)
  return { fx: Float64Array.from(fl.fx), fy: Float64Array.from(fl.fy) }
}

/**
 * Three projections of F_k = dt_k t_k F0 (t_k the time at the end of step k): the pressure is
 * t F0's, growing linearly, and p_k = dt_k t_k p0. step: through projectStep, else project().
 * Returns each solve's PCG iterations and the last projected fluxes.
 */
function threeSolves(F0: { fx: Float64Array; fy: Float64Array }, dts: readonly number[], step: boolean) {
  const fl = fluid()
  const iterations: number[] = []
  let t = 0
  for (const dt of dts) {
    t += dt
    for (let f = 0; f < F0.fx.length; f++) fl.fx[f] = dt * t * F0.fx[f]
    for (let f = 0; f < F0.fy.length; f++) fl.fy[f] = dt * t * F0.fy[f]
    const st = step ? fl.projection.projectStep(fl.fx, fl.fy, dt) : fl.projection.project(fl.fx, fl.fy)
    expect(st.converged).toBe(true)
    iterations.push(st.iterations)
  }
  return { iterations, fx: Float64Array.from(fl.fx), fy: Float64Array.from(fl.fy) }
}

describe('the surface projection starts a step from the pressure extrapolated in time', () => {
  const F0 = baseField()
  for (const dts of [[0.02, 0.02, 0.02], [0.02, 0.03, 0.015]]) {
    it(`steps of ${dts.join(', ')} s: a linearly growing pressure takes at most 1 PCG iteration at the third step (3 or more from the last solve alone), the same fluxes within 1e-5 of their largest`, () => {
      const extrapolated = threeSolves(F0, dts, true)
      const plain = threeSolves(F0, dts, false)
      expect(plain.iterations[2]).toBeGreaterThanOrEqual(3)
      expect(extrapolated.iterations[2]).toBeLessThanOrEqual(1)
      let largest = 0, diff = 0
      for (const [a, b] of [[extrapolated.fx, plain.fx], [extrapolated.fy, plain.fy]]) {
        for (let f = 0; f < a.length; f++) {
          largest = Math.max(largest, Math.abs(b[f]))
          diff = Math.max(diff, Math.abs(a[f] - b[f]))
        }
      }
      expect(largest).toBeGreaterThan(0)
      expect(diff).toBeLessThan(1e-5 * largest)
    })
  }

  it('a projection of fluxes set directly (project) starts no history: the step after it starts from its p alone', () => {
    const fl = fluid()
    for (let f = 0; f < F0.fx.length; f++) fl.fx[f] = F0.fx[f]
    for (let f = 0; f < F0.fy.length; f++) fl.fy[f] = F0.fy[f]
    fl.projection.projectStep(fl.fx, fl.fy, 0.02)
    fl.projection.projectStep(fl.fx, fl.fy, 0.02)
    expect([fl.projection.guess.dtBefore, fl.projection.guess.dtLast]).toEqual([0.02, 0.02])
    fl.projection.project(fl.fx, fl.fy)
    expect([fl.projection.guess.dtBefore, fl.projection.guess.dtLast]).toEqual([0, 0])
  })
})
