// The hybrid mesh of the hybrid gas (Feldman, O'Brien and Klingner 2005, seed 000 section
// 3.1): regular hexahedra of the domain's grid in open space, tetrahedra in a band of cubes
// around obstacles conforming to their surfaces (isosurface stuffing of the band lattice,
// geometry/tetmesh/bandLattice.ts), and transition hexahedra between the two whose faces
// towards the tetrahedra are split into the tetrahedra's triangles (Figure 3). Every cell,
// whatever its type, is one pressure unknown at its centre; every face, square or triangle,
// carries one normal velocity at its centre. This file only builds the geometry; the
// operators are in hybridProjection.ts, the interpolation in hybridInterpolation.ts.
//
// Which cubes become tetrahedra. With phi the obstacles' signed distance at a cube's centre
// and w the band width in cubes: |phi| <= (w + sqrt(3)/2) h is band (tetrahedra), phi above
// that a hexahedron, below it a solid cube (left out: deep inside an obstacle). Since phi is
// 1-Lipschitz every corner of a hexahedron is then at least w h >= h from the surface, so no
// cut point lies on an edge from it and no warp moves it: hexahedra stay perfect boxes and
// the half tetrahedra on the band's boundary are never cut. The two limits of the band width
// (section 4, Table 1) are modes: 'tetrahedra' fills every cube not deep inside a solid, and
// 'hexahedra' keeps every cube whose centre is outside the obstacles (the voxelised boundary
// of an ordinary grid solver).
//
// Cells are numbered hexahedra first (grid order), then tetrahedra (the stuffing's order).
// Faces: hexahedron-hexahedron and hexahedron-boundary faces in grid-face order, then the
// tetrahedral mesh's faces (tetTopology.ts order). A face's normal points from its cell a to
// its cell b (out of the mesh on the boundary).
import { EddyError } from '../../api/errors'
import { bccCornerCount, type BccGrid } from '../../geometry/tetmesh/bccLattice'
import { buildBandLattice, CUBE_BAND, CUBE_HEX, CUBE_SOLID } from '../../geometry/tetmesh/bandLattice'
import type { ScalarField3 } from '../../geometry/tetmesh/cutPoints'
import { evaluateLattice } from '../../geometry/tetmesh/evaluateLattice'
import { ALPHA_LONG, ALPHA_SHORT, stuffLattice } from '../../geometry/tetmesh/stuffing'
import { tetMeshQuality, type TetQualityReport } from '../../geometry/tetmesh/tetQuality'
import type { DomainSides } from '../core/boundaries'
import type { GridSpec } from '../core/grid'
import { sortColumns } from '../core/sparse/csr'
import { computeTetGeometry } from '../core/tetfv/tetGeometry'
import { buildTetTopology } from '../core/tetfv/tetTopology'

export type HybridMeshMode = 'hybrid' | 'tetrahedra' | 'hexahedra'

export const CELL_HEX = 0
/** A hexahedron sharing a face or an edge with a tetrahedron (section 3.1): interpolated by MLS. */
export const CELL_TRANSITION = 1
export const CELL_TET = 2

export const FACE_INTERIOR = 0
/** A closed domain wall. */
export const FACE_WALL = 1
/** A closed obstacle face (conforming tetrahedra, or a voxelised cube in 'hexahedra' mode). */
export const FACE_OBSTACLE = 2
/** An open domain side: ambient pressure 0 beyond it. */
export const FACE_OPEN = 3

const SQRT3_2 = Math.sqrt(3) / 2
/** Most cells a hybrid mesh may have (every array is a few words per cell; 8M is ~4 GiB). */
export const MAX_HYBRID_CELLS = 8_000_000

export interface HybridMeshOptions {
  grid: GridSpec
  /** The obstacles' signed distance (negative inside), or null for none. */
  obstacle: ScalarField3 | null
  mode: HybridMeshMode
  /** Band width in cubes (hybrid mode), at least 1. */
  bandCells: number
  sides: DomainSides
  /** Tests: the cube roles (CUBE_*, x fastest) instead of the distance rule. */
  cubeRoles?: Uint8Array
}

export interface HybridMesh {
  readonly grid: GridSpec
  readonly mode: HybridMeshMode
  readonly vertexCount: number
  /** xyz per vertex: the tetrahedral mesh's vertices, then the hexahedra's other corners. */
  readonly positions: Float64Array
  readonly cellCount: number
  readonly hexCount: number
  readonly tetCount: number
  /** CELL_* per cell. */
  readonly cellKind: Uint8Array
  readonly cellVolume: Float64Array
  /** xyz per cell: hexahedron centres, tetrahedron barycentres (where pressure lives). */
  readonly cellCentre: Float64Array
  /** Mean edge length per cell (h for hexahedra): the MLS epsilon's scale (section 3.5). */
  readonly cellMeanEdge: Float64Array
  /** Per hexahedron: its grid cube (i + nx (j + ny k)). */
  readonly hexCube: Int32Array
  /** 8 vertices per hexahedron, corner (di, dj, dk) at di + 2 dj + 4 dk. */
  readonly hexVertices: Int32Array
  /** 4 vertices per tetrahedron (cell hexCount + t), positively oriented. */
  readonly tets: Int32Array
  /** CUBE_* per grid cube. */
  readonly cubeRole: Uint8Array
  /** Per grid cube: its hexahedron's cell id, or -1. */
  readonly cubeHex: Int32Array
  readonly faceCount: number
  /** Per face: cell a (the normal points out of it) and cell b (-1 on the boundary). */
  readonly faceCellA: Int32Array
  readonly faceCellB: Int32Array
  /** FACE_* per face. */
  readonly faceKind: Uint8Array
  readonly faceArea: Float64Array
  /** Unit normal per face (xyz), from a to b. */
  readonly faceNormal: Float64Array
  /** Face centre (xyz): where the normal velocity lives. */
  readonly faceCentre: Float64Array
  /**
   * Eq. 4's k_a + k_b: the distance between the two pressures measured along the normal (h/2
   * for a hexahedron, 3V/(4A) for a tetrahedron); on an open face twice the inside k (the
   * ambient pressure mirrored, section 3.4); on a closed face the inside k.
   */
  readonly faceDistance: Float64Array
  /** Per face: the MAC grid face it lies on (gridFaceIndex), or -1 (a slanted or band-interior face). */
  readonly faceGridFace: Int32Array
  /** Faces of cell c: cellFaces[cellFaceStart[c] .. cellFaceStart[c + 1] - 1], with +1/-1 (normal out of / into c). */
  readonly cellFaceStart: Int32Array
  readonly cellFaces: Int32Array
  readonly cellFaceSign: Int8Array
  /** Vertices of face f: faceVertices[faceVertexStart[f] ..] (4 for a square, 3 for a triangle). */
  readonly faceVertexStart: Int32Array
  readonly faceVertices: Int32Array
  /** Faces around vertex v (CSR), increasing. */
  readonly vertexFaceStart: Int32Array
  readonly vertexFaces: Int32Array
  /** Cells around vertex v (CSR), increasing. */
  readonly vertexCellStart: Int32Array
  readonly vertexCells: Int32Array
  /** Mesh faces on MAC grid face g (0, 1 square, or the 4 triangles of a split face): CSR. */
  readonly gridFaceStart: Int32Array
  readonly gridFaces: Int32Array
  /** Dihedral angles of the tetrahedra, null without any. */
  readonly quality: TetQualityReport | null
  /** Warped lattice vertices and cut points of the band's stuffing. */
  readonly stuffing: { cutPoints: number; warpedVertices: number }
}

/** MAC face counts per axis: x faces (nx + 1) ny nz, then y faces, then z faces. */
export function gridFaceCounts(g: GridSpec): [number, number, number] {
  return [(g.nx + 1) * g.ny * g.nz, g.nx * (g.ny + 1) * g.nz, g.nx * g.ny * (g.nz + 1)]
}

/** Index of MAC face (axis, i, j, k): its lower cube is (i, j, k) less one along the axis. */
export function gridFaceIndex(g: GridSpec, axis: number, i: number, j: number, k: number): number {
  const [cx, cy] = gridFaceCounts(g)
  if (axis === 0) return i + (g.nx + 1) * (j + g.ny * k)
  if (axis === 1) return cx + i + g.nx * (j + (g.ny + 1) * k)
  return cx + cy + i + g.nx * (j + g.ny * k)
}

/** Cube roles by the distance rule of the file comment. */
/** The domain sides with open faces (xMin, xMax, yMin, yMax, zMin, zMax), from the faces' kinds and normals. */
export function openSidesOf(mesh: HybridMesh): boolean[] {
  const open = [false, false, false, false, false, false]
  for (let f = 0; f < mesh.faceCount; f++) {
    if (mesh.faceKind[f] !== FACE_OPEN) continue
    for (let a = 0; a < 3; a++) if (Math.abs(mesh.faceNormal[3 * f + a]) > 0.5) open[2 * a + (mesh.faceNormal[3 * f + a] > 0 ? 1 : 0)] = true
  }
  return open
}

export function cubeRoles(grid: GridSpec, obstacle: ScalarField3 | null, mode: HybridMeshMode, bandCells: number): Uint8Array {
  const { nx, ny, nz, dx: h, origin } = grid
  const role = new Uint8Array(nx * ny * nz)
  const reach = mode === 'tetrahedra' ? Infinity : (bandCells + SQRT3_2) * h
  const solidBelow = mode === 'hexahedra' ? 0 : -(Math.max(1, bandCells) + SQRT3_2) * h
  for (let k = 0, c = 0; k < nz; k++) for (let j = 0; j < ny; j++) for (let i = 0; i < nx; i++, c++) {
    const phi = obstacle ? obstacle(origin[0] + (i + 0.5) * h, origin[1] + (j + 0.5) * h, origin[2] + (k + 0.5) * h) : Infinity
    if (Number.isNaN(phi)) throw new EddyError('INVALID_PARAM', `hybrid mesh: the obstacles' signed distance is NaN at cube (${i}, ${j}, ${k})`)
    if (mode === 'hexahedra') role[c] = phi < 0 ? CUBE_SOLID : CUBE_HEX
    else if (phi < solidBelow) role[c] = CUBE_SOLID
    else role[c] = Math.abs(phi) <= reach ? CUBE_BAND : CUBE_HEX
  }
  return role
}

/** The mesh's face list, made at the size a build counts up front (it grows by doubling if pushed past that). */
class FaceBuilder {
  n = 0
  a: Int32Array
  b: Int32Array
  kind: Uint8Array
  area: Float64Array
  normal: Float64Array
  centre: Float64Array
  dist: Float64Array
  grid: Int32Array
  /** Face f's vertices are verts[vstart[f] .. vstart[f + 1]) (typed and grown by doubling: plain arrays grown by push were a third of a mesh build). */
  vstart: Int32Array
  verts: Int32Array
  vn = 0

  /**
   * Sized for `faces` faces and `vertices` face-vertex entries: a build that knows its counts
   * fills the arrays exactly and hands them out as they are (growing by doubling, then copying
   * out, was three times the arrays' bytes of fresh memory, which costs here).
   */
  constructor(faces = 1024, vertices = 4 * faces) {
    const m = Math.max(1, faces)
    this.a = new Int32Array(m); this.b = new Int32Array(m); this.kind = new Uint8Array(m)
    this.area = new Float64Array(m); this.normal = new Float64Array(3 * m); this.centre = new Float64Array(3 * m)
    this.dist = new Float64Array(m); this.grid = new Int32Array(m)
    this.vstart = new Int32Array(m + 1); this.verts = new Int32Array(Math.max(1, vertices))
  }

  push(a: number, b: number, kind: number, area: number, nx: number, ny: number, nz: number, cx: number, cy: number, cz: number, dist: number, gridFace: number, verts: ArrayLike<number>): number {
    const f = this.n
    if (f === this.a.length) this.grow()
    this.a[f] = a; this.b[f] = b; this.kind[f] = kind; this.area[f] = area; this.dist[f] = dist; this.grid[f] = gridFace
    this.normal[3 * f] = nx; this.normal[3 * f + 1] = ny; this.normal[3 * f + 2] = nz
    this.centre[3 * f] = cx; this.centre[3 * f + 1] = cy; this.centre[3 * f + 2] = cz
    if (this.vn + verts.length > this.verts.length) {
      const v = new Int32Array(Math.max(2 * this.verts.length, this.vn + verts.length))
      v.set(this.verts.subarray(0, this.vn))
      this.verts = v
    }
    for (let i = 0; i < verts.length; i++) this.verts[this.vn++] = verts[i]
    this.vstart[f + 1] = this.vn
    this.n = f + 1
    return f
  }

  private grow(): void {
    const cap = 2 * this.a.length
    const g32 = (x: Int32Array) => { const y = new Int32Array(cap); y.set(x); return y }
    const g64 = (x: Float64Array, m: number) => { const y = new Float64Array(m * cap); y.set(x); return y }
    this.a = g32(this.a); this.b = g32(this.b); this.grid = g32(this.grid)
    const k = new Uint8Array(cap); k.set(this.kind); this.kind = k
    const vs = new Int32Array(cap + 1); vs.set(this.vstart); this.vstart = vs
    this.area = g64(this.area, 1); this.dist = g64(this.dist, 1)
    this.normal = g64(this.normal, 3); this.centre = g64(this.centre, 3)
  }
}

/**
 * CSR of `count` rows from (row, value) pairs, each row's values increasing. The pairs are
 * placed in input order, and every caller lists them by increasing value, so the rows come out
 * sorted and sortColumns' insertion sort passes over each once (a subarray and a built-in sort
 * call for every row took about a fifth of a 126,000-cell mesh build).
 */
function csr(count: number, rows: Int32Array, values: Int32Array): { start: Int32Array; items: Int32Array } {
  const start = new Int32Array(count + 1)
  for (let i = 0; i < rows.length; i++) start[rows[i] + 1]++
  for (let r = 0; r < count; r++) start[r + 1] += start[r]
  const fill = start.slice(0, count)
  const items = new Int32Array(rows.length)
  for (let i = 0; i < rows.length; i++) items[fill[rows[i]]++] = values[i]
  for (let r = 0; r < count; r++) sortColumns(items, start[r], start[r + 1])
  return { start, items }
}

/** Builds the hybrid mesh of a domain grid around obstacles (see the file comment). */
export function buildHybridMesh(opts: HybridMeshOptions): HybridMesh {
  const { grid, mode, sides } = opts
  const { nx, ny, nz, dx: h, origin } = grid
  if (mode !== 'hybrid' && mode !== 'tetrahedra' && mode !== 'hexahedra') throw new EddyError('INVALID_PARAM', `hybrid mesh: unknown mode "${String(mode)}"`)
  if (mode === 'hybrid' && !(Number.isInteger(opts.bandCells) && opts.bandCells >= 1)) {
    throw new EddyError('INVALID_PARAM', `hybrid mesh: the band of tetrahedra must be a whole number of cells, at least 1 (got ${opts.bandCells})`)
  }
  const nCubes = nx * ny * nz
  const role = opts.cubeRoles ?? cubeRoles(grid, opts.obstacle, mode, opts.bandCells)
  if (role.length !== nCubes) throw new EddyError('INVALID_PARAM', `hybrid mesh: ${role.length} cube roles for ${nCubes} cubes`)

  // Tetrahedra: stuff the band (fluid is where the obstacles' distance is positive, so the
  // stuffing's field, negative inside what it fills, is minus the obstacles').
  let bandCubes = 0
  for (let c = 0; c < nCubes; c++) if (role[c] === CUBE_BAND) bandCubes++
  const bcc: BccGrid = { nx, ny, nz, h, ox: origin[0], oy: origin[1], oz: origin[2] }
  const obstacle = opts.obstacle
  const fluid: ScalarField3 = obstacle ? (x, y, z) => -obstacle(x, y, z) : () => -1
  let tetPositions: Float64Array = new Float64Array(0), tets: Int32Array = new Int32Array(0), latticeOf: Int32Array = new Int32Array(0), onSurface: Uint8Array = new Uint8Array(0)
  let stuffing = { cutPoints: 0, warpedVertices: 0 }
  if (bandCubes > 0) {
    if (12 * bandCubes > MAX_HYBRID_CELLS) throw new EddyError('RESOURCE_LIMIT', `hybrid mesh: ${bandCubes} band cubes would make more than ${MAX_HYBRID_CELLS} tetrahedra; lower the resolution or the band width`)
    const band = buildBandLattice(bcc, role)
    evaluateLattice(band.lattice, fluid)
    const st = stuffLattice(fluid, band.lattice, band.visitTets, { alphaLong: ALPHA_LONG, alphaShort: ALPHA_SHORT, tolerance: 1e-9 * h, keepAllOnSurface: false, pinned: band.pinned })
    tetPositions = st.positions; tets = st.tets; latticeOf = st.latticeVertex; onSurface = st.boundary
    stuffing = { cutPoints: st.stats.cutPoints, warpedVertices: st.stats.warpedVertices }
  }
  const tetCount = tets.length / 4
  let hexCount = 0
  const cubeHex = new Int32Array(nCubes).fill(-1)
  for (let c = 0; c < nCubes; c++) if (role[c] === CUBE_HEX) cubeHex[c] = hexCount++
  const cellCount = hexCount + tetCount
  if (cellCount > MAX_HYBRID_CELLS) throw new EddyError('RESOURCE_LIMIT', `hybrid mesh: ${cellCount} cells is more than ${MAX_HYBRID_CELLS}; lower the resolution`)
  if (cellCount === 0) throw new EddyError('INVALID_PARAM', 'hybrid mesh: the obstacles fill the whole domain; there is no fluid to simulate')

  // Vertices: the tetrahedra's, then hexahedron corners that are not among them.
  const nCorners = bccCornerCount(bcc)
  const cornerVertex = new Int32Array(nCorners).fill(-1)
  const tetVertexCount = tetPositions.length / 3
  for (let v = 0; v < tetVertexCount; v++) if (latticeOf[v] >= 0 && latticeOf[v] < nCorners) cornerVertex[latticeOf[v]] = v
  let vertexCount = tetVertexCount
  const sx = nx + 1, sxy = (nx + 1) * (ny + 1)
  for (let k = 0, c = 0; k < nz; k++) for (let j = 0; j < ny; j++) for (let i = 0; i < nx; i++, c++) {
    if (role[c] !== CUBE_HEX) continue
    for (let d = 0; d < 8; d++) {
      const corner = i + (d & 1) + (j + ((d >> 1) & 1)) * sx + (k + (d >> 2)) * sxy
      if (cornerVertex[corner] < 0) cornerVertex[corner] = vertexCount++
    }
  }
  const positions = new Float64Array(3 * vertexCount)
  positions.set(tetPositions)
  for (let corner = 0; corner < nCorners; corner++) {
    const v = cornerVertex[corner]
    if (v < tetVertexCount) continue
    const i = corner % sx, r = (corner - i) / sx, j = r % (ny + 1), k = (r - j) / (ny + 1)
    positions[3 * v] = origin[0] + i * h; positions[3 * v + 1] = origin[1] + j * h; positions[3 * v + 2] = origin[2] + k * h
  }

  // Cells.
  const cellKind = new Uint8Array(cellCount)
  const cellVolume = new Float64Array(cellCount)
  const cellCentre = new Float64Array(3 * cellCount)
  const cellMeanEdge = new Float64Array(cellCount)
  const hexCube = new Int32Array(hexCount)
  const hexVertices = new Int32Array(8 * hexCount)
  const roleAt = (i: number, j: number, k: number) => (i < 0 || j < 0 || k < 0 || i >= nx || j >= ny || k >= nz ? -1 : role[i + nx * (j + ny * k)])
  // A grid face between cubes of these roles is a hexahedron's square (not one towards a band
  // cube: the tetrahedra bring those). Counted before the faces are made, and used to make them.
  const square = (rLo: number, rHi: number) => (rLo === CUBE_HEX || rHi === CUBE_HEX) && rLo !== CUBE_BAND && rHi !== CUBE_BAND
  // Transition: a band cube among the 18 that share a face or an edge (every edge of a band
  // cube's faces is an edge of its tetrahedra). The relation is symmetric, so each band cube
  // marks its 18 instead of each hexahedron asking its own (the band is the smaller set).
  const nearBand = new Uint8Array(nCubes)
  for (let k = 0, c = 0; k < nz; k++) for (let j = 0; j < ny; j++) for (let i = 0; i < nx; i++, c++) {
    if (role[c] !== CUBE_BAND) continue
    for (let dk = -1; dk <= 1; dk++) for (let dj = -1; dj <= 1; dj++) for (let di = -1; di <= 1; di++) {
      const m = (di !== 0 ? 1 : 0) + (dj !== 0 ? 1 : 0) + (dk !== 0 ? 1 : 0)
      const ii = i + di, jj = j + dj, kk = k + dk
      if (m === 0 || m === 3 || ii < 0 || jj < 0 || kk < 0 || ii >= nx || jj >= ny || kk >= nz) continue
      nearBand[ii + nx * (jj + ny * kk)] = 1
    }
  }
  for (let k = 0, c = 0; k < nz; k++) for (let j = 0; j < ny; j++) for (let i = 0; i < nx; i++, c++) {
    const e = cubeHex[c]
    if (e < 0) continue
    hexCube[e] = c
    const c0 = i + j * sx + k * sxy
    hexVertices[8 * e] = cornerVertex[c0]
    hexVertices[8 * e + 1] = cornerVertex[c0 + 1]
    hexVertices[8 * e + 2] = cornerVertex[c0 + sx]
    hexVertices[8 * e + 3] = cornerVertex[c0 + sx + 1]
    hexVertices[8 * e + 4] = cornerVertex[c0 + sxy]
    hexVertices[8 * e + 5] = cornerVertex[c0 + sxy + 1]
    hexVertices[8 * e + 6] = cornerVertex[c0 + sxy + sx]
    hexVertices[8 * e + 7] = cornerVertex[c0 + sxy + sx + 1]
    cellVolume[e] = h * h * h
    cellCentre[3 * e] = origin[0] + (i + 0.5) * h; cellCentre[3 * e + 1] = origin[1] + (j + 0.5) * h; cellCentre[3 * e + 2] = origin[2] + (k + 0.5) * h
    cellMeanEdge[e] = h
    cellKind[e] = nearBand[c] ? CELL_TRANSITION : CELL_HEX
  }

  // The tetrahedra's faces (their topology first, so the face arrays are made at their size).
  const topo = tetCount > 0 ? buildTetTopology(tetPositions, tets) : null
  const geo = topo ? computeTetGeometry(topo, tetPositions) : null
  let squares = 0
  for (let a = 0; a < 3; a++) {
    const di = a === 0 ? 1 : 0, dj = a === 1 ? 1 : 0, dk = a === 2 ? 1 : 0
    for (let k = 0; k < nz + dk; k++) for (let j = 0; j < ny + dj; j++) for (let i = 0; i < nx + di; i++) {
      if (square(roleAt(i - di, j - dj, k - dk), roleAt(i, j, k))) squares++
    }
  }
  const triangles = topo ? topo.faceCount : 0
  const fb = new FaceBuilder(squares + triangles, 4 * squares + 3 * triangles)
  const sideOpen = [
    [sides.xMin === 'open', sides.xMax === 'open'],
    [sides.yMin === 'open', sides.yMax === 'open'],
    [sides.zMin === 'open', sides.zMax === 'open'],
  ]
  // Square faces of hexahedra (not those towards band cubes: the tetrahedra bring those).
  // (No arrays made per face: a mesh has hundreds of thousands of faces, and a keyframed
  // obstacle rebuilds it every substep.)
  const quad = new Int32Array(4)
  const cornerStep = [1, sx, sxy]
  for (let a = 0; a < 3; a++) {
    const fx = nx + (a === 0 ? 1 : 0), fy = ny + (a === 1 ? 1 : 0), fz = nz + (a === 2 ? 1 : 0)
    // The cube below a face along its axis, and its corners' steps along the two other axes.
    const di = a === 0 ? 1 : 0, dj = a === 1 ? 1 : 0, dk = a === 2 ? 1 : 0
    const cu = cornerStep[(a + 1) % 3], cw = cornerStep[(a + 2) % 3]
    const n0 = a === 0 ? 1 : 0, n1 = a === 1 ? 1 : 0, n2 = a === 2 ? 1 : 0
    for (let k = 0; k < fz; k++) for (let j = 0; j < fy; j++) for (let i = 0; i < fx; i++) {
      const li = i - di, lj = j - dj, lk = k - dk
      const rLo = roleAt(li, lj, lk), rHi = roleAt(i, j, k)
      if (!square(rLo, rHi)) continue
      const cLo = rLo === CUBE_HEX ? cubeHex[li + nx * (lj + ny * lk)] : -1
      const cHi = rHi === CUBE_HEX ? cubeHex[i + nx * (j + ny * k)] : -1
      const cx = a === 0 ? origin[0] + i * h : origin[0] + (i + 0.5) * h
      const cy = a === 1 ? origin[1] + j * h : origin[1] + (j + 0.5) * h
      const cz = a === 2 ? origin[2] + k * h : origin[2] + (k + 0.5) * h
      // Corners counter-clockwise about +axis.
      const c0 = i + j * sx + k * sxy
      quad[0] = cornerVertex[c0]
      quad[1] = cornerVertex[c0 + cu]
      quad[2] = cornerVertex[c0 + cu + cw]
      quad[3] = cornerVertex[c0 + cw]
      const g = gridFaceIndex(grid, a, i, j, k)
      if (cLo >= 0 && cHi >= 0) {
        fb.push(cLo, cHi, FACE_INTERIOR, h * h, n0, n1, n2, cx, cy, cz, h, g, quad)
      } else {
        const inside = cLo >= 0 ? cLo : cHi
        const s = cLo >= 0 ? 1 : -1
        const onWall = cLo >= 0 ? rHi === -1 : rLo === -1
        const open = onWall && sideOpen[a][cLo >= 0 ? 1 : 0]
        const kind = onWall ? (open ? FACE_OPEN : FACE_WALL) : FACE_OBSTACLE
        fb.push(inside, -1, kind, h * h, a === 0 ? s : 0, a === 1 ? s : 0, a === 2 ? s : 0, cx, cy, cz, open ? h : 0.5 * h, g, quad)
      }
    }
  }

  // Tetrahedral faces.
  if (topo && geo) {
    for (let t = 0; t < tetCount; t++) {
      const c = hexCount + t
      cellKind[c] = CELL_TET
      cellVolume[c] = geo.volumes[t]
      cellCentre[3 * c] = geo.tetCentres[3 * t]; cellCentre[3 * c + 1] = geo.tetCentres[3 * t + 1]; cellCentre[3 * c + 2] = geo.tetCentres[3 * t + 2]
      cellMeanEdge[c] = geo.tetMeanEdge[t]
    }
    const tri = new Int32Array(3)
    const eps = 1e-7 * h
    for (let f = 0; f < topo.faceCount; f++) {
      const ta = topo.faceTets[2 * f], tb = topo.faceTets[2 * f + 1]
      const nxf = geo.faceNormals[3 * f], nyf = geo.faceNormals[3 * f + 1], nzf = geo.faceNormals[3 * f + 2]
      const cx = geo.faceCentres[3 * f], cy = geo.faceCentres[3 * f + 1], cz = geo.faceCentres[3 * f + 2]
      tri[0] = topo.faceVertices[3 * f]; tri[1] = topo.faceVertices[3 * f + 1]; tri[2] = topo.faceVertices[3 * f + 2]
      const A = geo.faceAreas[f]
      if (tb >= 0) {
        fb.push(hexCount + ta, hexCount + tb, FACE_INTERIOR, A, nxf, nyf, nzf, cx, cy, cz, geo.heightDistance[f], -1, tri)
        continue
      }
      const ka = geo.heightDistance[f]
      // A boundary triangle in a grid plane: on the domain's wall, or on a hexahedron's face.
      const nn = [nxf, nyf, nzf], cc = [cx, cy, cz]
      let axis = -1
      for (let a = 0; a < 3; a++) if (Math.abs(nn[a]) > 1 - 1e-9) axis = a
      let kind = FACE_OBSTACLE, other = -1, gface = -1, dist = ka
      if (axis >= 0) {
        const plane = (cc[axis] - origin[axis]) / h
        const p = Math.round(plane)
        if (Math.abs(plane - p) * h <= eps) {
          const ijk = [0, 1, 2].map((b) => Math.min(Math.max(Math.floor((cc[b] - origin[b]) / h), 0), [nx, ny, nz][b] - 1))
          ijk[axis] = p
          const beyond = [ijk[0], ijk[1], ijk[2]]
          if (nn[axis] < 0) beyond[axis] = p - 1
          const r = roleAt(beyond[0], beyond[1], beyond[2])
          if (r === -1) {
            const open = sideOpen[axis][nn[axis] > 0 ? 1 : 0]
            kind = open ? FACE_OPEN : FACE_WALL
            dist = open ? 2 * ka : ka
            gface = gridFaceIndex(grid, axis, ijk[0], ijk[1], ijk[2])
          } else if (r === CUBE_HEX) {
            kind = FACE_INTERIOR
            other = cubeHex[beyond[0] + nx * (beyond[1] + ny * beyond[2])]
            dist = ka + 0.5 * h
            gface = gridFaceIndex(grid, axis, ijk[0], ijk[1], ijk[2])
          }
        }
      }
      if (kind === FACE_OBSTACLE && !(onSurface[tri[0]] && onSurface[tri[1]] && onSurface[tri[2]])) {
        throw new EddyError('INTERNAL', `hybrid mesh: a boundary triangle at (${cx.toFixed(4)}, ${cy.toFixed(4)}, ${cz.toFixed(4)}) is neither on a wall, a hexahedron nor an obstacle`)
      }
      fb.push(hexCount + ta, other, kind, A, nxf, nyf, nzf, cx, cy, cz, dist, gface, tri)
    }
  }

  const faceCount = fb.n
  // The builder's arrays themselves when they came out at their size (they do: counted above).
  const fit = <T extends Int32Array | Float64Array | Uint8Array>(x: T, n: number): T => (x.length === n ? x : (x.slice(0, n) as T))
  const faceCellA = fit(fb.a, faceCount), faceCellB = fit(fb.b, faceCount)
  // Cell -> faces with signs.
  const rows = new Int32Array(2 * faceCount), vals = new Int32Array(2 * faceCount)
  let m = 0
  for (let f = 0; f < faceCount; f++) {
    rows[m] = faceCellA[f]; vals[m++] = 2 * f
    if (faceCellB[f] >= 0) { rows[m] = faceCellB[f]; vals[m++] = 2 * f + 1 }
  }
  const cf = csr(cellCount, rows.subarray(0, m), vals.subarray(0, m))
  const cellFaces = new Int32Array(cf.items.length), cellFaceSign = new Int8Array(cf.items.length)
  for (let i = 0; i < cf.items.length; i++) { cellFaces[i] = cf.items[i] >> 1; cellFaceSign[i] = cf.items[i] & 1 ? -1 : 1 }
  // Face vertices, vertex -> faces and vertex -> cells.
  const faceVertexStart = fit(fb.vstart, faceCount + 1), faceVertices = fit(fb.verts, fb.vn)
  const vfRows = new Int32Array(faceVertices.length), vfVals = new Int32Array(faceVertices.length)
  for (let f = 0; f < faceCount; f++) for (let i = faceVertexStart[f]; i < faceVertexStart[f + 1]; i++) { vfRows[i] = faceVertices[i]; vfVals[i] = f }
  const vf = csr(vertexCount, vfRows, vfVals)
  const vcRows = new Int32Array(8 * hexCount + 4 * tetCount), vcVals = new Int32Array(vcRows.length)
  for (let e = 0; e < hexCount; e++) for (let d = 0; d < 8; d++) { vcRows[8 * e + d] = hexVertices[8 * e + d]; vcVals[8 * e + d] = e }
  for (let t = 0; t < tetCount; t++) for (let d = 0; d < 4; d++) { vcRows[8 * hexCount + 4 * t + d] = tets[4 * t + d]; vcVals[8 * hexCount + 4 * t + d] = hexCount + t }
  const vc = csr(vertexCount, vcRows, vcVals)
  // MAC face -> mesh faces.
  const [gx, gy, gz] = gridFaceCounts(grid)
  const faceGridFace = fit(fb.grid, faceCount)
  let ng = 0
  for (let f = 0; f < faceCount; f++) if (faceGridFace[f] >= 0) ng++
  const gRows = new Int32Array(ng), gVals = new Int32Array(ng)
  ng = 0
  for (let f = 0; f < faceCount; f++) if (faceGridFace[f] >= 0) { gRows[ng] = faceGridFace[f]; gVals[ng++] = f }
  const gf = csr(gx + gy + gz, gRows, gVals)

  return {
    grid, mode, vertexCount, positions, cellCount, hexCount, tetCount, cellKind, cellVolume, cellCentre, cellMeanEdge,
    hexCube, hexVertices, tets: tets.slice(), cubeRole: role, cubeHex,
    faceCount, faceCellA, faceCellB, faceKind: fit(fb.kind, faceCount), faceArea: fit(fb.area, faceCount),
    faceNormal: fit(fb.normal, 3 * faceCount), faceCentre: fit(fb.centre, 3 * faceCount), faceDistance: fit(fb.dist, faceCount),
    faceGridFace, cellFaceStart: cf.start, cellFaces, cellFaceSign, faceVertexStart, faceVertices,
    vertexFaceStart: vf.start, vertexFaces: vf.items, vertexCellStart: vc.start, vertexCells: vc.items,
    gridFaceStart: gf.start, gridFaces: gf.items,
    quality: tetCount > 0 ? tetMeshQuality(tetPositions, tets) : null,
    stuffing,
  }
}

export { CUBE_BAND, CUBE_HEX, CUBE_SOLID }
