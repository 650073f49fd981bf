// Two smoke examples (Selle, Rasmussen and Fedkiw 2005):
// 'vortex-plume': the same hot plume rising around a sphere and a bar in two domains side by
//   side, one whose emitter seeds vortex particles (the turbulent rolls a plain grid smooths
//   away, the paper's Figure 4 look) and one without, so the difference is seen in one bake each.
// 'moving-wake': a sphere dragged through a layer of smoke on keyframes, leaving a wake of
//   vortices behind it (the paper's moving-object figures); vortex particles shed from the layer.
import type { SceneDocument, SceneObject, Track } from '../types'
import { resolutionOr, sceneObject } from './build'
import type { ExampleOptions, ExampleScene } from './types'

/** A smoke domain with the settings given (everything else default). */
function smokeDomain(id: string, name: string, params: Record<string, number | string | boolean | [number, number, number]>): SceneObject {
  return sceneObject(id, 'domain', name, { solver: 'smoke', cfl: 4, minSubsteps: 1, maxSubsteps: 4, ...params })
}

/** A hot smoke source: a flat cylinder on the floor of its domain. */
function hotSource(id: string, name: string, x: number, vortexRate: number): SceneObject {
  return sceneObject(id, 'emitter', name, {
    shape: 'cylinder',
    fluid: 'gas',
    position: [x, 0.15, 0],
    scale: [0.5, 0.2, 0.5],
    density: 1,
    temperature: 700,
    velocity: [0, 0.6, 0],
    rate: 24,
    vortexRate,
    vortexStrength: 40,
    vortexRadius: 3,
  })
}

export function vortexPlumeScene(options?: ExampleOptions): ExampleScene {
  const resolution = resolutionOr(options, 64)
  const objects: SceneObject[] = []
  for (const [side, x, rate] of [
    ['particles', -1.3, 600],
    ['grid', 1.3, 0],
  ] as const) {
    const label = side === 'particles' ? 'With vortex particles' : 'Grid only'
    objects.push(
      smokeDomain(`domain-${side}`, label, { position: [x, 1.5, 0], size: [2, 3, 2], resolution, vorticity: 0.1, vortexConfinement: 4, vortexRadius: 3 }),
      hotSource(`source-${side}`, `Source (${label.toLowerCase()})`, x, rate),
      // The plume splits around a sphere, then rolls past a bar higher up.
      sceneObject(`sphere-${side}`, 'obstacle', `Sphere (${label.toLowerCase()})`, { shape: 'sphere', position: [x + 0.1, 1.1, 0], scale: [0.45, 0.45, 0.45] }),
      sceneObject(`bar-${side}`, 'obstacle', `Bar (${label.toLowerCase()})`, { shape: 'box', position: [x - 0.25, 2.1, 0], scale: [0.6, 0.12, 1.2] }),
    )
  }
  const doc: SceneDocument = { meta: { name: 'Vortex plume', fps: 24, frameStart: 1, frameEnd: 144 }, objects, tracks: [], meshes: [] }
  return { doc, meshes: [] }
}

export function movingWakeScene(options?: ExampleOptions): ExampleScene {
  const resolution = resolutionOr(options, 80)
  const objects: SceneObject[] = [
    smokeDomain('domain', 'Wake domain', { position: [0, 1, 0], size: [4, 2, 2], resolution, vorticity: 0.15, vortexConfinement: 4, vortexRadius: 3, densityDissipation: 0.05 }),
    // A layer of cool smoke filled at the start and kept topped up: no buoyancy to speak of.
    sceneObject('layer', 'emitter', 'Smoke layer', {
      shape: 'box',
      fluid: 'gas',
      position: [0, 0.45, 0],
      scale: [3.8, 0.5, 1.8],
      density: 0.6,
      temperature: 293.15,
      velocity: [0, 0, 0],
      rate: 0.5,
      vortexRate: 200,
      vortexStrength: 15,
      vortexRadius: 3,
    }),
    sceneObject('sphere', 'obstacle', 'Moving sphere', { shape: 'sphere', position: [-1.6, 0.5, 0], scale: [0.4, 0.4, 0.4] }),
  ]
  // The sphere crosses the layer in four seconds, then waits while its wake rolls up.
  const tracks: Track[] = [
    {
      objectId: 'sphere',
      path: 'position.0',
      keys: [
        { frame: 12, value: -1.6, interp: 'linear' },
        { frame: 108, value: 1.6, interp: 'linear' },
      ],
    },
  ]
  const doc: SceneDocument = { meta: { name: 'Moving wake', fps: 24, frameStart: 1, frameEnd: 168 }, objects, tracks, meshes: [] }
  return { doc, meshes: [] }
}
