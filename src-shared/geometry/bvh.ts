// Bounding volume hierarchy over the triangles of a mesh, for closest-point queries (mesh
// SDFs) and as the cluster tree of the fast winding number (Barill et al. 2018).
//
// Built top-down with binned SAH (Wald 2007, "On fast construction of SAH-based bounding
// volume hierarchies"): each node bins its triangles' centroids into 16 slabs along the axis
// of their largest extent and takes the plane with the smallest surface-area cost. Every level
// is linear in the triangles it holds, so the build is O(n log n). Everything is flat typed
// arrays: node boxes, node child/leaf ranges, the triangle permutation, and a copy of the
// triangles' corners in leaf order (so a leaf's triangles are contiguous in memory). Queries
// use a preallocated stack and allocate nothing.
import { EddyError } from '../api/errors'
import type { TriMesh } from './triMesh'
import { closestPointOnTriangleIn } from './closestPoint'
import { insertionSortInt32 } from '../insertionSort'

/** Slots of the `out` array of TriangleBvh.closestPoint. */
export const HIT_X = 0
export const HIT_Y = 1
export const HIT_Z = 2
/** Barycentric weights of the triangle's corners a, b, c (mesh.indices order). */
export const HIT_WA = 3
export const HIT_WB = 4
export const HIT_WC = 5
export const HIT_DISTANCE = 6
/** REGION_* code from closestPoint.ts (vertex, edge or face of the triangle). */
export const HIT_REGION = 7
export const HIT_SIZE = 8

const BINS = 16
// Leaves hold at most this many triangles; SAH decides below it (Wald 2007).
const MAX_LEAF = 8
// Box-distance pruning slack. A box's distance never exceeds the distance of a triangle in
// it, but both are rounded; pruning only boxes farther than best * (1 + 1e-12) means a
// triangle whose rounded distance ties the best one is still visited, so the answer is
// bit-identical to a brute-force loop over closestPointOnTriangle.
const PRUNE_SLACK = 1 + 1e-12

/**
 * Checks that a mesh can define a distance field; throws INVALID_PARAM naming `what` and
 * the problem (no triangles, non-finite coordinates, indices out of range, zero total area).
 * Individual zero-area triangles are allowed: they act as segments or points.
 */
export function checkTriangleMesh(mesh: TriMesh, what: string): void {
  const { positions: p, indices: idx } = mesh
  const fail = (message: string, details?: Record<string, unknown>): never => {
    throw new EddyError('INVALID_PARAM', `${what}: ${message}`, details)
  }
  if (p.length % 3 !== 0) fail(`${p.length} position values is not a whole number of xyz vertices`)
  if (idx.length % 3 !== 0) fail(`${idx.length} indices is not a whole number of triangles`)
  if (idx.length === 0) fail('has no triangles')
  for (let i = 0; i < p.length; i++) {
    if (!Number.isFinite(p[i])) fail(`vertex ${((i / 3) | 0) + 1} has a non-finite coordinate`, { vertex: (i / 3) | 0 })
  }
  const nv = p.length / 3
  let anyArea = false
  for (let t = 0; t < idx.length; t += 3) {
    const a = idx[t], b = idx[t + 1], c = idx[t + 2]
    if (a >= nv || b >= nv || c >= nv) {
      fail(`triangle ${t / 3 + 1} refers to a vertex beyond the ${nv} vertices`, { triangle: t / 3 })
    }
    if (!anyArea) {
      const ux = p[3 * b] - p[3 * a], uy = p[3 * b + 1] - p[3 * a + 1], uz = p[3 * b + 2] - p[3 * a + 2]
      const vx = p[3 * c] - p[3 * a], vy = p[3 * c + 1] - p[3 * a + 1], vz = p[3 * c + 2] - p[3 * a + 2]
      const nx = uy * vz - uz * vy, ny = uz * vx - ux * vz, nz = ux * vy - uy * vx
      if (nx !== 0 || ny !== 0 || nz !== 0) anyArea = true
    }
  }
  if (!anyArea) fail('all triangles are degenerate (zero area)')
}

/**
 * BVH over a triangle mesh. Node n has box nodeBounds[6n..6n+5] (min xyz, max xyz) and
 * nodeInfo[3n..3n+2] = (left child or -1 for a leaf, first slot, triangle count); the right
 * child is left + 1, children always have larger indices than their parent, and every node
 * covers the contiguous slots [first, first + count) of triOrder (slot -> original
 * triangle index) and of triVerts (9 corner coordinates per slot, in mesh.indices order).
 * Node 0 is the root. Memory: 36 bytes of corners + 4 of permutation per triangle, 36 per
 * node (SAH leaves hold up to 8 triangles, so there are well under 2 nodes per triangle).
 * Queries reuse the instance's scratch, so one instance serves one thread.
 */
export class TriangleBvh {
  readonly triangleCount: number
  readonly nodeCount: number
  /** Length of the longest root-to-leaf path (root alone = 0). */
  readonly maxDepth: number
  readonly nodeBounds: Float32Array
  readonly nodeInfo: Int32Array
  readonly triOrder: Int32Array
  readonly triVerts: Float32Array

  private readonly stackNode: Int32Array
  private readonly stackDist: Float64Array
  private readonly scratch = new Float64Array(6)
  private readonly query = new Float64Array(3)

  /** Throws INVALID_PARAM for meshes checkTriangleMesh rejects. */
  constructor(mesh: TriMesh, what = 'mesh') {
    checkTriangleMesh(mesh, what)
    const built = build(mesh)
    this.triangleCount = mesh.indices.length / 3
    this.nodeCount = built.nodeCount
    this.maxDepth = built.maxDepth
    this.nodeBounds = built.bounds
    this.nodeInfo = built.info
    this.triOrder = built.perm
    this.triVerts = built.verts
    // Ordered depth-first traversal pushes at most one node per level.
    this.stackNode = new Int32Array(built.maxDepth + 2)
    this.stackDist = new Float64Array(built.maxDepth + 2)
  }

  /**
   * Closest point of the mesh to (x, y, z) among points closer than maxDistance. Fills
   * out[HIT_*] (point, barycentrics, distance, region) and returns the original triangle
   * index, or returns -1 (out[HIT_DISTANCE] = maxDistance, the rest untouched) when no
   * triangle is that close. Exact ties go to the lowest triangle index.
   *
   * Ordered depth-first traversal: the nearer child is entered first and the farther one
   * stacked with its box distance, which is re-checked when popped, so whole subtrees
   * farther than the best point so far are skipped.
   */
  closestPoint(x: number, y: number, z: number, out: Float64Array, maxDistance = Infinity): number {
    return bvhClosestPoint(this.nodeBounds, this.nodeInfo, this.triOrder, this.triVerts, this.stackNode, this.stackDist, this.query, this.scratch, x, y, z, out, maxDistance)
  }
}

/**
 * TriangleBvh.closestPoint over the tree's arrays (for kernel rows that hold them flat, e.g.
 * sim/tetliquid/traceDistanceKernel.ts): `stackNode` and `stackDist` hold maxDepth + 2 entries,
 * `q` 3 and `s` 6 (scratch).
 */
export function bvhClosestPoint(
  bounds: Float32Array, info: Int32Array, triOrder: Int32Array, v: Float32Array, stackNode: Int32Array, stackDist: Float64Array, q: Float64Array, s: Float64Array,
  x: number, y: number, z: number, out: Float64Array, maxDistance: number,
): number {
  // No triangle is at a comparable distance from a NaN point (what a loop over them all finds):
  // said at once, instead of after visiting every box, none of which its NaN distance prunes.
  if (x !== x || y !== y || z !== z) {
    out[HIT_DISTANCE] = maxDistance
    return -1
  }
  q[0] = x
  q[1] = y
  q[2] = z
  let best = maxDistance * maxDistance
  let bestSlot = -1
  let sp = 0
  stackNode[sp] = 0
  stackDist[sp] = boxDist2(bounds, 0, x, y, z)
  sp++
  while (sp > 0) {
    sp--
    if (stackDist[sp] > best * PRUNE_SLACK) continue
    let node = stackNode[sp]
    for (;;) {
      const left = info[3 * node]
      if (left < 0) {
        const first = info[3 * node + 1], end = first + info[3 * node + 2]
        for (let slot = first; slot < end; slot++) {
          const o = 9 * slot
          const region = closestPointOnTriangleIn(q, v, o, s, 0)
          const dx = s[0] - x, dy = s[1] - y, dz = s[2] - z
          const d2 = dx * dx + dy * dy + dz * dz
          // An exact tie goes to the lower triangle index, as in a loop over the triangles in
          // order: the answer is then the same whatever the tree's shape or traversal order.
          if (d2 < best || (d2 === best && bestSlot >= 0 && triOrder[slot] < triOrder[bestSlot])) {
            best = d2
            bestSlot = slot
            out[0] = s[0]
            out[1] = s[1]
            out[2] = s[2]
            out[3] = s[3]
            out[4] = s[4]
            out[5] = s[5]
            out[HIT_REGION] = region
          }
        }
        break
      }
      // Squared distances to both child boxes, written out here rather than calling
      // boxDist2: a double returned from a call that V8 does not inline is boxed, i.e.
      // allocated, and this runs for every node visited.
      let near = left, far = left + 1
      let o = 6 * left
      let e = 0, dNear = 0, dFar = 0
      e = bounds[o] - x; if (e > 0) dNear += e * e; else { e = x - bounds[o + 3]; if (e > 0) dNear += e * e }
      e = bounds[o + 1] - y; if (e > 0) dNear += e * e; else { e = y - bounds[o + 4]; if (e > 0) dNear += e * e }
      e = bounds[o + 2] - z; if (e > 0) dNear += e * e; else { e = z - bounds[o + 5]; if (e > 0) dNear += e * e }
      o += 6
      e = bounds[o] - x; if (e > 0) dFar += e * e; else { e = x - bounds[o + 3]; if (e > 0) dFar += e * e }
      e = bounds[o + 1] - y; if (e > 0) dFar += e * e; else { e = y - bounds[o + 4]; if (e > 0) dFar += e * e }
      e = bounds[o + 2] - z; if (e > 0) dFar += e * e; else { e = z - bounds[o + 5]; if (e > 0) dFar += e * e }
      if (dFar < dNear) {
        const t = near; near = far; far = t
        const u = dNear; dNear = dFar; dFar = u
      }
      const limit = best * PRUNE_SLACK
      if (dFar <= limit) {
        stackNode[sp] = far
        stackDist[sp] = dFar
        sp++
      }
      if (dNear > limit) break
      node = near
    }
  }
  if (bestSlot < 0) {
    out[HIT_DISTANCE] = maxDistance
    return -1
  }
  out[HIT_DISTANCE] = Math.sqrt(best)
  return triOrder[bestSlot]
}

/** Squared distance from a point to node box n (0 inside). */
function boxDist2(b: Float32Array, n: number, x: number, y: number, z: number): number {
  const o = 6 * n
  let d = 0
  let e = b[o] - x
  if (e > 0) d += e * e
  else {
    e = x - b[o + 3]
    if (e > 0) d += e * e
  }
  e = b[o + 1] - y
  if (e > 0) d += e * e
  else {
    e = y - b[o + 4]
    if (e > 0) d += e * e
  }
  e = b[o + 2] - z
  if (e > 0) d += e * e
  else {
    e = z - b[o + 5]
    if (e > 0) d += e * e
  }
  return d
}

interface Built {
  nodeCount: number
  maxDepth: number
  bounds: Float32Array
  info: Int32Array
  perm: Int32Array
  verts: Float32Array
}

function build(mesh: TriMesh): Built {
  const { positions: p, indices: idx } = mesh
  const n = idx.length / 3
  // Per-triangle boxes (exact: float32 corners) and box centres, which are what gets binned.
  const triBox = new Float64Array(6 * n)
  const cen = new Float64Array(3 * n)
  for (let t = 0; t < n; t++) {
    const a = 3 * idx[3 * t], b = 3 * idx[3 * t + 1], c = 3 * idx[3 * t + 2]
    for (let k = 0; k < 3; k++) {
      const va = p[a + k], vb = p[b + k], vc = p[c + k]
      const lo = Math.min(va, vb, vc), hi = Math.max(va, vb, vc)
      triBox[6 * t + k] = lo
      triBox[6 * t + 3 + k] = hi
      cen[3 * t + k] = 0.5 * (lo + hi)
    }
  }
  const perm = new Int32Array(n)
  for (let t = 0; t < n; t++) perm[t] = t

  const maxNodes = 2 * n - 1
  const bounds = new Float32Array(6 * maxNodes)
  const info = new Int32Array(3 * maxNodes)
  const depth = new Int32Array(maxNodes)
  const work = new Int32Array(maxNodes)
  let nodeCount = 1
  let maxDepth = 0
  info[0] = -1
  info[1] = 0
  info[2] = n
  let wp = 0
  work[wp++] = 0

  // Bin scratch: count and box (min xyz, max xyz) per bin, and suffix sums.
  const binCount = new Int32Array(BINS)
  const binBox = new Float64Array(BINS * 6)
  const sufArea = new Float64Array(BINS)
  const sufCount = new Int32Array(BINS)
  // The bins a node's triangles fill: a bin is reset when a node's first triangle lands in it
  // (stamp[bin] = that node's pass), and usedBins lists the filled ones (`used` of them), so a
  // node costs its triangles and filled bins rather than 16 bins (most nodes hold a few).
  const stamp = new Int32Array(BINS)
  const usedBins = new Int32Array(BINS)
  let stampNow = 0

  while (wp > 0) {
    const node = work[--wp]
    const first = info[3 * node + 1], count = info[3 * node + 2], end = first + count
    let x0 = Infinity, y0 = Infinity, z0 = Infinity, x1 = -Infinity, y1 = -Infinity, z1 = -Infinity
    let cx0 = Infinity, cy0 = Infinity, cz0 = Infinity, cx1 = -Infinity, cy1 = -Infinity, cz1 = -Infinity
    for (let s = first; s < end; s++) {
      const t = perm[s], o = 6 * t
      if (triBox[o] < x0) x0 = triBox[o]
      if (triBox[o + 1] < y0) y0 = triBox[o + 1]
      if (triBox[o + 2] < z0) z0 = triBox[o + 2]
      if (triBox[o + 3] > x1) x1 = triBox[o + 3]
      if (triBox[o + 4] > y1) y1 = triBox[o + 4]
      if (triBox[o + 5] > z1) z1 = triBox[o + 5]
      const cx = cen[3 * t], cy = cen[3 * t + 1], cz = cen[3 * t + 2]
      if (cx < cx0) cx0 = cx
      if (cy < cy0) cy0 = cy
      if (cz < cz0) cz0 = cz
      if (cx > cx1) cx1 = cx
      if (cy > cy1) cy1 = cy
      if (cz > cz1) cz1 = cz
    }
    const ob = 6 * node
    bounds[ob] = x0
    bounds[ob + 1] = y0
    bounds[ob + 2] = z0
    bounds[ob + 3] = x1
    bounds[ob + 4] = y1
    bounds[ob + 5] = z1
    if (count <= 1) continue

    // Binned SAH along the axis of the largest centroid extent, as Wald 2007 does: binning all
    // three axes as well (this BVH's first version) made the build twice as slow, 30 against
    // 16 ms for a dam break's 12,000-triangle liquid surface, for trees that answered
    // closest-point queries no faster (2.29 against 2.31 us a query). An axis along which all
    // centroids coincide cannot be split.
    let bestCost = Infinity, bestAxis = -1, bestSplit = 0
    const ext0 = cx1 - cx0, ext1 = cy1 - cy0, ext2 = cz1 - cz0
    const axis = ext0 >= ext1 && ext0 >= ext2 ? 0 : ext1 >= ext2 ? 1 : 2
    const cmin = axis === 0 ? cx0 : axis === 1 ? cy0 : cz0
    const extent = axis === 0 ? ext0 : axis === 1 ? ext1 : ext2
    const scale = extent > 0 ? BINS / extent : 0
    let used = 0
    stampNow++
    if (extent > 0) {
      for (let s = first; s < end; s++) {
        const t = perm[s], q = 6 * t
        const bx0 = triBox[q], by0 = triBox[q + 1], bz0 = triBox[q + 2]
        const bx1 = triBox[q + 3], by1 = triBox[q + 4], bz1 = triBox[q + 5]
        let bin = ((cen[3 * t + axis] - cmin) * scale) | 0
        if (bin >= BINS) bin = BINS - 1
        const o = 6 * bin
        if (stamp[bin] !== stampNow) {
          stamp[bin] = stampNow
          binCount[bin] = 0
          binBox[o] = bx0; binBox[o + 1] = by0; binBox[o + 2] = bz0
          binBox[o + 3] = bx1; binBox[o + 4] = by1; binBox[o + 5] = bz1
          usedBins[used++] = bin
        }
        binCount[bin]++
        if (bx0 < binBox[o]) binBox[o] = bx0
        if (by0 < binBox[o + 1]) binBox[o + 1] = by0
        if (bz0 < binBox[o + 2]) binBox[o + 2] = bz0
        if (bx1 > binBox[o + 3]) binBox[o + 3] = bx1
        if (by1 > binBox[o + 4]) binBox[o + 4] = by1
        if (bz1 > binBox[o + 5]) binBox[o + 5] = bz1
      }
    }
    if (used >= 2) {
      // The non-empty bins in increasing order (at most 16).
      insertionSortInt32(usedBins, 0, used)
      // Suffix sweep over the non-empty bins: area and count of bins u_k.. (the empty ones
      // between add nothing, so these are the sums over every bin from u_k up).
      let ax0 = Infinity, ay0 = Infinity, az0 = Infinity, ax1 = -Infinity, ay1 = -Infinity, az1 = -Infinity
      let acc = 0
      for (let k = used - 1; k >= 1; k--) {
        const bin = usedBins[k], o = 6 * bin
        acc += binCount[bin]
        if (binBox[o] < ax0) ax0 = binBox[o]
        if (binBox[o + 1] < ay0) ay0 = binBox[o + 1]
        if (binBox[o + 2] < az0) az0 = binBox[o + 2]
        if (binBox[o + 3] > ax1) ax1 = binBox[o + 3]
        if (binBox[o + 4] > ay1) ay1 = binBox[o + 4]
        if (binBox[o + 5] > az1) az1 = binBox[o + 5]
        sufCount[k] = acc
        sufArea[k] = area(ax0, ay0, az0, ax1, ay1, az1)
      }
      // Prefix sweep: the split before non-empty bin u_k. Every split plane from just above
      // u_(k-1) to u_k divides the triangles alike, at the same cost; the lowest, u_(k-1) + 1,
      // is the one a sweep over every bin keeps (it takes a lower cost only).
      ax0 = ay0 = az0 = Infinity
      ax1 = ay1 = az1 = -Infinity
      acc = 0
      for (let k = 1; k < used; k++) {
        const bin = usedBins[k - 1], o = 6 * bin
        acc += binCount[bin]
        if (binBox[o] < ax0) ax0 = binBox[o]
        if (binBox[o + 1] < ay0) ay0 = binBox[o + 1]
        if (binBox[o + 2] < az0) az0 = binBox[o + 2]
        if (binBox[o + 3] > ax1) ax1 = binBox[o + 3]
        if (binBox[o + 4] > ay1) ay1 = binBox[o + 4]
        if (binBox[o + 5] > az1) az1 = binBox[o + 5]
        const cost = area(ax0, ay0, az0, ax1, ay1, az1) * acc + sufArea[k] * sufCount[k]
        if (cost < bestCost) {
          bestCost = cost
          bestAxis = axis
          bestSplit = bin + 1
        }
      }
    }

    let mid: number
    if (bestAxis < 0) {
      // All centroids coincide: no plane separates them. Halve arbitrarily if too many.
      if (count <= MAX_LEAF) continue
      mid = count >> 1
    } else {
      const parentArea = area(x0, y0, z0, x1, y1, z1)
      // SAH: traversal cost 1, triangle test cost 1 (Wald 2007).
      const splitCost = parentArea > 0 ? 1 + bestCost / parentArea : Infinity
      if (count <= MAX_LEAF && !(splitCost < count)) continue
      // Same bin formula as above, so the split reproduces the counted sides exactly.
      let i = first, j = end - 1
      while (i <= j) {
        const t = perm[i]
        let bin = ((cen[3 * t + bestAxis] - cmin) * scale) | 0
        if (bin >= BINS) bin = BINS - 1
        if (bin < bestSplit) i++
        else {
          perm[i] = perm[j]
          perm[j] = t
          j--
        }
      }
      mid = i - first
    }
    const left = nodeCount
    nodeCount += 2
    info[3 * node] = left
    info[3 * left] = -1
    info[3 * left + 1] = first
    info[3 * left + 2] = mid
    info[3 * left + 3] = -1
    info[3 * left + 4] = first + mid
    info[3 * left + 5] = count - mid
    const d = depth[node] + 1
    depth[left] = depth[left + 1] = d
    if (d > maxDepth) maxDepth = d
    work[wp++] = left + 1
    work[wp++] = left
  }

  const verts = new Float32Array(9 * n)
  for (let s = 0; s < n; s++) {
    const t = perm[s]
    for (let c = 0; c < 3; c++) {
      const v = 3 * idx[3 * t + c]
      verts[9 * s + 3 * c] = p[v]
      verts[9 * s + 3 * c + 1] = p[v + 1]
      verts[9 * s + 3 * c + 2] = p[v + 2]
    }
  }
  return {
    nodeCount,
    maxDepth,
    bounds: bounds.slice(0, 6 * nodeCount),
    info: info.slice(0, 3 * nodeCount),
    perm,
    verts,
  }
}

function area(x0: number, y0: number, z0: number, x1: number, y1: number, z1: number): number {
  const dx = x1 - x0, dy = y1 - y0, dz = z1 - z0
  return 2 * (dx * dy + dy * dz + dz * dx)
}
