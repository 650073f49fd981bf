// A pool at rest stays at rest on the tetrahedral liquid (Chentanez et al. 2007): a layer of
// water on the floor of a closed box, under gravity, for 50 frames. The exact answer is that
// nothing moves; the test holds the free surface within a tenth of the finest tetrahedron edge
// of its starting height (the bound), away from the walls, and the volume S holds within
// 1%. The paper itself reports that its free surfaces move here ("our discretization of the
// Poisson operator is not linearly consistent, so our free surfaces move even when gravity is
// the only force applied to a pool of water"); tetLiquidSolver.ts folds gravity into the
// pressure's boundary values, which makes the rest state exact. Runs at the app's defaults
// (resolution 64, graded mesh, thickening, CFL 4, up to 4 substeps) and at an easier setting
// (resolution 32, uniform mesh, CFL 1), 0.5 m deep, and at the defaults 0.16 m deep.
import { describe, expect, it } from 'vitest'
import { sceneObject } from '../../../src-shared/scene/examples/build'
import type { SceneDocument } from '../../../src-shared/scene/types'
import { createBakeSolver } from '../../../src-shared/sim/registry'
import { bakeKernels } from '../bakeKernels'
import { enclosedVolume } from '../../unit/sim/tetliquid/volume'


function poolScene(params: Record<string, number | string | boolean>, depth: number): SceneDocument {
  return {
    meta: { name: 'Still pool', fps: 24, frameStart: 1, frameEnd: 50 },
    objects: [
      sceneObject('domain', 'domain', 'Tank', { solver: 'tetliquid', position: [0, 1, 0], size: [2, 2, 2], ...params }),
      // Wider than the tank: the walls cut it, so the water touches all four.
      sceneObject('water', 'emitter', 'Pool', { shape: 'box', fluid: 'liquid', behavior: 'geometry', position: [0, depth / 2, 0], scale: [2.4, depth, 2.4], velocity: [0, 0, 0] }),
    ],
    tracks: [],
    meshes: [],
  }
}

const SETTINGS: [string, Record<string, number | string | boolean>, number][] = [
  ['the app defaults (resolution 64, graded, thickening, CFL 4)', {}, 0.5],
  ['resolution 32, uniform mesh, CFL 1', { resolution: 32, tetMesh: 'uniform', cfl: 1, maxSubsteps: 8 }, 0.5],
  // Two finest tetrahedra deep: the bevels where the surface meets the walls are a large share
  // of it (their faces lie below the water line; tetLiquidSolver.ts project()).
  ['a shallow pool (0.16 m, about two tetrahedra), the app defaults', {}, 0.16],
]

describe('still pool on the tetrahedral liquid', () => {
  for (const [label, params, depth] of SETTINGS) {
    it(`${label}: the surface stays within a tenth of a leaf of its height for 50 frames, the volume within 1%`, () => {
      const doc = poolScene(params, depth)
      const resolution = Number(params.resolution ?? 64)
      const leaf = 2 * (2 / resolution)
      const solver = createBakeSolver(doc, 'domain', bakeKernels(doc, 'domain'))
      const v0 = enclosedVolume(solver.frame().meshes[0])
      let worst = 0
      let worstSpeed = 0
      for (let f = 1; f <= 50; f++) {
        solver.stepFrame(f)
        const { meshes } = solver.frame()
        const p = meshes[0].positions
        const v = meshes[0].attributes!.velocity.data
        for (let i = 0; i < p.length; i += 3) {
          // The free surface: above mid-depth and more than a leaf from every wall.
          if (p[i + 1] < depth / 2 || Math.abs(p[i]) > 1 - leaf || Math.abs(p[i + 2]) > 1 - leaf) continue
          worst = Math.max(worst, Math.abs(p[i + 1] - depth))
          worstSpeed = Math.max(worstSpeed, Math.hypot(v[i], v[i + 1], v[i + 2]))
        }
      }
      const volume = enclosedVolume(solver.frame().meshes[0])
      console.log(`still pool, ${label}: surface within ${(worst * 1000).toFixed(3)} mm of ${depth} m (a tenth of a leaf is ${(leaf * 100).toFixed(2)} mm), fastest surface point ${worstSpeed.toExponential(2)} m/s, volume ${(100 * (volume / v0 - 1)).toFixed(3)}%`)
      expect(worst).toBeLessThan(0.1 * leaf)
      expect(Math.abs(volume / v0 - 1)).toBeLessThan(0.01)
    }, 300_000)
  }
})
