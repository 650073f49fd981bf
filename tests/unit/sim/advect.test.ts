import { describe, expect, it } from 'vitest'
import { Advector, backtrace, backtraceAt, latticeVelocity } from '../../../src-shared/sim/core/advect'
import { type GridSpec, MacGrid, ScalarField } from '../../../src-shared/sim/core/grid'

const spec: GridSpec = { nx: 16, ny: 12, nz: 10, dx: 0.1, origin: [0, 0, 0] }
const U = [0.35, -0.2, 0.1]
const DT = 0.5 // displacement (0.175, -0.1, 0.05) m = (1.75, -1, 0.5) cells

function uniform(): MacGrid {
  const v = new MacGrid(spec)
  v.u.fill(U[0])
  v.v.fill(U[1])
  v.w.fill(U[2])
  return v
}

const lin = (x: number, y: number, z: number) => 1 + 2 * x - 3 * y + 0.5 * z

describe('advection by a uniform flow', () => {
  it.each([
    ['semi-lagrangian', 'linear'],
    ['semi-lagrangian', 'cubic'],
    ['maccormack', 'linear'],
    ['maccormack', 'cubic'],
  ] as const)('%s/%s translates a linear field exactly where the departure point is inside', (scheme, interpolation) => {
    const src = new ScalarField(spec)
    const p = [0, 0, 0]
    for (let k = 0; k < spec.nz; k++)
      for (let j = 0; j < spec.ny; j++)
        for (let i = 0; i < spec.nx; i++) {
          src.position(i, j, k, p)
          src.data[src.index(i, j, k)] = lin(p[0], p[1], p[2])
        }
    const dst = new ScalarField(spec)
    new Advector(spec).advectScalar(dst.data, src.data, uniform(), DT, { scheme, interpolation })
    let checked = 0
    // Cells whose departure point and the MacCormack return trip stay 2 cells clear of the border
    // (cubic stencils reach one cell further than trilinear ones).
    for (let k = 3; k < spec.nz - 3; k++)
      for (let j = 3; j < spec.ny - 4; j++)
        for (let i = 5; i < spec.nx - 5; i++) {
          src.position(i, j, k, p)
          expect(dst.data[dst.index(i, j, k)]).toBeCloseTo(lin(p[0] - U[0] * DT, p[1] - U[1] * DT, p[2] - U[2] * DT), 4)
          checked++
        }
    expect(checked).toBeGreaterThan(50)
  })

  it('leaves a uniform velocity unchanged under self-advection', () => {
    const src = uniform()
    const dst = new MacGrid(spec)
    new Advector(spec).advectVelocity(dst, src, DT, { scheme: 'maccormack', interpolation: 'cubic' })
    for (const [a, b] of [
      [dst.u, U[0]],
      [dst.v, U[1]],
      [dst.w, U[2]],
    ] as const)
      for (const x of a) expect(x).toBeCloseTo(b, 6)
  })

  it('does not advect into solid cells or faces touching them', () => {
    const solid = new Uint8Array(spec.nx * spec.ny * spec.nz)
    const s = 5 + spec.nx * (5 + spec.ny * 5)
    solid[s] = 1
    const src = new ScalarField(spec)
    src.data.fill(2)
    src.data[s] = 9
    const dst = new ScalarField(spec)
    const adv = new Advector(spec)
    adv.advectScalar(dst.data, src.data, uniform(), DT, { solid })
    expect(dst.data[s]).toBe(9)
    const vsrc = uniform()
    vsrc.u[vsrc.uIndex(5, 5, 5)] = 4
    const vdst = new MacGrid(spec)
    adv.advectVelocity(vdst, vsrc, DT, { solid, scheme: 'semi-lagrangian' })
    expect(vdst.u[vdst.uIndex(5, 5, 5)]).toBe(4)
  })

  it('refuses to advect an array into itself', () => {
    const f = new ScalarField(spec)
    expect(() => new Advector(spec).advectScalar(f.data, f.data, uniform(), DT)).toThrow(/distinct/)
  })

  it('carries one velocity by another (advection-reflection): a linear u moved by a uniform flow lands shifted, never into the carrier', () => {
    // src.u = x + 2y varies in space; carried by the uniform U for DT it reads at x - U DT.
    const src = new MacGrid(spec)
    for (let k = 0; k < spec.nz; k++) for (let j = 0; j < spec.ny; j++) for (let i = 0; i <= spec.nx; i++) src.u[src.uIndex(i, j, k)] = i * spec.dx + 2 * (j + 0.5) * spec.dx
    const by = uniform()
    const dst = new MacGrid(spec)
    const adv = new Advector(spec)
    adv.advectVelocityBy(dst, src, by, DT, { scheme: 'semi-lagrangian' })
    const at = (i: number, j: number) => dst.u[dst.uIndex(i, j, 4)]
    const want = (i: number, j: number) => (i * spec.dx - U[0] * DT) + 2 * ((j + 0.5) * spec.dx - U[1] * DT)
    for (const [i, j] of [[6, 4], [8, 3], [10, 6]]) expect(at(i, j)).toBeCloseTo(want(i, j), 5)
    expect(() => adv.advectVelocityBy(by, src, by, DT)).toThrow(/distinct/)
  })
})

describe('advecting several scalar fields at once', () => {
  it.each([
    ['semi-lagrangian', 'linear'],
    ['maccormack', 'linear'],
    ['maccormack', 'cubic'],
  ] as const)('%s/%s gives each field bit for bit what advectScalar gives it', (scheme, interpolation) => {
    const n = spec.nx * spec.ny * spec.nz
    let seed = 7
    const r = () => ((seed = (seed * 1103515245 + 12345) >>> 0) / 2 ** 32)
    const vel = new MacGrid(spec)
    for (const a of [vel.u, vel.v, vel.w]) for (let i = 0; i < a.length; i++) a[i] = 4 * (r() - 0.5)
    const solid = new Uint8Array(n).map(() => (r() < 0.15 ? 1 : 0))
    const srcs = [0, 1, 2].map(() => new Float32Array(n).map(() => r()))
    const opts = { scheme, interpolation, solid }
    const alone = srcs.map((s) => {
      const d = new Float32Array(n)
      new Advector(spec).advectScalar(d, s, vel, 0.3, opts)
      return d
    })
    const together = srcs.map(() => new Float32Array(n))
    const adv = new Advector(spec)
    adv.advectScalars(together, srcs, vel, 0.3, opts)
    for (let f = 0; f < srcs.length; f++) expect(Buffer.from(together[f].buffer).equals(Buffer.from(alone[f].buffer))).toBe(true)
    expect(() => adv.advectScalars([srcs[0], together[1]], srcs.slice(0, 2), vel, 0.3, opts)).toThrow()
  })
})

describe("the back-trace's first velocity at a lattice sample", () => {
  // backtraceAt takes the velocity at a sample inside every component's lattice as the average
  // of 1, 2 or 4 face values (latticeVelocity) instead of three trilinears: for finite velocities
  // the same numbers to the bit, on every lattice, with the border samples left to the trilinears.
  const g: GridSpec = { nx: 9, ny: 7, nz: 6, dx: 0.1, origin: [0, 0, 0] }
  let seed = 11
  const r = () => ((seed = (Math.imul(seed, 1664525) + 1013904223) >>> 0) / 4294967296)
  const vel = new MacGrid(g)
  for (const a of [vel.u, vel.v, vel.w]) for (let i = 0; i < a.length; i++) a[i] = Math.fround((r() - 0.5) * 3)
  const { nx, ny, nz } = g

  it('equals the general back-trace bit for bit on every sample of the cells and the u, v, w faces, and is used inside', () => {
    const v3 = new Float64Array(3), a = new Float64Array(3), b = new Float64Array(3)
    let inside = 0, total = 0
    for (const axis of [-1, 0, 1, 2] as const) {
      const sx = axis === 0 ? nx + 1 : nx, sy = axis === 1 ? ny + 1 : ny, sz = axis === 2 ? nz + 1 : nz
      const ox = axis === 0 ? 0 : 0.5, oy = axis === 1 ? 0 : 0.5, oz = axis === 2 ? 0 : 0.5
      for (let k = 0; k < sz; k++) for (let j = 0; j < sy; j++) for (let i = 0; i < sx; i++) {
        for (const c of [0.7, -1.3]) {
          backtrace(vel.u, vel.v, vel.w, nx, ny, nz, i + ox, j + oy, k + oz, c, v3, a)
          backtraceAt(axis, i, j, k, vel.u, vel.v, vel.w, nx, ny, nz, i + ox, j + oy, k + oz, c, v3, b)
          for (let d = 0; d < 3; d++) expect(Object.is(a[d], b[d]) || (a[d] === 0 && b[d] === 0)).toBe(true)
        }
        total++
        if (latticeVelocity(axis, vel.u, vel.v, vel.w, nx, ny, nz, i, j, k, v3)) inside++
      }
    }
    // Most samples take the short way; the border ones (about half on a grid this small) do not.
    expect(inside).toBeGreaterThan(0.3 * total)
    expect(inside).toBeLessThan(total)
  })
})
