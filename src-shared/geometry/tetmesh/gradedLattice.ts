// The graded background grid of isosurface stuffing (Labelle and Shewchuk 2007, section 6):
// a balanced octree whose leaves all have the finest size near the surface and grow
// (2:1 between neighbours) inside it, and the body-centred cubic tetrahedra built over it.
// Every tetrahedron joins a leaf's centre to a face of the leaf:
//  - two leaves of equal size sharing a face F: for each edge of F, the BCC tetrahedron
//    (centre, centre', corner, corner'), or, when a smaller leaf elsewhere put a vertex at the
//    edge's midpoint, two "bisected" BCC tetrahedra (one per half edge);
//  - a leaf whose face F is shared with four leaves of half its size: F is fanned from its
//    centre to its eight half edges, eight "quadrisected" BCC tetrahedra from the centre;
//  - each of those smaller leaves: its face split by the diagonal through F's centre, two
//    "half-pyramids" (its centre over each triangle).
// So the grid has only four tetrahedron shapes (in sizes a power of two apart): BCC,
// bisected, quadrisected, half-pyramid. Each leaf is the union of the pyramids from its
// centre over its faces and both sides of every face triangulate it alike (the edge
// midpoints exist for everyone or no one; the 2:1 balance across faces, edges and corners
// rules out any other vertex on a leaf's boundary), so the grid is conforming.
//
// Where the surface can be. Stuffing's guarantees concern the stencils and warps, which
// the paper analyses on BCC tetrahedra; we refine every octree cell that may come within
// three finest spacings of the surface (|sdf(centre)| below the cell's half diagonal plus
// 3 h: a 1-Lipschitz sdf is at most the distance to its zero set). A lattice edge with a cut
// point, or a vertex that warps, lies within one spacing of the surface, and every
// tetrahedron with such a vertex spans two finest leaves that are each within
// (1 + sqrt 3) h < 3 h of it: all stencil work happens on standard finest BCC tetrahedra,
// with the uniform mode's parameters. The other tetrahedra are entirely inside or outside;
// visitTets checks that and refuses an sdf that is not a distance bound.
//
// Integer coordinates are in units of half the finest spacing (finest leaves have side 2),
// the same as the uniform lattice's: finest corners even, finest centres odd.
import { EddyError } from '../../api/errors'
import { SHAPE_BCC, SHAPE_BISECTED, SHAPE_FINEST_BCC, SHAPE_HALF_PYRAMID, SHAPE_QUADRISECTED, type TetVisitor } from './bccLattice'
import type { SignedDistanceField } from '../signedDistance'
import type { ScalarField3 } from './cutPoints'
import { evaluateLattice } from './evaluateLattice'
import { LatticeVertices } from './latticeVertices'
import { CornerIds, DENSE_TABLE_LIMIT, OctreeCells } from './octreeTables'
import { ON, OUT } from './stencils'

export interface GradedLattice {
  lattice: LatticeVertices
  /** Background tetrahedra, four vertex ids each, positively oriented. */
  tets: Int32Array
  tetCount: number
  /** Per tetrahedron: one of the SHAPE_* codes. */
  shape: Uint8Array
  /** Leaves of the octree per level (0 = finest). */
  leavesPerLevel: number[]
  visitTets(v: TetVisitor): void
  isOuter(id: number): boolean
}


/** Cells are refined while they may come closer to the surface than this many finest spacings. */
const BAND = 3

/** The cell map's value for a subdivided cell (leaves map to their index). */
const SPLIT = 0x7fffffff
/** A subdivided cell none of whose 26 neighbours (its own size) lies in a leaf two levels coarser than its children. */
const SPLIT_CLEAN = 0x7ffffffe

/**
 * The octree's leaves per finest cube that the coarse leaves inside the shape must replace for
 * the graded lattice to be built (GRADING_PAYS x the cubes >= the leaves); fewer, and the
 * uniform lattice is cheaper in all. Measured on the tetrahedral liquid's dam break at
 * resolution 96 (2 cores): the graded build costs about 1.3-3.8 us a leaf (the refinement's
 * distance queries, the 2:1 balance, the looked-up corners, the transition cases), the uniform
 * one about 0.3 us a cube of its box, and every tetrahedron the mesh holds costs some 7 us a
 * substep downstream (projection, advection, surface tracking); a coarse leaf inside saves about
 * 12 tetrahedra per finest cube it covers. Once the liquid has spread, its octree is 186,000
 * leaves with at most 112 coarse ones inside (896 cubes): built graded, 350-370 ms against
 * 90-220 for the uniform lattice, for the same number of tetrahedra within 5%. The first frame's
 * block of water (32,000 leaves, 1,680 cubes inside coarse leaves) stays graded.
 */
export const GRADING_PAYS = 30

/**
 * What buildGradedLattice returns when no leaf inside the shape could be coarser than the
 * finest level, or the coarse leaves inside replace too few finest cubes to pay for the octree
 * (GRADING_PAYS).
 */
export interface FinestOnly {
  finestOnly: true
  /** The octree's leaves. */
  leaves: number
  /** The finest cubes the octree's coarse leaves inside the shape cover (0: none could be coarse). */
  insideCubes: number
}

/**
 * Builds the graded lattice for the box [min, max] with finest spacing h and at most
 * `maxCoarsening` levels of coarsening (top cells of edge h 2^maxCoarsening), evaluates sdf
 * at its vertices and labels them. When the shape leaves no room for a coarser leaf inside it
 * (thin or small, or an sdf clamped near its surface), its tetrahedra are the uniform
 * lattice's and it says so instead of building the octree's: the 2:1 balance, the looked-up
 * vertices and the transition cases cost two to three times the uniform lattice's
 * array-indexed build for the same mesh. It says so too when the room inside is too little to
 * pay for them (GRADING_PAYS): a thin sheet of liquid spread over a floor.
 *
 * With `dropOutside`, tetrahedra whose four vertices are all outside (sdf > 0) are not listed:
 * stuffing keeps nothing of them unless it keeps tetrahedra warped wholly onto the surface
 * (its keepAllOnSurface), so the caller says. The air around a liquid in a box is most of the
 * octree (the dam break at resolution 96: 300,000 of 420,000 tetrahedra), and the leaves wholly
 * outside are passed over without looking for their neighbours.
 *
 * `tableLimit`: up to how many entries the cell and corner tables are flat arrays rather than
 * hashed (octreeTables.ts; the same lattice either way).
 */
export function buildGradedLattice(sdf: ScalarField3, min: ArrayLike<number>, max: ArrayLike<number>, h: number, maxCoarsening: number, field: SignedDistanceField | null = null, dropOutside = false, tableLimit = DENSE_TABLE_LIMIT): GradedLattice | FinestOnly {
  const D = maxCoarsening
  if (!Number.isInteger(D) || D < 0 || D > 12) throw new EddyError('INVALID_PARAM', `isosurface stuffing: maxCoarsening must be an integer 0..12, got ${D}`)
  // Top-level grid: cells of edge h 2^D covering the box with BAND + 1 spacings to spare.
  const top = h * 2 ** D
  const n = [0, 0, 0], origin = [0, 0, 0]
  for (let a = 0; a < 3; a++) {
    const span = max[a] - min[a]
    if (!Number.isFinite(span) || span < 0) throw new EddyError('INVALID_PARAM', `isosurface stuffing: bounds must be finite with min <= max (axis ${a})`)
    n[a] = Math.ceil((span + 2 * (BAND + 1) * h) / top)
    origin[a] = 0.5 * (min[a] + max[a]) - 0.5 * n[a] * top
  }
  if ((n[0] << D) >= 32768 || (n[1] << D) >= 32768 || (n[2] << D) >= 32768) {
    throw new EddyError('RESOURCE_LIMIT', 'isosurface stuffing: the graded lattice would need more than 32768 finest cells along an axis')
  }
  const half = 0.5 * h
  const ox = origin[0], oy = origin[1], oz = origin[2]
  const band = BAND * h

  // --- octree: leaves in flat arrays, found by (level, i, j, k) ---------------------------
  let cap = 1024
  let lvl = new Uint8Array(cap), li = new Int32Array(cap), lj = new Int32Array(cap), lk = new Int32Array(cap), alive = new Uint8Array(cap)
  // A lower bound on sdf at the leaf's centre (-Infinity where none is known): a leaf whose
  // bound exceeds 1.5 times its side lies wholly outside, and so does every vertex of the
  // tetrahedra it makes (its own faces within 0.87 sides of its centre, an equal neighbour's
  // centre one side away; sdf is 1-Lipschitz), so it makes no tetrahedron stuffing would keep.
  let outsideBound = new Float64Array(cap)
  let nLeaves = 0
  const addLeaf = (l: number, i: number, j: number, k: number, bound: number): number => {
    if (nLeaves === cap) {
      cap *= 2
      const a = new Uint8Array(cap); a.set(lvl); lvl = a
      const b = new Int32Array(cap); b.set(li); li = b
      const c = new Int32Array(cap); c.set(lj); lj = c
      const d = new Int32Array(cap); d.set(lk); lk = d
      const e = new Uint8Array(cap); e.set(alive); alive = e
      const o = new Float64Array(cap); o.set(outsideBound); outsideBound = o
    }
    lvl[nLeaves] = l; li[nLeaves] = i; lj[nLeaves] = j; lk[nLeaves] = k; alive[nLeaves] = 1; outsideBound[nLeaves] = bound
    return nLeaves++
  }
  // Top-down refinement near the surface (a worklist of cells, no recursion).
  const stack: number[] = []
  // The subdivided cells, four numbers (level, i, j, k) each.
  const splitCells: number[] = []
  // Finest cubes covered by coarse leaves inside the shape.
  let insideCubes = 0
  for (let k = 0; k < n[2]; k++) for (let j = 0; j < n[1]; j++) for (let i = 0; i < n[0]; i++) stack.push(D, i, j, k)
  while (stack.length > 0) {
    const k = stack.pop()!, j = stack.pop()!, i = stack.pop()!, l = stack.pop()!
    let bound = -Infinity
    if (l > 0) {
      const s = h * 2 ** l
      const d = sdf(ox + (i + 0.5) * s, oy + (j + 0.5) * s, oz + (k + 0.5) * s)
      if (Math.abs(d) < 0.8660254037844387 * s + band) {
        splitCells.push(l, i, j, k)
        for (let c = 0; c < 8; c++) stack.push(l - 1, 2 * i + (c & 1), 2 * j + ((c >> 1) & 1), 2 * k + (c >> 2))
        continue
      }
      if (d < 0) insideCubes += 8 ** l
      bound = d
    }
    addLeaf(l, i, j, k, bound)
  }
  // Coarse leaves outside make no tetrahedra: without one inside, the mesh is the uniform one,
  // and with too few inside the uniform one is cheaper (GRADING_PAYS).
  if (GRADING_PAYS * insideCubes < nLeaves) return { finestOnly: true, leaves: nLeaves, insideCubes }
  // Every cell of the tree by (level, i, j, k): a leaf's index, or SPLIT. Made once the
  // refinement has counted its cells (growing it as they came cost a tenth of the build).
  const cells = new OctreeCells(n, D, 2 * (nLeaves + splitCells.length / 4), tableLimit)
  for (let c = 0; c < splitCells.length; c += 4) cells.set(splitCells[c], splitCells[c + 1], splitCells[c + 2], splitCells[c + 3], SPLIT)
  for (let f = 0; f < nLeaves; f++) cells.set(lvl[f], li[f], lj[f], lk[f], f)
  // The leaf containing level-l cell (i, j, k), or -1 if that cell is subdivided or outside.
  // Every cell of the tree, leaf or subdivided, is in the map, so the first one met on the way
  // up from (l, i, j, k) answers.
  const leafAt = (l: number, i: number, j: number, k: number): number => {
    for (let m = l; m <= D; m++, i >>= 1, j >>= 1, k >>= 1) {
      if (i < 0 || j < 0 || k < 0 || i >= n[0] << (D - m) || j >= n[1] << (D - m) || k >= n[2] << (D - m)) return -1
      const f = cells.get(m, i, j, k)
      if (f >= 0) return f >= SPLIT_CLEAN ? -1 : f
    }
    return -1
  }
  // 2:1 balance across faces, edges and corners: a leaf of level l has no neighbour of level
  // l + 2 or more; split such neighbours until none is left (ripple through a queue).
  // A leaf can only meet such a neighbour where its parent cell does (the neighbour is two
  // levels coarser, so it also touches the parent), and that only gets rarer as leaves split,
  // so a parent found clean is marked and its children skip their own 26 looks. The splits
  // that do happen are the same, in the same order.
  const parentClean = (l: number, i: number, j: number, k: number): boolean => {
    if (cells.get(l, i, j, k) === SPLIT_CLEAN) return true
    for (let dz = -1; dz <= 1; dz++) for (let dy = -1; dy <= 1; dy++) for (let dx = -1; dx <= 1; dx++) {
      if (dx === 0 && dy === 0 && dz === 0) continue
      const g = leafAt(l, i + dx, j + dy, k + dz)
      if (g >= 0 && lvl[g] >= l + 1) return false
    }
    cells.set(l, i, j, k, SPLIT_CLEAN)
    return true
  }
  const queue: number[] = []
  for (let f = 0; f < nLeaves; f++) queue.push(f)
  while (queue.length > 0) {
    const f = queue.pop()!
    if (!alive[f]) continue
    const l = lvl[f]
    // No level is two above the top's children (or the top).
    if (l + 2 > D || parentClean(l + 1, li[f] >> 1, lj[f] >> 1, lk[f] >> 1)) continue
    let again = false
    for (let dz = -1; dz <= 1; dz++) for (let dy = -1; dy <= 1; dy++) for (let dx = -1; dx <= 1; dx++) {
      if (dx === 0 && dy === 0 && dz === 0) continue
      const g = leafAt(l, li[f] + dx, lj[f] + dy, lk[f] + dz)
      if (g < 0 || lvl[g] < l + 2) continue
      alive[g] = 0
      cells.set(lvl[g], li[g], lj[g], lk[g], SPLIT)
      const m = lvl[g] - 1
      // Each child's centre is 0.87 of its side from the parent's.
      const bound = outsideBound[g] - 0.8660254037844387 * h * 2 ** m
      for (let c = 0; c < 8; c++) {
        const ci = 2 * li[g] + (c & 1), cj = 2 * lj[g] + ((c >> 1) & 1), ck = 2 * lk[g] + (c >> 2)
        const child = addLeaf(m, ci, cj, ck, bound)
        cells.set(m, ci, cj, ck, child)
        queue.push(child)
      }
      again = true
    }
    if (again) queue.push(f)
  }

  // --- vertices: leaf centres and corners, corners found by integer coordinates -----------
  const lat = new LatticeVertices(4 * nLeaves)
  // Corners only: a leaf's centre is no other leaf's corner (it lies inside the leaf), and only
  // corners are looked up again (edge midpoints, face centres), so centres skip the map. A
  // graded octree has about 1.5 corners a leaf.
  const vertexOf = new CornerIds([n[0] << D, n[1] << D, n[2] << D], 2 * nLeaves, tableLimit)
  const vertex = (x: number, y: number, z: number): number => {
    let v = vertexOf.get(x, y, z)
    if (v < 0) {
      v = lat.add(x, y, z, ox + x * half, oy + y * half, oz + z * half)
      vertexOf.set(x, y, z, v)
    }
    return v
  }
  const leavesPerLevel = new Array<number>(D + 1).fill(0)
  // Per leaf its centre's and eight corners' vertex ids, for the tetrahedra below.
  const leafVertices = new Int32Array(9 * nLeaves)
  for (let f = 0; f < nLeaves; f++) {
    if (!alive[f]) continue
    leavesPerLevel[lvl[f]]++
    const s = 2 << lvl[f], x = li[f] * s, y = lj[f] * s, z = lk[f] * s
    const cx = x + s / 2, cy = y + s / 2, cz = z + s / 2
    leafVertices[9 * f] = lat.add(cx, cy, cz, ox + cx * half, oy + cy * half, oz + cz * half)
    for (let c = 0; c < 8; c++) leafVertices[9 * f + 1 + c] = vertex(x + (c & 1) * s, y + ((c >> 1) & 1) * s, z + (c >> 2) * s)
  }
  const maxX = (n[0] << D) * 2, maxY = (n[1] << D) * 2, maxZ = (n[2] << D) * 2
  evaluateLattice(lat, sdf, field)

  // --- tetrahedra -----------------------------------------------------------------------
  let tets = new Int32Array(4 * 8 * nLeaves)
  let shape = new Uint8Array(8 * nLeaves)
  let nt = 0
  const ic = lat.ic, label = lat.label
  const pushTet = (a: number, b: number, c: number, d: number, sh: number): void => {
    if (dropOutside && label[a] === OUT && label[b] === OUT && label[c] === OUT && label[d] === OUT) return
    if (4 * nt === tets.length) {
      const t = new Int32Array(2 * tets.length); t.set(tets); tets = t
      const s = new Uint8Array(2 * shape.length); s.set(shape); shape = s
    }
    // Orientation from the integer coordinates (exact); swapping c, d keeps the pairs a-b, c-d.
    const ax = ic[3 * a], ay = ic[3 * a + 1], az = ic[3 * a + 2]
    const ux = ic[3 * b] - ax, uy = ic[3 * b + 1] - ay, uz = ic[3 * b + 2] - az
    const vx = ic[3 * c] - ax, vy = ic[3 * c + 1] - ay, vz = ic[3 * c + 2] - az
    const wx = ic[3 * d] - ax, wy = ic[3 * d + 1] - ay, wz = ic[3 * d + 2] - az
    const det = ux * (vy * wz - vz * wy) - uy * (vx * wz - vz * wx) + uz * (vx * wy - vy * wx)
    const o = 4 * nt
    tets[o] = a; tets[o + 1] = b
    if (det > 0) { tets[o + 2] = c; tets[o + 3] = d } else { tets[o + 2] = d; tets[o + 3] = c }
    shape[nt] = sh
    nt++
  }
  // Corners of the face (axis a, side) in cyclic order about +a, as bits of a leaf's corner
  // index (bit 0 x, bit 1 y, bit 2 z): (u, w) offsets (0,0), (1,0), (1,1), (0,1) with
  // u = a + 1, w = a + 2 (cyclic). For side 1 that order makes (centre, centre', q_e, q_e+1)
  // positive, as in the uniform lattice; pushTet checks every orientation anyway.
  const FACE_CORNER = new Uint8Array(24)
  for (let a = 0; a < 3; a++) for (let side = 0; side < 2; side++) for (let e = 0; e < 4; e++) {
    const du = e === 1 || e === 2 ? 1 : 0, dw = e >= 2 ? 1 : 0
    FACE_CORNER[(2 * a + side) * 4 + e] = (side << a) | (du << ((a + 1) % 3)) | (dw << ((a + 2) % 3))
  }
  const q = new Int32Array(4)
  // Only asked of a coarser leaf's edges and faces (side 4 or more), so the midpoint's
  // coordinates are even, as CornerIds needs.
  const midpoint = (v: number, w: number): number =>
    vertexOf.get((ic[3 * v] + ic[3 * w]) >> 1, (ic[3 * v + 1] + ic[3 * w + 1]) >> 1, (ic[3 * v + 2] + ic[3 * w + 2]) >> 1)
  for (let g = 0; g < nLeaves; g++) {
    if (!alive[g]) continue
    if (dropOutside && outsideBound[g] > 1.5 * h * 2 ** lvl[g]) continue
    const l = lvl[g], s = 2 << l
    const c0 = leafVertices[9 * g], cid = 9 * g + 1
    for (let a = 0; a < 3; a++) for (let side = 0; side < 2; side++) {
      const sg = side === 0 ? -1 : 1
      const dx = a === 0 ? sg : 0, dy = a === 1 ? sg : 0, dz = a === 2 ? sg : 0
      const nb = leafAt(l, li[g] + dx, lj[g] + dy, lk[g] + dz)
      const fo = (2 * a + side) * 4
      q[0] = leafVertices[cid + FACE_CORNER[fo]]; q[1] = leafVertices[cid + FACE_CORNER[fo + 1]]; q[2] = leafVertices[cid + FACE_CORNER[fo + 2]]; q[3] = leafVertices[cid + FACE_CORNER[fo + 3]]
      if (nb >= 0 && lvl[nb] === l) {
        if (side === 0) continue // each equal pair once, from its lower leaf
        const c1 = leafVertices[9 * nb]
        for (let e = 0; e < 4; e++) {
          const qa = q[e], qb = q[(e + 1) & 3]
          const m = l === 0 ? -1 : midpoint(qa, qb) // no leaf is finer than the finest
          if (m < 0) pushTet(c0, c1, qa, qb, l === 0 ? SHAPE_FINEST_BCC : SHAPE_BCC)
          else { pushTet(c0, c1, qa, m, SHAPE_BISECTED); pushTet(c0, c1, m, qb, SHAPE_BISECTED) }
        }
      } else if (nb >= 0 && lvl[nb] === l + 1) {
        // Half-pyramids: split the face by its diagonal through the bigger neighbour's face
        // centre, which is one of this face's corners (the one on the bigger cell's axis).
        const S = 2 * s, u = (a + 1) % 3, w = (a + 2) % 3
        const bu = Math.floor(ic[3 * q[0] + u] / S) * S + s, bw = Math.floor(ic[3 * q[0] + w] / S) * S + s
        let j = 0
        for (let e = 0; e < 4; e++) if (ic[3 * q[e] + u] === bu && ic[3 * q[e] + w] === bw) j = e
        pushTet(c0, q[j], q[(j + 1) & 3], q[(j + 2) & 3], SHAPE_HALF_PYRAMID)
        pushTet(c0, q[j], q[(j + 2) & 3], q[(j + 3) & 3], SHAPE_HALF_PYRAMID)
      } else if (nb < 0 && l > 0) {
        // Smaller neighbours (their corners put a vertex at the face centre): fan from the
        // face centre over the eight half edges. No face centre: the grid's boundary.
        const fc = midpoint(q[0], q[2])
        if (fc < 0) continue
        for (let e = 0; e < 4; e++) {
          const qa = q[e], qb = q[(e + 1) & 3]
          const m = midpoint(qa, qb)
          if (m < 0) throw new EddyError('INTERNAL', 'isosurface stuffing (graded): a face with smaller neighbours lacks an edge midpoint')
          pushTet(c0, fc, qa, m, SHAPE_QUADRISECTED)
          pushTet(c0, fc, m, qb, SHAPE_QUADRISECTED)
        }
      }
      // Otherwise the face is on the grid's boundary: nothing beyond it (all outside).
    }
  }
  const isOuter = (id: number): boolean => {
    const x = ic[3 * id], y = ic[3 * id + 1], z = ic[3 * id + 2]
    return x === 0 || y === 0 || z === 0 || x === maxX || y === maxY || z === maxZ
  }
  const visitTets = (v: TetVisitor): void => {
    const T = tets, L = lat.label, p = lat.pos
    for (let t = 0; t < nt; t++) {
      const a = T[4 * t], b = T[4 * t + 1], c = T[4 * t + 2], d = T[4 * t + 3]
      if (shape[t] !== SHAPE_FINEST_BCC) {
        // Not a finest BCC tetrahedron: must be entirely inside or entirely outside.
        const la = L[a]
        if (L[b] !== la || L[c] !== la || L[d] !== la || la === ON) {
          throw new EddyError('INVALID_PARAM', `isosurface stuffing (graded): the surface reaches a coarse tetrahedron near (${p[3 * a]}, ${p[3 * a + 1]}, ${p[3 * a + 2]}); the sdf must not exceed the distance to its zero set`)
        }
      }
      v.visit(a, b, c, d, shape[t])
    }
  }
  return { lattice: lat, tets, tetCount: nt, shape, leavesPerLevel, visitTets, isOuter }
}

