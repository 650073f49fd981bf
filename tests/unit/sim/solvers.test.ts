// Algebraic properties the pressure solver relies on: the operator is symmetric, both
// preconditioners are symmetric positive definite linear maps (or PCG loses its guarantees),
// restriction is the transpose of prolongation, and null spaces are found per region.
import { describe, expect, it } from 'vitest'
import { computeFaceFractions, type DomainSides } from '../../../src-shared/sim/core/boundaries'
import { FluidComponents } from '../../../src-shared/sim/core/components'
import { type GridSpec, MacGrid } from '../../../src-shared/sim/core/grid'
import { Mic0Preconditioner } from '../../../src-shared/sim/core/mic0'
import { MultigridPreconditioner, prolongAddSlab, restrictSlab } from '../../../src-shared/sim/core/multigrid'
import { type LinearOperator, PcgSolver, type Preconditioner } from '../../../src-shared/sim/core/pcg'
import { applyPoissonSlab } from '../../../src-shared/sim/core/poisson'

// Odd sizes exercise the coarsening of a last half-filled coarse cell.
const spec: GridSpec = { nx: 13, ny: 10, nz: 7, dx: 0.1, origin: [0, 0, 0] }
const n = spec.nx * spec.ny * spec.nz
const SIDES: DomainSides = { xMin: 'closed', xMax: 'open', yMin: 'closed', yMax: 'open', zMin: 'closed', zMax: 'closed' }

function rng(seed: number): () => number {
  let s = seed >>> 0
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0
    return s / 4294967296
  }
}

/** Face fractions of a box with a partly solid blob (fractions between 0 and 1) inside. */
function weights(sides: DomainSides = SIDES): MacGrid {
  const solid = new Float32Array(n)
  for (let k = 0; k < spec.nz; k++)
    for (let j = 0; j < spec.ny; j++)
      for (let i = 0; i < spec.nx; i++) {
        const d = Math.hypot(i - 6, j - 4.5, k - 3) - 2.2
        solid[i + spec.nx * (j + spec.ny * k)] = Math.min(1, Math.max(0, 0.5 - d / 1.7))
      }
  const f = new MacGrid(spec)
  computeFaceFractions(solid, sides, f)
  return f
}

function randomVector(seed: number, active?: (c: number) => boolean): Float64Array {
  const r = rng(seed)
  const v = new Float64Array(n)
  for (let c = 0; c < n; c++) v[c] = active && !active(c) ? 0 : r() - 0.5
  return v
}

const dot = (a: Float64Array, b: Float64Array) => a.reduce((s, x, i) => s + x * b[i], 0)

/** M symmetric to `tolerance` (relative to |Ma| |b|) and positive on random vectors over the unknowns. */
function expectSpd(M: Preconditioner, f: MacGrid, tolerance = 1e-10): void {
  const isActive = activity(f)
  for (let t = 0; t < 4; t++) {
    const a = randomVector(10 + t, isActive)
    const b = randomVector(20 + t, isActive)
    const Ma = new Float64Array(n)
    const Mb = new Float64Array(n)
    M.apply(a, Ma)
    M.apply(b, Mb)
    const ab = dot(Ma, b)
    const ba = dot(a, Mb)
    expect(Math.abs(ab - ba)).toBeLessThan(tolerance * Math.sqrt(dot(Ma, Ma) * dot(b, b)))
    expect(dot(Ma, a)).toBeGreaterThan(0)
  }
}

/** Whether cell c is an unknown (a nonzero diagonal: some face weight > 0). */
function activity(f: MacGrid): (c: number) => boolean {
  const { u: fu, v: fv, w: fw } = f
  return (c) => {
    const i = c % spec.nx
    const j = Math.floor(c / spec.nx) % spec.ny
    const k = Math.floor(c / (spec.nx * spec.ny))
    const fx = i + (spec.nx + 1) * (j + spec.ny * k)
    const fy = i + spec.nx * (j + (spec.ny + 1) * k)
    return fu[fx] + fu[fx + 1] + fv[fy] + fv[fy + spec.nx] + fw[c] + fw[c + spec.nx * spec.ny] > 0
  }
}

describe('the weighted Poisson operator', () => {
  it('is symmetric and positive on active cells', () => {
    const f = weights()
    const isActive = activity(f)
    const a = randomVector(1, isActive)
    const b = randomVector(2, isActive)
    const Aa = new Float64Array(n)
    const Ab = new Float64Array(n)
    applyPoissonSlab(Aa, a, f.u, f.v, f.w, spec.nx, spec.ny, spec.nz, 0, spec.nz)
    applyPoissonSlab(Ab, b, f.u, f.v, f.w, spec.nx, spec.ny, spec.nz, 0, spec.nz)
    expect(dot(Aa, b)).toBeCloseTo(dot(a, Ab), 10)
    expect(dot(Aa, a)).toBeGreaterThan(0)
    // Slabs compose: running the kernel in two z-ranges gives the same bits.
    const split = new Float64Array(n)
    applyPoissonSlab(split, a, f.u, f.v, f.w, spec.nx, spec.ny, spec.nz, 0, 3)
    applyPoissonSlab(split, a, f.u, f.v, f.w, spec.nx, spec.ny, spec.nz, 3, spec.nz)
    expect(split).toEqual(Aa)
  })
})

describe('multigrid transfer', () => {
  it('restriction is P^T / 2 (checked as <P xc, rf> = 2 <xc, R rf>), on odd sizes', () => {
    const mg = new MultigridPreconditioner(spec.nx, spec.ny, spec.nz, { precision: 'float64' })
    const f = weights()
    mg.setup(f.u, f.v, f.w)
    const [fine, coarse] = mg.levels
    expect([coarse.nx, coarse.ny, coarse.nz]).toEqual([7, 5, 4])
    const r = rng(5)
    const xc = new Float64Array(coarse.nx * coarse.ny * coarse.nz).map(() => r() - 0.5)
    const rf = new Float64Array(n).map(() => r() - 0.5)
    const Pxc = new Float64Array(n)
    fine.active.fill(1)
    prolongAddSlab(Pxc, xc, fine.active, fine.nx, fine.ny, coarse.nx, coarse.ny, fine.tx!, fine.ty!, fine.tz!, 0, fine.nz)
    const Rrf = new Float64Array(xc.length)
    restrictSlab(Rrf, rf, fine.nx, fine.ny, fine.nz, coarse.nx, coarse.ny, fine.tx!, fine.ty!, fine.tz!, fine.scratch, 0, coarse.nz)
    expect(dot(Pxc, rf)).toBeCloseTo(2 * dot(xc, Rrf), 10)
    // P reproduces constants (clamped at the borders).
    const ones = new Float64Array(xc.length).fill(1)
    const P1 = new Float64Array(n)
    prolongAddSlab(P1, ones, fine.active, fine.nx, fine.ny, coarse.nx, coarse.ny, fine.tx!, fine.ty!, fine.tz!, 0, fine.nz)
    for (const x of P1) expect(x).toBeCloseTo(1, 12)
  })

  it('coarsens down to at most 4 cells on the largest axis', () => {
    const mg = new MultigridPreconditioner(128, 64, 32)
    const dims = mg.levels.map((l) => [l.nx, l.ny, l.nz])
    expect(dims).toEqual([
      [128, 64, 32],
      [64, 32, 16],
      [32, 16, 8],
      [16, 8, 4],
      [8, 4, 2],
      [4, 2, 1],
    ])
  })
})

describe('preconditioners are symmetric positive definite', () => {
  it.each(['rbgs', 'jacobi'] as const)('multigrid V-cycle in float64 (%s smoother)', (smoother) => {
    const f = weights()
    const mg = new MultigridPreconditioner(spec.nx, spec.ny, spec.nz, { smoother, precision: 'float64' })
    mg.setup(f.u, f.v, f.w)
    expectSpd(mg, f)
  })

  it('multigrid V-cycle in float32 (the default): symmetric to float32 rounding', () => {
    const f = weights()
    const mg = new MultigridPreconditioner(spec.nx, spec.ny, spec.nz)
    expect(mg.precision).toBe('float32')
    mg.setup(f.u, f.v, f.w)
    expectSpd(mg, f, 1e-6)
  })

  it('MIC(0), whose modification (tuning 0.97) beats plain incomplete Cholesky', () => {
    const big: GridSpec = { nx: 24, ny: 24, nz: 24, dx: 0.1, origin: [0, 0, 0] }
    const m = 24 ** 3
    const f = new MacGrid(big)
    computeFaceFractions(null, SIDES, f)
    const op: LinearOperator = { apply: (x, out) => applyPoissonSlab(out, x, f.u, f.v, f.w, 24, 24, 24, 0, 24) }
    const b = new Float64Array(m).map(rng(9)).map((x) => x - 0.5)
    const pcg = new PcgSolver(24, 24, 24)
    const mic = new Mic0Preconditioner(24, 24, 24)
    const its = [0.97, 0].map((tuning) => {
      mic.factor(f.u, f.v, f.w, tuning)
      return pcg.solve(op, mic, Float64Array.from(b), new Float64Array(m), { tolerance: 1e-8 }).iterations
    })
    expect(its[0]).toBeLessThan(0.8 * its[1])
  })

  it('MIC(0)', () => {
    const f = weights()
    const mic = new Mic0Preconditioner(spec.nx, spec.ny, spec.nz)
    mic.factor(f.u, f.v, f.w)
    expectSpd(mic, f)
  })
})

describe('PCG', () => {
  const f = weights()
  const op: LinearOperator = {
    apply: (x, out) => applyPoissonSlab(out, x, f.u, f.v, f.w, spec.nx, spec.ny, spec.nz, 0, spec.nz),
  }

  it('solves to the requested true relative residual with each preconditioner', () => {
    const isActive = activity(f)
    const b = randomVector(3, isActive)
    const mic = new Mic0Preconditioner(spec.nx, spec.ny, spec.nz)
    mic.factor(f.u, f.v, f.w)
    const mg = new MultigridPreconditioner(spec.nx, spec.ny, spec.nz)
    mg.setup(f.u, f.v, f.w)
    const pcg = new PcgSolver(spec.nx, spec.ny, spec.nz)
    const iterations: number[] = []
    for (const M of [null, mic, mg]) {
      const x = new Float64Array(n)
      const st = pcg.solve(op, M, Float64Array.from(b), x, { tolerance: 1e-10 })
      expect(st.converged).toBe(true)
      const r = new Float64Array(n)
      op.apply(x, r)
      let rr = 0
      for (let c = 0; c < n; c++) rr += (b[c] - r[c]) ** 2
      expect(Math.sqrt(rr / dot(b, b))).toBeLessThanOrEqual(1e-10)
      expect(st.residual).toBeCloseTo(Math.sqrt(rr / dot(b, b)), 14)
      iterations.push(st.iterations)
    }
    // Preconditioning helps: CG > MIC(0) > multigrid.
    expect(iterations[0]).toBeGreaterThan(iterations[1])
    expect(iterations[1]).toBeGreaterThan(iterations[2])
  })

  it('returns zero at once for a zero right-hand side, and stops at maxIterations', () => {
    const pcg = new PcgSolver(spec.nx, spec.ny, spec.nz)
    const x = new Float64Array(n).fill(3)
    expect(pcg.solve(op, null, new Float64Array(n), x)).toEqual({ iterations: 0, residual: 0, converged: true })
    expect(x.every((v) => v === 0)).toBe(true)
    const st = pcg.solve(op, null, randomVector(4, activity(f)), x, { tolerance: 1e-12, maxIterations: 3 })
    expect(st).toMatchObject({ iterations: 3, converged: false })
    expect(st.residual).toBeGreaterThan(1e-12)
  })
})

describe('fluid components', () => {
  it('finds regions cut off by a solid wall and removes each floating region mean', () => {
    const solid = new Float32Array(n)
    for (let k = 0; k < spec.nz; k++) for (let j = 0; j < spec.ny; j++) solid[5 + spec.nx * (j + spec.ny * k)] = 1
    const f = new MacGrid(spec)
    const comps = new FluidComponents(spec.nx, spec.ny, spec.nz)
    computeFaceFractions(solid, { xMin: 'closed', xMax: 'closed', yMin: 'closed', yMax: 'closed', zMin: 'closed', zMax: 'closed' }, f)
    comps.build(f.u, f.v, f.w)
    expect(comps.count).toBe(2)
    expect(comps.floating).toBe(2)
    const v = randomVector(6)
    comps.removeMeans(v)
    let left = 0
    let right = 0
    for (let c = 0; c < n; c++) {
      const i = c % spec.nx
      if (i < 5) left += v[c]
      if (i > 5) right += v[c]
    }
    expect(Math.abs(left)).toBeLessThan(1e-12)
    expect(Math.abs(right)).toBeLessThan(1e-12)
    expect(comps.labels[5]).toBe(-1)
    // Bit for bit the reference: each region's mean summed over its cells in ascending order.
    const solidRandom = new Float32Array(n)
    const r = rng(11)
    for (let c = 0; c < n; c++) solidRandom[c] = r() < 0.6 ? 1 : 0
    computeFaceFractions(solidRandom, { xMin: 'closed', xMax: 'closed', yMin: 'closed', yMax: 'closed', zMin: 'closed', zMax: 'closed' }, f)
    comps.build(f.u, f.v, f.w)
    expect(comps.floating).toBeGreaterThan(3)
    const got = randomVector(8)
    const want = Float64Array.from(got)
    for (let id = 0; id < comps.count; id++) {
      let sum = 0, count = 0
      for (let c = 0; c < n; c++) if (comps.labels[c] === id) (sum += want[c]), count++
      for (let c = 0; c < n; c++) if (comps.labels[c] === id) want[c] -= sum / count
    }
    comps.removeMeans(got)
    expect(Buffer.from(got.buffer).equals(Buffer.from(want.buffer))).toBe(true)
    // Opening an x side leaves only the other region floating; any other side touches both.
    const closed: DomainSides = { xMin: 'closed', xMax: 'closed', yMin: 'closed', yMax: 'closed', zMin: 'closed', zMax: 'closed' }
    for (const side of ['xMin', 'xMax', 'yMin', 'yMax', 'zMin', 'zMax'] as const) {
      computeFaceFractions(solid, { ...closed, [side]: 'open' }, f)
      comps.build(f.u, f.v, f.w)
      expect(comps.count).toBe(2)
      expect(comps.floating).toBe(side.startsWith('x') ? 1 : 0)
    }
  })
})
