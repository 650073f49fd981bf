// A rigidly rotating ball of viscous liquid (issue 12 item 7): zero gravity, a closed 1 m box
// (24^3 cells, no-slip walls far from the ball), radius 0.25 m, omega = 1 rad/s about z,
// nu = 10 m^2/s, jittered markers, 8 per cell (the app's defaults). Rigid rotation has no
// strain, so the full stress div(nu (grad u + grad u^T)) (Carlson 2004 eqs. 59-60) must not
// slow it, and with no wall touched and no torque the angular momentum about the centre of
// mass is conserved (known answer: L(t) = L(0)). Measured from the markers (equal masses):
// L = sum (r - r_cm) x v, z component, after 1 s / at the start.
//
// Before the control-volume weighting of viscosity.ts (Batty & Bridson 2008: A = M + hK with
// the liquid fraction of each face's and each stress sample's control volume) the free
// surface acted as a drag: full stress kept 0.79 after 1 s at 1 substep per frame and 0.54 at
// 4 substeps (a per-substep loss). With it, 0.928 and 0.829 with the FLIP/PIC blend (FLIP
// 0.95); the inviscid ball (no viscous solve at all) kept only 0.951 and 0.893: PIC's share of
// the blend averages the rotation over each face's stencil every substep (figures of that
// tree; the FLIP figures below are later ones).
//
// The affine transfer (APIC: Jiang, Schroeder, Selle, Teran, Stomakhin 2015, "The affine
// particle-in-cell method", sec. 5.3 per-component form on the MAC grid; transfer.ts), the
// app's default velocity transfer, carries each marker's velocity gradient C_p and conserves
// angular momentum in both transfers exactly (tests/unit/sim/liquid/apicTransfer.test.ts).
// The ball starts as a rigid rotation in APIC's state too: v_p = omega x (x_p - c) and
// C_p = grad v = [[0, -omega, 0], [omega, 0, 0], [0, 0, 0]] (starting with C_p = 0 moves ~2%
// of L into the markers' C_p on the first transfer: the share of the spin that lives in the
// affine part at this resolution).
//
// Where the rest went (tree of 2026-11-24, APIC, full stress, 4 substeps; the grid's angular
// momentum with the splat weights as face masses, which APIC's transfers conserve, before and
// after each phase of every substep, summed over 1 s): the viscous solve -0.29%, the pressure
// solve 0.00%, the transfers and the RK2 move -0.45%, and the velocity extension after the
// solve -6.8% (at 1 substep: -0.18%, 0.00%, -1.91%, -2.39%). The extension replaced the faces
// between two air cells that the surface markers' stencils reach, which neither solve
// changes, by the constant extension of Carlson sec. 6.3.2: the rotation's normal gradient
// was cut at the surface every substep. Those faces now keep their splatted velocity plus the
// solve's change (liquidSolver.ts carryChangeToMarkerFaces): the extension's share is -0.02%,
// and full stress keeps 0.995 after 1 s at 4 substeps and 0.980 at 1 (was 0.925 and 0.956);
// inviscid 1.002 and 0.988 (was 0.963 and 0.969); with FLIP 0.95 0.871 and 0.945 (was 0.820
// and 0.924), inviscid 0.907 and 0.960 (was 0.887 and 0.946). What is left at 1 substep
// (2.0%) is the RK2 move (Carlson eq. 21): a marker moves along the chord of its circle but
// keeps its velocity, x_new x v_p = cos(omega h) (x x v_p), 1 - cos(omega h) ~ (omega h)^2 / 2
// per substep, T h / 2 over T = 1 s: 2.1% at h = 1/24 s, 0.5% at 1/96 s.
//
// Tolerances: APIC full stress >= 0.95 at 1 and at 4 substeps (the aim), inviscid
// >= 0.97 at both. Each fails with FLIP 0.95 (0.945, 0.871, 0.960, 0.907), and all but the
// full stress at 1 substep (0.956) fail with the extension's old loss. The FLIP/PIC blend
// stays selectable: >= 0.93 at 1 substep and >= 0.95 of its inviscid ball, >= 0.85 at 4.
//
// Documented limit, not a pass: Carlson's per-component form (eq. 57) is div(nu grad u), which
// is not zero on a rotation wherever the surface is traction free: this ball keeps about 5% of
// its angular momentum after one frame and none after 1 s (logged below; params.ts says so in
// the viscous stress setting's help).
import { describe, expect, it } from 'vitest'
import type { VelocityTransfer, ViscousStress } from '../../../src-shared/sim/liquid/liquidInput'
import type { LiquidSolver } from '../../../src-shared/sim/liquid/liquidSolver'
import { boxVolume, liquidInput, liquidSetup, runLiquid } from './liquidScenes'

const RES = 24
const C = 0.5
const R = 0.25
const OMEGA = 1

function angularMomentum(s: LiquidSolver): number {
  const p = s.particles
  let cx = 0, cy = 0
  for (let q = 0; q < p.count; q++) (cx += p.px[q]), (cy += p.py[q])
  cx /= p.count
  cy /= p.count
  let L = 0
  for (let q = 0; q < p.count; q++) L += (p.px[q] - cx) * p.vy[q] - (p.py[q] - cy) * p.vx[q]
  return L
}

/** Angular momentum kept after one frame and after 1 s (24 frames). */
function spin(nu: number, stress: ViscousStress, substeps: number, transfer: VelocityTransfer = 'apic', flip = 0.95): { frame: number; second: number } {
  const grid = { nx: RES, ny: RES, nz: RES, dx: 1 / RES, origin: [0, 0, 0] as [number, number, number] }
  const ball = { ...boxVolume([C - R, C - R, C - R], [C + R, C + R, C + R]), shape: 'sphere' as const }
  const setup = liquidSetup(grid, [ball], { gravity: [0, 0, 0], viscosity: { model: 'constant', value: nu }, viscousStress: stress, transfer, flip, wallSlip: 'no' })
  const s = runLiquid(setup, 0).solver
  s.frame() // seeds the markers
  const p = s.particles
  expect(p.affine).toBe(transfer === 'apic')
  for (let q = 0; q < p.count; q++) {
    p.vx[q] = -OMEGA * (p.py[q] - C)
    p.vy[q] = OMEGA * (p.px[q] - C)
    p.vz[q] = 0
    if (p.affine) {
      // C_p = grad v of the rigid rotation (row major, c[3a + b] = d v_a / d x_b).
      p.c.fill(0, 9 * q, 9 * q + 9)
      p.c[9 * q + 1] = -OMEGA
      p.c[9 * q + 3] = OMEGA
    }
  }
  const L0 = angularMomentum(s)
  const input = (f: number) => liquidInput(f, { minSubsteps: substeps })
  runLiquid(setup, 1, s, 0, input)
  const frame = angularMomentum(s) / L0
  runLiquid(setup, 23, s, 1, input)
  return { frame, second: angularMomentum(s) / L0 }
}

describe('rigidly rotating viscous ball keeps its angular momentum (nu = 10 m^2/s, 24^3, app defaults)', () => {
  for (const substeps of [1, 4]) {
    it(`APIC, ${substeps} substep(s) per frame: full stress >= 0.95 after 1 s, inviscid >= 0.97`, () => {
      const full = spin(10, 'full', substeps)
      const inviscid = spin(0, 'full', substeps)
      console.log(`rotating ball, APIC, ${substeps} substep(s): full stress keeps ${full.second.toFixed(4)} after 1 s (${full.frame.toFixed(4)} after 1 frame); inviscid ${inviscid.second.toFixed(4)} (${inviscid.frame.toFixed(4)})`)
      expect(full.second).toBeGreaterThanOrEqual(0.95)
      expect(full.second).toBeLessThanOrEqual(1.02)
      expect(inviscid.second).toBeGreaterThanOrEqual(0.97)
      expect(inviscid.second).toBeLessThanOrEqual(1.02)
    }, 120_000)
  }

  it('FLIP/PIC blend (FLIP 0.95), 1 substep per frame: >= 0.93 after 1 s and >= 0.95 of the inviscid ball', () => {
    const full = spin(10, 'full', 1, 'flip')
    const inviscid = spin(0, 'full', 1, 'flip')
    console.log(`rotating ball, FLIP 0.95, 1 substep: full stress keeps ${full.second.toFixed(4)} after 1 s (${full.frame.toFixed(4)} after 1 frame); inviscid ${inviscid.second.toFixed(4)}; ratio ${(full.second / inviscid.second).toFixed(4)}`)
    expect(full.second).toBeGreaterThanOrEqual(0.93)
    expect(full.second / inviscid.second).toBeGreaterThanOrEqual(0.95)
  }, 120_000)

  it('FLIP/PIC blend (FLIP 0.95), 4 substeps per frame: >= 0.85 after 1 s', () => {
    const full = spin(10, 'full', 4, 'flip')
    const inviscid = spin(0, 'full', 4, 'flip')
    console.log(`rotating ball, FLIP 0.95, 4 substeps: full stress keeps ${full.second.toFixed(4)} after 1 s (${full.frame.toFixed(4)} after 1 frame); inviscid ${inviscid.second.toFixed(4)}`)
    expect(full.second).toBeGreaterThanOrEqual(0.85)
  }, 120_000)

  it("Carlson's eq. 57 form: documented limit (damps rotation at a free surface)", () => {
    const c = spin(10, 'carlson', 1)
    console.log(`rotating ball, Carlson eq. 57 stress (known limit), APIC: keeps ${c.frame.toFixed(4)} after 1 frame, ${c.second.toFixed(4)} after 1 s`)
    // Not a pass criterion: recorded so a change in the limit shows up here.
    expect(c.second).toBeLessThan(0.5)
  }, 120_000)
})
