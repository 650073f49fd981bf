// A still pool at the app's default liquid settings (params.ts: FLIP 0.95, jittered markers,
// 8 per cell) must stay still (issue 12, item 9). Known answer: a liquid at rest under
// gravity is in hydrostatic balance, u = 0. Tolerance: max |u| on faces touching liquid
// after 4 s (96 frames at 24 fps) below 1 mm/s, in a 1 m tank filled to 0.375 m, at 16^3
// and 32^3.
//
// Measured (issue 12 work, not yet fixed): 16^3 10.9 mm/s, 32^3 6.7 mm/s (PIC at 16^3:
// 1.8 mm/s). The driver is the ghost-fluid pressure reading a level set built from jittered
// markers: with the pressure's phi replaced by the exact plane (kinds unchanged, same jittered
// markers, FLIP 0.95) the pool stays below 1e-6 m/s for 4 s; with the jitter removed from the
// top cell layer only, 0.9 mm/s; with it kept only in the top layer, 12.9 mm/s. Smoothing that
// phi horizontally (3 passes, noise 0.17 dx -> 0.065 dx) or scaling its noise by 0.1 still
// leaves 7-11 mm/s: once markers move, cells at the surface toggle liquid/air and kick the
// columns, and FLIP keeps those kicks.
//
// Fixed (surfaceTracker.ts): the pressure reads a level set started from the volumes' shapes,
// advected with the liquid and corrected only by escaped markers (Carlson sec. 6.2.3-6.2.4):
// 16^3 2.3e-7 m/s, 32^3 6.8e-7 m/s after 4 s.
import { describe, expect, it } from 'vitest'
import { boxVolume, cubeGrid, liquidSetup, maxLiquidFaceSpeed, runLiquid } from './liquidScenes'

function pool(res: number): { faces: number; ms: number } {
  const setup = liquidSetup(cubeGrid(res, 1), [boxVolume([0, 0, 0], [1, 0.375, 1])], { flip: 0.95, jitter: 1, particlesPerCell: 8 })
  const run = runLiquid(setup, 96)
  return { faces: maxLiquidFaceSpeed(run.solver), ms: run.msPerFrame }
}

describe('still pool at the app defaults (FLIP 0.95, jittered, 8 per cell), 1 m tank, 4 s', () => {
  for (const res of [16, 32]) {
    it(`${res}^3: max |u| on faces touching liquid below 1 mm/s after 4 s`, () => {
      const r = pool(res)
      console.log(`still pool defaults ${res}^3: max |u| faces ${r.faces.toExponential(2)} m/s after 4 s, ${r.ms.toFixed(0)} ms/frame`)
      expect(r.faces).toBeLessThan(1e-3)
    }, 300_000)
  }
})
