// The projection's flux correction as a per-face gather (surfaceCorrectionKernels.ts) against
// the term-by-term scatter it replaced (written out below as it was), bit for bit on every
// face of every patch (ghost faces included, before their shares move to the neighbours), on
// TypeScript and 1-3 WebAssembly threads, on a torus and on a sphere-like cage (valence-3
// corners), with a node weight forced to 0 (its term skipped).
import { describe, expect, it } from 'vitest'
import { buildLimitSurface } from '../../../../src-shared/geometry/catmullClarkEval'
import { buildPatchAtlas } from '../../../../src-shared/geometry/patchAtlas'
import { sphereLikeCage, torusCage } from '../../../../src-shared/geometry/voxelCages'
import type { KernelBackend } from '../../../../src-shared/sim/core/kernelTypes'
import { SURFACE_CORRECTION, SURFACE_DIVERGENCE } from '../../../../src-shared/sim/surface/surfaceCorrectionKernels'
import { SurfaceGrid } from '../../../../src-shared/sim/surface/surfaceGrid'
import { computeMetric } from '../../../../src-shared/sim/surface/surfaceMetric'
import { everyBackendOfFile, rng, sameBits } from '../everyBackend'

function setup(cage: ReturnType<typeof torusCage>, N: number) {
  const S = buildLimitSurface(cage)
  const grid = new SurfaceGrid(buildPatchAtlas(S.faces), N)
  const metric = computeMetric(S, grid, false)
  const { P } = grid
  const unknownOf = new Int32Array(P * grid.cellBlock).fill(-1)
  for (let p = 0; p < P; p++) for (let j = 0; j < N; j++) for (let i = 0; i < N; i++) unknownOf[grid.cell(p, i, j)] = grid.unknown(p, i, j)
  const { dst, src } = grid.cellGhosts
  for (let t = 0; t < dst.length; t++) unknownOf[dst[t]] = unknownOf[src[t]]
  const share = (edge: boolean) => (edge ? 0.5 : 1)
  const wX = new Float64Array(P * grid.xBlock), wY = new Float64Array(P * grid.yBlock), wN = new Float64Array(P * (N + 1) * (N + 1))
  for (let p = 0; p < P; p++) {
    for (let j = 0; j < N; j++) for (let i = 0; i <= N; i++) wX[grid.xFace(p, i, j)] = metric.xFaces.sqrtG[grid.xFace(p, i, j)] * metric.xFaces.g11[grid.xFace(p, i, j)] * share(i === 0 || i === N)
    for (let j = 0; j <= N; j++) for (let i = 0; i < N; i++) wY[grid.yFace(p, i, j)] = metric.yFaces.sqrtG[grid.yFace(p, i, j)] * metric.yFaces.g22[grid.yFace(p, i, j)] * share(j === 0 || j === N)
    for (let j = 0; j <= N; j++) for (let i = 0; i <= N; i++) {
      const eI = i === 0 || i === N, eJ = j === 0 || j === N, k = p * (N + 1) * (N + 1) + i + (N + 1) * j
      wN[k] = eI && eJ ? 0 : metric.nodes.sqrtG[k] * metric.nodes.g12[k] * share(eI || eJ)
    }
  }
  wN[(N + 1) + 2] = 0 // a node without a mixed term
  return { grid, unknownOf, wX, wY, wN }
}

/** The scatter the row replaced: face terms, then node terms, each added into the faces it touches. */
function scatter(s: ReturnType<typeof setup>, pot: Float64Array): { dfx: Float64Array; dfy: Float64Array } {
  const { grid, unknownOf: u, wX, wY, wN } = s
  const { N, P } = grid
  const dfx = grid.newXFaces(), dfy = grid.newYFaces()
  for (let p = 0; p < P; p++) {
    for (let j = 0; j < N; j++) for (let i = 0; i <= N; i++) {
      const f = grid.xFace(p, i, j)
      dfx[f] += -wX[f] * (pot[u[grid.cell(p, i, j)]] - pot[u[grid.cell(p, i - 1, j)]])
    }
    for (let j = 0; j <= N; j++) for (let i = 0; i < N; i++) {
      const f = grid.yFace(p, i, j)
      dfy[f] += -wY[f] * (pot[u[grid.cell(p, i, j)]] - pot[u[grid.cell(p, i, j - 1)]])
    }
    for (let j = 0; j <= N; j++) for (let i = 0; i <= N; i++) {
      const w = wN[p * (N + 1) * (N + 1) + i + (N + 1) * j]
      if (w === 0) continue
      const c00 = u[grid.cell(p, i - 1, j - 1)], c10 = u[grid.cell(p, i, j - 1)], c01 = u[grid.cell(p, i - 1, j)], c11 = u[grid.cell(p, i, j)]
      const ap = pot[c10] - pot[c00] + pot[c11] - pot[c01]
      const bp = pot[c01] - pot[c00] + pot[c11] - pot[c10]
      dfx[grid.xFace(p, i, j - 1)] -= (w / 4) * bp
      dfx[grid.xFace(p, i, j)] -= (w / 4) * bp
      dfy[grid.yFace(p, i - 1, j)] -= (w / 4) * ap
      dfy[grid.yFace(p, i, j)] -= (w / 4) * ap
    }
  }
  return { dfx, dfy }
}

function inMemory<T extends Float64Array | Int32Array>(k: KernelBackend, a: T): T {
  const b = (a instanceof Float64Array ? k.f64(a.length) : k.i32(a.length)) as T
  b.set(a)
  return b
}

describe('surface projection correction row', () => {
  const backends = everyBackendOfFile()
  const cases = [
    ['torus, 6^2 cells a patch', setup(torusCage(), 6)],
    ['sphere-like cube, 5^2 cells a patch', setup(sphereLikeCage(), 5)],
  ] as const

  for (const [name, s] of cases) {
    it.each(backends)(`gathers each face's terms in the scatter's order (${name}): %s`, (_b, k) => {
      const { grid } = s
      const r = rng(11)
      const pot = new Float64Array(grid.P * grid.N * grid.N)
      for (let q = 0; q < pot.length; q++) pot[q] = r() - 0.5
      const want = scatter(s, pot)
      const dfx = k.f64(want.dfx.length).fill(9), dfy = k.f64(want.dfy.length).fill(9)
      k.run(SURFACE_CORRECTION, inMemory(k, pot), inMemory(k, s.unknownOf), inMemory(k, s.wX), inMemory(k, s.wY), inMemory(k, s.wN), dfx, dfy, grid.N, grid.P)
      expect(sameBits(dfx, want.dfx)).toBe(true)
      expect(sameBits(dfy, want.dfy)).toBe(true)
      // Some ghost face took an edge node's share.
      expect(want.dfx.some((v, f) => v !== 0 && f === grid.xFace(0, 2, -1))).toBe(true)
    })

    it.each(backends)(`the divergence row is the cell loop bit for bit, and its negation (${name}): %s`, (_b, k) => {
      const { grid } = s
      const r = rng(12)
      const fx = k.f64(grid.P * grid.xBlock), fy = k.f64(grid.P * grid.yBlock)
      for (const f of [fx, fy]) for (let q = 0; q < f.length; q++) f[q] = r() - 0.5
      const { N, P, h } = grid
      const want = new Float64Array(P * N * N)
      for (let p = 0; p < P; p++) for (let j = 0; j < N; j++) for (let i = 0; i < N; i++) {
        want[grid.unknown(p, i, j)] = h * (fx[grid.xFace(p, i + 1, j)] - fx[grid.xFace(p, i, j)] + fy[grid.yFace(p, i, j + 1)] - fy[grid.yFace(p, i, j)])
      }
      const got = k.f64(want.length).fill(9)
      k.run(SURFACE_DIVERGENCE, fx, fy, got, N, h, 1, P)
      expect(sameBits(got, want)).toBe(true)
      k.run(SURFACE_DIVERGENCE, fx, fy, got, N, h, -1, P)
      expect(sameBits(got, want.map((v) => -v))).toBe(true)
    })
  }
})
