// The smoke pressure solve's passes that moved from TypeScript loops onto kernel rows
// (core/pressureKernels.ts, twins in wasm/assembly/pressurePasses.ts), and the boundary
// band's run list (multigrid.ts, RELAX_RUNS): each row on TypeScript and on 1, 2 and 3
// WebAssembly threads against a plain loop written here, and a whole multigrid-preconditioned
// projection of a closed box with an obstacle (one floating region, whose mean the solve
// removes twice an iteration, by planes) giving the same bits on every backend.
import { describe, expect, it } from 'vitest'
import { CLOSED_BOX, computeFaceFractions } from '../../../src-shared/sim/core/boundaries'
import { type GridSpec, MacGrid } from '../../../src-shared/sim/core/grid'
import type { KernelBackend } from '../../../src-shared/sim/core/kernelBackend'
import { PREPARE_SOLVE, REGION_PLANE_SUMS, REGION_SUBTRACT } from '../../../src-shared/sim/core/pressureKernels'
import { PressureSolver } from '../../../src-shared/sim/core/pressure'
import { everyBackendOfFile, rng, sameBits } from './everyBackend'

const backends = everyBackendOfFile()

describe('pressure solve passes on kernel rows', () => {
  // A grid of 9 planes of 61 cells; three regions of random cells (ascending within each, as
  // components.ts lists them), and where each plane's cells start in each list.
  const plane = 61, nz = 9, n = plane * nz
  const r = rng(3)
  const lists: number[][] = [[], [], []]
  for (let c = 0; c < n; c++) if (r() < 0.9) lists[Math.floor(r() * 3)].push(c)
  const cells = lists.flat()
  const start = [0, lists[0].length, lists[0].length + lists[1].length, cells.length]
  const planeStart: number[] = []
  for (let g = 0; g < 3; g++) for (let k = 0; k <= nz; k++) planeStart.push(start[g] + lists[g].filter((c) => c < k * plane).length)
  const v0 = Array.from({ length: n }, () => r() * 2 - 1)

  // The plain loop: each region's sum plane by plane, the planes' sums in order, then its mean subtracted.
  const expected = Float64Array.from(v0)
  const means: number[] = []
  for (const list of lists) {
    let sum = 0
    for (let k = 0; k < nz; k++) {
      let s = 0
      for (const c of list) if (c >= k * plane && c < (k + 1) * plane) s += expected[c]
      sum += s
    }
    means.push(sum / list.length)
  }
  lists.forEach((list, g) => {
    for (const c of list) expected[c] -= means[g]
  })

  it.each(backends)('regionPlaneSums and regionSubtract leave each region with mean 0, the plain loop\'s bits: %s', (_name, k) => {
    const v = k.f64(n)
    v.set(v0)
    const ci = k.i32(cells.length)
    ci.set(cells)
    const ps = k.i32(planeStart.length)
    ps.set(planeStart)
    const partial = k.f64(3 * nz)
    k.run(REGION_PLANE_SUMS, v, ci, ps, 3, nz, partial, cells.length)
    const mean = k.f64(3)
    for (let g = 0; g < 3; g++) {
      let sum = 0
      for (let kk = 0; kk < nz; kk++) sum += partial[g * nz + kk]
      mean[g] = sum / lists[g].length
      expect(mean[g]).toBe(means[g])
    }
    k.run(REGION_SUBTRACT, v, ci, ps, 3, nz, mean, cells.length)
    expect(sameBits(v, expected)).toBe(true)
    for (const list of lists) expect(Math.abs(list.reduce((s, c) => s + v[c], 0)) / list.length).toBeLessThan(1e-15)
    // Cells in no region are untouched.
    const inRegion = new Set(cells)
    let outside = 0
    for (let c = 0; c < n; c++) {
      if (inRegion.has(c)) continue
      outside++
      expect(v[c]).toBe(v0[c])
    }
    expect(outside).toBeGreaterThan(0)
  })

  it.each(backends)('prepareSolve negates b on the unknowns, zeroes it elsewhere, keeps a finite warm start: %s', (_name, k) => {
    const plane = 37, nz = 11, m = plane * nz
    const labels = k.i32(m)
    const b = k.f64(m)
    const phi = k.f64(m)
    const rr = rng(9)
    const b0: number[] = [], phi0: number[] = [], lab: number[] = []
    for (let c = 0; c < m; c++) {
      lab.push(rr() < 0.2 ? -1 : Math.floor(rr() * 3))
      b0.push(rr() < 0.05 ? 0 : rr() - 0.5)
      const q = rr()
      phi0.push(q < 0.03 ? NaN : q < 0.06 ? Infinity : q < 0.09 ? -Infinity : rr() - 0.5)
    }
    labels.set(lab)
    for (const warm of [1, 0]) {
      b.set(b0)
      phi.set(phi0)
      k.run(PREPARE_SOLVE, b, phi, labels, warm, plane, nz)
      for (let c = 0; c < m; c++) {
        const unknown = lab[c] >= 0
        expect(Object.is(b[c], unknown ? -b0[c] : 0)).toBe(true)
        expect(Object.is(phi[c], warm === 1 && unknown && Number.isFinite(phi0[c]) ? phi0[c] : 0)).toBe(true)
      }
    }
  })
})

describe('a multigrid-preconditioned projection (boundary band as runs, mean removal, set-up pass on the kernels)', () => {
  const spec: GridSpec = { nx: 19, ny: 14, nz: 11, dx: 0.05, origin: [0, 0, 0] }
  const { nx, ny, nz } = spec

  function project(k: KernelBackend): { u: Float32Array; v: Float32Array; w: Float32Array; iterations: number; residual: number } {
    const f = new MacGrid(spec, { kernels: k })
    // A closed box with a ball inside: the band runs along every side and around the ball.
    const solid = k.f32(nx * ny * nz)
    for (let kk = 0; kk < nz; kk++)
      for (let j = 0; j < ny; j++)
        for (let i = 0; i < nx; i++) {
          const d = Math.hypot(i + 0.5 - 9, j + 0.5 - 6, kk + 0.5 - 5)
          solid[i + nx * (j + ny * kk)] = Math.min(1, Math.max(0, 3.5 - d))
        }
    computeFaceFractions(solid, CLOSED_BOX, f)
    const vel = new MacGrid(spec, { kernels: k })
    const r = rng(21)
    for (const a of [vel.u, vel.v, vel.w]) for (let c = 0; c < a.length; c++) a[c] = r() * 2 - 1
    const solver = new PressureSolver(spec, { preconditioner: 'multigrid', kernels: k, tolerance: 1e-9, maxIterations: 200 })
    const s = solver.project(vel, f)
    return { u: vel.u, v: vel.v, w: vel.w, iterations: s.iterations, residual: s.residual }
  }

  const ref = project(backends[0][1])

  it('converges on the TypeScript kernels', () => {
    expect(ref.residual).toBeLessThan(1e-9)
    expect(ref.iterations).toBeGreaterThan(2)
    expect(ref.iterations).toBeLessThan(30)
  })

  it.each(backends.slice(1))('%s gives the TypeScript kernels\' bits', (_name, k) => {
    const out = project(k)
    expect(out.iterations).toBe(ref.iterations)
    expect(sameBits(out.u, ref.u) && sameBits(out.v, ref.v) && sameBits(out.w, ref.w)).toBe(true)
  })
})
