// The smoke multigrid's float32 cycle (core/multigrid32Kernels.ts, twin
// wasm/assembly/multigrid32.ts): each kernel on every backend against its TypeScript reference
// bit for bit (odd sizes, rows that are not a multiple of four, face fractions with zeros, any
// split over threads), each against its float64 counterpart to float32 rounding, and the
// preconditioner in PCG: the same tolerance reached in about the float64 cycle's iterations,
// and symmetric to rounding.
import { describe, expect, it } from 'vitest'
import { computeFaceFractions, type DomainSides } from '../../../src-shared/sim/core/boundaries'
import { type GridSpec, MacGrid } from '../../../src-shared/sim/core/grid'
import type { KernelBackend } from '../../../src-shared/sim/core/kernelBackend'
import { GS_SWEEP, GS_SWEEP32, PROLONG_ADD32, RELAX_RUNS, RELAX_RUNS32, RESIDUAL, RESIDUAL32, RESTRICT32, START_CYCLE32, FINISH_CYCLE32 } from '../../../src-shared/sim/core/kernelRows'
import { MultigridPreconditioner, prolongAddSlab, restrictSlab } from '../../../src-shared/sim/core/multigrid'
import { gaussSeidelColorSlab32, prolongAddSlab32, relaxRuns32, residualSlab32, restrictSlab32 } from '../../../src-shared/sim/core/multigrid32Kernels'
import { PressureSolver } from '../../../src-shared/sim/core/pressure'
import { everyBackendOfFile, rng, sameBits } from './everyBackend'
import { randomRuns } from './runLists'

const backends = everyBackendOfFile()

function randomF32(n: number, seed: number): Float32Array {
  const r = rng(seed)
  const a = new Float32Array(n)
  for (let i = 0; i < n; i++) a[i] = r() * 2 - 1
  return a
}

/** Face fractions: about 30% zero, 30% one, the rest in (0, 1). */
function randomWeights(n: number, seed: number): Float32Array {
  const r = rng(seed)
  const a = new Float32Array(n)
  for (let i = 0; i < n; i++) {
    const t = r()
    a[i] = t < 0.3 ? 0 : t < 0.6 ? 1 : r()
  }
  return a
}

/** A copy of src in the backend's memory. */
function into<T extends Float32Array | Float64Array | Int32Array | Uint8Array>(k: KernelBackend, src: T): T {
  const a = src instanceof Float32Array ? k.f32(src.length) : src instanceof Float64Array ? k.f64(src.length) : src instanceof Int32Array ? k.i32(src.length) : k.u8(src.length)
  a.set(src)
  return a as T
}

/** max |a - b| / max |b|. */
function relDiff(a: ArrayLike<number>, b: ArrayLike<number>): number {
  let d = 0, m = 0
  for (let i = 0; i < b.length; i++) {
    d = Math.max(d, Math.abs(a[i] - b[i]))
    m = Math.max(m, Math.abs(b[i]))
  }
  return m === 0 ? d : d / m
}

describe.each([
  [21, 12, 9],
  [13, 10, 7],
  [40, 6, 5],
  [5, 4, 3],
])('float32 multigrid kernels on a %i x %i x %i grid', (nx, ny, nz) => {
  const n = nx * ny * nz
  const fu = randomWeights((nx + 1) * ny * nz, 1)
  const fv = randomWeights(nx * (ny + 1) * nz, 2)
  const fw = randomWeights(nx * ny * (nz + 1), 3)
  const x = randomF32(n, 4)
  const b = randomF32(n, 5)

  it.each(backends)('a red-black sweep and the band runs on %s give the reference\'s bits', (_name, k) => {
    for (const first of [0, 1]) {
      const ref = Float32Array.from(x)
      gaussSeidelColorSlab32(ref, b, fu, fv, fw, nx, ny, nz, first, 0, nz)
      gaussSeidelColorSlab32(ref, b, fu, fv, fw, nx, ny, nz, 1 - first, 0, nz)
      const out = into(k, x)
      const wb = into(k, b), wu = into(k, fu), wv = into(k, fv), ww = into(k, fw)
      k.run(GS_SWEEP32, out, wb, wu, wv, ww, nx, ny, nz, first, 0)
      k.run(GS_SWEEP32, out, wb, wu, wv, ww, nx, ny, nz, first, 1)
      expect(sameBits(out, ref)).toBe(true)
    }
    for (const color of [0, 1]) {
      const { runs, cells } = randomRuns(nx, ny, nz, color, 6 + color)
      const ref = Float32Array.from(x)
      relaxRuns32(ref, b, fu, fv, fw, nx, ny, nz, runs, 0, runs.length / 2)
      const out = into(k, x)
      k.run(RELAX_RUNS32, out, into(k, b), into(k, fu), into(k, fv), into(k, fw), nx, ny, nz, into(k, runs), cells)
      expect(sameBits(out, ref)).toBe(true)
    }
  })

  it.each(backends)('the residual on %s gives the reference\'s bits', (_name, k) => {
    const ref = new Float32Array(n)
    residualSlab32(ref, b, x, fu, fv, fw, nx, ny, nz, 0, nz)
    const out = k.f32(n)
    k.run(RESIDUAL32, out, into(k, b), into(k, x), into(k, fu), into(k, fv), into(k, fw), nx, ny, nz)
    expect(sameBits(out, ref)).toBe(true)
  })

  it.each(backends)('restriction, prolongation and the float64 hand-overs on %s give the reference\'s bits', (_name, k) => {
    const r64 = Float64Array.from(randomF32(n, 8), (v) => v * Math.PI)
    const b32 = k.f32(n), x32 = into(k, x), z = k.f64(n)
    k.run(START_CYCLE32, b32, x32, into(k, r64), nx * ny, nz)
    expect(sameBits(b32, Float32Array.from(r64))).toBe(true)
    expect(x32.every((v) => Object.is(v, 0))).toBe(true)
    k.run(FINISH_CYCLE32, z, into(k, b), nx * ny, nz)
    expect(sameBits(z, Float64Array.from(b))).toBe(true)
    if (Math.max(nx, ny, nz) <= 4) return // a single level
    const mg = new MultigridPreconditioner(nx, ny, nz, { kernels: k })
    const [f, c] = mg.levels
    const m = c.nx * c.ny * c.nz
    const ref = new Float32Array(m)
    restrictSlab32(ref, b, nx, ny, nz, c.nx, c.ny, f.tx32!, f.ty32!, f.tz32!, new Float32Array(f.scratch32.length), 0, c.nz)
    const bc = k.f32(m)
    k.run(RESTRICT32, bc, into(k, b), nx, ny, nz, c.nx, c.ny, f.tx32!, f.ty32!, f.tz32!, f.scratch32, c.nz)
    expect(sameBits(bc, ref)).toBe(true)

    const active = Uint8Array.from(randomF32(n, 9), (v) => (v < 0.6 ? 1 : 0))
    const xc = randomF32(m, 10)
    const pref = Float32Array.from(x)
    prolongAddSlab32(pref, xc, active, nx, ny, c.nx, c.ny, f.tx32!, f.ty32!, f.tz32!, 0, nz)
    const xf = into(k, x)
    k.run(PROLONG_ADD32, xf, into(k, xc), into(k, active), nx, ny, c.nx, c.ny, f.tx32!, f.ty32!, f.tz32!, nz)
    expect(sameBits(xf, pref)).toBe(true)
  })

  it('each kernel agrees with its float64 counterpart to float32 rounding', () => {
    const k = backends[1][1]
    const x64 = Float64Array.from(x), b64 = Float64Array.from(b)
    const wu = into(k, fu), wv = into(k, fv), ww = into(k, fw)
    // A sweep: Gauss-Seidel's division by a sum of weights can amplify, but not past 1e-5 here.
    const s64 = into(k, x64), s32 = into(k, x)
    k.run(GS_SWEEP, s64, into(k, b64), wu, wv, ww, nx, ny, nz, 0, 0)
    k.run(GS_SWEEP, s64, into(k, b64), wu, wv, ww, nx, ny, nz, 0, 1)
    k.run(GS_SWEEP32, s32, into(k, b), wu, wv, ww, nx, ny, nz, 0, 0)
    k.run(GS_SWEEP32, s32, into(k, b), wu, wv, ww, nx, ny, nz, 0, 1)
    expect(relDiff(s32, s64)).toBeLessThan(1e-5)
    const { runs, cells } = randomRuns(nx, ny, nz, 1, 11)
    const r64 = into(k, x64), r32 = into(k, x)
    k.run(RELAX_RUNS, r64, into(k, b64), wu, wv, ww, nx, ny, nz, into(k, runs), cells)
    k.run(RELAX_RUNS32, r32, into(k, b), wu, wv, ww, nx, ny, nz, into(k, runs), cells)
    expect(relDiff(r32, r64)).toBeLessThan(1e-5)
    const q64 = k.f64(n), q32 = k.f32(n)
    k.run(RESIDUAL, q64, into(k, b64), into(k, x64), wu, wv, ww, nx, ny, nz)
    k.run(RESIDUAL32, q32, into(k, b), into(k, x), wu, wv, ww, nx, ny, nz)
    expect(relDiff(q32, q64)).toBeLessThan(1e-6)
    if (Math.max(nx, ny, nz) <= 4) return
    const mg64 = new MultigridPreconditioner(nx, ny, nz, { precision: 'float64' })
    const [f, c] = mg64.levels
    const m = c.nx * c.ny * c.nz
    const ref = new Float64Array(m)
    restrictSlab(ref, b64, nx, ny, nz, c.nx, c.ny, f.tx!, f.ty!, f.tz!, new Float64Array(f.scratch.length), 0, c.nz)
    const mg32 = new MultigridPreconditioner(nx, ny, nz)
    const [g, d] = mg32.levels
    const out = new Float32Array(m)
    restrictSlab32(out, b, nx, ny, nz, d.nx, d.ny, g.tx32!, g.ty32!, g.tz32!, new Float32Array(g.scratch32.length), 0, d.nz)
    expect(relDiff(out, ref)).toBeLessThan(1e-6)
    const xc = randomF32(m, 12)
    const active = new Uint8Array(n).fill(1)
    const p64 = Float64Array.from(x)
    prolongAddSlab(p64, Float64Array.from(xc), active, nx, ny, c.nx, c.ny, f.tx!, f.ty!, f.tz!, 0, nz)
    const p32 = Float32Array.from(x)
    prolongAddSlab32(p32, xc, active, nx, ny, d.nx, d.ny, g.tx32!, g.ty32!, g.tz32!, 0, nz)
    expect(relDiff(p32, p64)).toBeLessThan(1e-6)
  })
})

describe('the float32 cycle as PCG\'s preconditioner', () => {
  const spec: GridSpec = { nx: 30, ny: 26, nz: 22, dx: 0.05, origin: [0, 0, 0] }
  const { nx, ny, nz } = spec
  const OPEN_TOP: DomainSides = { xMin: 'closed', xMax: 'closed', yMin: 'closed', yMax: 'open', zMin: 'closed', zMax: 'closed' }

  /** A box (open top) with a ball inside, random velocities, projected to `tolerance`. */
  function project(k: KernelBackend, precision: 'float32' | 'float64', tolerance: number) {
    const f = new MacGrid(spec, { kernels: k })
    const solid = k.f32(nx * ny * nz)
    for (let kk = 0; kk < nz; kk++)
      for (let j = 0; j < ny; j++)
        for (let i = 0; i < nx; i++) solid[i + nx * (j + ny * kk)] = Math.min(1, Math.max(0, 5.5 - Math.hypot(i + 0.5 - 14, j + 0.5 - 11, kk + 0.5 - 10)))
    computeFaceFractions(solid, OPEN_TOP, f)
    const vel = new MacGrid(spec, { kernels: k })
    const r = rng(31)
    for (const a of [vel.u, vel.v, vel.w]) for (let c = 0; c < a.length; c++) a[c] = r() * 2 - 1
    const solver = new PressureSolver(spec, { preconditioner: 'multigrid', kernels: k, tolerance, maxIterations: 100, multigrid: { precision } })
    const s = solver.project(vel, f)
    return { vel, iterations: s.iterations, residual: s.residual }
  }

  it.each([1e-6, 1e-9])('reaches relative residual %s in at most one iteration more than the float64 cycle, to the same velocities', (tol) => {
    const k = backends[2][1]
    const a = project(k, 'float64', tol)
    const b = project(k, 'float32', tol)
    expect(b.residual).toBeLessThan(tol)
    expect(b.iterations).toBeLessThanOrEqual(a.iterations + 1)
    expect(b.iterations).toBeLessThan(20)
    // Both are projections to the tolerance: their difference is of the tolerance's order.
    expect(relDiff(b.vel.u, a.vel.u)).toBeLessThan(100 * tol + 1e-6)
  })

  it('is symmetric to float32 rounding and positive', () => {
    const k = backends[2][1]
    const f = new MacGrid(spec, { kernels: k })
    const solid = k.f32(nx * ny * nz)
    for (let c = 0; c < solid.length; c++) solid[c] = c % 37 === 0 ? 1 : 0
    computeFaceFractions(solid, OPEN_TOP, f)
    const mg = new MultigridPreconditioner(nx, ny, nz, { kernels: k })
    mg.setup(f.u, f.v, f.w)
    const n = nx * ny * nz
    const u = into(k, Float64Array.from(randomF32(n, 40))), v = into(k, Float64Array.from(randomF32(n, 41)))
    for (let c = 0; c < n; c++) if (solid[c] === 1) u[c] = v[c] = 0
    const Mu = k.f64(n), Mv = k.f64(n)
    mg.apply(u, Mu)
    mg.apply(v, Mv)
    let uMv = 0, vMu = 0, uMu = 0, scale = 0
    for (let c = 0; c < n; c++) {
      uMv += u[c] * Mv[c]
      vMu += v[c] * Mu[c]
      uMu += u[c] * Mu[c]
      scale += Math.abs(u[c] * Mv[c])
    }
    expect(Math.abs(uMv - vMu) / scale).toBeLessThan(1e-5)
    expect(uMu).toBeGreaterThan(0)
  })
})
