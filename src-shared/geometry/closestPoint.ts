// Exact closest point on a triangle, after Ericson, "Real-Time Collision Detection" (2005),
// sec. 5.1.5 (ClosestPtPointTriangle): the Voronoi regions of the three vertices, three edges
// and the face are tested in turn with six dot products, so no square roots and no
// projection onto the triangle's plane followed by clamping (which is wrong near obtuse
// corners). The region is returned too: a signed-distance caller that uses angle-weighted
// pseudo-normals (Baerentzen & Aanaes 2005) must know whether the closest point is on a
// vertex, an edge or the interior, because only the matching pseudo-normal gives the
// right sign there.
//
// Everything is computed in doubles from the caller's coordinates; results go into a
// caller-provided array so the function allocates nothing (it runs millions of times per
// SDF grid).

/** Closest point inside the face. */
export const REGION_FACE = 0
/** Closest point is vertex a (resp. b, c). */
export const REGION_VERTEX_A = 1
export const REGION_VERTEX_B = 2
export const REGION_VERTEX_C = 3
/** Closest point is inside edge ab (resp. bc, ca). */
export const REGION_EDGE_AB = 4
export const REGION_EDGE_BC = 5
export const REGION_EDGE_CA = 6

/** Number of slots closestPointOnTriangle writes: x, y, z, then barycentric weights of a, b, c. */
export const CLOSEST_POINT_SIZE = 6

/**
 * Closest point to p on triangle abc. Writes out[o..o+2] = the point and out[o+3..o+5] =
 * its barycentric weights (wa, wb, wc), wa + wb + wc = 1, all in [0, 1]; returns the
 * REGION_* code. Degenerate triangles (zero area: repeated or collinear corners) are
 * handled as the union of their edges, so the answer is always finite.
 * Convenience form; hot loops use closestPointOnTriangleIn (same arithmetic, same bits).
 */
export function closestPointOnTriangle(
  px: number, py: number, pz: number,
  ax: number, ay: number, az: number,
  bx: number, by: number, bz: number,
  cx: number, cy: number, cz: number,
  out: Float64Array, o = 0,
): number {
  const q = scratchQ, v = scratchV // module scratch: JS is single-threaded per worker
  q[0] = px; q[1] = py; q[2] = pz
  v[0] = ax; v[1] = ay; v[2] = az
  v[3] = bx; v[4] = by; v[5] = bz
  v[6] = cx; v[7] = cy; v[8] = cz
  return closestPointOnTriangleIn(q, v, 0, out, o)
}

const scratchQ = new Float64Array(3)
const scratchV = new Float64Array(9)

/**
 * closestPointOnTriangle with the query point in q[0..2] and the corners a, b, c in
 * tv[vo..vo+8]. Taking arrays instead of 12 numbers matters in V8: doubles passed to (or
 * returned from) a call that is not inlined are boxed, i.e. heap-allocated, and this
 * runs for every triangle a BVH query visits.
 */
export function closestPointOnTriangleIn(q: Float64Array, tv: Float32Array | Float64Array, vo: number, out: Float64Array, o = 0): number {
  const px = q[0], py = q[1], pz = q[2]
  const ax = tv[vo], ay = tv[vo + 1], az = tv[vo + 2]
  const bx = tv[vo + 3], by = tv[vo + 4], bz = tv[vo + 5]
  const cx = tv[vo + 6], cy = tv[vo + 7], cz = tv[vo + 8]
  const abx = bx - ax, aby = by - ay, abz = bz - az
  const acx = cx - ax, acy = cy - ay, acz = cz - az
  const apx = px - ax, apy = py - ay, apz = pz - az
  const d1 = abx * apx + aby * apy + abz * apz
  const d2 = acx * apx + acy * apy + acz * apz
  // Vertex region a.
  if (d1 <= 0 && d2 <= 0) {
    out[o] = ax; out[o + 1] = ay; out[o + 2] = az
    out[o + 3] = 1; out[o + 4] = 0; out[o + 5] = 0
    return REGION_VERTEX_A
  }

  const bpx = px - bx, bpy = py - by, bpz = pz - bz
  const d3 = abx * bpx + aby * bpy + abz * bpz
  const d4 = acx * bpx + acy * bpy + acz * bpz
  // Vertex region b.
  if (d3 >= 0 && d4 <= d3) {
    out[o] = bx; out[o + 1] = by; out[o + 2] = bz
    out[o + 3] = 0; out[o + 4] = 1; out[o + 5] = 0
    return REGION_VERTEX_B
  }

  // Edge region ab: vc is the (scaled) barycentric weight of c.
  const vc = d1 * d4 - d3 * d2
  if (vc <= 0 && d1 >= 0 && d3 <= 0) {
    const len2 = d1 - d3 // = |ab|^2
    // a == b: every test above passes trivially (d1 = d3 = 0), so this region means nothing.
    if (!(len2 > 0)) return closestOnEdges(px, py, pz, ax, ay, az, bx, by, bz, cx, cy, cz, out, o)
    const v = d1 / len2
    out[o] = ax + v * abx; out[o + 1] = ay + v * aby; out[o + 2] = az + v * abz
    out[o + 3] = 1 - v; out[o + 4] = v; out[o + 5] = 0
    return REGION_EDGE_AB
  }

  const cpx = px - cx, cpy = py - cy, cpz = pz - cz
  const d5 = abx * cpx + aby * cpy + abz * cpz
  const d6 = acx * cpx + acy * cpy + acz * cpz
  // Vertex region c.
  if (d6 >= 0 && d5 <= d6) {
    out[o] = cx; out[o + 1] = cy; out[o + 2] = cz
    out[o + 3] = 0; out[o + 4] = 0; out[o + 5] = 1
    return REGION_VERTEX_C
  }

  // Edge region ca.
  const vb = d5 * d2 - d1 * d6
  if (vb <= 0 && d2 >= 0 && d6 <= 0) {
    const len2 = d2 - d6 // = |ac|^2
    if (!(len2 > 0)) return closestOnEdges(px, py, pz, ax, ay, az, bx, by, bz, cx, cy, cz, out, o)
    const w = d2 / len2
    out[o] = ax + w * acx; out[o + 1] = ay + w * acy; out[o + 2] = az + w * acz
    out[o + 3] = 1 - w; out[o + 4] = 0; out[o + 5] = w
    return REGION_EDGE_CA
  }

  // Edge region bc.
  const va = d3 * d6 - d5 * d4
  const e43 = d4 - d3, e56 = d5 - d6
  if (va <= 0 && e43 >= 0 && e56 >= 0) {
    const len2 = e43 + e56 // = |bc|^2
    if (!(len2 > 0)) return closestOnEdges(px, py, pz, ax, ay, az, bx, by, bz, cx, cy, cz, out, o)
    const w = e43 / len2
    out[o] = bx + w * (cx - bx); out[o + 1] = by + w * (cy - by); out[o + 2] = bz + w * (cz - bz)
    out[o + 3] = 0; out[o + 4] = 1 - w; out[o + 5] = w
    return REGION_EDGE_BC
  }

  // Face region. va, vb, vc are the barycentric weights scaled by |ab x ac|^2 (their sum, by
  // Lagrange's identity), and in exact arithmetic all >= 0 here. They are computed as
  // differences of products of dot products, so their rounding error grows with those
  // products; for a zero-area triangle they are pure noise (any sign, and dividing by their
  // sum would pick an arbitrary point of the segment). So when the sum is below the rounding
  // level of the products, or a weight is negative, fall back to the nearest of the edges.
  // For a needle that is not exactly degenerate this differs from the face answer by at
  // most ~ width^2 / distance.
  const sum = va + vb + vc
  const noise = 1e-12 * (Math.abs(d1 * d4) + Math.abs(d3 * d2) + Math.abs(d5 * d2) + Math.abs(d1 * d6) + Math.abs(d3 * d6) + Math.abs(d5 * d4))
  if (!(sum > noise) || va < 0 || vb < 0 || vc < 0) return closestOnEdges(px, py, pz, ax, ay, az, bx, by, bz, cx, cy, cz, out, o)
  const inv = 1 / sum
  const v = vb * inv
  const w = vc * inv
  out[o] = ax + abx * v + acx * w; out[o + 1] = ay + aby * v + acy * w; out[o + 2] = az + abz * v + acz * w
  out[o + 3] = 1 - v - w; out[o + 4] = v; out[o + 5] = w
  return REGION_FACE
}

/** Parameter t in [0, 1] of the point of segment p0 + t (p1 - p0) closest to q. */
function segmentParam(qx: number, qy: number, qz: number, x0: number, y0: number, z0: number, x1: number, y1: number, z1: number): number {
  const ex = x1 - x0, ey = y1 - y0, ez = z1 - z0
  const len2 = ex * ex + ey * ey + ez * ez
  if (!(len2 > 0)) return 0
  const t = ((qx - x0) * ex + (qy - y0) * ey + (qz - z0) * ez) / len2
  return t <= 0 ? 0 : t >= 1 ? 1 : t
}

// Degenerate-triangle fallback: the triangle is (numerically) a segment or a point, so its
// closest point is on one of its edges. Rare, so clarity beats speed here.
function closestOnEdges(
  px: number, py: number, pz: number,
  ax: number, ay: number, az: number,
  bx: number, by: number, bz: number,
  cx: number, cy: number, cz: number,
  out: Float64Array, o: number,
): number {
  const tab = segmentParam(px, py, pz, ax, ay, az, bx, by, bz)
  const tbc = segmentParam(px, py, pz, bx, by, bz, cx, cy, cz)
  const tca = segmentParam(px, py, pz, cx, cy, cz, ax, ay, az)
  const qabx = ax + tab * (bx - ax), qaby = ay + tab * (by - ay), qabz = az + tab * (bz - az)
  const qbcx = bx + tbc * (cx - bx), qbcy = by + tbc * (cy - by), qbcz = bz + tbc * (cz - bz)
  const qcax = cx + tca * (ax - cx), qcay = cy + tca * (ay - cy), qcaz = cz + tca * (az - cz)
  const dab = sq(px - qabx, py - qaby, pz - qabz)
  const dbc = sq(px - qbcx, py - qbcy, pz - qbcz)
  const dca = sq(px - qcax, py - qcay, pz - qcaz)
  if (dab <= dbc && dab <= dca) {
    const region = tab === 0 ? REGION_VERTEX_A : tab === 1 ? REGION_VERTEX_B : REGION_EDGE_AB
    out[o] = qabx; out[o + 1] = qaby; out[o + 2] = qabz
    out[o + 3] = 1 - tab; out[o + 4] = tab; out[o + 5] = 0
    return region
  }
  if (dbc <= dca) {
    const region = tbc === 0 ? REGION_VERTEX_B : tbc === 1 ? REGION_VERTEX_C : REGION_EDGE_BC
    out[o] = qbcx; out[o + 1] = qbcy; out[o + 2] = qbcz
    out[o + 3] = 0; out[o + 4] = 1 - tbc; out[o + 5] = tbc
    return region
  }
  const region = tca === 0 ? REGION_VERTEX_C : tca === 1 ? REGION_VERTEX_A : REGION_EDGE_CA
  out[o] = qcax; out[o + 1] = qcay; out[o + 2] = qcaz
  out[o + 3] = tca; out[o + 4] = 0; out[o + 5] = 1 - tca
  return region
}

function sq(x: number, y: number, z: number): number {
  return x * x + y * y + z * z
}
