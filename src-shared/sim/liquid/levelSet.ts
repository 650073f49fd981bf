// Which cells hold liquid, and where inside them the surface is.
//
// Cells: Carlson 2004 sec. 3.2.3.3: a cell containing a marker particle is liquid, else air;
// cells fully inside an obstacle are solid (classifyCells). Once the level set exists,
// particleLevelSet relabels: liquid where phi < 0 or where at least MIN_COUNT markers are
// (sec. 6.1: a level set separates liquid from air in chapter 5). A lone marker that strayed
// just above a flat surface thus no longer makes a one-marker liquid cell whose pressure
// jolts its whole column; it flies as spray (transfer.ts) until it lands.
//
// Surface: the ghost fluid pressure needs a level set phi (negative in the liquid, Carlson
// sec. 6.2.1) to place p = 0 between cell centres. A cheap one from the markers themselves
// (Zhu & Bridson 2005, "Animating sand as a fluid", sec. 3.2): phi(x) = |x - xbar(x)| - r,
// xbar the kernel-weighted mean position of the markers within R = dx of x, r = R / 2
// (RADIUS_FRACTION), made consistent with the cell kinds (liquid cells negative, air cells
// positive), which is what theta needs. Averaging positions smooths out the jitter of single
// markers (a plain min over marker spheres leaves per-column bumps of order r that the
// pressure keeps trying to flatten, so a still pool never settles). A second estimate with
// its zero on the outermost markers (MARKER_BOUNDARY), redistanced to a true signed distance
// (redistance.ts, sec. 6.2.2), is what the frame's 'liquid' volume and volume measurements
// use. The particle level set of the surface module (liquid/surface/) meshes the surface.
import type { GridSpec, MacGrid } from '../core/grid'
import { TS_KERNELS } from '../core/kernelBackend'
import type { KernelBackend } from '../core/kernelTypes'
import { CLASSIFY_CELLS, SOLID_CELL } from './classifyKernel'
import { LEVEL_SET_PHI, LEVEL_SET_SPLAT } from './levelSetKernels'
import type { MarkerParticles } from './markers'
import { MarkerPlaneCodes } from './splatKernels'
import { Redistancer } from './redistance'
import * as kinds from './viscosity'

// Imported values used in per-cell / per-marker loops are copied into module constants: an
// imported binding can cost a property load (or a getter call, under vitest's module runner)
// on every use in a hot loop.
const AIR = kinds.AIR
const LIQUID = kinds.LIQUID
const SOLID = kinds.SOLID

export { SOLID_CELL } from './classifyKernel'

/** out = fractions with every face of a cell whose solid fraction is >= SOLID_CELL closed (out may be fractions itself). */
export function closeSolidFaces(fractions: MacGrid, solid: Float32Array, out: MacGrid): void {
  if (out !== fractions) out.copyFrom(fractions)
  const { nx, ny, nz } = out
  for (let k = 0; k < nz; k++) {
    for (let j = 0; j < ny; j++) {
      for (let i = 0; i < nx; i++) {
        const c = i + nx * (j + ny * k)
        if (solid[c] < SOLID_CELL) continue
        out.u[out.uIndex(i, j, k)] = 0
        out.u[out.uIndex(i + 1, j, k)] = 0
        out.v[out.vIndex(i, j, k)] = 0
        out.v[out.vIndex(i, j + 1, k)] = 0
        out.w[out.wIndex(i, j, k)] = 0
        out.w[out.wIndex(i, j, k + 1)] = 0
      }
    }
  }
}

/**
 * Counts particles per cell and labels cells AIR / LIQUID / SOLID (classifyKernel.ts, on
 * `kernels`); returns the liquid cell count. liquid: scratch of nz entries (the liquid cells
 * per plane), in the kernels' memory; balance: the splats' cumulative work per cell plane, or
 * null.
 */
export function classifyCells(p: MarkerParticles, spec: GridSpec, solid: Float32Array, count: Int32Array, kind: Uint8Array, kernels: KernelBackend = TS_KERNELS, liquid: Int32Array = new Int32Array(spec.nz), balance: Float64Array | null = null): number {
  const { nx, ny, nz, dx, origin } = spec
  kernels.run(CLASSIFY_CELLS, p, solid, count, kind, liquid, p.count, nx, ny, nz, dx, origin[0], origin[1], origin[2], balance)
  let n = 0
  for (let k = 0; k < nz; k++) n += liquid[k]
  return n
}

/** Radius R of the averaging kernel, cells. */
export const KERNEL_RADIUS = 1
/**
 * A cell with at least this many markers is liquid whatever phi says in the markers' own
 * labels (particleLevelSet; Carlson's rule for all but lone markers), and it wets a rigid
 * body beside it (rigidFluid.ts touchesLiquid). The pressure's labels no longer use it
 * (SurfaceTracker.label, BULK_WEIGHT): a count switches a cell in whole as one marker crosses
 * a face, and at the app's defaults that pumped a sloshing wave to 1.84 times its energy in 3 s.
 */
export const MIN_COUNT = 2
/**
 * The pressure's labels (SurfaceTracker.label) add to the tracked surface's liquid the cells
 * whose markers' kernel weight (LevelSetScratch.sums[4c], the (1 - s^2)^3 weights within
 * R = dx) reaches BULK_WEIGHT, for 8 markers a cell (scaled with the markers per cell): a full
 * cell holds 5.11 (8 x 0.638, the kernel's integral), a cell centre 0.25 dx inside a flat
 * surface 4.0, 0.31 dx inside 4.4. The weight moves continuously with the markers, so the
 * surface it puts in the pressure's phi, ((BULK_WEIGHT - w) / BULK_WEIGHT_SLOPE) dx, does too
 * (BULK_WEIGHT_SLOPE: the weight's rise per cell of depth there, 4.0-4.8). It holds in the
 * solve the liquid the tracked surface lags behind (a splash the tracked phi has not caught,
 * liquid a body pushes ahead), where the tracked surface alone let the 16^3 dam break with
 * an obstacle lose 3.55% of its volume at CFL 4. (At 3.6 and 4.0 the floating 0.5 cube of
 * tests/validation/rigidfluid settled at 0.446 / 0.480 submerged, and at 4.0 the 48-cell thrown
 * ball's transverse momentum reached 1.0007% against the check's 1%: README, Physics checks.)
 */
export const BULK_WEIGHT = 4.4
export const BULK_WEIGHT_SLOPE = 4.8
/**
 * r / R for the pressure's phi. For markers filling a half-space the kernel mean of a point on
 * their boundary lies 0.246 R inside (the centroid of the (1 - s^2)^3-weighted half ball), so
 * r = 0.246 R (MARKER_BOUNDARY) puts the zero crossing on the outermost markers. The pressure
 * uses r = R / 2 (the marker spacing at 8 per cell), which puts a flat surface about 0.2 dx
 * further out, about half a marker spacing: with 0.246 R thin, sparse parts read as air, lose
 * their pressure support and compact (the dam break above lost ~19% with phi-only labels).
 */
export const RADIUS_FRACTION = 0.5
/** r / R that puts a flat layer's zero crossing on its outermost markers (volume, frame output). */
export const MARKER_BOUNDARY = 0.246

/**
 * Scratch sums for particleLevelSet: per cell the kernel weight and the weighted x, y, z at
 * 4c .. 4c + 3, side by side so a marker's splat touches one cache line per cell, not four.
 */
/** Float64 values per cell LevelSetScratch uses: the four kernel sums and the redistancing's distances. */
export const LEVEL_SET_SCRATCH_CELLS = 5

export class LevelSetScratch {
  readonly sums: Float64Array
  readonly redistancer: Redistancer
  /** Where the markers' kernel splat runs (levelSetKernels.ts); sums come from its allocator. */
  readonly kernels: KernelBackend
  /** Cumulative markers per cell plane (transfer.ts balance), or null. */
  balance: Float64Array | null = null
  /** The markers' plane codes for the splat (splatKernels.ts MarkerPlaneCodes). */
  readonly planeCodes: MarkerPlaneCodes
  /**
   * shared: LEVEL_SET_SCRATCH_CELLS n float64 of the kernels' memory to use instead of its own
   * (liquidSolver.ts lends the pressure's solver scratch: the splat zeroes the sums, the
   * redistancing writes its scratch, before either is read).
   */
  constructor(n: number, kernels: KernelBackend = TS_KERNELS, shared: Float64Array | null = null) {
    // (The pair's second scratch overlaps the sums, which are dead when the liquid redistances
    // its two surfaces at the end of a step.)
    this.redistancer = new Redistancer(n, kernels, shared ? shared.subarray(4 * n, 5 * n) : null, shared ? shared.subarray(3 * n, 4 * n) : null)
    this.kernels = kernels
    this.planeCodes = new MarkerPlaneCodes(kernels)
    this.sums = shared ? shared.subarray(0, 4 * n) : kernels.f64(4 * n)
  }
}

/**
 * phi per cell centre from the particles (see the file comment), and `distance`, the signed
 * distance to the markers' boundary (r = MARKER_BOUNDARY R, redistanced); |values| are clamped
 * to `band` metres. Relabels the non-solid cells: LIQUID where phi < 0, else AIR; liquid cells end up
 * with phi <= -eps, the others >= +eps (eps = 1e-3 dx). closed: 1 per
 * closed domain side (xMin, xMax, yMin, yMax, zMin, zMax). redistance = false leaves
 * `distance` as the raw kernel estimate for the caller to redistance later (scratch.redistancer):
 * nothing inside a substep reads it, so the solver does that once per step, not per substep.
 */
export function particleLevelSet(
  p: MarkerParticles,
  spec: GridSpec,
  count: Int32Array,
  kind: Uint8Array,
  phi: Float32Array,
  distance: Float32Array,
  band: number,
  scratch: LevelSetScratch,
  closed: Uint8Array,
  redistance = true,
): void {
  const { nx, ny, nz, dx, origin } = spec
  const R = KERNEL_RADIUS * dx
  const r = RADIUS_FRACTION * R
  const sums = scratch.sums
  // The kernel sums of every marker (and its wall mirrors), split by z-planes (levelSetKernels.ts),
  // each thread passing over the markers that reach none of its planes by their plane codes.
  const codes = scratch.planeCodes.update(p, nz, dx, origin[2])
  scratch.kernels.run(LEVEL_SET_SPLAT, p, sums, p.count, closed, nx, ny, nz, dx, origin[0], origin[1], origin[2], R, codes, scratch.planeCodes.shift, scratch.balance)
  const eps = 1e-3 * dx
  // phi, distance and the labels per cell, split by z-planes (levelSetKernels.ts). Liquid where
  // phi < 0 (the level set separates liquid from air, Carlson sec. 6.1); a lone marker that
  // strayed just above a flat surface reads phi > 0 and does not make a one-marker liquid cell
  // whose pressure would jolt the whole column.
  scratch.kernels.run(LEVEL_SET_PHI, sums, count, kind, phi, distance, nx, ny, dx, origin[0], origin[1], origin[2], r, MARKER_BOUNDARY * R, band, eps, MIN_COUNT, nz)
  // The pressure reads the crossings of phi (theta). `distance` is for everything that wants
  // the liquid's extent: the same kernel estimate with its zero on the markers' boundary
  // (MARKER_BOUNDARY), redistanced.
  if (redistance) scratch.redistancer.run(distance, nx, ny, nz, dx, band)
}

/**
 * Liquid volume, m^3. A liquid cell with no air neighbour (across a face) is full: its open
 * share 1 - solid. Any other cell holds clamp(1/2 - phi/dx, 0, 1) (exact for a grid-aligned
 * plane), capped by its open share. Only cells at the free surface read phi, so the estimate's
 * bias next to walls and obstacles (the kernel mean is pushed away from them) does not count.
 */
export function levelSetVolume(phi: Float32Array, kind: Uint8Array, solid: Float32Array, nx: number, ny: number, nz: number, dx: number): number {
  const plane = nx * ny
  let s = 0
  for (let k = 0; k < nz; k++) {
    for (let j = 0; j < ny; j++) {
      for (let i = 0; i < nx; i++) {
        const c = i + nx * (j + ny * k)
        const open = 1 - solid[c]
        if (kind[c] === LIQUID) {
          const airNext =
            (i > 0 && kind[c - 1] === AIR) ||
            (i < nx - 1 && kind[c + 1] === AIR) ||
            (j > 0 && kind[c - nx] === AIR) ||
            (j < ny - 1 && kind[c + nx] === AIR) ||
            (k > 0 && kind[c - plane] === AIR) ||
            (k < nz - 1 && kind[c + plane] === AIR)
          if (!airNext) {
            s += open
            continue
          }
        }
        let f = 0.5 - phi[c] / dx
        f = f > 0 ? (f < 1 ? f : 1) : 0
        s += f < open ? f : open
      }
    }
  }
  return s * dx * dx * dx
}
