// A ball of water in free fall on the tetrahedral liquid (Chentanez et al. 2007): nothing but
// gravity acts on it, so its centre of volume falls exactly g t^2 / 2 and it keeps its volume.
// This checks the volume control (volumeControl.ts) against a known motion: moving the free
// surface to make up the contouring's loss must not move the liquid's centre, and the budget
// must hold while the whole surface translates (the case where contouring loses the most per
// step, up to 0.08% at a third of a cell a step). Runs at the app's defaults (resolution 64,
// graded mesh, thickening, CFL 4, up to 4 substeps) and at an easier setting (resolution 32,
// uniform mesh, CFL 1), 12 frames (0.5 s, 1.2 m of fall) in a 3 m tall tank.
// The surface moves with the velocity of the step's start and gravity acts after (the paper's
// Figure 2): a first-order splitting, whose fall lags g t^2 / 2 by sum_i g h_i^2 / 2 over the
// steps h_i taken so far, so by at most g h t / 2 with h a whole frame (steps are never longer).
// The test holds every frame's lag between minus a tenth of a contouring cell and that bound
// plus a tenth of a cell, and prints the lag after 0.5 s as a share of the fall.
import { describe, expect, it } from 'vitest'
import { sceneObject } from '../../../src-shared/scene/examples/build'
import type { SceneDocument } from '../../../src-shared/scene/types'
import { createBakeSolver } from '../../../src-shared/sim/registry'
import { bakeKernels } from '../bakeKernels'
import { volumeAndCentre } from '../../unit/sim/tetliquid/volume'

const G = 9.81
const FRAMES = 12
const FPS = 24
const START_Y = 2.5

function fallScene(params: Record<string, number | string | boolean>): SceneDocument {
  return {
    meta: { name: 'Free fall', fps: FPS, frameStart: 1, frameEnd: FRAMES },
    objects: [
      sceneObject('domain', 'domain', 'Tank', { solver: 'tetliquid', position: [0, 1.5, 0], size: [1.5, 3, 1.5], gravity: [0, -G, 0], ...params }),
      sceneObject('ball', 'emitter', 'Ball', { shape: 'sphere', fluid: 'liquid', behavior: 'geometry', position: [0, START_Y, 0], scale: [0.8, 0.8, 0.8], velocity: [0, 0, 0] }),
    ],
    tracks: [],
    meshes: [],
  }
}

const SETTINGS: [string, Record<string, number | string | boolean>][] = [
  ['the app defaults (resolution 64, graded, thickening, CFL 4)', {}],
  ['resolution 32, uniform mesh, CFL 1', { resolution: 32, tetMesh: 'uniform', cfl: 1, maxSubsteps: 8 }],
]

describe('a ball of water in free fall on the tetrahedral liquid', () => {
  for (const [label, params] of SETTINGS) {
    it(`${label}: its centre falls g t^2 / 2 within the first-order splitting's lag, and it keeps its volume within 1% for ${FRAMES} frames`, () => {
      const doc = fallScene(params)
      const solver = createBakeSolver(doc, 'domain', bakeKernels(doc, 'domain'))
      const start = volumeAndCentre(solver.frame().meshes[0])
      const cell = 3 / Number(params.resolution ?? 64)
      let worstVolume = 0, worstOver = -Infinity, finalLag = 0
      for (let f = 1; f <= FRAMES; f++) {
        solver.stepFrame(f)
        const now = volumeAndCentre(solver.frame().meshes[0])
        const t = f / FPS
        const fall = start.y - now.y, exact = 0.5 * G * t * t
        const lag = exact - fall, bound = (G * t) / (2 * FPS)
        if (f === FRAMES) finalLag = lag / exact
        worstOver = Math.max(worstOver, lag - bound, -lag)
        worstVolume = Math.max(worstVolume, Math.abs(now.volume / start.volume - 1))
      }
      console.log(`free fall, ${label}: after ${FRAMES} frames the fall lags g t^2 / 2 by ${(100 * finalLag).toFixed(2)}% (the splitting's bound for one step a frame: ${(100 / FRAMES).toFixed(2)}%), volume within ${(100 * worstVolume).toFixed(3)}%`)
      expect(worstOver).toBeLessThan(0.1 * cell)
      expect(worstVolume).toBeLessThan(0.01)
    }, 300_000)
  }
})
