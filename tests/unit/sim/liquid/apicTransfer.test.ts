// The affine particle-in-cell transfer (APIC: Jiang, Schroeder, Selle, Teran, Stomakhin 2015,
// "The affine particle-in-cell method", ACM TOG 34(4); per-component form for the MAC grid,
// sec. 5.3) of liquid/transfer.ts, against the method's known properties:
// - an affine velocity field v = b + A x carried with C_p = A goes to the grid exactly (every
//   face gets b + A x_i) and comes back exactly (v_p, C_p), where PIC's splat moves each face's
//   value to the weighted centre of its markers (error ~ |A| dx, checked > 10x the tolerance);
// - the round trip particles -> grid -> particles conserves linear and angular momentum, the
//   latter counted as APIC does: L_p = m (x_p x v_p + sum_a (D_ap c_ap) x e_a), D_ap =
//   sum_i w (x_ai - x_p)(x_ai - x_p)^T (diagonal, dx^2 t (1 - t) per axis for trilinear
//   weights), for any velocities and C_p (Jiang 2015 sec. 5.3, 6); PIC loses most of it;
// - markers keep C_p through growth, removal and addition; the fused transfer + advection is
//   the same bits as toParticles then advect; checkpoints carry C_p, and old ones give C = 0.
import { describe, expect, it } from 'vitest'
import { MacGrid } from '../../../../src-shared/sim/core/grid'
import { Prng } from '../../../../src-shared/sim/core/prng'
import { readLiquidCheckpoint, writeLiquidCheckpoint } from '../../../../src-shared/sim/liquid/liquidCheckpoint'
import { MarkerParticles } from '../../../../src-shared/sim/liquid/markers'
import { ParticleMover } from '../../../../src-shared/sim/liquid/particleMotion'
import { ParticleTransfer } from '../../../../src-shared/sim/liquid/transfer'

const spec = { nx: 10, ny: 9, nz: 8, dx: 0.1, origin: [-0.5, 0, -0.4] as [number, number, number] }
const { nx, ny, nz, dx, origin } = spec
const n = nx * ny * nz
const A = [0.3, -1, 0.2, 1, -0.1, 0.5, -0.4, 0.7, -0.2]
const B = [0.5, -0.2, 0.1]

/** 8 jittered markers in every cell (the app's seeding), velocities from `vel(x, out)`. */
function fill(seed: number): MarkerParticles {
  const prng = new Prng(seed)
  const p = new MarkerParticles(100000, 1024, true)
  for (let k = 0; k < nz; k++) for (let j = 0; j < ny; j++) for (let i = 0; i < nx; i++) for (let s = 0; s < 8; s++) {
    const x = origin[0] + (i + 0.5 * (s & 1) + 0.5 * prng.next()) * dx
    const y = origin[1] + (j + 0.5 * ((s >> 1) & 1) + 0.5 * prng.next()) * dx
    const z = origin[2] + (k + 0.5 * (s >> 2) + 0.5 * prng.next()) * dx
    p.add(x, y, z, 0, 0, 0, 300)
  }
  return p
}

function grids() {
  return { vel: new MacGrid(spec), velOld: new MacGrid(spec), temp: new Float32Array(n), tempOld: new Float32Array(n), reach: new Uint8Array(n).fill(1), mu: new Uint8Array((nx + 1) * ny * nz), mv: new Uint8Array(nx * (ny + 1) * nz), mw: new Uint8Array(nx * ny * (nz + 1)), mt: new Uint8Array(n) }
}

/** Whether the marker's whole trilinear stencil on every lattice is inside the grid (no clamping). */
function interior(p: MarkerParticles, q: number): boolean {
  const X = (p.px[q] - origin[0]) / dx, Y = (p.py[q] - origin[1]) / dx, Z = (p.pz[q] - origin[2]) / dx
  return X > 0.5 && X < nx - 0.5 && Y > 0.5 && Y < ny - 0.5 && Z > 0.5 && Z < nz - 0.5
}

function roundTrip(p: MarkerParticles, apic: boolean): ReturnType<typeof grids> {
  const g = grids()
  const t = new ParticleTransfer(spec)
  t.apic = apic
  t.toGrid(p, g.vel, g.temp, g.mu, g.mv, g.mw, g.mt)
  g.velOld.copyFrom(g.vel)
  g.tempOld.set(g.temp)
  t.toParticles(p, g.vel, g.velOld, g.temp, g.tempOld, 0, g.reach, 0, 0, 0, 0.01)
  return g
}

const frac = (s: number) => s - Math.floor(s)

/** Linear and angular momentum of the markers (unit masses), APIC's count (see the header). */
function momenta(p: MarkerParticles, apic: boolean): number[] {
  const P = [0, 0, 0], L = [0, 0, 0]
  for (let q = 0; q < p.count; q++) {
    const x = [p.px[q], p.py[q], p.pz[q]], v = [p.vx[q], p.vy[q], p.vz[q]]
    for (let a = 0; a < 3; a++) P[a] += v[a]
    L[0] += x[1] * v[2] - x[2] * v[1]
    L[1] += x[2] * v[0] - x[0] * v[2]
    L[2] += x[0] * v[1] - x[1] * v[0]
    if (!apic) continue
    const G = [(x[0] - origin[0]) / dx, (x[1] - origin[1]) / dx, (x[2] - origin[2]) / dx]
    for (let a = 0; a < 3; a++) {
      // Lattice a is face aligned along a, cell centred along the others.
      const d = [0, 1, 2].map((b) => {
        const t = frac(b === a ? G[b] : G[b] - 0.5)
        return dx * dx * t * (1 - t) * p.c[9 * q + 3 * a + b]
      })
      // (D c) x e_a
      if (a === 0) (L[1] += d[2]), (L[2] -= d[1])
      else if (a === 1) (L[0] -= d[2]), (L[2] += d[0])
      else (L[0] += d[1]), (L[1] -= d[0])
    }
  }
  return [...P, ...L]
}

describe('APIC transfer (Jiang et al. 2015)', () => {
  it('carries an affine velocity field to the faces and back exactly (PIC does not)', () => {
    const tol = 2e-6
    const errors: number[] = []
    for (const apic of [true, false]) {
      const p = fill(3)
      for (let q = 0; q < p.count; q++) {
        const x = [p.px[q], p.py[q], p.pz[q]]
        p.vx[q] = B[0] + A[0] * x[0] + A[1] * x[1] + A[2] * x[2]
        p.vy[q] = B[1] + A[3] * x[0] + A[4] * x[1] + A[5] * x[2]
        p.vz[q] = B[2] + A[6] * x[0] + A[7] * x[1] + A[8] * x[2]
        for (let e = 0; e < 9; e++) p.c[9 * q + e] = A[e]
      }
      const exact = p.vx.slice(0, p.count), exactY = p.vy.slice(0, p.count), exactZ = p.vz.slice(0, p.count)
      const g = roundTrip(p, apic)
      // Faces: u at (i, j + 1/2, k + 1/2) dx + origin must be b_x + A_x . x.
      let face = 0
      for (let k = 0; k < nz; k++) for (let j = 0; j < ny; j++) for (let i = 0; i <= nx; i++) {
        const x = origin[0] + i * dx, y = origin[1] + (j + 0.5) * dx, z = origin[2] + (k + 0.5) * dx
        face = Math.max(face, Math.abs(g.vel.u[i + (nx + 1) * (j + ny * k)] - (B[0] + A[0] * x + A[1] * y + A[2] * z)))
      }
      let vErr = 0, cErr = 0
      for (let q = 0; q < p.count; q++) {
        if (!interior(p, q)) continue
        vErr = Math.max(vErr, Math.abs(p.vx[q] - exact[q]), Math.abs(p.vy[q] - exactY[q]), Math.abs(p.vz[q] - exactZ[q]))
        if (apic) for (let e = 0; e < 9; e++) cErr = Math.max(cErr, Math.abs(p.c[9 * q + e] - A[e]))
      }
      console.log(`affine field round trip, ${apic ? 'APIC' : 'PIC'}: faces ${face.toExponential(2)}, v_p ${vErr.toExponential(2)} m/s, C_p ${cErr.toExponential(2)} 1/s (|A| ~ 1/s, dx = 0.1 m)`)
      errors.push(face, vErr, cErr)
      if (apic) {
        expect(face).toBeLessThan(tol)
        expect(vErr).toBeLessThan(tol)
        expect(cErr).toBeLessThan(tol / dx)
      }
    }
    // PIC's error on the same field, for scale: well beyond 10x the tolerance.
    expect(errors[4]).toBeGreaterThan(10 * tol)
  })

  it('conserves linear and angular momentum over particles -> grid -> particles (PIC loses it)', () => {
    const drift: number[] = []
    for (const apic of [true, false]) {
      const prng = new Prng(11)
      const all = fill(5)
      // Random velocities and gradients on markers whose stencils lie inside the grid.
      const p = new MarkerParticles(100000, 1024, true)
      for (let q = 0; q < all.count; q++) {
        if (!interior(all, q)) continue
        p.add(all.px[q], all.py[q], all.pz[q], prng.range(-1, 1), prng.range(-1, 1), prng.range(-1, 1), 300)
        for (let e = 0; e < 9; e++) p.c[9 * (p.count - 1) + e] = apic ? prng.range(-5, 5) : 0
      }
      const before = momenta(p, apic)
      roundTrip(p, apic)
      const after = momenta(p, apic)
      const scaleP = Math.hypot(before[0], before[1], before[2]) + p.count * 0.01
      const scaleL = Math.hypot(before[3], before[4], before[5]) + p.count * 0.01
      const dP = Math.hypot(after[0] - before[0], after[1] - before[1], after[2] - before[2]) / scaleP
      const dL = Math.hypot(after[3] - before[3], after[4] - before[4], after[5] - before[5]) / scaleL
      console.log(`momentum round trip, ${apic ? 'APIC' : 'PIC'} (${p.count} markers): relative change of P ${dP.toExponential(2)}, of L ${dL.toExponential(2)}`)
      drift.push(dP, dL)
    }
    expect(drift[0]).toBeLessThan(1e-5)
    expect(drift[1]).toBeLessThan(1e-5)
    // PIC on the same markers: angular momentum is not kept (the check can tell).
    expect(drift[3]).toBeGreaterThan(1e-3)
  })

  it('the fused transfer + advection equals toParticles then advect, C_p included', () => {
    const prng = new Prng(7)
    const base = fill(9)
    const g = grids()
    for (const a of [g.vel.u, g.vel.v, g.vel.w, g.velOld.u, g.velOld.v, g.velOld.w]) for (let c = 0; c < a.length; c++) a[c] = prng.range(-2, 2)
    for (let c = 0; c < n; c++) (g.temp[c] = prng.range(280, 300)), (g.tempOld[c] = prng.range(280, 300)), (g.reach[c] = prng.next() < 0.8 ? 1 : 0)
    for (let q = 0; q < base.count; q++) for (let e = 0; e < 9; e++) base.c[9 * q + e] = prng.range(-3, 3)
    const copy = () => {
      const c = new MarkerParticles(base.maxCount, 1024, true)
      for (let q = 0; q < base.count; q++) {
        c.add(base.px[q], base.py[q], base.pz[q], prng.range(-1, 1), prng.range(-1, 1), prng.range(-1, 1), 290)
        c.c.set(base.c.subarray(9 * q, 9 * q + 9), 9 * q)
      }
      return c
    }
    const a = copy()
    const b = copy()
    b.vx.set(a.vx), b.vy.set(a.vy), b.vz.set(a.vz)
    const transfer = new ParticleTransfer(spec)
    transfer.apic = true
    const open = new Uint8Array([0, 0, 0, 1, 0, 0])
    const h = 0.05
    transfer.toParticles(a, g.vel, g.velOld, g.temp, g.tempOld, 0, g.reach, 0, -9.81, 0, h)
    const rA = new ParticleMover(spec).advect(a, g.vel, h, null, open, g.reach)
    const rB = new ParticleMover(spec).advect(b, g.vel, h, null, open, g.reach, { transfer, velOld: g.velOld, temp: g.temp, tempOld: g.tempOld, flip: 0, gx: 0, gy: -9.81, gz: 0 })
    expect(rB).toBe(rA)
    expect(b.count).toBe(a.count)
    for (const key of ['px', 'py', 'pz', 'vx', 'vy', 'vz', 'temp'] as const) expect(Array.from(b[key].subarray(0, b.count))).toEqual(Array.from(a[key].subarray(0, a.count)))
    expect(Array.from(b.c.subarray(0, 9 * b.count))).toEqual(Array.from(a.c.subarray(0, 9 * a.count)))
    // The grid's gradient did reach the markers in reach (not all zero).
    let m = 0
    for (let e = 0; e < 9 * a.count; e++) m = Math.max(m, Math.abs(a.c[e]))
    expect(m).toBeGreaterThan(1)
  })
})

describe('MarkerParticles with C_p', () => {
  it('keeps C through growth, swaps it on removal, zeroes it for new markers', () => {
    const p = new MarkerParticles(6, 2, true)
    for (let i = 0; i < 5; i++) {
      p.add(i, 0, 0, 0, 0, 0, 300)
      for (let e = 0; e < 9; e++) p.c[9 * i + e] = 10 * i + e
    }
    expect(p.c.length).toBeGreaterThanOrEqual(9 * 5)
    expect(Array.from(p.c.subarray(9, 18))).toEqual([10, 11, 12, 13, 14, 15, 16, 17, 18])
    p.remove(1)
    expect(Array.from(p.c.subarray(9, 18))).toEqual([40, 41, 42, 43, 44, 45, 46, 47, 48])
    p.add(9, 9, 9, 0, 0, 0, 300) // lands in slot 4, which held marker 4's C
    expect(Array.from(p.c.subarray(36, 45))).toEqual([0, 0, 0, 0, 0, 0, 0, 0, 0])
    expect(new MarkerParticles(4, 2).c.length).toBe(0)
  })
})

describe('liquid checkpoint with C_p and the drift potential', () => {
  const dims: [number, number, number] = [3, 3, 3]
  const gridState = () => ({ temperature: new Float32Array(27), phi: new Float32Array(27), phiRaw: new Float32Array(27), pressure: new Float64Array(27), pressureDrift: new Float64Array(27), surface: new Float32Array(27) })
  const scalars = { time: 1, animFrame: 2, prngState: 3, initialised: true, surfaceReady: false, viscousCycleRest: 0 }

  it('writes and reads C_p bit for bit', () => {
    const p = new MarkerParticles(10, 2, true)
    for (let i = 0; i < 3; i++) {
      p.add(i, 1, 2, 3, 4, 5, 300)
      for (let e = 0; e < 9; e++) p.c[9 * i + e] = Math.fround(Math.sin(7 * i + e))
    }
    const r = new MarkerParticles(10, 2, true)
    readLiquidCheckpoint(writeLiquidCheckpoint(dims, scalars, p, gridState()), dims, r, gridState())
    expect(r.count).toBe(3)
    expect(Array.from(r.c.subarray(0, 27))).toEqual(Array.from(p.c.subarray(0, 27)))
  })

  it("carries the density drift's potential (its solve's warm start); older checkpoints restore 0", () => {
    const p = new MarkerParticles(10, 2)
    p.add(0, 1, 2, 3, 4, 5, 300)
    const g = gridState()
    for (let c = 0; c < 27; c++) g.pressureDrift[c] = c % 3 === 0 ? 0 : Math.sin(c) * 1e-3
    const r = gridState()
    readLiquidCheckpoint(writeLiquidCheckpoint(dims, scalars, p, g), dims, new MarkerParticles(10, 2), r)
    expect(Array.from(r.pressureDrift)).toEqual(Array.from(g.pressureDrift))
    // Written before the warm start (no pressureDrift section): the solve starts from 0.
    const bytes = writeLiquidCheckpoint(dims, scalars, p, { ...g, pressureDrift: new Float64Array(0) })
    const o = gridState()
    o.pressureDrift.fill(5)
    readLiquidCheckpoint(bytes, dims, new MarkerParticles(10, 2), o)
    expect(Array.from(o.pressureDrift).every((v) => v === 0)).toBe(true)
  })

  it('reads a checkpoint without C_p (FLIP transfer, or older) as C = 0', () => {
    const p = new MarkerParticles(10, 2)
    for (let i = 0; i < 3; i++) p.add(i, 1, 2, 3, 4, 5, 300)
    const r = new MarkerParticles(10, 4, true)
    r.c.fill(7)
    readLiquidCheckpoint(writeLiquidCheckpoint(dims, scalars, p, gridState()), dims, r, gridState())
    expect(r.count).toBe(3)
    expect(Array.from(r.c.subarray(0, 27)).every((v) => v === 0)).toBe(true)
    expect(r.vx[2]).toBe(3)
  })
})
