// Melting and flowing (Carlson 2004 ch. 4): viscosity follows temperature (sec. 4.3), so a
// block below its melting point acts as a solid and flows once it is above it; a heat source
// (sec. 4.4, figure 1: "a block of wax that is being melted by a heat source") melts it.
// Material: melting point 330 K, 10 K linear transition, solid 1e4 m^2/s, melt 1e-2 m^2/s.
// Grid: 12^3 cells of dx = 0.1 m, 24 fps.
//
// Tolerances:
// - a block at 300 K keeps >= 95% of its height for 100 frames (it is 30 K below the zone);
// - a block at 360 K drops below 60% of its height in 100 frames;
// - a block at 300 K under a 420 K heat source drops below 90% of its height in 100 frames,
//   and its hottest marker is above the melting point;
// - with no source, diffusion and cooling, no marker's temperature changes by more than 1e-3 K
//   (heat is only moved, never made; float32 storage).
//
// ---------------------------------------------------------------------------------------
// How FAST heat melts a block (issue 12, "tests that can fail"): a heat source smaller than
// the block holds one end hot, and conduction must carry the melt through the rest.
//
// Scene: a wax layer 2 m x 0.2 m x 0.15 m in a 40 x 6 x 3 box of dx = 0.05 m cells (the
// layer fills the lower 4 cells, air above) at T0 = 300 K, the material above, heat diffusion k =
// 0.0236 m^2/s, no ambient cooling. The heat source is a ball of radius 100 m centred at
// x = 0.05 - 100 m: its surface crosses x = 0.05 m, so of the liquid cells only the first
// column (centre x = 0.025 m; the second's centre 0.075 m is outside) relaxes to Ts = 420 K,
// at rate 1e3 1/s (1 - exp(-1e3 h) = 1 for every substep: that column is held at 420 K).
//
// Known answer: a semi-infinite solid at T0 whose face is held at Ts from t = 0 (Carslaw &
// Jaeger, Conduction of Heat in Solids, 2nd ed. 1959, ch. II, the semi-infinite solid with
// its surface at a constant temperature; Crank, The Mathematics of Diffusion, 1975, sec. 3.3):
//   T(x, t) = T0 + (Ts - T0) erfc(x / (2 sqrt(k t))),
// so the melting-point isotherm T = Tm = 330 K sits at
//   x_m(t) = 2 erfcinv((Tm - T0) / (Ts - T0)) sqrt(k t) = 2 erfcinv(0.25) sqrt(k t)
//          = 1.6268 sqrt(k t)   (erfcinv(0.25) = erfinv(0.75) = 0.81342; computed below too)
// measured from the held column's centre: 0.353 m at 2 s, 0.500 m at 4 s; it moves as
// sqrt(t) (x_m(4 s) / x_m(2 s) = sqrt 2) and as sqrt(k) (10x k moves it 3.16x). The solver
// has no latent heat (heat.ts: diffusion, cooling, sources; Carlson 2004 sec. 4.2-4.3 has
// none either: melting is the viscosity's response to temperature), so this zero-Stefan-
// number solution applies rather than Neumann's. The far wall (1.975 m away) is insulated;
// at 4 s erfc(1.975 / (2 sqrt(k t))) = 5e-6, so the solid is semi-infinite for the test.
// The front is read from the grid temperature (liquid cells of each column averaged, the
// 330 K crossing interpolated between column centres), not from the flowed shape.
//
// What the method can reach: each substep the source resets the first column to 420 K and
// the diffusion then cools it (to 409-416 K), so the face is a little below Ts (Ts = 415 K
// would give 0.983 of x_m). With gravity the molten part moves at up to 0.2 m/s although
// the layer is flat and should stay at rest: the solver adds gravity before the viscous solve
// and projects after it, and next to the viscosity jump (melt 1e-2 beside solid 1e4 m^2/s)
// the viscous step turns the not yet balanced gravity kick into a rotational flow the
// projection cannot remove (a still layer of one viscosity on slippery walls stays at rest;
// projecting before the viscous solve as well removes it: see the issue 12 report). That
// flow stirs the heat: measured, the 4 s front is 8% short at k and 32% long at k / 10.
// Tolerances:
// - app defaults (APIC, full stress, sticky walls, gravity): the front within 20% of x_m at
//   2 s and at 4 s, the ratio x(4 s) / x(2 s) within 10% of sqrt 2; with k / 10 and k * 10
//   the front falls outside the 20% band at both times;
// - without gravity (nothing moves: conduction, the source and the marker <-> grid transfer
//   alone): within 8% of x_m at 2 s and 4 s, x(4 s) / x(2 s) within 4% of sqrt 2; k / 10 and
//   k * 10 fall outside the 8% band at both times.
import { describe, expect, it } from 'vitest'
import type { HeatSourceInput, LiquidSetup } from '../../../src-shared/sim/liquid/liquidInput'
import { LiquidSolver } from '../../../src-shared/sim/liquid/liquidSolver'
import { boxVolume, liquidInput, liquidSetup, runLiquid, surfaceHeight } from './liquidScenes'

const grid = { nx: 12, ny: 12, nz: 12, dx: 0.1, origin: [0, 0, 0] as [number, number, number] }
const wax: Partial<LiquidSetup> = {
  viscosity: { model: 'temperature', meltingPoint: 330, transitionWidth: 10, ramp: 'linear', solid: 1e4, liquid: 1e-2 },
  heat: { diffusion: 1e-3, ambientTemperature: 300, coolingRate: 0 },
}

function melt(temperature: number, sources: HeatSourceInput[], frames = 100): { ratio: number; hottest: number; coldest: number; ms: number } {
  const setup = liquidSetup(grid, [boxVolume([0.4, 0, 0.4], [0.8, 0.5, 0.8], temperature)], wax)
  const input = (f: number) => liquidInput(f, { family: { heatSources: sources } })
  const s = runLiquid(setup, 1, undefined, 0, input).solver
  const h0 = surfaceHeight(s)
  const run = runLiquid(setup, frames - 1, s, 1, input)
  let hottest = -Infinity, coldest = Infinity
  for (let q = 0; q < s.particles.count; q++) {
    hottest = Math.max(hottest, s.particles.temp[q])
    coldest = Math.min(coldest, s.particles.temp[q])
  }
  return { ratio: surfaceHeight(s) / h0, hottest, coldest, ms: run.msPerFrame }
}

describe('melting (viscosity from temperature, Carlson 2004 sec. 4.3)', () => {
  it('a block below its melting point keeps its shape', () => {
    const r = melt(300, [])
    console.log(`melting: cold block height ${(r.ratio * 100).toFixed(2)}%, ${r.ms.toFixed(1)} ms/frame`)
    expect(r.ratio).toBeGreaterThanOrEqual(0.95)
    expect(Math.abs(r.hottest - 300)).toBeLessThan(1e-3)
    expect(Math.abs(r.coldest - 300)).toBeLessThan(1e-3)
  })

  it('a block above its melting point flows', () => {
    const r = melt(360, [])
    console.log(`melting: hot block height ${(r.ratio * 100).toFixed(2)}%, ${r.ms.toFixed(1)} ms/frame`)
    expect(r.ratio).toBeLessThan(0.6)
  })

  it('a heat source melts a cold block', () => {
    const source: HeatSourceInput = { id: 'lamp', name: 'lamp', position: [0.6, 0.5, 0.6], radius: 0.35, temperature: 420, rate: 4 }
    const r = melt(300, [source])
    console.log(`melting: heated block height ${(r.ratio * 100).toFixed(2)}%, hottest marker ${r.hottest.toFixed(1)} K, ${r.ms.toFixed(1)} ms/frame`)
    expect(r.hottest).toBeGreaterThan(330)
    expect(r.ratio).toBeLessThan(0.9)
  })
})

// ---- melt front driven by conduction from a small hot source (derivation at the top) ----

const T0 = 300, TS = 420, TM = 330
const K_HEAT = 0.0236
const FRONT_GRID = { nx: 40, ny: 6, nz: 3, dx: 0.05, origin: [0, 0, 0] as [number, number, number] }
/** Centre of the held column: x = 0 of the semi-infinite solution. */
const FACE = 0.5 * FRONT_GRID.dx

function erfc(x: number): number {
  // Abramowitz & Stegun 7.1.26 (|error| < 1.5e-7), x >= 0.
  const t = 1 / (1 + 0.3275911 * x)
  return ((((1.061405429 * t - 1.453152027) * t + 1.421413741) * t - 0.284496736) * t + 0.254829592) * t * Math.exp(-x * x)
}

/** erfcinv(y) for y in (0, 1) by bisection on erfc (decreasing). */
function erfcinv(y: number): number {
  let lo = 0, hi = 6
  for (let n = 0; n < 60; n++) {
    const mid = 0.5 * (lo + hi)
    if (erfc(mid) > y) lo = mid
    else hi = mid
  }
  return 0.5 * (lo + hi)
}

const ETA = erfcinv((TM - T0) / (TS - T0))

/** The melting-point isotherm of the erfc solution, m from the held face. */
function exactFront(k: number, t: number): number {
  return 2 * ETA * Math.sqrt(k * t)
}

/** x of the 330 K crossing of the column-averaged grid temperature, m from the held face. */
function meltFront(s: LiquidSolver): number {
  const { nx, ny, nz, dx } = FRONT_GRID
  const prof: number[] = []
  for (let i = 0; i < nx; i++) {
    let sum = 0, n = 0
    for (let k = 0; k < nz; k++) for (let j = 0; j < ny; j++) {
      const c = i + nx * (j + ny * k)
      if (s.kind[c] === 1) (sum += s.temperature[c]), n++
    }
    prof.push(n > 0 ? sum / n : NaN)
  }
  if (!(prof[0] >= TM)) return 0
  for (let i = 0; i + 1 < nx; i++) if (prof[i] >= TM && prof[i + 1] < TM) return (i + 0.5 + (prof[i] - TM) / (prof[i] - prof[i + 1])) * dx - FACE
  return (nx - 0.5) * dx - FACE // all of it above Tm
}

interface FrontRun { x2: number; x4: number; ms: number; vmax: number }
const frontRuns = new Map<string, FrontRun>()

/** Fronts at 2 s and 4 s (48 and 96 frames) for conductivity k; cached per (k, gravity). */
function frontRun(k: number, gravity: boolean): FrontRun {
  const key = `${k}|${gravity}`
  const hit = frontRuns.get(key)
  if (hit) return hit
  const setup = liquidSetup(FRONT_GRID, [boxVolume([0, 0, 0], [2, 0.2, 0.15], T0)], {
    ...wax,
    heat: { diffusion: k, ambientTemperature: T0, coolingRate: 0 },
    gravity: gravity ? [0, -9.81, 0] : [0, 0, 0],
    transfer: 'apic',
    viscousStress: 'full',
    wallSlip: 'no',
  })
  const source: HeatSourceInput = { id: 'end', name: 'end', position: [0.05 - 100, 0.1, 0.075], radius: 100, temperature: TS, rate: 1e3 }
  const input = (f: number) => liquidInput(f, { family: { heatSources: [source] } })
  const s = new LiquidSolver(setup)
  const t0 = performance.now()
  runLiquid(setup, 48, s, 0, input)
  const x2 = meltFront(s)
  runLiquid(setup, 48, s, 48, input)
  const x4 = meltFront(s)
  let vmax = 0
  for (let q = 0; q < s.particles.count; q++) vmax = Math.max(vmax, Math.hypot(s.particles.vx[q], s.particles.vy[q], s.particles.vz[q]))
  const r = { x2, x4, ms: (performance.now() - t0) / 96, vmax }
  frontRuns.set(key, r)
  return r
}

function logFront(label: string, k: number, r: FrontRun): void {
  const e2 = exactFront(k, 2), e4 = exactFront(k, 4)
  console.log(
    `melt front ${label} k=${k}: 2 s ${r.x2.toFixed(4)} m (erfc ${e2.toFixed(4)}, ${(r.x2 / e2).toFixed(3)}), 4 s ${r.x4.toFixed(4)} m (erfc ${e4.toFixed(4)}, ${(r.x4 / e4).toFixed(3)}), x4/x2 ${(r.x4 / r.x2).toFixed(3)} (sqrt 2 = 1.414), fastest marker ${r.vmax.toExponential(2)} m/s, ${r.ms.toFixed(0)} ms/frame`,
  )
}

describe('melt front from a heat source smaller than the block (erfc conduction, Carslaw & Jaeger ch. II)', () => {
  it('erfcinv(30 / 120) = 0.8134 (the constant of the front)', () => {
    expect(ETA).toBeCloseTo(0.81342, 4)
    expect(erfc(0.81342)).toBeCloseTo(0.25, 5)
  })

  it('app defaults with gravity: the 330 K front within 20% of 2 erfcinv(0.25) sqrt(k t) at 2 s and 4 s, x(4 s) / x(2 s) within 10% of sqrt 2; k / 10 and k * 10 fall outside', () => {
    const r = frontRun(K_HEAT, true)
    logFront('defaults', K_HEAT, r)
    for (const [x, t] of [[r.x2, 2], [r.x4, 4]]) {
      expect(x).toBeGreaterThanOrEqual(0.8 * exactFront(K_HEAT, t))
      expect(x).toBeLessThanOrEqual(1.2 * exactFront(K_HEAT, t))
    }
    expect(Math.abs(r.x4 / r.x2 / Math.SQRT2 - 1)).toBeLessThanOrEqual(0.1)
    for (const wrong of [K_HEAT / 10, K_HEAT * 10]) {
      const w = frontRun(wrong, true)
      logFront('defaults (10x off)', wrong, w)
      for (const [x, t] of [[w.x2, 2], [w.x4, 4]]) {
        const e = exactFront(K_HEAT, t)
        expect(x < 0.8 * e || x > 1.2 * e).toBe(true)
      }
    }
  }, 120_000)

  it('without gravity (nothing moves): the front within 8% at 2 s and 4 s, x(4 s) / x(2 s) within 4% of sqrt 2; k / 10 and k * 10 fall outside', () => {
    const r = frontRun(K_HEAT, false)
    logFront('no gravity', K_HEAT, r)
    for (const [x, t] of [[r.x2, 2], [r.x4, 4]]) {
      expect(x).toBeGreaterThanOrEqual(0.92 * exactFront(K_HEAT, t))
      expect(x).toBeLessThanOrEqual(1.08 * exactFront(K_HEAT, t))
    }
    expect(Math.abs(r.x4 / r.x2 / Math.SQRT2 - 1)).toBeLessThanOrEqual(0.04)
    for (const wrong of [K_HEAT / 10, K_HEAT * 10]) {
      const w = frontRun(wrong, false)
      logFront('no gravity (10x off)', wrong, w)
      for (const [x, t] of [[w.x2, 2], [w.x4, 4]]) {
        const e = exactFront(K_HEAT, t)
        expect(x < 0.92 * e || x > 1.08 * e).toBe(true)
      }
    }
  }, 120_000)
})
