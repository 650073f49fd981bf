// Geometric multigrid preconditioner for the implicit viscosity system (viscosity.ts), so CG's
// iteration count stays flat as viscosity grows (issue 19). Jacobi-preconditioned CG (Carlson
// 2004 table 4) needs iterations ~ sqrt(condition number) ~ sqrt(nu h / dx^2): hundreds to
// thousands at the viscosities of the melting and viscous examples, where this takes a handful.
//
// What it inverts. A = M + sum_s w_s g_s g_s^T over stress sites s (viscosity.ts). Carlson's form
// (eq. 57) never couples components; the full stress tensor (Batty and Bridson 2008, eqs. 59-60)
// couples u, v and w only through the edge sites' cross terms. The preconditioner is the
// block-diagonal part, one block per velocity component, and each block is a 7-point operator on
// that component's face lattice:
//   (B x)_f = d_f x_f - sum over lattice neighbours l of k_fl x_l,
// with d_f the diagonal of A (mass, every site term, the doubled no-slip ghost pairs) and
// k_fl = w_s (times 4 for a reflected wall pair) for each site whose difference joins f and l,
// both unknowns. Each block is a symmetric M-matrix with d_f > sum_l k_fl (the mass M_f >= 0.05
// and the links to wall values are the excess), so blockdiag(B) is symmetric positive definite
// and CG with a symmetric V-cycle for it stays CG (McAdams, Sifakis, Teran 2010 for the
// requirements, as core/multigrid.ts).
//
// Coarsening, per component lattice, by 2 on every axis (ceil(n/2)), as exact Galerkin
// products A_c = P^T A P with piecewise-constant P (a coarse node's value copied to its 2x2x2
// children; aggregation), which keep the 7-point form:
// - a coarse node is active when any of its children is;
// - its excess (d - sum k: mass and wall links) is the sum of its children's;
// - a coarse link is the sum of the (up to four) fine links crossing the coarse face between
//   the two coarse nodes; links inside a coarse node cancel on its constant.
// Smoothing is red-black Gauss-Seidel, two sweeps red-black before the coarse correction and
// two black-red after (the adjoint), each level from x = 0; the coarsest level (at most
// DENSE_MAX active nodes) is solved exactly by a dense Cholesky factor built at setup.
//
// Why Galerkin with constant P. The V-cycle is then a fixed symmetric positive definite map
// whatever the coefficients (each coarse correction is the A-orthogonal projection onto P's
// range, so it cannot overshoot), as PCG requires. The first version rediscretised (coarse
// links half the crossing sum, with trilinear P): 5-7 iterations instead of 7-11 on uniform
// tanks, but not positive definite across the melting bunny's wax/melt jump, where PCG then
// stalled (4000 iterations, residual 0.9; this version: 142-238). Aggregation's price is a
// slow growth with the number of levels (Carlson's stress at nu = 1e4: 9 at 16^3, 11 at 32^3).
//
// Limits (measured in tests/validation/liquid/viscousMultigrid.test.ts and viscosity.ts):
// constant P cannot follow a sharp viscosity jump inside a coarse node (a ball of 1e4 m^2/s in
// liquid of 0.1: tens of iterations instead of single figures), and the full stress's cross
// terms are left to CG, which near a stiff body's free surface leaves the cycle no better than
// incomplete Cholesky of the coupled matrix (viscosity.ts picks that there). Operator-dependent
// prolongation, or a coupled cycle, would be the next step.
//
// Memory: per component and level, seven Float64 arrays over the lattice (about 1.15x the fine
// lattice over all levels). Arrays are padded by one plane at both ends so neighbour reads
// never leave them (links beyond the lattice are 0).
import { DenseCholesky } from '../core/amg/denseCholesky'
import { TS_KERNELS } from '../core/kernelBackend'
import type { KernelBackend } from '../core/kernelTypes'
import type { Preconditioner } from '../core/pcg'
import { VMG_RESIDUAL, VMG_SWEEP } from './viscousKernels'

/** What the preconditioner reads from a set-up ViscositySystem (viscosity.ts). */
export interface ViscousSites {
  readonly nx: number
  readonly ny: number
  readonly nz: number
  /** Faces of u, v and w; the stacked vector is [u | v | w]. */
  readonly nu: number
  readonly nv: number
  readonly nw: number
  readonly unknown: Uint8Array
  readonly diagonal: Float64Array
  readonly wCell: Float64Array
  readonly wXY: Float64Array
  readonly wXZ: Float64Array
  readonly wYZ: Float64Array
  readonly gXY: Uint8Array
  readonly gXZ: Uint8Array
  readonly gYZ: Uint8Array
  /** The cell sites with a weight in increasing index order, and the edge sites' lists (viscosity.ts). */
  readonly cellSites: Int32Array
  readonly cellCount: number
  readonly edgeFaces: Int32Array
  readonly edgeW: Float64Array
  readonly edgeG: Uint8Array
  readonly xyEnd: number
  readonly xzEnd: number
  readonly edgeCount: number
}

/** Largest coarsest level solved by a dense Cholesky factor (its cost is DENSE_MAX^3 / 3 flops a setup). */
export const DENSE_MAX = 220
/** Red-black sweep pairs before (and, mirrored, after) each coarse correction. */
export const SMOOTHING_SWEEPS = 2

/** One level of one component: a 7-point operator on an sx * sy * sz lattice. */
class Level {
  readonly sx: number
  readonly sy: number
  readonly sz: number
  readonly n: number
  /** Padding at both ends of every array: node f is at index pad + f. */
  readonly pad: number
  /** Diagonal d_f, the link to the +x / +y / +z neighbour, and the excess d_f - sum of links. */
  readonly diag: Float64Array
  readonly lx: Float64Array
  readonly ly: Float64Array
  readonly lz: Float64Array
  readonly excess: Float64Array
  readonly active: Uint8Array
  readonly x: Float64Array
  readonly b: Float64Array
  readonly r: Float64Array
  activeCount = 0
  /**
   * The active nodes (padded indices) by colour: red ((i + j + k) even) in [0, redCount),
   * black after it. Sweeps and residuals visit only these: a liquid fills a fraction of the box.
   */
  readonly order: Int32Array
  redCount = 0
  /**
   * For a level with a coarser one (fillCoarse): its active nodes in index order and each one's
   * coarse parent (padded indices), so the transfers visit only them, in a full sweep's order.
   */
  sorted: Int32Array = new Int32Array(0)
  parent: Int32Array = new Int32Array(0)

  /** The sweeps and the residual run on these (VMG_SWEEP, VMG_RESIDUAL); what they read lives in their memory. */
  private readonly kernels: KernelBackend

  constructor(sx: number, sy: number, sz: number, kernels: KernelBackend = TS_KERNELS) {
    this.sx = sx
    this.sy = sy
    this.sz = sz
    this.n = sx * sy * sz
    this.pad = sx * sy + 1
    this.kernels = kernels
    const len = this.n + 2 * this.pad
    this.diag = kernels.f64(len)
    this.lx = kernels.f64(len)
    this.ly = kernels.f64(len)
    this.lz = kernels.f64(len)
    this.excess = new Float64Array(len)
    this.active = new Uint8Array(len)
    this.x = kernels.f64(len)
    this.b = kernels.f64(len)
    this.r = kernels.f64(len)
    this.order = kernels.i32(this.n)
  }

  /** Zero links; active = unknown[off ..] (the fine level of a component). */
  clearLinks(unknown: Uint8Array, off: number): void {
    this.lx.fill(0)
    this.ly.fill(0)
    this.lz.fill(0)
    const { n, pad, active } = this
    for (let f = 0; f < n; f++) active[pad + f] = unknown[off + f]
  }

  /** d_f = excess + every link at f (links exist only between active nodes). */
  finishDiagonal(): void {
    const { sx, sy, sz, pad, diag, lx, ly, lz, excess, active, order } = this
    const plane = sx * sy
    let red = 0
    for (let color = 0; color < 2; color++) {
      if (color === 1) this.redCount = red
      for (let k = 0; k < sz; k++) {
        for (let j = 0; j < sy; j++) {
          const row = pad + sx * (j + sy * k)
          for (let i = (color + j + k) & 1; i < sx; i += 2) {
            const f = row + i
            if (!active[f]) {
              diag[f] = 1
              continue
            }
            order[red++] = f
            diag[f] = excess[f] + lx[f] + lx[f - 1] + ly[f] + ly[f - sx] + lz[f] + lz[f - plane]
          }
        }
      }
    }
    this.activeCount = red
  }

  /** One red-black Gauss-Seidel half sweep over the active nodes of `color` ((i + j + k) & 1). */
  sweep(color: number): void {
    const { sx, diag, lx, ly, lz, x, b, order } = this
    const begin = color === 0 ? 0 : this.redCount, end = color === 0 ? this.redCount : this.activeCount
    this.kernels.run(VMG_SWEEP, diag, lx, ly, lz, x, b, order, begin, sx, sx * this.sy, end - begin)
  }

  /** r = b - B x on the active nodes (the transfers read r only there). */
  residual(): void {
    const { sx, diag, lx, ly, lz, x, b, r, order } = this
    this.kernels.run(VMG_RESIDUAL, diag, lx, ly, lz, x, b, r, order, this.redCount, this.activeCount, sx, sx * this.sy)
  }
}

/**
 * The transfers between a level and the next coarser one: P copies a coarse node's value to its
 * active children (piecewise constant), R = P^T sums the children's residuals. With these,
 * fillCoarse's operator is exactly R A P.
 */
class Transfer {
  constructor(
    private readonly fine: Level,
    private readonly coarse: Level,
  ) {}

  /** fine.x += P coarse.x on the active fine nodes. */
  prolongAdd(): void {
    const { sorted, parent, activeCount, x } = this.fine
    const xc = this.coarse.x
    for (let t = 0; t < activeCount; t++) x[sorted[t]] += xc[parent[t]]
  }

  /** coarse.b = P^T fine.r (sums over each coarse node's active children, in index order). */
  restrict(): void {
    const { sorted, parent, activeCount, r } = this.fine
    const { b, order, activeCount: coarseCount } = this.coarse
    // Only the coarse level's active nodes are read (its sweeps, residual and dense solve).
    for (let q = 0; q < coarseCount; q++) b[order[q]] = 0
    for (let t = 0; t < activeCount; t++) b[parent[t]] += r[sorted[t]]
  }
}

/** Builds the coarse level's operator from the fine one's (see the file comment). */
function fillCoarse(fine: Level, coarse: Level): void {
  const { sx, sy, sz, pad } = fine
  const cx = coarse.sx, cy = coarse.sy, cp = coarse.pad
  coarse.excess.fill(0)
  coarse.lx.fill(0)
  coarse.ly.fill(0)
  coarse.lz.fill(0)
  coarse.active.fill(0)
  if (fine.sorted.length < fine.activeCount) {
    fine.sorted = new Int32Array(fine.n)
    fine.parent = new Int32Array(fine.n)
  }
  const { sorted, parent } = fine
  let t = 0
  for (let k = 0; k < sz; k++) {
    for (let j = 0; j < sy; j++) {
      for (let i = 0; i < sx; i++) {
        const f = pad + i + sx * (j + sy * k)
        if (!fine.active[f]) continue
        const C = cp + (i >> 1) + cx * ((j >> 1) + cy * (k >> 1))
        sorted[t] = f
        parent[t++] = C
        coarse.active[C] = 1
        coarse.excess[C] += fine.excess[f]
        // Fine links that cross a coarse face (odd index to the next even one).
        if (i & 1) coarse.lx[C] += fine.lx[f]
        if (j & 1) coarse.ly[C] += fine.ly[f]
        if (k & 1) coarse.lz[C] += fine.lz[f]
      }
    }
  }
  coarse.finishDiagonal()
}

/** Dense Cholesky factor of a level's operator over its active nodes (the coarsest level). */
class DenseSolve {
  private ids = new Int32Array(0)
  private chol = new DenseCholesky({ n: 0, dense: new Float64Array(0) })
  private y = new Float64Array(0)
  private m = 0

  factor(level: Level): void {
    const { n, pad, sx, sy, active, diag, lx, ly, lz } = level
    const plane = sx * sy
    const where = new Int32Array(n + 2 * pad).fill(-1)
    const ids: number[] = []
    for (let f = pad; f < pad + n; f++) if (active[f]) (where[f] = ids.length), ids.push(f)
    const m = ids.length
    this.m = m
    this.ids = Int32Array.from(ids)
    const A = new Float64Array(m * m)
    for (let a = 0; a < m; a++) {
      const f = ids[a]
      A[a * m + a] = diag[f]
      const link = (g: number, k: number) => {
        const bcol = where[g]
        if (bcol >= 0 && k !== 0) (A[a * m + bcol] -= k)
      }
      link(f + 1, lx[f])
      link(f - 1, lx[f - 1])
      link(f + sx, ly[f])
      link(f - sx, ly[f - sx])
      link(f + plane, lz[f])
      link(f - plane, lz[f - plane])
    }
    // SPD by construction (a strictly diagonally dominant M-matrix): core's dense factor.
    this.chol = new DenseCholesky({ n: m, dense: A })
    this.y = new Float64Array(m)
  }

  /** level.x = B^-1 level.b on the active nodes. */
  solve(level: Level): void {
    const { m, y, ids } = this
    const { x, b } = level
    for (let i = 0; i < m; i++) y[i] = b[ids[i]]
    this.chol.solve(y, y)
    x.fill(0)
    for (let i = 0; i < m; i++) x[ids[i]] = y[i]
  }
}

/** The V-cycle hierarchy of one component lattice. */
class ComponentCycle {
  readonly levels: Level[]
  private readonly dense = new DenseSolve()
  /** How many levels the last setup uses (coarsening stops early for small active sets). */
  private depth = 1
  private readonly transfers: Transfer[] = []

  constructor(sx: number, sy: number, sz: number, kernels: KernelBackend = TS_KERNELS) {
    const levels = [new Level(sx, sy, sz, kernels)]
    while (true) {
      const last = levels[levels.length - 1]
      if (Math.max(last.sx, last.sy, last.sz) <= 2) break
      levels.push(new Level((last.sx + 1) >> 1, (last.sy + 1) >> 1, (last.sz + 1) >> 1, kernels))
    }
    this.levels = levels
    for (let l = 0; l + 1 < levels.length; l++) this.transfers.push(new Transfer(levels[l], levels[l + 1]))
  }

  /** Coarsens the fine level's operator (already filled) and factors the coarsest one. */
  setup(): void {
    const levels = this.levels
    levels[0].finishDiagonal()
    let d = 1
    while (d < levels.length && levels[d - 1].activeCount > DENSE_MAX) {
      fillCoarse(levels[d - 1], levels[d])
      d++
    }
    this.depth = d
    this.dense.factor(levels[d - 1])
  }

  /** levels[0].x = V-cycle applied to levels[0].b. */
  cycle(l = 0): void {
    const L = this.levels[l]
    if (l === this.depth - 1) {
      this.dense.solve(L)
      return
    }
    // x = 0 on the active nodes, where the sweeps start from: the others are read only
    // through links of 0 (links join active nodes), and clearing the whole padded lattice cost
    // more than the level's sweeps on a liquid that fills a fraction of the box.
    const { x, order, activeCount } = L
    for (let q = 0; q < activeCount; q++) x[order[q]] = 0
    for (let s = 0; s < SMOOTHING_SWEEPS; s++) L.sweep(0), L.sweep(1)
    L.residual()
    this.transfers[l].restrict()
    this.cycle(l + 1)
    this.transfers[l].prolongAdd()
    for (let s = 0; s < SMOOTHING_SWEEPS; s++) L.sweep(1), L.sweep(0)
  }
}

export class ViscousMultigrid implements Preconditioner {
  private readonly u: ComponentCycle
  private readonly v: ComponentCycle
  private readonly w: ComponentCycle
  private nu = 0
  private nv = 0

  /** kernels: where the levels' sweeps and residuals run (viscousKernels.ts). */
  constructor(nx: number, ny: number, nz: number, kernels: KernelBackend = TS_KERNELS) {
    this.u = new ComponentCycle(nx + 1, ny, nz, kernels)
    this.v = new ComponentCycle(nx, ny + 1, nz, kernels)
    this.w = new ComponentCycle(nx, ny, nz + 1, kernels)
  }

  /** Builds the three hierarchies for the system's last setup. */
  setup(s: ViscousSites): void {
    const { nx, ny, nz, nu, nv, unknown, diagonal } = s
    this.nu = nu
    this.nv = nv
    const U = this.u.levels[0], V = this.v.levels[0], W = this.w.levels[0]
    U.clearLinks(unknown, 0)
    V.clearLinks(unknown, nu)
    W.clearLinks(unknown, nu + nv)
    const ow = nu + nv
    // Links are added only between two unknowns (a link to a wall value is in the excess).
    // Locals for every array: the loops below run over every weighted site of the grid.
    const pu = U.pad, pv = V.pad, pw = W.pad
    const uLx = U.lx, uLy = U.ly, uLz = U.lz, vLx = V.lx, vLy = V.ly, vLz = V.lz, wLx = W.lx, wLy = W.ly, wLz = W.lz
    const wPlane = nx * ny
    // The sites with a weight (the system's lists, in index order: the sums as full sweeps'd be).
    const { wCell, cellSites } = s
    // Cell sites: each component's difference along its own axis.
    for (let t = 0; t < s.cellCount; t++) {
      const c = cellSites[t]
      const w = wCell[c]
      const row = (c / nx) | 0 // j + ny k
      const k = (row / ny) | 0
      const ua = c + row // i + (nx + 1)(j + ny k)
      if (unknown[ua] && unknown[ua + 1]) uLx[pu + ua] += w
      const va = c + nx * k // i + nx (j + (ny + 1) k)
      if (unknown[nu + va] && unknown[nu + va + nx]) vLy[pv + va] += w
      if (unknown[ow + c] && unknown[ow + c + wPlane]) wLz[pw + c] += w
    }
    // Edge sites: pair a (faces a0 -> a1) and pair b (b0 -> b1) each link two faces of one
    // component lattice when both exist (a face beyond the domain is -1).
    const { edgeFaces: F, edgeW, edgeG, xyEnd, xzEnd } = s
    for (let t = 0; t < s.edgeCount; t++) {
      const a0 = F[4 * t], a1 = F[4 * t + 1], b0 = F[4 * t + 2], b1 = F[4 * t + 3]
      const w = edgeW[t]
      const g = edgeG[t]
      const wa = g & 1 ? 4 * w : w
      const wb = g & 2 ? 4 * w : w
      const aLinked = a0 >= 0 && a1 >= 0 && unknown[a0] && unknown[a1]
      const bLinked = b0 >= 0 && b1 >= 0 && unknown[b0] && unknown[b1]
      if (t < xyEnd) {
        // xy: u(j-1)-u(j) along y of the u lattice, v(i-1)-v(i) along x of the v lattice.
        if (aLinked) uLy[pu + a0] += wa
        if (bLinked) vLx[pv + b0 - nu] += wb
      } else if (t < xzEnd) {
        // xz: u(k-1)-u(k) along z of the u lattice, w(i-1)-w(i) along x of the w lattice.
        if (aLinked) uLz[pu + a0] += wa
        if (bLinked) wLx[pw + b0 - ow] += wb
      } else {
        // yz: v(k-1)-v(k) along z of the v lattice, w(j-1)-w(j) along y of the w lattice.
        if (aLinked) vLz[pv + a0 - nu] += wa
        if (bLinked) wLy[pw + b0 - ow] += wb
      }
    }
    // Excess = A's diagonal less the block's links; d_f is then exactly A's diagonal.
    this.fillExcess(U, diagonal, 0)
    this.fillExcess(V, diagonal, nu)
    this.fillExcess(W, diagonal, ow)
    this.u.setup()
    this.v.setup()
    this.w.setup()
  }

  /** Excess = A's diagonal less the block's links; d_f is then exactly A's diagonal. */
  private fillExcess(L: Level, diagonal: Float64Array, off: number): void {
    const { pad, sx, lx, ly, lz, excess, active } = L
    const plane = sx * L.sy
    for (let f = 0; f < L.n; f++) {
      const p = pad + f
      if (!active[p]) {
        excess[p] = 0
        continue
      }
      const links = lx[p] + lx[p - 1] + ly[p] + ly[p - sx] + lz[p] + lz[p - plane]
      // >= the mass (>= MIN_FACE_FRACTION) in exact arithmetic; rounding guard.
      excess[p] = Math.max(diagonal[off + f] - links, 1e-12 * diagonal[off + f])
    }
  }

  /**
   * z = blockdiag(V-cycle) r on the unknown rows; the other rows of z are not written (the
   * viscosity solve's vector kernels never read them: clearing them was a pass over every face
   * of the grid at each iteration).
   */
  apply(r: Float64Array, z: Float64Array): void {
    this.applyComponent(this.u, r, z, 0)
    this.applyComponent(this.v, r, z, this.nu)
    this.applyComponent(this.w, r, z, this.nu + this.nv)
  }

  private applyComponent(cyc: ComponentCycle, r: Float64Array, z: Float64Array, off: number): void {
    const L = cyc.levels[0]
    const { pad, order, activeCount, b, x } = L
    // The cycle reads b and writes x on the active nodes only (order lists them).
    const shift = off - pad
    for (let q = 0; q < activeCount; q++) b[order[q]] = r[order[q] + shift]
    cyc.cycle()
    for (let q = 0; q < activeCount; q++) z[order[q] + shift] = x[order[q]]
  }
}
