// 'dam-break': the scene of the Blender Mantaflow peer benchmark
// (../shared/peers/blender_liquid.py, and blender_viscous.py with a viscosity), in Eddy's Y-up
// world. Blender (x, y, z) Z-up maps to ours as (x, z, -y), sizes (sx, sy, sz) to (sx, sz, sy):
//   domain   2 m cube at Blender (0, 0, 1)                 -> centre (0, 1, 0), closed sides
//   water    0.6 x 1.0 x 1.2 m box at Blender (-0.7, 0, 0.6) -> centre (-0.7, 0.6, 0), size 0.6 x 1.2 x 1.0
//   obstacle 0.3 m cube at Blender (0.3, 0, 0.15)         -> centre (0.3, 0.15, 0)
// Blender's defaults otherwise: adaptive substeps 1..4 at CFL 4, surface mesh on a grid twice
// as fine as the simulation's (mesh_scale 2 = meshRefinement 2), 24 fps.
import type { SceneDocument } from '../types'
import { liquidBox, liquidDomain, resolutionOr, sceneObject } from './build'
import type { ExampleOptions, ExampleScene } from './types'

export interface DamBreakOptions extends ExampleOptions {
  /**
   * Kinematic viscosity, m²/s, with full stress (the variational solve Blender's
   * use_viscosity runs, Batty and Bridson 2008); absent or 0: water (inviscid).
   */
  viscosity?: number
}

export function damBreakScene(options?: DamBreakOptions): ExampleScene {
  const viscosity = options?.viscosity ?? 0
  const doc: SceneDocument = {
    meta: { name: viscosity > 0 ? 'Viscous dam break' : 'Dam break', fps: 24, frameStart: 1, frameEnd: 96 },
    objects: [
      liquidDomain('domain', 'Dam domain', {
        position: [0, 1, 0],
        size: [2, 2, 2],
        resolution: resolutionOr(options, 48),
        cfl: 4,
        minSubsteps: 1,
        maxSubsteps: 4,
        viscosityModel: 'constant',
        viscosity,
        viscousStress: 'full',
        meshSurface: true,
        meshRefinement: 2,
      }),
      liquidBox('water', 'Water column', [-0.7, 0.6, 0], [0.6, 1.2, 1.0]),
      sceneObject('obstacle', 'obstacle', 'Obstacle', {
        shape: 'box',
        position: [0.3, 0.15, 0],
        scale: [0.3, 0.3, 0.3],
      }),
    ],
    tracks: [],
    meshes: [],
  }
  return { doc, meshes: [] }
}
