// Vertex normals of the liquid mesh: area-weighted face normals (each face's unnormalised
// cross product, length = 2 x area, summed into its three corners).
//
// Chosen over the phi gradient because the normals then describe the triangles actually
// drawn: marching cubes slivers carry almost no weight, the caps where liquid meets a wall
// get the wall's normal (phi is clamped there, so its gradient has a kink), and the normals
// need nothing but the final mesh, so they stay right after small drops are removed. The cost
// is a faceted look on very coarse meshes, which the refinement factor addresses.
// The routine itself is the project's one area-weighted normal kernel, in geometry/triMesh.ts.
import { defineKernel, f32, f64, i32, int, size, sizedRow } from '../../core/kernelTable'
import { accumulateFaceNormals, normalizeVertexNormals } from '../../../geometry/triMesh'

export { areaWeightedNormals } from '../../../geometry/triMesh'

// On the kernels (a mesh of 340,000 triangles took about 9 ms a frame on the calling thread
// while the other threads waited): the faces' sums as one serial row (each vertex sums its faces
// in face order, as the reference does), then the normalisation as a row over vertices split
// over the threads. The twin keeps the reference's float64 expressions: the same bits.

/** accumulateFaceNormals as a row of one index (serial). Args: positions, indices, triangles, acc, vertices. */
export const NORMALS_ACCUMULATE = defineKernel({
  name: 'normalsAccumulate',
  args: [f32('positions'), i32('indices'), int('triangles'), f64('acc'), int('vertices')],
  split: 'rows',
  range: () => 1,
  ref: (positions: Float32Array, indices: Uint32Array, triangles: number, acc: Float64Array, vertices: number, k0: number, k1: number) => {
    if (k0 < k1) accumulateFaceNormals(positions, indices, triangles, acc, vertices)
  },
})

/** normalizeVertexNormals over vertices [0, vertices). */
export const NORMALS_NORMALIZE = sizedRow('normalsNormalize', [f64('acc'), f32('out'), size('vertices')], 'rows', () => 1, 4, normalizeVertexNormals)
