// Geometric multigrid V-cycle used as the preconditioner of PCG (MGPCG: McAdams, Sifakis,
// Teran 2010, "A parallel multigrid Poisson solver for fluids simulation on large grids").
//
// For PCG the preconditioner must be a fixed symmetric positive definite linear map, so:
// - each level starts from x = 0;
// - post-smoothing is the adjoint of pre-smoothing: red-black Gauss-Seidel sweeps red then
//   black before the coarse correction, black then red after (damped Jacobi, the other
//   choice, is symmetric by itself);
// - prolongation P is cell-centred trilinear interpolation (weights 3/4, 1/4 per axis; at a
//   domain border the missing coarse neighbour is replaced by the border cell itself, so P
//   reproduces constants) and restriction is R = P^T / 8 (full weighting);
// - the coarsest level (about 4^3) gets a fixed number of symmetric red-black sweeps;
// - McAdams' boundary smoothing: after the interior sweeps, extra red-black Gauss-Seidel
//   sweeps over the band of cells within 2 cells of any interior face that is not fully open
//   (obstacles, partial faces), black-red before the post-smoothing so it stays symmetric.
//   On a box with a sphere and a plate inside (open top, tolerance 1e-6) it cut MGPCG from
//   8/12/13 iterations at 32/64/128^3 to 7/9/9. The band first took in the domain's closed
//   sides too; but a flat side on cell faces is a flat side on every coarse level, which
//   re-discretisation keeps exactly, and the band along six sides is most of a coarse level:
//   on the Blender smoke scene at 64^3 it was 48,000 of its cells, and the projection's time
//   fell by a sixth without them at the same iteration count (8.88 a substep); on the box
//   with the sphere and plate, 7/8/9 -> 8/8/10 iterations (open top) and 6/6/7 -> 6/6/8
//   (closed), each solve faster at 64^3 and 128^3 (README, Performance).
//
// Coarse operators are re-discretised rather than Galerkin products: the same weighted
// 7-point stencil (poisson.ts) with each coarse face weight the mean of the fine face weights
// on it (so solids, closed sides and open sides carry down: McAdams' coarsened cell types,
// generalised to fractions). On a level with spacing 2h this stencil is 4x the Galerkin
// operator R A P (the dimensionless stencil approximates -h^2 lap), so the restricted
// residual is scaled by 4: b_coarse = 4 R r = P^T r / 2. The coarse correction
// P A_c^-1 P^T / 2 is symmetric, so the whole V-cycle is.
//
// Odd sizes coarsen to ceil(n/2); the last coarse cell then has one child layer.
//
// Precision: by default the cycle runs in float32 (multigrid32Kernels.ts): the finest level's
// right-hand side is PCG's float64 residual rounded once, every level's vectors are float32,
// and the result is widened back into PCG's float64 z. The face weights were float32 already.
// PCG's own vectors, product and residual stay float64, so the solve converges to the same
// float64 tolerance; the cycle is symmetric to float32 rounding, which PCG does not notice.
// Damped Jacobi (an option for tests and comparisons) runs in float64 only.
import { reuseOrGrow } from './growCapacity'
import type { AllocOptions } from './grid'
import { type KernelBackend, kernelsOf } from './kernelBackend'
import type { AxisTransfer, AxisTransfer32, KernelAllocator } from './kernelTypes'
import { restrictScratchLength } from './multigridKernels'
import { FINISH_CYCLE32, GS_SWEEP32, PROLONG_ADD32, RELAX_RUNS, RELAX_RUNS32, RESIDUAL32, RESTRICT32, START_CYCLE32 } from './kernelRows'
import type { Preconditioner } from './pcg'

export * from './multigridKernels'

export type MultigridSmoother = 'rbgs' | 'jacobi'
export type MultigridPrecision = 'float32' | 'float64'

export interface MultigridOptions {
  /** Default 'rbgs' (red-black Gauss-Seidel). */
  smoother?: MultigridSmoother
  /** Smoothing sweeps before and (mirrored) after the coarse correction; default 2. */
  sweeps?: number
  /** Symmetric sweep pairs on the coarsest level; default 20. */
  coarsestSweeps?: number
  /** Coarsen while the largest dimension exceeds this; default 4. */
  coarsestSize?: number
  /** Damped-Jacobi weight; default 2/3. */
  jacobiWeight?: number
  /** Extra Gauss-Seidel sweeps over the boundary band (McAdams 2010); default 2, 0 = off. */
  boundarySweeps?: number
  /** Width of that band in cells from any face that is not fully open; default 2. */
  boundaryBand?: number
  /** The cycle's arithmetic; default 'float32' ('float64' with the Jacobi smoother). */
  precision?: MultigridPrecision
}

export interface MultigridLevel {
  nx: number
  ny: number
  nz: number
  fu: Float32Array
  fv: Float32Array
  fw: Float32Array
  /** Solution and right-hand side; on level 0 these are the caller's z and r (float64 cycle). */
  x: Float64Array
  b: Float64Array
  /** Residual, and Jacobi's second buffer (float64 cycle). */
  t: Float64Array
  /** The float32 cycle's solution, right-hand side and residual (every level, level 0 too). */
  x32: Float32Array
  b32: Float32Array
  t32: Float32Array
  active: Uint8Array
  /**
   * The boundary band as runs of one colour along x (multigridKernels.ts relaxRuns: a first
   * cell and a count, the cells two apart): the red ((i + j + k) even) runs and the black ones,
   * views of runStore made at setup (the smoothing passes them as they are); redCells and
   * blackCells count their cells.
   */
  redRuns: Int32Array
  blackRuns: Int32Array
  runSplit: number
  redCells: number
  blackCells: number
  /** Storage runs is a prefix of (grown when a setup needs more). */
  runStore: Int32Array
  /** restrictSlab scratch (levels that have a coarser one), of the cycle's precision. */
  scratch: Float64Array
  scratch32: Float32Array
  /** Transfer to the next coarser level (absent on the coarsest), and its float32 tables. */
  tx?: AxisTransfer
  ty?: AxisTransfer
  tz?: AxisTransfer
  tx32?: AxisTransfer32
  ty32?: AxisTransfer32
  tz32?: AxisTransfer32
}

function axisTransfer(n: number, nc: number, alloc: KernelAllocator): AxisTransfer {
  const pa = alloc.i32(n)
  const pb = alloc.i32(n)
  const wa = alloc.f64(n)
  const wb = alloc.f64(n)
  const rw = alloc.f64(4 * nc)
  for (let i = 0; i < n; i++) {
    const p = i >> 1
    let q = i & 1 ? p + 1 : p - 1 // the other coarse cell the fine centre lies between
    if (q < 0 || q >= nc) q = p
    pa[i] = p
    pb[i] = q
    wa[i] = q === p ? 1 : 0.75
    wb[i] = q === p ? 0 : 0.25
    rw[4 * p + (i - 2 * p + 1)] += wa[i]
    if (q !== p) rw[4 * q + (i - 2 * q + 1)] += wb[i]
  }
  return { pa, pb, wa, wb, rw }
}

/** An axis's transfer tables for the float32 cycle: the same indices, the weights (exact in float32) copied. */
function axisTransfer32(t: AxisTransfer, alloc: KernelAllocator): AxisTransfer32 {
  const copy = (a: Float64Array) => {
    const out = alloc.f32(a.length)
    out.set(a)
    return out
  }
  return { pa: t.pa, pb: t.pb, wa: copy(t.wa), wb: copy(t.wb), rw: copy(t.rw) }
}

/** Coarse face weights: the mean of the fine face weights covering each coarse face. */
function coarsenWeights(f: MultigridLevel, c: MultigridLevel): void {
  const { nx, ny, nz } = f
  const cx = c.nx
  const cy = c.ny
  const cz = c.nz
  for (let K = 0; K < cz; K++) {
    for (let J = 0; J < cy; J++) {
      for (let I = 0; I <= cx; I++) {
        const i = Math.min(2 * I, nx)
        let s = 0
        let m = 0
        for (let k = 2 * K; k < Math.min(2 * K + 2, nz); k++) {
          for (let j = 2 * J; j < Math.min(2 * J + 2, ny); j++) {
            s += f.fu[i + (nx + 1) * (j + ny * k)]
            m++
          }
        }
        c.fu[I + (cx + 1) * (J + cy * K)] = m > 0 ? s / m : 0
      }
    }
    for (let J = 0; J <= cy; J++) {
      const j = Math.min(2 * J, ny)
      for (let I = 0; I < cx; I++) {
        let s = 0
        let m = 0
        for (let k = 2 * K; k < Math.min(2 * K + 2, nz); k++) {
          for (let i = 2 * I; i < Math.min(2 * I + 2, nx); i++) {
            s += f.fv[i + nx * (j + (ny + 1) * k)]
            m++
          }
        }
        c.fv[I + cx * (J + (cy + 1) * K)] = m > 0 ? s / m : 0
      }
    }
  }
  for (let K = 0; K <= cz; K++) {
    const k = Math.min(2 * K, nz)
    for (let J = 0; J < cy; J++) {
      for (let I = 0; I < cx; I++) {
        let s = 0
        let m = 0
        for (let j = 2 * J; j < Math.min(2 * J + 2, ny); j++) {
          for (let i = 2 * I; i < Math.min(2 * I + 2, nx); i++) {
            s += f.fw[i + nx * (j + ny * k)]
            m++
          }
        }
        c.fw[I + cx * (J + cy * K)] = m > 0 ? s / m : 0
      }
    }
  }
}

/**
 * Active cells within `width` cells (city-block) of an interior face that is not fully open:
 * obstacles and partial faces (not the domain's sides: see the file comment). McAdams 2010
 * smooth this band extra because the re-discretised coarse grids represent it worst.
 */
function boundaryBand(l: MultigridLevel, width: number, alloc: KernelAllocator): void {
  const { nx, ny, nz, fu, fv, fw, active } = l
  const plane = nx * ny
  const dist = new Int32Array(nx * ny * nz).fill(width)
  for (let k = 0; k < nz; k++) {
    for (let j = 0; j < ny; j++) {
      let c = nx * (j + ny * k)
      let fx = (nx + 1) * (j + ny * k)
      let fy = nx * (j + (ny + 1) * k)
      for (let i = 0; i < nx; i++, c++, fx++, fy++) {
        // Interior faces only: the domain's own sides (see above) are left out.
        if ((i > 0 && fu[fx] < 1) || (i < nx - 1 && fu[fx + 1] < 1) || (j > 0 && fv[fy] < 1) || (j < ny - 1 && fv[fy + nx] < 1) || (k > 0 && fw[c] < 1) || (k < nz - 1 && fw[c + plane] < 1)) dist[c] = 0
      }
    }
  }
  // Grow the band one cell per pass.
  for (let d = 1; d < width; d++) {
    for (let c = 0; c < dist.length; c++) {
      if (dist[c] !== d - 1) continue
      const i = c % nx
      const j = ((c - i) / nx) % ny
      const k = (c - i - nx * j) / plane
      if (i > 0 && dist[c - 1] > d) dist[c - 1] = d
      if (i < nx - 1 && dist[c + 1] > d) dist[c + 1] = d
      if (j > 0 && dist[c - nx] > d) dist[c - nx] = d
      if (j < ny - 1 && dist[c + nx] > d) dist[c + nx] = d
      if (k > 0 && dist[c - plane] > d) dist[c - plane] = d
      if (k < nz - 1 && dist[c + plane] > d) dist[c + plane] = d
    }
  }
  const inBand = (c: number): boolean => dist[c] < width && active[c] === 1
  const runs = bandRuns(l, inBand, null)
  // Reuse the storage across setups (a kernel arena cannot free one block).
  l.runStore = reuseOrGrow(l.runStore, 2 * runs, (m) => alloc.i32(m))
  bandRuns(l, inBand, l.runStore)
  l.redRuns = l.runStore.subarray(0, 2 * l.runSplit)
  l.blackRuns = l.runStore.subarray(2 * l.runSplit, 2 * runs)
}

/**
 * The band's runs: each row's band cells of one colour, cut where a cell of that colour is
 * not in the band (a row's band is its two ends, or the whole row near the y and z sides).
 * Red runs first, then black. Counts them; with a store, also writes them (first cell, count)
 * with runSplit, redCells and blackCells.
 */
function bandRuns(l: MultigridLevel, inBand: (c: number) => boolean, store: Int32Array | null): number {
  const { nx, ny, nz } = l
  let n = 0
  for (let color = 0; color < 2; color++) {
    if (store && color === 1) l.runSplit = n
    let cells = 0
    for (let k = 0; k < nz; k++) {
      for (let j = 0; j < ny; j++) {
        const row = nx * (j + ny * k)
        let run = -1
        for (let i = (color + j + k) & 1; i < nx; i += 2) {
          const c = row + i
          if (!inBand(c)) {
            run = -1
            continue
          }
          cells++
          if (run < 0) {
            run = n++
            if (store) {
              store[2 * run] = c
              store[2 * run + 1] = 0
            }
          }
          if (store) store[2 * run + 1]++
        }
      }
    }
    if (store && color === 0) l.redCells = cells
    if (store && color === 1) l.blackCells = cells
  }
  return n
}

function markActive(l: MultigridLevel): void {
  const { nx, ny, nz, fu, fv, fw, active } = l
  const plane = nx * ny
  for (let k = 0; k < nz; k++) {
    for (let j = 0; j < ny; j++) {
      let c = nx * (j + ny * k)
      let fx = (nx + 1) * (j + ny * k)
      let fy = nx * (j + (ny + 1) * k)
      for (let i = 0; i < nx; i++, c++, fx++, fy++) {
        active[c] = fu[fx] + fu[fx + 1] + fv[fy] + fv[fy + nx] + fw[c] + fw[c + plane] > 0 ? 1 : 0
      }
    }
  }
}

export class MultigridPreconditioner implements Preconditioner {
  readonly levels: MultigridLevel[] = []
  private readonly smoother: MultigridSmoother
  private readonly sweeps: number
  private readonly coarsestSweeps: number
  private readonly omega: number
  private readonly boundarySweeps: number
  private readonly boundaryBand: number
  private readonly kernels: KernelBackend
  readonly precision: MultigridPrecision

  /** options.kernels runs the smoother and transfers and allocates the levels (default TypeScript). */
  constructor(nx: number, ny: number, nz: number, options: MultigridOptions & AllocOptions = {}) {
    this.smoother = options.smoother ?? 'rbgs'
    this.sweeps = options.sweeps ?? 2
    this.coarsestSweeps = options.coarsestSweeps ?? 20
    this.omega = options.jacobiWeight ?? 2 / 3
    this.boundarySweeps = options.boundarySweeps ?? 2
    this.boundaryBand = options.boundaryBand ?? 2
    const minSize = Math.max(1, options.coarsestSize ?? 4)
    const kernels = kernelsOf(options)
    this.kernels = kernels
    this.precision = this.smoother === 'jacobi' ? 'float64' : (options.precision ?? 'float32')
    const single = this.precision === 'float32'
    const empty32 = new Float32Array(0)
    const empty64 = new Float64Array(0)
    let dims = [nx, ny, nz]
    for (;;) {
      const [a, b, c] = dims
      const n = a * b * c
      const first = this.levels.length === 0
      this.levels.push({
        nx: a,
        ny: b,
        nz: c,
        // Level 0 borrows the caller's weights and vectors.
        fu: first ? empty32 : kernels.f32((a + 1) * b * c),
        fv: first ? empty32 : kernels.f32(a * (b + 1) * c),
        fw: first ? empty32 : kernels.f32(a * b * (c + 1)),
        x: first || single ? empty64 : kernels.f64(n),
        b: first || single ? empty64 : kernels.f64(n),
        t: single ? empty64 : kernels.f64(n),
        x32: single ? kernels.f32(n) : empty32,
        b32: single ? kernels.f32(n) : empty32,
        t32: single ? kernels.f32(n) : empty32,
        active: kernels.u8(n),
        redRuns: new Int32Array(0),
        blackRuns: new Int32Array(0),
        runSplit: 0,
        redCells: 0,
        blackCells: 0,
        runStore: new Int32Array(0),
        scratch: empty64,
        scratch32: empty32,
      })
      if (Math.max(a, b, c) <= minSize) break
      dims = [Math.ceil(a / 2), Math.ceil(b / 2), Math.ceil(c / 2)]
    }
    for (let l = 0; l + 1 < this.levels.length; l++) {
      const f = this.levels[l]
      const c = this.levels[l + 1]
      f.tx = axisTransfer(f.nx, c.nx, kernels)
      f.ty = axisTransfer(f.ny, c.ny, kernels)
      f.tz = axisTransfer(f.nz, c.nz, kernels)
      if (single) {
        f.tx32 = axisTransfer32(f.tx, kernels)
        f.ty32 = axisTransfer32(f.ty, kernels)
        f.tz32 = axisTransfer32(f.tz, kernels)
        f.scratch32 = kernels.f32(restrictScratchLength(f.ny, c.nx, c.ny))
      } else f.scratch = kernels.f64(restrictScratchLength(f.ny, c.nx, c.ny))
    }
  }

  /** Builds the coarse operators for the fine face weights (kept by reference). */
  setup(fu: Float32Array, fv: Float32Array, fw: Float32Array): void {
    const top = this.levels[0]
    top.fu = fu
    top.fv = fv
    top.fw = fw
    markActive(top)
    if (this.boundarySweeps > 0) boundaryBand(top, this.boundaryBand, this.kernels)
    for (let l = 1; l < this.levels.length; l++) {
      coarsenWeights(this.levels[l - 1], this.levels[l])
      markActive(this.levels[l])
      if (this.boundarySweeps > 0) boundaryBand(this.levels[l], this.boundaryBand, this.kernels)
    }
  }

  private smooth(l: MultigridLevel, sweeps: number, reverse: boolean, kind: MultigridSmoother = this.smoother): void {
    const { nx, ny, nz, fu, fv, fw } = l
    const k = this.kernels
    if (this.precision === 'float32') {
      // Two phases over the same slabs (see GS_SWEEP): interior, then slab borders.
      for (let s = 0; s < sweeps; s++) {
        k.run(GS_SWEEP32, l.x32, l.b32, fu, fv, fw, nx, ny, nz, reverse ? 1 : 0, 0)
        k.run(GS_SWEEP32, l.x32, l.b32, fu, fv, fw, nx, ny, nz, reverse ? 1 : 0, 1)
      }
      return
    }
    if (kind === 'jacobi') {
      for (let s = 0; s < sweeps; s++) {
        k.jacobi(l.t, l.x, l.b, fu, fv, fw, nx, ny, nz, this.omega)
        l.x.set(l.t)
      }
      return
    }
    const first = reverse ? 1 : 0
    for (let s = 0; s < sweeps; s++) k.gaussSeidelSweep(l.x, l.b, fu, fv, fw, nx, ny, nz, first)
  }

  /** One Gauss-Seidel pass over the boundary band's cells of one colour (0 red, 1 black). */
  private relaxBand(l: MultigridLevel, color: number): void {
    const runs = color === 0 ? l.redRuns : l.blackRuns
    if (runs.length === 0) return
    const cells = color === 0 ? l.redCells : l.blackCells
    if (this.precision === 'float32') this.kernels.run(RELAX_RUNS32, l.x32, l.b32, l.fu, l.fv, l.fw, l.nx, l.ny, l.nz, runs, cells)
    else this.kernels.run(RELAX_RUNS, l.x, l.b, l.fu, l.fv, l.fw, l.nx, l.ny, l.nz, runs, cells)
  }

  /** Pre-smoothing and its adjoint: interior sweeps then the boundary band, and back. */
  private preSmooth(l: MultigridLevel): void {
    this.smooth(l, this.sweeps, false)
    const k = this.kernels
    for (let s = 0; s < this.boundarySweeps; s++) {
      this.relaxBand(l, 0)
      this.relaxBand(l, 1)
    }
  }

  private postSmooth(l: MultigridLevel): void {
    const k = this.kernels
    for (let s = 0; s < this.boundarySweeps; s++) {
      this.relaxBand(l, 1)
      this.relaxBand(l, 0)
    }
    this.smooth(l, this.sweeps, true)
  }

  /** z = V-cycle(r), a symmetric positive definite approximation of A^-1 r. */
  apply(r: Float64Array, z: Float64Array): void {
    if (this.precision === 'float32') {
      this.apply32(r, z)
      return
    }
    const { levels, kernels } = this
    const L = levels.length - 1
    levels[0].b = r
    levels[0].x = z
    for (let l = 0; l < L; l++) {
      const f = levels[l]
      const c = levels[l + 1]
      f.x.fill(0)
      this.preSmooth(f)
      kernels.residual(f.t, f.b, f.x, f.fu, f.fv, f.fw, f.nx, f.ny, f.nz)
      kernels.restrict(c.b, f.t, f.nx, f.ny, f.nz, c.nx, c.ny, c.nz, f.tx!, f.ty!, f.tz!, f.scratch)
    }
    const bottom = levels[L]
    bottom.x.fill(0)
    // Fixed, palindromic sweeps: a symmetric linear map close to A_c^-1.
    this.smooth(bottom, this.coarsestSweeps, false, 'rbgs')
    this.smooth(bottom, this.coarsestSweeps, true, 'rbgs')
    for (let l = L - 1; l >= 0; l--) {
      const f = levels[l]
      const c = levels[l + 1]
      kernels.prolongAdd(f.x, c.x, f.active, f.nx, f.ny, f.nz, c.nx, c.ny, f.tx!, f.ty!, f.tz!)
      this.postSmooth(f)
    }
  }

  /** The float32 cycle (see the file comment): apply's steps on each level's float32 vectors. */
  private apply32(r: Float64Array, z: Float64Array): void {
    const { levels, kernels } = this
    const L = levels.length - 1
    const top = levels[0]
    kernels.run(START_CYCLE32, top.b32, top.x32, r, top.nx * top.ny, top.nz)
    for (let l = 0; l < L; l++) {
      const f = levels[l]
      const c = levels[l + 1]
      if (l > 0) f.x32.fill(0)
      this.preSmooth(f)
      kernels.run(RESIDUAL32, f.t32, f.b32, f.x32, f.fu, f.fv, f.fw, f.nx, f.ny, f.nz)
      kernels.run(RESTRICT32, c.b32, f.t32, f.nx, f.ny, f.nz, c.nx, c.ny, f.tx32!, f.ty32!, f.tz32!, f.scratch32, c.nz)
    }
    const bottom = levels[L]
    bottom.x32.fill(0)
    this.smooth(bottom, this.coarsestSweeps, false, 'rbgs')
    this.smooth(bottom, this.coarsestSweeps, true, 'rbgs')
    for (let l = L - 1; l >= 0; l--) {
      const f = levels[l]
      const c = levels[l + 1]
      kernels.run(PROLONG_ADD32, f.x32, c.x32, f.active, f.nx, f.ny, c.nx, c.ny, f.tx32!, f.ty32!, f.tz32!, f.nz)
      this.postSmooth(f)
    }
    kernels.run(FINISH_CYCLE32, z, top.x32, top.nx * top.ny, top.nz)
  }
}
