// Velocity reconstruction on a tetrahedral mesh from face normal velocities (seed 003 section
// 3.1): per-tet vectors from the four face velocities (Elcott et al. 2007), vertex vectors
// from the tet vectors by generalised barycentric coordinates over the dual cells, and
// standard barycentric interpolation inside a tet (with a walk that finds the tet) for the
// fast back-tracing. The moving least-squares interpolants of seed 000 are in tetMls.ts.
//
// Per-tet vector: the Whitney 2-form (lowest-order Raviart-Thomas) interpolant of Elcott et
// al. 2007. With F_k = s_k A_k u_k the outward flux through local face k and p_k the vertex
// opposite it, the basis field of face k is (x - p_k) / (3V): its flux is 1 through face k
// (x - p_k has normal component h_k = 3V / A_k on it) and 0 through the other three (p_k lies
// in their planes). So u(x) = sum_k F_k (x - p_k) / (3V) inside the tet, with exactly the
// stored fluxes; it reproduces constant fields exactly (they lie in the space) and has
// divergence sum_k F_k / V (seed 000 eq. 3). tetVelocityVectors evaluates it at the
// barycentre. For a linear field it is first-order accurate there (not exact: the face-centre
// samples fix the fluxes, and the flux-matching affine field of the Whitney space differs from
// the linear field by O(h |grad u|)).
//
// Vertex vectors (the "generalised barycentric interpolation over dual cells" step): the
// vertex v is written as an affine combination of the barycentres c_t of its tets,
// v = sum_t l_t c_t, sum_t l_t = 1 (the two defining properties of generalised barycentric
// coordinates: partition of unity and linear precision), with the coordinates of least
// sum_t l_t^2 / W_t where W_t = V_t / 4 is tet t's share of v's barycentric dual cell:
//   l_t = W_t (y_0 + y . (c_t - v)),  [sum_t W_t (1, c_t - v)(1, c_t - v)^T] y = (1, 0, 0, 0).
// This is the dual-cell-volume weighted least-squares affine fit to the tet vectors evaluated at
// v: the volume-weighted average of the tet vectors, corrected to first order. It reproduces a
// linear field sampled at the barycentres exactly wherever the 4 x 4 system is well
// conditioned (every interior vertex; boundary vertices whose tets' barycentres span 3D). Where
// it is not (a vertex with three or fewer tets, or barycentres nearly coplanar), the plain
// dual-cell-volume average is used (exact for constants only) and the vertex is flagged. These
// are not Warren et al.'s 2004 coordinates (which need the dual cell as a convex polytope and
// are positive); ours may be negative near the boundary, as any linear-precision extrapolation.
import { choleskySolveInPlace } from './smallDense'
import type { TetGeometry } from './tetGeometry'
import type { TetTopology } from './tetTopology'
import { barycentricCoordinates } from '../../../geometry/tetmesh/tetBarycentric'

export { barycentricCoordinates }

/** out[3t..3t+2] = the Whitney (Elcott et al. 2007) velocity of tet t at its barycentre, from the face velocities u. */
export function tetVelocityVectors(topology: TetTopology, geometry: TetGeometry, positions: Float64Array, u: Float64Array, out: Float64Array): void {
  const { tetCentres } = geometry
  for (let t = 0; t < topology.tetCount; t++) {
    whitneyVelocityAt(topology, geometry, positions, u, t, tetCentres[3 * t], tetCentres[3 * t + 1], tetCentres[3 * t + 2], out, 3 * t)
  }
}

/** out[o..o+2] = the Whitney velocity u(x) = sum_k F_k (x - p_k) / (3V) of tet t at (x, y, z). */
export function whitneyVelocityAt(
  topology: TetTopology,
  geometry: TetGeometry,
  positions: Float64Array,
  u: Float64Array,
  t: number,
  x: number,
  y: number,
  z: number,
  out: Float64Array,
  o: number,
): void {
  const { tets, tetFaces, tetFaceSigns } = topology
  const A = geometry.faceAreas
  let sx = 0, sy = 0, sz = 0
  for (let k = 0; k < 4; k++) {
    const f = tetFaces[4 * t + k]
    const F = tetFaceSigns[4 * t + k] * A[f] * u[f]
    const p = 3 * tets[4 * t + k]
    sx += F * (x - positions[p])
    sy += F * (y - positions[p + 1])
    sz += F * (z - positions[p + 2])
  }
  const s = 1 / (3 * geometry.volumes[t])
  out[o] = sx * s
  out[o + 1] = sy * s
  out[o + 2] = sz * s
}

/** Per-vertex coordinates over the vertex's tets, aligned with topology.vertexTets. */
export interface DualCellWeights {
  /** weights[i] multiplies the value of tet topology.vertexTets[i]; vertex v's run is vertexTetStart[v] .. vertexTetStart[v+1]-1. */
  readonly weights: Float64Array
  /** 1 where the vertex fell back to the plain dual-cell-volume average (exact for constants only). */
  readonly fallback: Uint8Array
  /** Vertices that fell back. */
  readonly fallbackCount: number
}

/** Smallest accepted pivot ratio of the normalised 4 x 4 fit (smallDense.ts); below it a vertex falls back. */
export const DUAL_CELL_CONDITION_FLOOR = 1e-3

/** The generalised barycentric coordinates of every vertex over its tets' barycentres (see the file comment). */
export function dualCellVertexWeights(topology: TetTopology, geometry: TetGeometry, positions: Float64Array, conditionFloor = DUAL_CELL_CONDITION_FLOOR): DualCellWeights {
  const { vertexCount: nv, vertexTetStart, vertexTets } = topology
  const { volumes, tetCentres, tetMeanEdge } = geometry
  const weights = new Float64Array(vertexTets.length)
  const fallback = new Uint8Array(nv)
  let fallbackCount = 0
  const M = new Float64Array(16)
  const y = new Float64Array(4)
  for (let v = 0; v < nv; v++) {
    const s = vertexTetStart[v], e = vertexTetStart[v + 1]
    if (s === e) continue
    const vx = positions[3 * v], vy = positions[3 * v + 1], vz = positions[3 * v + 2]
    // Normalise: weights by the total volume, offsets by the mean edge length (the solution's l_t do not change).
    let total = 0, len = 0
    for (let i = s; i < e; i++) {
      total += volumes[vertexTets[i]]
      len += tetMeanEdge[vertexTets[i]]
    }
    len /= e - s
    M.fill(0)
    for (let i = s; i < e; i++) {
      const t = vertexTets[i]
      const w = volumes[t] / total
      const a1 = (tetCentres[3 * t] - vx) / len, a2 = (tetCentres[3 * t + 1] - vy) / len, a3 = (tetCentres[3 * t + 2] - vz) / len
      M[0] += w
      M[4] += w * a1
      M[5] += w * a1 * a1
      M[8] += w * a2
      M[9] += w * a2 * a1
      M[10] += w * a2 * a2
      M[12] += w * a3
      M[13] += w * a3 * a1
      M[14] += w * a3 * a2
      M[15] += w * a3 * a3
    }
    y[0] = 1
    y[1] = y[2] = y[3] = 0
    const ratio = e - s >= 4 ? choleskySolveInPlace(M, 4, y) : 0
    if (ratio >= conditionFloor) {
      for (let i = s; i < e; i++) {
        const t = vertexTets[i]
        const a1 = (tetCentres[3 * t] - vx) / len, a2 = (tetCentres[3 * t + 1] - vy) / len, a3 = (tetCentres[3 * t + 2] - vz) / len
        weights[i] = (volumes[t] / total) * (y[0] + y[1] * a1 + y[2] * a2 + y[3] * a3)
      }
    } else {
      fallback[v] = 1
      fallbackCount++
      for (let i = s; i < e; i++) weights[i] = volumes[vertexTets[i]] / total
    }
  }
  return { weights, fallback, fallbackCount }
}

/** out[3v..3v+2] = sum_t l_vt tetValues[3t..3t+2]: vertex vectors from tet vectors (dualCellVertexWeights). */
export function interpolateTetsToVertices(topology: TetTopology, weights: DualCellWeights, tetValues: Float64Array, out: Float64Array): void {
  const { vertexCount: nv, vertexTetStart, vertexTets } = topology
  const l = weights.weights
  for (let v = 0; v < nv; v++) {
    let sx = 0, sy = 0, sz = 0
    for (let i = vertexTetStart[v]; i < vertexTetStart[v + 1]; i++) {
      const t = 3 * vertexTets[i]
      sx += l[i] * tetValues[t]
      sy += l[i] * tetValues[t + 1]
      sz += l[i] * tetValues[t + 2]
    }
    out[3 * v] = sx
    out[3 * v + 1] = sy
    out[3 * v + 2] = sz
  }
}

const LAMBDA = new Float64Array(4)

/** out[o..o+2] = the barycentric interpolation in tet t at (x, y, z) of vertexValues (3 per vertex). */
export function interpolateInTet(positions: Float64Array, tets: Int32Array, vertexValues: Float64Array, t: number, x: number, y: number, z: number, out: Float64Array, o: number): void {
  barycentricCoordinates(positions, tets, t, x, y, z, LAMBDA)
  let sx = 0, sy = 0, sz = 0
  for (let k = 0; k < 4; k++) {
    const v = 3 * tets[4 * t + k]
    const l = LAMBDA[k]
    sx += l * vertexValues[v]
    sy += l * vertexValues[v + 1]
    sz += l * vertexValues[v + 2]
  }
  out[o] = sx
  out[o + 1] = sy
  out[o + 2] = sz
}

/**
 * The tet containing (x, y, z), by walking from tet `start` across the face opposite the most
 * negative barycentric coordinate (tolerance `slack`); -1 when the walk leaves the mesh through
 * a boundary face (the point is outside, or beyond a concavity). A walk that has not arrived
 * after maxSteps (cycles are possible on non-Delaunay meshes) finishes with a linear scan.
 */
export function locateTet(topology: TetTopology, positions: Float64Array, start: number, x: number, y: number, z: number, slack = 1e-12, maxSteps = 10_000): number {
  const { tets, tetNeighbours } = topology
  let t = start
  for (let step = 0; step < maxSteps; step++) {
    barycentricCoordinates(positions, tets, t, x, y, z, LAMBDA)
    let k = 0
    for (let j = 1; j < 4; j++) if (LAMBDA[j] < LAMBDA[k]) k = j
    if (LAMBDA[k] >= -slack) return t
    const next = tetNeighbours[4 * t + k]
    if (next < 0) return -1
    t = next
  }
  for (let s = 0; s < topology.tetCount; s++) {
    barycentricCoordinates(positions, tets, s, x, y, z, LAMBDA)
    if (LAMBDA[0] >= -slack && LAMBDA[1] >= -slack && LAMBDA[2] >= -slack && LAMBDA[3] >= -slack) return s
  }
  return -1
}
