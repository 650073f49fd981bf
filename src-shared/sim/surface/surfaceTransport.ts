// Conservative transport of a density on a surface flow: the finite-volume form of eq. 13's
// advection, d(sqrt(g) rho)/dt + d_i(sqrt(g) u^i rho) = 0, with the same MAC fluxes the
// projection made divergence free. Each cell holds rho sqrt(g) h^2 of density; each face moves
// dt h F rho_face from the cell upstream to the cell downstream, so what leaves one cell enters
// the next and the total only changes by rounding.
//
// Why not the paper's semi-Lagrangian step for densities: it is not conservative, and on these
// patches, where sqrt(g) varies by a factor of several around extraordinary vertices, a blob
// carried round a sphere-like surface gained 0.4-3.6% in 200 steps (N = 16-32). The velocity
// still takes the semi-Lagrangian step (surfaceFluid.ts), as in the paper.
//
// rho_face is the upstream cell's value plus half its minmod-limited slope along the face's
// axis (MUSCL, van Leer 1979): second order where the density is smooth, no new extrema. Faces
// on a patch's edge take the upstream value alone, so both patches sharing the face move the
// same amount. Explicit: steps are split so that no cell sends out more than half of its
// content in one substep.
// The two passes are kernel rows over patches (surfaceTransportKernels.ts), so a bake runs them
// on its WebAssembly threads; the ghost fill between substeps stays here. Densities carried by
// one flow go two at a time (advectAll: SURFACE_TRANSPORT_PAIR, the same bits for each as alone):
// on the 450-patch cage at 32^2 the three densities' transport took 30-31 ms a step one by one.
import { TS_KERNELS } from '../core/kernelBackend'
import type { KernelBackend } from '../core/kernelTypes'
import type { SurfaceGrid } from './surfaceGrid'
import type { SurfaceMetric } from './surfaceMetric'
import { SURFACE_OUTFLOW, SURFACE_TRANSPORT, SURFACE_TRANSPORT_PAIR, TRANSPORT_CFL } from './surfaceTransportKernels'

export class SurfaceTransport {
  private readonly change: Float64Array
  /** The transport row's y-face masses of the row below (a scratch of N entries: a thread's own on WebAssembly). */
  private readonly below: Float64Array
  /** Largest outflow rate per patch. */
  private readonly partial: Float64Array
  /** The paired row's two cell arrays of change and 2N entries of y-face masses (made at the first pair). */
  private change2: Float64Array | null = null
  private readonly below2: Float64Array

  /**
   * kernels: where the passes run; the metric, and the densities and fluxes given to
   * substeps() and advect(), must be in its memory (SurfaceFluid allocates them there).
   */
  constructor(readonly grid: SurfaceGrid, readonly metric: SurfaceMetric, readonly kernels: KernelBackend = TS_KERNELS) {
    const n = grid.P * grid.cellBlock
    this.change = kernels.f64(n)
    this.below = new Float64Array(grid.N)
    this.partial = kernels.f64(grid.P)
    this.below2 = new Float64Array(2 * grid.N)
  }

  /** Substeps needed to carry a density over dt with the fluxes fx, fy (CFL 0.5 per cell). */
  substeps(fx: Float64Array, fy: Float64Array, dt: number): number {
    const { grid, partial } = this
    this.kernels.run(SURFACE_OUTFLOW, fx, fy, this.metric.cells.sqrtG, grid.N, grid.h, partial, grid.P)
    let worst = 0
    for (let p = 0; p < partial.length; p++) if (partial[p] > worst) worst = partial[p]
    return Math.max(1, Math.ceil((worst * dt) / TRANSPORT_CFL))
  }

  /**
   * Moves density s (ghosts filled) along the fluxes for dt, in `substeps` steps (default as
   * many as CFL needs; a caller moving several densities on one flow counts them once).
   */
  advect(s: Float64Array, fx: Float64Array, fy: Float64Array, dt: number, substeps = this.substeps(fx, fy, dt)): void {
    for (let k = 0; k < substeps; k++) this.substep(s, fx, fy, dt / substeps)
  }

  /**
   * advect() for every density in `densities` (ghosts filled) along one flow, two at a time:
   * each ends with the bits advect() alone would give it.
   */
  advectAll(densities: readonly Float64Array[], fx: Float64Array, fy: Float64Array, dt: number, substeps = this.substeps(fx, fy, dt)): void {
    const { grid } = this
    for (let d = 0; d + 1 < densities.length; d += 2) {
      const a = densities[d], b = densities[d + 1]
      this.change2 ??= this.kernels.f64(2 * this.change.length)
      for (let k = 0; k < substeps; k++) {
        this.kernels.run(SURFACE_TRANSPORT_PAIR, a, b, fx, fy, this.metric.cells.sqrtG, this.change2, this.below2, grid.N, dt / substeps, grid.h, grid.P)
        grid.fillScalar(a)
        grid.fillScalar(b)
      }
    }
    if (densities.length % 2 === 1) this.advect(densities[densities.length - 1], fx, fy, dt, substeps)
  }

  private substep(s: Float64Array, fx: Float64Array, fy: Float64Array, dt: number): void {
    const { grid } = this
    this.kernels.run(SURFACE_TRANSPORT, s, fx, fy, this.metric.cells.sqrtG, this.change, this.below, grid.N, dt, grid.h, grid.P)
    grid.fillScalar(s)
  }
}
