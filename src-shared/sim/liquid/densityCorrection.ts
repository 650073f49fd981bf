// Keeping the markers at the density they were seeded with (issue 12: the dam break at the
// app's defaults gained volume).
//
// The pressure solve (ghostFluid.ts, Carlson 2004 eqs. 29-36) makes the grid velocity
// divergence free in the liquid cells, whatever the markers in them: a liquid cell holding 3
// markers is kept as full as one holding 8. The markers do not keep their density on their
// own: they move through the trilinear interpolant of the grid velocity (eq. 21), which is
// not divergence free below the cell size, and cells enter the liquid at the surface with
// whatever markers they hold (>= 2, or inside the tracked surface: surfaceTracker.ts). With
// PIC's damping (flip = 0) the two roughly balance; with the affine transfer (APIC, Jiang et
// al. 2015) and FLIP the liquid splashes more and the markers come back sparse: in the 16^3
// dam break with an obstacle (tests/validation/liquid/damBreak.test.ts, CFL 1) the mean count
// in the cells inside the liquid fell from 7.98 to 7.44 in 100 frames and the liquid's volume
// grew by 6.4% (PIC: 7.95, -1.2%; with this correction APIC keeps 7.97). Once the sparse cells
// are inside the liquid, the divergence-free solve keeps their volume: it only sees changes
// of density, not density (Kugelstadt, Longva, Thuerey, Bender 2021, "Implicit density
// projection for volume conserving liquids", IEEE TVCG 27(4), whose point this is).
//
// The correction, per substep: in every full liquid cell (liquid, no obstacle in it, no air
// neighbour, and the pressure's level set at its centre <= -dx/2: the cell lies inside the
// surface), the density error e = n / ppc - 1 of its marker count n (markers are seeded ppc a
// cell, so a liquid at rest has e = 0 exactly and nothing here acts on it); in every other
// liquid cell e = 0 (a surface cell's share of liquid is not known well enough to compare its
// count with). The wanted divergence is e (1 - exp(-DENSITY_RATE h)) / h (denser than
// seeded: spread out; sparser: draw in), solved with the pressure's own matrix
// (GhostFluidPressure solveDrift: the same cells, the same p = 0 surface and walls) into a
// drift field. The markers and the tracked surface move with u + drift over the substep; the
// markers' velocities (and APIC's C_p) are not changed, so the correction adds no momentum
// and no energy. (Tried first: the same target as a divergence in the pressure solve itself. It
// stays in the velocities the markers carry: at 8/s it cost the rotating ball of
// tests/validation/liquid/rotatingBall.test.ts 1.9% of its angular momentum over 1 s, and
// with the count averaged over 3^3 cells it set the settled dam break sloshing. The 3^3
// average does not do as a drift either: at 16/s it ran away, -25% of the volume.)
import { TS_KERNELS } from '../core/kernelBackend'
import { defineKernel, f32, f64, float, i32, int, type KernelArgs, u8 } from '../core/kernelTable'
import type { KernelBackend } from '../core/kernelTypes'
import * as kinds from './viscosity'

// Imported values used in per-cell loops are copied into module constants (liquidSolver.ts).
const AIR = kinds.AIR
const LIQUID = kinds.LIQUID

/**
 * Rate at which a density error is removed, 1/s: each substep h removes 1 - exp(-rate h) of
 * it (0.49 of it at one substep per 24 fps frame). At 8/s the 16^3 dam break with an obstacle
 * (APIC, CFL 1) swung to +3.3% of its volume before settling; at 16/s it stays within 2.8%.
 */
export const DENSITY_RATE = 16
/**
 * Relative residual the drift's solve stops at (the pressure's tolerance when that is looser).
 * The target is a count of markers per cell, noisy by a marker or two in eight, and whatever
 * the drift leaves undone is measured again next substep: solving it to the pressure's 1e-5
 * took 43 MIC(0) PCG iterations a substep in the gears and bunnies bench, as many as the
 * pressure, and 1e-2 takes 19.
 */
export const DRIFT_TOLERANCE = 1e-2
/** Largest |e| acted on: an empty cell inside the liquid (a trapped bubble) is drawn in at half the rate. */
export const MAX_DENSITY_ERROR = 0.5

/**
 * The target over cell planes [k0, k1) (see the file comment; DensityCorrection.compute):
 * partial[k] = the cells of plane k given a nonzero target. A kernel-table row (twin:
 * wasm/assembly/densityTarget.ts): each plane writes its own cells.
 */
export function densityTargetSlab(target: Float32Array, count: Int32Array, kind: Uint8Array, phi: Float32Array, solid: Float32Array, scale: number, inv: number, depth: number, nx: number, ny: number, nz: number, partial: Float64Array, k0: number, k1: number): void {
  const plane = nx * ny
  target.fill(0, k0 * plane, k1 * plane)
  for (let k = k0; k < k1; k++) {
    let n = 0
    for (let j = 0; j < ny; j++) {
      for (let i = 0; i < nx; i++) {
        const c = i + nx * (j + ny * k)
        if (kind[c] !== LIQUID || solid[c] > 0 || !(phi[c] <= depth)) continue
        if ((i > 0 && kind[c - 1] === AIR) || (i < nx - 1 && kind[c + 1] === AIR) || (j > 0 && kind[c - nx] === AIR)) continue
        if ((j < ny - 1 && kind[c + nx] === AIR) || (k > 0 && kind[c - plane] === AIR) || (k < nz - 1 && kind[c + plane] === AIR)) continue
        let e = count[c] * inv - 1
        if (e === 0) continue
        e = e > MAX_DENSITY_ERROR ? MAX_DENSITY_ERROR : e < -MAX_DENSITY_ERROR ? -MAX_DENSITY_ERROR : e
        target[c] = scale * e
        n++
      }
    }
    partial[k] = n
  }
}

export const DENSITY_TARGET = defineKernel({
  name: 'densityTarget',
  args: [f32('target'), i32('count'), u8('kind'), f32('phi'), f32('solid'), float('scale'), float('inv'), float('depth'), int('nx'), int('ny'), int('nz'), f64('partial')],
  split: 'planes',
  range: (a: KernelArgs) => a[10] as number,
  work: (a: KernelArgs) => 2 * (a[8] as number) * (a[9] as number) * (a[10] as number),
  partials: 'partial',
  ref: densityTargetSlab,
})

export class DensityCorrection {
  /** Wanted net outflux per liquid cell, m/s (dx times the divergence); 0 elsewhere. */
  readonly target: Float32Array
  private readonly nx: number
  private readonly ny: number
  private readonly nz: number
  private readonly kernels: KernelBackend
  private readonly partial: Float64Array

  constructor(nx: number, ny: number, nz: number, kernels: KernelBackend = TS_KERNELS) {
    this.nx = nx
    this.ny = ny
    this.nz = nz
    this.kernels = kernels
    this.target = kernels.f32(nx * ny * nz)
    this.partial = kernels.f64(nz)
  }

  /**
   * Fills target for a substep h (see the file comment) from the marker count per cell, the
   * cell kinds and the pressure's level set phi (m, negative in the liquid). solid: the
   * obstacles' solid fraction per cell. Returns false when every target is 0 (nothing to do).
   * (Split over z-planes on the kernels' threads.)
   */
  compute(count: Int32Array, kind: Uint8Array, phi: Float32Array, solid: Float32Array, ppc: number, h: number, dx: number): boolean {
    const { nx, ny, nz, target } = this
    if (!(h > 0)) {
      target.fill(0)
      return false
    }
    const scale = (dx * (1 - Math.exp(-DENSITY_RATE * h))) / h
    return this.kernels.run(DENSITY_TARGET, target, count, kind, phi, solid, scale, 1 / ppc, -0.5 * dx, nx, ny, nz, this.partial) > 0
  }
}
