// Velocity and scalar interpolation on the hybrid mesh (seed 000 section 3.5). The state is one
// normal velocity z_f per face (along faceNormal); the paper uses three interpolants:
//
//   Fast (back-tracing, tracker particles): constant-basis moving least squares at every mesh
//     vertex over the faces adjacent to it (eqs. 7-10), then trilinear interpolation of the 8
//     corners in a hexahedron, barycentric of the 4 in a tetrahedron. Rows n_f^T u = z_f
//     (eq. 7, N u = z, eq. 8) scaled by w_f = 1 / (r_f^2 + eps^2) (eq. 9; r_f from the vertex
//     to the face centre, eps = 0.03 x the mean edge of the cells around the vertex), solved
//     by the normal equations of W N u = W z (eq. 10), exactly as the paper writes it, so
//     u_v = (sum_f w_f^2 n_f n_f^T)^-1 sum_f w_f^2 n_f z_f. The weights depend on the geometry
//     only, so the whole map z -> u_v is a fixed sparse operator: one 3-vector coefficient
//     c_vf = w_f^2 M_v^-1 n_f per vertex-face pair, precomputed, and vertexVelocities() is a
//     sparse product (every substep runs it). Closed boundary faces take part with their
//     stored value (0 at a still wall), so the fit sees the no-through condition.
//
//   Accurate (the value a back-trace carries forward): in a plain hexahedron the standard
//     staggered (MAC, Harlow and Welch 1965) trilinear interpolation of each component from
//     its grid faces, a split grid face (four triangles of the tetrahedra) counting as the
//     area-weighted mean of its pieces (the paper's transition-face average, section 3.1). In
//     transition hexahedra and tetrahedra, and in a plain hexahedron whose MAC stencil reaches
//     a grid face with no mesh face (beyond a wall, inside a band or a solid), the linear-basis
//     MLS of eq. 11, u(y) = u_0 + X u_x + Y u_y + Z u_z with (X, Y, Z) the face centre relative
//     to the evaluation point, so u(x) = u_0 (12 unknowns), over the "two-ring neighbourhood"
//     of the containing cell, read as in tetMls.ts: every face adjacent to one of the cell's
//     vertices (gatherFaces says why not a smaller one). eps = 0.03 x the containing cell's
//     mean edge. These lists are precomputed (CSR) for the transition hexahedra, tetrahedra and
//     the plain hexahedra next to the band, solids or walls (where the staggered stencil can
//     miss a face).
//
//   Scalars (density, temperature, at cell centres): trilinear over the 8 surrounding centres
//     where those are all hexahedra (the grid solver's interpolation), else a linear moving
//     least-squares fit s(y) = s_0 + g . (y - x) over the containing cell's two-ring of cells,
//     weighted like eq. 9 (rows by w, so w^2 in the normal equations, as eq. 10),
//     clamped to the range of the values it used: semi-Lagrangian advection then creates no
//     new extrema.
//
// Conditioning as tetMls.ts: offsets are divided by the cell's mean edge l (weights in the
// same unit; neither changes the fitted value), and a linear fit whose normal matrix has a
// Cholesky pivot ratio below LINEAR_CONDITION_FLOOR falls back to the constant fit on the same
// samples. All three fits reproduce exactly the fields their basis spans (constants; affine
// fields) whenever their system has full rank. Evaluation is allocation free; the scratch
// makes an instance single-threaded.
import { EddyError } from '../../api/errors'
import { barycentricCoordinates } from '../../geometry/tetmesh/tetBarycentric'
import { MLS_EPSILON_FACTOR } from '../core/tetfv/tetMls'
import { CELL_HEX, type HybridMesh } from './hybridMesh'
import { faceNormalClasses, sortListsByClass } from './faceNormalClasses'
import { FIT_LINEAR, fitScratch, linearFitAt } from './linearFitKernel'
import { macComponentAt, macNormalAt, type MacTables } from './macStencil'
import { SCALAR_FIT_SCRATCH, scalarFitAt } from './scalarFitKernel'

/** accurateVelocityAt's answer: staggered trilinear in a plain hexahedron. */
export const ACCURATE_MAC = 0
/** accurateVelocityAt's answer: linear-basis MLS (eq. 11). */
export const ACCURATE_LINEAR = 1
/** accurateVelocityAt's answer: constant-basis MLS (eqs. 7-10), the linear fit being near singular. */
export const ACCURATE_CONSTANT = 2
/** Smallest accepted det(M) / (M_00 M_11 M_22) of a vertex's 3 x 3 normal matrix (1 for orthogonal normals). */
export const VERTEX_CONDITION_FLOOR = 1e-12

export class HybridInterpolation {
  /** c_vf per vertex-face pair (xyz), aligned with mesh.vertexFaces: u_v = sum_f c_vf z_f. */
  readonly vertexCoefficients: Float64Array
  /** Vertices whose constant fit was singular (their velocity is 0); none on a valid mesh. */
  readonly vertexFitFailures: number
  /**
   * Faces of each cell's velocity-fit neighbourhood (gatherFaces): every transition hexahedron
   * and tetrahedron, and the plain hexahedra whose staggered stencil may reach a grid face with
   * no mesh face (macMayFail); empty for the others. CSR over cells, each list sorted by its
   * faces' normal classes (faceNormalClasses.ts: the fit sums a class's faces together).
   */
  readonly neighbourStart: Int32Array
  readonly neighbourFaces: Int32Array
  /** Each face's normal class code (faceNormalClasses.ts). */
  readonly faceClass: Uint8Array
  /**
   * The two-ring of cells (the scalar fits' samples) of each cell listed in neighbourStart (the
   * transition hexahedra, the tetrahedra and the plain hexahedra whose 8-centre stencil may
   * miss); empty for the others: CSR over cells.
   */
  readonly ringStart: Int32Array
  readonly ringCells: Int32Array

  private readonly faceStamp: Int32Array
  private readonly cellStamp: Int32Array
  private stampValue = 0
  private readonly faceList: Int32Array
  private readonly cellList: Int32Array
  private readonly fit = fitScratch()
  /** The scalar fit's scratch and answer. */
  private readonly scalarWork = new Float64Array(SCALAR_FIT_SCRATCH)
  private readonly scalarPair = new Float64Array(2)
  private readonly corner = new Int32Array(8)
  private readonly cornerWeight = new Float64Array(8)
  private readonly lambda = new Float64Array(4)
  /** Per grid face: its one mesh face (-1 for none or a split face), and that face's normal along the grid face's axis (read by hexTraceKernel.ts too). */
  readonly macSingle: Int32Array
  readonly macSign: Float64Array
  /** The staggered stencil's arrays (macStencil.ts): macSingle and macSign, and the mesh's grid-face lists. */
  readonly macTables: MacTables
  private readonly ox: number
  private readonly oy: number
  private readonly oz: number
  private readonly h: number
  private readonly invH: number

  constructor(readonly mesh: HybridMesh, readonly epsilonFactor = MLS_EPSILON_FACTOR) {
    if (!(epsilonFactor > 0)) throw new EddyError('INVALID_PARAM', `hybrid interpolation: the MLS epsilon factor must be positive (got ${epsilonFactor})`)
    const { grid, cellCount, faceCount, vertexCount, vertexFaceStart, vertexCellStart, cellKind } = mesh
    this.ox = grid.origin[0]; this.oy = grid.origin[1]; this.oz = grid.origin[2]
    this.h = grid.dx; this.invH = 1 / grid.dx
    const { nx, ny, nz } = grid
    const axisOffset = [0, (nx + 1) * ny * nz, (nx + 1) * ny * nz + nx * (ny + 1) * nz]
    const { gridFaceStart, gridFaces, faceNormal } = mesh
    const gridFaceCount = gridFaceStart.length - 1
    this.macSingle = new Int32Array(gridFaceCount).fill(-1)
    this.macSign = new Float64Array(gridFaceCount)
    for (let g = 0; g < gridFaceCount; g++) {
      if (gridFaceStart[g + 1] !== gridFaceStart[g] + 1) continue
      const f = gridFaces[gridFaceStart[g]], a = g < axisOffset[1] ? 0 : g < axisOffset[2] ? 1 : 2
      this.macSingle[g] = f
      this.macSign[g] = faceNormal[3 * f + a]
    }
    this.macTables = { macSingle: this.macSingle, macSign: this.macSign, gridFaceStart, gridFaces, faceNormal, faceArea: mesh.faceArea }
    this.faceStamp = new Int32Array(faceCount)
    this.cellStamp = new Int32Array(cellCount)
    // Scratch bounds: a two-ring of cells holds at most 1 + F + F^2 cells (F the most faces a
    // cell has: 24 for a transition hexahedron split on every side); the faces around a cell's
    // vertices at most the sum of its vertices' lists.
    let F = 0, mostFaces = 0
    for (let c = 0; c < cellCount; c++) {
      F = Math.max(F, mesh.cellFaceStart[c + 1] - mesh.cellFaceStart[c])
      let nf = 0
      for (let k = 0, n = this.cellVertexCount(c); k < n; k++) {
        const v = this.cellVertex(c, k)
        nf += vertexFaceStart[v + 1] - vertexFaceStart[v]
      }
      if (nf > mostFaces) mostFaces = nf
    }
    this.cellList = new Int32Array(1 + F + F * F)
    this.faceList = new Int32Array(mostFaces)
    void vertexCellStart
    const coefficients = new Float64Array(3 * mesh.vertexFaces.length)
    let failures = 0
    for (let v = 0; v < vertexCount; v++) if (!this.vertexOperator(v, coefficients)) failures++
    this.vertexCoefficients = coefficients
    this.vertexFitFailures = failures

    const start = new Int32Array(cellCount + 1)
    const listed = (c: number) => cellKind[c] !== CELL_HEX || this.macMayFail(c)
    for (let c = 0; c < cellCount; c++) start[c + 1] = start[c] + (listed(c) ? this.gatherFaces(c) : 0)
    const faces = new Int32Array(start[cellCount])
    for (let c = 0; c < cellCount; c++) if (listed(c)) faces.set(this.faceList.subarray(0, this.gatherFaces(c)), start[c])
    this.faceClass = faceNormalClasses(faceNormal)
    sortListsByClass(start, faces, this.faceClass)
    this.neighbourStart = start
    this.neighbourFaces = faces
    // The same cells take a scalar fit's list: a plain hexahedron's 8 centres around a point in
    // it lie within the 27 cubes macMayFail looks at.
    const ringStart = new Int32Array(cellCount + 1)
    for (let c = 0; c < cellCount; c++) ringStart[c + 1] = ringStart[c] + (listed(c) ? this.gatherCells(c) : 0)
    const ring = new Int32Array(ringStart[cellCount])
    for (let c = 0; c < cellCount; c++) if (listed(c)) ring.set(this.cellList.subarray(0, this.gatherCells(c)), ringStart[c])
    this.ringStart = ringStart
    this.ringCells = ring
  }

  /**
   * Whether plain hexahedron c's staggered stencil can miss a face: its points' stencils reach
   * the grid faces of the cubes around its cube, so any of those 27 that is not a hexahedron
   * (band, solid) or lies beyond the grid may leave one without a mesh face.
   */
  private macMayFail(c: number): boolean {
    const { grid, hexCube, cubeHex } = this.mesh
    const { nx, ny, nz } = grid
    const cube = hexCube[c]
    const ci = cube % nx, r = (cube - ci) / nx, cj = r % ny, ck = (r - cj) / ny
    if (ci === 0 || cj === 0 || ck === 0 || ci === nx - 1 || cj === ny - 1 || ck === nz - 1) return true
    for (let dk = -1; dk <= 1; dk++) for (let dj = -1; dj <= 1; dj++) for (let di = -1; di <= 1; di++) {
      if (cubeHex[ci + di + nx * (cj + dj + ny * (ck + dk))] < 0) return true
    }
    return false
  }

  private cellVertexCount(c: number): number {
    return c < this.mesh.hexCount ? 8 : 4
  }

  private cellVertex(c: number, k: number): number {
    const { hexCount } = this.mesh
    return c < hexCount ? this.mesh.hexVertices[8 * c + k] : this.mesh.tets[4 * (c - hexCount) + k]
  }

  private nextStamp(): number {
    if (++this.stampValue === 0x7fffffff) {
      this.faceStamp.fill(0)
      this.cellStamp.fill(0)
      this.stampValue = 1
    }
    return this.stampValue
  }

  /**
   * The velocity fit's neighbourhood of cell c into faceList: every face adjacent to one of its
   * vertices (about 110 for a tetrahedron; its own faces, its neighbours' and theirs touching
   * its corners, as tetMls.ts reads the paper's "two-ring"); returns their count. The smaller
   * cell two-ring of gatherCells (about 42 faces) fits a smooth field as well and a third
   * faster, but its fits overshoot more: the ramp jet on 20 cubes of tetrahedra blew up at frame
   * 22 with it (speed 58 m/s in a 3 m/s jet) and runs steadily with this one.
   */
  private gatherFaces(c: number): number {
    const { vertexFaceStart, vertexFaces } = this.mesh
    const { faceStamp, faceList } = this
    const mark = this.nextStamp()
    let n = 0
    for (let k = 0, nv = this.cellVertexCount(c); k < nv; k++) {
      const v = this.cellVertex(c, k)
      for (let i = vertexFaceStart[v], e = vertexFaceStart[v + 1]; i < e; i++) {
        const f = vertexFaces[i]
        if (faceStamp[f] !== mark) {
          faceStamp[f] = mark
          faceList[n++] = f
        }
      }
    }
    return n
  }

  /**
   * The scalar fits' neighbourhood of cell c into cellList: c, the cells sharing a face with
   * it, and the cells sharing a face with those (about 17 for a tetrahedron; the cells around
   * its vertices would be about 70); returns their count. Scalar fits are clamped to the values
   * they use, so the smaller support cannot overshoot.
   */
  private gatherCells(c: number): number {
    const { cellFaceStart, cellFaces, faceCellA, faceCellB } = this.mesh
    const { cellStamp, cellList } = this
    const mark = this.nextStamp()
    cellStamp[c] = mark
    cellList[0] = c
    let n = 1
    for (let ring = 0, from = 0; ring < 2; ring++) {
      const to = n
      for (let k = from; k < to; k++) {
        const d = cellList[k]
        for (let i = cellFaceStart[d], e = cellFaceStart[d + 1]; i < e; i++) {
          const f = cellFaces[i]
          const o = faceCellA[f] === d ? faceCellB[f] : faceCellA[f]
          if (o >= 0 && cellStamp[o] !== mark) {
            cellStamp[o] = mark
            cellList[n++] = o
          }
        }
      }
      from = to
    }
    return n
  }

  /**
   * Vertex v's coefficients of the constant fit (eqs. 7-10): c_vf = w_f^2 M^-1 n_f with
   * M = sum_f w_f^2 n_f n_f^T over the faces adjacent to v. False (coefficients 0) when M is
   * singular, which a vertex of a valid cell never is: the cell's faces meeting at the vertex
   * have three independent normals.
   */
  private vertexOperator(v: number, out: Float64Array): boolean {
    const { positions: P, faceCentre: C, faceNormal: N, vertexFaceStart, vertexFaces, vertexCellStart, vertexCells, cellMeanEdge } = this.mesh
    const s = vertexFaceStart[v], e = vertexFaceStart[v + 1]
    const cs = vertexCellStart[v], ce = vertexCellStart[v + 1]
    if (ce === cs || e === s) return false
    let len = 0
    for (let i = cs; i < ce; i++) len += cellMeanEdge[vertexCells[i]]
    len /= ce - cs
    const invLen = 1 / len, eps = this.epsilonFactor
    const px = P[3 * v], py = P[3 * v + 1], pz = P[3 * v + 2]
    let m00 = 0, m10 = 0, m11 = 0, m20 = 0, m21 = 0, m22 = 0
    for (let i = s; i < e; i++) {
      const f = vertexFaces[i]
      // Eq. 9 in units of len; the rows carry w (eq. 10), so w^2 in the normal matrix.
      const X = (C[3 * f] - px) * invLen, Y = (C[3 * f + 1] - py) * invLen, Z = (C[3 * f + 2] - pz) * invLen
      const w = 1 / (X * X + Y * Y + Z * Z + eps * eps), w2 = w * w
      const nx = N[3 * f], ny = N[3 * f + 1], nz = N[3 * f + 2]
      m00 += w2 * nx * nx; m10 += w2 * ny * nx; m11 += w2 * ny * ny
      m20 += w2 * nz * nx; m21 += w2 * nz * ny; m22 += w2 * nz * nz
    }
    // The symmetric inverse by cofactors.
    const c00 = m11 * m22 - m21 * m21, c10 = m21 * m20 - m10 * m22, c20 = m10 * m21 - m11 * m20
    const det = m00 * c00 + m10 * c10 + m20 * c20
    if (!(det > VERTEX_CONDITION_FLOOR * m00 * m11 * m22)) {
      out.fill(0, 3 * s, 3 * e)
      return false
    }
    const id = 1 / det
    const i00 = c00 * id, i10 = c10 * id, i20 = c20 * id
    const i11 = (m00 * m22 - m20 * m20) * id, i21 = (m20 * m10 - m00 * m21) * id, i22 = (m00 * m11 - m10 * m10) * id
    for (let i = s; i < e; i++) {
      const f = vertexFaces[i]
      const X = (C[3 * f] - px) * invLen, Y = (C[3 * f + 1] - py) * invLen, Z = (C[3 * f + 2] - pz) * invLen
      const w = 1 / (X * X + Y * Y + Z * Z + eps * eps), w2 = w * w
      const nx = N[3 * f], ny = N[3 * f + 1], nz = N[3 * f + 2]
      out[3 * i] = w2 * (i00 * nx + i10 * ny + i20 * nz)
      out[3 * i + 1] = w2 * (i10 * nx + i11 * ny + i21 * nz)
      out[3 * i + 2] = w2 * (i20 * nx + i21 * ny + i22 * nz)
    }
    return true
  }

  /** out[3v .. 3v+2] = the constant-basis MLS velocity of every vertex (eqs. 7-10) from the face velocities z: a sparse product. */
  vertexVelocities(z: Float64Array, out: Float64Array): void {
    const { vertexCount, faceCount, vertexFaceStart, vertexFaces } = this.mesh
    if (z.length !== faceCount) throw new EddyError('INVALID_PARAM', `hybrid vertex velocities: ${z.length} face velocities for ${faceCount} faces`)
    if (out.length !== 3 * vertexCount) throw new EddyError('INVALID_PARAM', `hybrid vertex velocities: output of ${out.length} numbers for ${vertexCount} vertices (3 each)`)
    const c = this.vertexCoefficients
    for (let v = 0; v < vertexCount; v++) {
      let ux = 0, uy = 0, uz = 0
      for (let i = vertexFaceStart[v], e = vertexFaceStart[v + 1]; i < e; i++) {
        const zf = z[vertexFaces[i]]
        ux += c[3 * i] * zf; uy += c[3 * i + 1] * zf; uz += c[3 * i + 2] * zf
      }
      out[3 * v] = ux; out[3 * v + 1] = uy; out[3 * v + 2] = uz
    }
  }

  /**
   * The fast field at (x, y, z) in `cell`: trilinear in the 8 corner velocities of a
   * hexahedron, barycentric in the 4 of a tetrahedron (section 3.5), out[o .. o+2]. A point a
   * hair outside the cell is extrapolated linearly.
   */
  fastVelocityAt(x: number, y: number, z: number, cell: number, vertexVel: Float64Array, out: Float64Array, o: number): void {
    const { hexCount, cellCentre, hexVertices } = this.mesh
    if (cell < hexCount) {
      const tx = (x - cellCentre[3 * cell]) * this.invH + 0.5
      const ty = (y - cellCentre[3 * cell + 1]) * this.invH + 0.5
      const tz = (z - cellCentre[3 * cell + 2]) * this.invH + 0.5
      let ux = 0, uy = 0, uz = 0
      for (let d = 0; d < 8; d++) {
        const wt = (d & 1 ? tx : 1 - tx) * (d & 2 ? ty : 1 - ty) * (d & 4 ? tz : 1 - tz)
        const v = 3 * hexVertices[8 * cell + d]
        ux += wt * vertexVel[v]; uy += wt * vertexVel[v + 1]; uz += wt * vertexVel[v + 2]
      }
      out[o] = ux; out[o + 1] = uy; out[o + 2] = uz
      return
    }
    barycentricCoordinates(this.mesh.positions, this.mesh.tets, cell - hexCount, x, y, z, this.lambda)
    this.fastVelocityInTet(cell, this.lambda, vertexVel, out, o)
  }

  /** fastVelocityAt in tetrahedron `cell` from the point's barycentric coordinates l there. */
  fastVelocityInTet(cell: number, l: Float64Array, vertexVel: Float64Array, out: Float64Array, o: number): void {
    const t = cell - this.mesh.hexCount, T = this.mesh.tets
    let ux = 0, uy = 0, uz = 0
    for (let k = 0; k < 4; k++) {
      const v = 3 * T[4 * t + k]
      ux += l[k] * vertexVel[v]; uy += l[k] * vertexVel[v + 1]; uz += l[k] * vertexVel[v + 2]
    }
    out[o] = ux; out[o + 1] = uy; out[o + 2] = uz
  }

  /**
   * The accurate velocity at (x, y, z) in `cell` from the face velocities zFaces (section 3.5):
   * staggered trilinear in a plain hexahedron, linear MLS (eq. 11) elsewhere and where the
   * staggered stencil is incomplete. out[o .. o+2]; returns ACCURATE_* (which fit answered).
   */
  accurateVelocityAt(x: number, y: number, z: number, cell: number, zFaces: Float64Array, out: Float64Array, o: number): number {
    const mesh = this.mesh
    const len = mesh.cellMeanEdge[cell]
    if (mesh.cellKind[cell] !== CELL_HEX) return this.linearFit(zFaces, this.neighbourFaces, this.faceClass, this.neighbourStart[cell], this.neighbourStart[cell + 1], x, y, z, len, out, o)
    if (this.macVelocityAt(x, y, z, cell, zFaces, out, o)) return ACCURATE_MAC
    const s = this.neighbourStart[cell], e = this.neighbourStart[cell + 1]
    if (e > s) return this.linearFit(zFaces, this.neighbourFaces, this.faceClass, s, e, x, y, z, len, out, o)
    // A list gathered now is not sorted by class: every face takes the general sums.
    return this.linearFit(zFaces, this.faceList, null, 0, this.gatherFaces(cell), x, y, z, len, out, o)
  }

  /**
   * The staggered (MAC) trilinear velocity at (x, y, z) in plain hexahedron `cell` into
   * out[o .. o+2]; false (out untouched) when a stencil face has no mesh face, where the
   * linear fit answers instead.
   */
  macVelocityAt(x: number, y: number, z: number, cell: number, zFaces: Float64Array, out: Float64Array, o: number): boolean {
    const mesh = this.mesh
    const cube = mesh.hexCube[cell], nx = mesh.grid.nx, ny = mesh.grid.ny
    const ci = cube % nx, r = (cube - ci) / nx, cj = r % ny, ck = (r - cj) / ny
    const gx = (x - this.ox) * this.invH, gy = (y - this.oy) * this.invH, gz = (z - this.oz) * this.invH
    const u = this.macComponent(0, gx, gy, gz, ci, cj, ck, zFaces)
    const v = this.macComponent(1, gx, gy, gz, ci, cj, ck, zFaces)
    const w = this.macComponent(2, gx, gy, gz, ci, cj, ck, zFaces)
    // NaN marks a stencil face with no mesh face.
    if (!(u === u && v === v && w === w)) return false
    out[o] = u; out[o + 1] = v; out[o + 2] = w
    return true
  }

  /**
   * The staggered (MAC) trilinear velocity's component along the unit normal (n0, n1, n2) at
   * (x, y, z) in plain hexahedron `cell`: for a normal along an axis (its other two components
   * exactly 0: every hexahedral and transition face) that axis's component alone, so only its
   * stencil has to be whole; else u n0 + v n1 + w n2. NaN when a stencil face it needs has no
   * mesh face, where the linear fit answers instead.
   */
  macNormalAt(x: number, y: number, z: number, cell: number, zFaces: Float64Array, n0: number, n1: number, n2: number): number {
    const { nx, ny, nz } = this.mesh.grid
    const gx = (x - this.ox) * this.invH, gy = (y - this.oy) * this.invH, gz = (z - this.oz) * this.invH
    return macNormalAt(this.macTables, zFaces, gx, gy, gz, this.mesh.hexCube[cell], nx, ny, nz, n0, n1, n2)
  }

  /** Component `a` at grid point (gx, gy, gz) in cube (ci, cj, ck) (macStencil.ts macComponentAt). */
  private macComponent(a: number, gx: number, gy: number, gz: number, ci: number, cj: number, ck: number, zf: Float64Array): number {
    const { nx, ny, nz } = this.mesh.grid
    return macComponentAt(this.macSingle, this.macSign, this.macTables, zf, a, gx, gy, gz, ci, cj, ck, nx, ny, nz)
  }

  /** Eq. 11 over faces[s .. e-1] around (x, y, z) (linearFitKernel.ts); ACCURATE_LINEAR or ACCURATE_CONSTANT. */
  private linearFit(zf: Float64Array, faces: Int32Array, codes: Uint8Array | null, s: number, e: number, x: number, y: number, z: number, len: number, out: Float64Array, o: number): number {
    const { faceCentre: C, faceNormal: N } = this.mesh
    const eps = this.epsilonFactor
    return linearFitAt(C, N, zf, faces, codes, s, e, x, y, z, len, eps * eps, this.fit, out, o) === FIT_LINEAR ? ACCURATE_LINEAR : ACCURATE_CONSTANT
  }

  /**
   * The 8 cell centres around (x, y, z) and their trilinear weights into corner and
   * cornerWeight, when all 8 are hexahedra (false otherwise: the fit takes over).
   */
  private hexCorners(x: number, y: number, z: number): boolean {
    const mesh = this.mesh
    const { nx, ny, nz } = mesh.grid
    const u = (x - this.ox) * this.invH - 0.5, v = (y - this.oy) * this.invH - 0.5, w = (z - this.oz) * this.invH - 0.5
    const i0 = Math.floor(u), j0 = Math.floor(v), k0 = Math.floor(w)
    if (!(i0 >= 0 && j0 >= 0 && k0 >= 0 && i0 + 1 < nx && j0 + 1 < ny && k0 + 1 < nz)) return false
    const tx = u - i0, ty = v - j0, tz = w - k0
    const { cubeHex } = mesh, { corner, cornerWeight } = this
    for (let d = 0; d < 8; d++) {
      const e = cubeHex[i0 + (d & 1) + nx * (j0 + (d & 2 ? 1 : 0) + ny * (k0 + (d & 4 ? 1 : 0)))]
      if (e < 0) return false
      corner[d] = e
      cornerWeight[d] = (d & 1 ? tx : 1 - tx) * (d & 2 ? ty : 1 - ty) * (d & 4 ? tz : 1 - tz)
    }
    return true
  }

  /**
   * A cell-centred scalar at (x, y, z) in `cell`: trilinear over the 8 surrounding cell centres
   * when all are hexahedra, else the linear MLS fit over the cells around the cell's vertices,
   * clamped to the range of the values it used.
   */
  scalarAt(x: number, y: number, z: number, cell: number, values: Float64Array | Float32Array): number {
    if (cell < this.mesh.hexCount && this.hexCorners(x, y, z)) {
      const { corner, cornerWeight } = this
      let sum = 0, lo = Infinity, hi = -Infinity
      for (let d = 0; d < 8; d++) {
        const s = values[corner[d]]
        if (s < lo) lo = s
        if (s > hi) hi = s
        sum += cornerWeight[d] * s
      }
      // The weights sum to 1 only to rounding: clamp so that no new extremum appears even in the last bit.
      return sum < lo ? lo : sum > hi ? hi : sum
    }
    return this.scalarFit(x, y, z, cell, values)
  }

  /**
   * scalarAt of two scalars at one point (density and temperature after one trace), into
   * out[0] and out[1]: the same bits as two scalarAt calls, the neighbourhood, the weights and
   * the normal matrix's factor computed once.
   */
  scalarsAt(x: number, y: number, z: number, cell: number, a: Float64Array | Float32Array, b: Float64Array | Float32Array, out: Float64Array): void {
    if (cell < this.mesh.hexCount && this.hexCorners(x, y, z)) {
      const { corner, cornerWeight } = this
      let sa = 0, la = Infinity, ha = -Infinity, sb = 0, lb = Infinity, hb = -Infinity
      for (let d = 0; d < 8; d++) {
        const e = corner[d], wt = cornerWeight[d]
        const p = a[e], q = b[e]
        if (p < la) la = p
        if (p > ha) ha = p
        if (q < lb) lb = q
        if (q > hb) hb = q
        sa += wt * p
        sb += wt * q
      }
      out[0] = sa < la ? la : sa > ha ? ha : sa
      out[1] = sb < lb ? lb : sb > hb ? hb : sb
      return
    }
    this.scalarFits(x, y, z, cell, a, b, out)
  }

  /** scalarFit of two scalars over one neighbourhood and one factor (see scalarsAt). */
  private scalarFits(x: number, y: number, z: number, cell: number, a: Float64Array | Float32Array, b: Float64Array | Float32Array, out: Float64Array): void {
    const [list, from, to] = this.scalarFitCells(cell)
    scalarFitAt(this.mesh.cellCentre, list, from, to, x, y, z, this.mesh.cellMeanEdge[cell], this.epsilonFactor * this.epsilonFactor, a, b, this.scalarWork, out, 0)
  }


  /** The scalar fit of `values` at (x, y, z) in `cell` (scalarFitKernel.ts scalarFitAt). */
  private scalarFit(x: number, y: number, z: number, cell: number, values: Float64Array | Float32Array): number {
    const [list, from, to] = this.scalarFitCells(cell)
    scalarFitAt(this.mesh.cellCentre, list, from, to, x, y, z, this.mesh.cellMeanEdge[cell], this.epsilonFactor * this.epsilonFactor, values, null, this.scalarWork, this.scalarPair, 0)
    return this.scalarPair[0]
  }

  /** The cells of `cell`'s scalar fit: its precomputed two-ring, or gathered now for a cell without one. */
  private scalarFitCells(cell: number): [Int32Array, number, number] {
    const from = this.ringStart[cell], to = this.ringStart[cell + 1]
    if (from < to) return [this.ringCells, from, to]
    return [this.cellList, 0, this.gatherCells(cell)]
  }

  /** Whether scalarsAt at (x, y, z) in `cell` is the 8 centres' trilinear (else the scalar fit). */
  scalarTrilinear(x: number, y: number, z: number, cell: number): boolean {
    return cell < this.mesh.hexCount && this.hexCorners(x, y, z)
  }
}
