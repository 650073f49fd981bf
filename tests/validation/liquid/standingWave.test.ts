// A standing wave sloshing in a closed tank: its period and its energy, against linear water
// wave theory.
//
// Scene: water of mean depth H = 0.5 m in a 1 m long tank, its surface y = H + a cos(k x),
// k = pi / L (the longest wave the tank holds: a node in the middle, antinodes at the walls),
// a = 0.03 m (ka = 0.094, a / H = 0.06: linear to within 1%). The tank is 3 cells deep in z:
// the mode does not vary across it, so the box is a slice of the 2D problem. Inviscid theory
// (Lamb, Hydrodynamics sec. 227-228; the dispersion relation of gravity waves):
//   omega^2 = g k tanh(k H)   ->   T = 2 pi / omega = 1.1818 s here,
// and the wave's energy per unit width of crest is (1/4) rho g a^2 L (half potential, half
// kinetic on average; all kinetic as the surface passes flat): E0 = rho g a^2 (L / 2) W / 2.
// Water's viscosity damps it by exp(-2 nu k^2 t) plus the walls' boundary layers: < 0.1% over
// the 3 s run, so the answer is "kept".
//
// Measured (the liquid's own figures):
// - period from the surface's mode amplitude, (2 / L) sum_i h_i cos(k x_i) dx with h_i the
//   redistanced level set's zero in column i, over two whole periods (zero crossings 1 to 5:
//   a phase lag of the measurement cancels);
// - energy from the markers, sum (1/2) m_p |v_p|^2 at each peak (the surface flat), over E0.
//
// Measured on this tree (period error; peak kinetic energy over E0 at the 5 half periods):
//   APIC at CFL 1, 64 cells along the tank:   +0.99%; 1.03 1.04 1.01 1.01 0.99
//   APIC at CFL 1, 32 cells:                  +1.20%; 1.15 1.19 1.11 1.07 1.00
//   app defaults (APIC, CFL 4), 32 cells:     +1.37%; 1.18 1.34 1.33 1.45 1.35
//   app defaults, 64 cells:                   +3.06%; 1.13 1.37 1.50 1.59 1.84
// At the app's defaults (one substep per 24 fps frame here) the wave GAINS energy, about
// 10% of E0 per half period at 64 cells, more at smaller amplitudes (the gain does not scale
// with a^2: 0.015 m grew to 2.7 E0 in 3 s), less with more substeps (h = 1/40 s: 1.32 E0 by
// 3 s; 1/48: 1.18). Found with this scene and not fixed yet; the energy is checked at CFL 1
// only until it is (README, Physics checks). Traced: the source is the pressure's cell labels
// (surfaceTracker.ts label): a cell holding at least MIN_COUNT = 2 markers is liquid whatever
// the tracked surface says, and that rule switching cells on and off as markers cross cell
// faces pumps the wave. Labels from the tracked surface alone keep the energy (0.97-1.00 E0)
// and the period (+0.62%) at the defaults, but the 16^3 dam break with an obstacle then loses
// 3.55% of its volume at CFL 4 and the floating 0.5 cube of rigidfluid/rigidFluid.test.ts
// sinks to 0.472 (a wider marker radius R_P = 0.35 dx restores the volume, not the cube).
//
// Tolerances: the period within 2% at CFL 1 (the method's first-order surface and
// time splitting; 10x too fast or slow fails), within 4% at the app's defaults; the peak
// energy at CFL 1 within [0.9, 1.1] E0 at 64 cells and [0.8, 1.25] E0 at 32 (the 32-cell
// staircase start holds about 15% more than the smooth wave's E0).
import { describe, expect, it } from 'vitest'
import type { LiquidSetup, LiquidSimInput } from '../../../src-shared/sim/liquid/liquidInput'
import { LiquidSolver } from '../../../src-shared/sim/liquid/liquidSolver'
import { appDefaults, FPS, layerVolume, liquidInput, liquidSetup } from './liquidScenes'
import { surfaceInColumn } from '../surfaceColumn'

const G = 9.81
const L = 1
const DEPTH = 0.5
const AMPLITUDE = 0.03
const K = Math.PI / L
const OMEGA = Math.sqrt(G * K * Math.tanh(K * DEPTH))
const PERIOD = (2 * Math.PI) / OMEGA
const FRAMES = 72

interface Slosh { period: number; energyPeaks: number[] }

/**
 * The surface's cos(kx) amplitude from the markers' level set, m (columns averaged over z; a
 * column without a crossing counts as height 0). step() leaves s.phi redistanced.
 */
function modeAmplitude(s: LiquidSolver, nx: number, ny: number, nz: number, dx: number): number {
  let amp = 0
  for (let i = 0; i < nx; i++) {
    let h = 0
    for (let k = 0; k < nz; k++) {
      const j = surfaceInColumn(s.phi, nx, ny, i, k)
      if (j === j) h += j * dx
    }
    amp += (h / nz) * Math.cos(K * (i + 0.5) * dx) * dx
  }
  return (2 / L) * amp
}

function slosh(res: number, overrides: Partial<LiquidSetup>, timing: Partial<LiquidSimInput>): Slosh {
  const dx = L / res
  const grid = { nx: res, ny: Math.round(0.75 * res), nz: 3, dx, origin: [0, 0, 0] as [number, number, number] }
  const s = new LiquidSolver(liquidSetup(grid, [layerVolume((x) => DEPTH + AMPLITUDE * Math.cos(K * x))], overrides))
  const e0 = 0.5 * G * AMPLITUDE ** 2 * (L / 2) * grid.nz * dx
  const amp: number[] = []
  const energy: number[] = []
  for (let f = 0; f < FRAMES; f++) {
    const input = liquidInput(f, timing)
    s.step(input.frameDt, input)
    amp.push(modeAmplitude(s, grid.nx, grid.ny, grid.nz, dx))
    const p = s.particles
    let ke = 0
    for (let q = 0; q < p.count; q++) ke += p.vx[q] ** 2 + p.vy[q] ** 2 + p.vz[q] ** 2
    energy.push((0.5 * ke * dx ** 3) / s.setup.particlesPerCell / e0)
  }
  // amp[f] is the surface after frame f + 1, at t = (f + 1) / FPS.
  const crossings: number[] = []
  for (let f = 0; f + 1 < FRAMES; f++) if (amp[f] * amp[f + 1] < 0) crossings.push((f + 1 + amp[f] / (amp[f] - amp[f + 1])) / FPS)
  expect(crossings.length, 'zero crossings of the mode in 3 s').toBeGreaterThanOrEqual(5)
  const most = Math.max(...energy)
  const energyPeaks = energy.filter((e, f) => f > 0 && f + 1 < FRAMES && e >= energy[f - 1] && e >= energy[f + 1] && e > 0.5 * most)
  return { period: (crossings[4] - crossings[0]) / 2, energyPeaks }
}

function report(label: string, r: Slosh): void {
  console.log(`standing wave ${label}: period ${r.period.toFixed(4)} s against ${PERIOD.toFixed(4)} (${((r.period / PERIOD - 1) * 100).toFixed(2)}%); peak kinetic energy over E0 ${r.energyPeaks.map((e) => e.toFixed(3)).join(' ')}`)
}

describe('a standing wave in a 1 m tank, 0.5 m deep (linear theory: T = 2 pi / sqrt(g k tanh kH) = 1.182 s)', () => {
  // Cells along the tank and the band the peak kinetic energy must stay in, over E0.
  const cfl1: [number, number, number][] = [
    [64, 0.9, 1.1],
    [32, 0.8, 1.25],
  ]
  for (const [res, low, high] of cfl1) {
    it(`APIC at CFL 1, ${res} cells along the tank: period within 2%, peak energy within [${low}, ${high}] E0 at every half period for 3 s`, () => {
      const r = slosh(res, appDefaults().setup, { cfl: 1, maxSubsteps: 40 })
      report(`CFL 1, ${res} cells`, r)
      expect(Math.abs(r.period / PERIOD - 1)).toBeLessThanOrEqual(0.02)
      expect(r.energyPeaks.length).toBeGreaterThanOrEqual(4)
      for (const e of r.energyPeaks) {
        expect(e).toBeGreaterThanOrEqual(low)
        expect(e).toBeLessThanOrEqual(high)
      }
    }, 120_000)
  }

  for (const res of [32, 64]) {
    it(`app defaults (APIC, CFL 4), ${res} cells: period within 4%`, () => {
      const d = appDefaults()
      const r = slosh(res, d.setup, d.input)
      report(`app defaults, ${res} cells`, r)
      expect(Math.abs(r.period / PERIOD - 1)).toBeLessThanOrEqual(0.04)
    }, 120_000)
  }
})
