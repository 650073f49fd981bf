// The diffusions' float64 refinement of float32 solves (refinedDiffusion.ts): every system
// reaches the float64 tolerance (its true residual, recomputed here), its solution agrees with
// float64 Jacobi-CG's (lockstepPcg.ts) to what that tolerance allows, the bits are the same on
// TypeScript and 1-3 WebAssembly threads, a zero right-hand side gives zero, a guess far worse
// than zero still converges, and an iteration cap stops a solve unconverged and says so
// (lockstepPcg.test.ts compares SurfaceFluid's diffuseAll with diffuse on both solvers). The
// system's float32 planes are its float64 entries rounded (surfaceDiffusion.ts fill).
import { describe, expect, it } from 'vitest'
import { buildLimitSurface } from '../../../../src-shared/geometry/catmullClarkEval'
import { buildPatchAtlas } from '../../../../src-shared/geometry/patchAtlas'
import { sphereLikeCage } from '../../../../src-shared/geometry/voxelCages'
import { residualRows, spmvRows } from '../../../../src-shared/sim/core/sparse/kernels'
import { stencil32Spmv } from '../../../../src-shared/sim/surface/patchStencil32'
import { LockstepPcg } from '../../../../src-shared/sim/surface/lockstepPcg'
import { RefinedDiffusion } from '../../../../src-shared/sim/surface/refinedDiffusion'
import { SurfaceDiffusionSystems } from '../../../../src-shared/sim/surface/surfaceDiffusion'
import { SurfaceFluid } from '../../../../src-shared/sim/surface/surfaceFluid'
import { everyBackendOfFile, rng, sameBits } from '../everyBackend'

const S = buildLimitSurface(sphereLikeCage())
const atlas = buildPatchAtlas(S.faces)
const norm = (a: ArrayLike<number>) => Math.sqrt(Array.from(a).reduce((s, v) => s + v * v, 0))

describe('refined diffusion solves', () => {
  const backends = everyBackendOfFile()
  const results: Float64Array[] = []

  it.each(backends)('reach the float64 tolerance, agree with float64 CG, and give the same bits everywhere: %s', (_name, k) => {
    const fl = new SurfaceFluid(S, atlas, { N: 8, densities: 1, kernels: k })
    const { grid, metric, projection } = fl
    const n = projection.A.n
    const areaOf = new Float64Array(n)
    for (let p = 0; p < grid.P; p++) for (let j = 0; j < grid.N; j++) for (let i = 0; i < grid.N; i++) areaOf[grid.unknown(p, i, j)] = metric.cells.sqrtG[grid.cell(p, i, j)]
    const sys = new SurfaceDiffusionSystems(projection.A, areaOf, grid.h, k, projection.pre.finestStencil, 0).get(0.05, 1 / 30)
    const single = sys.single
    expect(single).not.toBeNull()
    if (!single) return
    // The float32 planes are the float64 matrix rounded: their product is A's to float32 rounding.
    const x32 = k.f32(n), y32 = k.f32(n), x64 = new Float64Array(n), y64 = new Float64Array(n)
    const r = rng(3)
    for (let u = 0; u < n; u++) x64[u] = x32[u] = Math.fround(r() - 0.5)
    stencil32Spmv(k, single.A32, x32, y32)
    spmvRows(sys.A.rowPtr, sys.A.col, sys.A.val, x64, y64, 0, n)
    let err = 0
    for (let u = 0; u < n; u++) err = Math.max(err, Math.abs(y32[u] - y64[u]))
    expect(err).toBeLessThan(1e-5 * norm(y64) / Math.sqrt(n) + 1e-6)

    const count = 4, tolerance = 1e-6
    const b = k.f64(count * n), x = k.f64(count * n)
    for (let d = 0; d < count; d++) for (let u = 0; u < n; u++) {
      // System 1's right-hand side is zero; system 2 starts from a guess far worse than zero.
      b[d * n + u] = d === 1 ? 0 : r()
      x[d * n + u] = d === 2 ? 100 * (r() - 0.5) : d === 3 ? 0 : r()
    }
    const x0 = Float64Array.from(x)
    const got = new RefinedDiffusion(n, count, k).solve(sys.A, single.A32, single.invDiag32, b, x, tolerance, 500)
    const cg = k.f64(count * n)
    cg.set(x0)
    new LockstepPcg(n, count, k).solve(sys.A, sys.invDiag, b, cg, tolerance, 500)
    for (let d = 0; d < count; d++) {
      const bd = b.subarray(d * n, (d + 1) * n), xd = x.subarray(d * n, (d + 1) * n)
      if (d === 1) {
        expect(got[d]).toEqual({ iterations: 0, residual: 0, converged: true })
        expect(xd.every((v) => v === 0)).toBe(true)
        continue
      }
      const res = new Float64Array(n)
      residualRows(sys.A.rowPtr, sys.A.col, sys.A.val, xd, bd, res, 0, n)
      expect(got[d].converged).toBe(true)
      expect(norm(res)).toBeLessThanOrEqual(tolerance * norm(bd))
      expect(got[d].residual).toBeCloseTo(norm(res) / norm(bd), 12)
      expect(got[d].iterations).toBeGreaterThan(0)
      // Two solutions whose residuals are within 1e-6 of b: within a few 1e-6 of each other here.
      let diff = 0
      for (let u = 0; u < n; u++) diff = Math.max(diff, Math.abs(xd[u] - cg[d * n + u]))
      expect(diff).toBeLessThan(1e-4 * Math.max(...Array.from(cg.subarray(d * n, (d + 1) * n), Math.abs)))
    }
    results.push(Float64Array.from(x))
    expect(sameBits(results[results.length - 1], results[0])).toBe(true)

    // An iteration cap stops it unconverged and says so.
    x.set(x0)
    const capped = new RefinedDiffusion(n, count, k).solve(sys.A, single.A32, single.invDiag32, b, x, 1e-12, 2)
    expect(capped[0].converged).toBe(false)
    expect(capped[0].iterations).toBe(2)
  })
})
