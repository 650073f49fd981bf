// Geometry of a tetrahedral mesh for the finite-volume core: tet volumes and barycentres, face
// areas, unit normals (oriented as the topology's faces: from tet a to tet b, outwards on the
// boundary) and barycentres, the mean edge length of each tet (the MLS epsilon of seed 000
// section 3.5), and the two distance measures across faces that the normal pressure gradient
// divides by:
//
//   centreDistance (seed 003 eq. 7): grad p . n_f = (p_2 - p_1) / d_f, d_f "the perpendicular
//     distance between those centers" = (c_b - c_a) . n_f, with the pressures at the tet
//     barycentres c (seed 003 stores them at barycentres, not circumcentres).
//   heightDistance (seed 000 eq. 4): grad p . n_i = (p_b - p_a) / (k_a + k_b), k_j = 3 V_j / (4 A_i)
//     for a tet: the perpendicular distance from a tet's barycentre to its face i (a quarter of
//     the height 3V/A).
//
// For barycentres the two agree exactly in exact arithmetic: c_j sits at a quarter of the
// height above every face, so (c_b - c_a) . n = k_a + k_b (the tests check it to rounding). On
// a boundary face both hold the one-sided distance from c_a to the face, k_a = (x_f - c_a) . n
// = 3 V_a / (4 A); where the ghost pressure sits beyond it is the projection's choice.
import type { TetTopology } from './tetTopology'

function len3(x: number, y: number, z: number): number {
  return Math.sqrt(x * x + y * y + z * z)
}

export interface TetGeometry {
  /** Per tet. */
  readonly volumes: Float64Array
  /** 3 per tet: barycentres, where the pressures live. */
  readonly tetCentres: Float64Array
  /** Per tet: the mean of its six edge lengths. */
  readonly tetMeanEdge: Float64Array
  /** Per face. */
  readonly faceAreas: Float64Array
  /** 3 per face: unit normals from faceTets[2f] to faceTets[2f+1] (outwards on the boundary). */
  readonly faceNormals: Float64Array
  /** 3 per face: barycentres, where the normal velocities live. */
  readonly faceCentres: Float64Array
  /** Per face, seed 003 eq. 7: (c_b - c_a) . n_f; boundary faces (x_f - c_a) . n_f. */
  readonly centreDistance: Float64Array
  /** Per face, seed 000 eq. 4: 3 V_a / (4 A_f) + 3 V_b / (4 A_f); boundary faces 3 V_a / (4 A_f). */
  readonly heightDistance: Float64Array
}

/** The geometry of a mesh whose topology was built from the same positions. */
export function computeTetGeometry(topology: TetTopology, positions: Float64Array): TetGeometry {
  const { tetCount: nt, faceCount: nf, tets, faceVertices, faceTets } = topology
  const volumes = new Float64Array(nt)
  const tetCentres = new Float64Array(3 * nt)
  const tetMeanEdge = new Float64Array(nt)
  for (let t = 0; t < nt; t++) {
    const a = 3 * tets[4 * t], b = 3 * tets[4 * t + 1], c = 3 * tets[4 * t + 2], d = 3 * tets[4 * t + 3]
    const x0 = positions[a], y0 = positions[a + 1], z0 = positions[a + 2]
    const x1 = positions[b], y1 = positions[b + 1], z1 = positions[b + 2]
    const x2 = positions[c], y2 = positions[c + 1], z2 = positions[c + 2]
    const x3 = positions[d], y3 = positions[d + 1], z3 = positions[d + 2]
    const ux = x1 - x0, uy = y1 - y0, uz = z1 - z0
    const vx = x2 - x0, vy = y2 - y0, vz = z2 - z0
    const wx = x3 - x0, wy = y3 - y0, wz = z3 - z0
    volumes[t] = (ux * (vy * wz - vz * wy) - uy * (vx * wz - vz * wx) + uz * (vx * wy - vy * wx)) / 6
    tetCentres[3 * t] = 0.25 * (x0 + x1 + x2 + x3)
    tetCentres[3 * t + 1] = 0.25 * (y0 + y1 + y2 + y3)
    tetCentres[3 * t + 2] = 0.25 * (z0 + z1 + z2 + z3)
    tetMeanEdge[t] =
      (len3(ux, uy, uz) +
        len3(vx, vy, vz) +
        len3(wx, wy, wz) +
        len3(x2 - x1, y2 - y1, z2 - z1) +
        len3(x3 - x1, y3 - y1, z3 - z1) +
        len3(x3 - x2, y3 - y2, z3 - z2)) /
      6
  }
  const faceAreas = new Float64Array(nf)
  const faceNormals = new Float64Array(3 * nf)
  const faceCentres = new Float64Array(3 * nf)
  const centreDistance = new Float64Array(nf)
  const heightDistance = new Float64Array(nf)
  for (let f = 0; f < nf; f++) {
    const a = 3 * faceVertices[3 * f], b = 3 * faceVertices[3 * f + 1], c = 3 * faceVertices[3 * f + 2]
    const x0 = positions[a], y0 = positions[a + 1], z0 = positions[a + 2]
    const ux = positions[b] - x0, uy = positions[b + 1] - y0, uz = positions[b + 2] - z0
    const vx = positions[c] - x0, vy = positions[c + 1] - y0, vz = positions[c + 2] - z0
    const cx = uy * vz - uz * vy, cy = uz * vx - ux * vz, cz = ux * vy - uy * vx
    const len = len3(cx, cy, cz)
    const area = 0.5 * len
    const nx = cx / len, ny = cy / len, nz = cz / len
    faceAreas[f] = area
    faceNormals[3 * f] = nx
    faceNormals[3 * f + 1] = ny
    faceNormals[3 * f + 2] = nz
    const fx = (x0 + positions[b] + positions[c]) / 3
    const fy = (y0 + positions[b + 1] + positions[c + 1]) / 3
    const fz = (z0 + positions[b + 2] + positions[c + 2]) / 3
    faceCentres[3 * f] = fx
    faceCentres[3 * f + 1] = fy
    faceCentres[3 * f + 2] = fz
    const ta = faceTets[2 * f], tb = faceTets[2 * f + 1]
    const ka = (3 * volumes[ta]) / (4 * area)
    if (tb >= 0) {
      // Seed 003 eq. 7: the perpendicular distance between the two centres.
      centreDistance[f] = (tetCentres[3 * tb] - tetCentres[3 * ta]) * nx + (tetCentres[3 * tb + 1] - tetCentres[3 * ta + 1]) * ny + (tetCentres[3 * tb + 2] - tetCentres[3 * ta + 2]) * nz
      // Seed 000 eq. 4: k_a + k_b with k_j = 3 V_j / (4 A).
      heightDistance[f] = ka + (3 * volumes[tb]) / (4 * area)
    } else {
      centreDistance[f] = (fx - tetCentres[3 * ta]) * nx + (fy - tetCentres[3 * ta + 1]) * ny + (fz - tetCentres[3 * ta + 2]) * nz
      heightDistance[f] = ka
    }
  }
  return { volumes, tetCentres, tetMeanEdge, faceAreas, faceNormals, faceCentres, centreDistance, heightDistance }
}
