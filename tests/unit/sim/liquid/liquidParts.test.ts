// Unit tests of the liquid solver's parts: markers, extrapolation, heat (table 5 and the LOD
// steps of eqs. 53-55), viscosity from temperature, redistancing, the 7-point MIC(0) and the
// ghost fluid theta.
import { describe, expect, it } from 'vitest'
import { PcgSolver } from '../../../../src-shared/sim/core/pcg'
import { Prng } from '../../../../src-shared/sim/core/prng'
import { extrapolateLayers } from '../../../../src-shared/sim/core/extrapolate'
import { GhostFluidPressure, MIN_THETA } from '../../../../src-shared/sim/liquid/ghostFluid'
import { HeatSolver, solveSymmetricTridiagonal } from '../../../../src-shared/sim/liquid/heat'
import { MarkerParticles } from '../../../../src-shared/sim/liquid/markers'
import { cellViscosity, viscosityAt } from '../../../../src-shared/sim/liquid/melting'
import { Redistancer } from '../../../../src-shared/sim/liquid/redistance'
import { Stencil7Matrix, Stencil7Mic0 } from '../../../../src-shared/sim/liquid/stencil7'
import { AIR, LIQUID } from '../../../../src-shared/sim/liquid/viscosity'
import type { ViscosityModel } from '../../../../src-shared/sim/liquid/liquidInput'

describe('MarkerParticles', () => {
  it('doubles its capacity, keeps data, caps at maxCount and removes by swapping', () => {
    const p = new MarkerParticles(5, 2)
    for (let i = 0; i < 5; i++) expect(p.add(i, 10 + i, 20 + i, 0, 0, 0, 300 + i)).toBe(true)
    expect(p.add(9, 9, 9, 0, 0, 0, 0)).toBe(false)
    expect(p.count).toBe(5)
    expect(Array.from(p.px.subarray(0, 5))).toEqual([0, 1, 2, 3, 4])
    expect(Array.from(p.id.subarray(0, 5))).toEqual([0, 1, 2, 3, 4])
    p.remove(1)
    expect(p.count).toBe(4)
    expect(p.px[1]).toBe(4)
    expect(p.id[1]).toBe(4)
    expect(p.temp[1]).toBe(304)
  })
})

describe('extrapolateLayers', () => {
  it('fills rings outward with means of earlier rings only', () => {
    const f = new Float32Array(5)
    const mark = new Uint8Array(5)
    f[0] = 2
    mark[0] = 1
    f[4] = 6
    mark[4] = 1
    expect(extrapolateLayers(f, mark, 5, 1, 1, 1)).toBe(2)
    expect(Array.from(f)).toEqual([2, 2, 0, 6, 6])
    expect(extrapolateLayers(f, mark, 5, 1, 1, 3)).toBe(1)
    expect(f[2]).toBe(4)
  })
})

describe('heat (Carlson 2004 sec. 4.2)', () => {
  it('table 5 solves a symmetric tridiagonal system', () => {
    const n = 6
    const d = new Float64Array([4, 5, 6, 5, 4, 3]), e = new Float64Array([-1, -2, -1, -0.5, -1])
    const x = new Float64Array([1, -2, 3, 0.5, 2, -1])
    const b = new Float64Array(n)
    for (let i = 0; i < n; i++) b[i] = d[i] * x[i] + (i > 0 ? e[i - 1] * x[i - 1] : 0) + (i < n - 1 ? e[i] * x[i + 1] : 0)
    solveSymmetricTridiagonal(d, e, b, n)
    for (let i = 0; i < n; i++) expect(b[i]).toBeCloseTo(x[i], 12)
  })

  it('LOD diffusion conserves heat, smooths, stays in range and never touches air', () => {
    const spec = { nx: 6, ny: 5, nz: 4, dx: 0.1, origin: [0, 0, 0] as [number, number, number] }
    const n = 6 * 5 * 4
    const t = new Float32Array(n)
    const kind = new Uint8Array(n)
    const prng = new Prng(5)
    for (let c = 0; c < n; c++) {
      kind[c] = prng.next() < 0.8 ? LIQUID : AIR
      t[c] = 280 + 80 * prng.next()
    }
    const before = Float32Array.from(t)
    let sum0 = 0, min0 = Infinity, max0 = -Infinity
    for (let c = 0; c < n; c++) if (kind[c] === LIQUID) (sum0 += t[c]), (min0 = Math.min(min0, t[c])), (max0 = Math.max(max0, t[c]))
    new HeatSolver(spec).diffuse(t, kind, 0.05, 1 / 24)
    let sum1 = 0, var0 = 0, var1 = 0
    for (let c = 0; c < n; c++) {
      if (kind[c] !== LIQUID) {
        expect(t[c]).toBe(before[c])
        continue
      }
      sum1 += t[c]
      expect(t[c]).toBeGreaterThanOrEqual(min0 - 1e-3)
      expect(t[c]).toBeLessThanOrEqual(max0 + 1e-3)
      var0 += (before[c] - sum0 / n) ** 2
      var1 += (t[c] - sum0 / n) ** 2
    }
    expect(Math.abs(sum1 - sum0) / sum0).toBeLessThan(1e-6)
    expect(var1).toBeLessThan(var0)
  })

  it('cooling decays exponentially to ambient and sources relax towards their temperature', () => {
    const spec = { nx: 3, ny: 3, nz: 3, dx: 1, origin: [0, 0, 0] as [number, number, number] }
    const t = new Float32Array(27).fill(400)
    const kind = new Uint8Array(27).fill(LIQUID)
    const heat = new HeatSolver(spec)
    heat.cool(t, kind, 300, 2, 0.5)
    expect(t[0]).toBeCloseTo(300 + 100 * Math.exp(-1), 3)
    heat.applySources(t, kind, [{ id: 's', name: 's', position: [1.5, 1.5, 1.5], radius: 0.6, temperature: 500, rate: 1e9 }], 1)
    expect(t[13]).toBeCloseTo(500, 3)
    expect(t[0]).toBeCloseTo(300 + 100 * Math.exp(-1), 3)
  })
})

describe('viscosity from temperature (Carlson 2004 sec. 4.3)', () => {
  const lin: ViscosityModel = { model: 'temperature', meltingPoint: 330, transitionWidth: 10, ramp: 'linear', solid: 1000, liquid: 10 }
  const quad: ViscosityModel = { ...lin, ramp: 'quadratic' }
  it('is constant outside the zone and ramps inside it', () => {
    expect(viscosityAt(lin, 300)).toBe(1000)
    expect(viscosityAt(lin, 340)).toBe(10)
    expect(viscosityAt(lin, 330)).toBeCloseTo(505, 10)
    expect(viscosityAt(quad, 325)).toBe(1000)
    expect(viscosityAt(quad, 330)).toBeCloseTo(10 + 990 * 0.25, 10)
    expect(viscosityAt(quad, 335)).toBe(10)
    expect(viscosityAt(lin, NaN)).toBe(1000)
    const out = new Float32Array(2)
    expect(cellViscosity(lin, Float32Array.of(300, 400), Uint8Array.of(AIR, LIQUID), out)).toBe(10)
    expect(Array.from(out)).toEqual([0, 10])
  })
})

describe('Redistancer', () => {
  it('turns a scaled level set into a signed distance (sphere: 0.15 dx within a cell of the surface, axis plane exact)', () => {
    const nx = 12, ny = 12, nz = 12, dx = 0.5
    const phi = new Float32Array(nx * ny * nz)
    // A sphere of radius 1.7 m, not centred on a cell, given as 3 x its distance: right zero set, wrong values.
    const dist = (i: number, j: number, k: number) => Math.hypot((i + 0.5) * dx - 3.1, (j + 0.5) * dx - 2.9, (k + 0.5) * dx - 3.05) - 1.7
    for (let k = 0; k < nz; k++) for (let j = 0; j < ny; j++) for (let i = 0; i < nx; i++) {
      phi[i + nx * (j + ny * k)] = 3 * dist(i, j, k)
    }
    new Redistancer(nx * ny * nz).run(phi, nx, ny, nz, dx, 100)
    // Fast sweeping is first order: within a cell of the surface (where theta and volumes read
    // it) within 0.15 dx; further out the error grows along diagonals, to ~15% of the distance.
    let nearWorst = 0, farWorst = 0
    for (let k = 0; k < nz; k++) for (let j = 0; j < ny; j++) for (let i = 0; i < nx; i++) {
      const want = dist(i, j, k)
      const err = Math.abs(phi[i + nx * (j + ny * k)] - want)
      if (Math.abs(want) < dx) nearWorst = Math.max(nearWorst, err)
      else farWorst = Math.max(farWorst, err / Math.abs(want))
      expect(Math.sign(phi[i + nx * (j + ny * k)])).toBe(Math.sign(want))
    }
    expect(nearWorst).toBeLessThan(0.15 * dx)
    expect(farWorst).toBeLessThan(0.2)
    const axis = new Float32Array(nx * ny * nz)
    for (let k = 0; k < nz; k++) for (let j = 0; j < ny; j++) for (let i = 0; i < nx; i++) axis[i + nx * (j + ny * k)] = 5 * ((j + 0.5) * dx - 1.3)
    new Redistancer(nx * ny * nz).run(axis, nx, ny, nz, dx, 100)
    for (let j = 0; j < ny; j++) expect(axis[3 + nx * (j + ny * 3)]).toBeCloseTo((j + 0.5) * dx - 1.3, 5)
  })
})

describe('Stencil7Mic0', () => {
  it('preconditions a variable-coefficient SPD 7-point system to convergence', () => {
    const nx = 7, ny = 6, nz = 5, n = nx * ny * nz
    const m = new Stencil7Matrix(nx, ny, nz)
    const prng = new Prng(11)
    for (let k = 0; k < nz; k++) for (let j = 0; j < ny; j++) for (let i = 0; i < nx; i++) {
      const c = i + nx * (j + ny * k)
      if (i < nx - 1) m.ax[c] = -prng.range(0.5, 2)
      if (j < ny - 1) m.ay[c] = -prng.range(0.5, 2)
      if (k < nz - 1) m.az[c] = -prng.range(0.5, 2)
    }
    for (let c = 0; c < n; c++) {
      const nb = (c >= 1 ? -m.ax[c - 1] : 0) - m.ax[c] + (c >= nx ? -m.ay[c - nx] : 0) - m.ay[c] + (c >= nx * ny ? -m.az[c - nx * ny] : 0) - m.az[c]
      m.diag[c] = nb + 0.01 + (c % 13 === 0 ? 10 : 0) // Dirichlet-like extra diagonal in a few cells
    }
    const mic = new Stencil7Mic0(nx, ny, nz)
    mic.factor(m)
    const b = new Float64Array(n)
    for (let c = 0; c < n; c++) b[c] = prng.range(-1, 1)
    const x = new Float64Array(n)
    const pcg = new PcgSolver(nx, ny, nz)
    const withMic = pcg.solve(m, mic, Float64Array.from(b), x, { tolerance: 1e-10, maxIterations: 500 })
    const plain = pcg.solve(m, null, Float64Array.from(b), new Float64Array(n), { tolerance: 1e-10, maxIterations: 500 })
    expect(withMic.converged).toBe(true)
    expect(withMic.iterations).toBeLessThan(plain.iterations)
  })
})

describe('ghost fluid theta (Gibou et al. 2002)', () => {
  it('is the liquid share of the segment, clamped below', () => {
    expect(GhostFluidPressure.theta(-0.25, 0.75)).toBeCloseTo(0.25, 12)
    expect(GhostFluidPressure.theta(-1, 1)).toBeCloseTo(0.5, 12)
    expect(GhostFluidPressure.theta(-1e-9, 1)).toBe(MIN_THETA)
    expect(GhostFluidPressure.theta(-1, -1)).toBe(1)
  })
})
