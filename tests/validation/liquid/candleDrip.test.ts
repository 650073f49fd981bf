// The candle-drip case of Carlson 2004 (sec. 4.5.2): a wax candle whose top melts under a
// heat lamp and runs down its sides, baked with the thesis's per-component viscous term
// (eq. 57) and with the full stress tensor div(nu (grad u + grad u^T)) (eqs. 59-60, the
// terms sec. 4.5.2 says are missing). The full stress also resists stretching and shear that
// the per-component form lets through (a falling sheet has three times the extensional
// viscosity, Trouton's ratio), so its melt runs down and spreads out more slowly.
// Measured at frame 24, mid-melt, on a 16^3 grid; the runs are deterministic, so the margins
// below (a tenth of the run-off, an eighth of a cell in height) are far from noise.
// (Issue 12 item 8: the markers no longer smear temperature, ~4e-3 m^2/s of numerical
// diffusion on top of the set 1e-4, so the lamp melts ~300 markers by frame 24 instead of
// 500+ and the melt is thinner: the thresholds were 500 markers and a quarter cell.)
import { describe, expect, it } from 'vitest'
import type { LiquidSolver } from '../../../src-shared/sim/liquid/liquidSolver'
import { boxVolume, cubeGrid, liquidInput, liquidSetup, runLiquid } from './liquidScenes'

const RES = 16
const FRAMES = 24
const MELT = 330
/** Half the candle's width plus a sixth of a cell: markers beyond it have run off the candle. */
const FOOTPRINT = 0.14

function candle(stress: 'carlson' | 'full') {
  const grid = cubeGrid(RES, 1)
  // A 0.25 x 0.6 x 0.25 m candle of cold wax standing in the middle of the floor.
  const setup = liquidSetup(grid, [boxVolume([0.375, 0, 0.375], [0.625, 0.6, 0.625], 300)], {
    viscosity: { model: 'temperature', meltingPoint: MELT, transitionWidth: 10, ramp: 'linear', solid: 1e4, liquid: 0.5 },
    viscousStress: stress,
    wallSlip: 'no',
    heat: { diffusion: 1e-4, ambientTemperature: 293.15, coolingRate: 0 },
  })
  const input = (f: number) => liquidInput(f, { family: { heatSources: [{ id: 'lamp', name: 'lamp', position: [0.5, 0.62, 0.5], radius: 0.18, temperature: 450, rate: 8 }] } })
  return runLiquid(setup, FRAMES, undefined, 0, input)
}

/** Melted markers: how many, their mean height, and how many have run off the candle's footprint. */
function melt(s: LiquidSolver): { count: number; meanHeight: number; runOff: number } {
  const p = s.particles
  let count = 0
  let height = 0
  let runOff = 0
  for (let q = 0; q < p.count; q++) {
    if (p.temp[q] < MELT) continue
    count++
    height += p.py[q]
    if (Math.max(Math.abs(p.px[q] - 0.5), Math.abs(p.pz[q] - 0.5)) > FOOTPRINT) runOff++
  }
  return { count, meanHeight: count ? height / count : 0, runOff }
}

describe('candle drip: Carlson eq. 57 vs the full viscous stress', () => {
  it('the melt runs down and off the candle more slowly with the full stress', () => {
    const a = candle('carlson')
    const b = candle('full')
    const ma = melt(a.solver)
    const mb = melt(b.solver)
    console.log(
      `candle drip ${RES}^3, frame ${FRAMES}: Carlson eq. 57: ${ma.count} melted markers, mean height ${ma.meanHeight.toFixed(3)} m, ${ma.runOff} run off the candle (${a.msPerFrame.toFixed(0)} ms/frame); ` +
        `full stress: ${mb.count} melted, mean height ${mb.meanHeight.toFixed(3)} m, ${mb.runOff} run off (${b.msPerFrame.toFixed(0)} ms/frame)`,
    )
    // The same heat melts about the same wax (the stress form does not change heat transport).
    expect(ma.count).toBeGreaterThan(250)
    expect(Math.abs(mb.count - ma.count)).toBeLessThan(0.1 * ma.count)
    // Full stress: melt stays higher (by more than an eighth of a cell) and less of it runs off (10%+).
    expect(mb.meanHeight - ma.meanHeight).toBeGreaterThan(0.125 / RES)
    expect(mb.runOff).toBeLessThan(0.9 * ma.runOff)
  }, 300_000)
})
