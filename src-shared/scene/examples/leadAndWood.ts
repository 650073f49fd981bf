// 'lead-and-wood': Carlson 2004 Figures 2 and 19. A lead ball (relative density 11) and a
// wooden one (0.55) are thrown into a metre-wide pool: the same downward velocity, 3.1 m/s,
// equal and opposite horizontal velocities, 3.8 m/s, and opposite spins of 1000 rpm
// (6000 deg/s) about the vertical axis. They start slightly off-centre from one another (4 cm
// apart across the pool) so that they strike each other a glancing blow as they reach the
// water: the lead ball is barely deflected, the wooden one is driven back against the wall.
//   grid: the thesis's 96 x 64 x 48 (Table 8) at resolution 96: a 1 x 2/3 x 1/2 m pool; the
//     default 48 (48 x 32 x 24, 2.1 cm cells) bakes in minutes here;
//   balls: 16 cm across (the thesis does not give a size; its figures show balls a sixth of
//     the pool wide), 30 cm of water;
//   time steps: at most 12 substeps a frame at a CFL number of 2, because a ball's surface
//     moves at up to |v| + |omega| r = 4.9 + 8.4 m/s at the start (the thesis limits its
//     steps the same way, footnote 3 of sec. 5.7.1).
import type { SceneDocument } from '../types'
import { liquidBox, liquidDomain, resolutionOr, sceneObject } from './build'
import type { ExampleOptions, ExampleScene } from './types'

/** Pool: 1 m along x (the throw), 2/3 m tall, 1/2 m deep. */
export const LEAD_AND_WOOD_SIZE: [number, number, number] = [1, 2 / 3, 1 / 2]
export const LEAD_AND_WOOD_WATER = 0.3
/** Ball diameter, m. */
export const BALL = 0.16
/** 1000 rpm in degrees per second. */
export const RPM_1000 = (1000 * 360) / 60

export function leadAndWoodScene(options?: ExampleOptions): ExampleScene {
  const [sx, sy, sz] = LEAD_AND_WOOD_SIZE
  const water = LEAD_AND_WOOD_WATER
  const ball = (id: string, name: string, x: number, z: number, relativeDensity: number, vx: number, spin: number) =>
    sceneObject(id, 'rigidBody', name, {
      shape: 'sphere',
      position: [x, 0.52, z],
      scale: [BALL, BALL, BALL],
      relativeDensity,
      initialVelocity: [vx, -3.1, 0],
      initialSpin: [0, spin, 0],
      restitution: 0.3,
      friction: 0.3,
    })
  const doc: SceneDocument = {
    meta: { name: 'Lead and wood', fps: 24, frameStart: 1, frameEnd: 120 },
    objects: [
      liquidDomain('domain', 'Pool', {
        position: [0, sy / 2, 0],
        size: [sx, sy, sz],
        resolution: resolutionOr(options, 48),
        cfl: 2,
        maxSubsteps: 12,
      }),
      liquidBox('water', 'Water', [0, water / 2, 0], [sx, water, sz]),
      // Lead from the left, wood from the right, 4 cm apart across the pool (z).
      ball('lead', 'Lead ball', -0.32, -0.02, 11, 3.8, RPM_1000),
      ball('wood', 'Wooden ball', 0.32, 0.02, 0.55, -3.8, -RPM_1000),
    ],
    tracks: [],
    meshes: [],
  }
  return { doc, meshes: [] }
}
