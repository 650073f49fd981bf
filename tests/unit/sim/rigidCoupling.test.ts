// The rigid fluid coupling's pieces on their own (Carlson 2004 sec. 5.4-5.5): solid fractions
// against a sphere's exact volume, the projection onto rigid motion (a rigid field comes back
// unchanged; any field keeps its linear and angular momentum), and eq. 70-71's density
// correction against Newton's law for a submerged body.
import { describe, expect, it } from 'vitest'
import { MacGrid, type GridSpec } from '../../../src-shared/sim/core/grid'
import { type CoupledBody, LIQUID_DENSITY, RigidCoupling } from '../../../src-shared/sim/liquid/rigidCoupling'
import { LIQUID } from '../../../src-shared/sim/liquid/viscosity'

const N = 24
const grid: GridSpec = { nx: N, ny: N, nz: N, dx: 1 / N, origin: [0, 0, 0] }

function sphere(cx: number, cy: number, cz: number, r: number, relDensity: number): CoupledBody {
  const x = new Float64Array([cx, cy, cz])
  return {
    x,
    v: new Float64Array(3),
    w: new Float64Array(3),
    density: relDensity * LIQUID_DENSITY,
    boundingRadius: r,
    phi: (px, py, pz) => Math.hypot(px - x[0], py - x[1], pz - x[2]) - r,
    collisionAccel: new Float64Array(3),
    collisionAngularAccel: new Float64Array(3),
  }
}

function openAll(): MacGrid {
  const m = new MacGrid(grid)
  m.u.fill(1)
  m.v.fill(1)
  m.w.fill(1)
  return m
}

const allLiquid = new Uint8Array(N * N * N).fill(LIQUID)

/** Sum over the faces of axis a of m_f u_f and m_f (r_f x e_a) u_f, as the coupling weighs them. */
function momenta(c: RigidCoupling, vel: MacGrid, body: CoupledBody): number[] {
  const out = [0, 0, 0, 0, 0, 0]
  const comps = [vel.u, vel.v, vel.w]
  for (let a = 0; a < 3; a++) {
    const ex = a === 0 ? 1 : 0, ey = a === 1 ? 1 : 0, ez = a === 2 ? 1 : 0
    const fr = c.faceFraction[a]
    for (let k = 0; k < N + ez; k++) for (let j = 0; j < N + ey; j++) for (let i = 0; i < N + ex; i++) {
      const f = i + (N + ex) * (j + (N + ey) * k)
      if (!(fr[f] > 0)) continue
      const m = body.density * fr[f] * grid.dx ** 3
      const u = comps[a][f]
      const rx = (i + (ex ? 0 : 0.5)) * grid.dx - body.x[0], ry = (j + (ey ? 0 : 0.5)) * grid.dx - body.x[1], rz = (k + (ez ? 0 : 0.5)) * grid.dx - body.x[2]
      out[a] += m * u
      // r x e_a
      const e = [ex, ey, ez]
      out[3] += m * u * (ry * e[2] - rz * e[1])
      out[4] += m * u * (rz * e[0] - rx * e[2])
      out[5] += m * u * (rx * e[1] - ry * e[0])
    }
  }
  return out
}

describe('rigid fluid coupling (Carlson 2004 sec. 5.4-5.5)', () => {
  it('solid fractions of a sphere (r = 5 cells) give its volume 4/3 pi r^3 within 1% (cells and each face set)', () => {
    const r = 5 / N
    const body = sphere(0.49, 0.52, 0.5, r, 1)
    const c = new RigidCoupling(grid)
    c.rasterise([body], new Uint8Array([1]))
    const exact = (4 / 3) * Math.PI * r ** 3
    const cells = c.cellFraction.reduce((s, w) => s + w, 0) * grid.dx ** 3
    expect(Math.abs(cells / exact - 1)).toBeLessThan(0.01)
    for (let a = 0; a < 3; a++) {
      const faces = c.faceFraction[a].reduce((s, w) => s + w, 0) * grid.dx ** 3
      expect(Math.abs(faces / exact - 1)).toBeLessThan(0.01)
    }
    // Moving the body clears what it covered before.
    body.x[0] = 0.3
    c.rasterise([body], new Uint8Array([1]))
    expect(Math.abs((c.cellFraction.reduce((s, w) => s + w, 0) * grid.dx ** 3) / exact - 1)).toBeLessThan(0.01)
  })

  it('a rigid field comes back unchanged from the projection (v to 5e-7 m/s, omega to 5e-6 rad/s)', () => {
    const body = sphere(0.5, 0.5, 0.5, 6 / N, 1)
    const c = new RigidCoupling(grid)
    c.rasterise([body], new Uint8Array([1]))
    const open = openAll()
    const vel = new MacGrid(grid)
    body.v.set([0.3, -0.2, 0.1])
    body.w.set([1.5, -0.7, 2.0])
    // The liquid around moves with the body too, so every face (partly covered or not) is rigid.
    const comps = [vel.u, vel.v, vel.w]
    for (let a = 0; a < 3; a++) {
      const ex = a === 0 ? 1 : 0, ey = a === 1 ? 1 : 0, ez = a === 2 ? 1 : 0
      for (let k = 0; k < N + ez; k++) for (let j = 0; j < N + ey; j++) for (let i = 0; i < N + ex; i++) {
        const r = [(i + (ex ? 0 : 0.5)) * grid.dx - 0.5, (j + (ey ? 0 : 0.5)) * grid.dx - 0.5, (k + (ez ? 0 : 0.5)) * grid.dx - 0.5]
        const w = body.w
        const rigid = [body.v[0] + w[1] * r[2] - w[2] * r[1], body.v[1] + w[2] * r[0] - w[0] * r[2], body.v[2] + w[0] * r[1] - w[1] * r[0]]
        comps[a][i + (N + ex) * (j + (N + ey) * k)] = rigid[a]
      }
    }
    const velN = new MacGrid(grid)
    velN.copyFrom(vel)
    body.v.fill(0)
    body.w.fill(0)
    c.couple(vel, velN, open, allLiquid, [body], new Uint8Array([1]), new Uint8Array([0]), 0.01)
    // Float32 faces: the fit recovers the motion to their rounding.
    for (let d = 0; d < 3; d++) {
      expect(body.v[d]).toBeCloseTo([0.3, -0.2, 0.1][d], 6)
      expect(body.w[d]).toBeCloseTo([1.5, -0.7, 2.0][d], 5)
    }
  })

  it('the projection keeps linear and angular momentum of any field (relative 1e-6, eqs. 77-78)', () => {
    const body = sphere(0.47, 0.51, 0.53, 6 / N, 1)
    const c = new RigidCoupling(grid)
    c.rasterise([body], new Uint8Array([1]))
    const open = openAll()
    const vel = new MacGrid(grid)
    let s = 12345
    const rnd = () => ((s = (s * 1103515245 + 12345) % 2147483648) / 2147483648) * 2 - 1
    for (const comp of [vel.u, vel.v, vel.w]) for (let f = 0; f < comp.length; f++) comp[f] = rnd()
    // Only faces wholly inside keep the momentum exactly (eq. 80 blends partial faces by w).
    for (let a = 0; a < 3; a++) {
      const fr = c.faceFraction[a]
      for (let f = 0; f < fr.length; f++) if (fr[f] > 0 && fr[f] < 1) fr[f] = 0
    }
    const before = momenta(c, vel, body)
    const velN = new MacGrid(grid)
    velN.copyFrom(vel)
    c.couple(vel, velN, open, allLiquid, [body], new Uint8Array([1]), new Uint8Array([0]), 0.01)
    const after = momenta(c, vel, body)
    const scale = Math.max(...before.map(Math.abs))
    for (let d = 0; d < 6; d++) expect(Math.abs(after[d] - before[d]) / scale).toBeLessThan(1e-6)
  })

  it('eq. 70-71 with the buoyant weight: a submerged body of relative density 2 held by hydrostatic pressure accelerates at (1 - 1/2) g within 1e-6; ' +
    'one the pressure does not hold falls at g; relative density 0.3 (ultrabuoyant, unstable term dropped) rises at (1 - 0.3) g', () => {
    const h = 1 / 96
    const g = [0, -9.81, 0]
    for (const [rel, held, expected] of [[2, true, -0.5 * 9.81 * h], [2, false, -9.81 * h], [0.3, true, 0.7 * 9.81 * h]] as const) {
      const body = sphere(0.5, 0.5, 0.5, 5 / N, rel)
      const c = new RigidCoupling(grid)
      c.rasterise([body], new Uint8Array([1]))
      const open = openAll()
      const velN = new MacGrid(grid)
      const vel = new MacGrid(grid)
      // u*: gravity and the buoyant weight everywhere the body is (a uniform field, so every
      // face takes all of it), less the liquid's hydrostatic pressure gradient when held.
      vel.v.fill(g[1] * h * (held ? 0 : 1))
      const full = new MacGrid(grid)
      full.v.fill(g[1] * h)
      c.addBuoyantWeight(full, open, [body], new Uint8Array([1]), h, g)
      // Only the fully covered faces matter for a uniform answer: use the body's centre face.
      const f0 = (N / 2) + N * (N / 2 + (N + 1) * (N / 2))
      vel.v.fill(vel.v[0] + (full.v[f0] - g[1] * h))
      c.couple(vel, velN, open, allLiquid, [body], new Uint8Array([1]), new Uint8Array([0]), h)
      expect(Math.abs(body.v[1] - expected)).toBeLessThan(1e-6)
      expect(Math.abs(body.v[0]) + Math.abs(body.v[2])).toBeLessThan(1e-9)
    }
  })
})
