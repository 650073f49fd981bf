// Barycentric coordinates of a point in a tetrahedron of a flat mesh (positions xyz, four
// vertex indices per tetrahedron): shared by point location (tetLocator.ts) and the finite
// volumes' interpolation (sim/core/tetfv/tetInterpolation.ts).

/**
 * out[0..3] = the barycentric coordinates of (x, y, z) in tet t (local vertex order): l_1..l_3
 * by Cramer's rule on x - p_0 = sum_k l_k (p_k - p_0), l_0 = 1 - l_1 - l_2 - l_3. Negative
 * entries mean the point is beyond the face opposite that vertex.
 */
export function barycentricCoordinates(positions: Float64Array, tets: Int32Array, t: number, x: number, y: number, z: number, out: Float64Array): void {
  const a = 3 * tets[4 * t], b = 3 * tets[4 * t + 1], c = 3 * tets[4 * t + 2], d = 3 * tets[4 * t + 3]
  const x0 = positions[a], y0 = positions[a + 1], z0 = positions[a + 2]
  const ux = positions[b] - x0, uy = positions[b + 1] - y0, uz = positions[b + 2] - z0
  const vx = positions[c] - x0, vy = positions[c + 1] - y0, vz = positions[c + 2] - z0
  const wx = positions[d] - x0, wy = positions[d + 1] - y0, wz = positions[d + 2] - z0
  const px = x - x0, py = y - y0, pz = z - z0
  // Rows of the inverse are the cross products of the other two edge vectors over the determinant.
  const cvwx = vy * wz - vz * wy, cvwy = vz * wx - vx * wz, cvwz = vx * wy - vy * wx
  const cwux = wy * uz - wz * uy, cwuy = wz * ux - wx * uz, cwuz = wx * uy - wy * ux
  const cuvx = uy * vz - uz * vy, cuvy = uz * vx - ux * vz, cuvz = ux * vy - uy * vx
  const inv = 1 / (ux * cvwx + uy * cvwy + uz * cvwz)
  const l1 = (px * cvwx + py * cvwy + pz * cvwz) * inv
  const l2 = (px * cwux + py * cwuy + pz * cwuz) * inv
  const l3 = (px * cuvx + py * cuvy + pz * cuvz) * inv
  out[0] = 1 - l1 - l2 - l3
  out[1] = l1
  out[2] = l2
  out[3] = l3
}

/**
 * barycentricCoordinates' per-tetrahedron terms, for a mesh that answers many queries: p_0,
 * (v x w), (w x u), (u x v) and 1 / det, 13 per tetrahedron, by the same expressions, so
 * barycentricInFrame gives the same bits.
 */
export function barycentricFrames(positions: Float64Array, tets: Int32Array): Float64Array {
  const nt = tets.length / 4
  const F = new Float64Array(13 * nt)
  for (let t = 0; t < nt; t++) {
    const a = 3 * tets[4 * t], b = 3 * tets[4 * t + 1], c = 3 * tets[4 * t + 2], d = 3 * tets[4 * t + 3]
    const x0 = positions[a], y0 = positions[a + 1], z0 = positions[a + 2]
    const ux = positions[b] - x0, uy = positions[b + 1] - y0, uz = positions[b + 2] - z0
    const vx = positions[c] - x0, vy = positions[c + 1] - y0, vz = positions[c + 2] - z0
    const wx = positions[d] - x0, wy = positions[d + 1] - y0, wz = positions[d + 2] - z0
    const cvwx = vy * wz - vz * wy, cvwy = vz * wx - vx * wz, cvwz = vx * wy - vy * wx
    const o = 13 * t
    F[o] = x0; F[o + 1] = y0; F[o + 2] = z0
    F[o + 3] = cvwx; F[o + 4] = cvwy; F[o + 5] = cvwz
    F[o + 6] = wy * uz - wz * uy; F[o + 7] = wz * ux - wx * uz; F[o + 8] = wx * uy - wy * ux
    F[o + 9] = uy * vz - uz * vy; F[o + 10] = uz * vx - ux * vz; F[o + 11] = ux * vy - uy * vx
    F[o + 12] = 1 / (ux * cvwx + uy * cvwy + uz * cvwz)
  }
  return F
}

/** barycentricCoordinates from a tetrahedron's precomputed terms (barycentricFrames): the same bits. */
export function barycentricInFrame(F: Float64Array, t: number, x: number, y: number, z: number, out: Float64Array): void {
  const o = 13 * t
  const px = x - F[o], py = y - F[o + 1], pz = z - F[o + 2]
  const inv = F[o + 12]
  const l1 = (px * F[o + 3] + py * F[o + 4] + pz * F[o + 5]) * inv
  const l2 = (px * F[o + 6] + py * F[o + 7] + pz * F[o + 8]) * inv
  const l3 = (px * F[o + 9] + py * F[o + 10] + pz * F[o + 11]) * inv
  out[0] = 1 - l1 - l2 - l3
  out[1] = l1
  out[2] = l2
  out[3] = l3
}
