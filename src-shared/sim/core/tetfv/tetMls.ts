// Moving least-squares velocity from face normal velocities (seed 000 section 3.5, eqs. 7-11;
// used by the hybrid gas). Each face i contributes one row n_i^T u = u_i (eq. 7, N u = z,
// eq. 8); the moving weight w_i = 1 / (r_i^2 + eps^2) (eq. 9), r_i the distance from the
// evaluation point x to the face's barycentre and eps = 0.03 x the average edge length of the
// tet containing x, scales the rows, W N u = W z (eq. 10), solved by the normal equations
// (W N)^T (W N) u = (W N)^T W z, exactly as the paper writes it (so the squared weights enter
// the normal matrix). The linear basis (eq. 11) fits u(y) = u_0 + X u_x + Y u_y + Z u_z with
// (X, Y, Z) the face centre relative to x, so u(x) = u_0; 12 unknowns. Both fits return world
// vectors, and reproduce exactly the fields their basis spans (constants; linear fields), the
// residual being zero, whenever the system has full rank.
//
// Neighbourhoods: the constant-basis vertex fit uses the faces adjacent to the vertex (the
// paper's choice), eps from the mean of its tets' average edge lengths. The point fits use the
// "two-ring neighbourhood" of the containing tet t, read here as every face adjacent to one of
// t's four vertices: t's own faces, the faces of the tets around t, and their faces' faces
// touching t's vertices (some 60-100 faces inside, reaching two tet layers out from x; it
// stays well posed on the boundary, where the face neighbours of t alone would leave fewer
// rows than the 12 unknowns).
//
// For conditioning, offsets are divided by the tet's mean edge length l and the weights
// multiplied by l^2 (neither changes u_0). A linear fit whose normal matrix is near singular
// (pivot ratio below LINEAR_CONDITION_FLOOR) falls back to the constant fit on the same faces.
import { choleskySolveInPlace } from './smallDense'
import type { TetGeometry } from './tetGeometry'
import type { TetTopology } from './tetTopology'

/** eps = MLS_EPSILON_FACTOR x the average edge length of the containing tet (seed 000 section 3.5). */
export const MLS_EPSILON_FACTOR = 0.03
/** Smallest accepted pivot ratio of the linear fit's normal matrix. */
export const LINEAR_CONDITION_FLOOR = 1e-12

export class TetMls {
  /** Faces of the last neighbourhood(), in list[0 .. count-1]. */
  readonly list: Int32Array
  private readonly stamp: Int32Array
  private stampValue = 0
  private readonly M = new Float64Array(144)
  private readonly rhs = new Float64Array(12)
  private readonly row = new Float64Array(12)

  constructor(
    readonly topology: TetTopology,
    readonly geometry: TetGeometry,
    /** Vertex positions (xyz), for the vertex fits. */
    readonly positions: Float64Array,
    readonly epsilonFactor = MLS_EPSILON_FACTOR,
  ) {
    const { tetCount: nt, tets, vertexFaceStart } = topology
    let most = 0
    for (let t = 0; t < nt; t++) {
      let n = 0
      for (let k = 0; k < 4; k++) {
        const v = tets[4 * t + k]
        n += vertexFaceStart[v + 1] - vertexFaceStart[v]
      }
      if (n > most) most = n
    }
    this.list = new Int32Array(most)
    this.stamp = new Int32Array(topology.faceCount)
  }

  /** Gathers the faces adjacent to tet t's vertices into list; returns their count. */
  neighbourhood(t: number): number {
    const { tets, vertexFaceStart, vertexFaces } = this.topology
    const { stamp, list } = this
    if (++this.stampValue === 0x7fffffff) {
      stamp.fill(0)
      this.stampValue = 1
    }
    const mark = this.stampValue
    let n = 0
    for (let k = 0; k < 4; k++) {
      const v = tets[4 * t + k]
      for (let i = vertexFaceStart[v]; i < vertexFaceStart[v + 1]; i++) {
        const f = vertexFaces[i]
        if (stamp[f] !== mark) {
          stamp[f] = mark
          list[n++] = f
        }
      }
    }
    return n
  }

  /**
   * Constant-basis MLS (eqs. 7-10) at every vertex over the faces adjacent to it:
   * out[3v..3v+2] (vertices without tets get 0).
   */
  vertexVelocities(u: Float64Array, out: Float64Array): void {
    const { topology, geometry, positions: P } = this
    const { vertexCount: nv, vertexFaceStart, vertexFaces, vertexTetStart, vertexTets } = topology
    for (let v = 0; v < nv; v++) {
      const s = vertexTetStart[v], e = vertexTetStart[v + 1]
      if (s === e) {
        out[3 * v] = out[3 * v + 1] = out[3 * v + 2] = 0
        continue
      }
      let len = 0
      for (let i = s; i < e; i++) len += geometry.tetMeanEdge[vertexTets[i]]
      len /= e - s
      this.constantFit(u, vertexFaces, vertexFaceStart[v], vertexFaceStart[v + 1], P[3 * v], P[3 * v + 1], P[3 * v + 2], len, out, 3 * v)
    }
  }

  /** Constant-basis MLS (eqs. 7-10) at (x, y, z) in tet t over its neighbourhood: out[o..o+2]. */
  constantAt(u: Float64Array, t: number, x: number, y: number, z: number, out: Float64Array, o: number): void {
    const n = this.neighbourhood(t)
    this.constantFit(u, this.list, 0, n, x, y, z, this.geometry.tetMeanEdge[t], out, o)
  }

  /**
   * Linear-basis MLS (eq. 11) at (x, y, z) in tet t over its neighbourhood: out[o..o+2] = u_0.
   * Returns false when the fit was near singular and the constant fit was used instead.
   */
  linearAt(u: Float64Array, t: number, x: number, y: number, z: number, out: Float64Array, o: number): boolean {
    const n = this.neighbourhood(t)
    const { geometry, list, M, rhs, row } = this
    const { faceCentres: C, faceNormals: N } = geometry
    const len = geometry.tetMeanEdge[t]
    const eps = this.epsilonFactor
    const invLen = 1 / len
    M.fill(0)
    rhs.fill(0)
    for (let j = 0; j < n; j++) {
      const f = list[j]
      const X = (C[3 * f] - x) * invLen, Y = (C[3 * f + 1] - y) * invLen, Z = (C[3 * f + 2] - z) * invLen
      // Eq. 9 in units of len: w = 1 / (r^2 + eps^2); rows scaled by w (eq. 10), so w^2 below.
      const w = 1 / (X * X + Y * Y + Z * Z + eps * eps)
      const w2 = w * w
      const nx = N[3 * f], ny = N[3 * f + 1], nz = N[3 * f + 2]
      // Eq. 11 row: [n^T, X n^T, Y n^T, Z n^T].
      row[0] = nx; row[1] = ny; row[2] = nz
      row[3] = X * nx; row[4] = X * ny; row[5] = X * nz
      row[6] = Y * nx; row[7] = Y * ny; row[8] = Y * nz
      row[9] = Z * nx; row[10] = Z * ny; row[11] = Z * nz
      const zw = w2 * u[f]
      for (let a = 0; a < 12; a++) {
        const ra = w2 * row[a]
        rhs[a] += zw * row[a]
        for (let b = 0; b <= a; b++) M[12 * a + b] += ra * row[b]
      }
    }
    const ratio = choleskySolveInPlace(M, 12, rhs)
    if (ratio >= LINEAR_CONDITION_FLOOR) {
      out[o] = rhs[0]
      out[o + 1] = rhs[1]
      out[o + 2] = rhs[2]
      return true
    }
    this.constantFit(u, list, 0, n, x, y, z, len, out, o)
    return false
  }

  /** Eqs. 7-10 over faces[s .. e-1] around (x, y, z), eps from len. */
  private constantFit(u: Float64Array, faces: Int32Array, s: number, e: number, x: number, y: number, z: number, len: number, out: Float64Array, o: number): void {
    const { faceCentres: C, faceNormals: N } = this.geometry
    const { M, rhs } = this
    const invLen = 1 / len
    const eps = this.epsilonFactor
    let m00 = 0, m10 = 0, m11 = 0, m20 = 0, m21 = 0, m22 = 0, b0 = 0, b1 = 0, b2 = 0
    for (let i = s; i < e; i++) {
      const f = faces[i]
      const X = (C[3 * f] - x) * invLen, Y = (C[3 * f + 1] - y) * invLen, Z = (C[3 * f + 2] - z) * invLen
      const w = 1 / (X * X + Y * Y + Z * Z + eps * eps)
      const w2 = w * w
      const nx = N[3 * f], ny = N[3 * f + 1], nz = N[3 * f + 2]
      m00 += w2 * nx * nx
      m10 += w2 * ny * nx
      m11 += w2 * ny * ny
      m20 += w2 * nz * nx
      m21 += w2 * nz * ny
      m22 += w2 * nz * nz
      const zw = w2 * u[f]
      b0 += zw * nx
      b1 += zw * ny
      b2 += zw * nz
    }
    M[0] = m00
    M[3] = m10
    M[4] = m11
    M[6] = m20
    M[7] = m21
    M[8] = m22
    rhs[0] = b0
    rhs[1] = b1
    rhs[2] = b2
    if (choleskySolveInPlace(M, 3, rhs) > 0) {
      out[o] = rhs[0]
      out[o + 1] = rhs[1]
      out[o + 2] = rhs[2]
    } else out[o] = out[o + 1] = out[o + 2] = 0
  }
}
