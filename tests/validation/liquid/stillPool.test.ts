// A pool at rest must stay at rest: gravity is balanced by the hydrostatic pressure, which the
// ghost fluid method puts at the level set's zero crossing (Gibou et al. 2002).
//
// Tolerances:
// - markers on a regular lattice (jitter 0): max |u| (markers and liquid faces) below 1e-5 m/s
//   after 50 frames: the balance is exact up to the pressure solve's tolerance (1e-6 relative);
// - jittered markers (the default) in a 25 cm tank at 16^3: max |u| below 1e-3 m/s after 50
//   frames (the figure). Random marker positions make the surface a little uneven,
//   which sets off slow currents while the markers settle; they scale with sqrt(g dx): in a 1 m
//   tank at 16^3 they are still ~3-5 mm/s at frame 50 and ~6e-4 m/s by frame 150 (printed,
//   not asserted).
import { describe, expect, it } from 'vitest'
import { boxVolume, cubeGrid, liquidSetup, maxLiquidFaceSpeed, maxParticleSpeed, runLiquid } from './liquidScenes'
import type { PressurePreconditioner } from '../../../src-shared/sim/liquid/liquidInput'

function pool(size: number, jitter: number, frames: number, preconditioner: PressurePreconditioner = 'auto'): { particles: number; faces: number; ms: number } {
  const grid = cubeGrid(16, size)
  const setup = liquidSetup(grid, [boxVolume([0, 0, 0], [size, 0.375 * size, size])], { jitter, pressure: { tolerance: 1e-6, maxIterations: 1000, preconditioner } })
  const run = runLiquid(setup, frames)
  return { particles: maxParticleSpeed(run.solver), faces: maxLiquidFaceSpeed(run.solver), ms: run.msPerFrame }
}

describe('still pool (16^3, 50 frames)', () => {
  it('is exactly hydrostatic with markers on a lattice', () => {
    const r = pool(1, 0, 50)
    console.log(`still pool 1 m, jitter 0: max |u| markers ${r.particles.toExponential(2)}, faces ${r.faces.toExponential(2)} m/s; ${r.ms.toFixed(1)} ms/frame`)
    expect(r.particles).toBeLessThan(1e-5)
    expect(r.faces).toBeLessThan(1e-5)
  })

  it('is exactly hydrostatic with markers on a lattice, the pressure preconditioned by multigrid', () => {
    // (A system this small takes MIC(0) by default: pressureMultigrid.ts is forced here.)
    const r = pool(1, 0, 50, 'multigrid')
    console.log(`still pool 1 m, jitter 0, multigrid: max |u| markers ${r.particles.toExponential(2)}, faces ${r.faces.toExponential(2)} m/s`)
    expect(r.particles).toBeLessThan(1e-5)
    expect(r.faces).toBeLessThan(1e-5)
  })

  it('settles below 1 mm/s with jittered markers (25 cm tank)', () => {
    const r = pool(0.25, 1, 50)
    console.log(`still pool 25 cm, jitter 1: max |u| markers ${r.particles.toExponential(2)}, faces ${r.faces.toExponential(2)} m/s; ${r.ms.toFixed(1)} ms/frame`)
    expect(r.particles).toBeLessThan(1e-3)
    expect(r.faces).toBeLessThan(1e-3)
    const big = pool(1, 1, 50)
    console.log(`still pool 1 m, jitter 1 (figure only): max |u| markers ${big.particles.toExponential(2)}, faces ${big.faces.toExponential(2)} m/s after 50 frames`)
  })
})
