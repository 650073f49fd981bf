import { describe, expect, it } from 'vitest'
import { type GridSpec, MacGrid } from '../../../src-shared/sim/core/grid'
import { VorticityConfinement, addCellForceToFacesSlab } from '../../../src-shared/sim/core/vorticity'

const spec: GridSpec = { nx: 12, ny: 10, nz: 8, dx: 0.1, origin: [-0.6, -0.5, -0.4] }

/** Sets every face to the normal component of f at the face centre. */
function fillVelocity(grid: MacGrid, f: (x: number, y: number, z: number, out: number[]) => void): void {
  const p = [0, 0, 0]
  const out = [0, 0, 0]
  for (const axis of [0, 1, 2] as const) {
    const arr = grid.component(axis)
    const sx = grid.nx + (axis === 0 ? 1 : 0)
    const sy = grid.ny + (axis === 1 ? 1 : 0)
    const sz = grid.nz + (axis === 2 ? 1 : 0)
    for (let k = 0; k < sz; k++)
      for (let j = 0; j < sy; j++)
        for (let i = 0; i < sx; i++) {
          grid.facePosition(axis, i, j, k, p)
          f(p[0], p[1], p[2], out)
          arr[i + sx * (j + sy * k)] = out[axis]
        }
  }
}

const omega = [0.3, -0.5, 0.8]
const centre = [0.05, -0.1, 0.02]
function rigid(x: number, y: number, z: number, out: number[]): void {
  const rx = x - centre[0]
  const ry = y - centre[1]
  const rz = z - centre[2]
  out[0] = omega[1] * rz - omega[2] * ry
  out[1] = omega[2] * rx - omega[0] * rz
  out[2] = omega[0] * ry - omega[1] * rx
}

/**
 * A Lamb-Oseen vortex tube along z through (0, 0): omega_z = 2 exp(-r^2 / s^2) (positive,
 * falling off monotonically), swirl v_theta = s^2 (1 - exp(-r^2 / s^2)) / r; plus a w that
 * varies with x so omega is not only along z.
 */
function gaussianVortex(x: number, y: number, _z: number, out: number[]): void {
  const s2 = 0.2 * 0.2
  const r2 = x * x + y * y
  const h = r2 < 1e-12 ? 1 : (s2 * (1 - Math.exp(-r2 / s2))) / r2 // v_theta / r
  out[0] = -h * y
  out[1] = h * x
  out[2] = 0.3 * Math.sin(3 * x)
}

describe('vorticity', () => {
  it('is twice the angular velocity of a rigid rotation in every cell, borders included', () => {
    const vel = new MacGrid(spec)
    fillVelocity(vel, rigid)
    const vc = new VorticityConfinement(spec)
    vc.computeVorticity(vel)
    for (let c = 0; c < vc.wx.length; c++) {
      expect(vc.wx[c]).toBeCloseTo(2 * omega[0], 4)
      expect(vc.wy[c]).toBeCloseTo(2 * omega[1], 4)
      expect(vc.wz[c]).toBeCloseTo(2 * omega[2], 4)
    }
  })

  it('gives a rigid rotation (uniform |omega|) no confinement force', () => {
    const vel = new MacGrid(spec)
    fillVelocity(vel, rigid)
    const before = Float32Array.from(vel.u)
    const vc = new VorticityConfinement(spec)
    vc.apply(vel, 0.5, 0.1)
    let worst = 0
    for (let c = 0; c < vc.fx.length; c++) worst = Math.max(worst, Math.hypot(vc.fx[c], vc.fy[c], vc.fz[c]))
    // eps dx |omega| would be 0.5 * 0.1 * 1.9 ~ 0.1 if rounding noise were normalised into N.
    expect(worst).toBeLessThan(1e-4)
    for (let f = 0; f < before.length; f++) expect(vel.u[f]).toBeCloseTo(before[f], 5)
  })
})

describe('vorticity confinement', () => {
  it('is perpendicular to omega, nonzero, and of size eps dx |omega|', () => {
    const vel = new MacGrid(spec)
    fillVelocity(vel, gaussianVortex)
    const vc = new VorticityConfinement(spec)
    const eps = 0.7
    vc.apply(vel, eps, 0.05)
    let strongest = 0
    for (let c = 0; c < vc.fx.length; c++) {
      const f = [vc.fx[c], vc.fy[c], vc.fz[c]]
      const w = [vc.wx[c], vc.wy[c], vc.wz[c]]
      const fn = Math.hypot(f[0], f[1], f[2])
      const wn = Math.hypot(w[0], w[1], w[2])
      strongest = Math.max(strongest, fn)
      expect(Math.abs(f[0] * w[0] + f[1] * w[1] + f[2] * w[2])).toBeLessThanOrEqual(1e-5 * fn * wn + 1e-12)
      // |N x omega| <= |omega| with |N| <= 1.
      expect(fn).toBeLessThanOrEqual(eps * spec.dx * wn * (1 + 1e-5) + 1e-12)
    }
    expect(strongest).toBeGreaterThan(0.01)
  })

  it('pushes along the swirl of a vortex tube (it amplifies rotation)', () => {
    const vel = new MacGrid(spec)
    fillVelocity(vel, (x, y, z, out) => {
      gaussianVortex(x, y, z, out)
      out[2] = 0
    })
    const vc = new VorticityConfinement(spec)
    vc.apply(vel, 1, 0.05)
    // With omega along +z peaking on the axis, N points inward, N x omega along +theta.
    let along = 0
    let checked = 0
    const p = [0, 0, 0]
    for (let k = 0; k < spec.nz; k++)
      for (let j = 0; j < spec.ny; j++)
        for (let i = 0; i < spec.nx; i++) {
          const c = i + spec.nx * (j + spec.ny * k)
          p[0] = spec.origin[0] + (i + 0.5) * spec.dx
          p[1] = spec.origin[1] + (j + 0.5) * spec.dx
          const r = Math.hypot(p[0], p[1])
          if (r < 0.1 || r > 0.3) continue
          const ft = (-p[1] * vc.fx[c] + p[0] * vc.fy[c]) / r
          expect(ft).toBeGreaterThan(0)
          along += ft
          checked++
        }
    expect(checked).toBeGreaterThan(50)
    expect(along / checked).toBeGreaterThan(0.01)
  })

  it('adds a uniform cell force to every face as dt * f', () => {
    const vel = new MacGrid(spec)
    const n = spec.nx * spec.ny * spec.nz
    const fx = new Float32Array(n).fill(2)
    const fy = new Float32Array(n).fill(-1)
    const fz = new Float32Array(n).fill(0.5)
    addCellForceToFacesSlab(vel.u, vel.v, vel.w, fx, fy, fz, 0.1, spec.nx, spec.ny, spec.nz, 0, spec.nz)
    for (const x of vel.u) expect(x).toBeCloseTo(0.2, 6)
    for (const x of vel.v) expect(x).toBeCloseTo(-0.1, 6)
    for (const x of vel.w) expect(x).toBeCloseTo(0.05, 6)
  })
})
