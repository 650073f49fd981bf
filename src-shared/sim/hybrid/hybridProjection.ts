// Pressure projection on the hybrid mesh (seed 000 sections 3.1 and 3.4). Pressure lives at
// every cell's centre, hexahedron or tetrahedron alike, one normal velocity z_f at every face.
//
//   Divergence, eq. 3: (div u)_j = (1/V_j) sum_{i in cell j} s_i A_i z_i, s_i = +1 where the
//     face's normal points out of j. A transition hexahedron sums its split face's four
//     triangles, which is the paper's "as if its transition-face velocity was the average of
//     the split values" (the area-weighted average times the square's area).
//   Normal gradient, eq. 4: (n . grad p)_i = (p_b - p_a) / (k_a + k_b), k = h/2 for hexahedra
//     and transition cells, 3V/(4A) for tetrahedra: hybridMesh.ts stores k_a + k_b per face.
//   Boundaries, section 3.4: an open face has ambient pressure 0 mirrored beyond it (its
//     distance is 2 k_a); a closed face (wall, obstacle) keeps its prescribed normal velocity
//     and has no gradient.
//   Eq. 6: D G p = D z* with the volume-scaled D; with L = -D G it is
//       sum_i (A_i / d_i) (p_j - p_nb(i)) = -sum_i s_i A_i z*_i,   z = z* - G p,
//     a weighted graph Laplacian: symmetric (the weight A_i / d_i is the same seen from both
//     cells), positive semidefinite, definite on a component with an open face. Solved by
//     conjugate gradients preconditioned by algebraic multigrid (core/amg, the same hierarchy
//     the tetrahedral liquid uses). p is dt/rho times the physical pressure.
import { EddyError } from '../../api/errors'
import { type AmgOptions, AmgPreconditioner } from '../core/amg/amgHierarchy'
import type { KernelBackend } from '../core/kernelTypes'
import { kernelCopy, TS_KERNELS } from '../core/kernelBackend'
import { type PcgOptions, PcgSolver, type Preconditioner, type SolveStats } from '../core/pcg'
import { allocCsr, type CsrMatrix, insertInRow } from '../core/sparse/csr'
import { SparseVectorOps } from '../core/sparse/ops'
import { TetPressureOperator } from '../core/tetfv/tetProjection'
import { FACE_INTERIOR, FACE_OPEN, type HybridMesh } from './hybridMesh'
import { HYBRID_CELL_FLUX, HYBRID_FACE_CORRECTION, HYBRID_RELATIVE_DIVERGENCE } from './projectionKernels'

export interface HybridProjectStats extends SolveStats {
  /** Largest |div u| V / (sum of |A z| over the cell's faces) after the projection: the solver tolerance in every cell's own terms. */
  worstRelativeDivergence: number
}

/** out_j = sum_i s_i A_i z_i (the volume-scaled divergence of eq. 6). */
export function hybridVolumeDivergence(mesh: HybridMesh, z: Float64Array, out: Float64Array): void {
  const { cellCount, cellFaceStart, cellFaces, cellFaceSign, faceArea } = mesh
  for (let c = 0; c < cellCount; c++) {
    let s = 0
    for (let i = cellFaceStart[c], e = cellFaceStart[c + 1]; i < e; i++) {
      const f = cellFaces[i]
      s += cellFaceSign[i] * faceArea[f] * z[f]
    }
    out[c] = s
  }
}

/** out_j = (div u)_j, eq. 3. */
export function hybridDivergence(mesh: HybridMesh, z: Float64Array, out: Float64Array): void {
  hybridVolumeDivergence(mesh, z, out)
  for (let c = 0; c < mesh.cellCount; c++) out[c] /= mesh.cellVolume[c]
}

/** Per face 1 / d across interior and open faces (eq. 4's distance), 0 on closed ones. */
function inverseFaceDistances(mesh: HybridMesh): Float64Array {
  const { faceCount: nf, faceKind, faceDistance } = mesh
  const inv = new Float64Array(nf)
  for (let f = 0; f < nf; f++) if (faceKind[f] === FACE_INTERIOR || faceKind[f] === FACE_OPEN) inv[f] = 1 / faceDistance[f]
  return inv
}

/** L of eq. 6 (area / distance on every interior and open face), rows sorted by column. */
export function hybridPressureMatrix(mesh: HybridMesh, kernels: KernelBackend = TS_KERNELS, inverseDistance = inverseFaceDistances(mesh)): CsrMatrix {
  const { faceCount: nf, faceArea, faceDistance } = mesh
  const weight = new Float64Array(nf)
  for (let f = 0; f < nf; f++) if (inverseDistance[f] !== 0) weight[f] = faceArea[f] / faceDistance[f]
  return assemble(mesh, weight, kernels)
}

export class HybridProjection {
  /** L, rows sorted by column. */
  readonly A: CsrMatrix
  /** Per face 1 / d (interior and open faces), 0 on closed ones. */
  readonly inverseDistance: Float64Array
  readonly preconditioner: Preconditioner
  readonly componentCount: number
  readonly closedComponentCount: number
  private readonly operator: TetPressureOperator
  private readonly pcg: PcgSolver
  private readonly rhs: Float64Array
  /** The solved p, the next solve's warm start. */
  readonly p: Float64Array
  /**
   * The passes around the solve as kernel rows (projectionKernels.ts): the mesh's arrays in the
   * kernels' memory, s_i A_i per cell-face entry, a copy of the face velocities there (the
   * caller's own on TypeScript) and the cells' relative divergences.
   */
  private readonly k: { cellFaceStart: Int32Array; cellFaces: Int32Array; signedArea: Float64Array; faceCellA: Int32Array; faceCellB: Int32Array; inv: Float64Array; z: Float64Array | null; ratio: Float64Array }

  /**
   * @param coarsening the multigrid's (core/amg): the paper's splitting for a mesh that lives
   *   the whole bake; smoothed aggregation, whose set-up costs a fraction of the splitting's,
   *   for one rebuilt every substep around a moving obstacle (HybridSetup.keyframedObstacles).
   */
  constructor(readonly mesh: HybridMesh, kernels: KernelBackend = TS_KERNELS, coarsening: AmgOptions['coarsening'] = 'splitting') {
    const n = mesh.cellCount
    this.inverseDistance = inverseFaceDistances(mesh)
    this.A = hybridPressureMatrix(mesh, kernels, this.inverseDistance)
    const { component, closedSize } = components(mesh)
    this.componentCount = closedSize.length
    this.closedComponentCount = closedSize.filter((s) => s > 0).length
    this.operator = new TetPressureOperator(this.A, kernels, component, closedSize)
    this.preconditioner = new AmgPreconditioner(this.A, { kernels, coarsening })
    this.pcg = new PcgSolver(new SparseVectorOps(n, kernels))
    this.rhs = kernels.f64(n)
    this.p = kernels.f64(n)
    const { cellFaceStart, cellFaces, cellFaceSign, faceArea } = mesh
    const signedArea = new Float64Array(cellFaces.length)
    for (let i = 0; i < cellFaces.length; i++) signedArea[i] = cellFaceSign[i] * faceArea[cellFaces[i]]
    const own = <T extends Float64Array | Int32Array>(a: T): T => kernelCopy(kernels, a)
    this.kernels = kernels
    this.k = {
      cellFaceStart: own(cellFaceStart), cellFaces: own(cellFaces), signedArea: own(signedArea), faceCellA: own(mesh.faceCellA), faceCellB: own(mesh.faceCellB),
      inv: own(this.inverseDistance), z: kernels.kind === 'ts' ? null : kernels.f64(mesh.faceCount), ratio: kernels.f64(n),
    }
  }

  private readonly kernels: KernelBackend

  /** out_f = (G p)_f of eq. 4 (0 beyond an open face, nothing across a closed one). */
  gradient(p: Float64Array, out: Float64Array): void {
    const { faceCount, faceCellA, faceCellB } = this.mesh
    const inv = this.inverseDistance
    for (let f = 0; f < faceCount; f++) {
      const b = faceCellB[f]
      out[f] = ((b >= 0 ? p[b] : 0) - p[faceCellA[f]]) * inv[f]
    }
  }

  /** Makes z divergence free in place (eq. 6): L p = -D z*, z = z* - G p. Closed faces keep their values. */
  project(z: Float64Array, options: PcgOptions = {}): HybridProjectStats {
    const { mesh, rhs: b, p, k, kernels } = this
    const n = mesh.cellCount, nf = mesh.faceCount
    if (z.length !== nf) throw new EddyError('INVALID_PARAM', `hybrid projection: ${z.length} face velocities for ${nf} faces`)
    // The caller's z when the kernels hold it, else a copy where they do (and back after).
    const zk = k.z === null || kernels.holds(z) ? z : k.z
    if (zk !== z) zk.set(z)
    kernels.run(HYBRID_CELL_FLUX, k.cellFaceStart, k.cellFaces, k.signedArea, zk, b, 1, n)
    const stats = this.pcg.solve(this.operator, this.preconditioner, b, p, options)
    kernels.run(HYBRID_FACE_CORRECTION, k.faceCellA, k.faceCellB, k.inv, p, zk, nf)
    kernels.run(HYBRID_RELATIVE_DIVERGENCE, k.cellFaceStart, k.cellFaces, k.signedArea, zk, k.ratio, n)
    if (zk !== z) z.set(zk)
    // The largest (NaN never compares larger), as worstRelativeDivergence finds it.
    let worst = 0
    for (let c = 0; c < n; c++) if (k.ratio[c] > worst) worst = k.ratio[c]
    return { ...stats, worstRelativeDivergence: worst }
  }
}

/** max over cells of |sum s A z| / sum |A z| (0 for a cell with no flow); `scratch` has one entry per cell. */
export function worstRelativeDivergence(mesh: HybridMesh, z: Float64Array, scratch: Float64Array): number {
  const { cellCount, cellFaceStart, cellFaces, cellFaceSign, faceArea } = mesh
  let worst = 0
  for (let c = 0; c < cellCount; c++) {
    let s = 0, m = 0
    for (let i = cellFaceStart[c], e = cellFaceStart[c + 1]; i < e; i++) {
      const f = cellFaces[i], q = faceArea[f] * z[f]
      s += cellFaceSign[i] * q
      m += Math.abs(q)
    }
    scratch[c] = s
    if (m > 0 && Math.abs(s) / m > worst) worst = Math.abs(s) / m
  }
  return worst
}

/** L: the diagonal sums the weights of a cell's interior and open faces, -weight to each neighbour. */
function assemble(mesh: HybridMesh, w: Float64Array, kernels: KernelBackend): CsrMatrix {
  const { cellCount: n, cellFaceStart, cellFaces, faceCellA, faceCellB } = mesh
  let nnz = n
  for (let c = 0; c < n; c++) {
    for (let i = cellFaceStart[c]; i < cellFaceStart[c + 1]; i++) if (faceCellB[cellFaces[i]] >= 0) nnz++
  }
  const A = allocCsr(n, n, nnz, kernels)
  const { rowPtr, col, val } = A
  let p = 0
  for (let c = 0; c < n; c++) {
    const start = p
    let diag = 0
    col[p] = c
    val[p++] = 0
    for (let i = cellFaceStart[c]; i < cellFaceStart[c + 1]; i++) {
      const f = cellFaces[i]
      diag += w[f]
      const a = faceCellA[f], b = faceCellB[f]
      if (b < 0) continue
      p = insertInRow(col, val, start, p, a === c ? b : a, -w[f])
    }
    for (let q = start; q < p; q++) if (col[q] === c) val[q] = diag
    rowPtr[c + 1] = p
  }
  return A
}

/** Connected components of cells across interior faces; per component its size if it has no open face (singular), else 0. */
function components(mesh: HybridMesh): { component: Int32Array; closedSize: Int32Array } {
  const { cellCount: n, cellFaceStart, cellFaces, faceCellA, faceCellB, faceKind } = mesh
  const component = new Int32Array(n).fill(-1)
  const stack = new Int32Array(n)
  const sizes: number[] = []
  for (let seed = 0; seed < n; seed++) {
    if (component[seed] >= 0) continue
    const id = sizes.length
    let top = 0, size = 0, open = false
    stack[top++] = seed
    component[seed] = id
    while (top > 0) {
      const c = stack[--top]
      size++
      for (let i = cellFaceStart[c]; i < cellFaceStart[c + 1]; i++) {
        const f = cellFaces[i]
        const b = faceCellB[f]
        if (b < 0) {
          if (faceKind[f] === FACE_OPEN) open = true
          continue
        }
        const nb = faceCellA[f] === c ? b : faceCellA[f]
        if (component[nb] < 0) { component[nb] = id; stack[top++] = nb }
      }
    }
    sizes.push(open ? 0 : size)
  }
  return { component, closedSize: Int32Array.from(sizes) }
}
