// Vertex normals of the liquid mesh: area-weighted face normals (each face's unnormalised
// cross product, length = 2 x area, summed into its three corners).
//
// Chosen over the phi gradient because the normals then describe the triangles actually
// drawn: marching cubes slivers carry almost no weight, the caps where liquid meets a wall
// get the wall's normal (phi is clamped there, so its gradient has a kink), and the normals
// need nothing but the final mesh, so they stay right after small drops are removed. The cost
// is a faceted look on very coarse meshes, which the refinement factor addresses.

/**
 * Writes unit normals for vertices 0..vertexCount-1 into out (3 per vertex). `acc` is float64
 * scratch of at least 3 * vertexCount: a vertex shared by many faces would lose bits in
 * float32. A vertex with no non-degenerate face gets a zero normal, never NaN.
 */
export function areaWeightedNormals(
  positions: Float32Array,
  vertexCount: number,
  indices: Uint32Array,
  triangleCount: number,
  out: Float32Array,
  acc: Float64Array,
): void {
  const p = positions
  acc.fill(0, 0, 3 * vertexCount)
  for (let t = 0; t < 3 * triangleCount; t += 3) {
    const a = 3 * indices[t], b = 3 * indices[t + 1], c = 3 * indices[t + 2]
    const ux = p[b] - p[a], uy = p[b + 1] - p[a + 1], uz = p[b + 2] - p[a + 2]
    const vx = p[c] - p[a], vy = p[c + 1] - p[a + 1], vz = p[c + 2] - p[a + 2]
    const nx = uy * vz - uz * vy, ny = uz * vx - ux * vz, nz = ux * vy - uy * vx
    acc[a] += nx; acc[a + 1] += ny; acc[a + 2] += nz
    acc[b] += nx; acc[b + 1] += ny; acc[b + 2] += nz
    acc[c] += nx; acc[c + 1] += ny; acc[c + 2] += nz
  }
  for (let i = 0; i < 3 * vertexCount; i += 3) {
    const len = Math.sqrt(acc[i] * acc[i] + acc[i + 1] * acc[i + 1] + acc[i + 2] * acc[i + 2])
    const s = len > 0 ? 1 / len : 0
    out[i] = acc[i] * s
    out[i + 1] = acc[i + 1] * s
    out[i + 2] = acc[i + 2] * s
  }
}
