// PressureSolver rebuilds its components and preconditioner only when the face weights
// change; a reused setup must give bit for bit what a fresh one gives.
import { describe, expect, it } from 'vitest'
import { computeFaceFractions, type DomainSides, enforceSolidVelocity } from '../../../src-shared/sim/core/boundaries'
import { type GridSpec, MacGrid } from '../../../src-shared/sim/core/grid'
import { type PreconditionerKind, PressureSolver } from '../../../src-shared/sim/core/pressure'

const N = 12
const spec: GridSpec = { nx: N, ny: N, nz: N, dx: 1 / N, origin: [0, 0, 0] }
const sides: DomainSides = { xMin: 'closed', xMax: 'closed', yMin: 'closed', yMax: 'open', zMin: 'closed', zMax: 'closed' }

function rng(seed: number): () => number {
  let s = seed >>> 0
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0
    return s / 4294967296
  }
}

function fractions(holes: number): MacGrid {
  const solid = new Float32Array(N * N * N)
  const r = rng(holes)
  for (let n = 0; n < holes; n++) solid[Math.floor(r() * solid.length)] = 1
  const f = new MacGrid(spec)
  computeFaceFractions(solid, sides, f)
  return f
}

function velocity(seed: number, f: MacGrid): MacGrid {
  const v = new MacGrid(spec)
  const r = rng(seed)
  for (const a of [v.u, v.v, v.w]) for (let i = 0; i < a.length; i++) a[i] = r() - 0.5
  enforceSolidVelocity(v, f)
  return v
}

const same = (a: MacGrid, b: MacGrid) => [0, 1, 2].every((c) => Buffer.from([a.u, a.v, a.w][c].buffer).equals(Buffer.from([b.u, b.v, b.w][c].buffer)))

describe('pressure setup reuse', () => {
  it.each(['multigrid', 'mic0'] as PreconditionerKind[])('%s: same result as a fresh solver, with and without a version, and after the weights change', (kind) => {
    const reused = new PressureSolver(spec, { preconditioner: kind, warmStart: false })
    const f = fractions(40)
    const steps: [number, number | undefined][] = [
      [40, 1],
      [40, 1],
      [40, undefined],
      [90, 2], // new weights in the same arrays, version bumped
      [90, 2],
      [7, undefined], // changed again, no version: found by comparison
      [7, undefined],
    ]
    let seed = 1
    for (const [holes, version] of steps) {
      const g = fractions(holes)
      f.u.set(g.u)
      f.v.set(g.v)
      f.w.set(g.w)
      const v1 = velocity(seed, f)
      const v2 = velocity(seed++, f)
      reused.project(v1, f, { fractionsVersion: version })
      new PressureSolver(spec, { preconditioner: kind, warmStart: false }).project(v2, f)
      expect(same(v1, v2)).toBe(true)
    }
  })
})

describe('a projection with its own tolerance', () => {
  it('stops at the tolerance it is given, then the next solve goes back to the solver own', () => {
    const f = fractions(40)
    const solver = new PressureSolver(spec, { preconditioner: 'mic0', warmStart: false, tolerance: 1e-8 })
    const loose = solver.project(velocity(3, f), f, { tolerance: 1e-2 })
    const tight = solver.project(velocity(3, f), f)
    expect(loose.converged && tight.converged).toBe(true)
    expect(loose.residual).toBeLessThanOrEqual(1e-2)
    expect(loose.residual).toBeGreaterThan(1e-8)
    expect(tight.residual).toBeLessThanOrEqual(1e-8)
    expect(loose.iterations).toBeLessThan(tight.iterations)
  })
})
