// Rigid fluid validation (Carlson 2004 ch. 5): answers known from outside the code.
//   - Archimedes: a floating body at rest has the fraction rho_r / rho_f of its volume below
//     the free surface (a 0.5 cube, a 0.55 ball);
//   - a body of relative density 1 is neutrally buoyant: released at rest, it stays;
//   - a relative density 11 (lead) ball sinks and rests on the floor.
// Momentum (Newton, no gravity) is in momentum.test.ts.
// Each runs at the app's defaults (CFL 4, 1-4 substeps, APIC, full stress, no-slip walls)
// through the liquid family, as a bake would. Measured figures are in the README's physics
// section.
import { describe, expect, it } from 'vitest'
import { type BodySpec, bodyIn, runTank, submergedFraction, tankScene } from './scenes'

const mean = (a: number[]): number => a.reduce((s, x) => s + x, 0) / a.length

/** Submerged fraction averaged over the last 2 s of 6 s (the body bobs for a while). */
function floating(spec: BodySpec, resolution: number): number {
  const run = runTank(tankScene({ resolution, size: [1, 1, 1], waterLevel: 0.5, bodies: [spec] }), 144, undefined, 0.3)
  const s = mean(run.frames.slice(97).map((b, i) => submergedFraction(bodyIn(b, spec.id), spec, run.levels[97 + i])))
  console.log(`floating ${spec.id} (relative density ${spec.relativeDensity}): submerged ${s.toFixed(4)}`)
  return s
}

describe('rigid bodies in liquid (Carlson 2004 ch. 5, app defaults)', () => {
  it('a relative density 0.5 cube (1/4 of the tank wide, 32 cells) floats with 0.5 of its volume under the surface, within 5%', () => {
    const spec: BodySpec = { id: 'cube', shape: 'box', position: [0, 0.5, 0], scale: [0.25, 0.25, 0.25], relativeDensity: 0.5 }
    const s = floating(spec, 32)
    expect(Math.abs(s / 0.5 - 1), `submerged ${s.toFixed(4)}`).toBeLessThan(0.05)
  }, 120_000)

  it('a relative density 0.55 ball (0.3 m across, 32 cells) floats with 0.55 of its volume under the surface, within 5%', () => {
    const spec: BodySpec = { id: 'ball', shape: 'sphere', position: [0, 0.5, 0], scale: [0.3, 0.3, 0.3], relativeDensity: 0.55 }
    const s = floating(spec, 32)
    expect(Math.abs(s / 0.55 - 1), `submerged ${s.toFixed(4)}`).toBeLessThan(0.05)
  }, 120_000)

  it('a relative density 1 block released at rest in still liquid drifts less than 2% of its size over 100 frames', () => {
    const spec: BodySpec = { id: 'n', shape: 'box', position: [0.05, 0.35, -0.03], scale: [0.2, 0.2, 0.2], relativeDensity: 1 }
    const run = runTank(tankScene({ resolution: 24, size: [1, 1, 1], waterLevel: 0.7, bodies: [spec] }), 100)
    const p0 = bodyIn(run.frames[0], 'n').position
    const drift = Math.max(...run.frames.map((f) => { const p = bodyIn(f, 'n').position; return Math.hypot(p[0] - p0[0], p[1] - p0[1], p[2] - p0[2]) }))
    expect(drift / 0.2, `drift ${(drift / 0.2).toFixed(5)} of its size`).toBeLessThan(0.02)
  }, 120_000)

  it('a relative density 11 (lead) ball sinks through 0.5 m of liquid and rests on the floor: within one cell of it over the last second of 3', () => {
    const r = 0.1
    const spec: BodySpec = { id: 'lead', shape: 'sphere', position: [0, 0.6, 0], scale: [2 * r, 2 * r, 2 * r], relativeDensity: 11 }
    const run = runTank(tankScene({ resolution: 24, size: [1, 1, 1], waterLevel: 0.7, bodies: [spec] }), 72)
    const dx = 1 / 24
    for (const f of run.frames.slice(49)) {
      const y = bodyIn(f, 'lead').position[1]
      expect(y - r, `lowest point ${(y - r).toFixed(4)} m above the floor`).toBeGreaterThan(-0.1 * dx)
      expect(y - r).toBeLessThan(dx)
    }
  }, 120_000)

  it('a lead ball resting on the floor of a 0.3 m pool leaves the pool 0.3 m deep: level within 1% over 2 s', () => {
    const lead: BodySpec = { id: 'lead', shape: 'sphere', position: [0, 0.2, 0], scale: [0.2, 0.2, 0.2], relativeDensity: 11 }
    const run = runTank(tankScene({ resolution: 32, size: [1, 1, 1], waterLevel: 0.3, bodies: [lead] }), 48, undefined, 0.25)
    // The ball displaces 4.2e-3 m^3 of a 0.3 m^3 pool: the level rises by at most 4 mm.
    for (const level of run.levels.slice(1)) expect(Math.abs(level / 0.3 - 1), `level ${level.toFixed(4)} m`).toBeLessThan(0.01 + 0.0042 / 0.3)
  }, 120_000)
})
