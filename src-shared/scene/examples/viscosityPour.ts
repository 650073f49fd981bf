// 'viscosity-pour': Carlson 2004 Figure 12. Liquid is thrown from above into a free-slip
// container that already holds a shallow pool, with viscosities 0.1, 1, 10 and 100 m²/s side
// by side. Four domains, one per viscosity: the thesis ran them as four separate simulations
// ("Green Liquid 1-4" in Table 6, each 32 x 32 x 32 with its own simulation time), and a
// domain has one viscosity, so each column is its own 1 m container and its own bake.
// Each container has a tilted slab inside (the figure's "complex boundaries") that the thrown
// blob lands on and slides off into the pool.
import type { SceneDocument, SceneObject } from '../types'
import { liquidBox, liquidDomain, resolutionOr, sceneObject } from './build'
import type { ExampleOptions, ExampleScene } from './types'

export const POUR_VISCOSITIES = [0.1, 1, 10, 100] as const

/** Container centres along x: 1 m boxes 0.1 m apart. */
const SPACING = 1.1

export function viscosityPourScene(options?: ExampleOptions): ExampleScene {
  const resolution = resolutionOr(options, 32)
  const objects: SceneObject[] = []
  POUR_VISCOSITIES.forEach((nu, i) => {
    const x = (i - (POUR_VISCOSITIES.length - 1) / 2) * SPACING
    const n = i + 1
    objects.push(
      liquidDomain(`domain-${n}`, `Viscosity ${nu}`, {
        position: [x, 0.5, 0],
        size: [1, 1, 1],
        resolution,
        viscosityModel: 'constant',
        viscosity: nu,
        viscousStress: 'carlson',
        wallSlip: 'free',
      }),
      liquidBox(`pool-${n}`, `Pool ${n}`, [x, 0.06, 0], [1, 0.12, 1]),
      sceneObject(`blob-${n}`, 'emitter', `Thrown liquid ${n}`, {
        shape: 'sphere',
        fluid: 'liquid',
        behavior: 'geometry',
        position: [x - 0.25, 0.75, 0],
        scale: [0.3, 0.3, 0.3],
        velocity: [1.5, -2, 0],
        temperature: 293.15,
      }),
      sceneObject(`slab-${n}`, 'obstacle', `Slab ${n}`, {
        shape: 'box',
        position: [x + 0.2, 0.35, 0],
        rotation: [0, 0, -25],
        scale: [0.45, 0.05, 0.7],
      }),
    )
  })
  const doc: SceneDocument = {
    meta: { name: 'Viscosity pour', fps: 24, frameStart: 1, frameEnd: 240 },
    objects,
    tracks: [],
    meshes: [],
  }
  return { doc, meshes: [] }
}
