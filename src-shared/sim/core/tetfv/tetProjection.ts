// Pressure projection on a tetrahedral mesh by finite volumes (seed 003 section 3.1, after
// Klingner et al. 2006 = seed 000 sections 3.1 and 3.4). Pressure lives at tet barycentres,
// one normal velocity u_f per face at its barycentre, signed along the face's normal n_f (from
// its tet a to its tet b, outwards on the boundary: TetTopology).
//
//   Divergence (seed 000 eq. 3, seed 003 eq. 8): (div u)_t = (1/V_t) sum_k s_k A_k u_k, s_k = +1
//     where n points out of t. The volume-scaled form (D of seed 000 section 3.4) omits 1/V_t.
//   Normal gradient (seed 003 eq. 7 / seed 000 eq. 4): (G p)_f = (p_b - p_a) / d_f, d_f the
//     geometry's centreDistance (eq. 7) or heightDistance (eq. 4), equal for barycentres.
//   Boundary faces (seed 000 section 3.4), chosen per face by a flag:
//     closed (solid wall): the ghost pressure equals the tet's, so (G p)_f = 0 and u_f keeps the
//       wall's normal velocity; no pressure unknown across.
//     open (free surface, outflow): ambient pressure 0 beyond the face. 'mirror' (the paper):
//       the ghost sits as far beyond the face as the tet's centre is before it, d_f = 2 k_a;
//       'face': p = 0 on the face itself, d_f = k_a = 3 V_a / (4 A_f).
//   Projection (seed 000 eq. 6, seed 003 eqs. 5-6): D G p = D u*, u = u* - G p. With
//     L = -D G this is the symmetric system
//       sum_f (A_f / d_f) (p_t - p_nb(f)) = -sum_f s_f A_f u*_f     (p_nb = 0 beyond an open face)
//     a weighted graph Laplacian (positive off-diagonal weights A_f / d_f): positive
//     semidefinite with the constants as null space on a component of tets with no open face,
//     positive definite on one with an open face (irreducibly diagonally dominant).
//
// The pressure p here is h/rho times the physical pressure (u = u* - (h/rho) grad p_phys);
// project() takes scale = h/rho to report physical pressures. The preconditioner is a
// constructor parameter (any Preconditioner, or a factory given the matrix), symmetric
// Gauss-Seidel by default, so algebraic multigrid can be plugged in.
import type { KernelBackend } from '../kernelTypes'
import { TS_KERNELS } from '../kernelBackend'
import { type LinearOperator, type PcgOptions, PcgSolver, type Preconditioner, type SolveStats } from '../pcg'
import { allocCsr, type CsrMatrix, insertInRow } from '../sparse/csr'
import { CsrOperator, SgsPreconditioner, SparseVectorOps } from '../sparse/ops'
import { EddyError } from '../../../api/errors'
import type { TetGeometry } from './tetGeometry'
import type { TetTopology } from './tetTopology'

/** Which distance the normal gradient divides by: seed 003 eq. 7 ('centres') or seed 000 eq. 4 ('heights'). */
export type TetFaceDistance = 'centres' | 'heights'
/** Where the ambient p = 0 of an open face sits: mirrored beyond the face (seed 000 section 3.4) or on the face. */
export type TetOpenGhost = 'mirror' | 'face'

export interface TetProjectionOptions {
  /** Per face (length faceCount): 1 = open boundary face, 0 = closed (solid wall). Interior entries are ignored. Default: all closed. */
  openFaces?: Uint8Array
  /** Default 'centres' (seed 003 eq. 7). */
  distance?: TetFaceDistance
  /** Default 'mirror' (seed 000 section 3.4). */
  openGhost?: TetOpenGhost
  /** A preconditioner, or a factory given the assembled matrix; null for plain CG. Default symmetric Gauss-Seidel. */
  preconditioner?: Preconditioner | ((A: CsrMatrix) => Preconditioner) | null
  /** Runs the sparse kernels and allocates the solver's vectors; default TypeScript. */
  kernels?: KernelBackend
}

export interface TetProjectOptions extends PcgOptions {
  /** h / rho, to report physical pressures (TetProjection.pressure = solved p / scale). Default 1. */
  scale?: number
}

export interface TetProjectStats extends SolveStats {
  /**
   * max over components with no open face of |sum_t b_t| / ||b||_2, b = -D u*: the net flux
   * through their walls, which no pressure can remove (0 for compatible wall velocities).
   */
  incompatibility: number
}

/** out_t = sum_k s_k A_k u_k: the volume-scaled divergence (D of seed 000 section 3.4). */
export function tetVolumeDivergence(topology: TetTopology, geometry: TetGeometry, u: Float64Array, out: Float64Array): void {
  const { tetCount: nt, tetFaces, tetFaceSigns } = topology
  const A = geometry.faceAreas
  for (let t = 0; t < nt; t++) {
    const e = 4 * t
    const f0 = tetFaces[e], f1 = tetFaces[e + 1], f2 = tetFaces[e + 2], f3 = tetFaces[e + 3]
    out[t] = tetFaceSigns[e] * A[f0] * u[f0] + tetFaceSigns[e + 1] * A[f1] * u[f1] + tetFaceSigns[e + 2] * A[f2] * u[f2] + tetFaceSigns[e + 3] * A[f3] * u[f3]
  }
}

/** out_t = (1/V_t) sum_k s_k A_k u_k (seed 000 eq. 3, seed 003 eq. 8). */
export function tetDivergence(topology: TetTopology, geometry: TetGeometry, u: Float64Array, out: Float64Array): void {
  tetVolumeDivergence(topology, geometry, u, out)
  const V = geometry.volumes
  for (let t = 0; t < topology.tetCount; t++) out[t] /= V[t]
}

/** The pressure operator: the CSR matrix, with the constants removed per component of cells that has no open face (also the hybrid gas's, whose cells are not all tetrahedra). */
export class TetPressureOperator implements LinearOperator {
  private readonly csr: CsrOperator
  readonly removeNullSpace?: (v: Float64Array) => void
  private readonly sums: Float64Array

  constructor(
    A: CsrMatrix,
    kernels: KernelBackend,
    /** Component of each tet. */
    readonly component: Int32Array,
    /** Per component: its tet count if it has no open face (singular block), else 0. */
    readonly closedSize: Int32Array,
  ) {
    this.csr = new CsrOperator(A, kernels)
    this.sums = new Float64Array(closedSize.length)
    let anyClosed = false
    for (let c = 0; c < closedSize.length; c++) if (closedSize[c] > 0) anyClosed = true
    if (anyClosed) this.removeNullSpace = closedSize.length === 1 ? (v) => this.removeMean(v) : (v) => this.removeMeans(v)
  }

  apply(x: Float64Array, out: Float64Array): void {
    this.csr.apply(x, out)
  }

  residual(b: Float64Array, x: Float64Array, r: Float64Array): void {
    this.csr.residual(b, x, r)
  }

  /** One closed component: subtract the mean. */
  private removeMean(v: Float64Array): void {
    const n = this.component.length
    let s = 0
    for (let i = 0; i < n; i++) s += v[i]
    s /= n
    for (let i = 0; i < n; i++) v[i] -= s
  }

  /** Several components: subtract each closed one's mean over its own tets. */
  private removeMeans(v: Float64Array): void {
    const { component, closedSize, sums } = this
    const n = component.length
    sums.fill(0)
    for (let i = 0; i < n; i++) sums[component[i]] += v[i]
    for (let c = 0; c < sums.length; c++) sums[c] = closedSize[c] > 0 ? sums[c] / closedSize[c] : 0
    for (let i = 0; i < n; i++) v[i] -= sums[component[i]]
  }
}

/**
 * The finite-volume projection of one mesh with one choice of open faces: assembles the
 * matrix once, then project() makes face velocities divergence-free in place.
 */
export class TetProjection {
  /** The symmetric matrix L (rows of tets, columns sorted). */
  readonly A: CsrMatrix
  /** Per face: A_f / d_f (interior and open faces), 0 on closed faces. */
  readonly faceWeight: Float64Array
  /** Per face: 1 / d_f (interior and open faces), 0 on closed faces. */
  readonly faceInverseDistance: Float64Array
  /** Per face: 1 where the face is an open boundary face. */
  readonly open: Uint8Array
  /** Connected components of tets across interior faces, and which have no open face. */
  readonly component: Int32Array
  readonly componentCount: number
  readonly closedComponentCount: number
  /** Physical pressure per tet from the last project() (solved p / scale). */
  readonly pressure: Float64Array
  readonly preconditioner: Preconditioner | null
  private readonly operator: TetPressureOperator
  private readonly pcg: PcgSolver
  private readonly rhs: Float64Array
  /** The solved p (h/rho times pressure), kept as the next solve's warm start. */
  private readonly p: Float64Array
  private readonly closedSize: Int32Array
  private readonly componentSums: Float64Array

  constructor(
    readonly topology: TetTopology,
    readonly geometry: TetGeometry,
    options: TetProjectionOptions = {},
  ) {
    const { tetCount: nt, faceCount: nf, faceTets } = topology
    const kernels = options.kernels ?? TS_KERNELS
    const distance = options.distance ?? 'centres'
    const ghost = options.openGhost ?? 'mirror'
    if (options.openFaces && options.openFaces.length !== nf) {
      throw new EddyError('INVALID_PARAM', `openFaces must have one flag per face (${nf}), got ${options.openFaces.length}`, { field: 'openFaces' })
    }
    const d = distance === 'centres' ? geometry.centreDistance : geometry.heightDistance
    this.open = new Uint8Array(nf)
    this.faceWeight = new Float64Array(nf)
    this.faceInverseDistance = new Float64Array(nf)
    for (let f = 0; f < nf; f++) {
      let df: number
      if (faceTets[2 * f + 1] >= 0) df = d[f]
      else if (options.openFaces && options.openFaces[f]) {
        this.open[f] = 1
        df = ghost === 'mirror' ? 2 * d[f] : d[f]
      } else continue
      this.faceInverseDistance[f] = 1 / df
      this.faceWeight[f] = geometry.faceAreas[f] / df
    }
    this.A = this.assemble(kernels)
    // Components across interior faces; a component with no open face has the constants as null space.
    this.component = new Int32Array(nt).fill(-1)
    const stack = new Int32Array(nt)
    const sizes: number[] = []
    const openIn: boolean[] = []
    const { tetNeighbours, tetFaces } = topology
    for (let seed = 0; seed < nt; seed++) {
      if (this.component[seed] >= 0) continue
      const c = sizes.length
      let top = 0
      let size = 0
      let hasOpen = false
      stack[top++] = seed
      this.component[seed] = c
      while (top > 0) {
        const t = stack[--top]
        size++
        for (let k = 0; k < 4; k++) {
          const nb = tetNeighbours[4 * t + k]
          if (nb < 0) {
            if (this.open[tetFaces[4 * t + k]]) hasOpen = true
          } else if (this.component[nb] < 0) {
            this.component[nb] = c
            stack[top++] = nb
          }
        }
      }
      sizes.push(size)
      openIn.push(hasOpen)
    }
    this.componentCount = sizes.length
    this.closedSize = Int32Array.from(sizes, (s, c) => (openIn[c] ? 0 : s))
    this.closedComponentCount = openIn.filter((o) => !o).length
    this.componentSums = new Float64Array(this.componentCount)
    this.operator = new TetPressureOperator(this.A, kernels, this.component, this.closedSize)
    const pre = options.preconditioner === undefined ? new SgsPreconditioner(this.A, kernels) : options.preconditioner
    this.preconditioner = typeof pre === 'function' ? pre(this.A) : pre
    this.pcg = new PcgSolver(new SparseVectorOps(nt, kernels))
    this.rhs = kernels.f64(nt)
    this.p = kernels.f64(nt)
    this.pressure = new Float64Array(nt)
  }

  /** L with rows sorted by column: diagonal sum of the face weights of the tet, -weight to each interior neighbour. */
  private assemble(kernels: KernelBackend): CsrMatrix {
    const { tetCount: nt, tetFaces, tetNeighbours } = this.topology
    const w = this.faceWeight
    let nnz = nt
    for (let e = 0; e < 4 * nt; e++) if (tetNeighbours[e] >= 0) nnz++
    const A = allocCsr(nt, nt, nnz, kernels)
    const { rowPtr, col, val } = A
    let p = 0
    for (let t = 0; t < nt; t++) {
      const start = p
      let diag = 0
      // Insert the diagonal and up to four neighbours in column order (insertion sort on <= 5 entries).
      col[p] = t
      val[p++] = 0
      for (let k = 0; k < 4; k++) {
        const f = tetFaces[4 * t + k]
        diag += w[f]
        const nb = tetNeighbours[4 * t + k]
        if (nb < 0) continue
        p = insertInRow(col, val, start, p, nb, -w[f])
      }
      for (let q = start; q < p; q++) if (col[q] === t) val[q] = diag
      rowPtr[t + 1] = p
    }
    return A
  }

  /** out_f = (G p)_f: (p_b - p_a) / d_f inside, (0 - p_a) / d_f on open faces, 0 on closed faces. */
  gradient(p: Float64Array, out: Float64Array): void {
    const { faceTets, faceCount: nf } = this.topology
    const inv = this.faceInverseDistance
    for (let f = 0; f < nf; f++) {
      const b = faceTets[2 * f + 1]
      out[f] = ((b >= 0 ? p[b] : 0) - p[faceTets[2 * f]]) * inv[f]
    }
  }

  /**
   * Makes the face velocities u (one per face, along the face's normal) divergence-free in
   * place: solves L p = -D u* and sets u = u* - G p. Closed faces keep their velocity.
   */
  project(u: Float64Array, options: TetProjectOptions = {}): TetProjectStats {
    const { topology, geometry, rhs: b, p } = this
    const nt = topology.tetCount
    tetVolumeDivergence(topology, geometry, u, b)
    for (let t = 0; t < nt; t++) b[t] = -b[t]
    const incompatibility = this.incompatibilityOf(b)
    const stats = this.pcg.solve(this.operator, this.preconditioner, b, p, options)
    const { faceTets, faceCount: nf } = topology
    const inv = this.faceInverseDistance
    for (let f = 0; f < nf; f++) {
      const tb = faceTets[2 * f + 1]
      u[f] -= ((tb >= 0 ? p[tb] : 0) - p[faceTets[2 * f]]) * inv[f]
    }
    const scale = options.scale ?? 1
    for (let t = 0; t < nt; t++) this.pressure[t] = p[t] / scale
    return { ...stats, incompatibility }
  }

  private incompatibilityOf(b: Float64Array): number {
    if (this.closedComponentCount === 0) return 0
    const sums = this.componentSums
    sums.fill(0)
    let norm = 0
    for (let t = 0; t < b.length; t++) {
      sums[this.component[t]] += b[t]
      norm += b[t] * b[t]
    }
    if (norm === 0) return 0
    let worst = 0
    for (let c = 0; c < sums.length; c++) if (this.closedSize[c] > 0) worst = Math.max(worst, Math.abs(sums[c]))
    return worst / Math.sqrt(norm)
  }
}
