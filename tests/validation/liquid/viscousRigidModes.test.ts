// The rigid-motion coarse space of the full-stress viscosity solve (rigidModes.ts,
// rigidModeKernels.ts; issue 19), with incomplete Cholesky as its base: the correction it adds
// is Z (Z^T A Z)^-1 Z^T r for Z the rigid motions of the stiff region, built here from the
// faces' positions independently of the code's sparse layout; and on a stiff body standing
// on the floor in its melt (the melting bunny's case, where 'auto' takes incomplete Cholesky
// and the body is held by the wall), the motions cut the iterations by an amount.
//
// Scene: a closed tank filled to 62% with a level-set free surface, no-slip walls, random
// velocities; a block of nu = 1e4 m^2/s standing on the floor in liquid of 0.1 m^2/s (the
// bunny's wax and melt, Carlson 2004 Table 6); h = 1/30 s, tolerance 1e-6.
// Tolerances: the correction against the dense construction 1e-9 relative (rounding of a 6x6
// solve); iterations with the motions at most 0.8x those without at 16^3 and 24^3 (measured
// ratios below, printed); the solution against PCG to 1e-10 without the motions 1e-5 relative.
import { describe, expect, it } from 'vitest'
import { closedBoxFaces } from '../../fixtures/viscousFaces'
import { CLOSED_BOX, openFlags } from '../../../src-shared/sim/core/boundaries'
import type { GridSpec } from '../../../src-shared/sim/core/grid'
import { Prng } from '../../../src-shared/sim/core/prng'
import { RigidModeSpace } from '../../../src-shared/sim/liquid/rigidModes'
import { AIR, LIQUID, ViscositySystem } from '../../../src-shared/sim/liquid/viscosity'

const H = 1 / 30
const STIFF = 1e4, MELT = 0.1

/** Whether cell (i, j, k) of an n^3 tank is in the stiff block standing on the floor. */
function inBlock(n: number, i: number, j: number, k: number): boolean {
  return i >= n / 4 && i < (3 * n) / 4 - 1 && k >= n / 3 && k < (2 * n) / 3 && j < n / 2
}

function standingBlock(n: number): { sys: ViscositySystem; kind: Uint8Array; cellNu: Float32Array; dx: number } {
  const dx = 1 / n
  const spec: GridSpec = { nx: n, ny: n, nz: n, dx, origin: [0, 0, 0] }
  const N = n * n * n
  const kind = new Uint8Array(N), cellNu = new Float32Array(N), solid = new Float32Array(N), phi = new Float32Array(N)
  const prng = new Prng(7)
  for (let k = 0; k < n; k++) {
    for (let j = 0; j < n; j++) {
      for (let i = 0; i < n; i++) {
        const c = i + n * (j + n * k)
        phi[c] = inBlock(n, i, j, k) ? -dx : (j + 0.5) / n - 0.3
        kind[c] = phi[c] < 0 ? LIQUID : AIR
        cellNu[c] = inBlock(n, i, j, k) ? STIFF : MELT
      }
    }
  }
  const { fractions, vel } = closedBoxFaces(spec, solid, prng)
  const sys = new ViscositySystem(n, n, n)
  sys.preconditioner = 'ic'
  sys.setup(vel, fractions, kind, cellNu, H, 'full', 'no', openFlags(CLOSED_BOX), phi)
  return { sys, kind, cellNu, dx }
}

/** Where stacked face f of an n^3 grid lies (its centre, metres) and its component. */
function facePlace(n: number, f: number, dx: number): { p: [number, number, number]; comp: number } {
  const nu = (n + 1) * n * n, nv = n * (n + 1) * n
  if (f < nu) {
    const i = f % (n + 1), j = Math.floor(f / (n + 1)) % n, k = Math.floor(f / ((n + 1) * n))
    return { p: [i * dx, (j + 0.5) * dx, (k + 0.5) * dx], comp: 0 }
  }
  if (f < nu + nv) {
    const g = f - nu, i = g % n, j = Math.floor(g / n) % (n + 1), k = Math.floor(g / (n * (n + 1)))
    return { p: [(i + 0.5) * dx, j * dx, (k + 0.5) * dx], comp: 1 }
  }
  const g = f - nu - nv, i = g % n, j = Math.floor(g / n) % n, k = Math.floor(g / (n * n))
  return { p: [(i + 0.5) * dx, (j + 0.5) * dx, k * dx], comp: 2 }
}

/** Solves the small dense system M y = b (row-major m x m) by Gaussian elimination with partial pivoting. */
function denseSolve(M: Float64Array, b: Float64Array, m: number): Float64Array {
  const a = Float64Array.from(M), y = Float64Array.from(b)
  for (let c = 0; c < m; c++) {
    let p = c
    for (let r = c + 1; r < m; r++) if (Math.abs(a[r * m + c]) > Math.abs(a[p * m + c])) p = r
    for (let k = 0; k < m; k++) [a[c * m + k], a[p * m + k]] = [a[p * m + k], a[c * m + k]]
    ;[y[c], y[p]] = [y[p], y[c]]
    for (let r = c + 1; r < m; r++) {
      const f = a[r * m + c] / a[c * m + c]
      for (let k = c; k < m; k++) a[r * m + k] -= f * a[c * m + k]
      y[r] -= f * y[c]
    }
  }
  for (let c = m - 1; c >= 0; c--) {
    for (let k = c + 1; k < m; k++) y[c] -= a[c * m + k] * y[k]
    y[c] /= a[c * m + c]
  }
  return y
}

describe('rigid motions of stiff regions with incomplete Cholesky', () => {
  it('adds Z (Z^T A Z)^-1 Z^T r for Z the rigid motions of the block, sampled on its unknown faces (1e-9 relative)', () => {
    const n = 8
    const { sys, kind, cellNu, dx } = standingBlock(n)
    const modes = new RigidModeSpace(n, n, n)
    // The block touches the floor: the cycle's 'free' leaves it out, incomplete Cholesky's 'all' takes it.
    expect(modes.setup(sys, kind, cellNu, dx, 'free')).toBe(0)
    expect(modes.setup(sys, kind, cellNu, dx, 'all')).toBe(1)
    // Z from the geometry: the unknown faces of the block's cells; translations along x, y, z
    // and rotations about the axes through the origin (the span, all the correction depends
    // on, is that of rotations about any point with the translations).
    const faces = new Set<number>()
    const nu = (n + 1) * n * n, nv = n * (n + 1) * n
    for (let k = 0; k < n; k++) for (let j = 0; j < n; j++) for (let i = 0; i < n; i++) {
      if (!inBlock(n, i, j, k)) continue
      const c = i + n * (j + n * k)
      const u0 = i + (n + 1) * (j + n * k), v0 = nu + i + n * (j + (n + 1) * k), w0 = nu + nv + c
      for (const f of [u0, u0 + 1, v0, v0 + n, w0, w0 + n * n]) if (sys.unknown[f]) faces.add(f)
    }
    const Z = Array.from({ length: 6 }, () => new Float64Array(sys.n))
    for (const f of faces) {
      const { p, comp } = facePlace(n, f, dx)
      Z[comp][f] = 1
      // omega x p for omega = e_x, e_y, e_z: (0, -z, y), (z, 0, -x), (-y, x, 0).
      const rot = [
        [0, -p[2], p[1]],
        [p[2], 0, -p[0]],
        [-p[1], p[0], 0],
      ]
      for (let a = 0; a < 3; a++) Z[3 + a][f] = rot[a][comp]
    }
    const AZ = Z.map((col) => {
      const out = new Float64Array(sys.n)
      sys.apply(col, out)
      return out
    })
    const dot = (a: Float64Array, b: Float64Array) => {
      let s = 0
      for (const f of faces) s += a[f] * b[f]
      return s
    }
    const E = new Float64Array(36)
    for (let a = 0; a < 6; a++) for (let b = 0; b < 6; b++) E[a * 6 + b] = dot(Z[a], AZ[b])
    const prng = new Prng(11)
    const r = new Float64Array(sys.n)
    for (let f = 0; f < sys.n; f++) if (sys.unknown[f]) r[f] = prng.range(-1, 1)
    const y = denseSolve(E, Float64Array.from(Z.map((col) => dot(col, r))), 6)
    const expected = new Float64Array(sys.n)
    for (let a = 0; a < 6; a++) for (const f of faces) expected[f] += y[a] * Z[a][f]
    const z = new Float64Array(sys.n)
    modes.addCorrection(r, z)
    let err = 0, scale = 0
    for (let f = 0; f < sys.n; f++) (err = Math.max(err, Math.abs(z[f] - expected[f]))), (scale = Math.max(scale, Math.abs(expected[f])))
    expect(scale).toBeGreaterThan(0)
    expect(err / scale).toBeLessThan(1e-9)
  })

  it.each([16, 24])('a stiff block standing on the floor in its melt (%i^3): iterations with the motions <= 0.8x without', (n) => {
    const runs = [true, false].map((modes) => {
      const { sys } = standingBlock(n)
      sys.useRigidModes = modes
      const st = sys.solve(1e-6, 4000)
      return { st, regions: sys.rigidModeRegions, x: Float64Array.from(sys.x) }
    })
    const [on, off] = runs
    let diff = 0, scale = 0
    for (let f = 0; f < on.x.length; f++) (diff = Math.max(diff, Math.abs(on.x[f] - off.x[f]))), (scale = Math.max(scale, Math.abs(off.x[f])))
    expect(diff / scale).toBeLessThan(1e-5)
    console.log(`standing block ${n}^3, full stress, incomplete Cholesky: ${off.st.iterations} iterations, with the rigid motions ${on.st.iterations} (${(on.st.iterations / off.st.iterations).toFixed(2)}x)`)
    expect(on.regions).toBe(1)
    expect(on.st.converged && off.st.converged).toBe(true)
    expect(on.st.iterations).toBeLessThanOrEqual(0.8 * off.st.iterations)
  })
})
