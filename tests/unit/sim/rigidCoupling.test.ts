// The rigid-body coupling's grid pieces on their own: solid fractions against a sphere's exact
// volume (Carlson 2004 sec. 5.5); the walls of the liquid-only solve (a sphere spinning about
// any axis moves no liquid: its walls' velocity is zero on every face); and the rows of the
// implicit solve (coupledWalls.ts): a symmetric positive semi-definite term, under which a
// uniform pressure pushes and turns no closed body, and whose velocity change is C S q.
// (The coupling's physics is checked by amount in tests/validation/rigidfluid.)
import { describe, expect, it } from 'vitest'
import { MacGrid, type GridSpec } from '../../../src-shared/sim/core/grid'
import { type CoupledBody, LIQUID_DENSITY, RigidCoupling } from '../../../src-shared/sim/liquid/rigidCoupling'
import { LIQUID, SOLID } from '../../../src-shared/sim/liquid/viscosity'

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
    normalAt: (px, py, pz, out) => {
      const dx = px - x[0], dy = py - x[1], dz = pz - x[2], l = Math.hypot(dx, dy, dz) || 1
      out[0] = dx / l
      out[1] = dy / l
      out[2] = dz / l
    },
    collisionAccel: new Float64Array(3),
    collisionAngularAccel: new Float64Array(3),
  }
}

/** An axis-aligned box of half extents h (the rigid solver's box distance and normal). */
function box(cx: number, cy: number, cz: number, h: number[], relDensity: number): CoupledBody {
  const x = new Float64Array([cx, cy, cz])
  const q = (px: number, py: number, pz: number) => [Math.abs(px - x[0]) - h[0], Math.abs(py - x[1]) - h[1], Math.abs(pz - x[2]) - h[2]]
  return {
    x,
    v: new Float64Array(3),
    w: new Float64Array(3),
    density: relDensity * LIQUID_DENSITY,
    boundingRadius: Math.hypot(h[0], h[1], h[2]),
    phi: (px, py, pz) => {
      const [a, b, c] = q(px, py, pz)
      return Math.hypot(Math.max(a, 0), Math.max(b, 0), Math.max(c, 0)) + Math.min(Math.max(a, b, c), 0)
    },
    normalAt: (px, py, pz, out) => {
      const d = q(px, py, pz)
      const s = [Math.sign(px - x[0]) || 1, Math.sign(py - x[1]) || 1, Math.sign(pz - x[2]) || 1]
      if (Math.max(...d) > 0) {
        const o = d.map((v, i) => s[i] * Math.max(v, 0))
        const l = Math.hypot(o[0], o[1], o[2])
        for (let i = 0; i < 3; i++) out[i] = o[i] / l
      } else {
        const i = d.indexOf(Math.max(...d))
        out[0] = out[1] = out[2] = 0
        out[i] = s[i]
      }
    },
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

/** Cells: SOLID where the body's centre-distance is negative, LIQUID elsewhere (submerged). */
function kinds(c: RigidCoupling): Uint8Array {
  const kind = new Uint8Array(N * N * N).fill(LIQUID)
  for (let i = 0; i < kind.length; i++) if (c.cellPhi[i] < 0) kind[i] = SOLID
  return kind
}

/** The walls and rows of one body, as rigidFluid.ts builds them for the liquid-only solve. */
function walls(body: CoupledBody) {
  const c = new RigidCoupling(grid)
  const use = new Uint8Array([1])
  c.rasterise([body], use)
  const kind = kinds(c)
  const open = openAll()
  const b = c.boundary(open, null, [body], use)
  const m = body.density * 0.01
  const invI = new Float64Array([10, 0, 0, 0, 10, 0, 0, 0, 10])
  c.buildWalls(kind, open, b.fractions, [body], use, new Float64Array([m]), invI)
  return { c, kind, open, b, m, invI }
}

function random(seed: number): () => number {
  let s = seed
  return () => ((s = (s * 16807) % 2147483647) / 2147483647) * 2 - 1
}

describe('rigid body coupling on the grid', () => {
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

  it("each face's fraction is the share of the 64 lattice points of its control volume (a cell centred on the face) inside the body, counted point by point; two overlapping bodies: the larger share owns the face", () => {
    // A ball and a box near it whose boxes overlap, off the lattice's symmetry.
    const bodies = [sphere(0.43, 0.51, 0.47, 4.3 / N, 1), box(0.62, 0.45, 0.55, [2.6 / N, 1.7 / N, 3.1 / N], 1)]
    const c = new RigidCoupling(grid)
    c.rasterise(bodies, new Uint8Array([1, 1]))
    const { dx } = grid
    let checked = 0
    for (let a = 0; a < 3; a++) {
      const sx = N + (a === 0 ? 1 : 0), sy = N + (a === 1 ? 1 : 0), sz = N + (a === 2 ? 1 : 0)
      for (let k = 0; k < sz; k++) for (let j = 0; j < sy; j++) for (let i = 0; i < sx; i++) {
        const f = i + sx * (j + sy * k)
        // The control volume's lattice points: the cell grid's dx/4 lattice, shifted half a cell
        // back along axis a; each body's share, the larger one winning (ties to the first body).
        let best = 0, owner = -1
        for (let b = 0; b < bodies.length; b++) {
          // Only points of cells inside the body's sampled box count (rasterise samples there alone):
          // its bounding sphere plus a cell, which holds the whole body.
          let n = 0
          for (let c2 = 0; c2 < 4; c2++) for (let b2 = 0; b2 < 4; b2++) for (let a2 = 0; a2 < 4; a2++) {
            const x = (i + (a2 + 0.5) / 4 - (a === 0 ? 0.5 : 0)) * dx
            const y = (j + (b2 + 0.5) / 4 - (a === 1 ? 0.5 : 0)) * dx
            const z = (k + (c2 + 0.5) / 4 - (a === 2 ? 0.5 : 0)) * dx
            if (bodies[b].phi(x, y, z) < 0) n++
          }
          const w = n / 64
          if (w > best) { best = w; owner = b }
        }
        expect(c.faceFraction[a][f], `axis ${a} face ${i},${j},${k}`).toBe(Math.fround(best))
        if (best > 0) {
          expect(c.faceOwner[a][f]).toBe(owner)
          checked++
        }
      }
    }
    expect(checked).toBeGreaterThan(1000)
  })

  it("a sphere spinning about any axis gives its walls no velocity (it moves no liquid); a box's spin does, and its translation reaches every wall", () => {
    const ball = sphere(0.49, 0.52, 0.5, 5 / N, 2)
    ball.w.set([3, -7, 11])
    const { b } = walls(ball)
    const maxOf = (m: MacGrid) => Math.max(...[m.u, m.v, m.w].map((c) => c.reduce((s, x) => Math.max(s, Math.abs(x)), 0)))
    expect(maxOf(b.velocity)).toBeLessThan(1e-12)
    const cube = box(0.49, 0.52, 0.5, [4 / N, 4 / N, 4 / N], 2)
    cube.w.set([0, 5, 0])
    expect(maxOf(walls(cube).b.velocity)).toBeGreaterThan(0.5 * 5 * (4 / N))
    ball.w.fill(0)
    ball.v.set([0, 0, 2])
    const moving = walls(ball).b
    expect(Math.max(...moving.velocity.w.filter((_, f) => moving.fractions.w[f] < 1))).toBeCloseTo(2, 12)
  })

  for (const [name, body] of [['sphere', sphere(0.49, 0.52, 0.47, 5 / N, 0.7)], ['box off the grid', box(0.51, 0.47, 0.53, [4.3 / N, 3.1 / N, 5.2 / N], 0.7)]] as const) {
    it(`${name}: the implicit term S^T C S is symmetric and positive semi-definite; a uniform pressure pushes and turns it by nothing (1e-12 of one face's push)`, () => {
      const { c } = walls(body)
      const rnd = random(7)
      const x = new Float64Array(N * N * N).map(() => rnd())
      const y = new Float64Array(N * N * N).map(() => rnd())
      const Tx = new Float64Array(x.length), Ty = new Float64Array(x.length)
      c.walls.addTo(x, Tx)
      c.walls.addTo(y, Ty)
      let yTx = 0, xTy = 0, xTx = 0, scale = 0
      for (let i = 0; i < x.length; i++) {
        yTx += y[i] * Tx[i]
        xTy += x[i] * Ty[i]
        xTx += x[i] * Tx[i]
        scale += Math.abs(y[i] * Tx[i])
      }
      expect(scale).toBeGreaterThan(0)
      expect(Math.abs(yTx - xTy) / scale).toBeLessThan(1e-12)
      expect(xTx).toBeGreaterThan(0)
      const t = new Float64Array(6)
      c.walls.impulseOf(0, new Float64Array(N * N * N).fill(1), t)
      for (let d = 0; d < 3; d++) expect(Math.abs(t[d])).toBeLessThan(1e-12)
      for (let d = 3; d < 6; d++) expect(Math.abs(t[d])).toBeLessThan(1e-12 * grid.dx)
    })
  }

  it("the pressure's velocity change is C S q: an impulse rho dx^3 S q over the body's mass and inertia", () => {
    const body = sphere(0.49, 0.52, 0.47, 5 / N, 0.7)
    const { c, m } = walls(body)
    // A potential rising along x: the push is along -x, rho dx^3 times the faces' sum.
    const q = new Float64Array(N * N * N)
    for (let k = 0; k < N; k++) for (let j = 0; j < N; j++) for (let i = 0; i < N; i++) q[i + N * (j + N * k)] = i
    const S = new Float64Array(6), dV = new Float64Array(6)
    c.walls.impulseOf(0, q, S)
    c.walls.velocityChange(0, q, dV)
    const rhoDx3 = LIQUID_DENSITY * grid.dx ** 3
    expect(S[0]).toBeLessThan(0)
    for (let d = 0; d < 3; d++) expect(dV[d]).toBeCloseTo((rhoDx3 * S[d]) / m, 12)
    for (let d = 3; d < 6; d++) expect(dV[d]).toBeCloseTo(rhoDx3 * 10 * S[d], 12)
    // A potential that varies along x pushes along x only: the faces of the other axes come in
    // pairs along their columns, at the same potential.
    expect(Math.abs(S[1])).toBeLessThan(1e-12 * -S[0])
    expect(Math.abs(S[2])).toBeLessThan(1e-12 * -S[0])
  })
})
