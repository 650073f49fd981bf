// Pressure projection for a liquid with a free surface (Carlson 2004 sec. 3.2.4, eqs. 29-36)
// with p = 0 in the air imposed at the surface's sub-cell position by the ghost fluid method
// (Gibou, Fedkiw, Cheng, Kang 2002; Enright, Marschner, Fedkiw 2002), using a level set phi
// (negative in the liquid). Carlson sec. 6.3.1 found that putting the Dirichlet condition in
// the air cells and keeping the surface cells in the matrix gives the smooth, volume-keeping
// surface; the ghost fluid method does the same with the air pressure placed at the zero
// crossing instead of the air cell's centre.
//
// Unknown: the velocity potential q = h p / (rho dx) per liquid cell (as in core/poisson.ts),
// so the update is u_face -= q_b - q_a. For a liquid cell c and each open face f (weight w_f,
// the cut-cell open fraction from the obstacles):
//   liquid neighbour n:  A_cc += w_f, A_cn = -w_f                    (eq. 36)
//   air neighbour n:     A_cc += w_f / theta, theta = phi_c / (phi_c - phi_n) in (0, 1]
//                        (the ghost value q_n = q_c (1 - 1/theta) is linear through q = 0
//                        at the surface; theta = 1 gives Carlson's eq. 39)
//   open domain side:    A_cc += w_f (q = 0 one cell out, sec. 3.3.2.2)
//   closed face:         nothing (Neumann, sec. 3.3.2.1); it keeps the obstacle's velocity
// b_c = -(net outflux of c) with closed faces carrying the obstacle velocity (eq. 35).
// Solved by PCG (table 4) over the liquid cells only (activePcg.ts), preconditioned by geometric
// multigrid (pressureMultigrid.ts) or MIC(0), by default whichever the system's size favours
// (LiquidSetup.pressure.preconditioner).
import { TS_KERNELS } from '../core/kernelBackend'
import type { KernelBackend } from '../core/kernelTypes'
import type { MacGrid } from '../core/grid'
import type { SolveStats } from '../core/pcg'
import { ActivePcg } from './activePcg'
import type { PressurePreconditioner } from './liquidInput'
import type { CoupledWalls } from './coupledWalls'
import { Stencil7Matrix } from './stencil7'
import { GHOST_ASSEMBLE, GHOST_DRIFT_RHS, GHOST_SUBTRACT, GHOST_WARM_START, ghostTheta, MIN_THETA } from './ghostFluidKernels'

export { MIN_THETA }

export class GhostFluidPressure {
  readonly nx: number
  readonly ny: number
  readonly nz: number
  readonly matrix: Stencil7Matrix
  /** Last solution q per cell (0 outside the liquid). */
  readonly q: Float64Array
  /** Last solution of solveDrift (0 outside the liquid): the drift's potential, in q's units. */
  readonly qDrift: Float64Array
  private readonly b: Float64Array
  private readonly pcg: ActivePcg
  private readonly kernels: KernelBackend
  /** Matrices assembled so far: the drift's solve reuses the pressure's preconditioner. */
  private version = 0

  /**
   * kernels: where the solve's product and vector updates run (activeKernels.ts). solverScratch:
   * ACTIVE_PCG_SCRATCH_CELLS n float64 the solves may use and leave anything in (activePcg.ts).
   */
  constructor(nx: number, ny: number, nz: number, kernels: KernelBackend = TS_KERNELS, solverScratch: Float64Array | null = null, preconditioner: PressurePreconditioner = 'auto') {
    this.nx = nx
    this.ny = ny
    this.nz = nz
    this.kernels = kernels
    const n = nx * ny * nz
    this.matrix = new Stencil7Matrix(nx, ny, nz, kernels)
    this.q = kernels.f64(n)
    this.b = kernels.f64(n)
    this.qDrift = kernels.f64(n)
    this.pcg = new ActivePcg(nx, ny, nz, kernels, solverScratch, preconditioner)
  }

  /** Liquid fraction theta of the segment from liquid cell a to air cell b (MIN_THETA..1). */
  static theta(phiLiquid: number, phiAir: number): number {
    return ghostTheta(phiLiquid, phiAir)
  }

  /**
   * Builds A and b for the current cells (kind), level set phi and face fractions: a kernel
   * row over the cell planes (ghostFluidKernels.ts).
   */
  assemble(vel: MacGrid, fractions: MacGrid, obstacle: MacGrid | null, kind: Uint8Array, phi: Float32Array, open: Uint8Array): void {
    const { nx, ny, nz } = this
    let openBits = 0
    for (let s = 0; s < 6; s++) if (open[s]) openBits |= 1 << s
    this.version++
    this.kernels.run(GHOST_ASSEMBLE, this.matrix, this.b, vel, fractions, obstacle?.u ?? null, obstacle?.v ?? null, obstacle?.w ?? null, kind, phi, nx, ny, nz, openBits)
  }

  /**
   * Projects vel in place (eq. 29): faces with a liquid cell on at least one side and an
   * open fraction get u -= q_b - q_a with the ghost value on the air side. Returns the PCG figures.
   */
  project(
    vel: MacGrid,
    fractions: MacGrid,
    obstacle: MacGrid | null,
    kind: Uint8Array,
    phi: Float32Array,
    open: Uint8Array,
    tolerance: number,
    maxIterations: number,
    walls: CoupledWalls | null = null,
  ): SolveStats {
    const { q, b, matrix } = this
    this.assemble(vel, fractions, obstacle, kind, phi, open)
    // Bodies whose velocity the pressure sets (coupledWalls.ts): `obstacle` holds their walls'
    // velocity before the pressure (V*), which b now carries; their rows join the operator.
    const coupled = walls !== null && walls.active ? walls : null
    if (coupled) coupled.restrict(matrix.diag)
    // Warm start from the last solution where the cell is still liquid (sec. 3.3.4).
    this.kernels.run(GHOST_WARM_START, q, matrix.diag, this.nx * this.ny, this.nz)
    const stats = this.pcg.solve(matrix, b, q, tolerance, maxIterations, coupled, this.version)
    this.subtractGradient(q, vel, fractions, kind, phi)
    return stats
  }

  /**
   * The drift that removes a density error of the markers (densityCorrection.ts): with the
   * matrix of the last project() (same cells, surface and fractions), solves A x = target,
   * target the net outflux wanted per liquid cell (m/s, dx times the divergence), and writes
   * drift = -grad x on the faces project() would update (ghost values at the surface, so the
   * drift's potential is 0 there as the pressure's is), 0 on every other face. A field with
   * exactly the wanted divergence in every liquid cell and no curl: it moves markers from
   * crowded cells into sparse ones, and out of (or into) the liquid's interior as a whole.
   */
  solveDrift(target: Float32Array, drift: MacGrid, fractions: MacGrid, kind: Uint8Array, phi: Float32Array, tolerance: number, maxIterations: number): SolveStats {
    // The right-hand side in b: project()'s is dead once its solve ends, and this one fills
    // every cell before solving.
    const { matrix, qDrift: x, b: bd } = this
    // Warm-started from the last drift where the cell is still liquid, as the pressure is: a
    // crowded or sparse region stays so for several substeps, and on the gears and bunnies the
    // drift's iterations fell from 17.9 to 12.1 a solve (the density errors of the markers
    // near the bodies persist). So qDrift is state: the liquid's checkpoint carries it.
    this.kernels.run(GHOST_DRIFT_RHS, bd, x, matrix.diag, target, this.nx * this.ny, this.nz)
    drift.u.fill(0)
    drift.v.fill(0)
    drift.w.fill(0)
    const stats = this.pcg.solve(matrix, bd, x, tolerance, maxIterations, null, this.version)
    this.subtractGradient(x, drift, fractions, kind, phi)
    return stats
  }

  /** vel -= grad x on the faces with liquid on a side (ghostFluidKernels.ts ghostSubtractSlab, by cell planes). */
  private subtractGradient(x: Float64Array, vel: MacGrid, fractions: MacGrid, kind: Uint8Array, phi: Float32Array): void {
    this.kernels.run(GHOST_SUBTRACT, x, vel, fractions, kind, phi, this.nx, this.ny, this.nz)
  }
}
