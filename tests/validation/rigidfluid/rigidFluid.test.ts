// Rigid fluid validation (Carlson 2004 ch. 5): answers known from outside the code.
//   - Archimedes: a floating body at rest has the fraction rho_r / rho_f of its volume below
//     the free surface (a 0.5 cube, a 0.55 ball);
//   - a body of relative density 1 is neutrally buoyant: released at rest, it stays;
//   - a relative density 11 (lead) ball sinks and rests on the floor;
//   - without gravity, liquid plus body keep the momentum of a body thrown through a floating
//     blob of liquid (Newton), until anything reaches a wall.
// Each runs at the app's defaults (CFL 4, 1-4 substeps, APIC, full stress, no-slip walls)
// through the liquid family, as a bake would. Measured figures are in the README's physics
// section.
import { describe, expect, it } from 'vitest'
import { type BodySpec, bodyIn, runTank, submergedFraction, tankScene } from './scenes'

const mean = (a: number[]): number => a.reduce((s, x) => s + x, 0) / a.length

/** Submerged fraction averaged over the last 2 s of 6 s (the body bobs for a while). */
function floating(spec: BodySpec, resolution: number): number {
  const run = runTank(tankScene({ resolution, size: [1, 1, 1], waterLevel: 0.5, bodies: [spec] }), 144, undefined, 0.3)
  return mean(run.frames.slice(97).map((b, i) => submergedFraction(bodyIn(b, spec.id), spec, run.levels[97 + i])))
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

  // Newton: with no gravity nothing outside the two acts on them until the ball reaches a wall
  // (frame 38 here). 48 and 64 cells across 2 m: the ball is 5.8 and 7.7 cells across.
  // Measured 0.29% and 0.85% at worst (2.20% and 2.07% before the markers' shortfall of the
  // liquid-only solve's change went back to the body, markerMomentum.ts; 27% before the
  // liquid-only solve's pressure moved the body and the markers' share of the body's motion
  // was taken from it).
  for (const resolution of [48, 64]) {
    it(`no gravity, ${resolution} cells: a 1.5 density ball thrown at 2 m/s through a floating blob of liquid; liquid plus ball keep their momentum within 1% over 32 frames (until the ball nears a wall)`, () => {
      const spec: BodySpec = { id: 'm', shape: 'sphere', position: [-0.55, 1, 0], scale: [0.24, 0.24, 0.24], relativeDensity: 1.5, params: { initialVelocity: [2, 0, 0] } }
      const doc = tankScene({ resolution, size: [2, 2, 2], waterLevel: 0, gravity: [0, 0, 0], water: { min: [-0.3, 0.7, -0.3], max: [0.3, 1.3, 0.3] }, bodies: [spec] })
      const run = runTank(doc, 32)
      const M = 1500 * (4 / 3) * Math.PI * 0.12 ** 3
      const total = (f: number) => [0, 1, 2].map((d) => M * bodyIn(run.frames[f], 'm').linearVelocity[d] + run.liquidMomentum[f][d])
      const p0 = total(0)
      expect(p0[0]).toBeCloseTo(2 * M, 6)
      // The ball went through the blob: more than half of the momentum is the liquid's.
      expect(run.liquidMomentum[32][0] / p0[0]).toBeGreaterThan(0.5)
      for (let f = 0; f <= 32; f++) {
        const p = total(f)
        expect(Math.abs(p[0] / p0[0] - 1), `frame ${f + 1}: ${p[0].toFixed(4)} of ${p0[0].toFixed(4)}`).toBeLessThan(0.01)
        expect(Math.hypot(p[1], p[2]) / p0[0]).toBeLessThan(0.01)
      }
    }, 120_000)
  }

  // Two bodies whose neighbourhoods overlap (markerMomentum.ts gives each face to one), one
  // lighter than the liquid, and a collision between them (the rigid solver's impulses are
  // equal and opposite). Checked until either body comes within 0.1 m of a wall. Measured
  // 0.33% and 0.78% at worst (2.11% and 2.17% without the markers' momentum balance).
  for (const resolution of [48, 64]) {
    it(`no gravity, ${resolution} cells: a 1.5 density ball at 2 m/s and a 0.6 density ball at 0.5 m/s meet in a floating blob and collide; liquid plus balls keep their momentum within 1% until one nears a wall`, () => {
      const a: BodySpec = { id: 'a', shape: 'sphere', position: [-0.55, 1, 0], scale: [0.24, 0.24, 0.24], relativeDensity: 1.5, params: { initialVelocity: [2, 0, 0] } }
      const b: BodySpec = { id: 'b', shape: 'sphere', position: [0.45, 1.05, 0.03], scale: [0.2, 0.2, 0.2], relativeDensity: 0.6, params: { initialVelocity: [-0.5, 0, 0] } }
      const doc = tankScene({ resolution, size: [2, 2, 2], waterLevel: 0, gravity: [0, 0, 0], water: { min: [-0.3, 0.7, -0.3], max: [0.3, 1.3, 0.3] }, bodies: [a, b] })
      const run = runTank(doc, 32)
      const bodies = [{ id: 'a', r: 0.12, m: 1500 * (4 / 3) * Math.PI * 0.12 ** 3 }, { id: 'b', r: 0.1, m: 600 * (4 / 3) * Math.PI * 0.1 ** 3 }]
      const total = (f: number) => [0, 1, 2].map((d) => run.liquidMomentum[f][d] + bodies.reduce((s, q) => s + q.m * bodyIn(run.frames[f], q.id).linearVelocity[d], 0))
      // The domain spans x, z in [-1, 1] and y in [0, 2]: 0.1 m of clearance to every wall.
      const clear = (f: number) => bodies.every((q) => bodyIn(run.frames[f], q.id).position.every((x, d) => Math.abs(x - (d === 1 ? 1 : 0)) + q.r < 0.9))
      let last = 0
      while (last + 1 < run.frames.length && clear(last + 1)) last++
      expect(last, 'frames before a ball nears a wall').toBeGreaterThanOrEqual(24)
      // They do meet: the centres come within the sum of the radii plus a cell.
      const gap = Math.min(...run.frames.slice(0, last + 1).map((fr) => { const pa = bodyIn(fr, 'a').position, pb = bodyIn(fr, 'b').position; return Math.hypot(pa[0] - pb[0], pa[1] - pb[1], pa[2] - pb[2]) }))
      expect(gap, `closest centres ${gap.toFixed(3)} m`).toBeLessThan(0.22 + 2 / resolution)
      const p0 = total(0)
      expect(p0[0]).toBeCloseTo(2 * bodies[0].m - 0.5 * bodies[1].m, 6)
      for (let f = 0; f <= last; f++) {
        const p = total(f)
        expect(Math.abs(p[0] / p0[0] - 1), `frame ${f + 1}: ${p[0].toFixed(4)} of ${p0[0].toFixed(4)}`).toBeLessThan(0.01)
        expect(Math.hypot(p[1], p[2]) / p0[0]).toBeLessThan(0.01)
      }
    }, 120_000)
  }
})
