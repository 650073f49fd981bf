// Three examples of the tetrahedral liquid (Chentanez et al. 2007):
// 'tet-wave': the paper's Figure 3: a block of water released at one end of a long tank runs as
//   a wave over a hemispherical obstacle standing on the floor.
// 'tet-spray': the paper's Figure 4: a jet of water thrown against a wall breaks into sheets
//   and drops, in two domains side by side: with thickening (left) and without (right), so the
//   vanishing drops and the volume lost without it are seen in one bake of each.
// 'tet-dam-break': the peer benchmark's dam break (dam-break, Blender Mantaflow) on the
//   tetrahedral liquid.
import type { SceneDocument, SceneObject } from '../types'
import { liquidBox, resolutionOr, sceneObject } from './build'
import { damBreakScene } from './damBreak'
import type { ExampleOptions, ExampleScene } from './types'

/** A tetrahedral-liquid domain with the settings given (everything else default). */
function tetDomain(id: string, name: string, params: Record<string, number | string | boolean | [number, number, number]>): SceneObject {
  return sceneObject(id, 'domain', name, { solver: 'tetliquid', cfl: 2, minSubsteps: 1, maxSubsteps: 8, ...params })
}

export function tetWaveScene(options?: ExampleOptions): ExampleScene {
  const doc: SceneDocument = {
    meta: { name: 'Wave over a hemisphere', fps: 24, frameStart: 1, frameEnd: 96 },
    objects: [
      tetDomain('domain', 'Tank', { position: [0, 0.5, 0], size: [3, 1, 1.2], resolution: resolutionOr(options, 72) }),
      liquidBox('block', 'Released block', [-1.2, 0.35, 0], [0.6, 0.7, 1.2]),
      liquidBox('layer', 'Shallow layer', [0.3, 0.05, 0], [2.4, 0.1, 1.2]),
      // A sphere centred on the floor: the half above it is the hemisphere.
      sceneObject('hemisphere', 'obstacle', 'Hemisphere', { shape: 'sphere', position: [0.4, 0, 0], scale: [0.6, 0.6, 0.6] }),
    ],
    tracks: [],
    meshes: [],
  }
  return { doc, meshes: [] }
}

/** One half of the spray: a domain with its own jet, thickening on or off. */
function sprayHalf(id: string, name: string, x: number, thickening: boolean, resolution: number): SceneObject[] {
  return [
    tetDomain(id, name, { position: [x, 0.75, 0], size: [1.5, 1.5, 0.8], resolution, thickening }),
    sceneObject(`${id}-jet`, 'emitter', `${name} jet`, {
      shape: 'sphere', fluid: 'liquid', behavior: 'inflow', position: [x - 0.5, 0.3, 0], scale: [0.16, 0.16, 0.16], velocity: [3.5, 2.5, 0], rate: 1,
    }),
  ]
}

export function tetSprayScene(options?: ExampleOptions): ExampleScene {
  const res = resolutionOr(options, 64)
  const doc: SceneDocument = {
    meta: { name: 'Spray with and without thickening', fps: 24, frameStart: 1, frameEnd: 72 },
    objects: [...sprayHalf('with', 'With thickening', -0.9, true, res), ...sprayHalf('without', 'Without thickening', 0.9, false, res)],
    tracks: [],
    meshes: [],
  }
  return { doc, meshes: [] }
}

export function tetDamBreakScene(options?: ExampleOptions): ExampleScene {
  const { doc, meshes } = damBreakScene(options)
  const objects = doc.objects.map((o) => (o.kind === 'domain' ? { ...o, name: 'Dam domain (tetrahedral)', params: { ...o.params, solver: 'tetliquid', cfl: 2, maxSubsteps: 8 } } : o))
  return { doc: { ...doc, meta: { ...doc.meta, name: 'Dam break (tetrahedral)' }, objects }, meshes }
}
