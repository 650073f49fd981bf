// Densities diffused in lockstep (lockstepPcg.ts, SPMV_MULTI) against each system solved alone
// by core/pcg.ts PcgSolver with the same operator and Jacobi preconditioner: the same solution
// bits and the same figures, on TypeScript and 1-3 WebAssembly threads, with one right-hand
// side zero (done before the first product), with guesses of every quality, and with an
// iteration cap that stops them unconverged. Then SurfaceFluid.diffuseAll against diffuse, with
// either solver.
import { describe, expect, it } from 'vitest'
import { buildLimitSurface } from '../../../../src-shared/geometry/catmullClarkEval'
import { buildPatchAtlas } from '../../../../src-shared/geometry/patchAtlas'
import { sphereLikeCage } from '../../../../src-shared/geometry/voxelCages'
import type { KernelBackend } from '../../../../src-shared/sim/core/kernelTypes'
import { PcgSolver, type Preconditioner } from '../../../../src-shared/sim/core/pcg'
import { CsrOperator, SparseVectorOps } from '../../../../src-shared/sim/core/sparse/ops'
import { SCALE_BLOCKS, SPARSE_BLOCK } from '../../../../src-shared/sim/core/sparse/rows'
import { LockstepPcg } from '../../../../src-shared/sim/surface/lockstepPcg'
import { SurfaceDiffusionSystems } from '../../../../src-shared/sim/surface/surfaceDiffusion'
import { SurfaceFluid } from '../../../../src-shared/sim/surface/surfaceFluid'
import { everyBackendOfFile, rng, sameBits } from '../everyBackend'

/** Jacobi's z = D^-1 r, as the lockstep solve applies it (invDiag in the kernels' memory). */
function jacobi(invDiag: Float64Array, kernels: KernelBackend): Preconditioner {
  return { apply: (r, z) => kernels.run(SCALE_BLOCKS, z, invDiag, r, invDiag.length, SPARSE_BLOCK) }
}

const S = buildLimitSurface(sphereLikeCage())
const atlas = buildPatchAtlas(S.faces)

describe('lockstep diffusion solves', () => {
  const backends = everyBackendOfFile()

  it.each(backends)('give each system the bits and figures of solving it alone: %s', (_name, k) => {
    const fl = new SurfaceFluid(S, atlas, { N: 6, densities: 1, kernels: k })
    const { grid, metric, projection } = fl
    const n = projection.A.n
    const areaOf = new Float64Array(n)
    for (let p = 0; p < grid.P; p++) for (let j = 0; j < grid.N; j++) for (let i = 0; i < grid.N; i++) areaOf[grid.unknown(p, i, j)] = metric.cells.sqrtG[grid.cell(p, i, j)]
    const sys = new SurfaceDiffusionSystems(projection.A, areaOf, grid.h, k).get(0.05, 1 / 30)
    const r = rng(21)
    const count = 3
    for (const maxIterations of [500, 3]) {
      const b = k.f64(count * n), x = k.f64(count * n)
      for (let d = 0; d < count; d++) for (let u = 0; u < n; u++) {
        // System 1's right-hand side is zero; system 2 starts from a guess far worse than zero.
        b[d * n + u] = d === 1 ? 0 : r()
        x[d * n + u] = d === 2 ? 100 * (r() - 0.5) : r()
      }
      const alone = Float64Array.from(x)
      const single = new PcgSolver(new SparseVectorOps(n, k))
      const op = new CsrOperator(sys.A, k), pre = jacobi(sys.invDiag, k)
      const want = [0, 1, 2].map((d) => {
        const bd = k.f64(n), xd = k.f64(n)
        bd.set(b.subarray(d * n, (d + 1) * n))
        xd.set(alone.subarray(d * n, (d + 1) * n))
        const st = single.solve(op, pre, bd, xd, { tolerance: 1e-8, maxIterations })
        return { st, x: Float64Array.from(xd) }
      })
      const got = new LockstepPcg(n, count, k).solve(sys.A, sys.invDiag, b, x, 1e-8, maxIterations)
      for (let d = 0; d < count; d++) {
        expect(sameBits(x.subarray(d * n, (d + 1) * n), want[d].x)).toBe(true)
        expect(got[d]).toEqual(want[d].st)
      }
      expect(got[1].iterations).toBe(0)
      if (maxIterations === 3) expect(got[0].converged).toBe(false)
      else expect(got[0].converged && got[2].converged).toBe(true)
    }
  })

  // Both of SurfaceFluid's diffusion solvers: this file's float64 lockstep (the default at this
  // size) and the float32 refinement (refinedDiffusion.ts, forced by refinedDiffusionFrom 0).
  it.each(backends.flatMap(([name, k]) => [[`${name}, float64 lockstep`, k, undefined], [`${name}, float32 refinement`, k, 0]] as const))('SurfaceFluid.diffuseAll is diffuse on each density, bit for bit: %s', (_name, k, refinedDiffusionFrom) => {
    const make = () => {
      const fl = new SurfaceFluid(S, atlas, { N: 6, densities: 3, kernels: k, refinedDiffusionFrom })
      const r = rng(5)
      for (const s of fl.density) {
        for (let c = 0; c < s.length; c++) s[c] = r()
        fl.grid.fillScalar(s)
      }
      return fl
    }
    const a = make(), b = make()
    a.diffuseAll(0.02, 1 / 24)
    for (let d = 0; d < 3; d++) b.diffuse(d, 0.02, 1 / 24)
    for (let d = 0; d < 3; d++) expect(sameBits(a.density[d], b.density[d])).toBe(true)
  })
})
