// The shared substep loop's rotation limit (SubstepHooks.turn): h <= maxAngle / rate within
// the min/max substep bounds, and no change at all to the substeps when the hook is absent.
import { describe, expect, it } from 'vitest'
import { emptyStepStats } from '../../../src-shared/sim/solver'
import { runSubsteps, type SubstepHooks } from '../../../src-shared/sim/substeps'

function plan(dt: number, limits: { cfl: number; minSubsteps: number; maxSubsteps: number }, speed: number, turn?: SubstepHooks['turn']): number[] {
  const hs: number[] = []
  const stats = emptyStepStats([])
  runSubsteps(dt, limits, 0.01, 0, { reach: 0, speed: () => speed, substep: (h) => hs.push(h), guard: () => {}, ...(turn ? { turn } : {}) }, stats)
  return hs
}

describe('rotation limit of the substep loop', () => {
  const limits = { cfl: 4, minSubsteps: 1, maxSubsteps: 8 }
  const dt = 1 / 24

  it('without the hook the substeps are the CFL ones, bit for bit (also with a hook that sets no bound)', () => {
    for (const speed of [0, 0.3, 1.7, 5, 40]) {
      const base = plan(dt, limits, speed)
      // What the CFL rule alone gives: n = ceil(dt / (cfl dx / speed)) within [1, 8], h = dt / n.
      const n = speed > 0 ? Math.min(8, Math.max(1, Math.ceil(dt / ((4 * 0.01) / speed) - 1e-9))) : 1
      expect(base.length).toBe(n)
      for (const h of base) expect(h).toBeCloseTo(dt / n, 15)
      expect(plan(dt, limits, speed, { rate: () => 0, maxAngle: 0.05 })).toEqual(base)
      expect(plan(dt, limits, speed, { rate: () => NaN, maxAngle: 0.05 })).toEqual(base)
    }
  })

  it('h <= maxAngle / rate: a 0.5 rev/s flow at 2 degrees a substep takes 4 substeps a frame, capped by max substeps', () => {
    const rate = Math.PI // rad/s
    const maxAngle = (2 * Math.PI) / 180
    const hs = plan(dt, limits, 0, { rate: () => rate, maxAngle })
    expect(hs.length).toBe(4) // dt rate / maxAngle = 3.75
    for (const h of hs) expect(h * rate).toBeLessThanOrEqual(maxAngle)
    expect(plan(dt, { ...limits, maxSubsteps: 2 }, 0, { rate: () => rate, maxAngle }).length).toBe(2)
    // A looser angle than the CFL: the CFL decides.
    expect(plan(dt, limits, 5, { rate: () => rate, maxAngle: 1 })).toEqual(plan(dt, limits, 5))
  })
})
