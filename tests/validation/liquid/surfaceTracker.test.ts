// The tracked free surface (surfaceTracker.ts, Carlson 2004 sec. 6.2.3-6.2.4).
// Known answers:
// - phi_t + u . grad phi = 0 (eq. 91) moves a plane phi = y - H with a uniform u = (0, v, 0) to
//   y - (H + v t): semi-Lagrangian with trilinear interpolation is exact for a linear phi, so
//   the zero crossing must land within 1e-6 dx of H + v t (a 10x error in the step is 0.9 t v);
// - a marker more than R_P outside the surface (escaped) puts its sphere, |x - x_p| - R_P,
//   into phi at the cell centres near it: within 1e-6 dx at the marker's own cell centre;
// - a cell centre with no marker within R = dx is air, phi >= dx - R_P.
import { describe, expect, it } from 'vitest'
import { MacGrid } from '../../../src-shared/sim/core/grid'
import { MarkerParticles } from '../../../src-shared/sim/liquid/markers'
import { MARKER_RADIUS, SurfaceTracker } from '../../../src-shared/sim/liquid/surfaceTracker'

const spec = { nx: 8, ny: 8, nz: 8, dx: 0.1, origin: [0, 0, 0] as [number, number, number] }
const band = 3 * spec.dx
const n = 8 * 8 * 8

function plane(t: SurfaceTracker, H: number): void {
  for (let k = 0; k < 8; k++) for (let j = 0; j < 8; j++) for (let i = 0; i < 8; i++) t.phi[i + 8 * (j + 8 * k)] = (j + 0.5) * spec.dx - H
}

describe('SurfaceTracker', () => {
  it('advects a plane with a uniform velocity exactly (eq. 91)', () => {
    const t = new SurfaceTracker(spec, band)
    const H = 0.42
    plane(t, H)
    const vel = new MacGrid(spec)
    vel.v.fill(0.3)
    const h = 0.05
    for (let s = 0; s < 4; s++) t.advect(vel, h)
    // Crossing in column (3, *, 3) between the cells either side of H + v t.
    const target = H + 0.3 * 4 * h
    const j = Math.floor(target / spec.dx - 0.5)
    const a = t.phi[3 + 8 * (j + 8 * 3)], b = t.phi[3 + 8 * (j + 1 + 8 * 3)]
    const crossing = (j + 0.5) * spec.dx + (a / (a - b)) * spec.dx
    expect(Math.abs(crossing - target)).toBeLessThan(1e-6 * spec.dx)
  })

  it('takes in escaped markers and clears cells no marker is near', () => {
    const t = new SurfaceTracker(spec, band)
    plane(t, 0.3)
    const p = new MarkerParticles(16)
    // A marker 2.5 cells above the surface, at the centre of cell (4, 5, 4).
    p.add(0.45, 0.55, 0.45, 0, 0, 0, 300)
    const sums = new Float64Array(4 * n)
    // Kernel weights: markers near every centre below y = 0.4 and around the marker.
    for (let c = 0; c < n; c++) {
      const j = Math.floor(c / 8) % 8
      if (j <= 3) sums[4 * c] = 1
    }
    sums[4 * (4 + 8 * (5 + 8 * 4))] = 1
    // Cell (0, 2, 0) is liquid by the plane but no marker is within R of it.
    sums[4 * (0 + 8 * (2 + 8 * 0))] = 0
    const kind = new Uint8Array(n)
    t.correct(p, spec, sums, kind)
    const rp = MARKER_RADIUS * spec.dx
    expect(Math.abs(t.phi[4 + 8 * (5 + 8 * 4)] - -rp)).toBeLessThan(1e-6 * spec.dx)
    // Cell (4, 6, 4): one dx from the marker, its sphere gives dx - R_P (> 0, still air).
    expect(Math.abs(t.phi[4 + 8 * (6 + 8 * 4)] - (spec.dx - rp))).toBeLessThan(1e-6 * spec.dx)
    // Cell (0, 2, 0): no marker near, so air: dx - R_P (the plane said -0.05 m).
    expect(Math.abs(t.phi[0 + 8 * (2 + 8 * 0)] - (spec.dx - rp))).toBeLessThan(1e-6 * spec.dx)
    // Below the surface, liquid untouched.
    expect(t.phi[0 + 8 * (1 + 8 * 0)]).toBeCloseTo(0.15 - 0.3, 6)
  })
})
