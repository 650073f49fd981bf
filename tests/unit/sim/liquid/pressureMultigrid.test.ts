// The ghost-fluid pressure's multigrid preconditioner (pressureMultigrid.ts, kernels in
// pressureMgKernels.ts with twins in wasm/assembly/pressureMg.ts): the kernel rows on
// WebAssembly against the TypeScript references bit for bit on 1-3 threads; the V-cycle a
// symmetric positive definite map (what CG needs); and on a pool with a rippled free surface,
// obstacles and an open side, the pressure it helps solve is MIC(0)'s to the solver tolerance,
// in a fraction of the iterations and with the same bits on any backend and thread count.
import { afterAll, describe, expect, it } from 'vitest'
import { type KernelBackend, TS_KERNELS } from '../../../../src-shared/sim/core/kernelBackend'
import { MacGrid } from '../../../../src-shared/sim/core/grid'
import { GhostFluidPressure } from '../../../../src-shared/sim/liquid/ghostFluid'
import { PACK_BITS, PMG_PROLONG, PMG_RESIDUAL, PMG_RESTRICT, PMG_SMOOTH, PMG_SMOOTH_SEAMS } from '../../../../src-shared/sim/liquid/pressureMgKernels'
import { OVER_CORRECTION, PressureMultigrid } from '../../../../src-shared/sim/liquid/pressureMultigrid'
import type { PressurePreconditioner } from '../../../../src-shared/sim/liquid/liquidInput'
import * as kinds from '../../../../src-shared/sim/liquid/viscosity'
import { createKernelBackend } from '../../../../src-main/sim/workerPool'

function rng(seed: number): () => number {
  let s = seed >>> 0
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0
    return s / 4294967296
  }
}

const backends: KernelBackend[] = []
function wasm(threads: number): KernelBackend {
  const b = createKernelBackend('wasm', { threads, minParallelWork: 0, strict: true, initialBytes: 1 << 24 })
  backends.push(b)
  return b
}
afterAll(async () => {
  for (const b of backends) await b.dispose()
})

/**
 * A pool in an n^3 box: liquid below a rippled surface at about 0.6 of the height, phi its
 * distance (so the ghost-fluid thetas vary), a block of solid cells and partly open faces
 * around it, closed sides but an open top; b the divergence of a random velocity field.
 */
function pool(n: number, kernels: KernelBackend, preconditioner: PressurePreconditioner, seed = 7) {
  const spec = { nx: n, ny: n, nz: n, dx: 1 / n, origin: [0, 0, 0] as [number, number, number] }
  const r = rng(seed)
  const vel = new MacGrid(spec, { kernels }), fractions = new MacGrid(spec, { kernels })
  for (const a of [vel.u, vel.v, vel.w]) for (let i = 0; i < a.length; i++) a[i] = 2 * r() - 1
  for (const a of [fractions.u, fractions.v, fractions.w]) a.fill(1)
  const cells = n * n * n
  const kind = kernels.u8(cells), phi = kernels.f32(cells)
  const solid = (i: number, j: number, k: number) => i >= n / 4 && i < n / 2 && j < n / 3 && k >= n / 3 && k < (2 * n) / 3
  for (let k = 0; k < n; k++) for (let j = 0; j < n; j++) for (let i = 0; i < n; i++) {
    const c = i + n * (j + n * k)
    const h = 0.6 * n + 1.5 * Math.sin(i / 3) * Math.cos(k / 4)
    phi[c] = (j + 0.5 - h) / n
    kind[c] = solid(i, j, k) ? kinds.SOLID : phi[c] < 0 ? kinds.LIQUID : kinds.AIR
  }
  // Faces of the solid block closed, and a ring of partly open faces around it.
  for (let k = 0; k < n; k++) for (let j = 0; j < n; j++) for (let i = 0; i <= n; i++) {
    const f = i + (n + 1) * (j + n * k)
    if ((i < n && solid(i, j, k)) || (i > 0 && solid(i - 1, j, k))) fractions.u[f] = 0
    else if ((i < n && solid(i, j + 1 < n ? j + 1 : j, k)) || (i > 0 && solid(i - 1, j, k + 1 < n ? k + 1 : k))) fractions.u[f] = 0.3 + 0.5 * r()
  }
  for (let k = 0; k < n; k++) for (let j = 0; j <= n; j++) for (let i = 0; i < n; i++) {
    const f = i + n * (j + (n + 1) * k)
    if ((j < n && solid(i, j, k)) || (j > 0 && solid(i, j - 1, k))) fractions.v[f] = 0
  }
  for (let k = 0; k <= n; k++) for (let j = 0; j < n; j++) for (let i = 0; i < n; i++) {
    const f = i + n * (j + n * k)
    if ((k < n && solid(i, j, k)) || (k > 0 && solid(i, j, k - 1))) fractions.w[f] = 0
  }
  const open = Uint8Array.of(0, 0, 0, 1, 0, 0)
  const p = new GhostFluidPressure(n, n, n, kernels, null, preconditioner)
  return { p, vel, fractions, kind, phi, open }
}

describe('pressure multigrid', () => {
  it('its kernel rows on WebAssembly are the TypeScript references bit for bit on 1, 2 and 3 threads', () => {
    const { p } = pool(14, TS_KERNELS, 'multigrid')
    const s = pool(14, TS_KERNELS, 'multigrid')
    s.p.assemble(s.vel, s.fractions, null, s.kind, s.phi, s.open)
    const m = s.p.matrix
    const n = 14 ** 3
    // The unknowns by colour, with coordinates, as pressureMultigrid.ts lists them.
    const order: number[] = [], ijk: number[] = []
    let red = 0
    for (let color = 0; color < 2; color++) {
      if (color === 1) red = order.length
      for (let k = 0; k < 14; k++) for (let j = 0; j < 14; j++) for (let i = (color + j + k) & 1; i < 14; i += 2) {
        const c = i + 14 * (j + 14 * k)
        if (m.diag[c] !== 0) (order.push(c), ijk.push(i | (j << PACK_BITS) | (k << (2 * PACK_BITS))))
      }
    }
    expect(red).toBeGreaterThan(100)
    expect(order.length - red).toBeGreaterThan(100)
    void p
    const r = rng(3)
    const x0 = new Float64Array(n), b0 = new Float64Array(n), xc0 = new Float64Array(7 ** 3)
    for (const c of order) (x0[c] = 2 * r() - 1), (b0[c] = 2 * r() - 1)
    for (let q = 0; q < xc0.length; q++) xc0[q] = 2 * r() - 1
    // Coarse cells: every other lattice cell of the 7^3 level, with coordinates.
    const corder: number[] = [], cijk: number[] = []
    for (let k = 0; k < 7; k++) for (let j = 0; j < 7; j++) for (let i = 0; i < 7; i++) if ((i + 2 * j + k) % 3 !== 0) (corder.push(i + 7 * (j + 7 * k)), cijk.push(i | (j << PACK_BITS) | (k << (2 * PACK_BITS))))
    // The coarse list in two segments of unequal length, as the rows pair them (pairStart).
    const cred = Math.floor(corder.length / 3)
    // Where each colour's cells of each plane start in the list (pressureMultigrid.ts indexPlanes).
    const at: number[] = []
    for (let color = 0; color < 2; color++) for (let k = 0; k <= 14; k++) {
      const first = order.findIndex((c, t) => (color === 0 ? t < red : t >= red) && c >= 196 * k)
      at.push(first < 0 || (color === 0 && first >= red) ? (color === 0 ? red : order.length) : first)
    }
    const run = (k: KernelBackend) => {
      const M = { diag: k.f64(n), ax: k.f64(n), ay: k.f64(n), az: k.f64(n) }
      M.diag.set(m.diag), M.ax.set(m.ax), M.ay.set(m.ay), M.az.set(m.az)
      const o = k.i32(order.length), oi = k.i32(order.length), co = k.i32(corder.length), ci = k.i32(corder.length)
      o.set(order), oi.set(ijk), co.set(corder), ci.set(cijk)
      const x = k.f64(n), b = k.f64(n), res = k.f64(n), xc = k.f64(7 ** 3), bc = k.f64(7 ** 3)
      x.set(x0), b.set(b0), xc.set(xc0)
      const out: Float64Array[] = []
      // Fresh red-black, then black-red: blocks of 3 to 5 planes, with a one-plane block.
      const cuts = k.i32(5), planeAt = k.i32(at.length)
      cuts.set([0, 4, 5, 9, 14]), planeAt.set(at)
      k.run(PMG_SMOOTH, x, b, M, o, planeAt, cuts, 0, 1, 14, 196, n, 14, order.length, 4)
      k.run(PMG_SMOOTH_SEAMS, x, b, M, o, planeAt, cuts, 0, 14, 196, n, 14, 200, 4)
      out.push(x.slice())
      k.run(PMG_SMOOTH, x, b, M, o, planeAt, cuts, 1, 0, 14, 196, n, 14, order.length, 4)
      k.run(PMG_SMOOTH_SEAMS, x, b, M, o, planeAt, cuts, 1, 14, 196, n, 14, 200, 4)
      out.push(x.slice())
      k.run(PMG_RESIDUAL, res, b, x, M, o, red, order.length, 14, 196, n)
      out.push(res.slice())
      k.run(PMG_RESTRICT, bc, res, co, ci, OVER_CORRECTION, 14, 14, 14, cred, corder.length)
      out.push(bc.slice())
      k.run(PMG_PROLONG, x, xc, o, oi, 7, 49, red, order.length)
      out.push(x.slice())
      return out
    }
    const ref = run(TS_KERNELS)
    // The references do what they say: the fused sweeps are the two half sweeps each, one
    // colour after the other (red with x taken as 0, then black; then black, then red); the
    // residual of a cell of the last colour swept is 0 (it was just solved for); restriction
    // sums 2x2x2 children times alpha.
    const halfSweep = (x: Float64Array, colour: number, fresh: boolean) => {
      for (let t = colour === 0 ? 0 : red; t < (colour === 0 ? red : order.length); t++) {
        const c = order[t]
        let s = b0[c]
        if (!fresh) {
          for (const [d, a] of [[1, m.ax], [14, m.ay], [196, m.az]] as const) {
            if (c >= d) s -= a[c - d] * x[c - d]
            if (c + d < n) s -= a[c] * x[c + d]
          }
        }
        x[c] = s / m.diag[c]
      }
    }
    const plain = x0.slice()
    halfSweep(plain, 0, true), halfSweep(plain, 1, false)
    expect(ref[0]).toEqual(plain)
    halfSweep(plain, 1, false), halfSweep(plain, 0, false)
    expect(ref[1]).toEqual(plain)
    expect(Math.abs(ref[2][order[1]])).toBeLessThan(1e-12)
    const q = corder.indexOf(1 + 7 * (1 + 7 * 1))
    let kids = 0
    for (let k = 2; k < 4; k++) for (let j = 2; j < 4; j++) for (let i = 2; i < 4; i++) kids += ref[2][i + 14 * (j + 14 * k)]
    expect(ref[3][corder[q]]).toBeCloseTo(OVER_CORRECTION * kids, 12)
    for (const threads of [1, 2, 3]) {
      const got = run(wasm(threads))
      for (let t = 0; t < ref.length; t++) expect(Buffer.from(got[t].buffer, got[t].byteOffset, got[t].byteLength).equals(Buffer.from(ref[t].buffer)), `array ${t}, ${threads} threads`).toBe(true)
    }
  })

  it('its V-cycle is a symmetric positive definite map on the unknowns (as CG needs)', () => {
    const s = pool(24, TS_KERNELS, 'multigrid')
    s.p.assemble(s.vel, s.fractions, null, s.kind, s.phi, s.open)
    const m = s.p.matrix
    const n = 24 ** 3
    const mg = new PressureMultigrid(24, 24, 24)
    mg.setup(m)
    // Several levels, the last small enough to factor.
    expect(mg.levels.filter((l) => l.activeCount > 0).length).toBeGreaterThanOrEqual(3)
    // Listing the finest level from the solve's own list of unknowns (activePcg.ts) gives the
    // same colour-ordered list as finding them by a pass over the lattice.
    const cells: number[] = []
    for (let c = 0; c < n; c++) if (m.diag[c] !== 0) cells.push(c)
    const viaList = new PressureMultigrid(24, 24, 24)
    viaList.setup(m, Int32Array.from(cells), cells.length)
    const a = mg.levels[0], b = viaList.levels[0]
    expect(b.activeCount).toBe(a.activeCount)
    expect(b.redCount).toBe(a.redCount)
    expect(Array.from(b.order.subarray(0, b.activeCount))).toEqual(Array.from(a.order.subarray(0, a.activeCount)))
    expect(Array.from(b.ijk.subarray(0, b.activeCount))).toEqual(Array.from(a.ijk.subarray(0, a.activeCount)))
    const r = rng(11)
    const vec = () => {
      const v = new Float64Array(n)
      for (let c = 0; c < n; c++) if (m.diag[c] !== 0) v[c] = 2 * r() - 1
      return v
    }
    for (let t = 0; t < 4; t++) {
      const r1 = vec(), r2 = vec(), z1 = new Float64Array(n), z2 = new Float64Array(n)
      mg.apply(r1, z1)
      mg.apply(r2, z2)
      let a = 0, b = 0, p1 = 0, nn = 0
      for (let c = 0; c < n; c++) {
        a += r2[c] * z1[c]
        b += r1[c] * z2[c]
        p1 += r1[c] * z1[c]
        nn += r1[c] * r1[c]
        // Nothing outside the unknowns.
        if (m.diag[c] === 0) expect(z1[c]).toBe(0)
      }
      expect(Math.abs(a - b)).toBeLessThan(1e-10 * Math.sqrt(nn))
      expect(p1).toBeGreaterThan(0)
    }
  })

  it('a rippled pool at 40^3: the pressure is MIC(0)\'s to the tolerance in under a third of its iterations, the same bits on every backend', () => {
    const solve = (k: KernelBackend, pre: PressurePreconditioner) => {
      const s = pool(40, k, pre)
      const stats = s.p.project(s.vel, s.fractions, null, s.kind, s.phi, s.open, 1e-8, 2000)
      return { stats, q: s.p.q.slice(), u: s.vel.u.slice() }
    }
    const mic = solve(TS_KERNELS, 'mic')
    const mg = solve(TS_KERNELS, 'multigrid')
    console.log(`40^3 pool: MIC(0) ${mic.stats.iterations} iterations, multigrid ${mg.stats.iterations}`)
    expect(mic.stats.converged && mg.stats.converged).toBe(true)
    expect(mg.stats.iterations).toBeLessThanOrEqual(12)
    expect(mg.stats.iterations * 3).toBeLessThan(mic.stats.iterations)
    // The same system solved: the potentials agree to about the tolerance.
    let diff = 0, top = 0
    for (let c = 0; c < mic.q.length; c++) {
      diff = Math.max(diff, Math.abs(mic.q[c] - mg.q[c]))
      top = Math.max(top, Math.abs(mic.q[c]))
    }
    expect(top).toBeGreaterThan(0)
    expect(diff / top).toBeLessThan(1e-5)
    for (const threads of [1, 2]) {
      const w = solve(wasm(threads), 'multigrid')
      expect(w.stats.iterations).toBe(mg.stats.iterations)
      expect(Buffer.from(w.q.buffer).equals(Buffer.from(mg.q.buffer)), `${threads} threads`).toBe(true)
      expect(Buffer.from(w.u.buffer).equals(Buffer.from(mg.u.buffer))).toBe(true)
    }
  }, 60_000)
})
