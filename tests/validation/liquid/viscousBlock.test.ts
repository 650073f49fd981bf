// A block of liquid resting on the floor of a closed box (12^3 cells of dx = 0.1 m, the cell
// size Carlson 2004 quotes all chapter 4 viscosities for), one substep per frame or more by
// the CFL rule: the implicit viscosity (eqs. 47-49, 57-58) must be stable at 24 fps for any
// viscosity, a very viscous block must keep its shape (chapter 4: "so high in fact that the
// fluid will act very much like a solid") and a water-like one must spread.
//
// Tolerances:
// - nu = 1e4 m^2/s ('carlson' stress, 100 frames): the top of the block (mean of the highest 2%
//   of markers) stays at >= 95% of its start height (the figure);
// - nu = 1e4 m^2/s ('full' stress, 100 frames): the same, >= 95%;
// - nu = 1e-3 m^2/s (100 frames): the top drops below 60% of its start: it spreads;
// - every viscosity solve converges (relative residual <= 1e-6).
import { describe, expect, it } from 'vitest'
import type { ViscousStress } from '../../../src-shared/sim/liquid/liquidInput'
import { boxVolume, liquidInput, liquidSetup, runLiquid, surfaceHeight } from './liquidScenes'

const grid = { nx: 12, ny: 12, nz: 12, dx: 0.1, origin: [0, 0, 0] as [number, number, number] }

function block(nu: number, stress: ViscousStress, frames: number): { ratio: number; ms: number; iterations: number; residual: number } {
  const setup = liquidSetup(grid, [boxVolume([0.4, 0, 0.4], [0.8, 0.5, 0.8])], { viscosity: { model: 'constant', value: nu }, viscousStress: stress })
  const first = runLiquid(setup, 1)
  const s = first.solver
  const h0 = surfaceHeight(s)
  let iterations = 0
  let residual = 0
  const t0 = performance.now()
  for (let f = 1; f < frames; f++) {
    const input = liquidInput(f)
    const st = s.step(input.frameDt, input)
    iterations += st.viscosityIterations
    residual = Math.max(residual, st.viscosityResidual)
  }
  const ms = (performance.now() - t0) / (frames - 1)
  return { ratio: surfaceHeight(s) / h0, ms, iterations: iterations / (frames - 1), residual }
}

describe('viscous block on the floor (12^3, dx = 0.1 m, 24 fps)', () => {
  it('nu = 1e4 m^2/s keeps >= 95% of its height for 100 frames (Carlson stress, eq. 57)', () => {
    const r = block(1e4, 'carlson', 100)
    console.log(`viscous block nu=1e4 carlson: height ${(r.ratio * 100).toFixed(2)}%, ${r.ms.toFixed(1)} ms/frame, ${r.iterations.toFixed(0)} viscosity CG iterations/frame, worst residual ${r.residual.toExponential(1)}`)
    expect(r.ratio).toBeGreaterThanOrEqual(0.95)
    expect(r.residual).toBeLessThanOrEqual(1e-6)
  })

  it('nu = 1e4 m^2/s keeps >= 95% of its height for 100 frames with the full stress tensor (eqs. 59-60)', () => {
    const r = block(1e4, 'full', 100)
    console.log(`viscous block nu=1e4 full: height ${(r.ratio * 100).toFixed(2)}%, ${r.ms.toFixed(1)} ms/frame, ${r.iterations.toFixed(0)} viscosity CG iterations/frame`)
    expect(r.ratio).toBeGreaterThanOrEqual(0.95)
    expect(r.residual).toBeLessThanOrEqual(1e-6)
  })

  it('nu = 1e-3 m^2/s spreads (height < 60% after 100 frames)', () => {
    const r = block(1e-3, 'carlson', 100)
    console.log(`viscous block nu=1e-3: height ${(r.ratio * 100).toFixed(2)}%, ${r.ms.toFixed(1)} ms/frame`)
    expect(r.ratio).toBeLessThan(0.6)
    expect(r.residual).toBeLessThanOrEqual(1e-6)
  })
})
