// The background lattice of a hybrid tetrahedral/hexahedral mesh (Feldman, O'Brien and
// Klingner 2005, seed 000 section 3.1 and Figure 3): a grid of cubes of which some ("band"
// cubes, around obstacles) are filled with tetrahedra and the rest stay hexahedra.
//
// The tetrahedra are the BCC lattice's (bccLattice.ts) wherever two band cubes share a face:
// (centre, centre', corner_m, corner_m+1) for the four edges of the face. Where a band cube
// meets a hexahedron or the grid's outer boundary, the BCC tetrahedron that would straddle the
// face is cut in half by it: (centre, face centre, corner_m, corner_m+1). Those half
// tetrahedra put four triangles (face centre, corner_m, corner_m+1) on the face, which is how
// the paper's transition hexahedra split the faces they share with tetrahedra: the hexahedron
// keeps its eight corners and sees four triangular faces there instead of one square.
//
// Stuffing (stuffing.ts, stuffLattice) then conforms the band to the obstacle's surface. Only
// BCC tetrahedra may be cut, so the band must be wide enough that the surface stays clear of
// the half tetrahedra on its boundary (hybridMesh.ts chooses band cubes by distance so that
// every vertex of a band-hexahedron face is at least one cube edge from the surface); at the
// grid's outer boundary an obstacle that touches the wall does cut half tetrahedra, whose
// edges are of kind EDGE_OTHER and never warp, which is still a valid mesh (the stencils are
// barycentric and orientation preserving on any positive tetrahedron).
//
// Vertex ids: the BCC ids (corners, then cube centres: bccLattice.ts), then the face centres
// the half tetrahedra need, in grid-face order. Lattice coordinates in units of h / 2, so a
// face centre of an x face is (2i, 2j + 1, 2k + 1).
import { addBccVertices, bccCornerCount, bccVertexCount, type BccGrid, SHAPE_FINEST_BCC, type TetVisitor } from './bccLattice'
import { LatticeVertices } from './latticeVertices'

/** Role of a grid cube: a hexahedron, filled with tetrahedra, or left out (inside a solid). */
export const CUBE_HEX = 0
export const CUBE_BAND = 1
export const CUBE_SOLID = 2

/** Shape code of a half tetrahedron on a band cube's face (never cut, see the file comment). */
export const SHAPE_HALF_BCC = 6

export interface BandLattice {
  grid: BccGrid
  lattice: LatticeVertices
  /** Visits the band's background tetrahedra, positively oriented, a-b and c-d the long pairs. */
  visitTets(v: TetVisitor): void
  /**
   * 1 for lattice vertices on the grid's outer boundary (the domain's walls): stuffing must not
   * warp them, or a wall's triangles would leave the wall's plane where an obstacle touches it.
   */
  pinned: Uint8Array
  /** Lattice id of the centre of grid face (axis, i, j, k) (its lower cube is (i, j, k) less one along axis), or -1. */
  faceCentre(axis: number, i: number, j: number, k: number): number
}

/**
 * The lattice of the band cubes of `grid` (role per cube, x fastest: CUBE_*). The caller
 * evaluates the signed distance on `lattice` (evaluateLattice) before stuffing.
 */
export function buildBandLattice(grid: BccGrid, role: Uint8Array): BandLattice {
  const { nx, ny, nz, h, ox, oy, oz } = grid
  const lat = new LatticeVertices(bccVertexCount(grid))
  addBccVertices(grid, lat)
  const nc = bccCornerCount(grid)
  const cubeId = (i: number, j: number, k: number) => i + nx * (j + ny * k)
  const roleAt = (i: number, j: number, k: number) => (i < 0 || j < 0 || k < 0 || i >= nx || j >= ny || k >= nz ? -1 : role[cubeId(i, j, k)])
  // Face centres, one table per axis: faces normal to x are (nx + 1) x ny x nz, and so on.
  const dims = [[nx + 1, ny, nz], [nx, ny + 1, nz], [nx, ny, nz + 1]]
  const centres = dims.map((d) => new Int32Array(d[0] * d[1] * d[2]).fill(-1))
  const faceIndex = (a: number, i: number, j: number, k: number) => i + dims[a][0] * (j + dims[a][1] * k)
  const step = [[1, 0, 0], [0, 1, 0], [0, 0, 1]]
  for (let k = 0; k < nz; k++) for (let j = 0; j < ny; j++) for (let i = 0; i < nx; i++) {
    if (role[cubeId(i, j, k)] !== CUBE_BAND) continue
    for (let a = 0; a < 3; a++) for (let side = 0; side < 2; side++) {
      const s = step[a]
      const ni = i + (side ? s[0] : -s[0]), nj = j + (side ? s[1] : -s[1]), nk = k + (side ? s[2] : -s[2])
      const r = roleAt(ni, nj, nk)
      if (r !== CUBE_HEX && r !== -1) continue
      const fi = i + (side ? s[0] : 0), fj = j + (side ? s[1] : 0), fk = k + (side ? s[2] : 0)
      const idx = faceIndex(a, fi, fj, fk)
      if (centres[a][idx] >= 0) continue
      const c = [2 * fi + 1, 2 * fj + 1, 2 * fk + 1]
      c[a] = 2 * (a === 0 ? fi : a === 1 ? fj : fk)
      centres[a][idx] = lat.add(c[0], c[1], c[2], ox + 0.5 * c[0] * h, oy + 0.5 * c[1] * h, oz + 0.5 * c[2] * h)
    }
  }
  const faceCentre = (a: number, i: number, j: number, k: number) => centres[a][faceIndex(a, i, j, k)]

  const sx = nx + 1, sxy = (nx + 1) * (ny + 1)
  const du = [sx, sxy, 1], dv = [sxy, 1, sx]
  // Orientation from the integer lattice coordinates: warping between the two stuffing passes
  // moves positions, and both passes must see the same tetrahedra.
  const ic = lat.ic
  function visitTets(v: TetVisitor): void {
    for (let k = 0; k < nz; k++) for (let j = 0; j < ny; j++) for (let i = 0; i < nx; i++) {
      if (role[cubeId(i, j, k)] !== CUBE_BAND) continue
      const c0 = nc + cubeId(i, j, k)
      for (let a = 0; a < 3; a++) {
        const s = step[a]
        // Upper face: BCC tetrahedra with the upper band neighbour, or half tetrahedra.
        // Lower face: half tetrahedra only (a band neighbour below visits the BCC ones).
        for (let side = 1; side >= 0; side--) {
          const ni = i + (side ? s[0] : -s[0]), nj = j + (side ? s[1] : -s[1]), nk = k + (side ? s[2] : -s[2])
          const r = roleAt(ni, nj, nk)
          const fi = i + (side ? s[0] : 0), fj = j + (side ? s[1] : 0), fk = k + (side ? s[2] : 0)
          const f0 = fi + fj * sx + fk * sxy
          const p0 = f0, p1 = f0 + du[a], p2 = f0 + du[a] + dv[a], p3 = f0 + dv[a]
          if (r === CUBE_BAND) {
            if (!side) continue
            const c1 = nc + cubeId(ni, nj, nk)
            v.visit(c0, c1, p0, p1, SHAPE_FINEST_BCC)
            v.visit(c0, c1, p1, p2, SHAPE_FINEST_BCC)
            v.visit(c0, c1, p2, p3, SHAPE_FINEST_BCC)
            v.visit(c0, c1, p3, p0, SHAPE_FINEST_BCC)
          } else if (r === CUBE_HEX || r === -1) {
            const f = faceCentre(a, fi, fj, fk)
            half(v, c0, f, p0, p1)
            half(v, c0, f, p1, p2)
            half(v, c0, f, p2, p3)
            half(v, c0, f, p3, p0)
          }
        }
      }
    }
  }
  /** Visits (c, f, p, q) with p, q swapped if needed for a positive orientation. */
  function half(v: TetVisitor, c: number, f: number, p: number, q: number): void {
    const o = 3 * c
    const ax = ic[3 * f] - ic[o], ay = ic[3 * f + 1] - ic[o + 1], az = ic[3 * f + 2] - ic[o + 2]
    const bx = ic[3 * p] - ic[o], by = ic[3 * p + 1] - ic[o + 1], bz = ic[3 * p + 2] - ic[o + 2]
    const cx = ic[3 * q] - ic[o], cy = ic[3 * q + 1] - ic[o + 1], cz = ic[3 * q + 2] - ic[o + 2]
    const det = ax * (by * cz - bz * cy) - ay * (bx * cz - bz * cx) + az * (bx * cy - by * cx)
    if (det > 0) v.visit(c, f, p, q, SHAPE_HALF_BCC)
    else v.visit(c, f, q, p, SHAPE_HALF_BCC)
  }
  const pinned = new Uint8Array(lat.count)
  const top = [2 * nx, 2 * ny, 2 * nz]
  for (let v = 0; v < lat.count; v++) {
    for (let a = 0; a < 3; a++) if (ic[3 * v + a] === 0 || ic[3 * v + a] === top[a]) pinned[v] = 1
  }
  return { grid, lattice: lat, visitTets, faceCentre, pinned }
}
