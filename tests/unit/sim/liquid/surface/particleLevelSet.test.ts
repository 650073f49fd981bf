// The Zhu & Bridson particle level set, checked against values worked out by hand.
import { describe, expect, it } from 'vitest'
import { ParticleLevelSet } from '../../../../../src-shared/sim/liquid/surface/particleLevelSet'

const base = { particleRadius: 0.1, kernelScale: 3, origin: [0, 0, 0] as [number, number, number], dx: 0.1, cells: [8, 8, 8] as [number, number, number], smoothing: 0 }

function nodeValue(ls: ParticleLevelSet, i: number, j: number, k: number): number {
  const { nx, ny } = ls.grid
  return ls.phi[i + nx * (j + ny * k)]
}

describe('particle level set', () => {
  it('one particle: phi = |x - p| - r inside the kernel support, far outside it', () => {
    const ls = new ParticleLevelSet()
    const p = [0.43, 0.41, 0.37]
    ls.compute({ ...base, positions: Float32Array.from(p), count: 1, refinement: 2 })
    const { nx, ny, nz, h, origin } = ls.grid
    expect([nx, ny, nz]).toEqual([19, 19, 19]) // 8 cells x 2 + 1 nodes, + 1 padding each side
    expect(h).toBeCloseTo(0.05, 12)
    expect(origin[0]).toBeCloseTo(-0.05, 12)
    const R = 0.3
    let inside = 0
    for (let k = 0; k < nz; k++) for (let j = 0; j < ny; j++) for (let i = 0; i < nx; i++) {
      const d = Math.hypot(origin[0] + i * h - p[0], origin[1] + j * h - p[1], origin[2] + k * h - p[2])
      const want = d < R * (1 - 1e-6) ? d - 0.1 : ls.far
      if (d < R * (1 - 1e-6)) inside++
      // float32 particle position and phi: a few 1e-8 m
      if (d < R * (1 - 1e-6) || d > R * (1 + 1e-6)) expect(Math.abs(nodeValue(ls, i, j, k) - want)).toBeLessThan(1e-6)
    }
    expect(inside).toBeGreaterThan(400) // the support really was sampled
    expect(ls.far).toBeCloseTo(0.2, 12) // R - r
  })

  it('two particles: xbar is the kernel-weighted mean (Zhu & Bridson 2005)', () => {
    const ls = new ParticleLevelSet()
    const a = [0.4, 0.4, 0.4], b = [0.5, 0.4, 0.4]
    ls.compute({ ...base, positions: Float32Array.from([...a, ...b]), count: 2, refinement: 1 })
    const { h, origin } = ls.grid
    const i = 6, j = 6, k = 5 // node (0.5, 0.5, 0.4)
    const x = [origin[0] + i * h, origin[1] + j * h, origin[2] + k * h]
    const k3 = (p: number[]): number => Math.max(0, (1 - (Math.hypot(x[0] - p[0], x[1] - p[1], x[2] - p[2]) / 0.3) ** 2) ** 3)
    const wa = k3(a), wb = k3(b)
    const xbar = [0, 1, 2].map((c) => (wa * a[c] + wb * b[c]) / (wa + wb))
    const want = Math.hypot(x[0] - xbar[0], x[1] - xbar[1], x[2] - xbar[2]) - 0.1
    expect(Math.abs(nodeValue(ls, i, j, k) - want)).toBeLessThan(1e-6)
  })

  it('padding nodes stay outside even with particles on the wall', () => {
    const ls = new ParticleLevelSet()
    ls.compute({ ...base, positions: Float32Array.from([0, 0, 0, 0.8, 0.8, 0.8]), count: 2, refinement: 1 })
    const { nx, ny, nz } = ls.grid
    expect(nodeValue(ls, 1, 1, 1)).toBeCloseTo(-0.1, 6) // the wall node at the particle
    for (let k = 0; k < nz; k++) for (let j = 0; j < ny; j++) for (let i = 0; i < nx; i++) {
      if (i === 0 || j === 0 || k === 0 || i === nx - 1 || j === ny - 1 || k === nz - 1) expect(nodeValue(ls, i, j, k)).toBeGreaterThan(0)
    }
  })

  it('mirrors particles across walls, so a wall node next to liquid is fully inside', () => {
    const ls = new ParticleLevelSet()
    // 0.05 m from the x = 0 wall, far from the others; node (1, 5, 5) is on the wall at (0, 0.4, 0.4)
    ls.compute({ ...base, positions: Float32Array.from([0.05, 0.4, 0.4]), count: 1, refinement: 1 })
    // with its mirror at x = -0.05 the kernel mean is the wall node itself: phi = -r
    // (without the mirror it would be 0.05 - 0.1 = -0.05)
    expect(nodeValue(ls, 1, 5, 5)).toBeCloseTo(-0.1, 6)
    // a node inside sees both: x = 0.1, images at +-0.05 away with weights k(0.05/0.3), k(0.15/0.3)
    const k3 = (d: number): number => (1 - (d / 0.3) ** 2) ** 3
    const xbar = (k3(0.05) * 0.05 + k3(0.15) * -0.05) / (k3(0.05) + k3(0.15))
    expect(nodeValue(ls, 2, 5, 5)).toBeCloseTo(Math.abs(0.1 - xbar) - 0.1, 6)
  })

  it('smoothing moves only inside nodes', () => {
    const pts: number[] = []
    for (let q = 0; q < 40; q++) pts.push(0.3 + 0.01 * q, 0.4 + 0.003 * (q % 7), 0.4)
    const raw = new ParticleLevelSet(), smooth = new ParticleLevelSet()
    raw.compute({ ...base, positions: Float32Array.from(pts), count: 40, refinement: 2 })
    smooth.compute({ ...base, positions: Float32Array.from(pts), count: 40, refinement: 2, smoothing: 2 })
    const n = raw.grid.nx * raw.grid.ny * raw.grid.nz
    let moved = 0
    for (let q = 0; q < n; q++) {
      if (raw.phi[q] >= 0) expect(smooth.phi[q]).toBe(raw.phi[q])
      else if (smooth.phi[q] !== raw.phi[q]) moved++
    }
    expect(moved).toBeGreaterThan(0)
  })
})
