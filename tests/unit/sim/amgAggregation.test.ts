// Smoothed aggregation (src-shared/sim/core/amg/aggregation.ts; AmgOptions.coarsening =
// 'aggregation'), checked by amount: the aggregates partition the coupled variables into
// connected pieces of about a root and its neighbours; P is (I - omega D^-1 A) T entry by entry
// against a dense computation, and carries constants on a closed system; the V-cycle's factor on
// 3D Poisson, random-weight and tetrahedral pressure matrices from 10k to 400k unknowns;
// AMG-CG on a closed system; and the same bits on 1 and 3 WebAssembly threads as on TypeScript.
import { afterAll, describe, expect, it } from 'vitest'
import { PrimitiveSdf } from '../../../src-shared/geometry/primitiveSdf'
import { stuffIsosurface } from '../../../src-shared/geometry/tetmesh/stuffing'
import { greedyAggregates, jacobiRadiusBound, smoothedAggregationProlongation } from '../../../src-shared/sim/core/amg/aggregation'
import { AmgHierarchy, AmgPreconditioner } from '../../../src-shared/sim/core/amg/amgHierarchy'
import { TS_KERNELS } from '../../../src-shared/sim/core/kernelBackend'
import type { KernelBackend } from '../../../src-shared/sim/core/kernelTypes'
import { PcgSolver } from '../../../src-shared/sim/core/pcg'
import { copyCsr, type CsrMatrix, csrFromTriplets, nnzOf, poisson3d } from '../../../src-shared/sim/core/sparse/csr'
import { CsrOperator, SparseVectorOps, spResidual } from '../../../src-shared/sim/core/sparse/ops'
import { computeTetGeometry } from '../../../src-shared/sim/core/tetfv/tetGeometry'
import { TetProjection } from '../../../src-shared/sim/core/tetfv/tetProjection'
import { buildTetTopology } from '../../../src-shared/sim/core/tetfv/tetTopology'
import { createKernelBackend } from '../../../src-main/sim/workerPool'
import { ClosedOperator, convergenceFactor, neumann3d, norm, randomWeights3d, randVec } from './amgMatrices'

const backends: KernelBackend[] = []
afterAll(async () => {
  for (const k of backends) await k.dispose()
})

/** The free-surface pressure matrix of the ball's uniform tetrahedral mesh at lattice spacing h. */
function ballMatrix(h: number): CsrMatrix {
  const ball = new PrimitiveSdf('sphere', { position: [0, 0, 0], rotation: [0, 0, 0], scale: [2, 2, 2] })
  const m = stuffIsosurface((x, y, z) => ball.distance(x, y, z), { spacing: h, bounds: { min: [-1.1, -1.1, -1.1], max: [1.1, 1.1, 1.1] }, mode: 'uniform' })
  const topology = buildTetTopology(m.positions, m.tets)
  const geometry = computeTetGeometry(topology, m.positions)
  const open = new Uint8Array(topology.faceCount)
  for (let f = 0; f < topology.faceCount; f++) if (topology.faceTets[2 * f + 1] < 0) open[f] = 1
  return new TetProjection(topology, geometry, { openFaces: open, preconditioner: null }).A
}

const neighbours = (A: CsrMatrix, i: number): number[] => {
  const out: number[] = []
  for (let p = A.rowPtr[i]; p < A.rowPtr[i + 1]; p++) if (A.col[p] !== i && A.val[p] !== 0) out.push(A.col[p])
  return out
}

describe('aggregates (Vaněk et al. 1996, standard aggregation)', () => {
  it('partition the coupled variables into connected aggregates of about a root and its neighbours; an uncoupled variable is in none', () => {
    // 3D 7-point Poisson with one variable cut loose (its row only a diagonal).
    const P7 = poisson3d(16, 16, 16)
    const cut = 1234
    const rows: number[] = [], cols: number[] = [], vals: number[] = []
    for (let i = 0; i < P7.n; i++)
      for (let p = P7.rowPtr[i]; p < P7.rowPtr[i + 1]; p++) {
        const j = P7.col[p]
        if ((i === cut || j === cut) && i !== j) continue
        rows.push(i); cols.push(j); vals.push(P7.val[p])
      }
    const A = csrFromTriplets(P7.n, P7.n, rows, cols, vals)
    const { aggregateOf, count } = greedyAggregates(A)
    expect(aggregateOf[cut]).toBe(-1)
    const members: number[][] = Array.from({ length: count }, () => [])
    for (let i = 0; i < A.n; i++) {
      if (i === cut) continue
      expect(aggregateOf[i]).toBeGreaterThanOrEqual(0)
      expect(aggregateOf[i]).toBeLessThan(count)
      members[aggregateOf[i]].push(i)
    }
    // Connected through A's graph inside the aggregate (a search from its first member).
    for (const m of members) {
      expect(m.length).toBeGreaterThan(0)
      const inside = new Set(m), seen = new Set([m[0]]), stack = [m[0]]
      while (stack.length > 0) for (const j of neighbours(A, stack.pop()!)) if (inside.has(j) && !seen.has(j)) { seen.add(j); stack.push(j) }
      expect(seen.size).toBe(m.length)
    }
    // A root and its six neighbours is 7; joins from phase 2 and small phase-3 pieces move the mean.
    const mean = (A.n - 1) / count
    console.log(`aggregates of 16^3 Poisson: ${count}, mean size ${mean.toFixed(2)}, largest ${Math.max(...members.map((m) => m.length))}`)
    expect(mean).toBeGreaterThan(5)
    expect(mean).toBeLessThan(12)
  })
})

describe('smoothed prolongation P = (I - omega D^-1 A) T', () => {
  it('equals the dense product entry by entry (omega = 4 / (3 rho), rho by Gershgorin), and on a closed system its rows sum to 1 (1e-14)', () => {
    for (const A of [randomWeights3d(7, 21), neumann3d(7)]) {
      const agg = greedyAggregates(A)
      const P = smoothedAggregationProlongation(A, agg)
      const rho = jacobiRadiusBound(A)
      const omega = 4 / (3 * rho)
      const n = A.n, c = agg.count
      // Dense reference: row i of (I - omega D^-1 A) T.
      let worst = 0
      for (let i = 0; i < n; i++) {
        const want = new Float64Array(c)
        let d = 0
        for (let p = A.rowPtr[i]; p < A.rowPtr[i + 1]; p++) if (A.col[p] === i) d = A.val[p]
        if (agg.aggregateOf[i] >= 0) want[agg.aggregateOf[i]] += 1
        for (let p = A.rowPtr[i]; p < A.rowPtr[i + 1]; p++) {
          const a = agg.aggregateOf[A.col[p]]
          if (a >= 0) want[a] -= (omega * A.val[p]) / d
        }
        const got = new Float64Array(c)
        for (let p = P.rowPtr[i]; p < P.rowPtr[i + 1]; p++) {
          if (p > P.rowPtr[i]) expect(P.col[p]).toBeGreaterThan(P.col[p - 1])
          got[P.col[p]] = P.val[p]
        }
        for (let a = 0; a < c; a++) worst = Math.max(worst, Math.abs(got[a] - want[a]))
      }
      expect(worst).toBeLessThan(1e-14)
      expect(P.cols).toBe(c)
    }
    const closed = neumann3d(9)
    const P = smoothedAggregationProlongation(closed, greedyAggregates(closed))
    for (let i = 0; i < P.n; i++) {
      let s = 0
      for (let p = P.rowPtr[i]; p < P.rowPtr[i + 1]; p++) s += P.val[p]
      expect(Math.abs(s - 1)).toBeLessThan(1e-14)
    }
  })
})

describe('smoothed prolongation on the WebAssembly kernels', () => {
  /** P's stored rows as plain arrays (the arrays may carry an unused tail). */
  const rowsOf = (P: CsrMatrix) => {
    const nnz = P.rowPtr[P.n]
    return { rowPtr: Array.from(P.rowPtr), col: Array.from(P.col.subarray(0, nnz)), val: Array.from(P.val.subarray(0, nnz), (v) => Object.is(v, -0) ? '-0' : v) }
  }
  it('gives the TypeScript aggregates and rows to the bit on 1 and 3 threads, rows shortened by an exact zero closed up', () => {
    // A tetrahedral ball, and a random-weight grid where a few rows get a pair of opposite
    // entries into one neighbouring aggregate: their sum is an exact zero that P drops.
    const grid = randomWeights3d(12, 5)
    const { aggregateOf } = greedyAggregates(grid)
    const rows: number[] = [], cols: number[] = [], vals: number[] = []
    let cancelled = 0
    for (let i = 0; i < grid.n; i++) {
      const seen = new Map<number, number>()
      for (let p = grid.rowPtr[i]; p < grid.rowPtr[i + 1]; p++) {
        const j = grid.col[p]
        // Variable 100 cut loose (its row only a diagonal): in no aggregate, its row of P empty.
        if ((i === 100 || j === 100) && i !== j) continue
        let v = grid.val[p]
        const a = aggregateOf[j]
        // The second off-diagonal entry of row i into an aggregate not its own takes minus the first's value.
        if (i % 7 === 0 && j !== i && a !== aggregateOf[i] && seen.has(a)) {
          v = -seen.get(a)!
          cancelled++
        }
        if (j !== i && !seen.has(a)) seen.set(a, v)
        rows.push(i); cols.push(j); vals.push(v)
      }
    }
    expect(cancelled).toBeGreaterThan(10)
    const skewed = csrFromTriplets(grid.n, grid.n, rows, cols, vals)
    for (const A of [ballMatrix(0.1), skewed]) {
      const agg = greedyAggregates(A)
      const want = smoothedAggregationProlongation(A, agg)
      let bound = 0
      for (let i = 0; i < A.n; i++) {
        const s = new Set<number>()
        if (agg.aggregateOf[i] >= 0) s.add(agg.aggregateOf[i])
        for (let p = A.rowPtr[i]; p < A.rowPtr[i + 1]; p++) if (agg.aggregateOf[A.col[p]] >= 0 && A.val[p] !== 0) s.add(agg.aggregateOf[A.col[p]])
        bound += s.size
      }
      if (A === skewed) {
        expect(nnzOf(want)).toBeLessThan(bound)
        expect(agg.aggregateOf[100]).toBe(-1)
      }
      for (const threads of [1, 3]) {
        const k = createKernelBackend('wasm', { threads, minParallelWork: 0, strict: true, initialBytes: 1 << 24 })
        backends.push(k)
        const Ak = copyCsr(A, k)
        const aggOn = greedyAggregates(Ak, k)
        expect(aggOn.count).toBe(agg.count)
        expect(Array.from(aggOn.aggregateOf)).toEqual(Array.from(agg.aggregateOf))
        const P = smoothedAggregationProlongation(Ak, aggOn, k)
        expect(k.holds(P.col) && k.holds(P.val) && k.holds(P.rowPtr)).toBe(true)
        expect(rowsOf(P)).toEqual(rowsOf(want))
      }
    }
  })
})

describe("smoothed aggregation's V-cycle (two Gauss-Seidel sweeps a side, as the splitting's)", () => {
  it('3D 7-point Poisson, random-weight 3D and the tetrahedral ball from about 10k to 400k unknowns: factor below 0.35, within 1.5x across sizes, operator complexity below 2', { timeout: 180_000 }, () => {
    const cases: [string, CsrMatrix[]][] = [
      ['3D 7-point', [22, 37, 63].map((m) => poisson3d(m, m, m))],
      ['3D random weights', [22, 37, 63].map((m) => randomWeights3d(m, 3))],
      ['tetrahedral ball', [0.13, 0.08, 0.05].map(ballMatrix)],
    ]
    for (const [name, matrices] of cases) {
      const factors: number[] = []
      for (const A of matrices) {
        const h = new AmgHierarchy(A, { coarsening: 'aggregation' })
        const f = convergenceFactor(h, A)
        factors.push(f)
        console.log(`aggregation, ${name} n=${A.n}: factor ${f.toFixed(3)} per V-cycle; levels ${h.sizes.join(' > ')}; operator complexity ${h.operatorComplexity.toFixed(2)} (${nnzOf(h.levels[0].A)} entries on the finest level)`)
        expect(f).toBeLessThan(0.35)
        expect(h.operatorComplexity).toBeLessThan(2)
      }
      expect(Math.max(...factors) / Math.min(...factors)).toBeLessThan(1.5)
    }
  })

  it('closed (singular Neumann) Laplacian, 30^3: AMG-CG reaches 1e-8 for a zero-sum right-hand side in < 30 iterations, one unknown grounded', () => {
    const A = neumann3d(30)
    const h = new AmgHierarchy(A, { coarsening: 'aggregation' })
    const op = new ClosedOperator(A)
    const b = randVec(A.n, 5)
    op.removeNullSpace(b)
    const x = new Float64Array(A.n)
    const stats = new PcgSolver(new SparseVectorOps(A.n)).solve(op, new AmgPreconditioner(h), b, x, { tolerance: 1e-8, maxIterations: 500 })
    const r = new Float64Array(A.n)
    spResidual(TS_KERNELS, A, x, b, r)
    console.log(`aggregation, closed n=${A.n}: ${stats.iterations} iterations, true residual ${(norm(r) / norm(b)).toExponential(2)}, levels ${h.sizes.join(' > ')}`)
    expect(h.groundedUnknowns).toBe(1)
    expect(stats.converged).toBe(true)
    expect(stats.iterations).toBeLessThan(30)
    expect(norm(r)).toBeLessThanOrEqual(1e-8 * norm(b))
  })

  it('AMG-CG gives the same bits on 1 and 3 WebAssembly threads as on TypeScript', () => {
    const A0 = randomWeights3d(24, 12)
    const n = A0.n
    const runOn = (k: KernelBackend) => {
      const A = k === TS_KERNELS ? A0 : copyCsr(A0, k)
      const h = new AmgHierarchy(A0, { kernels: k, coarsening: 'aggregation' })
      const b = randVec(n, 13, (m) => k.f64(m))
      const x = k.f64(n)
      const stats = new PcgSolver(new SparseVectorOps(n, k)).solve(new CsrOperator(A, k), new AmgPreconditioner(h), b, x, { tolerance: 1e-10 })
      return { stats, x: Float64Array.from(x) }
    }
    const ts = runOn(TS_KERNELS)
    expect(ts.stats.converged).toBe(true)
    for (const threads of [1, 3]) {
      const k = createKernelBackend('wasm', { threads, minParallelWork: 0, strict: true, initialBytes: 1 << 24 })
      backends.push(k)
      const r = runOn(k)
      expect(r.stats.iterations).toBe(ts.stats.iterations)
      expect(r.x.every((v, i) => Object.is(v, ts.x[i]))).toBe(true)
    }
  })
})
