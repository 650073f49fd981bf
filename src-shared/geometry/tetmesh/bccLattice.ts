// The uniform background grid of isosurface stuffing (Labelle and Shewchuk 2007, section 3):
// the body-centred cubic (BCC) lattice, i.e. the corners of a grid of cubes of edge h plus
// the cubes' centres, and the tetrahedra of its Delaunay triangulation. Every such
// tetrahedron joins the centres of two face-adjacent cubes (a long, "black" edge of length h
// along an axis) with one edge of their shared face (the other black edge, between two
// corners); its four other edges join a centre to a corner (short, "red", length sqrt(3)/2 h).
// All are congruent, with dihedral angles of 60 degrees at the red edges and 90 at the black.
//
// Vertex ids are dense, which is the perfect hash of the integer coordinates: corners first,
// corner (i, j, k) = i + (nx + 1) (j + (ny + 1) k), then centres, centre of cube (i, j, k) =
// nCorners + i + nx (j + ny k). Integer lattice coordinates are in units of h / 2: corner
// (2i, 2j, 2k), centre (2i + 1, 2j + 1, 2k + 1).
import { EddyError } from '../../api/errors'
import type { LatticeVertices } from './latticeVertices'
import { OUT } from './stencils'

export interface BccGrid {
  /** Cubes per axis. */
  nx: number
  ny: number
  nz: number
  /** Cube edge (the long edge length). */
  h: number
  /** Position of corner (0, 0, 0). */
  ox: number
  oy: number
  oz: number
}

/**
 * A grid of cubes of edge h covering the box [min, max] with at least 1.5 h to spare on
 * every side, so every corner on the grid's boundary and every centre of a boundary cube
 * lies outside the box: the tetrahedra the grid lacks (around its boundary) would be
 * outside the shape and dropped anyway.
 */
export function bccGridForBounds(min: ArrayLike<number>, max: ArrayLike<number>, h: number): BccGrid {
  const n = [0, 0, 0], o = [0, 0, 0]
  for (let a = 0; a < 3; a++) {
    const span = max[a] - min[a]
    if (!Number.isFinite(span) || span < 0) throw new EddyError('INVALID_PARAM', `isosurface stuffing: bounds must be finite with min <= max (axis ${a})`)
    n[a] = Math.ceil(span / h) + 3
    // Centre the box in the grid.
    o[a] = 0.5 * (min[a] + max[a]) - 0.5 * n[a] * h
  }
  const cells = n[0] * n[1] * n[2]
  if (cells > 2 ** 25) {
    throw new EddyError('RESOURCE_LIMIT', `isosurface stuffing: ${n.join(' x ')} lattice cubes is too many for the uniform mode; use a larger spacing or the graded mode`)
  }
  return { nx: n[0], ny: n[1], nz: n[2], h, ox: o[0], oy: o[1], oz: o[2] }
}

export function bccCornerCount(g: BccGrid): number {
  return (g.nx + 1) * (g.ny + 1) * (g.nz + 1)
}

export function bccVertexCount(g: BccGrid): number {
  return bccCornerCount(g) + g.nx * g.ny * g.nz
}

/** Appends every lattice vertex to `lat` (which must be empty) in id order. */
export function addBccVertices(g: BccGrid, lat: LatticeVertices): void {
  const { nx, ny, nz, h, ox, oy, oz } = g
  for (let k = 0; k <= nz; k++) for (let j = 0; j <= ny; j++) for (let i = 0; i <= nx; i++) {
    lat.add(2 * i, 2 * j, 2 * k, ox + i * h, oy + j * h, oz + k * h)
  }
  for (let k = 0; k < nz; k++) for (let j = 0; j < ny; j++) for (let i = 0; i < nx; i++) {
    lat.add(2 * i + 1, 2 * j + 1, 2 * k + 1, ox + (i + 0.5) * h, oy + (j + 0.5) * h, oz + (k + 0.5) * h)
  }
}

/** Whether lattice vertex `id` is on the outer layer (a grid-boundary corner or a boundary cube's centre). */
export function isBccOuterVertex(g: BccGrid, id: number): boolean {
  const nc = bccCornerCount(g)
  if (id < nc) {
    const i = id % (g.nx + 1), r = (id - i) / (g.nx + 1), j = r % (g.ny + 1), k = (r - j) / (g.ny + 1)
    return i === 0 || j === 0 || k === 0 || i === g.nx || j === g.ny || k === g.nz
  }
  const c = id - nc
  const i = c % g.nx, r = (c - i) / g.nx, j = r % g.ny, k = (r - j) / g.ny
  return i === 0 || j === 0 || k === 0 || i === g.nx - 1 || j === g.ny - 1 || k === g.nz - 1
}

/**
 * Shapes of background tetrahedra. Only SHAPE_FINEST_BCC ones (a-b two cube centres, c-d two
 * cube corners, at the finest size) are ever cut by the surface; the graded lattice adds the
 * coarser BCC, bisected and quadrisected BCC tetrahedra and half-pyramids (gradedLattice.ts).
 */
export const SHAPE_FINEST_BCC = 1
export const SHAPE_BCC = 2
export const SHAPE_BISECTED = 3
export const SHAPE_QUADRISECTED = 4
export const SHAPE_HALF_PYRAMID = 5

/** Receives background tetrahedra (a, b, c, d), positively oriented, with their SHAPE_* code; for BCC ones a-b and c-d are the long edges. */
export interface TetVisitor {
  visit(a: number, b: number, c: number, d: number, shape: number): void
}

/**
 * Visits every BCC tetrahedron of the grid: for each pair of face-adjacent cubes, the four
 * tetrahedra (centre, centre', corner_m, corner_m+1) around their shared face, the corners
 * taken counter-clockwise about the axis from the first centre to the second, which makes
 * every tetrahedron positively oriented.
 *
 * With `label` (the lattice's OUT / ON / IN per vertex, read as the visit happens), the four
 * tetrahedra around a face are passed over when both centres and the face's four corners are
 * all OUT: stuffing makes nothing of a tetrahedron without an IN or ON vertex, and the lattice
 * spans the whole box, most of it air around a liquid.
 */
export function visitBccTets(g: BccGrid, v: TetVisitor, label: Uint8Array | null = null): void {
  const { nx, ny, nz } = g
  const sx = nx + 1, sxy = (nx + 1) * (ny + 1)
  const nc = sxy * (nz + 1)
  const cx = 1, cy = nx, cz = nx * ny
  // Corner offsets (u, v) = (0,0), (1,0), (1,1), (0,1) on the face, for each axis a with
  // u = axis a + 1, v = axis a + 2 (cyclic), as id offsets from the face's lowest corner.
  const du = [sx, sxy, 1], dv = [sxy, 1, sx]
  for (let k = 0; k < nz; k++) for (let j = 0; j < ny; j++) for (let i = 0; i < nx; i++) {
    const c0 = nc + i * cx + j * cy + k * cz
    const k0 = i + j * sx + k * sxy
    for (let a = 0; a < 3; a++) {
      let c1: number, f0: number
      if (a === 0) { if (i + 1 >= nx) continue; c1 = c0 + cx; f0 = k0 + 1 } else if (a === 1) { if (j + 1 >= ny) continue; c1 = c0 + cy; f0 = k0 + sx } else { if (k + 1 >= nz) continue; c1 = c0 + cz; f0 = k0 + sxy }
      const p0 = f0, p1 = f0 + du[a], p2 = f0 + du[a] + dv[a], p3 = f0 + dv[a]
      // OUT is 0, so the six labels' bits are all clear exactly when all six are OUT.
      if (label !== null && (label[c0] | label[c1] | label[p0] | label[p1] | label[p2] | label[p3]) === OUT) continue
      v.visit(c0, c1, p0, p1, SHAPE_FINEST_BCC)
      v.visit(c0, c1, p1, p2, SHAPE_FINEST_BCC)
      v.visit(c0, c1, p2, p3, SHAPE_FINEST_BCC)
      v.visit(c0, c1, p3, p0, SHAPE_FINEST_BCC)
    }
  }
}
