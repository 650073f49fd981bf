// Generalized winding number of a point with respect to a triangle soup.
//
// Jacobson, Kavan & Sorkine-Hornung 2013, "Robust Inside-Outside Segmentation using
// Generalized Winding Numbers": w(q) = (1 / 4 pi) * sum over triangles of the signed solid
// angle the triangle subtends at q (eq. 3 and 6). For a closed, outward-oriented surface w is
// 1 inside and 0 outside; for a surface with holes, missing or flipped pieces it varies
// smoothly, and is still close to 1 / 0 away from the defects, which is why it is used here
// for the sign of mesh SDFs instead of ray parity or pseudo-normals.
//
// The exact sum costs O(triangles) per point. FastWindingNumber is the tree-code of Barill,
// Dickson, Schmidt, Levin & Jacobson 2018, "Fast Winding Numbers for Soups and Clouds":
// a BVH node whose triangles are all far from q (|q - p~| > beta * r, sec. 3.1) is replaced
// by a truncated Taylor expansion of the dipole potential about the node's area-weighted
// centroid p~; near nodes are opened, and leaves near q are summed exactly.
import { EddyError } from '../api/errors'
import type { TriMesh } from './triMesh'
import type { TriangleBvh } from './bvh'

const INV_4PI = 1 / (4 * Math.PI)

/**
 * Signed solid angle (steradians) of triangle abc seen from the origin; a, b, c are the
 * corners minus the query point. Positive when abc is counter-clockwise seen from the
 * origin's side opposite its normal, i.e. the origin is "behind" (inside of) the triangle.
 * Van Oosterom & Strackee 1983, "The solid angle of a plane triangle", eq. 8 (Jacobson 2013,
 * eq. 6): tan(omega / 2) = a.(b x c) / (|a||b||c| + (a.b)|c| + (b.c)|a| + (c.a)|b|),
 * evaluated with atan2 so every quadrant (omega up to +-2 pi) is right. A query point on
 * the triangle's plane gives 0 (a . (b x c) = 0), and on a corner atan2(0, 0) = 0.
 */
export function triangleSolidAngle(
  ax: number, ay: number, az: number,
  bx: number, by: number, bz: number,
  cx: number, cy: number, cz: number,
): number {
  const la = Math.sqrt(ax * ax + ay * ay + az * az)
  const lb = Math.sqrt(bx * bx + by * by + bz * bz)
  const lc = Math.sqrt(cx * cx + cy * cy + cz * cz)
  const det = ax * (by * cz - bz * cy) - ay * (bx * cz - bz * cx) + az * (bx * cy - by * cx)
  const den = la * lb * lc + (ax * bx + ay * by + az * bz) * lc + (bx * cx + by * cy + bz * cz) * la + (cx * ax + cy * ay + cz * az) * lb
  return 2 * Math.atan2(det, den)
}

/**
 * Exact generalized winding number of (x, y, z) with respect to the mesh's triangles
 * (Jacobson 2013, eq. 6): O(triangles), for tests and for a few points. 1 inside a closed
 * outward-oriented surface, 0 outside, -1 inside an inverted one.
 */
export function windingNumberExact(mesh: TriMesh, x: number, y: number, z: number): number {
  const p = mesh.positions, idx = mesh.indices
  let sum = 0
  for (let t = 0; t + 2 < idx.length; t += 3) {
    const a = 3 * idx[t], b = 3 * idx[t + 1], c = 3 * idx[t + 2]
    sum += triangleSolidAngle(
      p[a] - x, p[a + 1] - y, p[a + 2] - z,
      p[b] - x, p[b + 1] - y, p[b + 2] - z,
      p[c] - x, p[c + 1] - y, p[c + 2] - z,
    )
  }
  return sum * INV_4PI
}

// Per-node expansion data, 16 doubles: area-weighted centroid p~ (3), vector area
// N = sum a_t n_t (3), second moment C (9, row-major: C_ij = sum_t N_t,i (c_t - p~)_j with
// c_t the triangle centroid), radius r (1) = an upper bound of |x - p~| over the node's
// triangles.
const M = 16
const M_P = 0, M_N = 3, M_C = 6, M_R = 15

/**
 * Hierarchical winding number over a TriangleBvh (Barill et al. 2018). `beta` is the
 * accuracy parameter of sec. 3.1: a node is expanded only when the query is farther than
 * beta * r from its centre; beta = 2 is the paper's default. Larger is more accurate and
 * slower; Infinity makes it exact (every leaf summed).
 *
 * The expansion is of the dipole kernel grad(1 / 4 pi |x - q|) about p~ (Barill 2018,
 * eq. 11-12), kept to second order:
 *   w ~= (1 / 4 pi) [ N . r / |r|^3 + tr(C) / |r|^3 - 3 r^T C r / |r|^5 ],  r = p~ - q.
 * For flat triangles both moments are exact integrals (a triangle's normal is constant and
 * its first moment is area * centroid), so the truncation error is third order, relative
 * size ~ (r / |r|)^2 <= 1 / beta^2 of a node's contribution.
 */
export class FastWindingNumber {
  readonly beta: number
  private readonly bvh: TriangleBvh
  private readonly moments: Float64Array
  private readonly stack: Int32Array

  constructor(bvh: TriangleBvh, beta = 2) {
    if (!(beta > 0)) throw new EddyError('INVALID_PARAM', `FastWindingNumber: beta must be > 0, got ${beta}`)
    this.bvh = bvh
    this.beta = beta
    this.moments = computeMoments(bvh)
    // Depth-first, both children pushed: at most one pending sibling per level plus one.
    this.stack = new Int32Array(bvh.maxDepth + 2)
  }

  evaluate(x: number, y: number, z: number): number {
    const m = this.moments, info = this.bvh.nodeInfo, v = this.bvh.triVerts, stack = this.stack
    const beta2 = this.beta * this.beta
    let omega = 0 // exact leaf solid angles
    let far = 0 // far-node expansions of the same flux integral (also steradians)
    let sp = 0
    stack[sp++] = 0
    while (sp > 0) {
      const node = stack[--sp]
      const o = M * node
      const rx = m[o + M_P] - x, ry = m[o + M_P + 1] - y, rz = m[o + M_P + 2] - z
      const d2 = rx * rx + ry * ry + rz * rz
      const rad = m[o + M_R]
      if (d2 > beta2 * rad * rad) {
        // Barill 2018, eq. 12, to second order (see class comment).
        const inv2 = 1 / d2
        const inv3 = inv2 / Math.sqrt(d2)
        const nr = m[o + M_N] * rx + m[o + M_N + 1] * ry + m[o + M_N + 2] * rz
        const c = o + M_C
        const tr = m[c] + m[c + 4] + m[c + 8]
        const rCr =
          rx * (m[c] * rx + m[c + 1] * ry + m[c + 2] * rz) +
          ry * (m[c + 3] * rx + m[c + 4] * ry + m[c + 5] * rz) +
          rz * (m[c + 6] * rx + m[c + 7] * ry + m[c + 8] * rz)
        far += inv3 * (nr + tr - 3 * rCr * inv2)
        continue
      }
      const left = info[3 * node]
      if (left >= 0) {
        stack[sp++] = left + 1
        stack[sp++] = left
        continue
      }
      const first = info[3 * node + 1], end = first + info[3 * node + 2]
      for (let s = first; s < end; s++) {
        const q = 9 * s
        omega += triangleSolidAngle(
          v[q] - x, v[q + 1] - y, v[q + 2] - z,
          v[q + 3] - x, v[q + 4] - y, v[q + 5] - z,
          v[q + 6] - x, v[q + 7] - y, v[q + 8] - z,
        )
      }
    }
    return (omega + far) * INV_4PI
  }
}

function computeMoments(bvh: TriangleBvh): Float64Array {
  const nNodes = bvh.nodeCount, info = bvh.nodeInfo, v = bvh.triVerts, b = bvh.nodeBounds
  const m = new Float64Array(M * nNodes)
  const areaOf = new Float64Array(nNodes)
  // Children have larger indices than parents, so a reverse sweep is bottom-up.
  for (let node = nNodes - 1; node >= 0; node--) {
    const o = M * node
    const left = info[3 * node]
    if (left < 0) {
      const first = info[3 * node + 1], count = info[3 * node + 2], end = first + count
      let A = 0, px = 0, py = 0, pz = 0, mx = 0, my = 0, mz = 0
      for (let s = first; s < end; s++) {
        const q = 9 * s
        const ux = v[q + 3] - v[q], uy = v[q + 4] - v[q + 1], uz = v[q + 5] - v[q + 2]
        const wx = v[q + 6] - v[q], wy = v[q + 7] - v[q + 1], wz = v[q + 8] - v[q + 2]
        const nx = 0.5 * (uy * wz - uz * wy), ny = 0.5 * (uz * wx - ux * wz), nz = 0.5 * (ux * wy - uy * wx)
        const a = Math.sqrt(nx * nx + ny * ny + nz * nz)
        const cx = (v[q] + v[q + 3] + v[q + 6]) / 3, cy = (v[q + 1] + v[q + 4] + v[q + 7]) / 3, cz = (v[q + 2] + v[q + 5] + v[q + 8]) / 3
        A += a
        px += a * cx
        py += a * cy
        pz += a * cz
        mx += cx
        my += cy
        mz += cz
        m[o + M_N] += nx
        m[o + M_N + 1] += ny
        m[o + M_N + 2] += nz
      }
      // Zero-area leaf (only degenerate triangles): plain centroid; N = C = 0 anyway.
      if (A > 0) {
        px /= A; py /= A; pz /= A
      } else {
        px = mx / count; py = my / count; pz = mz / count
      }
      m[o + M_P] = px
      m[o + M_P + 1] = py
      m[o + M_P + 2] = pz
      areaOf[node] = A
      let r2 = 0
      for (let s = first; s < end; s++) {
        const q = 9 * s
        const ux = v[q + 3] - v[q], uy = v[q + 4] - v[q + 1], uz = v[q + 5] - v[q + 2]
        const wx = v[q + 6] - v[q], wy = v[q + 7] - v[q + 1], wz = v[q + 8] - v[q + 2]
        const nx = 0.5 * (uy * wz - uz * wy), ny = 0.5 * (uz * wx - ux * wz), nz = 0.5 * (ux * wy - uy * wx)
        const dx = (v[q] + v[q + 3] + v[q + 6]) / 3 - px
        const dy = (v[q + 1] + v[q + 4] + v[q + 7]) / 3 - py
        const dz = (v[q + 2] + v[q + 5] + v[q + 8]) / 3 - pz
        const c = o + M_C
        m[c] += nx * dx; m[c + 1] += nx * dy; m[c + 2] += nx * dz
        m[c + 3] += ny * dx; m[c + 4] += ny * dy; m[c + 5] += ny * dz
        m[c + 6] += nz * dx; m[c + 7] += nz * dy; m[c + 8] += nz * dz
        for (let k = 0; k < 9; k += 3) {
          const ex = v[q + k] - px, ey = v[q + k + 1] - py, ez = v[q + k + 2] - pz
          const e2 = ex * ex + ey * ey + ez * ez
          if (e2 > r2) r2 = e2
        }
      }
      m[o + M_R] = Math.sqrt(r2)
      continue
    }
    const l = M * left, r = M * (left + 1)
    const Al = areaOf[left], Ar = areaOf[left + 1], A = Al + Ar
    areaOf[node] = A
    for (let k = 0; k < 3; k++) {
      m[o + M_P + k] = A > 0 ? (Al * m[l + M_P + k] + Ar * m[r + M_P + k]) / A : 0.5 * (m[l + M_P + k] + m[r + M_P + k])
      m[o + M_N + k] = m[l + M_N + k] + m[r + M_N + k]
    }
    // Shift each child's second moment to the parent's centre: C_ij += N_i (p~_child - p~)_j.
    let rad = 0
    for (let side = 0; side < 2; side++) {
      const ch = side === 0 ? l : r
      const dx = m[ch + M_P] - m[o + M_P], dy = m[ch + M_P + 1] - m[o + M_P + 1], dz = m[ch + M_P + 2] - m[o + M_P + 2]
      for (let i = 0; i < 3; i++) {
        const ni = m[ch + M_N + i]
        m[o + M_C + 3 * i] += m[ch + M_C + 3 * i] + ni * dx
        m[o + M_C + 3 * i + 1] += m[ch + M_C + 3 * i + 1] + ni * dy
        m[o + M_C + 3 * i + 2] += m[ch + M_C + 3 * i + 2] + ni * dz
      }
      rad = Math.max(rad, Math.sqrt(dx * dx + dy * dy + dz * dz) + m[ch + M_R])
    }
    // The node's box also bounds its triangles: take the farther box corner if tighter.
    const ob = 6 * node
    let box2 = 0
    for (let k = 0; k < 3; k++) {
      const c = m[o + M_P + k]
      const e = Math.max(c - b[ob + k], b[ob + 3 + k] - c)
      box2 += e * e
    }
    m[o + M_R] = Math.min(rad, Math.sqrt(box2))
  }
  return m
}
