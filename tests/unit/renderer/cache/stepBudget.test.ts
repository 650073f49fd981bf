// The raymarch's frame budget: slow frames shrink the steps by their overrun (at most halving,
// never below the floor), fast ones grow them back to the preset, in-between ones hold.
import { describe, expect, it } from 'vitest'
import { BUDGET_MS, MIN_STEPS, nextStepScale, ROOM_MS } from '../../../../src-renderer/viewport/cache/stepBudget'

describe('raymarch step budget', () => {
  it('shrinks by the overrun, at most by half, never below the floor', () => {
    expect(nextStepScale(1, BUDGET_MS * 1.25, 256)).toBeCloseTo(0.8, 12)
    expect(nextStepScale(1, BUDGET_MS * 10, 256)).toBe(0.5)
    let s = 1
    for (let i = 0; i < 20; i++) s = nextStepScale(s, 2000, 256)
    expect(s * 256).toBeCloseTo(MIN_STEPS, 9)
    // A preset already at or below the floor is never cut.
    expect(nextStepScale(1, 2000, 16)).toBe(1)
  })

  it('grows back by a tenth per fast frame up to the preset, and holds in between', () => {
    expect(nextStepScale(0.5, ROOM_MS / 2, 256)).toBeCloseTo(0.55, 12)
    expect(nextStepScale(0.95, 1, 256)).toBe(1)
    expect(nextStepScale(0.6, (ROOM_MS + BUDGET_MS) / 2, 256)).toBe(0.6)
    expect(nextStepScale(0.6, Number.NaN, 256)).toBe(0.6)
  })

  it('settles where frames fit: a march whose cost is proportional to its steps ends within the budget', () => {
    // 256 steps cost 600 ms a frame here (software GL at a large view): the budget finds ~53.
    const msPerStep = 600 / 256
    let s = 1
    for (let i = 0; i < 60; i++) s = nextStepScale(s, 256 * s * msPerStep, 256)
    expect(256 * s * msPerStep).toBeLessThanOrEqual(BUDGET_MS * 1.1)
    expect(256 * s * msPerStep).toBeGreaterThan(ROOM_MS * 0.9)
  })
})
