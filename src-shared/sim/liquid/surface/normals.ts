// Vertex normals of the liquid mesh: area-weighted face normals (each face's unnormalised
// cross product, length = 2 x area, summed into its three corners).
//
// Chosen over the phi gradient because the normals then describe the triangles actually
// drawn: marching cubes slivers carry almost no weight, the caps where liquid meets a wall
// get the wall's normal (phi is clamped there, so its gradient has a kink), and the normals
// need nothing but the final mesh, so they stay right after small drops are removed. The cost
// is a faceted look on very coarse meshes, which the refinement factor addresses.
// The routine itself is the project's one area-weighted normal kernel, in geometry/triMesh.ts.
export { areaWeightedNormals } from '../../../geometry/triMesh'
