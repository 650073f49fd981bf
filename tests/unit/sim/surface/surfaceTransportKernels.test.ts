// The surface transport's kernel rows (surfaceTransportKernels.ts): the per-patch gather gives
// the same bits as the single scatter pass over every face it replaced (written out below as
// it was), on TypeScript and on 1-3 WebAssembly threads, on a torus cage whose patches meet at
// turned edges; a substep moves mass between cells without creating any (the total is kept to
// rounding); two densities moved together (the paired row, the twin's two lanes) each get the
// bits of moving alone, also when both are one array; and the outflow's largest rate is the one
// a plain loop finds.
import { describe, expect, it } from 'vitest'
import { buildLimitSurface } from '../../../../src-shared/geometry/catmullClarkEval'
import { buildPatchAtlas } from '../../../../src-shared/geometry/patchAtlas'
import { torusCage } from '../../../../src-shared/geometry/voxelCages'
import type { KernelBackend } from '../../../../src-shared/sim/core/kernelTypes'
import { SurfaceGrid } from '../../../../src-shared/sim/surface/surfaceGrid'
import { computeMetric } from '../../../../src-shared/sim/surface/surfaceMetric'
import { minmod, SURFACE_OUTFLOW, SURFACE_TRANSPORT, SURFACE_TRANSPORT_PAIR } from '../../../../src-shared/sim/surface/surfaceTransportKernels'
import { everyBackendOfFile, rng, sameBits } from '../everyBackend'

const S = buildLimitSurface(torusCage())
const atlas = buildPatchAtlas(S.faces)
// Even and odd cells a row: the twin takes two cells at a time and finishes an odd row alone.
let N = 6
let grid = new SurfaceGrid(atlas, N)
let sqrtG = computeMetric(S, grid, false).cells.sqrtG
function useN(n: number): void {
  N = n
  grid = new SurfaceGrid(atlas, N)
  sqrtG = computeMetric(S, grid, false).cells.sqrtG
}

/** A density in [0, 1) and fluxes of both signs (some exactly 0), shared faces equal, ghosts filled. */
function state(seed: number): { s: Float64Array; fx: Float64Array; fy: Float64Array } {
  const r = rng(seed)
  const s = grid.newCells(), fx = grid.newXFaces(), fy = grid.newYFaces()
  for (let k = 0; k < s.length; k++) s[k] = r()
  for (const f of [fx, fy]) for (let k = 0; k < f.length; k++) f[k] = r() < 0.1 ? 0 : 3 * (r() - 0.5)
  grid.syncShared(fx, fy)
  grid.fillScalar(s)
  grid.fillVector(fx, fy)
  return { s, fx, fy }
}

/** The scatter pass the kernel replaced: every face moves dt h F rho_face from cell lo to cell hi. */
function scatterSubstep(s: Float64Array, fx: Float64Array, fy: Float64Array, dt: number): void {
  const { P, h } = grid
  const change = grid.newCells()
  const rowC = N + 2
  for (let p = 0; p < P; p++) {
    for (let j = 0; j < N; j++) for (let i = 0; i <= N; i++) {
      const F = fx[grid.xFace(p, i, j)]
      if (F === 0) continue
      const lo = grid.cell(p, i - 1, j), hi = lo + 1
      const edge = i === 0 || i === N
      const r = F > 0 ? s[lo] + (edge ? 0 : 0.5 * minmod(s[lo] - s[lo - 1], s[hi] - s[lo])) : s[hi] + (edge ? 0 : 0.5 * minmod(s[hi] - s[hi + 1], s[lo] - s[hi]))
      const m = dt * h * F * r
      change[lo] -= m
      change[hi] += m
    }
    for (let j = 0; j <= N; j++) for (let i = 0; i < N; i++) {
      const F = fy[grid.yFace(p, i, j)]
      if (F === 0) continue
      const lo = grid.cell(p, i, j - 1), hi = lo + rowC
      const edge = j === 0 || j === N
      const r = F > 0 ? s[lo] + (edge ? 0 : 0.5 * minmod(s[lo] - s[lo - rowC], s[hi] - s[lo])) : s[hi] + (edge ? 0 : 0.5 * minmod(s[hi] - s[hi + rowC], s[lo] - s[hi]))
      const m = dt * h * F * r
      change[lo] -= m
      change[hi] += m
    }
  }
  for (let p = 0; p < P; p++) for (let j = 0; j < N; j++) for (let i = 0; i < N; i++) {
    const c = grid.cell(p, i, j)
    s[c] += change[c] / (sqrtG[c] * h * h)
  }
}

function inMemory(k: KernelBackend, a: Float64Array): Float64Array {
  const b = k.f64(a.length)
  b.set(a)
  return b
}

function total(s: Float64Array): number {
  let t = 0
  for (let p = 0; p < grid.P; p++) for (let j = 0; j < N; j++) for (let i = 0; i < N; i++) t += s[grid.cell(p, i, j)] * sqrtG[grid.cell(p, i, j)]
  return t * grid.h * grid.h
}

describe('surface transport kernel rows', () => {
  const backends = everyBackendOfFile()
  const dt = 0.004

  it.each(backends)('a substep is the scatter pass bit for bit, and keeps the total: %s', (_name, k) => {
    for (const [seed, n] of [[1, 6], [2, 6], [3, 5], [4, 7]]) {
      useN(n)
      const { s, fx, fy } = state(seed)
      const want = Float64Array.from(s)
      scatterSubstep(want, fx, fy, dt)
      const got = inMemory(k, s)
      k.run(SURFACE_TRANSPORT, got, inMemory(k, fx), inMemory(k, fy), inMemory(k, sqrtG), k.f64(s.length), new Float64Array(N), N, dt, grid.h, grid.P)
      // Real cells as the scatter pass left them; ghosts untouched (the caller refills them).
      expect(sameBits(got, want)).toBe(true)
      const before = total(s), after = total(got)
      expect(Math.abs(after - before)).toBeLessThan(1e-12 * Math.abs(before))
      // Something moved: the check above is not comparing a field with itself.
      let moved = 0
      for (let c = 0; c < s.length; c++) moved = Math.max(moved, Math.abs(got[c] - s[c]))
      expect(moved).toBeGreaterThan(1e-3)
    }
  })

  it.each(backends)('two densities moved together each get the bits of moving alone: %s', (_name, k) => {
    for (const [seed, n] of [[5, 6], [6, 5]]) {
      useN(n)
      const one = state(seed), two = state(seed + 10)
      const fx = inMemory(k, one.fx), fy = inMemory(k, one.fy), g = inMemory(k, sqrtG)
      const alone = (s: Float64Array) => {
        const out = inMemory(k, s)
        k.run(SURFACE_TRANSPORT, out, fx, fy, g, k.f64(s.length), new Float64Array(N), N, dt, grid.h, grid.P)
        return out
      }
      const wantA = alone(one.s), wantB = alone(two.s)
      const a = inMemory(k, one.s), b = inMemory(k, two.s)
      k.run(SURFACE_TRANSPORT_PAIR, a, b, fx, fy, g, k.f64(2 * a.length), new Float64Array(2 * N), N, dt, grid.h, grid.P)
      expect(sameBits(a, wantA) && sameBits(b, wantB)).toBe(true)
      expect(sameBits(a, one.s)).toBe(false)
      // One array as both: moved once.
      const same = inMemory(k, one.s)
      k.run(SURFACE_TRANSPORT_PAIR, same, same, fx, fy, g, k.f64(2 * same.length), new Float64Array(2 * N), N, dt, grid.h, grid.P)
      expect(sameBits(same, wantA)).toBe(true)
    }
  })

  it.each(backends)('the largest outflow rate per patch is the plain loop over cells: %s', (_name, k) => {
    useN(6)
    const { fx, fy } = state(4)
    const partial = k.f64(grid.P)
    k.run(SURFACE_OUTFLOW, inMemory(k, fx), inMemory(k, fy), inMemory(k, sqrtG), N, grid.h, partial, grid.P)
    const { h } = grid
    for (let p = 0; p < grid.P; p++) {
      let worst = 0
      for (let j = 0; j < N; j++) for (let i = 0; i < N; i++) {
        const out = Math.max(0, -fx[grid.xFace(p, i, j)]) + Math.max(0, fx[grid.xFace(p, i + 1, j)]) + Math.max(0, -fy[grid.yFace(p, i, j)]) + Math.max(0, fy[grid.yFace(p, i, j + 1)])
        worst = Math.max(worst, out / (sqrtG[grid.cell(p, i, j)] * h))
      }
      expect(partial[p]).toBe(worst)
      expect(worst).toBeGreaterThan(0)
    }
  })
})
