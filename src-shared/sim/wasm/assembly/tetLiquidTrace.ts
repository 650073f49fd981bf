// Twin of src-shared/sim/tetliquid/traceDistanceKernel.ts: S_t's signed distance at the points
// M_t's fast field traces back from (MeshVelocity.backtrace, then ContouredSurface.distance),
// with the tree searches (geometry/bvh.ts bvhClosestPoint), the triangle's closest point
// (geometry/closestPoint.ts), the pseudo-normal sign and the Phong lift written out in the
// reference's operations and order, so each value is the reference's bits. The second export
// reads the accurate (Whitney) field at the traces' ends instead, for the velocity advection.
import { rf32, rf64, ri32, wf64 } from './common'
import { outsideTetBox, tetIndexCell } from './tetIndex'

// geometry/closestPoint.ts REGION_*; geometry/bvh.ts PRUNE_SLACK; contourGrid.ts PHONG_ALPHA.
const REGION_FACE: i32 = 0
const REGION_VERTEX_A: i32 = 1
const REGION_VERTEX_B: i32 = 2
const REGION_VERTEX_C: i32 = 3
const REGION_EDGE_AB: i32 = 4
const REGION_EDGE_BC: i32 = 5
const REGION_EDGE_CA: i32 = 6
const PRUNE_SLACK: f64 = 1 + 1e-12
const PHONG_ALPHA: f64 = 0.5

// M_t for the current call.
let positions: usize = 0
let tets: usize = 0
let vertexVelocity: usize = 0
let cellStart: usize = 0
let cellTets: usize = 0
let boxes: usize = 0
let bBounds: usize = 0
let bInfo: usize = 0
let bOrder: usize = 0
let bVerts: usize = 0
let bTet: usize = 0
let ext: usize = 0
// The accurate field for the current call (traceDistanceKernel.ts TraceAccurateArrays).
let tetFaces: usize = 0
let tetFaceAreas: usize = 0
let faceU: usize = 0
let volumes: usize = 0
// S_t for the current call.
let phi: usize = 0
let sBounds: usize = 0
let sInfo: usize = 0
let sOrder: usize = 0
let sVerts: usize = 0
let sPositions: usize = 0
let sIndices: usize = 0
let sNormals: usize = 0
let pnFace: usize = 0
let pnEdge: usize = 0
let pnVertex: usize = 0
// The parameters (traceDistanceKernel.ts TD_*).
let hasTets = false
let hasBoundary = false
let hasSurface = false
let reachM: f64 = 0
let iox: f64 = 0
let ioy: f64 = 0
let ioz: f64 = 0
let inx: f64 = 0
let iny: f64 = 0
let inz: f64 = 0
let invCell: f64 = 0
let eox: f64 = 0
let eoy: f64 = 0
let eoz: f64 = 0
let eh: f64 = 0
let enx: f64 = 0
let eny: f64 = 0
let enz: f64 = 0
let gox: f64 = 0
let goy: f64 = 0
let goz: f64 = 0
let gh: f64 = 0
let gnx: f64 = 0
let gny: f64 = 0
let gnz: f64 = 0
let band: f64 = 0
// This thread's tree-search stacks (its scratch block): distances, then nodes.
let stackDist: usize = 0
let stackNode: usize = 0

// Per-thread state: barycentric weights, the fast velocity, the locator's last answer, the
// triangle's closest point (sx..sw3) and the search's hit (HIT_* of bvh.ts).
let l0: f64 = 0
let l1: f64 = 0
let l2: f64 = 0
let l3: f64 = 0
let ux: f64 = 0
let uy: f64 = 0
let uz: f64 = 0
// The step and the last back-trace's end.
let dt: f64 = 0
let bx: f64 = 0
let by: f64 = 0
let bz: f64 = 0
let last: i32 = -1
let cx: f64 = 0
let cy: f64 = 0
let cz: f64 = 0
let cw0: f64 = 0
let cw1: f64 = 0
let cw2: f64 = 0
let hx: f64 = 0
let hy: f64 = 0
let hz: f64 = 0
let hw0: f64 = 0
let hw1: f64 = 0
let hw2: f64 = 0
let hDistance: f64 = 0
let hRegion: i32 = 0

/** tetBarycentric.ts barycentricCoordinates of tetrahedron t into l0..l3. */
function barycentric(t: i32, x: f64, y: f64, z: f64): void {
  const a = 3 * ri32(tets, 4 * t), b = 3 * ri32(tets, 4 * t + 1), c = 3 * ri32(tets, 4 * t + 2), d = 3 * ri32(tets, 4 * t + 3)
  const x0 = rf64(positions, a), y0 = rf64(positions, a + 1), z0 = rf64(positions, a + 2)
  const ux_ = rf64(positions, b) - x0, uy_ = rf64(positions, b + 1) - y0, uz_ = rf64(positions, b + 2) - z0
  const vx = rf64(positions, c) - x0, vy = rf64(positions, c + 1) - y0, vz = rf64(positions, c + 2) - z0
  const wx = rf64(positions, d) - x0, wy = rf64(positions, d + 1) - y0, wz = rf64(positions, d + 2) - z0
  const px = x - x0, py = y - y0, pz = z - z0
  const cvwx = vy * wz - vz * wy, cvwy = vz * wx - vx * wz, cvwz = vx * wy - vy * wx
  const cwux = wy * uz_ - wz * uy_, cwuy = wz * ux_ - wx * uz_, cwuz = wx * uy_ - wy * ux_
  const cuvx = uy_ * vz - uz_ * vy, cuvy = uz_ * vx - ux_ * vz, cuvz = ux_ * vy - uy_ * vx
  const inv = 1 / (ux_ * cvwx + uy_ * cvwy + uz_ * cvwz)
  const a1 = (px * cvwx + py * cvwy + pz * cvwz) * inv
  const a2 = (px * cwux + py * cwuy + pz * cwuz) * inv
  const a3 = (px * cuvx + py * cuvy + pz * cuvz) * inv
  l0 = 1 - a1 - a2 - a3
  l1 = a1
  l2 = a2
  l3 = a3
}

function search(x: f64, y: f64, z: f64): i32 {
  const c = tetIndexCell(x, y, z, iox, ioy, ioz, inx, iny, inz, invCell)
  if (c < 0) return -1
  for (let q = ri32(cellStart, c), e = ri32(cellStart, c + 1); q < e; q++) {
    const t = ri32(cellTets, q)
    if (outsideTetBox(boxes, t, x, y, z)) continue
    barycentric(t, x, y, z)
    if (l0 >= -1e-12 && l1 >= -1e-12 && l2 >= -1e-12 && l3 >= -1e-12) return t
  }
  return -1
}

function locate(x: f64, y: f64, z: f64): i32 {
  if (last >= 0) {
    barycentric(last, x, y, z)
    if (l0 > 1e-9 && l1 > 1e-9 && l2 > 1e-9 && l3 > 1e-9) return last
  }
  last = search(x, y, z)
  return last
}

/** closestPoint.ts segmentParam. */
function segmentParam(qx: f64, qy: f64, qz: f64, x0: f64, y0: f64, z0: f64, x1: f64, y1: f64, z1: f64): f64 {
  const ex = x1 - x0, ey = y1 - y0, ez = z1 - z0
  const len2 = ex * ex + ey * ey + ez * ez
  if (!(len2 > 0)) return 0
  const t = ((qx - x0) * ex + (qy - y0) * ey + (qz - z0) * ez) / len2
  return t <= 0 ? 0 : t >= 1 ? 1 : t
}

@inline function setClosest(x: f64, y: f64, z: f64, w0: f64, w1: f64, w2: f64): void {
  cx = x; cy = y; cz = z; cw0 = w0; cw1 = w1; cw2 = w2
}

/** closestPoint.ts closestOnEdges (the degenerate triangle's fallback). */
function closestOnEdges(px: f64, py: f64, pz: f64, ax: f64, ay: f64, az: f64, bx: f64, by: f64, bz: f64, qcx: f64, qcy: f64, qcz: f64): i32 {
  const tab = segmentParam(px, py, pz, ax, ay, az, bx, by, bz)
  const tbc = segmentParam(px, py, pz, bx, by, bz, qcx, qcy, qcz)
  const tca = segmentParam(px, py, pz, qcx, qcy, qcz, ax, ay, az)
  const qabx = ax + tab * (bx - ax), qaby = ay + tab * (by - ay), qabz = az + tab * (bz - az)
  const qbcx = bx + tbc * (qcx - bx), qbcy = by + tbc * (qcy - by), qbcz = bz + tbc * (qcz - bz)
  const qcax = qcx + tca * (ax - qcx), qcay = qcy + tca * (ay - qcy), qcaz = qcz + tca * (az - qcz)
  const e1x = px - qabx, e1y = py - qaby, e1z = pz - qabz
  const e2x = px - qbcx, e2y = py - qbcy, e2z = pz - qbcz
  const e3x = px - qcax, e3y = py - qcay, e3z = pz - qcaz
  const dab = e1x * e1x + e1y * e1y + e1z * e1z
  const dbc = e2x * e2x + e2y * e2y + e2z * e2z
  const dca = e3x * e3x + e3y * e3y + e3z * e3z
  if (dab <= dbc && dab <= dca) {
    setClosest(qabx, qaby, qabz, 1 - tab, tab, 0)
    return tab == 0 ? REGION_VERTEX_A : tab == 1 ? REGION_VERTEX_B : REGION_EDGE_AB
  }
  if (dbc <= dca) {
    setClosest(qbcx, qbcy, qbcz, 0, 1 - tbc, tbc)
    return tbc == 0 ? REGION_VERTEX_B : tbc == 1 ? REGION_VERTEX_C : REGION_EDGE_BC
  }
  setClosest(qcax, qcay, qcaz, tca, 0, 1 - tca)
  return tca == 0 ? REGION_VERTEX_C : tca == 1 ? REGION_VERTEX_A : REGION_EDGE_CA
}

/** closestPoint.ts closestPointOnTriangleIn: the corners at slot `slot` of verts (float32), into cx..cw2. */
function closestOnTriangle(px: f64, py: f64, pz: f64, verts: usize, slot: i32): i32 {
  const vo = 9 * slot
  const ax = rf32(verts, vo), ay = rf32(verts, vo + 1), az = rf32(verts, vo + 2)
  const bx = rf32(verts, vo + 3), by = rf32(verts, vo + 4), bz = rf32(verts, vo + 5)
  const qcx = rf32(verts, vo + 6), qcy = rf32(verts, vo + 7), qcz = rf32(verts, vo + 8)
  const abx = bx - ax, aby = by - ay, abz = bz - az
  const acx = qcx - ax, acy = qcy - ay, acz = qcz - az
  const apx = px - ax, apy = py - ay, apz = pz - az
  const d1 = abx * apx + aby * apy + abz * apz
  const d2 = acx * apx + acy * apy + acz * apz
  if (d1 <= 0 && d2 <= 0) {
    setClosest(ax, ay, az, 1, 0, 0)
    return REGION_VERTEX_A
  }
  const bpx = px - bx, bpy = py - by, bpz = pz - bz
  const d3 = abx * bpx + aby * bpy + abz * bpz
  const d4 = acx * bpx + acy * bpy + acz * bpz
  if (d3 >= 0 && d4 <= d3) {
    setClosest(bx, by, bz, 0, 1, 0)
    return REGION_VERTEX_B
  }
  const vc = d1 * d4 - d3 * d2
  if (vc <= 0 && d1 >= 0 && d3 <= 0) {
    const len2 = d1 - d3
    if (!(len2 > 0)) return closestOnEdges(px, py, pz, ax, ay, az, bx, by, bz, qcx, qcy, qcz)
    const v = d1 / len2
    setClosest(ax + v * abx, ay + v * aby, az + v * abz, 1 - v, v, 0)
    return REGION_EDGE_AB
  }
  const cpx = px - qcx, cpy = py - qcy, cpz = pz - qcz
  const d5 = abx * cpx + aby * cpy + abz * cpz
  const d6 = acx * cpx + acy * cpy + acz * cpz
  if (d6 >= 0 && d5 <= d6) {
    setClosest(qcx, qcy, qcz, 0, 0, 1)
    return REGION_VERTEX_C
  }
  const vb = d5 * d2 - d1 * d6
  if (vb <= 0 && d2 >= 0 && d6 <= 0) {
    const len2 = d2 - d6
    if (!(len2 > 0)) return closestOnEdges(px, py, pz, ax, ay, az, bx, by, bz, qcx, qcy, qcz)
    const w = d2 / len2
    setClosest(ax + w * acx, ay + w * acy, az + w * acz, 1 - w, 0, w)
    return REGION_EDGE_CA
  }
  const va = d3 * d6 - d5 * d4
  const e43 = d4 - d3, e56 = d5 - d6
  if (va <= 0 && e43 >= 0 && e56 >= 0) {
    const len2 = e43 + e56
    if (!(len2 > 0)) return closestOnEdges(px, py, pz, ax, ay, az, bx, by, bz, qcx, qcy, qcz)
    const w = e43 / len2
    setClosest(bx + w * (qcx - bx), by + w * (qcy - by), bz + w * (qcz - bz), 0, 1 - w, w)
    return REGION_EDGE_BC
  }
  const sum = va + vb + vc
  const noise = 1e-12 * (Math.abs(d1 * d4) + Math.abs(d3 * d2) + Math.abs(d5 * d2) + Math.abs(d1 * d6) + Math.abs(d3 * d6) + Math.abs(d5 * d4))
  if (!(sum > noise) || va < 0 || vb < 0 || vc < 0) return closestOnEdges(px, py, pz, ax, ay, az, bx, by, bz, qcx, qcy, qcz)
  const inv = 1 / sum
  const v = vb * inv
  const w = vc * inv
  setClosest(ax + abx * v + acx * w, ay + aby * v + acy * w, az + abz * v + acz * w, 1 - v - w, v, w)
  return REGION_FACE
}

/** Squared distance from a point to box n of `bounds` (float32, 6 per node; 0 inside), as bvh.ts writes it. */
@inline function boxDist2(bounds: usize, n: i32, x: f64, y: f64, z: f64): f64 {
  const o = 6 * n
  let d: f64 = 0
  let e = rf32(bounds, o) - x
  if (e > 0) d += e * e
  else {
    e = x - rf32(bounds, o + 3)
    if (e > 0) d += e * e
  }
  e = rf32(bounds, o + 1) - y
  if (e > 0) d += e * e
  else {
    e = y - rf32(bounds, o + 4)
    if (e > 0) d += e * e
  }
  e = rf32(bounds, o + 2) - z
  if (e > 0) d += e * e
  else {
    e = z - rf32(bounds, o + 5)
    if (e > 0) d += e * e
  }
  return d
}

/** bvh.ts bvhClosestPoint: the original triangle index or -1; the hit in hx..hRegion. */
function closestPoint(bounds: usize, info: usize, order: usize, verts: usize, x: f64, y: f64, z: f64, maxDistance: f64): i32 {
  if (x != x || y != y || z != z) {
    hDistance = maxDistance
    return -1
  }
  let best = maxDistance * maxDistance
  let bestSlot = -1
  let sp = 0
  store<i32>(stackNode, 0)
  store<f64>(stackDist, boxDist2(bounds, 0, x, y, z))
  sp++
  while (sp > 0) {
    sp--
    if (rf64(stackDist, sp) > best * PRUNE_SLACK) continue
    let node = ri32(stackNode, sp)
    for (;;) {
      const left = ri32(info, 3 * node)
      if (left < 0) {
        const first = ri32(info, 3 * node + 1), end = first + ri32(info, 3 * node + 2)
        for (let slot = first; slot < end; slot++) {
          const region = closestOnTriangle(x, y, z, verts, slot)
          const dx = cx - x, dy = cy - y, dz = cz - z
          const d2 = dx * dx + dy * dy + dz * dz
          if (d2 < best || (d2 == best && bestSlot >= 0 && ri32(order, slot) < ri32(order, bestSlot))) {
            best = d2
            bestSlot = slot
            hx = cx; hy = cy; hz = cz
            hw0 = cw0; hw1 = cw1; hw2 = cw2
            hRegion = region
          }
        }
        break
      }
      let near = left, far = left + 1
      let dNear = boxDist2(bounds, left, x, y, z), dFar = boxDist2(bounds, left + 1, x, y, z)
      if (dFar < dNear) {
        const t = near; near = far; far = t
        const u = dNear; dNear = dFar; dFar = u
      }
      const limit = best * PRUNE_SLACK
      if (dFar <= limit) {
        store<i32>(stackNode + (<usize>sp << 2), far)
        wf64(stackDist, sp, dFar)
        sp++
      }
      if (dNear > limit) break
      node = near
    }
  }
  if (bestSlot < 0) {
    hDistance = maxDistance
    return -1
  }
  hDistance = Math.sqrt(best)
  return ri32(order, bestSlot)
}

/** tetInterpolation.ts interpolateInTet of the vertex vectors into ux..uz. */
function interpolateInTet(t: i32, x: f64, y: f64, z: f64): void {
  barycentric(t, x, y, z)
  sumVertexVectors(t)
}

/** sum_k l_k V[tet t's vertex k] into ux..uz (MeshVelocity.interpolateLocated's order). */
@inline function sumVertexVectors(t: i32): void {
  let sx: f64 = 0, sy: f64 = 0, sz: f64 = 0
  for (let k = 0; k < 4; k++) {
    const v = 3 * ri32(tets, 4 * t + k)
    const w = k == 0 ? l0 : k == 1 ? l1 : k == 2 ? l2 : l3
    sx += w * rf64(vertexVelocity, v)
    sy += w * rf64(vertexVelocity, v + 1)
    sz += w * rf64(vertexVelocity, v + 2)
  }
  ux = sx; uy = sy; uz = sz
}

/** meshVelocity.ts extrapolatedAt into ux..uz. */
function extrapolated(x: f64, y: f64, z: f64): void {
  const qx = Math.min(Math.max((x - eox) / eh, 0), enx - 1)
  const qy = Math.min(Math.max((y - eoy) / eh, 0), eny - 1)
  const qz = Math.min(Math.max((z - eoz) / eh, 0), enz - 1)
  const i0 = Math.min(Math.floor(qx), Math.max(enx - 2, 0)), j0 = Math.min(Math.floor(qy), Math.max(eny - 2, 0)), k0 = Math.min(Math.floor(qz), Math.max(enz - 2, 0))
  const tx = enx > 1 ? qx - i0 : 0, ty = eny > 1 ? qy - j0 : 0, tz = enz > 1 ? qz - k0 : 0
  let sx: f64 = 0, sy: f64 = 0, sz: f64 = 0
  for (let c = 0; c < 8; c++) {
    const di = c & 1, dj = (c >> 1) & 1, dk = (c >> 2) & 1
    const i = Math.min(i0 + <f64>di, enx - 1), j = Math.min(j0 + <f64>dj, eny - 1), k = Math.min(k0 + <f64>dk, enz - 1)
    const w = (di != 0 ? tx : 1 - tx) * (dj != 0 ? ty : 1 - ty) * (dk != 0 ? tz : 1 - tz)
    const q = 3 * (<i32>i + <i32>enx * (<i32>j + <i32>eny * <i32>k))
    sx += w * rf64(ext, q)
    sy += w * rf64(ext, q + 1)
    sz += w * rf64(ext, q + 2)
  }
  ux = sx; uy = sy; uz = sz
}

/** MeshVelocity.fast into ux..uz. */
function fast(x: f64, y: f64, z: f64): void {
  const t = hasTets ? locate(x, y, z) : -1
  if (t >= 0) {
    sumVertexVectors(t)
    return
  }
  const f = hasBoundary ? closestPoint(bBounds, bInfo, bOrder, bVerts, x, y, z, reachM) : -1
  if (f >= 0) interpolateInTet(ri32(bTet, f), hx, hy, hz)
  else extrapolated(x, y, z)
}

/** contourGrid.ts sampleNodes of phi. */
function sampleNodes(x: f64, y: f64, z: f64): f64 {
  let fx = (x - gox) / gh, fy = (y - goy) / gh, fz = (z - goz) / gh
  fx = fx < 0 ? 0 : fx > gnx - 1 ? gnx - 1 : fx
  fy = fy < 0 ? 0 : fy > gny - 1 ? gny - 1 : fy
  fz = fz < 0 ? 0 : fz > gnz - 1 ? gnz - 1 : fz
  let i = Math.floor(fx), j = Math.floor(fy), k = Math.floor(fz)
  if (i > gnx - 2) i = gnx - 2
  if (j > gny - 2) j = gny - 2
  if (k > gnz - 2) k = gnz - 2
  const tx = fx - i, ty = fy - j, tz = fz - k
  const sx = <i32>gnx, sxy = <i32>gnx * <i32>gny
  const n = <i32>i + sx * <i32>j + sxy * <i32>k
  const c00 = rf32(phi, n) + tx * (rf32(phi, n + 1) - rf32(phi, n))
  const c10 = rf32(phi, n + sx) + tx * (rf32(phi, n + sx + 1) - rf32(phi, n + sx))
  const c01 = rf32(phi, n + sxy) + tx * (rf32(phi, n + sxy + 1) - rf32(phi, n + sxy))
  const c11 = rf32(phi, n + sx + sxy) + tx * (rf32(phi, n + sx + sxy + 1) - rf32(phi, n + sx + sxy))
  const c0 = c00 + ty * (c10 - c00), c1 = c01 + ty * (c11 - c01)
  return c0 + tz * (c1 - c0)
}

/** pseudoNormals.ts pseudoNormalDot at the hit on triangle tri. */
function pseudoNormalDot(tri: i32, x: f64, y: f64, z: f64): f64 {
  let arr: usize = 0, o: i32 = 0
  if (hRegion == REGION_FACE) { arr = pnFace; o = 3 * tri }
  else if (hRegion == REGION_VERTEX_A) { arr = pnVertex; o = 3 * ri32(sIndices, 3 * tri) }
  else if (hRegion == REGION_VERTEX_B) { arr = pnVertex; o = 3 * ri32(sIndices, 3 * tri + 1) }
  else if (hRegion == REGION_VERTEX_C) { arr = pnVertex; o = 3 * ri32(sIndices, 3 * tri + 2) }
  else if (hRegion == REGION_EDGE_AB) { arr = pnEdge; o = 9 * tri }
  else if (hRegion == REGION_EDGE_BC) { arr = pnEdge; o = 9 * tri + 3 }
  else if (hRegion == REGION_EDGE_CA) { arr = pnEdge; o = 9 * tri + 6 }
  else return 0
  return (x - hx) * rf32(arr, o) + (y - hy) * rf32(arr, o + 1) + (z - hz) * rf32(arr, o + 2)
}

/** V8's Math.hypot of three numbers (its Kahan-compensated sum of squares scaled by the largest), as contourGrid.ts phongLift calls it. */
function hypot3(a: f64, b: f64, c: f64): f64 {
  const aa = Math.abs(a), ab = Math.abs(b), ac = Math.abs(c)
  if (a != a || b != b || c != c) {
    // A NaN argument: NaN, unless another is infinite.
    return aa == Infinity || ab == Infinity || ac == Infinity ? Infinity : NaN
  }
  let max: f64 = 0
  if (aa > max) max = aa
  if (ab > max) max = ab
  if (ac > max) max = ac
  if (max == Infinity) return Infinity
  if (max == 0) return 0
  let sum: f64 = 0, compensation: f64 = 0
  for (let i = 0; i < 3; i++) {
    const n = (i == 0 ? aa : i == 1 ? ab : ac) / max
    const summand = n * n - compensation
    const preliminary = sum + summand
    compensation = preliminary - sum - summand
    sum = preliminary
  }
  return Math.sqrt(sum) * max
}

/** contourGrid.ts phongLift at the hit on triangle tri. */
function phongLift(tri: i32): f64 {
  let lx: f64 = 0, ly: f64 = 0, lz: f64 = 0
  for (let k = 0; k < 3; k++) {
    const v = 3 * ri32(sIndices, 3 * tri + k)
    const w = k == 0 ? hw0 : k == 1 ? hw1 : hw2
    const nx = rf32(sNormals, v), ny = rf32(sNormals, v + 1), nz = rf32(sNormals, v + 2)
    const h = (hx - rf32(sPositions, v)) * nx + (hy - rf32(sPositions, v + 1)) * ny + (hz - rf32(sPositions, v + 2)) * nz
    lx -= w * h * nx
    ly -= w * h * ny
    lz -= w * h * nz
  }
  const a = 3 * ri32(sIndices, 3 * tri), b = 3 * ri32(sIndices, 3 * tri + 1), c = 3 * ri32(sIndices, 3 * tri + 2)
  const pax = rf32(sPositions, a), pay = rf32(sPositions, a + 1), paz = rf32(sPositions, a + 2)
  const qux = rf32(sPositions, b) - pax, quy = rf32(sPositions, b + 1) - pay, quz = rf32(sPositions, b + 2) - paz
  const qvx = rf32(sPositions, c) - pax, qvy = rf32(sPositions, c + 1) - pay, qvz = rf32(sPositions, c + 2) - paz
  const fx = quy * qvz - quz * qvy, fy = quz * qvx - qux * qvz, fz = qux * qvy - quy * qvx
  const len = hypot3(fx, fy, fz)
  return len > 0 ? (PHONG_ALPHA * (lx * fx + ly * fy + lz * fz)) / len : 0
}

/** traceDistanceKernel.ts within: the signed distance when a triangle of S lies within bound (its index in `found`), else NaN. */
let found: i32 = -1
function within(x: f64, y: f64, z: f64, bound: f64): f64 {
  const t = closestPoint(sBounds, sInfo, sOrder, sVerts, x, y, z, bound)
  found = t
  if (t < 0) return NaN
  const d = hDistance
  if (d == 0) return 0
  return pseudoNormalDot(t, x, y, z) < 0 ? -d : d
}

/** ContouredSurface.distance. */
function surfaceDistance(x: f64, y: f64, z: f64): f64 {
  const e = sampleNodes(x, y, z)
  if (!hasSurface || Math.abs(e) >= band) return e
  const reach = band + gh
  const near = Math.abs(e) + gh
  let d = near < reach ? within(x, y, z, near) : NaN
  if (d != d) d = within(x, y, z, reach)
  if (d != d) {
    if (e != 0) return e > 0 ? band : -band
    const t = closestPoint(sBounds, sInfo, sOrder, sVerts, x, y, z, Infinity)
    d = pseudoNormalDot(t, x, y, z) < 0 ? -reach : reach
    found = -1
  }
  if (Math.abs(d) < reach && found >= 0) d -= phongLift(found)
  return d > band ? band : d < -band ? -band : d
}

/** M_t's arrays, the parameters and this thread's stacks for the current call. */
function setVelocity(
  mPositions: usize, mTets: usize, mVertexVelocity: usize, mCellStart: usize, mCellTets: usize, mBoxes: usize,
  mBBounds: usize, mBInfo: usize, mBOrder: usize, mBVerts: usize, mBTet: usize, mExt: usize, params: usize, scratchBase: usize, scratchStride: usize, worker: i32,
): void {
  positions = mPositions; tets = mTets; vertexVelocity = mVertexVelocity; cellStart = mCellStart; cellTets = mCellTets; boxes = mBoxes
  bBounds = mBBounds; bInfo = mBInfo; bOrder = mBOrder; bVerts = mBVerts; bTet = mBTet; ext = mExt
  dt = rf64(params, 0)
  hasTets = rf64(params, 1) != 0; hasBoundary = rf64(params, 2) != 0; hasSurface = rf64(params, 3) != 0
  reachM = rf64(params, 4)
  iox = rf64(params, 5); ioy = rf64(params, 6); ioz = rf64(params, 7)
  inx = rf64(params, 8); iny = rf64(params, 9); inz = rf64(params, 10); invCell = rf64(params, 11)
  eox = rf64(params, 12); eoy = rf64(params, 13); eoz = rf64(params, 14); eh = rf64(params, 15)
  enx = rf64(params, 16); eny = rf64(params, 17); enz = rf64(params, 18)
  gox = rf64(params, 19); goy = rf64(params, 20); goz = rf64(params, 21); gh = rf64(params, 22)
  gnx = rf64(params, 23); gny = rf64(params, 24); gnz = rf64(params, 25); band = rf64(params, 26)
  const depth = <usize>rf64(params, 27)
  stackDist = scratchBase + <usize>worker * scratchStride
  stackNode = stackDist + (depth << 3)
  last = -1
}

/** MeshVelocity.backtrace over dt into (bx, by, bz). */
function backtrace(x: f64, y: f64, z: f64): void {
  fast(x, y, z)
  const mx = x - 0.5 * dt * ux, my = y - 0.5 * dt * uy, mz = z - 0.5 * dt * uz
  fast(mx, my, mz)
  bx = x - dt * ux
  by = y - dt * uy
  bz = z - dt * uz
}

/** traceDistances over points [i0, i1). */
export function tetLiquidTraceDistances(
  mPositions: usize, mTets: usize, mVertexVelocity: usize, mCellStart: usize, mCellTets: usize, mBoxes: usize,
  mBBounds: usize, mBInfo: usize, mBOrder: usize, mBVerts: usize, mBTet: usize, mExt: usize,
  fPhi: usize, fBounds: usize, fInfo: usize, fOrder: usize, fVerts: usize, fPositions: usize, fIndices: usize, fNormals: usize, fPnFace: usize, fPnEdge: usize, fPnVertex: usize,
  params: usize, points: usize, out: usize, scratchBase: usize, scratchStride: usize, i0: i32, i1: i32, worker: i32,
): void {
  setVelocity(mPositions, mTets, mVertexVelocity, mCellStart, mCellTets, mBoxes, mBBounds, mBInfo, mBOrder, mBVerts, mBTet, mExt, params, scratchBase, scratchStride, worker)
  phi = fPhi; sBounds = fBounds; sInfo = fInfo; sOrder = fOrder; sVerts = fVerts; sPositions = fPositions; sIndices = fIndices; sNormals = fNormals
  pnFace = fPnFace; pnEdge = fPnEdge; pnVertex = fPnVertex
  for (let i = i0; i < i1; i++) {
    backtrace(rf64(points, 3 * i), rf64(points, 3 * i + 1), rf64(points, 3 * i + 2))
    wf64(out, i, surfaceDistance(bx, by, bz))
  }
}

/** traceDistanceKernel.ts whitneyClamped: tetrahedron t's Whitney field at the point, clamped to its vertex vectors, into ux..uz. */
function whitneyClamped(t: i32, x: f64, y: f64, z: f64): void {
  let sx: f64 = 0, sy: f64 = 0, sz: f64 = 0
  for (let k = 0; k < 4; k++) {
    const F = rf64(tetFaceAreas, 4 * t + k) * rf64(faceU, ri32(tetFaces, 4 * t + k))
    const p = 3 * ri32(tets, 4 * t + k)
    sx += F * (x - rf64(positions, p))
    sy += F * (y - rf64(positions, p + 1))
    sz += F * (z - rf64(positions, p + 2))
  }
  const s = 1 / (3 * rf64(volumes, t))
  ux = clampToVertices(t, 0, sx * s)
  uy = clampToVertices(t, 1, sy * s)
  uz = clampToVertices(t, 2, sz * s)
}

/** meshVelocity.ts clampToTetVertices for component q of value x. */
@inline function clampToVertices(t: i32, q: i32, x: f64): f64 {
  const va = rf64(vertexVelocity, 3 * ri32(tets, 4 * t) + q), vb = rf64(vertexVelocity, 3 * ri32(tets, 4 * t + 1) + q)
  const vc = rf64(vertexVelocity, 3 * ri32(tets, 4 * t + 2) + q), vd = rf64(vertexVelocity, 3 * ri32(tets, 4 * t + 3) + q)
  const lo = Math.min(Math.min(Math.min(va, vb), vc), vd), hi = Math.max(Math.max(Math.max(va, vb), vc), vd)
  return x < lo ? lo : x > hi ? hi : x
}

/** MeshVelocity.accurate into ux..uz. */
function accurate(x: f64, y: f64, z: f64): void {
  const t = hasTets ? locate(x, y, z) : -1
  if (t >= 0) {
    whitneyClamped(t, x, y, z)
    return
  }
  const f = hasBoundary ? closestPoint(bBounds, bInfo, bOrder, bVerts, x, y, z, reachM) : -1
  if (f >= 0) whitneyClamped(ri32(bTet, f), hx, hy, hz)
  else extrapolated(x, y, z)
}

/** traceVelocities over points [i0, i1). */
export function tetLiquidTraceVelocities(
  mPositions: usize, mTets: usize, mVertexVelocity: usize, mCellStart: usize, mCellTets: usize, mBoxes: usize,
  mBBounds: usize, mBInfo: usize, mBOrder: usize, mBVerts: usize, mBTet: usize, mExt: usize,
  aTetFaces: usize, aTetFaceAreas: usize, aU: usize, aVolumes: usize,
  params: usize, points: usize, normals: usize, out: usize, scratchBase: usize, scratchStride: usize, i0: i32, i1: i32, worker: i32,
): void {
  setVelocity(mPositions, mTets, mVertexVelocity, mCellStart, mCellTets, mBoxes, mBBounds, mBInfo, mBOrder, mBVerts, mBTet, mExt, params, scratchBase, scratchStride, worker)
  tetFaces = aTetFaces; tetFaceAreas = aTetFaceAreas; faceU = aU; volumes = aVolumes
  for (let i = i0; i < i1; i++) {
    backtrace(rf64(points, 3 * i), rf64(points, 3 * i + 1), rf64(points, 3 * i + 2))
    accurate(bx, by, bz)
    wf64(out, i, ux * rf64(normals, 3 * i) + uy * rf64(normals, 3 * i + 1) + uz * rf64(normals, 3 * i + 2))
  }
}
