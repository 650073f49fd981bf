// A ball of smoke carried one full turn by a solid-body rotation (u = omega x r about the
// grid centre, axis z) on a 64 x 64 x 4 grid, 120 steps (about 1.3 cells per step at the
// ball's outer edge). The exact answer is the initial field; the schemes are compared on
// mass, compactness and bounds.
import { beforeAll, describe, expect, it } from 'vitest'
import { type AdvectionScheme, Advector } from '../../../src-shared/sim/core/advect'
import { type GridSpec, MacGrid, ScalarField } from '../../../src-shared/sim/core/grid'
import type { Interpolation } from '../../../src-shared/sim/core/interpolate'

const NX = 64
const NZ = 4
const spec: GridSpec = { nx: NX, ny: NX, nz: NZ, dx: 1 / NX, origin: [0, 0, 0] }
const OMEGA = 2 * Math.PI // one turn per second
const STEPS = 120
const DT = 1 / STEPS
const CX = 0.5
const CY = 0.5
const BALL = { x: 0.75, y: 0.5, r: 0.12 }

interface Stats {
  mass: number
  peak: number
  min: number
  max: number
  cx: number
  cy: number
  /** Second moment about the centroid, m^2: the spread of the ball. */
  spread: number
}

function stats(f: Float32Array): Stats {
  let mass = 0
  let sx = 0
  let sy = 0
  let min = Infinity
  let max = -Infinity
  for (let k = 0; k < NZ; k++)
    for (let j = 0; j < NX; j++)
      for (let i = 0; i < NX; i++) {
        const q = f[i + NX * (j + NX * k)]
        mass += q
        sx += q * (i + 0.5) * spec.dx
        sy += q * (j + 0.5) * spec.dx
        min = Math.min(min, q)
        max = Math.max(max, q)
      }
  const cx = sx / mass
  const cy = sy / mass
  let m2 = 0
  for (let k = 0; k < NZ; k++)
    for (let j = 0; j < NX; j++)
      for (let i = 0; i < NX; i++) {
        const q = f[i + NX * (j + NX * k)]
        m2 += q * (((i + 0.5) * spec.dx - cx) ** 2 + ((j + 0.5) * spec.dx - cy) ** 2)
      }
  return { mass, peak: max, min, max, cx, cy, spread: m2 / mass }
}

function rotation(): MacGrid {
  const vel = new MacGrid(spec)
  const p = [0, 0, 0]
  for (let k = 0; k < NZ; k++)
    for (let j = 0; j < NX; j++)
      for (let i = 0; i <= NX; i++) {
        vel.facePosition(0, i, j, k, p)
        vel.u[vel.uIndex(i, j, k)] = -OMEGA * (p[1] - CY)
        vel.facePosition(1, j, i, k, p)
        vel.v[vel.vIndex(j, i, k)] = OMEGA * (p[0] - CX)
      }
  return vel
}

/** A ball of density 1 with an edge smoothed over about one cell (a sampled indicator). */
function ball(): ScalarField {
  const f = new ScalarField(spec)
  const p = [0, 0, 0]
  for (let k = 0; k < NZ; k++)
    for (let j = 0; j < NX; j++)
      for (let i = 0; i < NX; i++) {
        f.position(i, j, k, p)
        const d = Math.hypot(p[0] - BALL.x, p[1] - BALL.y) - BALL.r
        f.data[f.index(i, j, k)] = Math.min(1, Math.max(0, 0.5 - d / spec.dx))
      }
  return f
}

function turn(scheme: AdvectionScheme, interpolation: Interpolation, steps = STEPS): Stats {
  const vel = rotation()
  const adv = new Advector(spec)
  let a = ball().data
  let b: Float32Array = new Float32Array(a.length)
  for (let s = 0; s < steps; s++) {
    adv.advectScalar(b, a, vel, 1 / steps, { scheme, interpolation })
    ;[a, b] = [b, a]
  }
  return stats(a)
}

describe('one full solid-body rotation of a ball of smoke', () => {
  const initial = stats(ball().data)
  const results = new Map<string, Stats>()
  beforeAll(() => {
    for (const scheme of ['semi-lagrangian', 'maccormack'] as const)
      for (const interp of ['linear', 'cubic'] as const) results.set(`${scheme}/${interp}`, turn(scheme, interp))
    const fmt = (s: Stats) =>
      `mass ${((s.mass / initial.mass - 1) * 100).toFixed(2)}%  peak ${s.peak.toFixed(3)}  spread ${(s.spread * 1e4).toFixed(2)} cm^2  ` +
      `range [${s.min.toExponential(1)}, ${s.max.toFixed(3)}]  centroid (${s.cx.toFixed(3)}, ${s.cy.toFixed(3)})`
    console.log(`initial                    ${fmt(initial)}`)
    for (const [k, s] of results) console.log(`${k.padEnd(26)} ${fmt(s)}`)
  }, 120_000)
  const get = (k: string) => results.get(k)!

  it('returns to where it started (centroid within 2 cells; semi-Lagrangian within 1)', () => {
    // Limited MacCormack lags about 1.2 cells after a turn: the limiter removes the negative
    // dispersive wiggles that trail the ball (Lax-Wendroff-like), which adds mass behind it.
    // Without the limiter the centroid is back to 0.1 cell, but values reach -0.23 and 1.29.
    for (const [key, s] of results) {
      const cells = key.startsWith('semi') ? 1 : 2
      expect(Math.abs(s.cx - initial.cx)).toBeLessThan(cells * spec.dx)
      expect(Math.abs(s.cy - initial.cy)).toBeLessThan(cells * spec.dx)
    }
  })

  it('MacCormack keeps the mass within 5%', () => {
    for (const interp of ['linear', 'cubic']) {
      expect(Math.abs(get(`maccormack/${interp}`).mass / initial.mass - 1)).toBeLessThanOrEqual(0.05)
    }
  })

  it('MacCormack stays more compact than semi-Lagrangian: smaller second moment about the centroid', () => {
    for (const interp of ['linear', 'cubic']) {
      expect(get(`maccormack/${interp}`).spread).toBeLessThan(get(`semi-lagrangian/${interp}`).spread)
    }
    // With trilinear interpolation its peak is also clearly higher (with monotone cubic both
    // keep the peak at 1 to 1e-5, so peaks say nothing there).
    expect(get('maccormack/linear').peak).toBeGreaterThan(get('semi-lagrangian/linear').peak + 0.1)
    // And its spread is closer to the true (initial) one.
    expect(Math.abs(get('maccormack/linear').spread - initial.spread)).toBeLessThan(
      Math.abs(get('semi-lagrangian/linear').spread - initial.spread),
    )
  })

  it('monotone cubic keeps the peak higher than trilinear', () => {
    expect(get('semi-lagrangian/cubic').peak).toBeGreaterThan(get('semi-lagrangian/linear').peak)
    expect(get('semi-lagrangian/cubic').spread).toBeLessThan(get('semi-lagrangian/linear').spread)
  })

  it('creates no new extrema: every scheme stays within the initial [0, 1] (to float rounding, 1e-30)', () => {
    expect(initial.min).toBe(0)
    expect(initial.max).toBe(1)
    // Monotone cubic stays within its 8 samples in exact arithmetic; its float64 evaluation
    // can come out a rounding below 0 (-1e-34 seen), which no limiter range check removes.
    for (const s of results.values()) {
      expect(s.min).toBeGreaterThanOrEqual(-1e-30)
      expect(s.max).toBeLessThanOrEqual(1)
    }
  })
})

// The app's default CFL is 4 cells per substep, so a turn takes few steps and traces longer than
// a cell. Selle's MacCormack then added its error estimate whole cells downstream of where it
// was made (advectKernels.ts, errorSample) and the limiter turned the misplaced correction into
// mass: +2.2% at 60 steps, +2.1% at 30.
describe('one full turn in few steps (2.5 and 5 cells per step at the ball\'s outer edge)', () => {
  const initial = stats(ball().data)
  it.each([
    [60, '+2.2%'],
    [30, '+2.1%'],
  ] as const)('%i steps: MacCormack keeps the mass within 1 percent (was %s) and stays more compact than semi-Lagrangian', (steps, _was) => {
    const mac = turn('maccormack', 'linear', steps)
    const semi = turn('semi-lagrangian', 'linear', steps)
    console.log(`${steps} steps: maccormack mass ${((mac.mass / initial.mass - 1) * 100).toFixed(2)}% spread ${(mac.spread * 1e4).toFixed(2)} cm^2; semi-Lagrangian spread ${(semi.spread * 1e4).toFixed(2)} cm^2`)
    expect(Math.abs(mac.mass / initial.mass - 1)).toBeLessThan(0.01)
    expect(mac.spread).toBeLessThan(semi.spread)
    expect(mac.min).toBeGreaterThanOrEqual(0)
    expect(mac.max).toBeLessThanOrEqual(1)
  })
})
