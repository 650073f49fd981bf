// Liquid emitters (SimInput.emitters with fluid 'liquid'): a sphere source pours liquid that
// falls under gravity and collects on the floor; the particle cap stops emission cleanly.
//
// Tolerances: after 24 frames the markers added equal ppc x (emitted cells) exactly (the
// count is checked against the solver's own stats); emitted markers carry the emitter's
// temperature until they mix (all markers within 1e-3 K of 350 K, no heat set up); the lowest
// marker is on the floor (y < 2 dx); with maxParticles = 200 the count never exceeds 200 and reaches it.
import { describe, expect, it } from 'vitest'
import type { EmitterInput } from '../../../src-shared/sim/solver'
import { LiquidSolver } from '../../../src-shared/sim/liquid/liquidSolver'
import { liquidInput, liquidSetup } from './liquidScenes'

const grid = { nx: 12, ny: 12, nz: 12, dx: 0.1, origin: [0, 0, 0] as [number, number, number] }
const tap: EmitterInput = {
  id: 'tap',
  name: 'tap',
  shape: 'sphere',
  position: [0.6, 0.9, 0.6],
  rotation: [0, 0, 0],
  scale: [0.3, 0.3, 0.3],
  fluid: 'liquid',
  density: 1,
  temperature: 350,
  velocity: [0, -1, 0],
  rate: 1000,
}

describe('liquid emitter', () => {
  it('pours liquid that lands on the floor, at its temperature', () => {
    const s = new LiquidSolver(liquidSetup(grid, []))
    let added = 0
    for (let f = 0; f < 24; f++) {
      const input = liquidInput(f, { emitters: [tap] })
      added += s.step(input.frameDt, input).particlesAdded
    }
    const p = s.particles
    expect(p.count).toBe(added)
    expect(p.count).toBeGreaterThan(8 * 8)
    let low = Infinity
    for (let q = 0; q < p.count; q++) {
      low = Math.min(low, p.py[q])
      expect(Math.abs(p.temp[q] - 350)).toBeLessThan(1e-3)
    }
    expect(low).toBeLessThan(2 * grid.dx)
    console.log(`liquid emitter: ${p.count} markers after 1 s`)
  })

  it('stops at the particle cap', () => {
    const s = new LiquidSolver(liquidSetup(grid, [], { maxParticles: 200 }))
    for (let f = 0; f < 12; f++) {
      const input = liquidInput(f, { emitters: [tap] })
      s.step(input.frameDt, input)
      expect(s.particles.count).toBeLessThanOrEqual(200)
    }
    expect(s.particles.count).toBe(200)
  })
})
