// 'melting-bunny': Carlson 2004 Figures 11 and 14. A wax Stanford bunny stands on the floor
// under a heat lamp; the head warms past the melting point, turns to a runny melt, flows down
// the body and out over the floor, and hardens again where it leaves the lamp (ambient
// cooling pulls it back below the melting range).
//   grid: the thesis's 35 x 28 x 38 (Table 6): a 1.05 x 0.84 x 1.14 m box at 38 cells along
//     z gives dx = 3 cm and exactly that grid;
//   wax: 295 K at the start, melting point 330 K over a narrow 10 K range (wax turns runny
//     quickly once warm, sec. 4.3), solid 1e4 and melt 0.1 m²/s (Table 6: "0.1 - 10,000");
//   the full viscous stress (eqs. 59-60: Carlson's per-component eq. 57 damps any rotation of
//     the melt at its free surface, issue 12) and PIC velocities (flip 0), as in the thesis;
//   lamp: 420 K pulled in at 2/s within 0.25 m; it starts at the head and is lowered 0.25 m
//     over the first 7 s (a linear key on its height), so the melt front works down the body
//     instead of stopping once the head has run off; cooling 0.3/s towards 293 K air, so
//     melt that has left the lamp drops below 325 K in about 3 s and sets.
import type { SceneDocument } from '../types'
import { BUNNY_MESH_ID, bunnyExampleMesh } from './bunnyMesh'
import { liquidDomain, meshInfoOf, resolutionOr, sceneObject } from './build'
import type { ExampleOptions, ExampleScene } from './types'

/** Bunny scale: the scan is 9.7 units tall, so 0.06 gives a 0.58 m bunny. */
const BUNNY_SCALE = 0.06

export function meltingBunnyScene(options?: ExampleOptions): ExampleScene {
  const bunny = bunnyExampleMesh()
  const doc: SceneDocument = {
    meta: { name: 'Melting bunny', fps: 24, frameStart: 1, frameEnd: 240 },
    objects: [
      liquidDomain('domain', 'Wax domain', {
        position: [0, 0.42, 0],
        size: [1.05, 0.84, 1.14],
        resolution: resolutionOr(options, 38),
        flip: 0,
        viscosityModel: 'temperature',
        viscousStress: 'full',
        meltingPoint: 330,
        meltingWidth: 10,
        meltingRamp: 'linear',
        solidViscosity: 1e4,
        meltViscosity: 0.1,
        heatDiffusion: 1e-4,
        coolingRate: 0.3,
        ambientTemperature: 293.15,
      }),
      // The scan's feet are at y = 0 and its middle near x = z = 0; 5 mm up keeps the feet
      // off the floor's wall faces.
      sceneObject(
        'bunny',
        'emitter',
        'Wax bunny',
        {
          shape: 'mesh',
          fluid: 'liquid',
          behavior: 'geometry',
          position: [0.05, 0.005, 0],
          scale: [BUNNY_SCALE, BUNNY_SCALE, BUNNY_SCALE],
          temperature: 295,
          velocity: [0, 0, 0],
        },
        BUNNY_MESH_ID,
      ),
      // The head (scan x about -2.6, y about 8) ends up near (-0.11, 0.48, -0.03).
      sceneObject('lamp', 'heatSource', 'Heat lamp', {
        position: [-0.11, 0.56, -0.03],
        radius: 0.25,
        temperature: 420,
        rate: 2,
      }),
    ],
    tracks: [
      {
        objectId: 'lamp',
        path: 'position.1',
        keys: [
          { frame: 1, value: 0.56, interp: 'linear' },
          { frame: 169, value: 0.31, interp: 'linear' },
        ],
      },
    ],
    meshes: [meshInfoOf(bunny)],
  }
  return { doc, meshes: [bunny] }
}
