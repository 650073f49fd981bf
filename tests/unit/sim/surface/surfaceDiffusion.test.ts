// The surface's diffusion systems (surfaceDiffusion.ts) refilled in place for each rate and
// step: the same matrix, bit for bit, as assembling sqrt(g) + k dt L / h^2 from triplets, for
// more (rate, step) pairs than are kept (so the oldest is refilled), and a repeated pair finds
// its system again instead of refilling one; the Jacobi preconditioner follows the refills.
import { describe, expect, it } from 'vitest'
import { buildLimitSurface } from '../../../../src-shared/geometry/catmullClarkEval'
import { buildPatchAtlas } from '../../../../src-shared/geometry/patchAtlas'
import { sphereLikeCage } from '../../../../src-shared/geometry/voxelCages'
import { csrFromTriplets, type CsrMatrix } from '../../../../src-shared/sim/core/sparse/csr'
import { SurfaceDiffusionSystems } from '../../../../src-shared/sim/surface/surfaceDiffusion'
import { SurfaceFluid } from '../../../../src-shared/sim/surface/surfaceFluid'

function assembled(L: CsrMatrix, areaOf: Float64Array, h: number, k: number, dt: number): CsrMatrix {
  const rows: number[] = [], cols: number[] = [], vals: number[] = []
  for (let r = 0; r < L.n; r++) for (let q = L.rowPtr[r]; q < L.rowPtr[r + 1]; q++) rows.push(r), cols.push(L.col[q]), vals.push((k * dt * L.val[q]) / (h * h))
  for (let u = 0; u < L.n; u++) rows.push(u), cols.push(u), vals.push(areaOf[u])
  return csrFromTriplets(L.n, L.n, rows, cols, vals)
}

describe('surface diffusion systems', () => {
  it('equal the assembled sqrt(g) + k dt L / h^2 bit for bit, refilled for new rates and steps', () => {
    const S = buildLimitSurface(sphereLikeCage())
    const fl = new SurfaceFluid(S, buildPatchAtlas(S.faces), { N: 4, densities: 1 })
    const { grid, metric, projection } = fl
    const areaOf = new Float64Array(projection.A.n)
    for (let p = 0; p < grid.P; p++) for (let j = 0; j < grid.N; j++) for (let i = 0; i < grid.N; i++) areaOf[grid.unknown(p, i, j)] = metric.cells.sqrtG[grid.cell(p, i, j)]
    const systems = new SurfaceDiffusionSystems(projection.A, areaOf, grid.h)
    const pairs = [[1e-4, 1 / 30], [2e-3, 1 / 30], [1e-4, 0.021], [0.5, 0.013], [3e-5, 1 / 24], [1e-4, 1 / 30]]
    for (const [k, dt] of pairs) {
      const got = (systems.get(k, dt).op as unknown as { A: CsrMatrix }).A
      const want = assembled(projection.A, areaOf, grid.h, k, dt)
      expect(Array.from(got.rowPtr)).toEqual(Array.from(want.rowPtr))
      expect(Array.from(got.col)).toEqual(Array.from(want.col))
      expect(Array.from(got.val)).toEqual(Array.from(want.val))
      // Its preconditioner is the inverse diagonal of these values.
      const r = new Float64Array(got.n).fill(1), z = new Float64Array(got.n)
      systems.get(k, dt).pre.apply(r, z)
      for (let u = 0; u < got.n; u++) for (let q = want.rowPtr[u]; q < want.rowPtr[u + 1]; q++) if (want.col[q] === u) expect(z[u]).toBe(1 / want.val[q])
    }
    // Asked again while still kept: the same system object.
    expect(systems.get(0.5, 0.013)).toBe(systems.get(0.5, 0.013))
  })
})
