import { describe, expect, it } from 'vitest'
import { type GridSpec, MacGrid, ScalarField } from '../../../src-shared/sim/core/grid'
import { cubic3, lerp3, monotoneCubic, sampleFace, sampleScalar, sampleVelocity } from '../../../src-shared/sim/core/interpolate'

const spec: GridSpec = { nx: 9, ny: 7, nz: 6, dx: 0.25, origin: [-1, 0.5, 2] }

function rng(seed: number): () => number {
  let s = seed >>> 0
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0
    return s / 4294967296
  }
}

/** Fills a cell field with f(world position of the cell centre). */
function fillCells(field: ScalarField, f: (x: number, y: number, z: number) => number): void {
  const p = [0, 0, 0]
  for (let k = 0; k < field.nz; k++)
    for (let j = 0; j < field.ny; j++)
      for (let i = 0; i < field.nx; i++) {
        field.position(i, j, k, p)
        field.data[field.index(i, j, k)] = f(p[0], p[1], p[2])
      }
}

const linear = (x: number, y: number, z: number) => 0.5 + 0.3 * x - 0.7 * y + 0.2 * z
// Increasing along every axis over the grid (its minimum lies outside), so the monotone
// limiter never fires and the cubic must reproduce it exactly.
const quadratic = (x: number, y: number, z: number) => 0.05 * ((x + 2) ** 2 + (y - 0) ** 2 + (z - 1) ** 2) + 0.02 * (x + 2) * (y + 0.1)

describe('trilinear', () => {
  it('reproduces a linear function exactly at random points inside the grid', () => {
    const field = new ScalarField(spec)
    fillCells(field, linear)
    const r = rng(1)
    for (let n = 0; n < 200; n++) {
      // Anywhere between the first and last cell centres.
      const x = -1 + 0.125 + r() * 0.25 * 8
      const y = 0.5 + 0.125 + r() * 0.25 * 6
      const z = 2 + 0.125 + r() * 0.25 * 5
      expect(sampleScalar(field, x, y, z)).toBeCloseTo(linear(x, y, z), 5)
    }
  })

  it('reproduces a linear velocity on each face component', () => {
    const grid = new MacGrid(spec)
    const p = [0, 0, 0]
    const fu = (x: number, y: number, z: number) => 1 + 2 * x - y + 0.5 * z
    const fv = (x: number, y: number, z: number) => -0.5 + x + 3 * y
    const fw = (x: number, y: number, z: number) => 0.25 * z - x
    const fns = [fu, fv, fw]
    for (const axis of [0, 1, 2] as const) {
      const arr = grid.component(axis)
      const sx = grid.nx + (axis === 0 ? 1 : 0)
      const sy = grid.ny + (axis === 1 ? 1 : 0)
      const sz = grid.nz + (axis === 2 ? 1 : 0)
      for (let k = 0; k < sz; k++)
        for (let j = 0; j < sy; j++)
          for (let i = 0; i < sx; i++) {
            grid.facePosition(axis, i, j, k, p)
            arr[i + sx * (j + sy * k)] = fns[axis](p[0], p[1], p[2])
          }
    }
    const out = new Float64Array(3)
    const r = rng(2)
    for (let n = 0; n < 100; n++) {
      // Inside the region where every component has samples on both sides.
      const x = -1 + 0.125 + r() * 2
      const y = 0.5 + 0.125 + r() * 1.5
      const z = 2 + 0.125 + r() * 1.25
      sampleVelocity(grid, x, y, z, out)
      expect(out[0]).toBeCloseTo(fu(x, y, z), 5)
      expect(out[1]).toBeCloseTo(fv(x, y, z), 5)
      expect(out[2]).toBeCloseTo(fw(x, y, z), 5)
      expect(sampleFace(grid, 1, x, y, z)).toBe(out[1])
    }
  })

  it('clamps outside the grid to the border samples', () => {
    const field = new ScalarField(spec)
    fillCells(field, linear)
    // Far beyond the min corner: the value of cell (0, 0, 0); beyond the max corner: the last cell.
    expect(sampleScalar(field, -50, -50, -50)).toBe(field.data[0])
    expect(sampleScalar(field, 50, 50, 50)).toBe(field.data[field.data.length - 1])
    // Beyond one face only: clamped on that axis, still linear on the others.
    const c = [0, 0, 0]
    field.position(0, 3, 2, c)
    expect(sampleScalar(field, -10, c[1], c[2])).toBeCloseTo(field.data[field.index(0, 3, 2)], 6)
    // NaN coordinates read the first sample instead of spreading NaN.
    expect(lerp3(field.data, 9, 7, 6, Number.NaN, 0, 0)).toBe(field.data[0])
    expect(cubic3(field.data, 9, 7, 6, Number.NaN, 0, 0)).toBe(field.data[0])
  })

  it('works on lattices one sample thick', () => {
    const f = new Float32Array([1, 3])
    expect(lerp3(f, 2, 1, 1, 0.25, 0.7, -3)).toBeCloseTo(1.5, 6)
    expect(cubic3(f, 2, 1, 1, 0.5, 0, 0)).toBeCloseTo(2, 6)
  })
})

describe('monotone cubic', () => {
  it('reproduces a quadratic in the interior to 1e-5 (the limiter does not fire where the data is monotone)', () => {
    const field = new ScalarField(spec)
    fillCells(field, quadratic)
    const r = rng(3)
    let worst = 0
    for (let n = 0; n < 300; n++) {
      // Index coordinates in [1, s-2] on every axis: full 4-point stencils.
      const gx = 1 + r() * (spec.nx - 3)
      const gy = 1 + r() * (spec.ny - 3)
      const gz = 1 + r() * (spec.nz - 3)
      const x = -1 + (gx + 0.5) * 0.25
      const y = 0.5 + (gy + 0.5) * 0.25
      const z = 2 + (gz + 0.5) * 0.25
      worst = Math.max(worst, Math.abs(sampleScalar(field, x, y, z, 'cubic') - quadratic(x, y, z)))
    }
    expect(worst).toBeLessThan(1e-5)
    // Trilinear does not (sanity check that the test can tell them apart).
    let linWorst = 0
    for (let n = 0; n < 300; n++) {
      const x = -1 + (1.5 + r() * 6) * 0.25
      linWorst = Math.max(linWorst, Math.abs(sampleScalar(field, x, 1.3, 2.6) - quadratic(x, 1.3, 2.6)))
    }
    expect(linWorst).toBeGreaterThan(1e-4)
  })

  it('never leaves the range of its two middle samples in 1D (Fritsch-Carlson)', () => {
    const r = rng(4)
    for (let n = 0; n < 5000; n++) {
      const f = [r() * 10 - 5, r() * 10 - 5, r() * 10 - 5, r() * 10 - 5]
      if (n % 3 === 0) f[0] = f[1] - 100 * (f[2] - f[1]) // a steep neighbour: unlimited slopes overshoot
      const t = r()
      const v = monotoneCubic(f[0], f[1], f[2], f[3], t)
      expect(v).toBeGreaterThanOrEqual(Math.min(f[1], f[2]) - 1e-12)
      expect(v).toBeLessThanOrEqual(Math.max(f[1], f[2]) + 1e-12)
    }
  })

  it('is monotone along a line through step data and stays within the 8 surrounding samples in 3D', () => {
    // A sharp step in x: the samples along x are non-decreasing, so must be the interpolant.
    const sx = 8
    const f = new Float32Array(sx * 4 * 4)
    for (let k = 0; k < 4; k++) for (let j = 0; j < 4; j++) for (let i = 0; i < sx; i++) f[i + sx * (j + 4 * k)] = i < 4 ? 0 : 1 + 0.1 * (i - 4)
    let prev = -Infinity
    for (let gx = 0; gx <= sx - 1; gx += 0.01) {
      const v = cubic3(f, sx, 4, 4, gx, 1.5, 1.5)
      expect(v).toBeGreaterThanOrEqual(prev - 1e-7)
      prev = v
    }
    // Random data: every sample lies within the min/max of the 8 lattice points around it.
    const r = rng(5)
    const g = new Float32Array(6 * 6 * 6)
    for (let c = 0; c < g.length; c++) g[c] = r() < 0.3 ? 0 : r() * 4
    for (let n = 0; n < 2000; n++) {
      const gx = r() * 5
      const gy = r() * 5
      const gz = r() * 5
      const i = Math.min(Math.floor(gx), 4)
      const j = Math.min(Math.floor(gy), 4)
      const k = Math.min(Math.floor(gz), 4)
      let lo = Infinity
      let hi = -Infinity
      for (let c = 0; c < 8; c++) {
        const q = g[i + (c & 1) + 6 * (j + ((c >> 1) & 1) + 6 * (k + ((c >> 2) & 1)))]
        lo = Math.min(lo, q)
        hi = Math.max(hi, q)
      }
      const v = cubic3(g, 6, 6, 6, gx, gy, gz)
      expect(v).toBeGreaterThanOrEqual(lo - 1e-6)
      expect(v).toBeLessThanOrEqual(hi + 1e-6)
    }
  })

  it('interpolates the samples themselves', () => {
    const r = rng(6)
    const g = new Float32Array(5 * 5 * 5).map(() => r())
    for (let c = 0; c < 30; c++) {
      const i = Math.floor(r() * 5)
      const j = Math.floor(r() * 5)
      const k = Math.floor(r() * 5)
      expect(cubic3(g, 5, 5, 5, i, j, k)).toBeCloseTo(g[i + 5 * (j + 5 * k)], 6)
      expect(lerp3(g, 5, 5, 5, i, j, k)).toBeCloseTo(g[i + 5 * (j + 5 * k)], 6)
    }
  })
})
