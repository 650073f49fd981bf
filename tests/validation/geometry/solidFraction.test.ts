// Cut-cell volume and face-area fractions against analytic answers.
import { describe, expect, it } from 'vitest'
import {
  cellSolidFractions, cubeNegativeFraction, faceOpenFractions, squareNegativeFraction, tetNegativeFraction,
} from '../../../src-shared/geometry/solidFraction'
import { PrimitiveSdf } from '../../../src-shared/geometry/primitiveSdf'
import { sampleSdfGrid, sdfGridSampleCount } from '../../../src-shared/geometry/signedDistance'
import { rng } from '../../unit/geometry/meshes'

/**
 * Volume of {x in [0,1]^3 : n . x < c}, by inclusion-exclusion over the cube's corners:
 * V = sum_v (-1)^|v| max(0, c - n . v)^3 / (6 n1 n2 n3) for n_i > 0; negative components
 * are flipped first (x_i -> 1 - x_i). Independent of the tetrahedral method under test.
 */
function unitCubeVolumeBelow(n: number[], c: number): number {
  const m = n.slice()
  let cc = c
  for (let i = 0; i < 3; i++) {
    if (m[i] < 0) {
      cc -= m[i]
      m[i] = -m[i]
    }
  }
  let v = 0
  for (let bits = 0; bits < 8; bits++) {
    const b = [bits & 1, (bits >> 1) & 1, (bits >> 2) & 1]
    const s = cc - (m[0] * b[0] + m[1] * b[1] + m[2] * b[2])
    if (s > 0) v += (b[0] + b[1] + b[2]) % 2 === 0 ? s ** 3 : -(s ** 3)
  }
  return v / (6 * m[0] * m[1] * m[2])
}

/** Area of {x in [0,1]^2 : n . x < c}, same construction in 2D. */
function unitSquareAreaBelow(n: number[], c: number): number {
  const m = n.slice()
  let cc = c
  for (let i = 0; i < 2; i++) {
    if (m[i] < 0) {
      cc -= m[i]
      m[i] = -m[i]
    }
  }
  let a = 0
  for (let bits = 0; bits < 4; bits++) {
    const b = [bits & 1, (bits >> 1) & 1]
    const s = cc - (m[0] * b[0] + m[1] * b[1])
    if (s > 0) a += (b[0] + b[1]) % 2 === 0 ? s ** 2 : -(s ** 2)
  }
  return a / (2 * m[0] * m[1])
}

describe('per-element fractions', () => {
  it('tetrahedron: matches the divided-difference formula and the obvious cases', () => {
    // Independent form for distinct values: volume of {phi > 0} = sum_{f_i > 0} f_i^3 / prod_{j != i} (f_i - f_j).
    const rand = rng(17)
    let worst = 0
    for (let n = 0; n < 2000; n++) {
      const f = [0, 1, 2, 3].map(() => rand() * 2 - 1)
      let pos = 0
      for (let i = 0; i < 4; i++) {
        if (f[i] <= 0) continue
        let d = 1
        for (let j = 0; j < 4; j++) if (j !== i) d *= f[i] - f[j]
        pos += f[i] ** 3 / d
      }
      // Only well-separated values, where the reference itself is accurate.
      const gaps = f.flatMap((a, i) => f.slice(i + 1).map((b) => Math.abs(a - b)))
      if (Math.min(...gaps) < 0.05) continue
      worst = Math.max(worst, Math.abs(tetNegativeFraction(f[0], f[1], f[2], f[3]) - (1 - pos)))
    }
    expect(worst).toBeLessThan(1e-10)
    expect(tetNegativeFraction(1, 2, 3, 4)).toBe(0)
    expect(tetNegativeFraction(-1, -2, -3, -4)).toBe(1)
    expect(tetNegativeFraction(-1, 1, 1, 1)).toBeCloseTo(1 / 8, 15) // corner tet of half the edges
    expect(tetNegativeFraction(1, -1, -1, -1)).toBeCloseTo(7 / 8, 15)
    expect(tetNegativeFraction(-1, -1, 1, 1)).toBeCloseTo(1 / 2, 15) // symmetric split
    expect(tetNegativeFraction(0, 0, 0, 0)).toBe(0) // zero counts as fluid
    // Nearly equal values do not blow up (the 2-2 case has no 1 / (c - d)).
    const nearlyEqual = tetNegativeFraction(-1, -1 - 1e-14, 1, 1 + 1e-14)
    expect(nearlyEqual).toBeCloseTo(0.5, 12)
  })

  it('square: corner triangle, trapezoid, and the diagonal (saddle) case', () => {
    expect(squareNegativeFraction(-1, 1, 1, 3)).toBeCloseTo(0.125, 15) // corner 00: legs 1/2, 1/2
    expect(squareNegativeFraction(1, -1, -1, -3)).toBeCloseTo(0.875, 15)
    expect(squareNegativeFraction(-1, -1, 1, 1)).toBeCloseTo(0.5, 15) // horizontal cut at v = 1/2
    expect(squareNegativeFraction(-3, -1, 1, 3)).toBeCloseTo(0.5, 15) // 00-10 inside, crossing at 3/4 and 1/4
    expect(squareNegativeFraction(-1, 3, -1, 3)).toBeCloseTo(0.25, 15) // vertical cut at u = 1/4
    // Saddle phi = (u - 1/2)(v - 1/2)-like corner values: symmetric, between 0 and 1.
    const sad = squareNegativeFraction(-1, 1, 1, -1)
    expect(sad).toBeGreaterThan(0)
    expect(sad).toBeLessThan(1)
    expect(squareNegativeFraction(1, -1, -1, 1)).toBeCloseTo(sad, 15)
    // Centre value decides the connectivity: centre negative joins the inside corners.
    expect(squareNegativeFraction(-3, 1, 1, -3)).toBeGreaterThan(0.5)
    expect(squareNegativeFraction(-1, 3, 3, -1)).toBeLessThan(0.5)
  })

  it('cube: exact for random planes', () => {
    const rand = rng(5)
    let worst = 0
    for (let t = 0; t < 500; t++) {
      const n = [rand() - 0.5, rand() - 0.5, rand() - 0.5]
      const l = Math.hypot(...n)
      if (Math.min(...n.map(Math.abs)) < 0.05 * l) continue // keep the reference well conditioned
      const c = (rand() - 0.5) * 2 * l + 0.5 * (n[0] + n[1] + n[2])
      const phi = (x: number, y: number, z: number) => n[0] * x + n[1] * y + n[2] * z - c
      const f = cubeNegativeFraction(phi(0, 0, 0), phi(1, 0, 0), phi(0, 1, 0), phi(1, 1, 0), phi(0, 0, 1), phi(1, 0, 1), phi(0, 1, 1), phi(1, 1, 1))
      worst = Math.max(worst, Math.abs(f - unitCubeVolumeBelow(n, c)))
    }
    expect(worst).toBeLessThan(1e-12)
  })
})

describe('cell and face fractions on a grid', () => {
  it('a plane at an arbitrary position and angle gives the analytic volumes and areas', () => {
    const nx = 7, ny = 5, nz = 6, dx = 0.37
    const origin = [-0.41, 0.23, -1.07]
    const nrm = [0.3, -0.7, 0.5]
    const l = Math.hypot(...nrm)
    const n = nrm.map((v) => v / l)
    // Plane through a point near the middle of the box, solid below (phi = n . x - c < 0).
    const c = n[0] * (origin[0] + 3.3 * dx) + n[1] * (origin[1] + 2.1 * dx) + n[2] * (origin[2] + 2.9 * dx)
    for (const Arr of [Float64Array, Float32Array]) {
      const phi = new Arr((nx + 1) * (ny + 1) * (nz + 1))
      for (let k = 0; k <= nz; k++) {
        for (let j = 0; j <= ny; j++) {
          for (let i = 0; i <= nx; i++) {
            phi[i + (nx + 1) * (j + (ny + 1) * k)] = n[0] * (origin[0] + i * dx) + n[1] * (origin[1] + j * dx) + n[2] * (origin[2] + k * dx) - c
          }
        }
      }
      const cells = cellSolidFractions(phi, { nx, ny, nz }, new Float32Array(nx * ny * nz))
      const u = new Float32Array((nx + 1) * ny * nz), v = new Float32Array(nx * (ny + 1) * nz), w = new Float32Array(nx * ny * (nz + 1))
      faceOpenFractions(phi, { nx, ny, nz }, { u, v, w })
      // Each cell in its own unit coordinates: n . (origin + (i + s) dx) < c  <=>  n . s < (c - n . corner) / dx.
      const corner = (i: number, j: number, k: number) => n[0] * (origin[0] + i * dx) + n[1] * (origin[1] + j * dx) + n[2] * (origin[2] + k * dx)
      let worstCell = 0, worstFace = 0, cut = 0
      for (let k = 0; k < nz; k++) {
        for (let j = 0; j < ny; j++) {
          for (let i = 0; i < nx; i++) {
            const exact = unitCubeVolumeBelow(n, (c - corner(i, j, k)) / dx)
            if (exact > 0 && exact < 1) cut++
            worstCell = Math.max(worstCell, Math.abs(cells[i + nx * (j + ny * k)] - exact))
          }
        }
      }
      // Faces: u at x = i (normal x, spanning y, z), v at y = j, w at z = k; open = 1 - solid.
      for (let k = 0; k < nz; k++) for (let j = 0; j < ny; j++) for (let i = 0; i <= nx; i++) {
        const exact = 1 - unitSquareAreaBelow([n[1], n[2]], (c - corner(i, j, k)) / dx)
        worstFace = Math.max(worstFace, Math.abs(u[i + (nx + 1) * (j + ny * k)] - exact))
      }
      for (let k = 0; k < nz; k++) for (let j = 0; j <= ny; j++) for (let i = 0; i < nx; i++) {
        const exact = 1 - unitSquareAreaBelow([n[0], n[2]], (c - corner(i, j, k)) / dx)
        worstFace = Math.max(worstFace, Math.abs(v[i + nx * (j + (ny + 1) * k)] - exact))
      }
      for (let k = 0; k <= nz; k++) for (let j = 0; j < ny; j++) for (let i = 0; i < nx; i++) {
        const exact = 1 - unitSquareAreaBelow([n[0], n[1]], (c - corner(i, j, k)) / dx)
        worstFace = Math.max(worstFace, Math.abs(w[i + nx * (j + ny * k)] - exact))
      }
      console.log(`plane, ${Arr.name} phi: ${cut} cut cells, max cell error ${worstCell.toExponential(2)}, max face error ${worstFace.toExponential(2)}`)
      expect(cut).toBeGreaterThan(30)
      // Float64 phi: exact to rounding (the outputs are float32: 6e-8). Float32 phi rounds the
      // corner values themselves (~1e-7 relative), which moves the plane by ~1e-7 dx.
      expect(worstCell).toBeLessThan(1e-6)
      expect(worstFace).toBeLessThan(1e-6)
    }
  })

  it("a sphere's solid volume converges to 4/3 pi r^3 (second order)", () => {
    // Sphere of radius 0.3 off-centre in the unit box, SDF sampled at cell corners.
    const r = 0.3
    const sphere = new PrimitiveSdf('sphere', { position: [0.013, -0.021, 0.034], rotation: [0, 0, 0], scale: [2 * r, 2 * r, 2 * r] })
    const exact = (4 / 3) * Math.PI * r ** 3
    const errors: number[] = []
    const faceErrors: number[] = []
    for (const n of [8, 16, 32, 64]) {
      const dx = 1 / n
      const dims = { nx: n, ny: n, nz: n }
      const phi = sampleSdfGrid(sphere, { ...dims, dx, origin: [-0.5, -0.5, -0.5] }, new Float32Array(sdfGridSampleCount(dims, 'corner')), { at: 'corner' })
      const cells = cellSolidFractions(phi, dims, new Float32Array(n * n * n))
      let vol = 0
      for (const f of cells) vol += f
      vol *= dx ** 3
      errors.push(Math.abs(vol - exact) / exact)
      // The u-face solid areas integrated along x give the volume too (a different rule).
      const u = new Float32Array((n + 1) * n * n), v = new Float32Array(n * (n + 1) * n), w = new Float32Array(n * n * (n + 1))
      faceOpenFractions(phi, dims, { u, v, w })
      let fvol = 0
      for (let k = 0; k < n; k++) for (let j = 0; j < n; j++) for (let i = 0; i <= n; i++) {
        const weight = i === 0 || i === n ? 0.5 : 1 // trapezoid rule in x
        fvol += weight * (1 - u[i + (n + 1) * (j + n * k)])
      }
      fvol *= dx ** 3
      faceErrors.push(Math.abs(fvol - exact) / exact)
    }
    console.log(`sphere volume relative error, n = 8, 16, 32, 64: cells ${errors.map((e) => e.toExponential(2)).join(', ')}; u faces ${faceErrors.map((e) => e.toExponential(2)).join(', ')}`)
    for (let i = 1; i < errors.length; i++) {
      expect(errors[i]).toBeLessThan(errors[i - 1])
      expect(faceErrors[i]).toBeLessThan(faceErrors[i - 1])
    }
    // Second order: halving dx cuts the error ~4x (measured 8.6e-2, 2.2e-2, 5.4e-3, 1.4e-3).
    // The linear interpolant of the convex |x| - r lies above it, so the cut surface is
    // slightly inside the sphere and the volume is low by O(dx^2): at n = 64 (dx = r / 19)
    // the bound is 2e-3.
    expect(errors[3]).toBeLessThan(2e-3)
    expect(errors[0] / errors[3]).toBeGreaterThan(30)
    expect(faceErrors[3]).toBeLessThan(2e-3)
  })

  it('checks sizes and signs conventions', () => {
    const dims = { nx: 2, ny: 2, nz: 2 }
    const allFluid = new Float32Array(27).fill(1)
    const cells = cellSolidFractions(allFluid, dims, new Float32Array(8))
    expect(Array.from(cells)).toEqual(new Array(8).fill(0))
    const u = new Float32Array(12), v = new Float32Array(12), w = new Float32Array(12)
    faceOpenFractions(allFluid, dims, { u, v, w })
    expect(Array.from(u).every((x) => x === 1)).toBe(true)
    faceOpenFractions(new Float32Array(27).fill(-1), dims, { u, v, w })
    expect(Array.from(w).every((x) => x === 0)).toBe(true)
    expect(() => cellSolidFractions(new Float32Array(26), dims, new Float32Array(8))).toThrow(/needs 27/)
    expect(() => cellSolidFractions(allFluid, dims, new Float32Array(9))).toThrow(/needs 8/)
    expect(() => faceOpenFractions(allFluid, dims, { u: new Float32Array(11), v, w })).toThrow(/u has 11/)
  })
})
