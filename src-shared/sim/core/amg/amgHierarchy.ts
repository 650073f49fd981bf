// Algebraic multigrid as Chentanez et al. 2007 (sec. 3.5, "Algebraic Multigrid for
// Incompressibility") use it for the pressure Poisson equation (their eq. 5) on tetrahedral
// meshes: only the matrix, not the geometry, defines the hierarchy A_q (finest) .. A_1.
//
// Setup (once per matrix), per level k (or, with coarsening: 'aggregation', smoothed
// aggregation's aggregates and prolongation, aggregation.ts, in place of the first two). Only
// the greedy splitting (a priority queue) and the simple averages run in TypeScript; the
// aggregates, both prolongations, R = P^T, the Galerkin product, its symmetrisation and the
// finest level's colouring are kernel rows in the kernels' memory (aggregationKernels.ts,
// prolongationKernels.ts, sparse/csrKernels.ts, sparse/product.ts):
// - the greedy coarse/fine splitting (coarsening.ts);
// - P_{k,k-1}: simple averages of coarse neighbours (prolongation.ts), by default with each
//   fine row then relaxed once against its own equation: the one measured departure from the
//   paper (V-cycle factor about 0.05 instead of 0.36-0.46 on 3D Poisson, 10k-250k unknowns;
//   prolongation: 'average' gives the paper's exactly; numbers in prolongation.ts);
// - "For restriction, we use the popular Galerkin projection method [TOS01], in which
//   R_{k-1,k} = P_{k,k-1}^T", and "A_{k-1} = R_{k-1,k} A_k P_{k,k-1}" (csr.ts galerkin), the
//   product symmetrised to the last bit ((A_c + A_c^T) / 2; it is symmetric up to rounding) so
//   Gauss-Seidel's forward and backward sweeps are exact adjoints;
// - down to "a linear system small enough to solve quickly with a direct method": at most
//   coarsestSize (64) unknowns, or where coarsening stalls, solved by dense Cholesky
//   (denseCholesky.ts; symmetric Gauss-Seidel sweeps stand in if that level is still large).
//
// Cycles (every per-iteration step a kernel-table row on the backend `kernels`: Gauss-Seidel
// by colours, residual, restriction R r and prolongation x += P x_c as sparse products, so the
// WebAssembly backend splits them across its threads with the same bits on any thread count;
// only the coarsest dense solve runs serially on the calling thread):
// - VCYCLEMULTIGRID(x_k, b_k, k) exactly as the paper lists it: relaxation S, "We use two
//   Gauss-Seidel iterations", the restricted residual solved recursively from w = 0, the
//   prolonged correction added, S again. On the finest level Gauss-Seidel is multicoloured
//   (ops.ts MulticolorGaussSeidel): forward colour order before the coarse correction,
//   backward after. The coarser levels (default coarseSmoother: 'blocks') sweep fixed blocks of
//   rows in row order, each block reading the others' unknowns as the sweep found them (ops.ts
//   BlockGaussSeidel; BoomerAMG's default "hybrid" Gauss-Seidel is this, with a block per
//   process), backward in reverse: a Galerkin level's greedy colouring needs many colours (19
//   and 47 on the ramp jet's hybrid mesh, each a pass of scattered rows and a wait for the
//   threads), where a block sweep streams its rows once. Measured on that mesh's 126,175
//   unknowns (random right-hand side, 1e-6, 2 threads): 7 PCG iterations either way, a V-cycle
//   16.1 -> 9.6 ms, a solve 113-118 -> 74-80 ms; blocks on the finest level too took 8
//   iterations and a 12.5 ms cycle. Either way post-smoothing is the adjoint of pre-smoothing
//   and one cycle from x = 0 is a fixed symmetric positive definite map of b:
//   AmgPreconditioner, the paper's multigrid "also as a preconditioner for CG" (issue 15).
// - FULLCYCLEMULTIGRID(x, b), "We use full-cycle multigrid, which uses V-cycle multigrid as a
//   subroutine": the residual restricted to every level, solved exactly on the coarsest, then
//   level by level prolonged and improved by V-cycles (the paper's listing does one; cycles
//   per level is a parameter), finally added to x.
//
// Closed (pure Neumann) systems: P reproduces constants (to rounding on the Galerkin levels
// with the relaxed rows), so every A_k keeps the constant null space and the coarsest dense solve grounds one unknown (denseCholesky.ts); the cycle is then
// symmetric positive semi-definite, and PCG removes the null space from b and from each
// preconditioned residual (pcg.ts).
import { TS_KERNELS } from '../kernelBackend'
import type { KernelBackend } from '../kernelTypes'
import type { Preconditioner } from '../pcg'
import { copyCsr, type CsrMatrix, nnzOf } from '../sparse/csr'
import { symmetrisedOn, transposeCsrOn } from '../sparse/csrKernels'
import { galerkinOn } from '../sparse/product'
import { BlockGaussSeidel, MulticolorGaussSeidel, prolongAddCsr, restrictCsr, spResidual } from '../sparse/ops'
import { AXPY_BLOCKS, SPARSE_BLOCK } from '../sparse/rows'
import { greedyAggregates, smoothedAggregationProlongation } from './aggregation'
import { greedySplitting } from './coarsening'
import { DenseCholesky } from './denseCholesky'
import { averagingProlongation, relaxedProlongation } from './prolongation'

export interface AmgOptions {
  /** Runs the cycles and allocates the levels (default: TypeScript reference kernels). */
  kernels?: KernelBackend
  /**
   * Strength threshold of the splitting (coarsening.ts): 0 (default) is the paper's
   * neighbour relation, A_ij non-zero; > 0 the classical |A_ij| >= theta max_k |A_ik|.
   */
  theta?: number
  /** Gauss-Seidel sweeps before and (mirrored) after the coarse correction; default 2, the paper's. */
  sweeps?: number
  /** Stop coarsening at this many unknowns or fewer; default 64. */
  coarsestSize?: number
  /** At most this many levels; default 30. */
  maxLevels?: number
  /** The coarsest level is factored densely up to this size, else relaxed; default 2000. */
  maxDenseSize?: number
  /** Symmetric Gauss-Seidel sweep pairs on a coarsest level too large to factor; default 20. */
  coarsestSweeps?: number
  /**
   * 'relaxed' (default): the paper's simple averages with each fine row relaxed once against
   * its own equation; 'average': the paper's simple averages alone (prolongation.ts header
   * has the measurements behind the default).
   */
  prolongation?: 'relaxed' | 'average'
  /**
   * Gauss-Seidel below the finest level: 'blocks' (default) sweeps fixed blocks of rows
   * (ops.ts BlockGaussSeidel), 'colours' colour by colour as the finest level does (the header
   * has the measurements).
   */
  coarseSmoother?: 'blocks' | 'colours'
  /**
   * 'splitting' (default): the paper's greedy coarse/fine splitting with the prolongation
   * above; 'aggregation': smoothed aggregation (aggregation.ts, Vaněk, Mandel and Brezina
   * 1996), whose coarse levels are a fraction of the splitting's (`prolongation` and `theta`
   * are then unused; the header of aggregation.ts has the measurements).
   */
  coarsening?: 'splitting' | 'aggregation'
}

/** A level's relaxation: forward sweeps before the coarse correction, their adjoints after. */
export type AmgSmoother = MulticolorGaussSeidel | BlockGaussSeidel

export interface AmgLevel {
  /** A_k in the backend's memory. */
  readonly A: CsrMatrix
  readonly smoother: AmgSmoother
  /** Prolongation from the next coarser level and R = P^T (null on the coarsest). */
  readonly P: CsrMatrix | null
  readonly R: CsrMatrix | null
  /** This level's unknowns and right-hand side (level 0: allocated on first use by FMG). */
  x: Float64Array
  b: Float64Array
  /** Residual scratch. */
  readonly r: Float64Array
}

/** Stop coarsening when a level keeps more than this fraction of its unknowns. */
const STALL = 0.9

export class AmgHierarchy {
  readonly levels: AmgLevel[] = []
  readonly kernels: KernelBackend
  readonly sweeps: number
  private readonly direct: DenseCholesky | null
  private readonly coarsestSweeps: number

  constructor(A: CsrMatrix, options: AmgOptions = {}) {
    const kernels = options.kernels ?? TS_KERNELS
    this.kernels = kernels
    this.sweeps = options.sweeps ?? 2
    this.coarsestSweeps = options.coarsestSweeps ?? 20
    const theta = options.theta ?? 0
    const relaxed = (options.prolongation ?? 'relaxed') === 'relaxed'
    const blocks = (options.coarseSmoother ?? 'blocks') === 'blocks'
    const aggregation = options.coarsening === 'aggregation'
    const coarsestSize = Math.max(1, options.coarsestSize ?? 64)
    const maxLevels = Math.max(1, options.maxLevels ?? 30)
    const empty = new Float64Array(0)
    // Matrices the kernels read live in the backend's memory (plain arrays serve the default);
    // one already there is read in place (the caller's A too: it must not change while the
    // hierarchy lives).
    const held = (M: CsrMatrix) => kernels.holds(M.rowPtr) && kernels.holds(M.col) && kernels.holds(M.val)
    const own = (M: CsrMatrix) => (kernels === TS_KERNELS || held(M) ? M : copyCsr(M, kernels))
    let cur = A
    for (;;) {
      // The level's matrix first: the prolongation's rows read it on the kernels.
      const Ak = own(cur)
      const last = cur.n <= coarsestSize || this.levels.length + 1 >= maxLevels
      let P: CsrMatrix | null = null
      if (!last && aggregation) {
        const aggregates = greedyAggregates(Ak, kernels)
        if (aggregates.count > 0 && aggregates.count <= STALL * cur.n) P = smoothedAggregationProlongation(Ak, aggregates, kernels)
      } else if (!last) {
        const split = greedySplitting(Ak, theta)
        if (split.coarse > 0 && split.coarse <= STALL * cur.n) P = relaxed ? relaxedProlongation(Ak, split, kernels) : averagingProlongation(split)
      }
      const Pk = P ? own(P) : null
      const Rk = Pk ? transposeCsrOn(kernels, Pk) : null
      // The Galerkin product on the kernels' threads (product.ts: the same bits as galerkin()),
      // from the copies the cycles will read; a fresh matrix of the hierarchy's own, brought into
      // the kernels' memory and symmetrised in place there.
      const coarse = Pk && Rk ? symmetrisedOn(kernels, own(galerkinOn(kernels, Ak, Pk, Rk))) : null
      const first = this.levels.length === 0
      this.levels.push({
        A: Ak,
        smoother: first || !blocks ? new MulticolorGaussSeidel(Ak, kernels) : new BlockGaussSeidel(Ak, kernels),
        P: Pk,
        R: Rk,
        // Level 0 borrows the caller's vectors in a cycle; FMG allocates its own on first use.
        x: first ? empty : kernels.f64(cur.n),
        b: first ? empty : kernels.f64(cur.n),
        r: P ? kernels.f64(cur.n) : empty,
      })
      if (!coarse) break
      cur = coarse
    }
    const bottom = this.levels[this.levels.length - 1]
    this.direct = bottom.A.n <= (options.maxDenseSize ?? 2000) ? new DenseCholesky(bottom.A) : null
    if (this.levels.length === 1) {
      bottom.x = kernels.f64(bottom.A.n)
      bottom.b = kernels.f64(bottom.A.n)
    }
  }

  /** Unknowns per level, finest first. */
  get sizes(): number[] {
    return this.levels.map((l) => l.A.n)
  }

  /** Sum of the levels' nonzeros over the finest level's (the storage and smoothing cost factor). */
  get operatorComplexity(): number {
    let s = 0
    for (const l of this.levels) s += nnzOf(l.A)
    return s / nnzOf(this.levels[0].A)
  }

  /** Unknowns dropped by the coarsest direct solve for a zero pivot (1 for a connected closed system). */
  get groundedUnknowns(): number {
    return this.direct ? this.direct.dropped : 0
  }

  /** x_1 = A_1^-1 b_1 on the coarsest level. */
  private solveCoarsest(x: Float64Array, b: Float64Array): void {
    const L = this.levels[this.levels.length - 1]
    if (this.direct) {
      this.direct.solve(b, x)
      return
    }
    x.fill(0)
    for (let s = 0; s < this.coarsestSweeps; s++) L.smoother.symmetricSweep(x, b)
  }

  /** VCYCLEMULTIGRID(x, b, level l) from the guess in x (levels numbered finest = 0). */
  private cycle(l: number, x: Float64Array, b: Float64Array): void {
    const { kernels, levels, sweeps } = this
    const L = levels[l]
    if (l === levels.length - 1) {
      this.solveCoarsest(x, b)
      return
    }
    const C = levels[l + 1]
    // x <- S(A_k, x, b): forward colour sweeps.
    for (let s = 0; s < sweeps; s++) L.smoother.sweep(x, b, true)
    // r_{k-1} <- R (b - A x); w <- 0; VCYCLE(w, r_{k-1}).
    spResidual(kernels, L.A, x, b, L.r)
    restrictCsr(kernels, L.R!, L.r, C.b)
    C.x.fill(0)
    this.cycle(l + 1, C.x, C.b)
    // x <- x + P w; x <- S(A_k, x, b): backward colour sweeps (the adjoint).
    prolongAddCsr(kernels, L.P!, C.x, x)
    for (let s = 0; s < sweeps; s++) L.smoother.sweep(x, b, false)
  }

  /**
   * One V-cycle on the finest level from the guess in x (x, b of length n in the backend's
   * memory): x <- VCYCLEMULTIGRID(x, b, q).
   */
  vcycle(x: Float64Array, b: Float64Array): void {
    this.cycle(0, x, b)
  }

  /**
   * FULLCYCLEMULTIGRID(x, b): x += the full-multigrid approximation of A^-1 (b - A x), with
   * `cyclesPerLevel` V-cycles on each level after prolongation (the paper's listing: 1).
   * x and b in the backend's memory.
   */
  fullMultigrid(x: Float64Array, b: Float64Array, cyclesPerLevel = 1): void {
    const { kernels, levels } = this
    const top = levels[0]
    const n = top.A.n
    if (top.b.length !== n) {
      top.b = kernels.f64(n)
      top.x = kernels.f64(n)
    }
    const q = levels.length - 1
    // r_q <- b - A x; r_{k-1} <- R r_k down to the coarsest.
    spResidual(kernels, top.A, x, b, top.b)
    for (let l = 0; l < q; l++) restrictCsr(kernels, levels[l].R!, levels[l].b, levels[l + 1].b)
    // z_1 <- A_1^-1 r_1.
    const bottom = levels[q]
    this.solveCoarsest(bottom.x, bottom.b)
    // z_k <- P z_{k-1}; VCYCLE(z_k, r_k, k), up to the finest.
    for (let l = q - 1; l >= 0; l--) {
      const L = levels[l]
      L.x.fill(0)
      prolongAddCsr(kernels, L.P!, levels[l + 1].x, L.x)
      for (let c = 0; c < cyclesPerLevel; c++) this.cycle(l, L.x, L.b)
    }
    // x <- x + z_q.
    kernels.run(AXPY_BLOCKS, x, 1, top.x, n, SPARSE_BLOCK)
  }
}

/**
 * One V-cycle from zero as a PCG preconditioner: z = V(r), a fixed symmetric positive definite
 * linear map (semi-definite on a closed system, where PCG projects the null space out).
 * r and z must come from the hierarchy's kernel backend (SparseVectorOps(n, kernels) does).
 */
export class AmgPreconditioner implements Preconditioner {
  readonly hierarchy: AmgHierarchy

  constructor(A: CsrMatrix | AmgHierarchy, options: AmgOptions = {}) {
    this.hierarchy = A instanceof AmgHierarchy ? A : new AmgHierarchy(A, options)
  }

  apply(r: Float64Array, z: Float64Array): void {
    z.fill(0)
    this.hierarchy.vcycle(z, r)
  }
}
