// Angle-weighted pseudo-normals, Baerentzen & Aanaes 2005, "Signed distance computation using
// the angle weighted pseudonormal" (IEEE TVCG 11(3)). For a closed, consistently oriented
// 2-manifold mesh, if c is the point of the mesh closest to p, then p is outside exactly
// when (p - c) . n > 0, where n is the face normal if c is inside a face, the sum of the two
// face normals if c is inside an edge, and the angle-weighted sum of the incident face
// normals (sum of alpha_i n_i, alpha_i the corner angle) if c is a vertex.
// Cheaper than a winding number per query, but wrong near holes, non-manifold edges or
// flipped faces; MeshSdf uses it only when asked to.
import type { TriMesh } from './triMesh'
import { countingSortByKey } from '../countingSort'
import {
  REGION_EDGE_AB, REGION_EDGE_BC, REGION_EDGE_CA, REGION_FACE, REGION_VERTEX_A, REGION_VERTEX_B, REGION_VERTEX_C,
} from './closestPoint'

export interface PseudoNormals {
  /** Unit normal per triangle (zero for zero-area triangles). */
  face: Float32Array
  /** Angle-weighted normal sum per vertex (not normalised: only its direction matters). */
  vertex: Float32Array
  /** Per triangle, 3 edges (ab, bc, ca) x 3: sum of the unit normals of all faces on that edge. */
  edge: Float32Array
}

export function computePseudoNormals(mesh: TriMesh): PseudoNormals {
  const p = mesh.positions, idx = mesh.indices
  const n = idx.length / 3, nv = p.length / 3
  const face = new Float32Array(3 * n)
  const vAcc = new Float64Array(3 * nv)
  for (let t = 0; t < n; t++) {
    const a = 3 * idx[3 * t], b = 3 * idx[3 * t + 1], c = 3 * idx[3 * t + 2]
    const abx = p[b] - p[a], aby = p[b + 1] - p[a + 1], abz = p[b + 2] - p[a + 2]
    const acx = p[c] - p[a], acy = p[c + 1] - p[a + 1], acz = p[c + 2] - p[a + 2]
    const bcx = p[c] - p[b], bcy = p[c + 1] - p[b + 1], bcz = p[c + 2] - p[b + 2]
    let nx = aby * acz - abz * acy, ny = abz * acx - abx * acz, nz = abx * acy - aby * acx
    const len = Math.sqrt(nx * nx + ny * ny + nz * nz)
    if (!(len > 0)) continue // no orientation: contributes nothing
    nx /= len; ny /= len; nz /= len
    face[3 * t] = nx
    face[3 * t + 1] = ny
    face[3 * t + 2] = nz
    // Corner angles: at a between ab and ac, at b between ba and bc, at c between ca and cb.
    const alphaA = angle(abx, aby, abz, acx, acy, acz)
    const alphaB = angle(-abx, -aby, -abz, bcx, bcy, bcz)
    const alphaC = Math.max(0, Math.PI - alphaA - alphaB)
    vAcc[a] += alphaA * nx; vAcc[a + 1] += alphaA * ny; vAcc[a + 2] += alphaA * nz
    vAcc[b] += alphaB * nx; vAcc[b + 1] += alphaB * ny; vAcc[b + 2] += alphaB * nz
    vAcc[c] += alphaC * nx; vAcc[c + 1] += alphaC * ny; vAcc[c + 2] += alphaC * nz
  }
  const vertex = Float32Array.from(vAcc)

  // Edges are matched by their vertex pair {lo, hi}: the half-edges are counting-sorted by lo
  // (in increasing half-edge order within a vertex), and within a vertex's few half-edges those
  // with the same hi form the edge; its faces are added in increasing half-edge order, as the
  // comparator sort by (lo, hi) this replaced listed them (O(n) instead of O(n log n) calls).
  const m = 3 * n
  const loOf = new Int32Array(m)
  const hiOf = new Int32Array(m)
  for (let t = 0; t < n; t++) {
    for (let e = 0; e < 3; e++) {
      const i = idx[3 * t + e], j = idx[3 * t + ((e + 1) % 3)]
      loOf[3 * t + e] = i < j ? i : j
      hiOf[3 * t + e] = i < j ? j : i
    }
  }
  const { start, order: byLo } = countingSortByKey(loOf, nv)
  const edge = new Float32Array(3 * m)
  const done = new Uint8Array(m)
  for (let v = 0; v < nv; v++) {
    const end = start[v + 1]
    for (let a = start[v]; a < end; a++) {
      const first = byLo[a]
      if (done[first]) continue
      const hi = hiOf[first]
      let sx = 0, sy = 0, sz = 0
      for (let b = a; b < end; b++) {
        const slot = byLo[b]
        if (hiOf[slot] !== hi) continue
        const t = (slot / 3) | 0
        sx += face[3 * t]
        sy += face[3 * t + 1]
        sz += face[3 * t + 2]
      }
      for (let b = a; b < end; b++) {
        const slot = byLo[b]
        if (hiOf[slot] !== hi) continue
        done[slot] = 1
        edge[3 * slot] = sx
        edge[3 * slot + 1] = sy
        edge[3 * slot + 2] = sz
      }
    }
  }
  return { face, vertex, edge }
}

/**
 * (p - c) . n with n the pseudo-normal of the closest-point region: > 0 outside, < 0 inside
 * for a closed consistently oriented manifold (Baerentzen & Aanaes 2005).
 * `tri` is the original triangle index and `region` a REGION_* code.
 */
export function pseudoNormalDot(
  pn: PseudoNormals, indices: Uint32Array | Int32Array, tri: number, region: number,
  px: number, py: number, pz: number, cx: number, cy: number, cz: number,
): number {
  let arr: Float32Array, o: number
  switch (region) {
    case REGION_FACE: arr = pn.face; o = 3 * tri; break
    case REGION_VERTEX_A: arr = pn.vertex; o = 3 * indices[3 * tri]; break
    case REGION_VERTEX_B: arr = pn.vertex; o = 3 * indices[3 * tri + 1]; break
    case REGION_VERTEX_C: arr = pn.vertex; o = 3 * indices[3 * tri + 2]; break
    case REGION_EDGE_AB: arr = pn.edge; o = 9 * tri; break
    case REGION_EDGE_BC: arr = pn.edge; o = 9 * tri + 3; break
    case REGION_EDGE_CA: arr = pn.edge; o = 9 * tri + 6; break
    default: return 0
  }
  return (px - cx) * arr[o] + (py - cy) * arr[o + 1] + (pz - cz) * arr[o + 2]
}

/** Angle between two vectors, robust for small angles (atan2 of |u x v| and u . v). */
function angle(ux: number, uy: number, uz: number, vx: number, vy: number, vz: number): number {
  const cx = uy * vz - uz * vy, cy = uz * vx - ux * vz, cz = ux * vy - uy * vx
  return Math.atan2(Math.sqrt(cx * cx + cy * cy + cz * cz), ux * vx + uy * vy + uz * vz)
}
