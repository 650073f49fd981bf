// The tetrahedral liquid's dam break against the experiment: Martin and Moyce's collapsing
// column (../martinMoyce.ts). A column a = 0.4 m wide and 2a tall stands against the back wall
// of a tank 5a long, 1 m tall and 0.25 m across (the column spans it, a slice of the 2D
// problem); released at t = 0, its surge front (where the liquid's depth, read from the frame's
// level set in the middle of the tank, falls below a / 20) is compared with the table at every
// T = t sqrt(2 g / a) from 0.84 to 3.33, between frames by linear interpolation.
//
// Measured on this tree (front over the experiment's, over T = 0.84 .. 3.33):
//   app defaults (resolution 64, graded, thickening, CFL 4):   +0.2% .. +9.7%
//   resolution 96:                                            +2.7% .. +9.1%
// The check allows 20% either way (../martinMoyce.ts says why).
//
// Not checked here, found and left (README, Physics checks): at resolution 64 and CFL 1 (up to 8
// substeps a frame) the front falls 20% behind the experiment by T = 3.3, with or without the
// accurate field's clamp, thickening or volume control (CFL 2: +0 .. +11%; resolution 96 at
// CFL 1: +2 .. +15%): the surge tongue is about a contouring cell deep there, and each substep
// contours it anew and carries its velocity onto a new mesh.
import { describe, it } from 'vitest'
import { sceneObject } from '../../../src-shared/scene/examples/build'
import type { SceneDocument } from '../../../src-shared/scene/types'
import { createBakeSolver } from '../../../src-shared/sim/registry'
import { bakeKernels } from '../bakeKernels'
import { againstMartinMoyce, expectFrontNearMartinMoyce, surgeFront } from '../martinMoyce'

const G = 9.81
const A = 0.4
const FPS = 24
/** Frames until T = 3.33 (t = 0.50 s) is covered. */
const FRAMES = 13

function damScene(params: Record<string, number | string | boolean>): SceneDocument {
  const length = 5 * A
  return {
    meta: { name: 'Martin and Moyce', fps: FPS, frameStart: 1, frameEnd: FRAMES },
    objects: [
      sceneObject('domain', 'domain', 'Tank', { solver: 'tetliquid', position: [length / 2, 0.5, 0], size: [length, 1, 0.25], ...params }),
      // Past the back wall, the floor and both sides: the walls cut it to the column.
      sceneObject('water', 'emitter', 'Column', { shape: 'box', fluid: 'liquid', behavior: 'geometry', position: [A / 2 - 0.1, A - 0.1, 0], scale: [A + 0.2, 2 * A + 0.2, 1], velocity: [0, 0, 0] }),
    ],
    tracks: [],
    meshes: [],
  }
}

describe('the tetrahedral dam break against Martin and Moyce (1952): the surge front within 20% of the experiment from T = 0.84 to 3.33', () => {
  const cases: [string, Record<string, number | string | boolean>][] = [
    ['the app defaults (resolution 64, graded, thickening, CFL 4)', {}],
    ['resolution 96', { resolution: 96 }],
  ]
  for (const [label, params] of cases) {
    it(`${label}: front within 20% of the experiment's at every T of the table`, () => {
      const doc = damScene(params)
      const solver = createBakeSolver(doc, 'domain', bakeKernels(doc, 'domain'))
      const times = [0], fronts = [A]
      for (let f = 1; f <= FRAMES; f++) {
        solver.stepFrame(f)
        const level = solver.frame().volumes[0]
        const [nx, ny, nz] = level.dims
        const h = level.voxelSize
        // Level-set samples sit at origin + (i + 0.5) h; the back wall's column is at x = 0.
        const wall = Math.round(-level.origin[0] / h - 0.5)
        times.push(f / FPS)
        fronts.push(surgeFront(level.data, nx, ny, Math.floor(nz / 2), h, level.origin[0], level.origin[1], A, wall))
      }
      const r = againstMartinMoyce(times, fronts, A, G, 0.8)
      expectFrontNearMartinMoyce(`tetrahedral dam break front, ${label}`, r, 13)
    }, 300_000)
  }
})
