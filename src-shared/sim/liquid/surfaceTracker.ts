// The free surface the pressure sees: a level set moved with the liquid and corrected by the
// markers (Carlson 2004 sec. 6.2.3-6.2.4), instead of one rebuilt from the markers every
// substep.
//
// Why: a level set rebuilt from jittered markers (levelSet.ts particleLevelSet) is bumpy by
// ~0.17 dx from column to column even when the liquid is flat, and the bumps are not a shape
// of the liquid that the flow can level: the ghost fluid pressure (ghostFluid.ts) pushes
// columns against the bumps, the markers move, the bumps change, and with FLIP the kicks add up
// (issue 12 item 9: a still 1 m pool at 16^3 kept 10.9 mm/s after 4 s). A level set that moves
// with the velocity (the level set equation phi_t + u . grad phi = 0, eq. 91) is time
// consistent: where the liquid is at rest it does not change, and a bump of it is a real bump of
// the surface, which the pressure flattens as it would flatten a wave.
//
// Per substep (LiquidSolver):
//   1. at the start, phi is the initial volumes' own signed distance (initialiseFromShapes:
//      the surface the markers were seeded in, flat where the user's shape is flat; the usual
//      start of a level set); after that, the advected phi of the previous substep (a restored
//      checkpoint without one starts from the markers' kernel estimate, initialise);
//   2. correct with the markers, the particle level set idea of sec. 6.2.4 (Enright et al.
//      2002) with the markers as its negative particles (correct):
//      - a marker more than R_P outside the surface has escaped: the cells near it take
//        phi = min(phi, |x - x_p| - R_P) (its sphere joins the liquid);
//      - a cell centre with no marker within the kernel radius R = dx is at least R from the
//        liquid the markers hold: phi = max(phi, R - R_P) (no liquid where no markers are;
//        the role of the positive particles, which a marker-only liquid does not have);
//   3. cells labelled (label): the pressure's phi is min(phi - R_P, the surface where the
//      markers' kernel weight reaches BULK_WEIGHT, levelSet.ts), liquid where it is negative.
//      The offset R_P is the same everywhere, so a flat surface stays flat (the markers'
//      spheres lie inside it); without it the 16^3 dam break with an obstacle
//      (tests/validation/liquid) lost 3.2% of its volume in 100 frames (markers just outside
//      the surface get no pressure support and compact), with it 1.2%. The weight's surface
//      holds the liquid the tracked phi lags behind, and it moves continuously with the
//      markers: the marker count it replaces (MIN_COUNT markers made a cell liquid) switched
//      cells in whole and pumped a sloshing wave at the app's defaults;
//   4. after the markers move, phi moves with the same grid velocity over the substep,
//      semi-Lagrangian (advect, sec. 6.2.3, fig. 28 (a)): sec. 6.2.4 found that with the
//      particle correction the choice of scheme hardly matters (fig. 30), and the first order
//      scheme damps rather than amplifies;
//   5. redistanced to a signed distance (sec. 6.2.2; Redistancer, fast sweeping) once per step.
// The advected phi is state: liquidCheckpoint.ts stores it.
import { TS_KERNELS } from '../core/kernelBackend'
import type { KernelBackend } from '../core/kernelTypes'
import { sampleSdfGrid, type SignedDistanceField } from '../../geometry/signedDistance'
import type { GridSpec, MacGrid } from '../core/grid'
import type { MarkerParticles } from './markers'
import { ADVECT_PHI } from './phiAdvectKernel'
import { CORRECT_SURFACE, ESCAPE_CANDIDATES, LIFT_UNREACHED, SOLID_MEAN } from './surfaceCorrectKernel'
import { SPEED_BLOCK } from './speedKernel'
import { LABEL_CELLS } from './cellPassKernels'
import * as kinds from './viscosity'
import { BULK_WEIGHT, BULK_WEIGHT_SLOPE } from './levelSet'

const SOLID = kinds.SOLID

/** Radius of a marker as a particle of the particle level set, cells (Enright: 0.1 .. 0.5 dx). */
export const MARKER_RADIUS = 0.25

export class SurfaceTracker {
  /** The tracked level set at cell centres, m (negative in the liquid), |phi| <= band. */
  readonly phi: Float32Array
  /** False until the first substep initialises phi (checkpointed). */
  ready = false
  private readonly tmp: Float32Array
  private readonly nx: number
  private readonly ny: number
  private readonly nz: number
  private readonly dx: number
  private readonly band: number

  /** Where the advection runs (its memory holds phi, which the redistancing kernel reads too: redistance.ts). */
  private readonly kernels: KernelBackend
  /** correct's escape candidates per block of SPEED_BLOCK markers (the flags per marker: the markers' scratch `flag`). */
  private escapePartial: Float64Array = new Float64Array(0)

  constructor(spec: GridSpec, band: number, kernels: KernelBackend = TS_KERNELS) {
    this.kernels = kernels
    const n = spec.nx * spec.ny * spec.nz
    this.nx = spec.nx
    this.ny = spec.ny
    this.nz = spec.nz
    this.dx = spec.dx
    this.band = band
    this.phi = kernels.f32(n)
    this.tmp = kernels.f32(n)
    this.phi.fill(band)
  }

  /** phi from the markers' kernel estimate (levelSet.ts phi), as it is (no tracked phi to continue). */
  initialise(estimate: Float32Array): void {
    this.phi.set(estimate)
    this.ready = true
  }

  /**
   * First substep: phi = the union of the initial volumes' signed distances at the cell centres,
   * clamped to the band. Each shape is sampled banded (exact within the band, +-band with the true
   * sign beyond: after the clamp, the same values) and row by row from the neighbouring sample
   * (sampleSdfGrid), which spares a mesh most of its closest-point searches and winding numbers.
   */
  initialiseFromShapes(spec: GridSpec, shapes: readonly SignedDistanceField[]): void {
    const { nx, ny, nz, dx, band, phi } = this
    const cells = nx * ny * nz
    const union = new Float64Array(cells).fill(band)
    const shape = new Float64Array(cells)
    for (const sdf of shapes) {
      sampleSdfGrid(sdf, { nx, ny, nz, dx, origin: spec.origin }, shape, { band })
      for (let c = 0; c < cells; c++) if (shape[c] < union[c]) union[c] = shape[c]
    }
    for (let c = 0; c < cells; c++) phi[c] = union[c] > -band ? union[c] : -band
    this.ready = true
  }

  /**
   * Particle level set correction (see the file comment). weights: the kernel weight per cell
   * (LevelSetScratch.sums[4c]; 0 = no marker within R = dx of the centre).
   */
  correct(p: MarkerParticles, spec: GridSpec, sums: Float64Array, kind: Uint8Array): void {
    const { nx, ny, nz, dx, band, phi } = this
    const o = spec.origin
    // Unreached cells, then the markers' escape candidates and their ordered pass, then the
    // solid cells (surfaceCorrectKernel.ts).
    const rp = MARKER_RADIUS * dx
    this.kernels.run(LIFT_UNREACHED, phi, sums, kind, dx - rp, nx * ny, nz)
    const blocks = Math.ceil(p.count / SPEED_BLOCK)
    if (this.escapePartial.length < blocks) this.escapePartial = this.kernels.f64(blocks + 16)
    const escaped = this.kernels.run(ESCAPE_CANDIDATES, p, phi, p.count, nx, ny, nz, dx, o[0], o[1], o[2], rp, p.flag, this.escapePartial)
    if (escaped > 0) this.kernels.run(CORRECT_SURFACE, p, phi, p.count, nx, ny, nz, dx, o[0], o[1], o[2], rp, band, p.flag, this.escapePartial)
    this.kernels.run(SOLID_MEAN, phi, kind, nx, ny, nz)
  }

  /**
   * Labels the non-solid cells (LIQUID where the pressure's phi < 0, else AIR) and writes the
   * pressure's phi: the smaller of the tracked phi less one marker radius (every marker that
   * has not escaped, phi(x_p) <= R_P, then lies in the pressure's liquid, as the marker's sphere
   * does in the particle level set) and the markers' bulk weight's surface (levelSet.ts
   * BULK_WEIGHT); liquid cells <= -eps, the others >= +eps. weights: LevelSetScratch.sums
   * (4 per cell, the weight first); markersPerCell: the seeding density (8 by default).
   */
  label(weights: Float64Array, kind: Uint8Array, markersPerCell: number, out: Float32Array): void {
    const per = markersPerCell / 8
    // (Split over z-planes on the kernels' threads: cellPassKernels.ts labelCellsSlab.)
    this.kernels.run(LABEL_CELLS, this.phi, kind, weights, out, BULK_WEIGHT * per, BULK_WEIGHT_SLOPE * per, this.dx, 1e-3 * this.dx, MARKER_RADIUS * this.dx, this.nx * this.ny, this.nz)
  }

  /**
   * phi(x) <- phi(x - h u(x)), u the MAC velocity interpolated at the cell centre
   * (semi-Lagrangian, eq. 91); samples outside the grid clamp to the boundary cells. vel should
   * live in the kernels' memory (else the backend runs the TypeScript reference).
   */
  advect(vel: MacGrid, h: number): void {
    const { nx, ny, nz, dx, phi, tmp } = this
    // Split by z-planes on the kernels' threads (phiAdvectKernel.ts).
    this.kernels.run(ADVECT_PHI, tmp, phi, vel.u, vel.v, vel.w, nx, ny, nz, h / dx)
    phi.set(tmp)
  }
}
