// Implicit (backward Euler) viscous diffusion with variable viscosity, Carlson 2004 sec. 4.1-4.3.
//
// Operator splitting (eqs. 43-44) leaves u_t = div(stress) for one substep h. Backward Euler
// (eq. 47) gives A u_new = u with A = 1 - D (eq. 48-49). Here, following Batty & Bridson 2008
// ("Accurate viscous free surfaces for buckling, coiling, and rotating liquids"), the system
// is weighted by control-volume liquid fractions:
//
//   A = M + (h / dx^2) sum_s nu_s V_s g_s g_s^T,   b = M u*
//
// M = diag(V_f), the liquid fraction of each velocity sample's control volume (a cube of side
// dx centred on the face); V_s that of each stress sample s (cell centres and cell edges,
// Carlson's figure 13); g_s a vector of +-1 (or +-2 at a wall, below) picking the face
// differences the site measures. Each term is positive semi-definite and M > 0 on the
// unknowns, so A is symmetric positive definite for any nu >= 0 and any h: the solve is stable
// at every viscosity from 0 to 1e5 m^2/s (the point of sec. 4.1). With every fraction 1 this is
// exactly A = 1 - D of eq. 48.
//
// 'carlson' (eq. 57): for each component separately, the difference across a cell centre
// (u_{i+1} - u_i across cell i, viscosity nu_i) and across each edge (u_{j} - u_{j-1}, with the
// edge viscosity of eq. 58, the geometric mean of the four cells around the edge). With full
// fractions the row of u_{i,j,k} is exactly eq. 57 made implicit.
// 'full' (eqs. 59-60, Batty & Bridson 2008): the cell sites measure 2 nu (du/dx)^2 and each edge
// measures nu (du/dy + dv/dx)^2, i.e. div(nu (grad u + grad u^T)); this couples u, v and w. Its
// null space holds the rigid motions, so with the fractions a spinning blob keeps its spin.
// eq. 57's does not (div(nu grad u) damps rotation wherever the surface is traction free):
// a known limit of Carlson's form.
//
// Free surface: with a level set (setup's phi, negative in the liquid; the solver passes the
// markers' own boundary, levelSet.ts MARKER_BOUNDARY, before redistancing) a cell's liquid
// fraction is 1 inside the liquid and clamp(1/2 - phi/dx, 0, 1) in cells at the surface
// (exact for a grid-aligned plane, as levelSet.ts levelSetVolume); a face's control volume is
// half in each of its two cells and an edge's a quarter in each of its four, so V_f and V_s
// are those averages (Batty & Bridson estimate them from the level set too). Stress samples
// partly in air then carry their share of the stress instead of none, and surface faces weigh
// what liquid they hold: the free surface no longer acts as a drag (issue 12 item 7). Without
// phi every face counts as full and every site touching air drops out (eq. 58 with nu_air = 0,
// the earlier behaviour). Air cells never carry viscosity; an edge's viscosity is the eq. 58
// mean over its liquid cells.
//
// Unknowns (sec. 3.2.3.4, 4.1.2): a face is an unknown when it is open (fraction > 0) and
// touches a liquid cell. A stress sample is used only if each of its faces is an unknown or a
// wall value (never an extrapolated air value). Faces that are not unknowns (closed faces
// holding the obstacle's normal velocity, faces inside solids holding its rigid velocity)
// enter as Dirichlet values moved to the right-hand side, which keeps A symmetric (sec. 4.1.2).
// With wallSlip 'free' a solid cell counts as nu = 0 in eq. 58 (no tangential stress, Carlson's
// free-slip walls).
//
// No-slip walls (wallSlip 'no'; closed domain sides are static walls, faces beyond them hold 0):
// the wall lies on the cell face between a liquid and a solid cell, but the tangential sample
// inside the solid that holds the wall velocity sits half a cell further in; using it as the
// neighbour puts the wall at the solid cell's centre (a first-order error: plane Poiseuille
// flow 12.6% fast at 16 cells across, issue 12 item 6). An edge whose two cells on one side
// are solid lies on the wall; there the tangential neighbour is the reflected ghost value
// u_g = 2 u_wall - u (the shear is 2 (u - u_wall) / dx), i.e. g_s has +-2 on that pair, and the
// edge's control volume is half in the solid (V_s = 1/2 from the cell average), so the row
// of u gains 2 nu h/dx^2 (u - u_wall): second order, and A stays symmetric.
//
// Solved by conjugate gradients over one vector of all faces [u | v | w] (rows that are not
// unknowns are the identity and stay 0; the product and the vector kernels visit only the
// unknown faces and the sites with a weight, in sweep order, so the bits are a full sweep's),
// preconditioned by one of:
// - 'multigrid': a geometric multigrid V-cycle per velocity component (viscousMultigrid.ts;
//   iterations flat from nu = 0.01 to 1e4 m^2/s), plus for the full stress the rigid motions
//   of stiff regions that float free (rigidModes.ts);
// - 'jacobi': sec. 4.1.2's (table 4) diagonal; iterations grow as sqrt(nu h / dx^2);
// - 'ic': incomplete Cholesky of the assembled coupled matrix (viscousMatrix.ts), plus for the
//   full stress the rigid motions of every stiff region (incompleteCholesky below);
// - 'auto' (the default): Jacobi while the system is mass-dominated (STIFF_RATIO), incomplete
//   Cholesky for the full stress across a large viscosity contrast (FULL_STRESS_CONTRAST_LIMIT),
//   else multigrid, handing over to incomplete Cholesky if it has not converged within
//   MULTIGRID_BUDGET iterations, or has not halved the residual in its first STALL_CHECK;
//   after such a stall the next CYCLE_REST solves go to
//   incomplete Cholesky directly (the system changes little from one substep to the next, and
//   a cycle that stalled once stalls again: the melting bunny's first substeps, every substep
//   of the toothpaste, where it cost 60 wasted iterations a solve), then the cycle is tried
//   again.
import type { MacGrid } from '../core/grid'
import { grownCapacity, reuseOrGrow } from '../core/growCapacity'
import { TS_KERNELS } from '../core/kernelBackend'
import type { KernelBackend } from '../core/kernelTypes'
import { IcSpace } from '../core/sparse/incompleteCholesky'
import { type LinearOperator, type PcgOptions, PcgSolver, type Preconditioner, type SolveStats, type VectorOps } from '../core/pcg'
import type { ViscousPreconditioner, ViscousStress, WallSlip } from './liquidInput'
import { RigidModeSpace, WithRigidModes } from './rigidModes'
import { ViscousAssembly, ViscousIncompleteCholesky } from './viscousMatrix'
import { VISCOUS_APPLY, VISCOUS_DOT, VISCOUS_UPDATE_ITERATE, VISCOUS_UPDATE_SEARCH, viscousAccumulate } from './viscousKernels'
import { ViscousMultigrid } from './viscousMultigrid'

export type { ViscousPreconditioner } from './liquidInput'

/**
 * 'auto' switches to multigrid at this diagonal-to-mass ratio (1 + 6 nu h / dx^2 inside the
 * liquid). Measured at 48^3 (a tank 60% full, no-slip walls): ratio 3.3 (nu = 0.01 m^2/s)
 * Jacobi 10 iterations, 188 ms, multigrid 2 iterations, 206 ms; ratio 230 (nu = 1) Jacobi 41
 * iterations, 867 ms, multigrid 4, 206 ms.
 */
export const STIFF_RATIO = 10
/** 'auto' hands over to incomplete Cholesky after this many multigrid iterations (see solve). */
export const MULTIGRID_BUDGET = 60
/**
 * 'auto' goes to incomplete Cholesky directly for this many solves after the cycle ran past its
 * budget. Measured on the melting bunny (`npx eddy bench bunny --frames 24`): its first four
 * substeps each spent 60 cycle iterations (30-63 ms) before incomplete Cholesky finished in
 * 200-246 more; the toothpaste stalled at every substep.
 */
export const CYCLE_REST = 20
/**
 * 'auto' with the full stress takes incomplete Cholesky when the liquid's viscosities span more
 * than this ratio: a stiff region in soft liquid (solid wax in its melt) is where the
 * per-component cycle misjudges the cross terms. Measured at 32^3, a ball of nu = 1e4 in a
 * shell of 0.1 m^2/s: multigrid 176 iterations, Jacobi 212, each multigrid iteration costing
 * about three Jacobi ones; the melting bunny (1e4 / 0.1) at its first three substeps:
 * multigrid 160-1487, Jacobi 700-794 (2.7-3.3 s), incomplete Cholesky 206-244 (0.9-1.5 s).
 * Carlson's stress has no cross terms and keeps multigrid (same ball: 42 against 100).
 */
export const FULL_STRESS_CONTRAST_LIMIT = 1000

/**
 * 'auto' hands over to incomplete Cholesky early when the cycle has not reduced the residual
 * below STALL_REDUCTION of its start after STALL_CHECK iterations. Measured (residual over
 * its start after 10 / 20 cycle iterations): the melting bunny's first solve, the solid wax
 * block before contrast sends it to incomplete Cholesky, 0.69 / 0.48 (then 227 IC
 * iterations); the toothpaste's first three solves 0.0024 / 0.026, 0.023 / 0.15 and 0.33 / 0.011
 * (the third still ran past MULTIGRID_BUDGET); the viscous dam break converges in 9-10.
 */
export const STALL_CHECK = 10
export const STALL_REDUCTION = 0.5

/** PcgOptions.giveUp for 'auto''s cycle: see STALL_CHECK. */
function stalledCycle(iterations: number, reduction: number): boolean {
  return iterations === STALL_CHECK && reduction > STALL_REDUCTION
}

/** Cell kinds shared by the liquid solver's parts. */
export const AIR = 0
export const LIQUID = 1
export const SOLID = 2

/** Sec. 4.1.2's diagonal preconditioner on the unknowns (z stays 0 elsewhere: the solve zeroes it). */
class JacobiPreconditioner implements Preconditioner {
  constructor(private readonly sys: ViscositySystem) {}
  apply(r: Float64Array, z: Float64Array): void {
    const { faces, faceCount } = this.sys
    const inv = this.sys.invDiag
    for (let t = 0; t < faceCount; t++) {
      const f = faces[t]
      z[f] = r[f] * inv[f]
    }
  }
}

/**
 * PcgSolver's vector kernels over the unknown faces only (a melting bunny's wax and melt are a
 * fifth of its grid's faces), in the list's order: the same non-zero terms in the same order as
 * full sweeps over vectors holding +0 off the unknowns (the identity rows with a zero
 * right-hand side), so every iterate is the same bits. Nothing in a solve reads the other rows,
 * which the product and the preconditioners leave unwritten.
 */
class UnknownFaceOps implements VectorOps {
  readonly n: number
  /** The reductions' one partial sum (the dot and the iterate's update are serial kernel rows, viscousKernels.ts). */
  private readonly partial: Float64Array
  constructor(private readonly sys: ViscositySystem) {
    this.n = sys.n
    this.partial = sys.kernels.f64(1)
  }
  alloc(): Float64Array {
    // In the kernels' memory: the product and incomplete Cholesky read and write these.
    return this.sys.kernels.f64(this.n)
  }
  dot(a: Float64Array, b: Float64Array): number {
    const { faces, faceCount, kernels } = this.sys
    return kernels.run(VISCOUS_DOT, a, b, faces, faceCount, this.partial)
  }
  axpy(y: Float64Array, alpha: number, x: Float64Array): void {
    const { faces, faceCount } = this.sys
    for (let t = 0; t < faceCount; t++) {
      const f = faces[t]
      y[f] += alpha * x[f]
    }
  }
  updateIterate(x: Float64Array, r: Float64Array, s: Float64Array, q: Float64Array, alpha: number): number {
    const { faces, faceCount, kernels } = this.sys
    return kernels.run(VISCOUS_UPDATE_ITERATE, x, r, s, q, alpha, faces, faceCount, this.partial)
  }
  updateSearch(s: Float64Array, z: Float64Array, beta: number): void {
    const { faces, faceCount, kernels } = this.sys
    kernels.run(VISCOUS_UPDATE_SEARCH, s, z, beta, faces, faceCount)
  }
  copy(dst: Float64Array, src: Float64Array): void {
    const { faces, faceCount } = this.sys
    for (let t = 0; t < faceCount; t++) dst[faces[t]] = src[faces[t]]
  }
}


/**
 * The box of cells within one cell of a liquid cell, clamped to the grid (ViscositySystem.box);
 * empty (i1 < i0) when no cell is liquid.
 */
function liquidBox(kind: Uint8Array, nx: number, ny: number, nz: number): { i0: number; i1: number; j0: number; j1: number; k0: number; k1: number } {
  let i0 = nx, i1 = -1, j0 = ny, j1 = -1, k0 = nz, k1 = -1
  for (let k = 0, c = 0; k < nz; k++) {
    for (let j = 0; j < ny; j++) {
      for (let i = 0; i < nx; i++, c++) {
        if (kind[c] !== LIQUID) continue
        if (i < i0) i0 = i
        if (i > i1) i1 = i
        if (j < j0) j0 = j
        if (j > j1) j1 = j
        if (k < k0) k0 = k
        if (k > k1) k1 = k
      }
    }
  }
  if (i1 < 0) return { i0: 0, i1: -1, j0: 0, j1: -1, k0: 0, k1: -1 }
  return { i0: Math.max(0, i0 - 1), i1: Math.min(nx - 1, i1 + 1), j0: Math.max(0, j0 - 1), j1: Math.min(ny - 1, j1 + 1), k0: Math.max(0, k0 - 1), k1: Math.min(nz - 1, k1 + 1) }
}

/** Smallest control-volume fraction of an unknown face (keeps M > 0 however thin the liquid). */
export const MIN_FACE_FRACTION = 0.05

export class ViscositySystem implements LinearOperator {
  readonly nx: number
  readonly ny: number
  readonly nz: number
  /** Faces per component and the offsets of v and w in the stacked vector. */
  readonly nu: number
  readonly nv: number
  readonly nw: number
  readonly n: number
  /** 1 where the face is an unknown of the last setup. */
  readonly unknown: Uint8Array
  /** Diagonal of A (1 on rows that are not unknowns). */
  readonly diagonal: Float64Array
  /** Right-hand side of the last setup (0 on rows that are not unknowns). */
  readonly rhs: Float64Array
  /** Solution / iterate. */
  readonly x: Float64Array
  /** M: control-volume liquid fraction of each unknown face (1 elsewhere). */
  readonly mass: Float64Array
  /** Liquid fraction of each cell of the last setup (0 in solids). */
  readonly cellFraction: Float32Array
  /** (h / dx^2) * weight * V_s of each cell site (2 nu for 'full', nu for 'carlson'). */
  readonly wCell: Float64Array
  /** (h / dx^2) * eq. 58 edge viscosity * V_s: xy edges (nx+1)(ny+1)nz, xz (nx+1)ny(nz+1), yz nx(ny+1)(nz+1). */
  readonly wXY: Float64Array
  readonly wXZ: Float64Array
  readonly wYZ: Float64Array
  /** Per edge: bit 0 = its first pair of faces reads a wall's reflected ghost (factor 2), bit 1 = its second pair. */
  readonly gXY: Uint8Array
  readonly gXZ: Uint8Array
  readonly gYZ: Uint8Array
  /** 1 where a face is an unknown or holds a wall value (closed / inside a solid). */
  private readonly usable: Uint8Array
  private readonly known: Float64Array
  /** 1 / diagonal (Jacobi). */
  readonly invDiag: Float64Array
  /** The unknown faces of the last setup in increasing order: faces[0 .. faceCount). */
  faces: Int32Array = new Int32Array(0)
  faceCount = 0
  /** Faces that are not unknowns but some site reads (wall values), in increasing order. */
  private wallFaces: Int32Array = new Int32Array(0)
  private wallCount = 0
  /**
   * The sites of the last setup with a weight, in the order of a sweep over each kind (cells,
   * then xy, xz, yz edges): accumulate visits only these, in the order the full sweeps did.
   */
  cellSites: Int32Array = new Int32Array(0)
  cellCount = 0
  /**
   * The edge sites with a weight, xy edges first, then xz, then yz: site t reads faces
   * edgeFaces[4t .. 4t+3] (pair a0 -> a1 of one component, b0 -> b1 of the other, stacked
   * indices, -1 beyond the domain), with weight edgeW[t] and ghost flags edgeG[t]. Found once
   * per setup, so the product does not decode edge indices at every iteration.
   */
  edgeFaces: Int32Array = new Int32Array(0)
  edgeW: Float64Array = new Float64Array(0)
  edgeG: Uint8Array = new Uint8Array(0)
  /** Where the xy and the xz edges end in the edge lists, and how many there are in all. */
  xyEnd = 0
  xzEnd = 0
  edgeCount = 0
  /** x on the unknowns, +0 elsewhere (apply's masked copy; setup leaves it zeroed). */
  private readonly tmp: Float64Array
  private readonly pcg: PcgSolver
  private readonly jacobi: JacobiPreconditioner
  private multigrid: ViscousMultigrid | null = null
  private rigidModes: RigidModeSpace | null = null
  /** The cells the last setup read (the rigid-mode space finds stiff regions in them). */
  private setupCells: { kind: Uint8Array; cellNu: Float32Array; dx: number } | null = null

  /** 'auto' hands over to incomplete Cholesky after this many multigrid iterations (MULTIGRID_BUDGET). */
  multigridBudget = MULTIGRID_BUDGET
  /**
   * 'auto': solves left that skip the cycle because it stalled (CYCLE_REST). State: it decides
   * the preconditioner and so the bits, so the liquid's checkpoint carries it.
   */
  cycleRest = 0
  /** Stiff regions whose rigid motions the last multigrid or incomplete-Cholesky solve added (0 without them). */
  get rigidModeRegions(): number {
    return this.rigidModes?.regions ?? 0
  }

  /** With the full stress, add the stiff regions' rigid motions to the cycle and to incomplete Cholesky (rigidModes.ts). */
  useRigidModes = true
  /** Which preconditioner solve() uses (see the file comment). */
  preconditioner: ViscousPreconditioner = 'auto'
  /** The one the last solve used. */
  lastPreconditioner: 'multigrid' | 'jacobi' | 'multigrid+ic' | 'ic' = 'jacobi'
  private full = false
  /** Scratch for setup (no allocation per substep): the four cells of an edge, what missing ones count as, their kinds. */
  private readonly cs = new Int32Array(4)
  private readonly outside = new Uint8Array(4)
  private readonly kd = new Uint8Array(4)
  /** Ghost flags of the last edgeSite call. */
  private edgeFlags = 0
  /** Some site has a weight: otherwise A = M and nothing changes. */
  active = false
  /**
   * The cells within one of a liquid cell of the last setup, [i0, i1] x [j0, j1] x [k0, k1]
   * (empty when there is no liquid): every unknown face, every site with a weight and every
   * face and cell they read lie in it or on its faces, so setup's passes visit only it (a
   * melting bunny's liquid spans an eighth of its grid). Outside it the arrays hold what passes
   * over the whole grid would give (no unknown, no weight, mass and diagonal 1, fraction 0),
   * except usable and known, which nothing reads there.
   */
  private box = { i0: 0, i1: -1, j0: 0, j1: -1, k0: 0, k1: -1 }

  /**
   * Where the product (viscousKernels.ts) and incomplete Cholesky's solves run; the arrays they
   * read live in its memory.
   */
  readonly kernels: KernelBackend
  /** Incomplete Cholesky's arrays, reused by every solve that factors. */
  private readonly icSpace: IcSpace
  /** Its matrix's assembly arrays, reused likewise. */
  private readonly icAssembly = new ViscousAssembly()

  constructor(nx: number, ny: number, nz: number, kernels: KernelBackend = TS_KERNELS) {
    this.kernels = kernels
    this.icSpace = new IcSpace(kernels)
    this.nx = nx
    this.ny = ny
    this.nz = nz
    this.nu = (nx + 1) * ny * nz
    this.nv = nx * (ny + 1) * nz
    this.nw = nx * ny * (nz + 1)
    this.n = this.nu + this.nv + this.nw
    this.unknown = new Uint8Array(this.n)
    this.usable = new Uint8Array(this.n)
    this.diagonal = new Float64Array(this.n)
    this.rhs = kernels.f64(this.n)
    this.x = kernels.f64(this.n)
    this.mass = kernels.f64(this.n)
    this.known = new Float64Array(this.n)
    this.invDiag = new Float64Array(this.n)
    this.tmp = kernels.f64(this.n)
    this.cellFraction = new Float32Array(nx * ny * nz)
    this.wCell = kernels.f64(nx * ny * nz)
    this.wXY = new Float64Array((nx + 1) * (ny + 1) * nz)
    this.wXZ = new Float64Array((nx + 1) * ny * (nz + 1))
    this.wYZ = new Float64Array(nx * (ny + 1) * (nz + 1))
    this.gXY = new Uint8Array(this.wXY.length)
    this.gXZ = new Uint8Array(this.wXZ.length)
    this.gYZ = new Uint8Array(this.wYZ.length)
    this.pcg = new PcgSolver(new UnknownFaceOps(this))
    this.jacobi = new JacobiPreconditioner(this)
  }

  /**
   * One edge site over the cells cs = (a, b, c, d) (-1 = outside the domain, counted as
   * outside[q]: SOLID for a closed side, AIR for an open one) and its faces: pair a (a0 across
   * cells 0|1, a1 across 2|3) and pair b (b0 across 0|2, b1 across 1|3), -1 = beyond the
   * domain. Returns nu_edge * V_edge (eq. 58 over the liquid cells times the liquid fraction of
   * the edge's control volume) and sets edgeFlags; 0 when the site is not used.
   */
  private edgeSite(cellNu: Float32Array, kind: Uint8Array, noSlip: boolean, dropAir: boolean, a0: number, a1: number, b0: number, b1: number): number {
    const { cs, outside, kd, cellFraction, usable } = this
    let prod = 1
    let count = 0
    let frac = 0
    for (let q = 0; q < 4; q++) {
      const c = cs[q]
      const k = c < 0 ? outside[q] : kind[c]
      kd[q] = k
      if (k === SOLID) {
        if (!noSlip) return 0
        continue
      }
      if (k === AIR) {
        if (dropAir) return 0
        if (c >= 0) frac += cellFraction[c]
        continue
      }
      prod *= cellNu[c]
      count++
      frac += cellFraction[c]
    }
    if (count === 0 || frac <= 0) return 0
    // Every face must be an unknown or a wall value (beyond the domain: only past a closed side).
    if (!(a0 >= 0 ? usable[a0] : kd[0] === SOLID)) return 0
    if (!(a1 >= 0 ? usable[a1] : kd[2] === SOLID)) return 0
    if (!(b0 >= 0 ? usable[b0] : kd[0] === SOLID)) return 0
    if (!(b1 >= 0 ? usable[b1] : kd[1] === SOLID)) return 0
    // A wall along the edge: both cells on one side of a pair solid, none on the other side.
    let flags = 0
    const s0 = kd[0] === SOLID, s1 = kd[1] === SOLID, s2 = kd[2] === SOLID, s3 = kd[3] === SOLID
    if ((s0 && s1 && !s2 && !s3) || (s2 && s3 && !s0 && !s1)) flags |= 1
    if ((s0 && s2 && !s1 && !s3) || (s1 && s3 && !s0 && !s2)) flags |= 2
    this.edgeFlags = flags
    // Fourth root when all four are liquid (eq. 58); with walls / air left out, the mean of the rest.
    const nuEdge = count === 4 ? Math.sqrt(Math.sqrt(prod)) : count === 1 ? prod : Math.pow(prod, 1 / count)
    return nuEdge * (frac / 4)
  }

  /**
   * Builds the system for one substep: site weights from the cell viscosities (m^2/s, only
   * liquid cells are read), the unknown faces, Dirichlet values from vel, the right-hand side
   * and the diagonal. open = openFlags(sides) (1 = open side). phi: the liquid's level set at
   * cell centres (negative inside) for the control-volume fractions; null = every face full
   * and sites touching air dropped.
   */
  setup(
    vel: MacGrid,
    fractions: MacGrid,
    kind: Uint8Array,
    cellNu: Float32Array,
    h: number,
    stress: ViscousStress,
    slip: WallSlip,
    open: Uint8Array,
    phi: Float32Array | null = null,
  ): void {
    const { nx, ny, nz, nu, nv } = this
    const plane = nx * ny
    const dx = vel.spec.dx
    const s = h / (dx * dx)
    const full = stress === 'full'
    this.setupCells = { kind, cellNu, dx }
    const noSlip = slip === 'no'
    const dropAir = phi === null
    this.full = full
    const { cs, outside, unknown, usable, known, x, mass, cellFraction } = this
    const box = (this.box = liquidBox(kind, nx, ny, nz))
    const { i0, i1, j0, j1, k0, k1 } = box
    // Unknowns: open faces touching a liquid cell; usable: unknowns and wall values.
    const liquidAt = (i: number, j: number, k: number) => i >= 0 && j >= 0 && k >= 0 && i < nx && j < ny && k < nz && kind[i + nx * (j + ny * k)] === LIQUID
    unknown.fill(0)
    for (let k = k0; k <= k1; k++) {
      for (let j = j0; j <= j1; j++) {
        for (let i = i0; i <= i1 + 1; i++) {
          const f = i + (nx + 1) * (j + ny * k)
          const o = fractions.u[f] > 0
          unknown[f] = o && (liquidAt(i - 1, j, k) || liquidAt(i, j, k)) ? 1 : 0
          usable[f] = unknown[f] || !o ? 1 : 0
          known[f] = vel.u[f]
        }
      }
    }
    for (let k = k0; k <= k1; k++) {
      for (let j = j0; j <= j1 + 1; j++) {
        for (let i = i0; i <= i1; i++) {
          const f = i + nx * (j + (ny + 1) * k)
          const o = fractions.v[f] > 0
          unknown[nu + f] = o && (liquidAt(i, j - 1, k) || liquidAt(i, j, k)) ? 1 : 0
          usable[nu + f] = unknown[nu + f] || !o ? 1 : 0
          known[nu + f] = vel.v[f]
        }
      }
    }
    for (let k = k0; k <= k1 + 1; k++) {
      for (let j = j0; j <= j1; j++) {
        for (let i = i0; i <= i1; i++) {
          const f = i + nx * (j + ny * k)
          const o = fractions.w[f] > 0
          unknown[nu + nv + f] = o && (liquidAt(i, j, k - 1) || liquidAt(i, j, k)) ? 1 : 0
          usable[nu + nv + f] = unknown[nu + nv + f] || !o ? 1 : 0
          known[nu + nv + f] = vel.w[f]
        }
      }
    }
    // Cell liquid fractions: 1 inside the liquid, clamp(1/2 - phi/dx) at the surface, 0 in solids.
    cellFraction.fill(0)
    for (let k = k0; k <= k1; k++) {
      for (let j = j0; j <= j1; j++) {
        for (let i = i0; i <= i1; i++) {
          const c = i + nx * (j + ny * k)
          const kc = kind[c]
          let fr = 0
          if (phi === null) fr = kc === LIQUID ? 1 : 0
          else if (kc !== SOLID) {
            const interior =
              kc === LIQUID &&
              !(i > 0 && kind[c - 1] === AIR) &&
              !(i < nx - 1 && kind[c + 1] === AIR) &&
              !(j > 0 && kind[c - nx] === AIR) &&
              !(j < ny - 1 && kind[c + nx] === AIR) &&
              !(k > 0 && kind[c - plane] === AIR) &&
              !(k < nz - 1 && kind[c + plane] === AIR)
            if (interior) fr = 1
            else {
              fr = 0.5 - phi[c] / dx
              fr = fr > 0 ? (fr < 1 ? fr : 1) : 0
            }
          }
          cellFraction[c] = fr
        }
      }
    }
    // M: a face's control volume is half in each of its cells (beyond the domain counts 0).
    const cf = (i: number, j: number, k: number) => (i >= 0 && j >= 0 && k >= 0 && i < nx && j < ny && k < nz ? cellFraction[i + nx * (j + ny * k)] : 0)
    mass.fill(1)
    if (!dropAir) {
      for (let k = k0; k <= k1; k++) for (let j = j0; j <= j1; j++) for (let i = i0; i <= i1 + 1; i++) {
        const f = i + (nx + 1) * (j + ny * k)
        if (unknown[f]) mass[f] = Math.max(MIN_FACE_FRACTION, 0.5 * (cf(i - 1, j, k) + cf(i, j, k)))
      }
      for (let k = k0; k <= k1; k++) for (let j = j0; j <= j1 + 1; j++) for (let i = i0; i <= i1; i++) {
        const f = nu + i + nx * (j + (ny + 1) * k)
        if (unknown[f]) mass[f] = Math.max(MIN_FACE_FRACTION, 0.5 * (cf(i, j - 1, k) + cf(i, j, k)))
      }
      for (let k = k0; k <= k1 + 1; k++) for (let j = j0; j <= j1; j++) for (let i = i0; i <= i1; i++) {
        const f = nu + nv + i + nx * (j + ny * k)
        if (unknown[f]) mass[f] = Math.max(MIN_FACE_FRACTION, 0.5 * (cf(i, j, k - 1) + cf(i, j, k)))
      }
    }
    let any = false
    this.wCell.fill(0)
    for (let k = k0; k <= k1; k++) for (let j = j0; j <= j1; j++) for (let i = i0; i <= i1; i++) {
      const c = i + nx * (j + ny * k)
      const w = kind[c] === LIQUID ? s * cellNu[c] * (full ? 2 : 1) * cellFraction[c] : 0
      this.wCell[c] = w
      if (w > 0) any = true
    }
    const ov = nu, ow = nu + nv
    const sideKind = (o: number) => (open[o] ? AIR : SOLID)
    const cell = (i: number, j: number, k: number) => (i < 0 || j < 0 || k < 0 || i >= nx || j >= ny || k >= nz ? -1 : i + nx * (j + ny * k))
    const liquidIn = (q: Int32Array) => (q[0] >= 0 && kind[q[0]] === LIQUID) || (q[1] >= 0 && kind[q[1]] === LIQUID) || (q[2] >= 0 && kind[q[2]] === LIQUID) || (q[3] >= 0 && kind[q[3]] === LIQUID)
    this.wXY.fill(0)
    this.gXY.fill(0)
    this.wXZ.fill(0)
    this.gXZ.fill(0)
    this.wYZ.fill(0)
    this.gYZ.fill(0)
    // xy edges at (i, j, k + 1/2): cells (i-1, j-1), (i, j-1), (i-1, j), (i, j); u(j-1), u(j) and v(i-1), v(i).
    for (let k = k0; k <= k1; k++) {
      for (let j = j0; j <= j1 + 1; j++) {
        for (let i = i0; i <= i1 + 1; i++) {
          cs[0] = cell(i - 1, j - 1, k)
          cs[1] = cell(i, j - 1, k)
          cs[2] = cell(i - 1, j, k)
          cs[3] = cell(i, j, k)
          if (!liquidIn(cs)) {
            // No liquid cell: edgeSite would return 0 (most edges of a box the liquid partly fills).
            const e = i + (nx + 1) * (j + (ny + 1) * k)
            this.wXY[e] = 0
            this.gXY[e] = 0
            continue
          }
          for (let q = 0; q < 4; q++) {
            const di = q & 1 ? i : i - 1, dj = q & 2 ? j : j - 1
            outside[q] = di < 0 ? sideKind(0) : di >= nx ? sideKind(1) : dj < 0 ? sideKind(2) : sideKind(3)
          }
          const ua = j > 0 ? i + (nx + 1) * (j - 1 + ny * k) : -1
          const ub = j < ny ? i + (nx + 1) * (j + ny * k) : -1
          const va = i > 0 ? ov + i - 1 + nx * (j + (ny + 1) * k) : -1
          const vb = i < nx ? ov + i + nx * (j + (ny + 1) * k) : -1
          const e = i + (nx + 1) * (j + (ny + 1) * k)
          const w = s * this.edgeSite(cellNu, kind, noSlip, dropAir, ua, ub, va, vb)
          this.wXY[e] = w
          this.gXY[e] = w > 0 ? this.edgeFlags : 0
          if (w > 0) any = true
        }
      }
    }
    // xz edges at (i, j + 1/2, k): cells (i-1, k-1), (i, k-1), (i-1, k), (i, k); u(k-1), u(k) and w(i-1), w(i).
    for (let k = k0; k <= k1 + 1; k++) {
      for (let j = j0; j <= j1; j++) {
        for (let i = i0; i <= i1 + 1; i++) {
          cs[0] = cell(i - 1, j, k - 1)
          cs[1] = cell(i, j, k - 1)
          cs[2] = cell(i - 1, j, k)
          cs[3] = cell(i, j, k)
          if (!liquidIn(cs)) {
            // No liquid cell: edgeSite would return 0 (most edges of a box the liquid partly fills).
            const e = i + (nx + 1) * (j + ny * k)
            this.wXZ[e] = 0
            this.gXZ[e] = 0
            continue
          }
          for (let q = 0; q < 4; q++) {
            const di = q & 1 ? i : i - 1, dk = q & 2 ? k : k - 1
            outside[q] = di < 0 ? sideKind(0) : di >= nx ? sideKind(1) : dk < 0 ? sideKind(4) : sideKind(5)
          }
          const ua = k > 0 ? i + (nx + 1) * (j + ny * (k - 1)) : -1
          const ub = k < nz ? i + (nx + 1) * (j + ny * k) : -1
          const wa = i > 0 ? ow + i - 1 + nx * (j + ny * k) : -1
          const wb = i < nx ? ow + i + nx * (j + ny * k) : -1
          const e = i + (nx + 1) * (j + ny * k)
          const w = s * this.edgeSite(cellNu, kind, noSlip, dropAir, ua, ub, wa, wb)
          this.wXZ[e] = w
          this.gXZ[e] = w > 0 ? this.edgeFlags : 0
          if (w > 0) any = true
        }
      }
    }
    // yz edges at (i + 1/2, j, k): cells (j-1, k-1), (j, k-1), (j-1, k), (j, k); v(k-1), v(k) and w(j-1), w(j).
    for (let k = k0; k <= k1 + 1; k++) {
      for (let j = j0; j <= j1 + 1; j++) {
        for (let i = i0; i <= i1; i++) {
          cs[0] = cell(i, j - 1, k - 1)
          cs[1] = cell(i, j, k - 1)
          cs[2] = cell(i, j - 1, k)
          cs[3] = cell(i, j, k)
          if (!liquidIn(cs)) {
            // No liquid cell: edgeSite would return 0 (most edges of a box the liquid partly fills).
            const e = i + nx * (j + (ny + 1) * k)
            this.wYZ[e] = 0
            this.gYZ[e] = 0
            continue
          }
          for (let q = 0; q < 4; q++) {
            const dj = q & 1 ? j : j - 1, dk = q & 2 ? k : k - 1
            outside[q] = dj < 0 ? sideKind(2) : dj >= ny ? sideKind(3) : dk < 0 ? sideKind(4) : sideKind(5)
          }
          const va = k > 0 ? ov + i + nx * (j + (ny + 1) * (k - 1)) : -1
          const vb = k < nz ? ov + i + nx * (j + (ny + 1) * k) : -1
          const wa = j > 0 ? ow + i + nx * (j - 1 + ny * k) : -1
          const wb = j < ny ? ow + i + nx * (j + ny * k) : -1
          const e = i + nx * (j + (ny + 1) * k)
          const w = s * this.edgeSite(cellNu, kind, noSlip, dropAir, va, vb, wa, wb)
          this.wYZ[e] = w
          this.gYZ[e] = w > 0 ? this.edgeFlags : 0
          if (w > 0) any = true
        }
      }
    }
    this.active = any
    this.listSites()
    this.listFaces()
    // b = M u - K u_known on unknown rows (Dirichlet values moved right, sec. 3.3.2); x0 = u.
    // (The unknowns' loops go over the face list: a liquid fills part of the box.)
    const { rhs, tmp, diagonal, faces, faceCount } = this
    x.fill(0)
    for (let t = 0; t < faceCount; t++) {
      const f = faces[t]
      x[f] = known[f]
      known[f] = 0
    }
    tmp.fill(0)
    this.accumulate(known, tmp)
    rhs.fill(0)
    for (let t = 0; t < faceCount; t++) {
      const f = faces[t]
      rhs[f] = mass[f] * x[f] - tmp[f]
      // Restore the known vector (u everywhere) for writeBack.
      known[f] = x[f]
    }
    // Diagonal: M + the weights of every site the face takes part in (times its g entry squared).
    diagonal.fill(1) // outside the box: the identity's rows
    this.forBoxFaces((f) => (diagonal[f] = 0))
    this.accumulateDiagonal(diagonal)
    // The faces apply must reset after accumulating (wallFaces): every site adds a positive
    // weight to the diagonal of each face it reads, so those are the non-zero entries here
    // (all in the box, which the three passes below visit in index order; 1 elsewhere).
    if (this.wallFaces.length < this.n) this.wallFaces = this.kernels.i32(this.n)
    const { wallFaces, invDiag } = this
    let walls = 0
    const finish = (f: number) => {
      const d = diagonal[f]
      let a = 1
      if (unknown[f]) a = mass[f] + d
      else if (d !== 0) wallFaces[walls++] = f
      diagonal[f] = a
      invDiag[f] = 1 / a
    }
    invDiag.fill(1)
    this.forBoxFaces(finish)
    this.wallCount = walls
    tmp.fill(0)
  }

  /** The unknown faces in increasing order (faces, faceCount). */
  private listFaces(): void {
    const { unknown } = this
    let count = 0
    this.forBoxFaces((f) => (count += unknown[f]))
    this.faces = reuseOrGrow(this.faces, count, (m) => this.kernels.i32(m))
    const faces = this.faces
    let t = 0
    this.forBoxFaces((f) => {
      if (unknown[f]) faces[t++] = f
    })
    this.faceCount = t
  }

  /** fn(f) for every face of the box (setup's), u then v then w, each in increasing index order. */
  private forBoxFaces(fn: (f: number) => void): void {
    const { nx, ny, nu, nv } = this
    const { i0, i1, j0, j1, k0, k1 } = this.box
    for (let k = k0; k <= k1; k++) for (let j = j0; j <= j1; j++) for (let i = i0; i <= i1 + 1; i++) fn(i + (nx + 1) * (j + ny * k))
    for (let k = k0; k <= k1; k++) for (let j = j0; j <= j1 + 1; j++) for (let i = i0; i <= i1; i++) fn(nu + i + nx * (j + (ny + 1) * k))
    for (let k = k0; k <= k1 + 1; k++) for (let j = j0; j <= j1; j++) for (let i = i0; i <= i1; i++) fn(nu + nv + i + nx * (j + ny * k))
  }

  /** The sites with a weight, each kind in increasing index order (the full sweeps' order). */
  private listSites(): void {
    const { nx, ny, nz, nu, nv, wCell, wXY, wXZ, wYZ, gXY, gXZ, gYZ } = this
    const ov = nu, ow = nu + nv
    // Only the box can hold a weight (setup): its cells and edges, in index order.
    const { i0, i1, j0, j1, k0, k1 } = this.box
    let cells = 0
    for (let k = k0; k <= k1; k++) for (let j = j0; j <= j1; j++) for (let i = i0; i <= i1; i++) if (wCell[i + nx * (j + ny * k)] !== 0) cells++
    this.cellSites = reuseOrGrow(this.cellSites, cells, (m) => this.kernels.i32(m))
    this.cellCount = 0
    for (let k = k0; k <= k1; k++) for (let j = j0; j <= j1; j++) for (let i = i0; i <= i1; i++) {
      const c = i + nx * (j + ny * k)
      if (wCell[c] !== 0) this.cellSites[this.cellCount++] = c
    }
    let edges = 0
    for (let k = k0; k <= k1; k++) for (let j = j0; j <= j1 + 1; j++) for (let i = i0; i <= i1 + 1; i++) if (wXY[i + (nx + 1) * (j + (ny + 1) * k)] !== 0) edges++
    for (let k = k0; k <= k1 + 1; k++) for (let j = j0; j <= j1; j++) for (let i = i0; i <= i1 + 1; i++) if (wXZ[i + (nx + 1) * (j + ny * k)] !== 0) edges++
    for (let k = k0; k <= k1 + 1; k++) for (let j = j0; j <= j1 + 1; j++) for (let i = i0; i <= i1; i++) if (wYZ[i + nx * (j + (ny + 1) * k)] !== 0) edges++
    if (this.edgeW.length < edges) {
      const cap = grownCapacity(this.edgeW.length, edges)
      this.edgeFaces = this.kernels.i32(4 * cap)
      this.edgeW = this.kernels.f64(cap)
      this.edgeG = this.kernels.u8(cap)
    }
    const { edgeFaces, edgeW, edgeG } = this
    let t = 0
    const push = (w: number, g: number, a0: number, a1: number, b0: number, b1: number): void => {
      edgeFaces[4 * t] = a0
      edgeFaces[4 * t + 1] = a1
      edgeFaces[4 * t + 2] = b0
      edgeFaces[4 * t + 3] = b1
      edgeW[t] = w
      edgeG[t++] = g
    }
    // xy edges: du/dy between u(i, j-1) and u(i, j); dv/dx between v(i-1, j) and v(i, j).
    for (let k = k0; k <= k1; k++) for (let j = j0; j <= j1 + 1; j++) for (let i = i0; i <= i1 + 1; i++) {
      const e = i + (nx + 1) * (j + (ny + 1) * k)
      if (wXY[e] === 0) continue
      push(wXY[e], gXY[e], j > 0 ? i + (nx + 1) * (j - 1 + ny * k) : -1, j < ny ? i + (nx + 1) * (j + ny * k) : -1, i > 0 ? ov + i - 1 + nx * (j + (ny + 1) * k) : -1, i < nx ? ov + i + nx * (j + (ny + 1) * k) : -1)
    }
    this.xyEnd = t
    // xz edges: du/dz between u(k-1) and u(k); dw/dx between w(i-1) and w(i).
    for (let k = k0; k <= k1 + 1; k++) for (let j = j0; j <= j1; j++) for (let i = i0; i <= i1 + 1; i++) {
      const e = i + (nx + 1) * (j + ny * k)
      if (wXZ[e] === 0) continue
      push(wXZ[e], gXZ[e], k > 0 ? i + (nx + 1) * (j + ny * (k - 1)) : -1, k < nz ? i + (nx + 1) * (j + ny * k) : -1, i > 0 ? ow + i - 1 + nx * (j + ny * k) : -1, i < nx ? ow + i + nx * (j + ny * k) : -1)
    }
    this.xzEnd = t
    // yz edges: dv/dz between v(k-1) and v(k); dw/dy between w(j-1) and w(j).
    for (let k = k0; k <= k1 + 1; k++) for (let j = j0; j <= j1 + 1; j++) for (let i = i0; i <= i1; i++) {
      const e = i + nx * (j + (ny + 1) * k)
      if (wYZ[e] === 0) continue
      push(wYZ[e], gYZ[e], k > 0 ? ov + i + nx * (j + (ny + 1) * (k - 1)) : -1, k < nz ? ov + i + nx * (j + (ny + 1) * k) : -1, j > 0 ? ow + i + nx * (j - 1 + ny * k) : -1, j < ny ? ow + i + nx * (j + ny * k) : -1)
    }
    this.edgeCount = t
  }

  /** out += K src, K = sum_s w_s g_s g_s^T (viscousKernels.ts viscousAccumulate, on this thread). */
  private accumulate(src: Float64Array, out: Float64Array): void {
    viscousAccumulate(src, out, this.cellSites, this.cellCount, this.wCell, this.edgeFaces, this.edgeW, this.edgeG, this.edgeCount, this.nx, this.ny, this.nu, this.nv, this.full ? 1 : 0)
  }

  /** diag[f] += w g_f^2 of one edge site (see viscousAccumulate). */
  private edgeDiagonal(diag: Float64Array, w: number, flags: number, a0: number, a1: number, b0: number, b1: number): void {
    const wa = flags & 1 ? 4 * w : w, wb = flags & 2 ? 4 * w : w
    if (a0 >= 0) diag[a0] += wa
    if (a1 >= 0) diag[a1] += wa
    if (b0 >= 0) diag[b0] += wb
    if (b1 >= 0) diag[b1] += wb
  }

  /** diag += sum over the sites each face is in of w_s g_s[f]^2 (the sites of listSites, as accumulate). */
  private accumulateDiagonal(diag: Float64Array): void {
    const { nx, ny, nu, nv, wCell } = this
    const ov = nu, ow = nu + nv
    const plane = nx * ny
    const cells = this.cellSites
    for (let t = 0; t < this.cellCount; t++) {
      const c = cells[t]
      const w = wCell[c]
      const row = (c / nx) | 0
      const k = (row / ny) | 0
      const u0 = c + row
      diag[u0] += w
      diag[u0 + 1] += w
      const v0 = ov + c + nx * k
      diag[v0] += w
      diag[v0 + nx] += w
      diag[ow + c] += w
      diag[ow + c + plane] += w
    }
    const { edgeFaces, edgeW, edgeG } = this
    for (let t = 0; t < this.edgeCount; t++) this.edgeDiagonal(diag, edgeW[t], edgeG[t], edgeFaces[4 * t], edgeFaces[4 * t + 1], edgeFaces[4 * t + 2], edgeFaces[4 * t + 3])
  }

  /** out = A x: (M + K) on unknown rows with non-unknown entries of x read as 0; identity elsewhere. */
  apply(x: Float64Array, out: Float64Array): void {
    out.set(x)
    this.applyUnknownRows(x, out)
  }

  /**
   * apply's values on the unknown rows; out's other rows are not written, except the wall
   * faces the sites reach, which get x back. This is the product the solve uses: its vector
   * kernels (UnknownFaceOps) and every preconditioner here read the unknowns only, and writing
   * x into the other rows was a pass over every face of the grid at each iteration (with the
   * preconditioner's clear, about a sixth of an iteration on the melting bunny).
   */
  private applyUnknownRows(x: Float64Array, out: Float64Array, b: Float64Array | null = null): void {
    // tmp is +0 off the unknowns (setup), so only the unknowns are copied into it.
    this.kernels.run(VISCOUS_APPLY, x, out, b, this.tmp, this.mass, this.faces, this.faceCount, this.wallFaces, this.wallCount, this.cellSites, this.cellCount, this.wCell, this.edgeFaces, this.edgeW, this.edgeG, this.edgeCount, this.nx, this.ny, this.nu, this.nv, this.full ? 1 : 0)
  }

  /** A x on the unknown rows only (see applyUnknownRows): all the rigid modes' coarse matrix reads. */
  applyUnknowns(x: Float64Array, out: Float64Array): void {
    this.applyUnknownRows(x, out)
  }

  /** The operator the solve hands to PCG: the product and residual on the unknown rows only. */
  private readonly unknownRows: LinearOperator = {
    apply: (x, out) => this.applyUnknownRows(x, out),
    residual: (b, x, r) => this.applyUnknownRows(x, r, b),
  }

  /** Solves A x = rhs from the warm start x = u (PCG with `preconditioner`). */
  solve(tolerance: number, maxIterations: number): SolveStats {
    if (!this.active) return { iterations: 0, residual: 0, converged: true }
    const asked = this.preconditioner
    const resting = asked === 'auto' && this.cycleRest > 0
    if (resting) this.cycleRest--
    let choice = asked === 'auto' ? this.autoChoice() : asked
    if (resting && choice === 'multigrid') choice = 'ic'
    this.lastPreconditioner = choice
    const run = (pre: Preconditioner, limit: number, giveUp?: PcgOptions['giveUp']) => {
      // The vector kernels visit the unknowns only (UnknownFaceOps): clear what the last
      // system's unknowns left in the scratch vectors.
      this.pcg.zeroScratch()
      return this.pcg.solve(this.unknownRows, pre, this.rhs, this.x, { tolerance, maxIterations: limit, giveUp })
    }
    if (choice === 'jacobi') return run(this.jacobi, maxIterations)
    if (choice === 'ic') return run(this.incompleteCholesky(), maxIterations)
    this.multigrid ??= new ViscousMultigrid(this.nx, this.ny, this.nz, this.kernels)
    this.multigrid.setup(this)
    let pre: Preconditioner = this.multigrid
    if (this.full && this.useRigidModes) {
      // The full stress lets stiff regions move rigidly for free: rigidModes.ts.
      this.rigidModes ??= new RigidModeSpace(this.nx, this.ny, this.nz, this.kernels)
      const { kind, cellNu, dx } = this.setupCells!
      if (this.rigidModes.setup(this, kind, cellNu, dx) > 0) pre = new WithRigidModes(this.multigrid, this.rigidModes)
    }
    if (this.preconditioner === 'multigrid') return run(pre, maxIterations)
    // 'auto': should the cycle stall (the full stress's cross terms near a stiff body's free
    // surface, which 'auto' otherwise avoids by the contrast rule), incomplete Cholesky of the
    // coupled matrix finishes from the iterate reached.
    const first = run(pre, Math.min(maxIterations, this.multigridBudget), stalledCycle)
    if (first.converged || first.iterations >= maxIterations) return first
    this.lastPreconditioner = 'multigrid+ic'
    this.cycleRest = CYCLE_REST
    const rest = run(this.incompleteCholesky(), maxIterations - first.iterations)
    return { ...rest, iterations: first.iterations + rest.iterations }
  }

  /**
   * Incomplete Cholesky of the coupled matrix; with the full stress, plus the rigid motions of
   * every stiff region, those held by a wall or a solid too (rigidModes.ts 'all'). IC(0) sees
   * only each face's own sites, so a stiff body's slow motions (a sway or twist about where it
   * stands, which the full stress charges little for) are left to the iteration: on the
   * melting bunny (`npx eddy bench bunny --frames 24`) 114.8 iterations a substep without the
   * motions and 78.9 with them (after the first frames 96 -> 60), on the toothpaste 8% fewer;
   * the viscosity phase 57 -> 48 ms/frame (four alternating runs each). (The cycle takes free
   * regions only: with held ones it gained nothing on the viscous dam break.)
   */
  private incompleteCholesky(): Preconditioner {
    const ic = new ViscousIncompleteCholesky(this, this.icSpace, this.icAssembly)
    if (!this.full || !this.useRigidModes) return ic
    this.rigidModes ??= new RigidModeSpace(this.nx, this.ny, this.nz, this.kernels)
    const { kind, cellNu, dx } = this.setupCells!
    return this.rigidModes.setup(this, kind, cellNu, dx, 'all') > 0 ? new WithRigidModes(ic, this.rigidModes) : ic
  }

  /** What 'auto' uses for the last setup (see the file comment). */
  private autoChoice(): 'jacobi' | 'multigrid' | 'ic' {
    if (this.stiffness() < STIFF_RATIO) return 'jacobi'
    if (this.full && this.viscosityContrast() > FULL_STRESS_CONTRAST_LIMIT) return 'ic'
    return 'multigrid'
  }

  /** Whether the last setup used the full stress tensor (else Carlson's eq. 57). */
  get fullStress(): boolean {
    return this.full
  }

  /** Largest over smallest viscosity of the last setup's liquid cells (1 when uniform or dry). */
  viscosityContrast(): number {
    const { kind, cellNu } = this.setupCells!
    const { nx, ny } = this
    const { i0, i1, j0, j1, k0, k1 } = this.box // every liquid cell is in it
    let lo = Infinity, hi = 0
    for (let k = k0; k <= k1; k++) for (let j = j0; j <= j1; j++) for (let i = i0; i <= i1; i++) {
      const c = i + nx * (j + ny * k)
      if (kind[c] !== LIQUID) continue
      const v = cellNu[c]
      if (v < lo) lo = v
      if (v > hi) hi = v
    }
    return hi > 0 ? (lo > 0 ? hi / lo : Infinity) : 1
  }

  /** Largest diagonal-to-mass ratio over the unknowns (1 when viscosity adds nothing). */
  stiffness(): number {
    const { faces, faceCount, diagonal, mass } = this
    let worst = 1
    for (let t = 0; t < faceCount; t++) {
      const f = faces[t]
      const r = diagonal[f] / mass[f]
      if (r > worst) worst = r
    }
    return worst
  }

  /** Writes the solution into the unknown faces of vel (others keep their values). */
  writeBack(vel: MacGrid): void {
    if (!this.active) return
    const { faces, faceCount, x, nu, nv } = this
    for (let t = 0; t < faceCount; t++) {
      const f = faces[t]
      if (f < nu) vel.u[f] = x[f]
      else if (f < nu + nv) vel.v[f - nu] = x[f]
      else vel.w[f - nu - nv] = x[f]
    }
  }
}

