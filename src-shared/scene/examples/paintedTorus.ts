// 'painted-torus': flows on a Catmull-Clark surface of genus 1 (Stam 2003, sec. 5: paint running
// down a surface under gravity, the paper's Figures 10-12). A torus cage (a ring of eight cubes,
// 0.5 m each, subdivided once into 128 patches) stands on its side so gravity pulls paint around
// the ring; three brushes on its upper rim paint red, yellow and blue for the first second and a
// half, each pushing the paint around the ring a different way, and the colours run down both
// faces and mix in the hole. 16 cells a patch bakes at about a frame a second here.
import type { PolyMesh } from '../../geometry/catmullClark'
import { doubleTorusCage, torusCage } from '../../geometry/voxelCages'
import type { CageGeometry, ParamValue, SceneDocument, SceneObject, Track } from '../types'
import { sceneObject } from './build'
import type { ExampleScene } from './types'

function cageObject(id: string, name: string, mesh: PolyMesh, params: Record<string, ParamValue>): SceneObject {
  const obj = sceneObject(id, 'ccCage', name, params)
  const cage: CageGeometry = { positions: Array.from(mesh.positions), faces: mesh.faces.map((f) => Array.from(f)) }
  obj.cage = cage
  return obj
}

/** Switches a brush off (rate 0) from `frame` on. */
const offFrom = (objectId: string, frame: number): Track => ({
  objectId,
  path: 'rate',
  keys: [
    { frame: 1, value: 30, interp: 'constant' },
    { frame, value: 0, interp: 'constant' },
  ],
})

export function paintedTorusScene(): ExampleScene {
  const torus = cageObject('torus', 'Torus', torusCage(0.5), { position: [0, 1, 0], rotation: [90, 0, 0], cellsPerPatch: 16, colorDiffusion: 2e-4, surfaceDrag: 0.3 })
  const brush = (id: string, name: string, x: number, colour: [number, number, number], push: [number, number, number]) =>
    sceneObject(id, 'emitter', name, { shape: 'sphere', position: [x, 1.75, 0], scale: [0.3, 0.3, 0.3], paintColor: colour, velocity: push, rate: 30 })
  const doc: SceneDocument = {
    meta: { name: 'Painted torus', fps: 24, frameStart: 1, frameEnd: 120 },
    objects: [
      torus,
      brush('red', 'Red brush', -0.45, [0.9, 0.05, 0.03], [0.6, 0, 0]),
      brush('yellow', 'Yellow brush', 0, [0.95, 0.75, 0.05], [0, 0, 0.6]),
      brush('blue', 'Blue brush', 0.45, [0.05, 0.2, 0.9], [-0.6, 0, 0]),
    ],
    tracks: [offFrom('red', 36), offFrom('yellow', 36), offFrom('blue', 36)],
    meshes: [],
  }
  return { doc, meshes: [] }
}

/**
 * 'pattern-double-torus': Gray-Scott reaction-diffusion on a genus-2 surface (Stam 2003,
 * Figure 16): spots grow from random seeds into a maze across every patch and both handles.
 * 200 patches at 12 cells a patch, 25 reaction steps a frame: about 2 s a frame here.
 */
export function patternDoubleTorusScene(): ExampleScene {
  const surface = cageObject('surface', 'Double torus', doubleTorusCage(0.4), { position: [0, 1, 0], flowMode: 'reactionDiffusion', cellsPerPatch: 12, patternSeeds: 30, feedRate: 0.037, killRate: 0.06, diffusionU: 4e-5, diffusionV: 2e-5 })
  const doc: SceneDocument = { meta: { name: 'Pattern on a double torus', fps: 24, frameStart: 1, frameEnd: 120 }, objects: [surface], tracks: [], meshes: [] }
  return { doc, meshes: [] }
}
