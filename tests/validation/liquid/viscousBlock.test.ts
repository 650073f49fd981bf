// A block of liquid resting on the floor of a closed box (12^3 cells of dx = 0.1 m, the cell
// size Carlson 2004 quotes all chapter 4 viscosities for), one substep per frame or more by
// the CFL rule: the implicit viscosity (eqs. 47-49, 57-58) must be stable at 24 fps for any
// viscosity, a very viscous block must keep its shape (chapter 4: "so high in fact that the
// fluid will act very much like a solid") and a water-like one must spread.
//
// Tolerances:
// - nu = 1e4 m^2/s ('carlson' stress, 100 frames): the top of the block (mean of the highest 2%
//   of markers) stays at >= 95% of its start height (the figure);
// - nu = 1e4 m^2/s ('full' stress, 100 frames): the same, >= 95%;
// - nu = 1e-3 m^2/s (100 frames): the top drops below 60% of its start: it spreads;
// - every viscosity solve converges (relative residual <= 1e-6).
//
// ---------------------------------------------------------------------------------------
// Amounts, not directions (issue 12, "tests that can fail"): how FAST a thick layer flows.
//
// Scene: a layer of mean depth H = 1 m across a 3.2 m x 0.3 m box (32 x 14 x 3 cells, dx =
// 0.1 m, Carlson's cell size), its top y = H + a cos(k x), k = pi / L (the longest wave the
// box holds), a = 0.15 m; slippery walls (free slip: the mode cos(kx) satisfies them exactly,
// so the thin box is a slice of the 2D problem; with sticky walls a 3-cell-wide box is a
// Hele-Shaw cell and relaxes about 40x slower, measured 0.026 of the rate below), APIC, the full
// stress tensor. The amplitude is read from the markers: the integral of cos(kx) over the
// liquid is (L/2) a W, so a(t) / a(0) = <cos(k x_p)>_t / <cos(k x_p)>_0 (same markers).
//
// Known answer (derived here; checked with sympy): creeping (Stokes) flow, linear in a. The
// stream function psi = sin(kx) f(y), f biharmonic: f = B sinh ky + C y cosh ky (f(0) = 0,
// f''(0) = 0: no flow through and no shear on the free-slip floor). At the top (y = H): no
// shear stress, f'' + k^2 f = 0; normal stress p' = rho g a + 2 mu dv/dy; kinematic da/dt =
// v(H). The surface decays as exp(-gamma t) with
//   gamma = (g / (2 nu k)) sinh^2(kH) / (sinh kH cosh kH + kH).
// Checks: deep layer (kH -> inf) gamma -> g / (2 nu k), Lamb, Hydrodynamics (1932) sec. 349
// ("modulus of decay" 2 nu k / g for a very viscous liquid; Turcotte & Schubert, Geodynamics
// sec. 6-10, the same for a viscous half-space); thin layer (kH -> 0) gamma -> g H / (4 nu),
// a sheet in planar extension (Trouton viscosity 4 mu). Here kH = 0.98: gamma = 2.41 / nu
// 1/s. Inertia (the full linear problem with rho du/dt kept, root of its 2 x 2 determinant)
// adds 0.85% at nu = 10, 0.008% at nu = 100: negligible.
//
// What the method can reach: the solver splits a substep into gravity, viscosity, then a
// pressure projection with p = 0 at the surface (Carlson 2004 eqs. 43-44 and sec. 3.2.4), so
// the viscous normal stress 2 mu dv/dy at the surface, which carries part of the layer's
// weight, is only partly kept once nu h / dx^2 >> 1. The same derivation with that term
// dropped from the normal-stress condition gives the fully split limit
//   gamma_split = (g / (2 nu k)) tanh(kH)   (= 1.563 gamma at kH = 0.98).
// Measured (this scene, rate over 2 s unless said): nu = 10 at one substep a frame (nu h /
// dx^2 = 42): 1.26-1.33 gamma (the figure moved with concurrent solver changes); 4 substeps
// 1.20, 8: 1.15, 16 (nu h / dx^2 = 2.6): 1.01 over 0.5 s, 1.04 over 1 s (it converges to the
// Stokes rate as h -> 0); nu = 100 and 1000: 1.26, 1.22; dx = 0.05: 1.33; FLIP 0.95: 1.33.
// The same split reproduced on the grid alone (ViscositySystem + GhostFluidPressure, surface
// fixed): 1.25 at nu = 10, and projecting before the viscous solve too does not remove it
// (1.21), so it is the viscosity / pressure split itself (Larionov, Batty & Bridson 2017
// solve both at once). Carlson's per-component stress (eq. 57): 2.2-2.5 gamma (its free
// surface lacks the grad u^T traction). "App defaults" below: APIC (params.ts's transfer)
// with the full stress (params.ts still lists Carlson's stress first) and slippery walls
// (params.ts lists sticky walls, which make this thin box a Hele-Shaw cell: 0.026 gamma).
//
// Tolerances (each band separates 10x: a viscosity 10x off moves gamma 10x):
// - app defaults (APIC, full stress, one substep a frame as the CFL gives), nu = 10 and 100
//   m^2/s, rate over 2 s: 0.85 gamma <= rate <= gamma_split (-15% .. +56%); the same scene
//   at nu / 10 and nu * 10 must fall outside that band;
// - easier setting, nu = 10 at 16 substeps a frame (nu h / dx^2 = 2.6, splitting small),
//   rate over 0.5 s: within 15% of gamma; nu = 1 and 100 at the same setting fall outside.
import { describe, expect, it } from 'vitest'
import type { ViscousStress } from '../../../src-shared/sim/liquid/liquidInput'
import { LiquidSolver } from '../../../src-shared/sim/liquid/liquidSolver'
import { boxVolume, FPS, layerVolume, liquidInput, liquidSetup, runLiquid, surfaceHeight } from './liquidScenes'

const grid = { nx: 12, ny: 12, nz: 12, dx: 0.1, origin: [0, 0, 0] as [number, number, number] }

function block(nu: number, stress: ViscousStress, frames: number): { ratio: number; ms: number; iterations: number; residual: number } {
  const setup = liquidSetup(grid, [boxVolume([0.4, 0, 0.4], [0.8, 0.5, 0.8])], { viscosity: { model: 'constant', value: nu }, viscousStress: stress })
  const first = runLiquid(setup, 1)
  const s = first.solver
  const h0 = surfaceHeight(s)
  let iterations = 0
  let residual = 0
  const t0 = performance.now()
  for (let f = 1; f < frames; f++) {
    const input = liquidInput(f)
    const st = s.step(input.frameDt, input)
    iterations += st.viscosityIterations
    residual = Math.max(residual, st.viscosityResidual)
  }
  const ms = (performance.now() - t0) / (frames - 1)
  return { ratio: surfaceHeight(s) / h0, ms, iterations: iterations / (frames - 1), residual }
}

describe('viscous block on the floor (12^3, dx = 0.1 m, 24 fps)', () => {
  it('nu = 1e4 m^2/s keeps >= 95% of its height for 100 frames (Carlson stress, eq. 57)', () => {
    const r = block(1e4, 'carlson', 100)
    console.log(`viscous block nu=1e4 carlson: height ${(r.ratio * 100).toFixed(2)}%, ${r.ms.toFixed(1)} ms/frame, ${r.iterations.toFixed(0)} viscosity CG iterations/frame, worst residual ${r.residual.toExponential(1)}`)
    expect(r.ratio).toBeGreaterThanOrEqual(0.95)
    expect(r.residual).toBeLessThanOrEqual(1e-6)
  })

  it('nu = 1e4 m^2/s keeps >= 95% of its height for 100 frames with the full stress tensor (eqs. 59-60)', () => {
    const r = block(1e4, 'full', 100)
    console.log(`viscous block nu=1e4 full: height ${(r.ratio * 100).toFixed(2)}%, ${r.ms.toFixed(1)} ms/frame, ${r.iterations.toFixed(0)} viscosity CG iterations/frame`)
    expect(r.ratio).toBeGreaterThanOrEqual(0.95)
    expect(r.residual).toBeLessThanOrEqual(1e-6)
  })

  it('nu = 1e-3 m^2/s spreads (height < 60% after 100 frames)', () => {
    const r = block(1e-3, 'carlson', 100)
    console.log(`viscous block nu=1e-3: height ${(r.ratio * 100).toFixed(2)}%, ${r.ms.toFixed(1)} ms/frame`)
    expect(r.ratio).toBeLessThan(0.6)
    expect(r.residual).toBeLessThanOrEqual(1e-6)
  })
})

// ---- surface relaxation of a thick layer (derivation at the top of the file) ----

const G = 9.81
const RELAX_GRID = { nx: 32, ny: 14, nz: 3, dx: 0.1, origin: [0, 0, 0] as [number, number, number] }
const L = RELAX_GRID.nx * RELAX_GRID.dx
const K = Math.PI / L
const DEPTH = 1
const AMPLITUDE = 0.15
const KH = K * DEPTH

/** Stokes decay rate of the surface mode cos(kx) over a free-slip floor, 1/s. */
function stokesRate(nu: number): number {
  return (G / (2 * nu * K)) * (Math.sinh(KH) ** 2 / (Math.sinh(KH) * Math.cosh(KH) + KH))
}

/** The same with the viscous normal stress left out of the surface's pressure (the fully split limit), 1/s. */
function splitRate(nu: number): number {
  return (G / (2 * nu * K)) * Math.tanh(KH)
}

/** <cos(k x_p)> over the markers (proportional to the mode's amplitude). */
function modeMoment(s: LiquidSolver): number {
  const p = s.particles
  let c = 0
  for (let q = 0; q < p.count; q++) c += Math.cos(K * p.px[q])
  return c / p.count
}

interface Relaxation { rate: number; ratio: number; a0: number; aT: number; ms: number; residual: number }
const relaxations = new Map<string, Relaxation>()

/**
 * Decay rate ln(a(0) / a(T)) / T of the layer's surface mode after `frames` frames at
 * `substeps` substeps a frame or more (Infinity once a(T) <= 0: an underdamped layer sloshing
 * through). Runs are cached: tests share the figures of one viscosity and setting.
 */
function relaxation(nu: number, substeps: number, frames: number): Relaxation {
  const key = `${nu}|${substeps}|${frames}`
  const hit = relaxations.get(key)
  if (hit) return hit
  const setup = liquidSetup(RELAX_GRID, [layerVolume((x) => DEPTH + AMPLITUDE * Math.cos(K * x))], {
    viscosity: { model: 'constant', value: nu },
    viscousStress: 'full',
    transfer: 'apic',
    wallSlip: 'free',
  })
  const s = new LiquidSolver(setup)
  s.step(0, liquidInput(0)) // seeds the markers
  const m0 = modeMoment(s)
  let residual = 0
  const t0 = performance.now()
  for (let f = 0; f < frames; f++) {
    const input = liquidInput(f, { minSubsteps: substeps, maxSubsteps: Math.max(40, substeps) })
    residual = Math.max(residual, s.step(input.frameDt, input).viscosityResidual)
  }
  const ms = (performance.now() - t0) / frames
  const mT = modeMoment(s)
  const T = frames / FPS
  const rate = mT > 0 ? Math.log(m0 / mT) / T : Infinity
  // a = 2 H <cos(k x_p)> (the layer's volume over the markers); only ratios are asserted.
  const r = { rate, ratio: rate / stokesRate(nu), a0: 2 * DEPTH * m0, aT: 2 * DEPTH * mT, ms, residual }
  relaxations.set(key, r)
  return r
}

function logRelaxation(label: string, nu: number, r: Relaxation): void {
  console.log(
    `layer relaxation ${label} nu=${nu}: a ${r.a0.toFixed(4)} -> ${r.aT.toFixed(4)} m, rate ${r.rate.toPrecision(4)} 1/s = ${r.ratio.toFixed(3)} x Stokes ${stokesRate(nu).toPrecision(4)} (split limit ${(splitRate(nu) / stokesRate(nu)).toFixed(3)} x), ${r.ms.toFixed(0)} ms/frame, worst viscosity residual ${r.residual.toExponential(1)}`,
  )
}

describe('thick layer: surface mode cos(kx) relaxes at the Stokes rate (32 x 14 x 3, dx = 0.1 m, kH = 0.98, free-slip walls, APIC, full stress)', () => {
  for (const nu of [10, 100]) {
    it(`app defaults (one substep a frame), nu = ${nu} m^2/s: rate over 2 s within [-15%, +56%] of the Stokes rate (0.85 gamma .. gamma_split); nu / 10 and nu * 10 fall outside`, () => {
      const lo = 0.85 * stokesRate(nu), hi = splitRate(nu)
      const r = relaxation(nu, 1, 48)
      logRelaxation('defaults', nu, r)
      expect(r.rate).toBeGreaterThanOrEqual(lo)
      expect(r.rate).toBeLessThanOrEqual(hi)
      expect(r.residual).toBeLessThanOrEqual(1e-6)
      for (const wrong of [nu / 10, nu * 10]) {
        const w = relaxation(wrong, 1, 48)
        logRelaxation('defaults (10x off)', wrong, w)
        expect(w.rate < lo || w.rate > hi).toBe(true)
      }
    }, 120_000)
  }

  it('easier setting, nu = 10 m^2/s at 16 substeps a frame (nu h / dx^2 = 2.6): rate over 0.5 s within 15% of the Stokes rate; nu = 1 and 100 fall outside', () => {
    const lo = 0.85 * stokesRate(10), hi = 1.15 * stokesRate(10)
    const r = relaxation(10, 16, 12)
    logRelaxation('16 substeps', 10, r)
    expect(r.rate).toBeGreaterThanOrEqual(lo)
    expect(r.rate).toBeLessThanOrEqual(hi)
    for (const wrong of [1, 100]) {
      const w = relaxation(wrong, 16, 12)
      logRelaxation('16 substeps (10x off)', wrong, w)
      expect(w.rate < lo || w.rate > hi).toBe(true)
    }
  }, 120_000)
})
