// The metric of a Catmull-Clark surface at every grid sample of every patch (Stam 2003 eqs.
// 9-11), computed once per surface and resolution from the exact limit evaluation
// (catmullClarkEval.ts):
//   g_ij = (d y / d x_i) . (d y / d x_j),  g = det(g_ij) = g_11 g_22 - g_12^2,
//   g^11 = g_22 / g,  g^12 = -g_12 / g,  g^22 = g_11 / g.
// Samples: cell centres (scalars), x-faces and y-faces (the MAC fluxes), and grid nodes (the
// mixed terms of the Laplacian). With `flat`, every sample gets the identity metric: the
// solver then treats each parameter square as a flat unit square, as a solver that ignores
// the parametrisation would (the paper's Figure 3), for comparison.
import { evaluateLimit, type LimitSurface } from '../../geometry/catmullClarkEval'
import { TS_KERNELS } from '../core/kernelBackend'
import type { KernelAllocator } from '../core/kernelTypes'
import type { SurfaceGrid } from './surfaceGrid'

/** sqrt(g), g^11, g^12, g^22 per sample, and the tangents d y/d x_1, d y/d x_2 (3 each). */
export interface MetricSamples {
  readonly sqrtG: Float64Array
  readonly g11: Float64Array
  readonly g12: Float64Array
  readonly g22: Float64Array
  readonly du: Float64Array
  readonly dv: Float64Array
}

export interface SurfaceMetric {
  readonly cells: MetricSamples
  readonly xFaces: MetricSamples
  readonly yFaces: MetricSamples
  /** Nodes (i, j), i, j in [0, N]: p (N+1)^2 + i + (N+1) j. No tangents (du, dv empty). */
  readonly nodes: MetricSamples
  /** Limit positions at the cell centres (3 per cell, cell layout), for drawing and tests. */
  readonly positions: Float64Array
}

function samples(n: number, tangents: boolean, alloc: KernelAllocator): MetricSamples {
  return {
    sqrtG: alloc.f64(n), g11: alloc.f64(n), g12: alloc.f64(n), g22: alloc.f64(n),
    du: alloc.f64(tangents ? 3 * n : 0), dv: alloc.f64(tangents ? 3 * n : 0),
  }
}

/** Writes sample k from the limit derivatives at (p, u, v); returns false where they are undefined (an extraordinary vertex). */
function put(s: MetricSamples, k: number, du: ArrayLike<number>, dv: ArrayLike<number>, flat: boolean): boolean {
  if (s.du.length) for (let c = 0; c < 3; c++) { s.du[3 * k + c] = du[c]; s.dv[3 * k + c] = dv[c] }
  if (flat) {
    s.sqrtG[k] = 1; s.g11[k] = 1; s.g12[k] = 0; s.g22[k] = 1
    return true
  }
  const a = du[0] * du[0] + du[1] * du[1] + du[2] * du[2]
  const b = du[0] * dv[0] + du[1] * dv[1] + du[2] * dv[2]
  const c = dv[0] * dv[0] + dv[1] * dv[1] + dv[2] * dv[2]
  const g = a * c - b * b
  if (!(g > 0)) return false
  s.sqrtG[k] = Math.sqrt(g)
  s.g11[k] = c / g
  s.g12[k] = -b / g
  s.g22[k] = a / g
  return true
}

/** alloc: where the samples live (a solver's kernels, whose rows read them; default plain arrays). */
export function computeMetric(surface: LimitSurface, grid: SurfaceGrid, flat = false, alloc: KernelAllocator = TS_KERNELS): SurfaceMetric {
  const { N, P, h } = grid
  const cells = samples(P * grid.cellBlock, true, alloc)
  const xFaces = samples(P * grid.xBlock, true, alloc)
  const yFaces = samples(P * grid.yBlock, true, alloc)
  const nodes = samples(P * (N + 1) * (N + 1), false, alloc)
  const positions = new Float64Array(3 * P * grid.cellBlock)
  for (let p = 0; p < P; p++) {
    for (let j = 0; j < N; j++) for (let i = 0; i < N; i++) {
      const s = evaluateLimit(surface, p, (i + 0.5) * h, (j + 0.5) * h)
      const k = grid.cell(p, i, j)
      put(cells, k, s.du, s.dv, flat)
      positions.set(s.position, 3 * k)
    }
    for (let j = 0; j < N; j++) for (let i = 0; i <= N; i++) {
      const s = evaluateLimit(surface, p, i * h, (j + 0.5) * h)
      put(xFaces, grid.xFace(p, i, j), s.du, s.dv, flat)
    }
    for (let j = 0; j <= N; j++) for (let i = 0; i < N; i++) {
      const s = evaluateLimit(surface, p, (i + 0.5) * h, j * h)
      put(yFaces, grid.yFace(p, i, j), s.du, s.dv, flat)
    }
    for (let j = 0; j <= N; j++) for (let i = 0; i <= N; i++) {
      const k = p * (N + 1) * (N + 1) + i + (N + 1) * j
      const s = evaluateLimit(surface, p, i * h, j * h)
      // At an extraordinary vertex the derivatives are undefined: no mixed term there (the
      // projection drops the patch-corner nodes anyway).
      if (!put(nodes, k, s.du, s.dv, flat)) { nodes.sqrtG[k] = 0; nodes.g11[k] = 0; nodes.g12[k] = 0; nodes.g22[k] = 0 }
    }
  }
  return { cells, xFaces, yFaces, nodes, positions }
}
