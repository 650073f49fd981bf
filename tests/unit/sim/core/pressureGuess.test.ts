// The pressure solve's start at a step (core/pressureGuess.ts): p extrapolated linearly in time
// from the last two step solves, p being dt times the pressure; hand-computed coefficients, the
// history's bookkeeping, and checkpoints with or without it.
import { describe, expect, it } from 'vitest'
import { TS_KERNELS } from '../../../../src-shared/sim/core/kernelBackend'
import { PressureGuess } from '../../../../src-shared/sim/core/pressureGuess'

describe('PressureGuess', () => {
  it('starts from p alone with no history, from (dt / dt_n) p_n after one step solve, and from the linear trend of p / dt after two', () => {
    const g = new PressureGuess(3, TS_KERNELS)
    const p = Float64Array.from([1, 2, 3])
    g.start(p, 0.1)
    expect(Array.from(p)).toEqual([1, 2, 3])
    expect(Array.from(g.prev)).toEqual([1, 2, 3])
    g.solved(0.1)
    // p_n = 2 at dt_n = 0.1 (pi = 20): the next step of 0.05 starts from 1.
    p.set([2, 4, 6])
    g.start(p, 0.05)
    expect(Array.from(p)).toEqual([1, 2, 3])
    g.solved(0.05)
    // Solves p = dt t pi0 with t the time at the step's end: pi(t) = t pi0 grows linearly, so the
    // guess is exact. Steps 0.1 (t = 0.1), 0.05 (t = 0.15), then 0.08 (t = 0.23).
    const pi0 = [1, -2, 0.5]
    g.prev.set(pi0.map((v) => 0.1 * 0.1 * v))
    p.set(pi0.map((v) => 0.05 * 0.15 * v))
    g.start(p, 0.08)
    for (let i = 0; i < 3; i++) expect(p[i]).toBeCloseTo(0.08 * 0.23 * pi0[i], 14)
    expect(Array.from(g.prev)).toEqual(pi0.map((v) => 0.05 * 0.15 * v))
  })

  it('keeps the step lengths of the last two solves, forgets them on reset, and restores them only from a whole history', () => {
    const g = new PressureGuess(2, TS_KERNELS)
    g.solved(0.1)
    g.solved(0.2)
    expect(g.steps).toEqual([0.1, 0.2])
    g.reset()
    expect(g.steps).toEqual([0, 0])
    g.restore([0.3, 0.4], Float64Array.from([5, 6]))
    expect(g.steps).toEqual([0.3, 0.4])
    expect(Array.from(g.prev)).toEqual([5, 6])
    for (const [steps, prev] of [[undefined, Float64Array.from([1, 2])], [[0.1, 0.2], null], [[0.1, Number.NaN], Float64Array.from([1, 2])], [[0.1, -1], Float64Array.from([1, 2])], [[0.1, 0.2], Float64Array.from([1])]] as const) {
      g.restore([0.3, 0.4], Float64Array.from([5, 6]))
      g.restore(steps, prev as Float64Array | null)
      expect(g.steps).toEqual([0, 0])
    }
  })
})
