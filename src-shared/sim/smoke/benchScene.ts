// The scene of the Blender Mantaflow peer benchmark (../shared/peers/blender_smoke.py) in
// Eddy's Y-up world, for `eddy bench smoke`. Blender (x, y, z) Z-up maps to ours as
// (x, z, -y):
//   domain   2 m cube at Blender (0, 0, 1)     -> (0, 1, 0), closed on all sides
//   source   0.3 m cube at Blender (0, 0, 0.3) -> (0, 0.3, 0), smoke inflow
//   obstacle 0.4 m cube at Blender (0.1, 0, 1.2) -> (0.1, 1.2, 0)
// Vorticity 0.1, 24 fps, adaptive substeps 1..4 at CFL 4 (Blender's defaults). Blender's
// inflow refills the source every step with no initial velocity; here the rate is high
// enough (24 refills per second) that the source stays full, and the temperature (600 K in
// 293.15 K air) drives the plume by buoyancy.
import { defaultParams } from '../../scene/defaults'
import type { ParamValue, SceneDocument, SceneObject } from '../../scene/types'

function object(id: string, kind: SceneObject['kind'], name: string, params: Record<string, ParamValue>): SceneObject {
  return { id, kind, name, params: { ...defaultParams(kind), ...params } }
}

export function blenderSmokeScene(resolution: number): SceneDocument {
  return {
    meta: { name: 'Blender smoke peer', fps: 24, frameStart: 1, frameEnd: 48 },
    objects: [
      object('domain', 'domain', 'Domain', {
        position: [0, 1, 0],
        size: [2, 2, 2],
        solver: 'smoke',
        resolution,
        cfl: 4,
        minSubsteps: 1,
        maxSubsteps: 4,
        timeScale: 1,
        vorticity: 0.1,
      }),
      object('source', 'emitter', 'Source', {
        shape: 'box',
        position: [0, 0.3, 0],
        scale: [0.3, 0.3, 0.3],
        fluid: 'gas',
        density: 1,
        temperature: 600,
        velocity: [0, 0, 0],
        rate: 24,
      }),
      object('obstacle', 'obstacle', 'Obstacle', {
        shape: 'box',
        position: [0.1, 1.2, 0],
        scale: [0.4, 0.4, 0.4],
      }),
    ],
    tracks: [],
    meshes: [],
  }
}
