// The Stanford bunny (npm 'bunny' 1.0.1: 1839 vertices, 3674 triangles, scan units, Y up,
// about 9.9 x 9.7 x 7.5 units, feet at y = 0). Its surface is closed (every edge is used once
// in each direction; isClosedSurface says so, and a test checks it), so it can be an initial
// liquid volume as it is: no hole filling needed. Coordinates are kept raw; scenes size it with
// the emitter's scale, as an artist importing the file would.
import bunny from 'bunny'
import type { ExampleMesh } from './types'

export const BUNNY_MESH_ID = 'mesh-bunny'

export function bunnyExampleMesh(): ExampleMesh {
  return {
    id: BUNNY_MESH_ID,
    name: 'Stanford bunny',
    positions: Float32Array.from(bunny.positions.flat()),
    indices: Uint32Array.from(bunny.cells.flat()),
  }
}
