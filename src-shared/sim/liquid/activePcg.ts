// PCG with MIC(0) for the ghost-fluid pressure (ghostFluid.ts) over its unknowns only.
//
// The liquid fills a tenth of a typical domain (the dam break: 3.2k of 32k cells at 32^3), but
// the Stencil7 kernels sweep every cell, most of them rows with diag 0 that only write zeros.
// Here the generic core/pcg.ts PcgSolver runs with an active-cell operator, preconditioner and
// vector ops: every kernel runs over the list of unknown cells (diag != 0, in increasing index
// order) and leaves the other entries at +0, which is exactly what the full sweeps keep there.
// Each kernel evaluates the same expressions in the same order as Stencil7Matrix.apply,
// Stencil7Mic0 (factor, apply) and the grid vector kernels, and reductions add per z-plane
// partial sums in plane order as vectorOps.ts does, so the iterates, iteration counts and
// result are the same bits as PcgSolver on the full grid (tests/unit/sim/liquid compares the
// two).
//
// The product, the vector updates and MIC(0)'s triangular solves are kernel-table rows
// (activeKernels.ts) run on the WebAssembly backend's threads: the first by z-planes, MIC(0)'s
// factor and solves pipelined over bands of grid rows.
import { TS_KERNELS } from '../core/kernelBackend'
import type { KernelBackend } from '../core/kernelTypes'
import { ACTIVE_APPLY, ACTIVE_DOT, ACTIVE_LIST, ACTIVE_MIC_APPLY, ACTIVE_MIC_FACTOR, ACTIVE_ROW_COUNT, ACTIVE_UPDATE_ITERATE, ACTIVE_UPDATE_SEARCH } from './activeKernels'
import { type LinearOperator, PcgSolver, type Preconditioner, type SolveStats, type VectorOps } from '../core/pcg'
import { MIC_SAFETY, MIC_TUNING, type Stencil7Matrix } from './stencil7'
import { SPARSE_BLOCK, ZERO_BLOCKS } from '../core/sparse/rows'
import type { PressurePreconditioner } from './liquidInput'
import { PressureMultigrid } from './pressureMultigrid'

/**
 * Unknowns from which 'auto' preconditions with multigrid. Measured (2 threads, pressure phase
 * in ms/frame, MIC(0) / multigrid): the dam break at 64^3, about 25k unknowns, 37-38 / 45-51;
 * at 96^3 244 / 221; at 128^3 640 / 501; gears and bunnies (130k unknowns, the coupled and the
 * drift solves) about 450 / 290. The cycle's setup and its coarse levels cost about a fixed
 * amount a solve that small systems do not earn back.
 */
export const MULTIGRID_MIN_UNKNOWNS = 50_000

/**
 * The unknown cells of the current system: cells[planeStart[k] .. planeStart[k+1]) lie in
 * plane k, and split into `bands` runs of grid rows j (the same rows in every plane, about
 * equal numbers of unknowns each): band b of plane k is cells[bandStart[k bands + b] ..
 * bandStart[k bands + b + 1]) (activeKernels.ts, MIC(0)'s pipelined solves).
 */
class ActiveCells {
  readonly cells: Int32Array
  readonly planeStart: Int32Array
  readonly bands: number
  readonly bandStart: Int32Array
  /** The solves' per-band finished-plane counters (2 bands). */
  readonly progress: Int32Array
  /** Unknowns per grid row j over all planes, cumulative (ny + 1). */
  private readonly rowWork: Float64Array
  private readonly firstRow: Int32Array
  /** Unknowns per grid row of each plane (ny k + j), from ACTIVE_ROW_COUNT. */
  private readonly rowCount: Int32Array
  count = 0

  constructor(
    readonly nx: number,
    readonly ny: number,
    readonly nz: number,
    readonly kernels: KernelBackend,
  ) {
    this.cells = kernels.i32(nx * ny * nz)
    this.planeStart = kernels.i32(nz + 1)
    this.bands = Math.max(1, Math.min(kernels.threads, ny))
    this.bandStart = kernels.i32(nz * this.bands + 1)
    this.progress = kernels.i32(2 * this.bands)
    this.rowWork = new Float64Array(ny + 1)
    this.rowCount = kernels.i32(ny * nz)
    this.firstRow = new Int32Array(this.bands + 1)
  }

  /**
   * Lists the rows of m with diag != 0, and cuts them into bands: a census of the unknowns
   * per grid row of each plane, then the list, each split over z-planes on the kernels'
   * threads; the bands' bounds come from the census alone.
   */
  gather(m: Stencil7Matrix): void {
    const { nx, ny, nz, planeStart, rowCount, kernels } = this
    const diag = m.diag
    kernels.run(ACTIVE_ROW_COUNT, diag, rowCount, nx, ny, nz)
    let t = 0
    for (let k = 0; k < nz; k++) {
      planeStart[k] = t
      for (let j = 0; j < ny; j++) t += rowCount[ny * k + j]
    }
    planeStart[nz] = t
    this.count = t
    kernels.run(ACTIVE_LIST, diag, this.cells, planeStart, nx * ny, nz)
    this.cutBands()
  }

  /**
   * The cells the solve's kernels can read, as a range of cell indices: the planes holding
   * unknowns and one more each side (the products and MIC(0) read an unknown's six
   * neighbours, every other pass the unknowns alone). Empty when there are none.
   */
  readRange(): [number, number] {
    const { nx, ny, nz, planeStart } = this
    let lo = 0
    while (lo < nz && planeStart[lo + 1] === planeStart[lo]) lo++
    if (lo === nz) return [0, 0]
    let hi = nz - 1
    while (planeStart[hi + 1] === planeStart[hi]) hi--
    return [Math.max(0, lo - 1) * nx * ny, Math.min(nz, hi + 2) * nx * ny]
  }

  /** Rows j of equal shares of the unknowns per band, then each plane's band starts. */
  private cutBands(): void {
    const { ny, nz, planeStart, bands, bandStart, rowWork, firstRow, count, rowCount } = this
    rowWork.fill(0)
    for (let k = 0; k < nz; k++) for (let j = 0; j < ny; j++) rowWork[j] += rowCount[ny * k + j]
    // rowWork -> cumulative (entry j: unknowns in rows below j), then equal shares.
    let sum = 0
    for (let j = 0; j <= ny; j++) {
      const w = rowWork[j]
      rowWork[j] = sum
      sum += w
    }
    firstRow[0] = 0
    let j = 0
    for (let b = 1; b < bands; b++) {
      const target = (count * b) / bands
      while (j < ny && rowWork[j] < target) j++
      firstRow[b] = Math.max(firstRow[b - 1], j)
    }
    firstRow[bands] = ny
    // Band b of plane k starts after the plane's unknowns in rows below firstRow[b].
    for (let k = 0; k < nz; k++) {
      let s = planeStart[k]
      let row = 0
      for (let b = 0; b < bands; b++) {
        const jStart = firstRow[b]
        for (; row < jStart; row++) s += rowCount[ny * k + row]
        bandStart[k * bands + b] = s
      }
    }
    bandStart[nz * bands] = count
  }
}

/** PcgSolver's vector kernels over the unknowns; reductions per plane, planes in order. */
class ActiveVectorOps implements VectorOps {
  readonly n: number
  /** Per-plane partial sums of the reductions. */
  private readonly partial: Float64Array
  /** Vectors handed out of `shared` so far. */
  private lent = 0
  constructor(
    private readonly set: ActiveCells,
    private readonly shared: Float64Array | null,
  ) {
    this.n = set.nx * set.ny * set.nz
    this.partial = set.kernels.f64(set.nz)
  }

  /** The next n values of `shared` (the solve zeroes them: PcgSolver.zeroScratch), else new ones. */
  alloc(): Float64Array {
    const { n, shared } = this
    if (shared !== null && (this.lent + 1) * n <= shared.length) return shared.subarray(this.lent++ * n, this.lent * n)
    return this.set.kernels.f64(n)
  }

  /** Sum over the unknowns of a_c b_c, per plane then planes in order (vectorOps.ts). */
  dot(a: Float64Array, b: Float64Array): number {
    const { kernels, cells, planeStart, nz } = this.set
    return kernels.run(ACTIVE_DOT, a, b, cells, planeStart, this.partial, nz)
  }

  axpy(y: Float64Array, alpha: number, x: Float64Array): void {
    const { cells, count } = this.set
    for (let t = 0; t < count; t++) {
      const c = cells[t]
      y[c] += alpha * x[c]
    }
  }

  /** x += alpha s; r -= alpha q; |r|^2 per plane then in plane order (updateIterateSlab). */
  updateIterate(x: Float64Array, r: Float64Array, s: Float64Array, q: Float64Array, alpha: number): number {
    const { kernels, cells, planeStart, nz } = this.set
    return kernels.run(ACTIVE_UPDATE_ITERATE, x, r, s, q, alpha, cells, planeStart, this.partial, nz)
  }

  /** s = z + beta s on the unknowns (updateSearchSlab). */
  updateSearch(s: Float64Array, z: Float64Array, beta: number): void {
    const { kernels, cells, planeStart, nz } = this.set
    kernels.run(ACTIVE_UPDATE_SEARCH, s, z, beta, cells, planeStart, nz)
  }

  /** dst = src on the unknowns (elsewhere both stay +0). */
  copy(dst: Float64Array, src: Float64Array): void {
    const { cells, count } = this.set
    for (let t = 0; t < count; t++) dst[cells[t]] = src[cells[t]]
  }
}

/** A term added to the operator on the unknowns (out += T x), e.g. coupledWalls.ts's bodies. */
export interface ExtraTerm {
  addTo(x: Float64Array, out: Float64Array): void
  /** addTo in two halves: what reads x alone, then what adds to out (same bits as addTo). */
  prepare?(x: Float64Array): void
  scatter?(out: Float64Array): void
}

/** m on the unknowns (Stencil7Matrix.apply), plus an optional extra term. */
class ActiveOperator implements LinearOperator {
  m: Stencil7Matrix | null = null
  extra: ExtraTerm | null = null
  constructor(private readonly set: ActiveCells) {}

  apply(x: Float64Array, out: Float64Array): void {
    const { kernels, nx, ny, nz, cells, planeStart } = this.set
    const extra = this.extra
    if (extra?.prepare && extra.scatter) {
      // m x on the other threads while this one takes the extra term's part that reads x
      // alone (the coupled bodies' impulses: coupledWalls.ts); its sums go into out after.
      kernels.begin(ACTIVE_APPLY, out, x, this.m as Stencil7Matrix, cells, planeStart, nx, ny, nz)
      try {
        extra.prepare(x)
      } finally {
        kernels.finish()
      }
      extra.scatter(out)
      return
    }
    kernels.run(ACTIVE_APPLY, out, x, this.m as Stencil7Matrix, cells, planeStart, nx, ny, nz)
    if (extra) extra.addTo(x, out)
  }

  /** r = b - m x on the unknowns. */
  residual(b: Float64Array, x: Float64Array, r: Float64Array): void {
    const { kernels, cells, planeStart, nz } = this.set
    this.apply(x, r)
    // r = b + (-1) r on the kernels (updateSearchSlab): the product by -1 is exact, so these
    // are the bits of b - r, on every thread.
    kernels.run(ACTIVE_UPDATE_SEARCH, r, b, -1, cells, planeStart, nz)
  }
}

/** MIC(0) of m on the unknowns (Stencil7Mic0). */
class ActiveMic0 implements Preconditioner {
  m: Stencil7Matrix | null = null
  /** 1 / sqrt(e_c) on the unknowns, 0 elsewhere. */
  readonly prec: Float64Array
  /** prec: n values for 1 / sqrt(e_c) (factor() zeroes it first), else its own. */
  constructor(
    private readonly set: ActiveCells,
    prec: Float64Array | null,
  ) {
    this.prec = prec ?? set.kernels.f64(set.nx * set.ny * set.nz)
  }

  /**
   * Stencil7Mic0.factor on the unknowns (prec is zeroed first on [from, to), which must hold
   * every cell the solves read: other cells read as 0; an empty range when the caller cleared
   * it), pipelined over the bands.
   */
  factor(m: Stencil7Matrix, from = 0, to = this.prec.length): void {
    this.m = m
    const { kernels, nx, ny, nz, cells, bandStart, progress, bands } = this.set
    this.prec.fill(0, from, to)
    progress.fill(0)
    kernels.run(ACTIVE_MIC_FACTOR, this.prec, m, cells, bandStart, progress, nx, ny, nz, bands, MIC_TUNING, MIC_SAFETY)
  }

  /** z = (L L^T)^-1 r on the unknowns (Stencil7Mic0.apply), pipelined over the bands. */
  apply(r: Float64Array, z: Float64Array): void {
    const { kernels, nx, ny, nz, cells, bandStart, progress, bands } = this.set
    progress.fill(0)
    kernels.run(ACTIVE_MIC_APPLY, r, z, this.prec, this.m as Stencil7Matrix, cells, bandStart, progress, nx, ny, nz, bands)
  }
}

/** Float64 values per cell of the scratch an ActivePcg can borrow: PcgSolver's four vectors and MIC(0)'s diagonal. */
export const ACTIVE_PCG_SCRATCH_CELLS = 5

/**
 * The generic PcgSolver with the active-cell operator and vector ops plugged in, preconditioned
 * by MIC(0) or by the geometric multigrid of pressureMultigrid.ts (whose V-cycle leaves every
 * entry that is not an unknown alone, as the active kernels do).
 */
export class ActivePcg {
  readonly nx: number
  readonly ny: number
  readonly nz: number
  private readonly set: ActiveCells
  private readonly op: ActiveOperator
  private readonly mic: ActiveMic0
  /** The borrowed block holding the four vectors and MIC(0)'s diagonal, n apart (null: not borrowed, or too small for all five). */
  private readonly shared: Float64Array | null
  private readonly pcg: PcgSolver
  /** The multigrid (made on first use) and the matrix version its hierarchy was built for. */
  private mg: PressureMultigrid | null = null
  private mgVersion = -1

  /**
   * kernels: where the product and vector updates run; its allocator holds the vectors.
   * shared: ACTIVE_PCG_SCRATCH_CELLS n float64 of the kernels' memory for the solver's four
   * vectors and MIC(0)'s diagonal, which every solve rewrites before reading: memory another
   * pass may use between solves (liquidSolver.ts lends it to the level set).
   */
  constructor(nx: number, ny: number, nz: number, kernels: KernelBackend = TS_KERNELS, shared: Float64Array | null = null, readonly preconditioner: PressurePreconditioner = 'mic') {
    this.nx = nx
    this.ny = ny
    this.nz = nz
    const n = nx * ny * nz
    this.shared = shared !== null && shared.length >= ACTIVE_PCG_SCRATCH_CELLS * n ? shared : null
    this.set = new ActiveCells(nx, ny, nz, kernels)
    this.op = new ActiveOperator(this.set)
    this.mic = new ActiveMic0(this.set, shared ? shared.subarray(4 * n, 5 * n) : null)
    this.pcg = new PcgSolver(new ActiveVectorOps(this.set, shared ? shared.subarray(0, 4 * n) : null))
  }

  /** Number of unknowns of the last solve. */
  get unknowns(): number {
    return this.set.count
  }

  /**
   * Solves (m + extra) x = b from the guess in x (PcgSolver.solve preconditioned for m alone).
   * Rows of m with diag 0 must have b = 0 and x = 0 (ghostFluid.ts sees to both), and extra
   * must leave them alone. version: the multigrid's hierarchy is rebuilt unless the last solve
   * passed the same number (the caller's count of assembled matrices; undefined: rebuild).
   */
  solve(m: Stencil7Matrix, b: Float64Array, x: Float64Array, tol: number, maxIt: number, extra: ExtraTerm | null = null, version?: number): SolveStats {
    this.set.gather(m)
    // Kernels read neighbours that are not unknowns (as 0): clear what the last system left,
    // where the kernels can read (a liquid low in the domain leaves the planes above alone:
    // about 6 ms a frame of memory writes on the calling thread in a 64^3 dam break). An extra
    // term reads the cells it lists, which may lie anywhere: then everything.
    const n = this.nx * this.ny * this.nz
    const [from, to] = extra === null ? this.set.readRange() : [0, n]
    const kernels = this.set.kernels
    if (this.shared !== null) {
      // All five in one row (memory.fill on the threads: the kernels' shared memory is slow to
      // fill from JavaScript), MIC(0)'s diagonal included. Started on the other threads
      // (KernelBackend.begin) while this one builds the multigrid's levels, which touch none
      // of it (their own lists and arrays: pressureMultigrid.ts).
      kernels.begin(ZERO_BLOCKS, this.shared, n, ACTIVE_PCG_SCRATCH_CELLS, from, to, SPARSE_BLOCK)
    } else this.pcg.zeroScratch(from, to)
    this.op.m = m
    this.op.extra = extra
    // (Either preconditions m alone: a low-rank extra term costs a few more iterations.)
    const pre = this.preconditioner
    if (pre === 'multigrid' || (pre === 'auto' && this.set.count >= MULTIGRID_MIN_UNKNOWNS)) {
      const mg = (this.mg ??= new PressureMultigrid(this.nx, this.ny, this.nz, kernels))
      try {
        if (version === undefined || version !== this.mgVersion) mg.setup(m, this.set.cells, this.set.count)
      } finally {
        kernels.finish()
      }
      this.mgVersion = version ?? -1
      return this.pcg.solve(this.op, mg, b, x, { tolerance: tol, maxIterations: maxIt })
    }
    kernels.finish()
    // (A hierarchy built for this matrix is no longer current after MIC(0) solves it.)
    this.mgVersion = -1
    this.mic.factor(m, this.shared !== null ? 0 : from, this.shared !== null ? 0 : to)
    return this.pcg.solve(this.op, this.mic, b, x, { tolerance: tol, maxIterations: maxIt })
  }
}
