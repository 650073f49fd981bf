// The surface projection's multigrid V-cycle (surfaceMultigrid.ts: damped Jacobi on every level
// but the coarsest) is a symmetric positive definite map, as PCG needs: <a, M b> = <b, M a> to
// float32 rounding (the stencil levels work in float32: 1e-6 relative, where a float64 cycle
// met 1e-10 and an unsymmetric one, such as Gauss-Seidel one way, misses by far more) and
// <a, M a> > 0 for random a and b, on a sphere-like cube cage and on a block of
// cubes whose concave edges bend the metric (mixed terms, positive off-diagonals). The finest
// level works in the caller's vectors: r is left as it was and z's old content plays no part,
// for any number of sweeps a side and either cycle.
import { describe, expect, it } from 'vitest'
import { buildLimitSurface } from '../../../../src-shared/geometry/catmullClarkEval'
import { buildPatchAtlas } from '../../../../src-shared/geometry/patchAtlas'
import { sphereLikeCage, voxelCage } from '../../../../src-shared/geometry/voxelCages'
import { Prng } from '../../../../src-shared/sim/core/prng'
import { SurfaceFluid } from '../../../../src-shared/sim/surface/surfaceFluid'
import { SurfaceMultigrid } from '../../../../src-shared/sim/surface/surfaceMultigrid'

/** <a, M b> - <b, M a> allowed, relative: float32's rounding (2^-24 = 6e-8) over a cycle's few dozen operations a row. */
const SYMMETRY = 1e-6

const dot = (a: Float64Array, b: Float64Array) => a.reduce((s, v, i) => s + v * b[i], 0)

describe('surface multigrid preconditioner', () => {
  const cages = {
    'sphere-like cube': sphereLikeCage(),
    'L-shaped block of cubes': voxelCage([[0, 0, 0], [1, 0, 0], [0, 1, 0]], 1 / 3),
  }
  for (const [name, cage] of Object.entries(cages)) {
    it(`is symmetric and positive on ${name}`, () => {
      const S = buildLimitSurface(cage)
      const fl = new SurfaceFluid(S, buildPatchAtlas(S.faces), { N: 8, densities: 1 })
      const pre = fl.projection.pre
      const n = fl.projection.A.n
      const prng = new Prng(4)
      for (let trial = 0; trial < 3; trial++) {
        const a = new Float64Array(n), b = new Float64Array(n), Ma = new Float64Array(n), Mb = new Float64Array(n)
        for (let i = 0; i < n; i++) (a[i] = prng.range(-1, 1)), (b[i] = prng.range(-1, 1))
        pre.apply(a, Ma)
        pre.apply(b, Mb)
        const ab = dot(a, Mb), ba = dot(b, Ma)
        expect(Math.abs(ab - ba)).toBeLessThan(SYMMETRY * Math.sqrt(dot(a, Ma) * dot(b, Mb)))
        expect(dot(a, Ma)).toBeGreaterThan(0)
      }
    })
  }

  it('reads r without writing it and ignores what z held, for 1-4 sweeps a side on the finest level and 1-2 below, V and W cycles', () => {
    const S = buildLimitSurface(cages['L-shaped block of cubes'])
    const fl = new SurfaceFluid(S, buildPatchAtlas(S.faces), { N: 8, densities: 1 })
    const { A } = fl.projection
    const n = A.n
    const prng = new Prng(9)
    for (const [sweeps, coarseSweeps, visits] of [[1, 1, 1], [2, 2, 2], [3, 1, 2], [4, 1, 2], [4, 2, 1]]) {
      const pre = new SurfaceMultigrid(A, fl.grid.P, fl.grid.N, undefined, 2, sweeps, 10, visits, coarseSweeps)
      const a = new Float64Array(n), b = new Float64Array(n)
      for (let i = 0; i < n; i++) (a[i] = prng.range(-1, 1)), (b[i] = prng.range(-1, 1))
      const a0 = Float64Array.from(a)
      const Ma = new Float64Array(n), Mb = new Float64Array(n)
      pre.apply(a, Ma)
      pre.apply(b, Mb)
      expect(Array.from(a)).toEqual(Array.from(a0))
      const again = new Float64Array(n).fill(Number.NaN)
      pre.apply(a, again)
      expect(Array.from(again)).toEqual(Array.from(Ma))
      const ab = dot(a, Mb), ba = dot(b, Ma)
      expect(Math.abs(ab - ba)).toBeLessThan(SYMMETRY * Math.sqrt(dot(a, Ma) * dot(b, Mb)))
      expect(dot(a, Ma)).toBeGreaterThan(0)
    }
  })
})
