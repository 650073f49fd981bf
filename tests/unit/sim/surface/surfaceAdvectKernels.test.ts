// The surface flow's face kernels (surfaceAdvectKernels.ts) against the sampler they stand in
// for, bit for bit, on TypeScript and 1-3 WebAssembly threads: the face velocities F / sqrt(g);
// the advected velocity of every face, its departure walked across the atlas where it leaves
// its patch's square, as the sampler walks it (open edges, valence-3 corners, several crossings); the
// diffusion's gather of cells into unknowns and its scatter back (surfaceCellKernels.ts); the
// body forces (surfaceForceKernels.ts) against the same formulas through the sampler. Then
// whole solver steps (forces, advection, projection, diffusion, transport) give the same bits
// on every backend.
import { describe, expect, it } from 'vitest'
import { buildLimitSurface } from '../../../../src-shared/geometry/catmullClarkEval'
import { buildPatchAtlas } from '../../../../src-shared/geometry/patchAtlas'
import { sphereLikeCage, torusCage } from '../../../../src-shared/geometry/voxelCages'
import type { KernelBackend } from '../../../../src-shared/sim/core/kernelTypes'
import { faceMean, SURFACE_ADVECT_VELOCITY, SURFACE_VELOCITIES } from '../../../../src-shared/sim/surface/surfaceAdvectKernels'
import { SURFACE_GATHER, SURFACE_SCATTER } from '../../../../src-shared/sim/surface/surfaceCellKernels'
import { SURFACE_FORCES, SURFACE_GRAVITY, SURFACE_GRAVITY_COEF } from '../../../../src-shared/sim/surface/surfaceForceKernels'
import { SurfaceFluid } from '../../../../src-shared/sim/surface/surfaceFluid'
import { SurfaceGrid } from '../../../../src-shared/sim/surface/surfaceGrid'
import { computeMetric } from '../../../../src-shared/sim/surface/surfaceMetric'
import { SurfaceSampler } from '../../../../src-shared/sim/surface/surfaceSampling'
import { everyBackendOfFile, rng, sameBits } from '../everyBackend'

const N = 6
const S = buildLimitSurface(torusCage())
const grid = new SurfaceGrid(buildPatchAtlas(S.faces), N)
const metric = computeMetric(S, grid, false)
const sampler = new SurfaceSampler(grid)
// An odd edge too: the gather takes two cells at a time and finishes an odd row alone.
const grid5 = new SurfaceGrid(buildPatchAtlas(S.faces), 5)
const metric5 = computeMetric(S, grid5, false)

function inMemory<T extends Float64Array | Uint8Array>(k: KernelBackend, a: T): T {
  const b = (a instanceof Float64Array ? k.f64(a.length) : k.u8(a.length)) as T
  b.set(a)
  return b
}

/** Random face velocities of about `speed` patch widths a second, ghosts filled. */
function velocities(seed: number, speed: number): { ux: Float64Array; uy: Float64Array } {
  const r = rng(seed)
  const ux = grid.newXFaces(), uy = grid.newYFaces()
  for (const u of [ux, uy]) for (let f = 0; f < u.length; f++) u[f] = speed * (2 * r() - 1)
  grid.syncShared(ux, uy)
  grid.fillVector(ux, uy)
  return { ux, uy }
}

describe('surface face kernels', () => {
  const backends = everyBackendOfFile()

  it.each(backends)('the face velocities are F / sqrt(g) (0 where sqrt(g) is 0) on the real faces: %s', (_name, k) => {
    const r = rng(3)
    const fx = grid.newXFaces(), fy = grid.newYFaces()
    for (const f of [fx, fy]) for (let q = 0; q < f.length; q++) f[q] = r() - 0.5
    const sx = Float64Array.from(metric.xFaces.sqrtG), sy = Float64Array.from(metric.yFaces.sqrtG)
    sx[grid.xFace(0, 2, 2)] = 0 // a degenerate face
    const ux = k.f64(fx.length).fill(7), uy = k.f64(fy.length).fill(7)
    k.run(SURFACE_VELOCITIES, inMemory(k, fx), inMemory(k, fy), inMemory(k, sx), inMemory(k, sy), ux, uy, N, grid.P)
    for (let p = 0; p < grid.P; p++) {
      for (let j = 0; j < N; j++) for (let i = 0; i <= N; i++) {
        const f = grid.xFace(p, i, j)
        expect(ux[f]).toBe(sx[f] > 0 ? fx[f] / sx[f] : 0)
      }
      for (let j = 0; j <= N; j++) for (let i = 0; i < N; i++) {
        const f = grid.yFace(p, i, j)
        expect(uy[f]).toBe(sy[f] > 0 ? fy[f] / sy[f] : 0)
      }
    }
    expect(ux[grid.xFace(0, 2, 2)]).toBe(0)
    // Ghost faces are left for the fill.
    expect(ux[grid.xFace(0, -1, 0)]).toBe(7)
  })

  it.each(backends)('every back-trace, in its patch or walked across the atlas (open edges, valence-3 corners, several crossings), is the sampler bit for bit at its departure (the other component at the face the mean of the four around it; inside its patch only its own component sampled): %s', (_name, k) => {
    const open = sphereLikeCage()
    const top = open.faces.findIndex((f) => f.every((v) => open.positions[3 * v + 1] > 0))
    const cages = [torusCage(), sphereLikeCage(), { positions: open.positions, faces: open.faces.filter((_, i) => i !== top) }]
    for (const [c, cage] of cages.entries()) {
      const L = buildLimitSurface(cage)
      const atlas = buildPatchAtlas(L.faces)
      const g = new SurfaceGrid(atlas, N)
      const m = computeMetric(L, g, false)
      const sm = new SurfaceSampler(g)
      const h = g.h
      // Half a cell to a cell of travel, and up to three patch widths (walks of several crossings, clamped at an open edge).
      for (const [seed, speed, dt] of [[5 + c, 1.5, 0.05], [11 + c, 40, 0.05]] as const) {
        const r = rng(seed)
        const ux = g.newXFaces(), uy = g.newYFaces()
        for (const u of [ux, uy]) for (let f = 0; f < u.length; f++) u[f] = speed * (2 * r() - 1)
        g.syncShared(ux, uy)
        g.fillVector(ux, uy)
        const sx = m.xFaces.sqrtG, sy = m.yFaces.sqrtG
        const outX = k.f64(ux.length), outY = k.f64(uy.length)
        const nb = k.i32(atlas.neighbour.length), nbEdge = k.i32(atlas.neighbourEdge.length)
        nb.set(atlas.neighbour)
        nbEdge.set(atlas.neighbourEdge)
        k.run(SURFACE_ADVECT_VELOCITY, inMemory(k, ux), inMemory(k, uy), inMemory(k, sx), inMemory(k, sy), outX, outY, nb, nbEdge, N, dt, h, g.P)
        const leaves = (a: number, b: number) => a < 0 || a > 1 || b < 0 || b > 1
        let stayed = 0, left = 0, far = 0
        const count = (a: number, b: number) => {
          if (leaves(a, b)) left++
          else stayed++
          if (a < -1 || a > 2 || b < -1 || b > 2) far++
        }
        for (let p = 0; p < g.P; p++) {
          for (let j = 0; j < N; j++) for (let i = 0; i <= N; i++) {
            const f = g.xFace(p, i, j)
            const x1 = i * h, x2 = (j + 0.5) * h
            // The other component at the face: the mean of the four y-faces around it (the sampler's to rounding).
            const v2 = faceMean(uy, g.yFace(p, i - 1, j), N + 2)
            expect(Math.abs(v2 - sm.yValue(uy, p, x1, x2))).toBeLessThanOrEqual(1e-13 * speed)
            const d1 = x1 - dt * ux[f], d2 = x2 - dt * v2
            count(d1, d2)
            expect(Object.is(outX[f], sx[f] * sm.sampleVector(ux, uy, p, d1, d2)[0]), `cage ${c}, x-face ${f}`).toBe(true)
          }
          for (let j = 0; j <= N; j++) for (let i = 0; i < N; i++) {
            const f = g.yFace(p, i, j)
            const x1 = (i + 0.5) * h, x2 = j * h
            const v1 = faceMean(ux, g.xFace(p, i, j - 1), N + 3)
            expect(Math.abs(v1 - sm.xValue(ux, p, x1, x2))).toBeLessThanOrEqual(1e-13 * speed)
            const d1 = x1 - dt * v1, d2 = x2 - dt * uy[f]
            count(d1, d2)
            expect(Object.is(outY[f], sy[f] * sm.sampleVector(ux, uy, p, d1, d2)[1]), `cage ${c}, y-face ${f}`).toBe(true)
          }
        }
        // Both kinds occur, so both branches were checked; the fast flow walks more than a patch away.
        expect(stayed).toBeGreaterThan(0)
        expect(left).toBeGreaterThan(0)
        if (speed > 10) expect(far).toBeGreaterThan(0)
      }
    }
  })

  it.each(backends)('cells gather into unknowns (with sqrt(g) s as the right-hand side) and scatter back, odd and even rows: %s', (_name, k) => {
    const r = rng(8)
    for (const [g, sqrtG] of [[grid, metric.cells.sqrtG], [grid5, metric5.cells.sqrtG]] as const) {
      const n = g.N
      const s = k.f64(g.P * g.cellBlock)
      for (let c = 0; c < s.length; c++) s[c] = r()
      const rhs = k.f64(g.P * n * n), x = k.f64(g.P * n * n)
      k.run(SURFACE_GATHER, s, inMemory(k, sqrtG), rhs, x, n, g.P)
      const back = k.f64(s.length).fill(-1)
      k.run(SURFACE_SCATTER, x, back, n, g.P)
      for (let p = 0; p < g.P; p++) for (let j = 0; j < n; j++) for (let i = 0; i < n; i++) {
        const c = g.cell(p, i, j), u = g.unknown(p, i, j)
        expect(x[u]).toBe(s[c])
        expect(rhs[u]).toBe(sqrtG[c] * s[c])
        expect(back[c]).toBe(s[c])
      }
      // Ghost cells are not written.
      expect(back[g.cell(0, -1, 0)]).toBe(-1)
    }
  })

  it.each(backends)('gravity by density, Coriolis and confinement on every real face are the sampler formulas bit for bit: %s', (_name, k) => {
    const r = rng(12)
    const cells = () => {
      const c = grid.newCells()
      for (let q = 0; q < c.length; q++) c[q] = r()
      grid.fillScalar(c)
      return c
    }
    const rho = cells(), f1 = cells(), f2 = cells()
    const { ux, uy } = velocities(13, 0.8)
    const fx0 = grid.newXFaces(), fy0 = grid.newYFaces()
    for (const f of [fx0, fy0]) for (let q = 0; q < f.length; q++) f[q] = r() - 0.5
    const G = [0.1, -9.8, 0.3], axis = [0, 0.6, 0.8], rate = 0.7, dt = 0.02, h = grid.h
    const fx = inMemory(k, fx0), fy = inMemory(k, fy0)
    const X = metric.xFaces, Y = metric.yFaces
    const mem = (S: typeof X) => ({ sqrtG: inMemory(k, S.sqrtG), g11: inMemory(k, S.g11), g12: inMemory(k, S.g12), g22: inMemory(k, S.g22), du: inMemory(k, S.du), dv: inMemory(k, S.dv) })
    k.run(SURFACE_FORCES, fx, fy, inMemory(k, rho), inMemory(k, ux), inMemory(k, uy), inMemory(k, f1), inMemory(k, f2), mem(X), mem(Y), G[0], G[1], G[2], axis[0], axis[1], axis[2], rate, dt, N, h, grid.P)
    for (const [kind, S, F0, F, conf] of [[1, X, fx0, fx, f1], [2, Y, fy0, fy, f2]] as const) {
      for (let p = 0; p < grid.P; p++) for (let j = 0; j <= (kind === 1 ? N - 1 : N); j++) for (let i = 0; i <= (kind === 1 ? N : N - 1); i++) {
        const f = kind === 1 ? grid.xFace(p, i, j) : grid.yFace(p, i, j)
        const x1 = kind === 1 ? i * h : (i + 0.5) * h, x2 = kind === 1 ? (j + 0.5) * h : j * h
        const o = 3 * f
        const du = [S.du[o], S.du[o + 1], S.du[o + 2]], dv = [S.dv[o], S.dv[o + 1], S.dv[o + 2]]
        const rr = sampler.cellValue(rho, p, x1, x2)
        let ax = 0 + G[0] * rr, ay = 0 + G[1] * rr, az = 0 + G[2] * rr
        const v = sampler.sampleVector(ux, uy, p, x1, x2)
        const w = [v[0] * du[0] + v[1] * dv[0], v[0] * du[1] + v[1] * dv[1], v[0] * du[2] + v[1] * dv[2]]
        let n = [du[1] * dv[2] - du[2] * dv[1], du[2] * dv[0] - du[0] * dv[2], du[0] * dv[1] - du[1] * dv[0]]
        const len = Math.sqrt(n[0] * n[0] + n[1] * n[1] + n[2] * n[2])
        n = n.map((c) => c / len)
        const s = -2 * rate * (axis[0] * n[0] + axis[1] * n[1] + axis[2] * n[2])
        ax += s * (n[1] * w[2] - n[2] * w[1]); ay += s * (n[2] * w[0] - n[0] * w[2]); az += s * (n[0] * w[1] - n[1] * w[0])
        const c1 = ax * du[0] + ay * du[1] + az * du[2], c2 = ax * dv[0] + ay * dv[1] + az * dv[2]
        let a = kind === 1 ? S.g11[f] * c1 + S.g12[f] * c2 : S.g12[f] * c1 + S.g22[f] * c2
        a += sampler.cellValue(conf, p, x1, x2)
        expect(Object.is(F[f], F0[f] + dt * S.sqrtG[f] * a)).toBe(true)
      }
    }
  })

  it.each(backends)("gravity alone by its per-face coefficients is its formula bit for bit, and the general row's forces to rounding: %s", (_name, k) => {
    const r = rng(21)
    const rho = grid.newCells()
    for (let q = 0; q < rho.length; q++) rho[q] = r()
    grid.fillScalar(rho)
    const fx0 = grid.newXFaces(), fy0 = grid.newYFaces()
    for (const f of [fx0, fy0]) for (let q = 0; q < f.length; q++) f[q] = r() - 0.5
    const G = [0.1, -9.8, 0.3], dt = 0.02, h = grid.h
    const X = metric.xFaces, Y = metric.yFaces
    const mem = (S: typeof X) => ({ sqrtG: inMemory(k, S.sqrtG), g11: inMemory(k, S.g11), g12: inMemory(k, S.g12), g22: inMemory(k, S.g22), du: inMemory(k, S.du), dv: inMemory(k, S.dv) })
    const kx = k.f64(fx0.length), ky = k.f64(fy0.length)
    k.run(SURFACE_GRAVITY_COEF, mem(X), mem(Y), G[0], G[1], G[2], kx, ky, N, grid.P)
    const fx = inMemory(k, fx0), fy = inMemory(k, fy0)
    k.run(SURFACE_GRAVITY, fx, fy, inMemory(k, rho), kx, ky, dt, N, grid.P)
    const gx = inMemory(k, fx0), gy = inMemory(k, fy0)
    k.run(SURFACE_FORCES, gx, gy, inMemory(k, rho), null, null, null, null, mem(X), mem(Y), G[0], G[1], G[2], 0, 0, 0, 0, dt, N, h, grid.P)
    let moved = 0
    for (const [kind, S, F0, F, K, general] of [[1, X, fx0, fx, kx, gx], [2, Y, fy0, fy, ky, gy]] as const) {
      for (let p = 0; p < grid.P; p++) for (let j = 0; j <= (kind === 1 ? N - 1 : N); j++) for (let i = 0; i <= (kind === 1 ? N : N - 1); i++) {
        const f = kind === 1 ? grid.xFace(p, i, j) : grid.yFace(p, i, j)
        const o = 3 * f
        const c1 = G[0] * S.du[o] + G[1] * S.du[o + 1] + G[2] * S.du[o + 2], c2 = G[0] * S.dv[o] + G[1] * S.dv[o + 1] + G[2] * S.dv[o + 2]
        const want = S.sqrtG[f] * (kind === 1 ? S.g11[f] * c1 + S.g12[f] * c2 : S.g12[f] * c1 + S.g22[f] * c2)
        expect(Object.is(K[f], want)).toBe(true)
        // The density at the face: the mean of its two cells (the bilinear sample to rounding).
        const x1 = kind === 1 ? i * h : (i + 0.5) * h, x2 = kind === 1 ? (j + 0.5) * h : j * h
        const mean = 0.5 * (kind === 1 ? rho[grid.cell(p, i - 1, j)] + rho[grid.cell(p, i, j)] : rho[grid.cell(p, i, j - 1)] + rho[grid.cell(p, i, j)])
        expect(Math.abs(mean - sampler.cellValue(rho, p, x1, x2))).toBeLessThanOrEqual(1e-14)
        expect(Object.is(F[f], F0[f] + dt * mean * want)).toBe(true)
        // The general row forms r G before the tangents: the same force to rounding.
        const change = general[f] - F0[f]
        expect(Math.abs(F[f] - F0[f] - change)).toBeLessThanOrEqual(1e-12 * Math.abs(change) + 1e-15)
        if (Math.abs(change) > 1e-3) moved++
      }
    }
    expect(moved).toBeGreaterThan(100)
  })

  it('whole steps give the same bits on every backend', () => {
    const run = (k: KernelBackend) => {
      const L = buildLimitSurface(sphereLikeCage())
      const fl = new SurfaceFluid(L, buildPatchAtlas(L.faces), { N: 6, densities: 2, kernels: k })
      const pos = fl.metric.positions
      fl.addSource(0, [pos[0], pos[1], pos[2]], 0.6, 0.2)
      fl.addSource(1, [pos[300], pos[301], pos[302]], 0.6, 0.1)
      fl.addImpulse([pos[90], pos[91], pos[92]], 0.8, [0.5, 0.2, -0.3])
      for (let s = 0; s < 4; s++) fl.step(1 / 30, { gravity: [0, -1, 0], rotationAxis: [0, 1, 0], rotationRate: 0.5, vorticity: 0.2 }, 1e-3)
      // Gravity alone (its own rows), then a new gravity (its coefficients formed again).
      for (let s = 0; s < 2; s++) fl.step(1 / 30, { gravity: [0, -1, 0] }, 1e-3)
      fl.step(1 / 30, { gravity: [0.3, -0.5, 0] }, 1e-3)
      return [fl.fx, fl.fy, ...fl.density].map((a) => Float64Array.from(a))
    }
    const [first, ...rest] = backends.map(([, k]) => run(k))
    expect(first[0].some((v) => v !== 0)).toBe(true)
    for (const other of rest) for (let a = 0; a < first.length; a++) expect(sameBits(other[a], first[a])).toBe(true)
  })
})
