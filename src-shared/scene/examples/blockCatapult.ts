// 'block-catapult': Carlson 2004 Figure 17 ("block splash"). A 20 cm silver block (relative
// density 9) drops from the top of a 1 m tall room onto the raised end of a wooden plank
// (0.74) that lies across a pivot block, and the plank's other end catapults three small
// wooden blocks (0.6) up and over into a wall of water released from the far side of the room.
// A large turquoise block (relative density 2, eight times the silver block's volume) stands in
// the water's path and is pushed around by it; the silver block is heavy enough that the water
// goes over and around it.
//   grid: the thesis's 93 x 73 x 60 (Table 8) at resolution 93: a 93/73 x 1 x 60/73 m room
//     (1/73 m cells); the default 62 gives 62 x 49 x 40 (2.1 cm cells);
//   catapult (x along the room, y up): a fixed pivot block 8 cm wide and 14 cm tall; an
//     84 x 5 x 30 cm plank resting on the floor at its left end and on the pivot's top edge
//     48 cm along, so it rises at 17 degrees to the right; the silver block's drop lands on
//     the plank's right arm, which swings the left arm up;
//   water: a 29 cm wide, 75 cm tall column against the right wall, the full depth of the room,
//     released at the start;
//   time steps: a CFL number of 2 and up to 8 substeps a frame.
import type { SceneDocument, SceneObject, Vec3 } from '../types'
import { liquidBox, liquidDomain, resolutionOr, sceneObject } from './build'
import type { ExampleOptions, ExampleScene } from './types'

export const CATAPULT_ROOM: Vec3 = [93 / 73, 1, 60 / 73]
/** Lane of the catapult across the room (z centre), m. */
const LANE = -0.19
const PIVOT = { x: -0.08, width: 0.08, height: 0.14, depth: 0.34 }
export const PLANK = { length: 0.84, thickness: 0.05, depth: 0.3, contact: 0.48 }
/** Everything resting starts this far above what it rests on, m. */
const GAP = 0.003
export const SILVER = 0.2
const SMALL = 0.08

export function blockCatapultScene(options?: ExampleOptions): ExampleScene {
  const [sx, sy, sz] = CATAPULT_ROOM
  // The plank's underside passes through the pivot's top left corner, PLANK.contact from its
  // left end, which is on the floor.
  const sin = (PIVOT.height + GAP) / PLANK.contact
  const angle = Math.asin(sin)
  const cos = Math.cos(angle)
  const deg = (angle * 180) / Math.PI
  const cornerX = PIVOT.x - PIVOT.width / 2 - PLANK.contact * cos
  const cornerY = GAP
  /** A point s along the plank's underside from its left end and t above it (normal to the plank). */
  const onPlank = (s: number, t: number): [number, number] => [cornerX + s * cos - t * sin, cornerY + s * sin + t * cos]
  const [plankX, plankY] = onPlank(PLANK.length / 2, PLANK.thickness / 2)
  const small = (n: number, s: number, z: number): SceneObject => {
    const [x, y] = onPlank(s, PLANK.thickness + GAP + SMALL / 2)
    return sceneObject(`block-${n}`, 'rigidBody', `Wooden block ${n}`, {
      shape: 'box',
      position: [x, y, z],
      rotation: [0, 0, deg],
      scale: [SMALL, SMALL, SMALL],
      relativeDensity: 0.6,
      restitution: 0.2,
      friction: 0.6,
    })
  }
  const column = { x0: sx / 2 - 0.29, height: 0.75 }
  const objects: SceneObject[] = [
    liquidDomain('domain', 'Room', {
      position: [0, sy / 2, 0],
      size: [sx, sy, sz],
      resolution: resolutionOr(options, 62),
      cfl: 2,
      maxSubsteps: 8,
    }),
    liquidBox('water', 'Water column', [(column.x0 + sx / 2) / 2, column.height / 2, 0], [sx / 2 - column.x0, column.height, sz]),
    sceneObject('pivot', 'obstacle', 'Pivot block', {
      shape: 'box',
      position: [PIVOT.x, PIVOT.height / 2, LANE],
      scale: [PIVOT.width, PIVOT.height, PIVOT.depth],
    }),
    sceneObject('plank', 'rigidBody', 'Plank', {
      shape: 'box',
      position: [plankX, plankY, LANE],
      rotation: [0, 0, deg],
      scale: [PLANK.length, PLANK.thickness, PLANK.depth],
      relativeDensity: 0.74,
      restitution: 0.1,
      friction: 0.6,
    }),
    small(1, 0.07, LANE - 0.07),
    small(2, 0.18, LANE + 0.06),
    small(3, 0.29, LANE - 0.03),
    // Over the right arm, 10-30 cm right of the pivot: the room is 1 m tall, the block's top 2 cm under the ceiling.
    sceneObject('silver', 'rigidBody', 'Silver block', {
      shape: 'box',
      position: [PIVOT.x + 0.18, sy - 0.02 - SILVER / 2, LANE],
      scale: [SILVER, SILVER, SILVER],
      relativeDensity: 9,
      restitution: 0.1,
      friction: 0.5,
    }),
    // Twice the silver block's edge (eight times its volume), on the floor in the water's path.
    sceneObject('turquoise', 'rigidBody', 'Turquoise block', {
      shape: 'box',
      position: [-0.2, SILVER + GAP, sz / 2 - SILVER - 0.01],
      scale: [2 * SILVER, 2 * SILVER, 2 * SILVER],
      relativeDensity: 2,
      restitution: 0.1,
      friction: 0.4,
    }),
  ]
  const doc: SceneDocument = {
    meta: { name: 'Block catapult', fps: 24, frameStart: 1, frameEnd: 120 },
    objects,
    tracks: [],
    meshes: [],
  }
  return { doc, meshes: [] }
}
