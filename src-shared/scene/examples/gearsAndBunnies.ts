// 'gears-and-bunnies': Carlson 2004 Figure 22. Eight metal gears (relative density 9) are
// thrown down into a metre-wide pool that holds three wooden Stanford bunnies (0.6) under
// water; the gears hit the water at about 4 m/s, sink, and strike the bunnies, which are rising
// to the surface at the same time.
//   grid: the thesis's 64 x 68 x 64 (Tables 8 and 9) at resolution 68: a 1 x 1.0625 x 1 m
//     tank (1/64 m cells); the default 51 gives 48 x 51 x 48 (1/48 m cells), which bakes in
//     reasonable time here. `eddy bench rigidfluid` bakes it at the thesis grid;
//   gears: the closed mesh of gearMesh.ts (17 cm across, 4 cm thick), released 30-45 cm above
//     the water moving down at 3 m/s, so they reach it at about 4 m/s, tilted every which way;
//   bunnies: the scan (bunnyMesh.ts) at scale 0.02, about 20 x 19 x 15 cm, held under 50 cm
//     of water at the start (their feet 8 cm off the floor), turned about the vertical;
//   time steps: a CFL number of 2 and up to 8 substeps a frame (sec. 5.7.1 limits a body to
//     about one cell a step; 2 keeps a falling gear's teeth from skipping cells).
import type { SceneDocument, SceneObject, Vec3 } from '../types'
import { BUNNY_MESH_ID, bunnyExampleMesh } from './bunnyMesh'
import { liquidBox, liquidDomain, meshInfoOf, resolutionOr, sceneObject } from './build'
import { GEAR_MESH_ID, gearMesh } from './gearMesh'
import type { ExampleOptions, ExampleScene } from './types'

/** Tank: 64 x 68 x 64 cells of 1/64 m at resolution 68. */
export const GEARS_SIZE: Vec3 = [1, 68 / 64, 1]
export const GEARS_WATER = 0.5
/** Resolution (cells along the tank's height) that gives the thesis grid, 64 x 68 x 64. */
export const GEARS_THESIS_RESOLUTION = 68
export const BUNNY_SCALE = 0.02

/** Gear centres (x, y, z) and tilts (XYZ Euler degrees): two rows of four, staggered heights. */
const GEARS: { position: Vec3; rotation: Vec3 }[] = [
  { position: [-0.33, 0.82, -0.2], rotation: [35, 0, 10] },
  { position: [-0.11, 0.9, -0.22], rotation: [80, 20, 0] },
  { position: [0.11, 0.84, -0.18], rotation: [10, 0, -30] },
  { position: [0.33, 0.92, -0.2], rotation: [60, 45, 0] },
  { position: [-0.33, 0.92, 0.2], rotation: [-20, 0, 50] },
  { position: [-0.11, 0.83, 0.22], rotation: [0, 0, 85] },
  { position: [0.11, 0.93, 0.18], rotation: [45, 30, 20] },
  { position: [0.33, 0.85, 0.2], rotation: [-70, 0, 0] },
]

/** Bunny feet positions and turns about y (the scan's feet are at its y = 0). */
const BUNNIES: { position: Vec3; turn: number }[] = [
  { position: [-0.22, 0.08, -0.18], turn: 30 },
  { position: [0.24, 0.08, -0.1], turn: -60 },
  { position: [0.02, 0.08, 0.24], turn: 150 },
]

export function gearsAndBunniesScene(options?: ExampleOptions): ExampleScene {
  const bunny = bunnyExampleMesh()
  const gear = gearMesh()
  const [sx, sy, sz] = GEARS_SIZE
  const objects: SceneObject[] = [
    liquidDomain('domain', 'Pool', {
      position: [0, sy / 2, 0],
      size: [sx, sy, sz],
      resolution: resolutionOr(options, 51),
      cfl: 2,
      maxSubsteps: 8,
    }),
    liquidBox('water', 'Water', [0, GEARS_WATER / 2, 0], [sx, GEARS_WATER, sz]),
  ]
  BUNNIES.forEach((b, i) =>
    objects.push(
      sceneObject(
        `bunny-${i + 1}`,
        'rigidBody',
        `Wooden bunny ${i + 1}`,
        { shape: 'mesh', position: b.position, rotation: [0, b.turn, 0], scale: [BUNNY_SCALE, BUNNY_SCALE, BUNNY_SCALE], relativeDensity: 0.6, restitution: 0.2, friction: 0.5 },
        BUNNY_MESH_ID,
      ),
    ),
  )
  GEARS.forEach((g, i) =>
    objects.push(
      sceneObject(
        `gear-${i + 1}`,
        'rigidBody',
        `Gear ${i + 1}`,
        { shape: 'mesh', position: g.position, rotation: g.rotation, scale: [1, 1, 1], relativeDensity: 9, initialVelocity: [0, -3, 0], restitution: 0.2, friction: 0.4 },
        GEAR_MESH_ID,
      ),
    ),
  )
  const doc: SceneDocument = {
    meta: { name: 'Gears and bunnies', fps: 24, frameStart: 1, frameEnd: 192 },
    objects,
    tracks: [],
    // By name, as a project file lists them ('Gear', 'Stanford bunny').
    meshes: [meshInfoOf(gear), meshInfoOf(bunny)],
  }
  return { doc, meshes: [gear, bunny] }
}
