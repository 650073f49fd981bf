// Matrices and measures shared by the algebraic multigrid tests (amg.test.ts,
// amgAggregation.test.ts): a deterministic random stream, weighted graph Laplacians (3D 7-point
// with random weights, 2D 5-point, closed 3D), the closed operator PCG needs, and the V-cycle's
// convergence factor.
import type { AmgHierarchy } from '../../../src-shared/sim/core/amg/amgHierarchy'
import { TS_KERNELS } from '../../../src-shared/sim/core/kernelBackend'
import type { KernelBackend } from '../../../src-shared/sim/core/kernelTypes'
import type { LinearOperator } from '../../../src-shared/sim/core/pcg'
import { type CsrMatrix, csrFromTriplets } from '../../../src-shared/sim/core/sparse/csr'
import { CsrOperator, spResidual } from '../../../src-shared/sim/core/sparse/ops'

export function rng(seed: number): () => number {
  let s = seed >>> 0
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0
    return s / 4294967296
  }
}

export function randVec(n: number, seed: number, alloc: (m: number) => Float64Array = (m) => new Float64Array(m)): Float64Array {
  const r = rng(seed)
  const v = alloc(n)
  for (let i = 0; i < n; i++) v[i] = r() - 0.5
  return v
}

export function dot(a: Float64Array, b: Float64Array): number {
  let s = 0
  for (let i = 0; i < a.length; i++) s += a[i] * b[i]
  return s
}

export const norm = (a: Float64Array) => Math.sqrt(dot(a, a))

/** A weighted graph Laplacian: edge (a, b) of weight w, plus wall[i] on the diagonal (Dirichlet walls; 0 = closed). */
export function graphLaplacian(n: number, edges: number[], weights: number[], wall: Float64Array): CsrMatrix {
  const rows: number[] = []
  const cols: number[] = []
  const vals: number[] = []
  for (let e = 0; e < weights.length; e++) {
    const a = edges[2 * e]
    const b = edges[2 * e + 1]
    const w = weights[e]
    rows.push(a, b, a, b)
    cols.push(a, b, b, a)
    vals.push(w, w, -w, -w)
  }
  for (let i = 0; i < n; i++)
    if (wall[i] !== 0) {
      rows.push(i)
      cols.push(i)
      vals.push(wall[i])
    }
  return csrFromTriplets(n, n, rows, cols, vals)
}

/**
 * An m^3 grid Laplacian with edge weights e^u, u uniform in [-1, 1] (a stand-in for a
 * tetrahedral mesh's face weights A_f / d_f), walls of weight 1 (Dirichlet) unless closed.
 */
export function randomWeights3d(m: number, seed: number, closed = false): CsrMatrix {
  const r = rng(seed)
  const edges = gridEdges3d(m)
  const weights = Array.from({ length: edges.length / 2 }, () => Math.exp(2 * r() - 1))
  const wall = new Float64Array(m * m * m)
  if (!closed)
    for (let k = 0; k < m; k++)
      for (let j = 0; j < m; j++)
        for (let i = 0; i < m; i++) wall[i + m * (j + m * k)] = (i === 0 ? 1 : 0) + (i === m - 1 ? 1 : 0) + (j === 0 ? 1 : 0) + (j === m - 1 ? 1 : 0) + (k === 0 ? 1 : 0) + (k === m - 1 ? 1 : 0)
  return graphLaplacian(m * m * m, edges, weights, wall)
}

/** The edges of an m^3 grid's 7-point graph: each cell's +x, +y, +z neighbours, cells in order. */
function gridEdges3d(m: number): number[] {
  const edges: number[] = []
  for (let k = 0; k < m; k++)
    for (let j = 0; j < m; j++)
      for (let i = 0; i < m; i++) {
        const c = i + m * (j + m * k)
        if (i + 1 < m) edges.push(c, c + 1)
        if (j + 1 < m) edges.push(c, c + m)
        if (k + 1 < m) edges.push(c, c + m * m)
      }
  return edges
}

/** The 5-point Dirichlet Poisson matrix of an m x m grid (diagonal 4). */
export function poisson2d(m: number): CsrMatrix {
  const n = m * m
  const edges: number[] = []
  const wall = new Float64Array(n)
  for (let j = 0; j < m; j++)
    for (let i = 0; i < m; i++) {
      const c = i + m * j
      if (i + 1 < m) edges.push(c, c + 1)
      if (j + 1 < m) edges.push(c, c + m)
      wall[c] = (i === 0 ? 1 : 0) + (i === m - 1 ? 1 : 0) + (j === 0 ? 1 : 0) + (j === m - 1 ? 1 : 0)
    }
  return graphLaplacian(n, edges, new Array<number>(edges.length / 2).fill(1), wall)
}

/** The closed (pure Neumann) 7-point Laplacian of an m^3 grid: singular, A 1 = 0. */
export function neumann3d(m: number): CsrMatrix {
  const edges = gridEdges3d(m)
  return graphLaplacian(m * m * m, edges, new Array<number>(edges.length / 2).fill(1), new Float64Array(m * m * m))
}

/** The closed Laplacian as PCG's operator: constants removed from residuals (as surfaceProjection's). */
export class ClosedOperator implements LinearOperator {
  private readonly csr: CsrOperator
  constructor(A: CsrMatrix, kernels: KernelBackend = TS_KERNELS) {
    this.csr = new CsrOperator(A, kernels)
  }
  apply(x: Float64Array, out: Float64Array): void {
    this.csr.apply(x, out)
  }
  residual(b: Float64Array, x: Float64Array, r: Float64Array): void {
    this.csr.residual(b, x, r)
  }
  removeNullSpace(v: Float64Array): void {
    let s = 0
    for (let i = 0; i < v.length; i++) s += v[i]
    s /= v.length
    for (let i = 0; i < v.length; i++) v[i] -= s
  }
}

/**
 * The V-cycle's convergence factor: stationary cycles x <- VCYCLE(x, 0) from a random x,
 * the geometric mean of the residual ratios over cycles 3..8, (|r_8| / |r_2|)^(1/6).
 */
export function convergenceFactor(h: AmgHierarchy, A: CsrMatrix, seed = 7): number {
  const x = randVec(A.n, seed)
  const b = new Float64Array(A.n)
  const r = new Float64Array(A.n)
  const norms: number[] = []
  for (let c = 0; c <= 8; c++) {
    spResidual(TS_KERNELS, A, x, b, r)
    norms.push(norm(r))
    if (c < 8) h.vcycle(x, b)
  }
  return (norms[8] / norms[2]) ** (1 / 6)
}
