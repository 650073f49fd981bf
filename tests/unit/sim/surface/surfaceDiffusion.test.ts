// The surface's diffusion systems (surfaceDiffusion.ts) refilled in place for each rate and
// step: the same matrix, bit for bit, as assembling sqrt(g) + k dt L / h^2 from triplets, for
// more (rate, step) pairs than are kept (so the oldest is refilled), and a repeated pair finds
// its system again instead of refilling one; the Jacobi preconditioner follows the refills.
// The fill runs as kernel rows (surfaceDiffusionKernels.ts): on TypeScript and 1-3 WebAssembly
// threads it gives the same bits, and its float32 stencil planes and edge rows hold each float64
// entry rounded, at the place the stencil's symmetric layout gives it.
import { describe, expect, it } from 'vitest'
import { buildLimitSurface } from '../../../../src-shared/geometry/catmullClarkEval'
import { buildPatchAtlas } from '../../../../src-shared/geometry/patchAtlas'
import { sphereLikeCage } from '../../../../src-shared/geometry/voxelCages'
import { csrFromTriplets, type CsrMatrix } from '../../../../src-shared/sim/core/sparse/csr'
import { SurfaceDiffusionSystems } from '../../../../src-shared/sim/surface/surfaceDiffusion'
import { SurfaceFluid } from '../../../../src-shared/sim/surface/surfaceFluid'
import { edgeRow } from '../../../../src-shared/sim/surface/patchStencil'
import { everyBackendOfFile, sameBits } from '../everyBackend'

function assembled(L: CsrMatrix, areaOf: Float64Array, h: number, k: number, dt: number): CsrMatrix {
  const rows: number[] = [], cols: number[] = [], vals: number[] = []
  for (let r = 0; r < L.n; r++) for (let q = L.rowPtr[r]; q < L.rowPtr[r + 1]; q++) rows.push(r), cols.push(L.col[q]), vals.push((k * dt * L.val[q]) / (h * h))
  for (let u = 0; u < L.n; u++) rows.push(u), cols.push(u), vals.push(areaOf[u])
  return csrFromTriplets(L.n, L.n, rows, cols, vals)
}

/** The stencil's offsets of plane k (0-8: rows below, the row, rows above) for patch edge n. */
const planeOffset = (k: number, n: number) => (Math.floor(k / 3) - 1) * n + ((k % 3) - 1)
/**
 * Where the float32 planes (patchStencil32.ts's symmetric layout: the centre, then offsets +1,
 * +n - 1, +n, +n + 1) keep row u's coefficient at offset k: offset +d in plane d's slot u,
 * offset -d in plane d's slot u - d.
 */
const symmetricSlot = (k: number, u: number, n: number, stride: number) => (k >= 4 ? (k - 4) * stride + u : (4 - k) * stride + u + planeOffset(k, n))

describe('surface diffusion systems', () => {
  const backends = everyBackendOfFile()
  const results: number[][][] = []
  const S = buildLimitSurface(sphereLikeCage())
  const atlas = buildPatchAtlas(S.faces)

  it.each(backends)('equal the assembled sqrt(g) + k dt L / h^2 bit for bit, refilled for new rates and steps, and their float32 planes its entries rounded: %s', (_name, kernels) => {
    const fl = new SurfaceFluid(S, atlas, { N: 4, densities: 1, kernels })
    const { grid, metric, projection } = fl
    const areaOf = new Float64Array(projection.A.n)
    for (let p = 0; p < grid.P; p++) for (let j = 0; j < grid.N; j++) for (let i = 0; i < grid.N; i++) areaOf[grid.unknown(p, i, j)] = metric.cells.sqrtG[grid.cell(p, i, j)]
    const stencil = projection.pre.finestStencil
    expect(stencil).not.toBeNull()
    const systems = new SurfaceDiffusionSystems(projection.A, areaOf, grid.h, kernels, stencil, 0)
    const pairs = [[1e-4, 1 / 30], [2e-3, 1 / 30], [1e-4, 0.021], [0.5, 0.013], [3e-5, 1 / 24], [1e-4, 1 / 30]]
    const mine: number[][] = []
    for (const [k, dt] of pairs) {
      const sys = systems.get(k, dt)
      const got = sys.A
      const want = assembled(projection.A, areaOf, grid.h, k, dt)
      expect(Array.from(got.rowPtr)).toEqual(Array.from(want.rowPtr))
      expect(Array.from(got.col)).toEqual(Array.from(want.col))
      expect(Array.from(got.val)).toEqual(Array.from(want.val))
      // Its Jacobi preconditioner is the inverse diagonal of these values.
      for (let u = 0; u < got.n; u++) for (let q = want.rowPtr[u]; q < want.rowPtr[u + 1]; q++) if (want.col[q] === u) expect(sys.invDiag[u]).toBe(1 / want.val[q])
      // The float32 copy: an inner row's entry at stencil offset c sits in the plane of c, the
      // planes' other entries of inner rows are zero, the centre plane of an edge row is sqrt(g),
      // and the edge rows hold their rows' entries in order; all of them rounded to float32.
      const single = sys.single
      if (!single || !stencil) throw new Error('no float32 planes')
      const { A32, invDiag32 } = single
      const N = grid.N, fr = Math.fround
      const edgeIndex = new Int32Array(got.n).fill(-1)
      for (let p = 0, e = 0; p < grid.P; p++) for (let t = 0; t < 4 * N - 4; t++, e++) edgeIndex[edgeRow(p, t, N)] = e
      for (let u = 0; u < got.n; u++) {
        expect(invDiag32[u]).toBe(fr(sys.invDiag[u]))
        const e = edgeIndex[u]
        if (e >= 0) {
          expect(A32.edge.rowPtr[e + 1] - A32.edge.rowPtr[e]).toBe(got.rowPtr[u + 1] - got.rowPtr[u])
          for (let q = got.rowPtr[u], m = A32.edge.rowPtr[e]; q < got.rowPtr[u + 1]; q++, m++) expect(Object.is(A32.edge.val[m], fr(got.val[q] + 0))).toBe(true)
          expect(A32.coef[u]).toBe(fr(areaOf[u]))
          continue
        }
        for (let c = 0; c < 9; c++) {
          const q = Array.from(got.col.subarray(got.rowPtr[u], got.rowPtr[u + 1])).indexOf(u + planeOffset(c, N))
          expect(Object.is(A32.coef[symmetricSlot(c, u, N, A32.stride)], q < 0 ? 0 : fr(got.val[got.rowPtr[u] + q] + 0))).toBe(true)
        }
      }
      mine.push(Array.from(got.val), Array.from(sys.invDiag), Array.from(A32.coef), Array.from(A32.edge.val), Array.from(invDiag32))
    }
    // Asked again while still kept: the same system object.
    expect(systems.get(0.5, 0.013)).toBe(systems.get(0.5, 0.013))
    results.push(mine)
    if (results.length > 1) for (let i = 0; i < mine.length; i++) expect(sameBits(mine[i], results[0][i])).toBe(true)
  })
})
