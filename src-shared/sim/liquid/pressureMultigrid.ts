// Geometric multigrid preconditioner for the ghost-fluid pressure (ghostFluid.ts): MGPCG for a
// free-surface liquid (McAdams, Sifakis and Teran 2010, "A parallel multigrid Poisson solver for
// fluids simulation on large grids"), whose point is an iteration count that stays near flat
// as the grid grows, where incomplete Cholesky's grows with it.
//
// What it inverts. The assembled matrix m itself on the finest level (a 7-point M-matrix over
// the liquid cells: its diagonal holds the ghost-fluid terms w / theta of the faces to air and
// w of the open sides, the Dirichlet "excess" d - sum of links), smoothed by red-black
// Gauss-Seidel. The extra rank-6 terms of coupled bodies (coupledWalls.ts) are left to CG, as
// MIC(0) leaves them.
//
// Coarse levels, by 2 on every axis (ceil(n/2)), as in viscousMultigrid.ts: the exact Galerkin
// product P^T A P with P the aggregation (a coarse cell's value copied to its 2x2x2 children),
// which keeps the 7-point form: a coarse link is the sum of the fine links crossing the coarse
// face, a coarse cell's excess the sum of its children's (so the air and the obstacles'
// fractions carry down), links inside a coarse cell cancel. A coarse cell is an unknown when
// any child is. The transfers are that P and alpha P^T, alpha = OVER_CORRECTION: plain
// aggregation's coarse correction is too weak for a Poisson problem and over-correcting it by
// about 2 restores the convergence of smooth transfers (the over-correction known from
// aggregation AMG, Braess 1995). Each level starts from x = 0 (its first half sweep takes x as
// 0: no clearing pass); two red-black sweeps before the coarse correction and two black-red
// after (the adjoint); the coarsest level (at most PRESSURE_DENSE_MAX unknowns) is solved by a
// dense Cholesky factor.
//
// Why this is a valid CG preconditioner. The cycle is symmetric (adjoint smoothing, restriction
// a multiple of P^T) and each coarse operator SPD (a Galerkin product of an SPD matrix), and
// Gauss-Seidel converges on an SPD matrix, so the V-cycle is the smoother's symmetric positive
// definite part plus a positive semi-definite coarse correction: positive definite whatever
// alpha and the coarse operators' accuracy.
//
// Measured on the gears-and-bunnies pressure (130k unknowns in a 64x68x64 grid, tolerance
// 1e-5, from zero): 7 CG iterations against MIC(0)'s 40-43. The same with the stencil
// re-discretised at 2h (the aggregation product / 4) and the smoke solver's trilinear transfers
// (core/multigrid.ts): 7, at four times the transfers' cost.
//
// Layout: each level is a Stencil7Matrix-shaped operator (diag, ax / ay / az coupling a cell
// with its +x / +y / +z neighbour; stencil7.ts), unpadded, so the finest level is the assembled
// matrix itself and the cycle reads and writes the solve's own vectors (nothing is copied in
// or out). Its unknowns are listed by colour with their coordinates, and the sweeps, residual
// and transfers visit only these (pressureMgKernels.ts's rows, on the solve's kernel backend):
// the cycle's cost follows the liquid, not the box. A red-black sweep is one pass over the
// planes, each colour's cells of a plane found by at (indexPlanes), one block of planes a
// thread: on the gears and bunnies' 139k unknowns it took 0-7% less time than two half sweeps.
import { DenseCholesky } from '../core/amg/denseCholesky'
import { TS_KERNELS } from '../core/kernelBackend'
import type { KernelBackend } from '../core/kernelTypes'
import type { Preconditioner } from '../core/pcg'
import type { Stencil7Arrays } from './activeKernels'
import { PACK_BITS, PMG_PROLONG, PMG_RESIDUAL, PMG_RESTRICT, PMG_SMOOTH, PMG_SMOOTH_SEAMS } from './pressureMgKernels'
import { listByColour, PMG_COARSE } from './pressureMgSetupKernel'
import type { Stencil7Matrix } from './stencil7'

/** Largest coarsest level solved by a dense Cholesky factor (its cube / 3 flops a setup). */
export const PRESSURE_DENSE_MAX = 220
/** Red-black sweep pairs before (and, mirrored, after) each coarse correction. */
export const PRESSURE_SMOOTHING_SWEEPS = 2
/**
 * The coarse correction's over-correction: plain aggregation's Galerkin correction is too weak
 * on a Poisson problem (constants are all P reproduces), and scaling it by about 2 restores
 * the convergence of smooth transfers (gears and bunnies, 130k unknowns, tolerance 1e-5: 17-18
 * CG iterations unscaled, 9-10 at 1.5, 7-8 at 1.8, 7 at 2, as with trilinear transfers).
 */
export const OVER_CORRECTION = 2

/** One level of the hierarchy on an sx * sy * sz lattice. */
class Level {
  readonly n: number
  readonly plane: number
  /** The operator: the assembled matrix's arrays on the finest level, the level's own below. */
  m: Stencil7Arrays
  /** Solution and right-hand side: the solve's z and r on the finest level. */
  x: Float64Array
  b: Float64Array
  /** Residual: 0 wherever the cell is not an unknown (the restriction reads a coarse cell's every child). */
  readonly r: Float64Array
  /** The unknowns, red ((i + j + k) even) in [0, redCount), black after, and their packed i, j, k. */
  readonly order: Int32Array
  readonly ijk: Int32Array
  redCount = 0
  activeCount = 0
  /** list()'s red count and unknowns (listByColour's result). */
  private readonly listed = new Int32Array(2)
  /**
   * Where each colour's cells of each lattice plane start in order: at[colour * (sz + 1) + k]
   * (k = sz: the colour's end), and the planes' cut into one block a thread (cuts[t] ..
   * cuts[t + 1], about equal unknowns): the fused sweep's (pmgSmoothSlab) layout.
   */
  private readonly at: Int32Array
  private readonly cuts: Int32Array
  private readonly blocks: number
  /** Unknowns in the planes the fused sweep leaves to pmgSmoothSeamsSlab (both colours). */
  private seamCells = 0
  /** listFrom's black cells and their coordinates, before they join the list. */
  private blackScratch = new Int32Array(0)
  private blackIjkScratch = new Int32Array(0)

  constructor(
    readonly sx: number,
    readonly sy: number,
    readonly sz: number,
    private readonly kernels: KernelBackend,
    finest: boolean,
  ) {
    this.n = sx * sy * sz
    this.plane = sx * sy
    const n = this.n
    const none = new Float64Array(0)
    this.m = finest ? { diag: none, ax: none, ay: none, az: none } : { diag: kernels.f64(n), ax: kernels.f64(n), ay: kernels.f64(n), az: kernels.f64(n) }
    this.x = finest ? none : kernels.f64(n)
    this.b = finest ? none : kernels.f64(n)
    this.r = kernels.f64(n)
    this.order = kernels.i32(n)
    this.ijk = kernels.i32(n)
    this.at = kernels.i32(2 * (sz + 1))
    this.blocks = Math.max(1, Math.min(kernels.threads, sz))
    this.cuts = kernels.i32(this.blocks + 1)
  }

  /** Fills at and cuts from the list (after list(), listFrom() or fillCoarse()). */
  indexPlanes(): void {
    const { order, at, cuts, sz, plane, blocks } = this
    const red = this.redCount, count = this.activeCount
    for (let colour = 0; colour < 2; colour++) {
      const base = colour * (sz + 1)
      const end = colour === 0 ? red : count
      // Each colour's cells increase: the first at or after plane k by bisection from plane k - 1's.
      let lo = colour === 0 ? 0 : red
      for (let k = 0; k <= sz; k++) {
        const bound = k * plane
        let hi = end
        while (lo < hi) {
          const mid = (lo + hi) >> 1
          if (order[mid] < bound) lo = mid + 1
          else hi = mid
        }
        at[base + k] = lo
      }
    }
    // Unknowns in planes [0, k): at[k] reds and at[sz + 1 + k] - red blacks.
    const below = (k: number) => at[k] + at[sz + 1 + k] - red
    cuts[0] = 0
    let k = 0
    for (let t = 1; t < blocks; t++) {
      const target = Math.floor((count * t) / blocks)
      while (k < sz && below(k) < target) k++
      cuts[t] = k
    }
    cuts[blocks] = sz
    let seams = 0
    for (let t = 0; t < blocks; t++) {
      const k0 = cuts[t], k1 = cuts[t + 1]
      if (k1 <= k0) continue
      if (k0 > 0) seams += below(k0 + 1) - below(k0)
      if (k1 < sz && k1 - 1 !== (k0 > 0 ? k0 : -1)) seams += below(k1) - below(k1 - 1)
    }
    this.seamCells = seams
  }

  /**
   * Clears the finest level's r at the last list's cells: the restriction reads it at cells
   * that are not unknowns, where it must be 0, and nothing else writes it. (A coarse level's r
   * and x are cleared by the setup row that relists it, pressureMgSetupKernel.ts.)
   */
  private forget(): void {
    const { order, r } = this
    for (let t = 0; t < this.activeCount; t++) r[order[t]] = 0
  }

  /**
   * The finest level's list from the solve's unknowns (cells[0 .. count), increasing): red
   * cells first, each colour in index order, as list() would find them.
   */
  listFrom(cells: Int32Array, count: number): void {
    this.forget()
    const { sx, sy, order, ijk } = this
    // The cells increase, so their row and plane are followed instead of divided out (two
    // integer divisions a cell were most of this pass); the packed i, j, k go to ijk in list
    // order first and are moved with their cells below.
    let red = 0
    let j = 0, k = 0, row = 0
    for (let t = 0; t < count; t++) {
      const c = cells[t]
      while (c >= row + sx) {
        row += sx
        if (++j === sy) (j = 0), k++
      }
      const i = c - row
      const p = i | (j << PACK_BITS) | (k << (2 * PACK_BITS))
      ijk[t] = p
      if (((i + j + k) & 1) === 0) red++
    }
    // Reds first, each colour in index order: the blacks go to the tail of order while the
    // reds are compacted in place (a red's slot is never after its list position).
    const black = this.blackScratch.length >= count - red ? this.blackScratch : (this.blackScratch = new Int32Array(count))
    const blackIjk = this.blackIjkScratch.length >= count - red ? this.blackIjkScratch : (this.blackIjkScratch = new Int32Array(count))
    let rp = 0, bp = 0
    const mask = (1 << PACK_BITS) - 1
    for (let t = 0; t < count; t++) {
      const c = cells[t], p = ijk[t]
      if ((((p & mask) + ((p >> PACK_BITS) & mask) + (p >> (2 * PACK_BITS))) & 1) === 0) {
        order[rp] = c
        ijk[rp++] = p
      } else {
        black[bp] = c
        blackIjk[bp++] = p
      }
    }
    order.set(black.subarray(0, bp), rp)
    ijk.set(blackIjk.subarray(0, bp), rp)
    this.redCount = red
    this.activeCount = count
  }

  /** Lists the finest level's unknowns (diag != 0) by colour with their coordinates (after forgetting the last list's). */
  list(): void {
    this.forget()
    listByColour(this.m.diag, this.sx, this.sy, this.sz, this.order, this.ijk, this.listed)
    this.redCount = this.listed[0]
    this.activeCount = this.listed[1]
  }

  /**
   * A red-black sweep, colour `first`'s cells then the other's, in one pass over the planes
   * (pmgSmoothSlab, then the planes it leaves between the threads' blocks); fresh: the first
   * half takes x as 0.
   */
  smooth(first: number, fresh: boolean): void {
    const { x, b, m, order, at, cuts, sx, plane, n, sz, blocks } = this
    this.kernels.run(PMG_SMOOTH, x, b, m, order, at, cuts, first, fresh ? 1 : 0, sx, plane, n, sz, this.activeCount, blocks)
    if (blocks > 1) this.kernels.run(PMG_SMOOTH_SEAMS, x, b, m, order, at, cuts, first, sx, plane, n, sz, this.seamCells, blocks)
  }

  residual(): void {
    this.kernels.run(PMG_RESIDUAL, this.r, this.b, this.x, this.m, this.order, this.redCount, this.activeCount, this.sx, this.plane, this.n)
  }
}

/**
 * The coarse level's operator from the fine one's (see the file comment) and its list of
 * unknowns: per fine unknown, its excess diag + couplings (couplings are negative) and the
 * couplings that cross a coarse face go to its coarse cell, and the coarse diagonal is excess -
 * couplings (pressureMgSetupKernel.ts, on the kernels). result: 2 int32 of the kernels' memory.
 */
function fillCoarse(fine: Level, coarse: Level, kernels: KernelBackend, result: Int32Array): void {
  kernels.run(PMG_COARSE, fine.m, fine.order, fine.ijk, fine.activeCount, fine.sx, fine.sy, fine.sz, coarse.m, coarse.order, coarse.ijk, coarse.r, coarse.x, coarse.activeCount, coarse.sx, coarse.sy, coarse.sz, result)
  coarse.redCount = result[0]
  coarse.activeCount = result[1]
}

/** Dense Cholesky factor of a level's operator over its unknowns (the coarsest level). */
class DenseSolve {
  private ids = new Int32Array(0)
  private chol = new DenseCholesky({ n: 0, dense: new Float64Array(0) })
  private y = new Float64Array(0)

  factor(L: Level): void {
    const { sx, plane, n } = L
    const { diag, ax, ay, az } = L.m
    const where = new Int32Array(n).fill(-1)
    const ids: number[] = []
    for (let c = 0; c < n; c++) if (diag[c] !== 0) (where[c] = ids.length), ids.push(c)
    const m = ids.length
    const A = new Float64Array(m * m)
    for (let a = 0; a < m; a++) {
      const c = ids[a]
      A[a * m + a] = diag[c]
      const couple = (g: number, v: number) => {
        if (g < 0 || g >= n || v === 0) return
        const col = where[g]
        if (col >= 0) A[a * m + col] += v
      }
      couple(c + 1, ax[c])
      couple(c - 1, c >= 1 ? ax[c - 1] : 0)
      couple(c + sx, ay[c])
      couple(c - sx, c >= sx ? ay[c - sx] : 0)
      couple(c + plane, az[c])
      couple(c - plane, c >= plane ? az[c - plane] : 0)
    }
    this.ids = Int32Array.from(ids)
    this.chol = new DenseCholesky({ n: m, dense: A })
    this.y = new Float64Array(m)
  }

  solve(L: Level): void {
    const { ids, y } = this
    for (let i = 0; i < ids.length; i++) y[i] = L.b[ids[i]]
    this.chol.solve(y, y)
    for (let i = 0; i < ids.length; i++) L.x[ids[i]] = y[i]
  }
}

export class PressureMultigrid implements Preconditioner {
  readonly levels: Level[]
  private readonly dense = new DenseSolve()
  /** Levels the last setup uses (coarsening stops once a level is small enough to factor). */
  private depth = 1
  private readonly kernels: KernelBackend
  /** fillCoarse's red count and unknowns. */
  private readonly coarseResult: Int32Array

  /** kernels: where the sweeps, residuals and transfers run, and where the levels live. */
  constructor(nx: number, ny: number, nz: number, kernels: KernelBackend = TS_KERNELS) {
    this.kernels = kernels
    this.coarseResult = kernels.i32(2)
    const levels = [new Level(nx, ny, nz, kernels, true)]
    for (;;) {
      const last = levels[levels.length - 1]
      if (Math.max(last.sx, last.sy, last.sz) <= 2) break
      const next = new Level((last.sx + 1) >> 1, (last.sy + 1) >> 1, (last.sz + 1) >> 1, kernels, false)
      levels.push(next)
    }
    this.levels = levels
  }

  /**
   * Builds the hierarchy for m (rows with diag 0 are not unknowns); m is read by every apply.
   * cells: m's unknowns in increasing order, when the caller has them (activePcg.ts), else found
   * here by a pass over the lattice.
   */
  setup(m: Stencil7Matrix, cells: Int32Array | null = null, count = 0): void {
    const { levels } = this
    const top = levels[0]
    top.m = m
    if (cells !== null) top.listFrom(cells, count)
    else top.list()
    let d = 1
    while (d < levels.length && levels[d - 1].activeCount > PRESSURE_DENSE_MAX) {
      fillCoarse(levels[d - 1], levels[d], this.kernels, this.coarseResult)
      d++
    }
    this.depth = d
    for (let l = 0; l < d - 1; l++) levels[l].indexPlanes()
    this.dense.factor(levels[d - 1])
  }

  /**
   * z = V-cycle(r) on the unknowns. z must be 0 wherever the cell is not an unknown (PCG's
   * vectors are) and stays so; its values at the unknowns are not read.
   */
  apply(r: Float64Array, z: Float64Array): void {
    const top = this.levels[0]
    top.b = r
    top.x = z
    if (this.depth === 1) {
      this.dense.solve(top)
      return
    }
    this.cycle(0)
  }

  /** levels[l].x = V-cycle of levels[l].b from x = 0. */
  private cycle(l: number): void {
    const L = this.levels[l]
    if (l === this.depth - 1) {
      this.dense.solve(L)
      return
    }
    for (let s = 0; s < PRESSURE_SMOOTHING_SWEEPS; s++) L.smooth(0, s === 0)
    L.residual()
    const C = this.levels[l + 1]
    const k = this.kernels
    k.run(PMG_RESTRICT, C.b, L.r, C.order, C.ijk, OVER_CORRECTION, L.sx, L.sy, L.sz, C.redCount, C.activeCount)
    this.cycle(l + 1)
    k.run(PMG_PROLONG, L.x, C.x, L.order, L.ijk, C.sx, C.plane, L.redCount, L.activeCount)
    for (let s = 0; s < PRESSURE_SMOOTHING_SWEEPS; s++) L.smooth(1, false)
  }
}
