// Surface-flow test scenes: cages, world winds made tangent, blobs.
import { buildLimitSurface, evaluateLimit } from '../../../src-shared/geometry/catmullClarkEval'
import type { PolyMesh } from '../../../src-shared/geometry/catmullClark'
import { buildPatchAtlas } from '../../../src-shared/geometry/patchAtlas'
import { SurfaceFluid } from '../../../src-shared/sim/surface/surfaceFluid'
import { wasmKernels } from '../bakeKernels'

/**
 * A surface fluid on the cage's limit surface, on the kernels a bake runs it on (WebAssembly,
 * this test's thread alone: the bits of the TypeScript reference, tests/unit/sim/surface).
 */
export function fluidOn(cage: PolyMesh, N: number, flatMetric = false, refinedDiffusionFrom?: number): SurfaceFluid {
  const S = buildLimitSurface(cage)
  return new SurfaceFluid(S, buildPatchAtlas(S.faces), { N, densities: 1, flatMetric, refinedDiffusionFrom, kernels: wasmKernels().kernels })
}

/** Sets the flux field to the tangent part of the world velocity wind + spin x position at each face. */
export function setWorldWind(fl: SurfaceFluid, wind: readonly [number, number, number], spin: readonly [number, number, number] = [0, 0, 0]): void {
  const g = fl.grid, N = g.N
  for (const a of [1, 2] as const) {
    const S = a === 1 ? fl.metric.xFaces : fl.metric.yFaces
    const F = a === 1 ? fl.fx : fl.fy
    for (let p = 0; p < g.P; p++) for (let j = 0; j < N + (a === 2 ? 1 : 0); j++) for (let i = 0; i < N + (a === 1 ? 1 : 0); i++) {
      const f = a === 1 ? g.xFace(p, i, j) : g.yFace(p, i, j)
      const du = S.du.subarray(3 * f, 3 * f + 3), dv = S.dv.subarray(3 * f, 3 * f + 3)
      const x = evaluateLimit(fl.surface, p, a === 1 ? i / N : (i + 0.5) / N, a === 1 ? (j + 0.5) / N : j / N).position
      const w = [wind[0] + spin[1] * x[2] - spin[2] * x[1], wind[1] + spin[2] * x[0] - spin[0] * x[2], wind[2] + spin[0] * x[1] - spin[1] * x[0]]
      const c1 = w[0] * du[0] + w[1] * du[1] + w[2] * du[2], c2 = w[0] * dv[0] + w[1] * dv[1] + w[2] * dv[2]
      const u = a === 1 ? S.g11[f] * c1 + S.g12[f] * c2 : S.g12[f] * c1 + S.g22[f] * c2
      F[f] = S.sqrtG[f] * u
    }
  }
}

/** density(x) = exp(-|x - c|^2 / r^2) at every cell centre. */
export function setBlob(fl: SurfaceFluid, c: readonly number[], r: number): void {
  const g = fl.grid, N = g.N, s = fl.density[0]
  for (let p = 0; p < g.P; p++) for (let j = 0; j < N; j++) for (let i = 0; i < N; i++) {
    const k = g.cell(p, i, j)
    const x = fl.metric.positions.subarray(3 * k, 3 * k + 3)
    s[k] = Math.exp(-((x[0] - c[0]) ** 2 + (x[1] - c[1]) ** 2 + (x[2] - c[2]) ** 2) / (r * r))
  }
  g.fillScalar(s)
}

/** Density-weighted mean position of the blob. */
export function centroid(fl: SurfaceFluid): [number, number, number] {
  const g = fl.grid, N = g.N, s = fl.density[0]
  const c = [0, 0, 0]
  let m = 0
  for (let p = 0; p < g.P; p++) for (let j = 0; j < N; j++) for (let i = 0; i < N; i++) {
    const k = g.cell(p, i, j)
    const w = s[k] * fl.metric.cells.sqrtG[k]
    m += w
    for (let d = 0; d < 3; d++) c[d] += w * fl.metric.positions[3 * k + d]
  }
  return [c[0] / m, c[1] / m, c[2] / m]
}

/** max |div u| over the cells, with the true metric, for flux densities fx, fy given in `fl`'s (possibly flat) metric. */
export function trueDivergence(truth: SurfaceFluid, fl: SurfaceFluid): number {
  const g = truth.grid, N = g.N
  // u on the faces from fl, then fluxes with the true sqrt(g).
  const fx = g.newXFaces(), fy = g.newYFaces()
  for (let f = 0; f < fx.length; f++) if (fl.metric.xFaces.sqrtG[f] > 0) fx[f] = (fl.fx[f] / fl.metric.xFaces.sqrtG[f]) * truth.metric.xFaces.sqrtG[f]
  for (let f = 0; f < fy.length; f++) if (fl.metric.yFaces.sqrtG[f] > 0) fy[f] = (fl.fy[f] / fl.metric.yFaces.sqrtG[f]) * truth.metric.yFaces.sqrtG[f]
  const d = new Float64Array(g.P * N * N)
  truth.projection.divergence(fx, fy, d)
  let worst = 0
  for (let p = 0; p < g.P; p++) for (let j = 0; j < N; j++) for (let i = 0; i < N; i++) {
    // div u = (net outflux) / (sqrt(g) h^2)
    const v = Math.abs(d[g.unknown(p, i, j)]) / (truth.metric.cells.sqrtG[g.cell(p, i, j)] * g.h * g.h)
    if (v > worst) worst = v
  }
  return worst
}
