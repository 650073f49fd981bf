// The implicit viscosity system A u_new = u (Carlson 2004 eqs. 47-49 with eqs. 57-58, and the
// full-stress variant) is symmetric positive definite, its rows are eq. 57's stencil with
// eq. 58's geometric-mean edge viscosities, and the Jacobi-preconditioned CG of table 4
// converges at a large time step for viscosities from 0 to 1e5 m^2/s.
//
// Tolerances: symmetry entrywise to 1e-12 relative to the largest entry (the entries are sums
// of the same weights in a different order); Cholesky of the dense matrix must succeed with
// every pivot > 0.5 (A = 1 + PSD, so every pivot is >= 1 in exact arithmetic); x^T A x >= x^T x
// for random x to 1e-9 relative; PCG relative residual <= 1e-6 within 2000 iterations.
import { describe, expect, it } from 'vitest'
import { closedBoxFaces } from '../../fixtures/viscousFaces'
import { CLOSED_BOX, openFlags } from '../../../src-shared/sim/core/boundaries'
import { MacGrid, type GridSpec } from '../../../src-shared/sim/core/grid'
import { Prng } from '../../../src-shared/sim/core/prng'
import type { ViscousStress, WallSlip } from '../../../src-shared/sim/liquid/liquidInput'
import { AIR, LIQUID, SOLID, ViscositySystem } from '../../../src-shared/sim/liquid/viscosity'

const N = 5
const spec: GridSpec = { nx: N, ny: N, nz: N, dx: 0.1, origin: [0, 0, 0] }
const H = 1 / 24

/** A small scene: liquid in the lower part, air above, one solid cell, viscosity varying 1..100x. */
function scene(nu: number): { kind: Uint8Array; cellNu: Float32Array; vel: MacGrid; fractions: MacGrid } {
  const kind = new Uint8Array(N * N * N)
  const cellNu = new Float32Array(N * N * N)
  const solid = new Float32Array(N * N * N)
  const prng = new Prng(7)
  for (let k = 0; k < N; k++) {
    for (let j = 0; j < N; j++) {
      for (let i = 0; i < N; i++) {
        const c = i + N * (j + N * k)
        kind[c] = j < 3 || (j === 3 && i < 2) ? LIQUID : AIR
        cellNu[c] = nu * (1 + 99 * prng.next())
      }
    }
  }
  const sc = 2 + N * (0 + N * 2)
  kind[sc] = SOLID
  solid[sc] = 1
  const { fractions, vel } = closedBoxFaces(spec, solid, prng)
  return { kind, cellNu, vel, fractions }
}

/** Dense matrix of the system restricted to its unknowns (probing A with unit vectors). */
function dense(sys: ViscositySystem): { A: Float64Array; ids: number[] } {
  const ids: number[] = []
  for (let f = 0; f < sys.n; f++) if (sys.unknown[f]) ids.push(f)
  const m = ids.length
  const A = new Float64Array(m * m)
  const e = new Float64Array(sys.n)
  const out = new Float64Array(sys.n)
  for (let b = 0; b < m; b++) {
    e.fill(0)
    e[ids[b]] = 1
    sys.apply(e, out)
    for (let a = 0; a < m; a++) A[a * m + b] = out[ids[a]]
  }
  return { A, ids }
}

/** In-place Cholesky; returns the smallest pivot (NaN/negative = not positive definite). */
function choleskyMinPivot(A: Float64Array, m: number): number {
  let minPivot = Infinity
  for (let j = 0; j < m; j++) {
    let d = A[j * m + j]
    for (let k = 0; k < j; k++) d -= A[j * m + k] * A[j * m + k]
    if (!(d > 0)) return d
    minPivot = Math.min(minPivot, d)
    const l = Math.sqrt(d)
    A[j * m + j] = l
    for (let i = j + 1; i < m; i++) {
      let s = A[i * m + j]
      for (let k = 0; k < j; k++) s -= A[i * m + k] * A[j * m + k]
      A[i * m + j] = s / l
    }
  }
  return minPivot
}

const CASES: [ViscousStress, WallSlip][] = [
  ['carlson', 'free'],
  ['carlson', 'no'],
  ['full', 'free'],
  ['full', 'no'],
]

describe('implicit viscosity matrix (Carlson 2004 eqs. 47-49, 57-58)', () => {
  it.each(CASES)('is symmetric positive definite (%s stress, %s-slip walls)', (stress, slip) => {
    const { kind, cellNu, vel, fractions } = scene(10)
    const sys = new ViscositySystem(N, N, N)
    sys.setup(vel, fractions, kind, cellNu, H, stress, slip, openFlags(CLOSED_BOX))
    const { A, ids } = dense(sys)
    const m = ids.length
    expect(m).toBeGreaterThan(100)
    let maxEntry = 0
    for (let i = 0; i < m * m; i++) maxEntry = Math.max(maxEntry, Math.abs(A[i]))
    let asym = 0
    for (let a = 0; a < m; a++) for (let b = 0; b < a; b++) asym = Math.max(asym, Math.abs(A[a * m + b] - A[b * m + a]))
    expect(asym).toBeLessThanOrEqual(1e-12 * maxEntry)
    // x^T A x >= x^T x: A = 1 + sum of w g g^T with w >= 0.
    const prng = new Prng(3)
    const x = new Float64Array(m)
    for (let t = 0; t < 20; t++) {
      for (let i = 0; i < m; i++) x[i] = prng.range(-1, 1)
      let xAx = 0, xx = 0
      for (let a = 0; a < m; a++) {
        let s = 0
        for (let b = 0; b < m; b++) s += A[a * m + b] * x[b]
        xAx += x[a] * s
        xx += x[a] * x[a]
      }
      expect(xAx).toBeGreaterThanOrEqual(xx * (1 - 1e-9))
    }
    // The diagonal the Jacobi preconditioner uses is A's.
    for (let a = 0; a < m; a++) expect(Math.abs(sys.diagonal[ids[a]] - A[a * m + a])).toBeLessThanOrEqual(1e-12 * maxEntry)
    const minPivot = choleskyMinPivot(A, m)
    expect(minPivot).toBeGreaterThan(0.5)
  })

  it.each(CASES)('with control-volume fractions from a level set (Batty & Bridson 2008) it is symmetric positive definite, x^T A x >= x^T M x (%s stress, %s-slip walls)', (stress, slip) => {
    const { kind, cellNu, vel, fractions } = scene(10)
    // A level set crossing the liquid's top rows at varying depths.
    const phi = new Float32Array(N * N * N)
    for (let k = 0; k < N; k++) for (let j = 0; j < N; j++) for (let i = 0; i < N; i++) phi[i + N * (j + N * k)] = spec.dx * (j - 2.6 + 0.15 * i - 0.1 * k)
    const sys = new ViscositySystem(N, N, N)
    sys.setup(vel, fractions, kind, cellNu, H, stress, slip, openFlags(CLOSED_BOX), phi)
    const { A, ids } = dense(sys)
    const m = ids.length
    let maxEntry = 0
    for (let i = 0; i < m * m; i++) maxEntry = Math.max(maxEntry, Math.abs(A[i]))
    for (let a = 0; a < m; a++) for (let b = 0; b < a; b++) expect(Math.abs(A[a * m + b] - A[b * m + a])).toBeLessThanOrEqual(1e-12 * maxEntry)
    let minMass = 1
    let partial = 0
    for (const f of ids) {
      minMass = Math.min(minMass, sys.mass[f])
      if (sys.mass[f] < 1) partial++
    }
    expect(partial).toBeGreaterThan(10)
    expect(minMass).toBeGreaterThan(0)
    const prng = new Prng(5)
    const x = new Float64Array(m)
    for (let t = 0; t < 20; t++) {
      for (let i = 0; i < m; i++) x[i] = prng.range(-1, 1)
      let xAx = 0, xMx = 0
      for (let a = 0; a < m; a++) {
        let s = 0
        for (let b = 0; b < m; b++) s += A[a * m + b] * x[b]
        xAx += x[a] * s
        xMx += sys.mass[ids[a]] * x[a] * x[a]
      }
      expect(xAx).toBeGreaterThanOrEqual(xMx * (1 - 1e-9))
    }
    for (let a = 0; a < m; a++) expect(Math.abs(sys.diagonal[ids[a]] - A[a * m + a])).toBeLessThanOrEqual(1e-12 * maxEntry)
    expect(choleskyMinPivot(A, m)).toBeGreaterThan(0.5 * minMass)
    expect(sys.solve(1e-6, 2000).converged).toBe(true)
  })

  it('rows are eq. 57 with the geometric-mean edge viscosity of eq. 58', () => {
    const { kind, cellNu, vel, fractions } = scene(1)
    const sys = new ViscositySystem(N, N, N)
    sys.setup(vel, fractions, kind, cellNu, H, 'carlson', 'free', openFlags(CLOSED_BOX))
    // u face (i=2, j=1, k=3): liquid on both sides, all neighbouring cells liquid.
    const i = 2, j = 1, k = 3
    const cell = (a: number, b: number, c: number) => a + N * (b + N * c)
    const uf = (a: number, b: number, c: number) => a + (N + 1) * (b + N * c)
    const s = H / (spec.dx * spec.dx)
    const e = new Float64Array(sys.n)
    const out = new Float64Array(sys.n)
    const coef = (target: number) => {
      e.fill(0)
      e[target] = 1
      sys.apply(e, out)
      return out[uf(i, j, k)]
    }
    const gm = (a: number, b: number, c: number, d: number) => Math.pow(cellNu[a] * cellNu[b] * cellNu[c] * cellNu[d], 0.25)
    // Eq. 57: -dt/dx^2 times the viscosity between u_{i,j,k} and each neighbour.
    expect(coef(uf(i - 1, j, k))).toBeCloseTo(-s * cellNu[cell(i - 1, j, k)], 9)
    expect(coef(uf(i + 1, j, k))).toBeCloseTo(-s * cellNu[cell(i, j, k)], 9)
    expect(coef(uf(i, j - 1, k))).toBeCloseTo(-s * gm(cell(i, j, k), cell(i - 1, j, k), cell(i - 1, j - 1, k), cell(i, j - 1, k)), 9)
    expect(coef(uf(i, j + 1, k))).toBeCloseTo(-s * gm(cell(i, j + 1, k), cell(i - 1, j + 1, k), cell(i - 1, j, k), cell(i, j, k)), 9)
    expect(coef(uf(i, j, k - 1))).toBeCloseTo(-s * gm(cell(i, j, k), cell(i - 1, j, k), cell(i - 1, j, k - 1), cell(i, j, k - 1)), 9)
    expect(coef(uf(i, j, k + 1))).toBeCloseTo(-s * gm(cell(i, j, k + 1), cell(i - 1, j, k + 1), cell(i - 1, j, k), cell(i, j, k)), 9)
    const off = [uf(i - 1, j, k), uf(i + 1, j, k), uf(i, j - 1, k), uf(i, j + 1, k), uf(i, j, k - 1), uf(i, j, k + 1)].reduce((a, f) => a - coef(f), 0)
    expect(coef(uf(i, j, k))).toBeCloseTo(1 + off, 9)
  })

  it.each([0, 1, 1e3, 1e5])('Jacobi PCG converges at dt = 1/24 s for nu = %s m^2/s (both stress forms)', (nu) => {
    for (const stress of ['carlson', 'full'] as const) {
      const { kind, cellNu, vel, fractions } = scene(nu / 100)
      const sys = new ViscositySystem(N, N, N)
      sys.setup(vel, fractions, kind, cellNu, H, stress, 'no', openFlags(CLOSED_BOX))
      const st = sys.solve(1e-6, 2000)
      expect(st.converged).toBe(true)
      expect(st.residual).toBeLessThanOrEqual(1e-6)
      // The true residual of the written-back field, measured independently.
      const r = new Float64Array(sys.n)
      sys.apply(sys.x, r)
      let num = 0, den = 0
      for (let f = 0; f < sys.n; f++) if (sys.unknown[f]) (num += (r[f] - sys.rhs[f]) ** 2), (den += sys.rhs[f] ** 2)
      expect(Math.sqrt(num / den)).toBeLessThanOrEqual(1.01e-6)
      console.log(`viscosity PCG (${stress}) nu=${nu}: ${st.iterations} iterations, residual ${st.residual.toExponential(2)}`)
    }
  })
})
