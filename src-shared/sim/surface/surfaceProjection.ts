// The metric-aware projection of a surface flow (Stam 2003 sec. 3.2 and Appendices A-B): the
// flux density F^i = sqrt(g) u^i on the MAC faces of every patch is made divergence free,
//   div u = (1 / sqrt(g)) d_i (sqrt(g) u^i) = 0,  u^i -= g^ij d_j p,
// by one symmetric system over all patches, solved by PCG preconditioned by multigrid over
// patch aggregates (surfaceMultigrid.ts).
//
// Discretisation. With d the differences of p across faces (x-faces: p_(i,j) - p_(i-1,j), y
// likewise), the system is the stiffness matrix of the discrete energy
//   E(p) = sum_x-faces w11 d^2 + sum_y-faces w22 d^2 + sum_nodes (w12 / 2) (a . p)(b . p),
// w = sqrt(g) g^ij at the sample, a . p and b . p the sums of the two x- and the two y-face
// differences meeting at a node (2 h times the node's d_1 p and d_2 p): A = (1/2) Hessian of E,
// symmetric by construction, with the constants as its null space on a closed surface. The
// flux correction is its gradient, dF = -(1/2) dE/dd (so that the divergence of dF is A p):
//   x-face: dF = -(w11 d + sum over its two nodes (w12 / 4)(b . p)), y-faces likewise.
// A face on a patch's edge belongs to both patches: each adds half of it (its own metric) and
// half of the two edge nodes' mixed terms, and the two copies of its flux take the sum of the
// halves, so the shared flux is one value. The mixed term is dropped at patch corners, where
// an extraordinary vertex leaves no single diagonal neighbour. (Appendix B writes the same
// operators on the same samples; this form keeps the matrix exactly symmetric across patches.)
import type { SolveStats } from '../core/pcg'
import { SURFACE_CORRECTION, SURFACE_DIVERGENCE } from './surfaceCorrectionKernels'
import { SurfaceMultigrid } from './surfaceMultigrid'
import { PcgSolver } from '../core/pcg'
import { TS_KERNELS } from '../core/kernelBackend'
import type { KernelBackend } from '../core/kernelTypes'
import { copyCsr, csrFromTriplets, type CsrMatrix, symmetrised } from '../core/sparse/csr'
import { SparseVectorOps } from '../core/sparse/ops'
import { AXPY_BLOCKS, SPARSE_BLOCK } from '../core/sparse/rows'
import { PressureGuess } from '../core/pressureGuess'
import { PatchOperator, type PatchStencil } from './patchStencil'
import type { SurfaceGrid } from './surfaceGrid'
import type { SurfaceMetric } from './surfaceMetric'

/** The symmetric Laplacian of a closed surface (constants removed from the residuals). */
class ClosedSurfaceOperator extends PatchOperator {
  private readonly ops: SparseVectorOps
  /** All ones: the null space, and what the mean is taken against. */
  private readonly ones: Float64Array
  constructor(A: CsrMatrix, stencil: PatchStencil | null, kernels: KernelBackend) {
    super(A, stencil, kernels)
    this.ops = new SparseVectorOps(A.n, kernels)
    this.ones = kernels.f64(A.n).fill(1)
  }
  /** v -= mean(v), as kernel rows (the sum in fixed blocks: the same bits on any thread count). */
  removeNullSpace(v: Float64Array): void {
    const { ops, ones } = this
    ops.axpy(v, -ops.dot(v, ones) / v.length, ones)
  }
}

/** The node term's two difference vectors over (c00, c10, c01, c11): along x and along y. */
const NODE_A = [-1, 1, -1, 1]
const NODE_B = [-1, -1, 1, 1]

export class SurfaceProjection {
  readonly A: CsrMatrix
  /** Unknown index of every cell sample (ghosts: the neighbour's cell they copy), -1 where none. */
  readonly unknownOf: Int32Array
  private readonly op: ClosedSurfaceOperator
  private readonly pcg: PcgSolver
  readonly pre: SurfaceMultigrid
  private readonly b: Float64Array
  readonly p: Float64Array
  /** The next step solve's start (core/pressureGuess.ts): p extrapolated from the last two. */
  readonly guess: PressureGuess
  private readonly dfx: Float64Array
  private readonly dfy: Float64Array
  /** unknownOf in the kernels' memory, and the correction row's face and node weights. */
  private readonly unknownOfK: Int32Array
  private readonly wX: Float64Array
  private readonly wY: Float64Array
  private readonly wN: Float64Array

  /** kernels: where the solve's products, sweeps and vector updates run (its memory holds A and the vectors). */
  constructor(
    readonly grid: SurfaceGrid,
    readonly metric: SurfaceMetric,
    readonly kernels: KernelBackend = TS_KERNELS,
  ) {
    const { N, P } = grid
    const n = P * N * N
    this.unknownOf = new Int32Array(P * grid.cellBlock).fill(-1)
    for (let p = 0; p < P; p++) for (let j = 0; j < N; j++) for (let i = 0; i < N; i++) this.unknownOf[grid.cell(p, i, j)] = grid.unknown(p, i, j)
    const { dst, src } = grid.cellGhosts
    for (let t = 0; t < dst.length; t++) this.unknownOf[dst[t]] = this.unknownOf[src[t]]
    // The terms' weights (sec. 3.2's w = sqrt(g) g^ij at the samples), halved on a patch's
    // edge (the neighbour adds the other half); a corner node has no mixed term (0). The
    // matrix and the correction row both read them.
    this.unknownOfK = kernels.i32(this.unknownOf.length)
    this.unknownOfK.set(this.unknownOf)
    this.wX = kernels.f64(P * grid.xBlock)
    this.wY = kernels.f64(P * grid.yBlock)
    this.wN = kernels.f64(P * (N + 1) * (N + 1))
    const { xFaces, yFaces, nodes } = metric
    for (let p = 0; p < P; p++) {
      for (let j = 0; j < N; j++) for (let i = 0; i <= N; i++) {
        const f = grid.xFace(p, i, j)
        this.wX[f] = xFaces.sqrtG[f] * xFaces.g11[f] * SurfaceProjection.share(i === 0 || i === N)
      }
      for (let j = 0; j <= N; j++) for (let i = 0; i < N; i++) {
        const f = grid.yFace(p, i, j)
        this.wY[f] = yFaces.sqrtG[f] * yFaces.g22[f] * SurfaceProjection.share(j === 0 || j === N)
      }
      for (let j = 0; j <= N; j++) for (let i = 0; i <= N; i++) {
        const edgeI = i === 0 || i === N, edgeJ = j === 0 || j === N
        const k = p * (N + 1) * (N + 1) + i + (N + 1) * j
        this.wN[k] = edgeI && edgeJ ? 0 : nodes.sqrtG[k] * nodes.g12[k] * SurfaceProjection.share(edgeI || edgeJ)
      }
    }
    this.A = copyCsr(this.assemble(), kernels)
    this.pcg = new PcgSolver(new SparseVectorOps(n, kernels))
    // Multigrid over patch aggregates: 15 PCG iterations a step on the 450-patch cage at 16^2
    // where symmetric Gauss-Seidel took 341 (7x less time). The product reads A through the
    // finest level's stencil planes (one copy for both).
    this.pre = new SurfaceMultigrid(this.A, P, N, kernels)
    this.op = new ClosedSurfaceOperator(this.A, this.pre.finestStencil, kernels)
    this.b = kernels.f64(n)
    this.p = kernels.f64(n)
    this.guess = new PressureGuess(n, kernels)
    this.dfx = kernels.f64(P * grid.xBlock)
    this.dfy = kernels.f64(P * grid.yBlock)
  }

  /** Weight of an edge sample: 1 inside the patch, 1/2 on its edge (the neighbour adds the other half). */
  private static share(onEdge: boolean): number {
    return onEdge ? 0.5 : 1
  }

  /** Calls fn for each x-face term (cells lo, hi as unknowns, weight), then each y-face term, then each node term with a weight. */
  private forTerms(
    face: (lo: number, hi: number, w: number) => void,
    node: (c00: number, c10: number, c01: number, c11: number, w: number) => void,
  ): void {
    const { grid, unknownOf: u, wX, wY, wN } = this
    const { N, P } = grid
    for (let p = 0; p < P; p++) {
      for (let j = 0; j < N; j++) for (let i = 0; i <= N; i++) face(u[grid.cell(p, i - 1, j)], u[grid.cell(p, i, j)], wX[grid.xFace(p, i, j)])
      for (let j = 0; j <= N; j++) for (let i = 0; i < N; i++) face(u[grid.cell(p, i, j - 1)], u[grid.cell(p, i, j)], wY[grid.yFace(p, i, j)])
      for (let j = 0; j <= N; j++) for (let i = 0; i <= N; i++) {
        const w = wN[p * (N + 1) * (N + 1) + i + (N + 1) * j]
        // (0 at the corners too: no mixed term there.)
        if (w === 0) continue
        node(u[grid.cell(p, i - 1, j - 1)], u[grid.cell(p, i, j - 1)], u[grid.cell(p, i - 1, j)], u[grid.cell(p, i, j)], w)
      }
    }
  }

  private assemble(): CsrMatrix {
    // Triplets in typed arrays sized for the most there can be (4 a face, 8 a node: the node
    // term below has 8 non-zero entries): at 450 x 32^2 that is 7.7 million, which plain arrays
    // grown by push took 2.2 s to collect.
    const { N, P } = this.grid
    const most = 4 * 2 * P * N * (N + 1) + 8 * P * (N + 1) * (N + 1)
    const rows = new Int32Array(most), cols = new Int32Array(most), vals = new Float64Array(most)
    let m = 0
    const add = (r: number, c: number, v: number): void => {
      rows[m] = r
      cols[m] = c
      vals[m++] = v
    }
    const cs = new Int32Array(4)
    this.forTerms(
      (lo, hi, w) => { add(lo, lo, w); add(hi, hi, w); add(lo, hi, -w); add(hi, lo, -w) },
      (c00, c10, c01, c11, w) => {
        // a = (-1, +1, -1, +1), b = (-1, -1, +1, +1) over (c00, c10, c01, c11); A += (w / 4)(a b^T + b a^T).
        cs[0] = c00; cs[1] = c10; cs[2] = c01; cs[3] = c11
        for (let r = 0; r < 4; r++) for (let c = 0; c < 4; c++) {
          const v = (w / 4) * (NODE_A[r] * NODE_B[c] + NODE_B[r] * NODE_A[c])
          if (v !== 0) add(cs[r], cs[c], v)
        }
      },
    )
    const n = P * N * N
    // Each pair of mirror entries is summed from the same terms in different orders, so the
    // two can differ in the last bit: averaged, they are equal, as PCG assumes and the float32
    // planes' symmetric layout needs (patchStencil32.ts).
    return symmetrised(csrFromTriplets(n, n, rows.subarray(0, m), cols.subarray(0, m), vals.subarray(0, m)))
  }

  /** Net outflux of every cell, sum of h F over its faces (h sqrt(g) times the divergence of u, per cell): a kernel row over patches. */
  divergence(fx: Float64Array, fy: Float64Array, out: Float64Array): void {
    const { grid } = this
    this.kernels.run(SURFACE_DIVERGENCE, fx, fy, out, grid.N, grid.h, 1, grid.P)
  }

  /**
   * Projects the flux densities (fx, fy; shared edge faces already equal) in place; the ghost
   * faces are refilled afterwards. Returns the PCG figures. p warm-starts from the last solve;
   * this solve starts no step history (fluxes set directly are no step's: projectStep).
   */
  project(fx: Float64Array, fy: Float64Array, tolerance = 1e-6, maxIterations = 2000): SolveStats {
    return this.guess.around(this.p, undefined, () => this.solve(fx, fy, tolerance, maxIterations))
  }

  /**
   * project() at the end of a step of length dt, PCG starting from p extrapolated in time from
   * the last two step solves (core/pressureGuess.ts). Measured on the same two scenes: the
   * A-norm-optimal guess on span{p_n, p_n - p_(n-1)} (4.0 iterations a step at 450 x 32^2 and
   * 5.40 a solve over 48 frames of the painted torus, against 4.0 and 5.47 extrapolated: no
   * better, and it needs four more vectors and their products), and Fischer's projection onto
   * the last L solutions (1998; L = 8: 4.2 and 4.89, L = 16: 4.15 and 4.69, each step passing
   * over L + 1 vectors four times, about an iteration's worth of bytes).
   */
  projectStep(fx: Float64Array, fy: Float64Array, dt: number, tolerance = 1e-6, maxIterations = 2000): SolveStats {
    return this.guess.around(this.p, dt, () => this.solve(fx, fy, tolerance, maxIterations))
  }

  private solve(fx: Float64Array, fy: Float64Array, tolerance: number, maxIterations: number): SolveStats {
    const { grid, b, p } = this
    // The correction's divergence is A p: A p = -div F, the divergence negated in the same row.
    // (p warm-starts from the last solve.)
    this.kernels.run(SURFACE_DIVERGENCE, fx, fy, b, grid.N, grid.h, -1, grid.P)
    const stats = this.pcg.solve(this.op, this.pre, b, p, { tolerance, maxIterations })
    this.correction(p)
    // dF is in units of h F (a difference of p): F += dF / h, as F += (1/h) dF on the kernels'
    // threads (the TypeScript loops took 2.4 ms a step at 450 x 32^2).
    const inv = 1 / grid.h
    this.kernels.run(AXPY_BLOCKS, fx, inv, this.dfx, fx.length, SPARSE_BLOCK)
    this.kernels.run(AXPY_BLOCKS, fy, inv, this.dfy, fy.length, SPARSE_BLOCK)
    grid.closeOpenEdges(fx, fy)
    grid.fillVector(fx, fy)
    return stats
  }

  /** dF = -(1/2) dE/dd on every real face for the potential p (the shared faces' halves summed). */
  private correction(pot: Float64Array): void {
    const { grid } = this
    const dfx = this.dfx, dfy = this.dfy
    // Each face's own term, then the mixed terms of its two nodes: a node's two x-faces get
    // -(w/4)(b . p), its two y-faces -(w/4)(a . p); at an edge node one of them is a ghost
    // face, passed on to the neighbour's face below (surfaceCorrectionKernels.ts).
    this.kernels.run(SURFACE_CORRECTION, pot, this.unknownOfK, this.wX, this.wY, this.wN, dfx, dfy, grid.N, grid.P)
    // Ghost faces hold what belongs to the neighbour's face they copy (the transpose of fillVector).
    {
      const { dst, srcKind, src, sign } = grid.faceGhosts
      const nx = dfx.length
      for (let t = 0; t < dst.length; t++) {
        const d = dst[t]
        const v = d < nx ? dfx[d] : dfy[d - nx]
        if (v === 0) continue
        if (srcKind[t] === 1) dfx[src[t]] += sign[t] * v
        else dfy[src[t]] += sign[t] * v
        if (d < nx) dfx[d] = 0
        else dfy[d - nx] = 0
      }
    }
    // Each copy of a shared face holds its own patch's half: both take the sum.
    const { dst, srcKind, src, sign } = grid.shared
    const nx = dfx.length
    for (let t = 0; t < dst.length; t++) {
      const d = dst[t]
      const a = d < nx ? dfx[d] : dfy[d - nx]
      const s = sign[t]
      const bv = srcKind[t] === 1 ? dfx[src[t]] : dfy[src[t]]
      const sum = a + s * bv
      if (d < nx) dfx[d] = sum
      else dfy[d - nx] = sum
      if (srcKind[t] === 1) dfx[src[t]] = s * sum
      else dfy[src[t]] = s * sum
    }
  }
}
