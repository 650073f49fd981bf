// The implicit viscosity system (viscosity.ts) as an explicit sparse matrix over its unknown
// faces, and an incomplete-Cholesky preconditioner built from it (issue 19).
//
// Why a matrix: with the full stress (Batty and Bridson 2008) a stiff region inside soft liquid
// (solid wax in its melt) couples u, v and w strongly through the edge sites' cross terms, which
// the per-component multigrid cycle (viscousMultigrid.ts) cannot see and Jacobi only sees on the
// diagonal: on the melting bunny they took 160-1487 and 700-780 iterations a substep. IC(0) of
// the coupled matrix keeps every cross entry of a face's own sites, so the local shear couplings
// are factored rather than iterated.
//
// Assembly: A = M + sum_s w_s g_s g_s^T restricted to the unknowns (viscosity.ts's file comment
// has the sites and their g vectors). For each site, every pair (p, q) of its entries with both
// faces unknown adds w_s g_p g_q at (p, q); an entry whose face is not an unknown is a Dirichlet
// value (already on the right-hand side) and adds only to its partners' diagonals through
// g_p^2. Carlson's stress (eq. 57) has one pair term per component at an edge (no cross
// entries); the full stress one term over all four faces. The product with this matrix equals
// ViscositySystem.apply on the unknowns (tests/unit/sim/liquid/viscousMatrix.test.ts).
import type { Preconditioner } from '../core/pcg'
import { grownCapacity, reuseOrGrow } from '../core/growCapacity'
import { type CsrMatrix, CsrScratch } from '../core/sparse/csr'
import { type IcSpace, IncompleteCholesky } from '../core/sparse/incompleteCholesky'
import type { ViscousSites } from './viscousMultigrid'

/** What assembly reads besides the sites: the mass of each face, the stress form and the unknown faces' list. */
export interface ViscousMatrixSource extends ViscousSites {
  readonly n: number
  readonly mass: Float64Array
  readonly fullStress: boolean
  /** The unknown faces in increasing order: faces[0 .. faceCount) (viscosity.ts listFaces). */
  readonly faces: Int32Array
  readonly faceCount: number
}

/** A over the unknowns: row r is stacked face faces[r]; rowOf[f] = r (or -1). */
export interface ViscousMatrix {
  A: CsrMatrix
  faces: Int32Array
  rowOf: Int32Array
}

/**
 * Most entries a row of A holds: a face's own entry, its two neighbours of its component along
 * each axis (6) and the four faces of each of the two other components its edges reach (8).
 */
export const MAX_ROW_ENTRIES = 15

/**
 * Each row's entries as assembly adds them, in fixed slots of MAX_ROW_ENTRIES: an entry is
 * found by a search of its row's few columns, and equal (row, column) terms are summed in the
 * order they come (as csrFromTriplets sums duplicates in triplet order, which this replaced:
 * the same sums, so the same bits, without sorting about 85,000 triplets a substep on the
 * melting bunny, half of the assembly's time).
 */
class RowSlots {
  count = new Int32Array(0)
  cols = new Int32Array(0)
  vals = new Float64Array(0)
  reset(rows: number): void {
    if (this.count.length < rows) {
      this.count = new Int32Array(grownCapacity(this.count.length, rows))
      this.cols = new Int32Array(this.count.length * MAX_ROW_ENTRIES)
      this.vals = new Float64Array(this.count.length * MAX_ROW_ENTRIES)
    }
    this.count.fill(0, 0, rows)
  }
  add(r: number, c: number, v: number): void {
    const base = r * MAX_ROW_ENTRIES
    const k = this.count[r]
    for (let e = base; e < base + k; e++) {
      if (this.cols[e] === c) {
        this.vals[e] += v
        return
      }
    }
    if (k === MAX_ROW_ENTRIES) throw new Error(`viscosity matrix: row ${r} has more than ${MAX_ROW_ENTRIES} entries`)
    this.cols[base + k] = c
    this.vals[base + k] = v
    this.count[r] = k + 1
  }
  /** The rows as CSR, each row's columns in increasing order, into work's arrays. */
  toCsr(m: number, work: CsrScratch): CsrMatrix {
    const rowPtr = (work.rowPtr = reuseOrGrow(work.rowPtr, m + 1, (length) => new Int32Array(length)))
    rowPtr[0] = 0
    for (let r = 0; r < m; r++) rowPtr[r + 1] = rowPtr[r] + this.count[r]
    const nnz = rowPtr[m]
    const col = (work.col = reuseOrGrow(work.col, nnz, (length) => new Int32Array(length)))
    const val = (work.val = reuseOrGrow(work.val, nnz, (length) => new Float64Array(length)))
    const { cols, vals } = this
    for (let r = 0; r < m; r++) {
      const base = r * MAX_ROW_ENTRIES, out = rowPtr[r], k = this.count[r]
      // Insertion sort by column (a row holds at most MAX_ROW_ENTRIES).
      for (let a = 0; a < k; a++) {
        const c = cols[base + a], v = vals[base + a]
        let b = out + a
        while (b > out && col[b - 1] > c) {
          col[b] = col[b - 1]
          val[b] = val[b - 1]
          b--
        }
        col[b] = c
        val[b] = v
      }
    }
    return { n: m, cols: m, rowPtr: rowPtr.subarray(0, m + 1), col: col.subarray(0, nnz), val: val.subarray(0, nnz) }
  }
}

/**
 * What assembly reuses from one substep to the next (the row slots, the row map and the CSR's
 * arrays). A matrix assembled in it lives until the next assembly.
 */
export class ViscousAssembly {
  readonly slots = new RowSlots()
  readonly csr = new CsrScratch()
  faces = new Int32Array(0)
  rowOf = new Int32Array(0)
}

/**
 * A over the unknowns. lower: only the diagonal and the strict lower triangle (all that
 * incomplete Cholesky reads; the upper triangle's terms were 40% of the assembly's), each
 * entry summed from the same terms in the same order as in the whole matrix.
 */
export function assembleViscousMatrix(s: ViscousMatrixSource, work: ViscousAssembly = new ViscousAssembly(), lower = false): ViscousMatrix {
  const { nx, ny, nu, nv, n, mass } = s
  // Rows in the order of the system's face list (increasing face index).
  const m = s.faceCount
  const faceList = (work.faces = reuseOrGrow(work.faces, m, (length) => new Int32Array(length))).subarray(0, m)
  faceList.set(s.faces.subarray(0, m))
  const rowOf = (work.rowOf = reuseOrGrow(work.rowOf, n, (length) => new Int32Array(length))).subarray(0, n)
  rowOf.fill(-1)
  for (let r = 0; r < m; r++) rowOf[faceList[r]] = r
  const t = work.slots
  t.reset(m)
  for (let r = 0; r < m; r++) t.add(r, r, mass[faceList[r]])
  // One site: entries (face, coefficient) in fs / gs (face -1 = beyond the domain, value 0).
  const fs = new Int32Array(4), gs = new Float64Array(4)
  const site = (w: number, count: number) => {
    for (let a = 0; a < count; a++) {
      const ra = fs[a] >= 0 ? rowOf[fs[a]] : -1
      if (ra < 0) continue
      for (let b = 0; b < count; b++) {
        const rb = fs[b] >= 0 ? rowOf[fs[b]] : -1
        if (rb >= 0 && (!lower || rb <= ra)) t.add(ra, rb, w * gs[a] * gs[b])
      }
    }
  }
  const pair = (w: number, f0: number, f1: number, c: number) => {
    fs[0] = f0
    fs[1] = f1
    gs[0] = -c
    gs[1] = c
    site(w, 2)
  }
  const edge = (w: number, flags: number, a0: number, a1: number, b0: number, b1: number) => {
    const ca = flags & 1 ? 2 : 1, cb = flags & 2 ? 2 : 1
    if (!s.fullStress) {
      pair(w, a0, a1, ca)
      pair(w, b0, b1, cb)
      return
    }
    fs[0] = a0
    fs[1] = a1
    fs[2] = b0
    fs[3] = b1
    gs[0] = -ca
    gs[1] = ca
    gs[2] = -cb
    gs[3] = cb
    site(w, 4)
  }
  // The sites with a weight from the system's lists: the cells in index order, then the xy,
  // xz and yz edges, each in index order, with their faces (viscosity.ts listSites), i.e. the
  // order of sweeps over every site, so the same terms in the same order.
  const ov = nu, ow = nu + nv
  for (let q = 0; q < s.cellCount; q++) {
    const c = s.cellSites[q]
    const w = s.wCell[c]
    const row = (c / nx) | 0 // j + ny k
    const k = (row / ny) | 0
    const u0 = c + row // i + (nx + 1)(j + ny k)
    pair(w, u0, u0 + 1, 1)
    const v0 = ov + c + nx * k // i + nx (j + (ny + 1) k)
    pair(w, v0, v0 + nx, 1)
    pair(w, ow + c, ow + c + nx * ny, 1)
  }
  const { edgeFaces, edgeW, edgeG } = s
  for (let e = 0; e < s.edgeCount; e++) edge(edgeW[e], edgeG[e], edgeFaces[4 * e], edgeFaces[4 * e + 1], edgeFaces[4 * e + 2], edgeFaces[4 * e + 3])
  const A = t.toCsr(m, work.csr)
  return { A, faces: faceList, rowOf }
}

/**
 * IC(0) of the assembled matrix, on the stacked face vector: z is written on the unknown rows
 * only (its other rows are left as they are: the viscosity solve's vector kernels,
 * UnknownFaceOps, never read them, and clearing them cost a pass over every face of the grid
 * at each iteration).
 */
export class ViscousIncompleteCholesky implements Preconditioner {
  private readonly ic: IncompleteCholesky
  private readonly faces: Int32Array

  /**
   * space: where the factor's arrays live (the kernels' memory: the solves then run on
   * WebAssembly); work: the assembly's reused arrays (the factor copies what it keeps).
   */
  constructor(s: ViscousMatrixSource, space?: IcSpace, work?: ViscousAssembly) {
    const { A, faces } = assembleViscousMatrix(s, work, true)
    this.ic = new IncompleteCholesky(A, space)
    // The solves gather and scatter through faces: it too must be in the kernels' memory.
    if (space !== undefined) (this.faces = space.i32('faces', faces.length)).set(faces)
    else this.faces = work === undefined ? faces : faces.slice()
  }

  apply(r: Float64Array, z: Float64Array): void {
    this.ic.applyIndexed(r, z, this.faces)
  }
}
