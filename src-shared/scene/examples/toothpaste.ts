// 'toothpaste': Carlson 2004 Figure 15, a squirt of toothpaste hitting a wall. A thick jet
// (1000 m²/s) leaves a nozzle sideways at 4 m/s for two seconds, hits a wall and piles and
// buckles against it. Table 6's toothpaste had 1e4; at this grid that made the viscosity
// solve the whole cost (1600 iterations a substep after 4 frames, growing with the paste)
// for a jet that already moves like a rigid rod at 1000. Full stress (Batty and Bridson
// 2008) rather than Carlson's per-component term, because that is what lets a thick jet bend
// and coil instead of smearing; sticky walls, as paste sticks.
//   grid: a 1.4 x 1.1 x 0.6 m box, the thesis's 42 x 33 x 18 (Table 6) at resolution 42; the
//     default is 32 because the viscosity solve (1000-2000 iterations a substep) made 42 cost
//     about 4 s a frame here against about 1.2 s at 32 (2-core machine, 16 frames);
//   nozzle: a 14 cm cylinder turned to point along +x, 1.05 m from the wall, refilled 24
//     times a second until frame 48, then shut (a constant key to rate 0).
import type { SceneDocument } from '../types'
import { liquidDomain, resolutionOr, sceneObject } from './build'
import type { ExampleOptions, ExampleScene } from './types'

export function toothpasteScene(options?: ExampleOptions): ExampleScene {
  const doc: SceneDocument = {
    meta: { name: 'Toothpaste', fps: 24, frameStart: 1, frameEnd: 120 },
    objects: [
      liquidDomain('domain', 'Toothpaste domain', {
        position: [0, 0.55, 0],
        size: [1.4, 1.1, 0.6],
        resolution: resolutionOr(options, 32),
        flip: 0,
        viscosityModel: 'constant',
        viscosity: 1000,
        viscousStress: 'full',
        wallSlip: 'no',
      }),
      // A unit cylinder's axis is y; 90 degrees about z lays it along x.
      sceneObject('nozzle', 'emitter', 'Nozzle', {
        shape: 'cylinder',
        fluid: 'liquid',
        behavior: 'inflow',
        position: [-0.6, 0.7, 0],
        rotation: [0, 0, 90],
        scale: [0.14, 0.14, 0.14],
        velocity: [4, 0, 0],
        rate: 24,
        temperature: 293.15,
      }),
      sceneObject('wall', 'obstacle', 'Wall', {
        shape: 'box',
        position: [0.5, 0.55, 0],
        scale: [0.1, 1.1, 0.6],
      }),
    ],
    tracks: [
      {
        objectId: 'nozzle',
        path: 'rate',
        keys: [
          { frame: 1, value: 24, interp: 'constant' },
          { frame: 48, value: 0, interp: 'constant' },
        ],
      },
    ],
    meshes: [],
  }
  return { doc, meshes: [] }
}
