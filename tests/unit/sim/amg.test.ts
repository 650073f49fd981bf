// Algebraic multigrid of Chentanez et al. 2007 sec. 3.5 (src-shared/sim/core/amg) and the
// IC(0) baseline (sparse/incompleteCholesky.ts), validated by amount: V-cycle convergence
// factors on 3D 7-point, random-weight 3D and 2D 5-point Dirichlet matrices from about 10k to
// 250k unknowns; AMG-CG against IC(0)-CG and plain CG; the preconditioner's symmetry; full
// multigrid to the discretisation's accuracy; a closed (singular Neumann) system; and the same
// bits on 1 and 3 WebAssembly threads. Figures are printed; only iteration counts, factors and
// errors are asserted, never times.
import { afterAll, describe, expect, it } from 'vitest'
import { AmgHierarchy, type AmgOptions, AmgPreconditioner } from '../../../src-shared/sim/core/amg/amgHierarchy'
import { colorRows, symmetrised, transposeCsr } from '../../../src-shared/sim/core/sparse/csr'
import { colorRowsOn, symmetrisedOn, transposeCsrOn } from '../../../src-shared/sim/core/sparse/csrKernels'
import { greedySplitting, neighbourGraph } from '../../../src-shared/sim/core/amg/coarsening'
import { averagingProlongation, relaxedProlongation } from '../../../src-shared/sim/core/amg/prolongation'
import { TS_KERNELS } from '../../../src-shared/sim/core/kernelBackend'
import type { KernelBackend } from '../../../src-shared/sim/core/kernelTypes'
import { type LinearOperator, PcgSolver, type Preconditioner, type SolveStats } from '../../../src-shared/sim/core/pcg'
import { copyCsr, type CsrMatrix, csrFromTriplets, nnzOf, poisson3d } from '../../../src-shared/sim/core/sparse/csr'
import { IncompleteCholesky } from '../../../src-shared/sim/core/sparse/incompleteCholesky'
import { CsrOperator, SparseVectorOps, spmv, spResidual } from '../../../src-shared/sim/core/sparse/ops'
import { now } from '../../../src-shared/sim/wallClock'
import { ClosedOperator, convergenceFactor, dot, neumann3d, norm, poisson2d, randomWeights3d, randVec, rng } from './amgMatrices'
import { createKernelBackend } from '../../../src-main/sim/workerPool'


interface Built {
  A: CsrMatrix
  h: AmgHierarchy
  setup: number
}

function build(A: CsrMatrix, options: AmgOptions = {}): Built {
  const t0 = now()
  const h = new AmgHierarchy(A, options)
  return { A, h, setup: (now() - t0) / 1000 }
}

// The ~250k 3D Poisson problem (63^3) and its hierarchy, shared by the factor, PCG and FMG tests.
const M_LARGE = 63
let large: Built | null = null
const largePoisson = () => (large ??= build(poisson3d(M_LARGE, M_LARGE, M_LARGE)))

function factorsOver(name: string, make: (size: number) => CsrMatrix, sizes: number[], options: AmgOptions = {}, reuseLarge = false): number[] {
  const factors: number[] = []
  for (const s of sizes) {
    const b = reuseLarge && s === M_LARGE ? largePoisson() : build(make(s), options)
    const f = convergenceFactor(b.h, b.A)
    factors.push(f)
    console.log(
      `${name} n=${b.A.n}: factor ${f.toFixed(3)} per V-cycle; levels ${b.h.sizes.join(' > ')}; operator complexity ${b.h.operatorComplexity.toFixed(2)}; setup ${b.setup.toFixed(2)} s`,
    )
  }
  return factors
}

const spread = (f: number[]) => Math.max(...f) / Math.min(...f)

function timedSolve(A: LinearOperator, M: Preconditioner | null, b: Float64Array, x: Float64Array, ops: SparseVectorOps, tolerance: number): SolveStats & { seconds: number } {
  const pcg = new PcgSolver(ops)
  const t0 = now()
  const stats = pcg.solve(A, M, b, x, { tolerance, maxIterations: 5000 })
  return { ...stats, seconds: (now() - t0) / 1000 }
}

const backends: KernelBackend[] = []
afterAll(async () => {
  for (const k of backends) await k.dispose()
})

describe('greedy coarse/fine splitting and averaging prolongation (paper sec. 3.5)', () => {
  it('every fine variable has a coarse neighbour, coarse variables are independent, P rows are averages (exact)', () => {
    const A = randomWeights3d(9, 5)
    const s = greedySplitting(A)
    const P = averagingProlongation(s)
    let fine = 0
    for (let i = 0; i < A.n; i++) {
      let coarseNeighbours = 0
      for (let p = A.rowPtr[i]; p < A.rowPtr[i + 1]; p++) if (A.col[p] !== i && s.coarseIndex[A.col[p]] >= 0) coarseNeighbours++
      if (s.coarseIndex[i] >= 0) {
        // Step 3 labels a coarse variable's neighbours fine: no two coarse variables neighbour.
        expect(coarseNeighbours).toBe(0)
        expect(P.rowPtr[i + 1] - P.rowPtr[i]).toBe(1)
        expect(P.val[P.rowPtr[i]]).toBe(1)
      } else {
        fine++
        expect(coarseNeighbours).toBeGreaterThan(0)
        expect(P.rowPtr[i + 1] - P.rowPtr[i]).toBe(coarseNeighbours)
        for (let q = P.rowPtr[i]; q < P.rowPtr[i + 1]; q++) expect(P.val[q]).toBe(1 / coarseNeighbours)
      }
    }
    expect(fine + s.coarse).toBe(A.n)
    // Deterministic: the same labels again.
    expect(Array.from(greedySplitting(A).coarseIndex)).toEqual(Array.from(s.coarseIndex))
  })
})

describe('the neighbour relation (paper: i and j neighbours if A_ij is non-zero)', () => {
  /** Each row's neighbours by the definition, symmetrised: j != i with a strong A_ij or A_ji. */
  function byDefinition(A: CsrMatrix, theta: number): number[][] {
    const rows: Set<number>[] = Array.from({ length: A.n }, () => new Set())
    for (let i = 0; i < A.n; i++) {
      let m = 0
      for (let p = A.rowPtr[i]; p < A.rowPtr[i + 1]; p++) if (A.col[p] !== i) m = Math.max(m, Math.abs(A.val[p]))
      for (let p = A.rowPtr[i]; p < A.rowPtr[i + 1]; p++) {
        const j = A.col[p]
        if (j !== i && A.val[p] !== 0 && Math.abs(A.val[p]) >= theta * m) rows[i].add(j), rows[j].add(i)
      }
    }
    return rows.map((r) => [...r].sort((a, b) => a - b))
  }
  const asRows = (g: { n: number; ptr: Int32Array; adj: Int32Array }) => Array.from({ length: g.n }, (_, i) => Array.from(g.adj.subarray(g.ptr[i], g.ptr[i + 1])))

  it('symmetric matrices (each row its own list) and unsymmetric ones or theta > 0 (rows merged with their transposes) give the definition\'s lists', () => {
    // Symmetric: a random-weight grid Laplacian. Unsymmetric pattern: the same with some
    // entries of the upper triangle dropped and an explicit zero kept in the lower one.
    const sym = randomWeights3d(6, 3)
    const r: number[] = [], c: number[] = [], v: number[] = []
    const rand = rng(4)
    for (let i = 0; i < sym.n; i++)
      for (let p = sym.rowPtr[i]; p < sym.rowPtr[i + 1]; p++) {
        const j = sym.col[p]
        if (j > i && rand() < 0.3) continue
        r.push(i), c.push(j), v.push(j < i && rand() < 0.1 ? 0 : sym.val[p])
      }
    const unsym = csrFromTriplets(sym.n, sym.n, r, c, v)
    for (const [A, theta] of [[sym, 0], [unsym, 0], [sym, 0.5], [unsym, 0.25]] as const) expect(asRows(neighbourGraph(A, theta))).toEqual(byDefinition(A, theta))
  })
})

describe('symmetrised Galerkin levels', () => {
  it('(A + A^T) / 2 for a symmetric pattern with unequal values, entry by entry; A itself when the pattern is not symmetric', () => {
    const sym = randomWeights3d(5, 8)
    const rand = rng(9)
    // The same pattern, every value perturbed on its own: A_ij != A_ji.
    const skew = { ...sym, val: sym.val.map((v) => v * (1 + 0.1 * (rand() - 0.5))) }
    const S = symmetrised(skew)
    const at = (M: CsrMatrix, i: number, j: number) => {
      for (let p = M.rowPtr[i]; p < M.rowPtr[i + 1]; p++) if (M.col[p] === j) return M.val[p]
      return Number.NaN
    }
    let checked = 0
    for (let i = 0; i < S.n; i++)
      for (let p = S.rowPtr[i]; p < S.rowPtr[i + 1]; p++) {
        const j = S.col[p]
        expect(S.val[p]).toBe(0.5 * (at(skew, i, j) + at(skew, j, i)))
        checked++
      }
    expect(checked).toBe(nnzOf(sym))
    // An entry dropped from one side: not structurally symmetric, returned as it is.
    const r: number[] = [], c: number[] = [], v: number[] = []
    for (let i = 0; i < sym.n; i++) for (let p = sym.rowPtr[i]; p < sym.rowPtr[i + 1]; p++) if (!(i === 7 && sym.col[p] === 8)) r.push(i), c.push(sym.col[p]), v.push(sym.val[p])
    const unsym = csrFromTriplets(sym.n, sym.n, r, c, v)
    expect(symmetrised(unsym)).toBe(unsym)
  })

  it('on the WebAssembly kernels: the transpose, the in-place symmetrisation, the row colouring and the relaxed prolongation give the TypeScript bits; an unsymmetric pattern keeps its values', () => {
    const sym = randomWeights3d(6, 4)
    const rand = rng(5)
    const skew = { ...sym, val: sym.val.map((v) => v * (1 + 0.1 * (rand() - 0.5))) }
    // A rectangular matrix too (a prolongation's shape): every third column dropped.
    const r: number[] = [], c: number[] = [], v: number[] = []
    for (let i = 0; i < sym.n; i++) for (let p = sym.rowPtr[i]; p < sym.rowPtr[i + 1]; p++) if (sym.col[p] % 3 !== 0) r.push(i), c.push(Math.floor(sym.col[p] / 3)), v.push(skew.val[p])
    const wide = csrFromTriplets(sym.n, Math.ceil(sym.n / 3), r, c, v)
    const bits = (M: CsrMatrix) => [Array.from(M.rowPtr), Array.from(M.col.subarray(0, nnzOf(M))), Array.from(M.val.subarray(0, nnzOf(M)))]
    const k = createKernelBackend('wasm', { threads: 2, minParallelWork: 0, strict: true, initialBytes: 1 << 24 })
    backends.push(k)
    for (const M of [skew, wide]) expect(bits(transposeCsrOn(k, copyCsr(M, k)))).toEqual(bits(transposeCsr(M)))
    expect(bits(symmetrisedOn(k, copyCsr(skew, k)))).toEqual(bits(symmetrised(skew)))
    const drop: number[] = [], dc: number[] = [], dv: number[] = []
    for (let i = 0; i < skew.n; i++) for (let p = skew.rowPtr[i]; p < skew.rowPtr[i + 1]; p++) if (!(i === 7 && skew.col[p] === 8)) drop.push(i), dc.push(skew.col[p]), dv.push(skew.val[p])
    const unsym = csrFromTriplets(skew.n, skew.n, drop, dc, dv)
    expect(bits(symmetrisedOn(k, copyCsr(unsym, k)))).toEqual(bits(unsym))
    // The greedy row colouring, on a grid (red-black) and on a Galerkin level (many colours).
    const level = new AmgHierarchy(sym, {}).levels[1].A
    for (const M of [sym, level]) {
      const want = colorRows(M), got = colorRowsOn(k, copyCsr(M, k))
      expect(got.colors).toBe(want.colors)
      expect([Array.from(got.order), Array.from(got.colorStart)]).toEqual([Array.from(want.order), Array.from(want.colorStart)])
    }
    expect(colorRows(level).colors).toBeGreaterThan(4)
    // The relaxed prolongation (its count and fill rows), on the grid and on the Galerkin level.
    for (const M of [sym, level]) {
      const split = greedySplitting(M, 0)
      expect(bits(relaxedProlongation(copyCsr(M, k), split, k))).toEqual(bits(relaxedProlongation(M, split)))
    }
  })
})

describe('V-cycle convergence factor, cycles 3..8 (below 0.3, within a factor 1.5 from 10k to 250k unknowns)', () => {
  it('3D 7-point Dirichlet Poisson, 22^3, 37^3, 63^3: factor < 0.3, spread < 1.5', () => {
    const f = factorsOver('3D 7-point', (m) => poisson3d(m, m, m), [22, 37, M_LARGE], {}, true)
    for (const x of f) expect(x).toBeLessThan(0.3)
    expect(spread(f)).toBeLessThan(1.5)
  })

  it('3D grid Laplacian with random edge weights e^U(-1,1), 22^3, 37^3, 63^3: factor < 0.3, spread < 1.5', () => {
    const f = factorsOver('3D random weights', (m) => randomWeights3d(m, 3), [22, 37, 63])
    for (const x of f) expect(x).toBeLessThan(0.3)
    expect(spread(f)).toBeLessThan(1.5)
  })

  it('2D 5-point Dirichlet Poisson, 100^2, 224^2, 500^2: factor < 0.3, spread < 1.5', () => {
    const f = factorsOver('2D 5-point', poisson2d, [100, 224, 500])
    for (const x of f) expect(x).toBeLessThan(0.3)
    expect(spread(f)).toBeLessThan(1.5)
  })

  it("the paper's simple averages alone (prolongation 'average'), 3D 7-point: printed; factor < 0.6, spread < 1.5", () => {
    const f = factorsOver("3D 7-point, paper's averages", (m) => poisson3d(m, m, m), [22, 37, M_LARGE], { prolongation: 'average' })
    for (const x of f) expect(x).toBeLessThan(0.6)
    expect(spread(f)).toBeLessThan(1.5)
  })
})

describe('AMG as a PCG preconditioner', () => {
  it('is symmetric: (x, M y) = (M x, y) to 1e-10 relative, and positive', () => {
    for (const [name, A] of [
      ['3D random weights 20^3', randomWeights3d(20, 9)],
      ['2D 5-point 90^2', poisson2d(90)],
    ] as const) {
      const M = new AmgPreconditioner(A)
      const x = randVec(A.n, 1)
      const y = randVec(A.n, 2)
      const Mx = new Float64Array(A.n)
      const My = new Float64Array(A.n)
      M.apply(x, Mx)
      M.apply(y, My)
      const a = dot(x, My)
      const b = dot(Mx, y)
      const scale = Math.sqrt(dot(x, Mx) * dot(y, My))
      console.log(`${name}: (x, M y) = ${a}, (M x, y) = ${b}, relative difference ${(Math.abs(a - b) / scale).toExponential(2)}`)
      expect(dot(x, Mx)).toBeGreaterThan(0)
      expect(Math.abs(a - b)).toBeLessThanOrEqual(1e-10 * scale)
    }
  })

  it('63^3 Poisson to 1e-8: AMG-CG takes far fewer iterations than IC(0)-CG (< 1/5) and plain CG (< 1/10)', () => {
    const { A, h, setup } = largePoisson()
    const n = A.n
    const op = new CsrOperator(A)
    const ops = new SparseVectorOps(n)
    const b = randVec(n, 11)
    const tol = 1e-8
    const amg = timedSolve(op, new AmgPreconditioner(h), b, new Float64Array(n), ops, tol)
    const t0 = now()
    const ic = new IncompleteCholesky(A)
    const icSetup = (now() - t0) / 1000
    const iccg = timedSolve(op, ic, b, new Float64Array(n), ops, tol)
    const cg = timedSolve(op, null, b, new Float64Array(n), ops, tol)
    console.log(`n=${n}, relative residual 1e-8, TypeScript kernels:`)
    console.log(`  AMG-CG  ${amg.iterations} iterations, ${amg.seconds.toFixed(2)} s (+ setup ${setup.toFixed(2)} s), residual ${amg.residual.toExponential(2)}`)
    console.log(`  ICCG    ${iccg.iterations} iterations, ${iccg.seconds.toFixed(2)} s (+ setup ${icSetup.toFixed(2)} s), shift ${ic.shift}`)
    console.log(`  CG      ${cg.iterations} iterations, ${cg.seconds.toFixed(2)} s`)
    expect(amg.converged && iccg.converged && cg.converged).toBe(true)
    expect(ic.shift).toBe(0)
    expect(amg.iterations * 5).toBeLessThan(iccg.iterations)
    expect(amg.iterations * 10).toBeLessThan(cg.iterations)
    expect(iccg.iterations).toBeLessThan(cg.iterations)
  })

  it('closed (singular Neumann) Laplacian, 30^3 uniform and random weights: AMG-CG reaches 1e-8 for a zero-sum right-hand side in < 20 iterations', () => {
    for (const [name, A] of [
      ['uniform', neumann3d(30)],
      ['random weights', randomWeights3d(30, 4, true)],
    ] as const) {
      const h = new AmgHierarchy(A)
      const op = new ClosedOperator(A)
      const b = randVec(A.n, 5)
      op.removeNullSpace(b)
      const x = new Float64Array(A.n)
      const stats = timedSolve(op, new AmgPreconditioner(h), b, x, new SparseVectorOps(A.n), 1e-8)
      const r = new Float64Array(A.n)
      spResidual(TS_KERNELS, A, x, b, r)
      console.log(`closed ${name} n=${A.n}: ${stats.iterations} iterations, true residual ${(norm(r) / norm(b)).toExponential(2)}, levels ${h.sizes.join(' > ')}, grounded ${h.groundedUnknowns}`)
      expect(h.groundedUnknowns).toBe(1)
      expect(stats.converged).toBe(true)
      expect(stats.iterations).toBeLessThan(20)
      expect(norm(r)).toBeLessThanOrEqual(1e-8 * norm(b))
    }
  })
})

describe('full multigrid (FULLCYCLEMULTIGRID) as a standalone solver', () => {
  it('63^3 manufactured u = sin(pi x) sin(pi y) sin(pi z): error < 1e-3 relative with 1 and 2 V-cycles per level; within 1.05x of the discretisation error', () => {
    const { A, h } = largePoisson()
    const m = M_LARGE
    const n = A.n
    const hx = 1 / (m + 1) // nodes at (i + 1) h: the 7-point Dirichlet matrix has u = 0 on the ghosts at 0 and 1
    const u = new Float64Array(n)
    for (let k = 0; k < m; k++)
      for (let j = 0; j < m; j++)
        for (let i = 0; i < m; i++) u[i + m * (j + m * k)] = Math.sin(Math.PI * (i + 1) * hx) * Math.sin(Math.PI * (j + 1) * hx) * Math.sin(Math.PI * (k + 1) * hx)
    const b = new Float64Array(n)
    spmv(TS_KERNELS, A, u, b)
    const errorOf = (x: Float64Array) => {
      let s = 0
      for (let i = 0; i < n; i++) s += (x[i] - u[i]) ** 2
      return Math.sqrt(s) / norm(u)
    }
    for (const cycles of [1, 2]) {
      const x = new Float64Array(n)
      const t0 = now()
      h.fullMultigrid(x, b, cycles)
      const e = errorOf(x)
      console.log(`FMG, ${cycles} V-cycle(s) per level, b = A u: relative error ${e.toExponential(2)} (${((now() - t0) / 1000).toFixed(2)} s)`)
      expect(e).toBeLessThan(1e-3)
    }
    // The continuous problem -lap u = 3 pi^2 u, scaled by h^2: FMG's answer against the exact
    // discrete solution's own (discretisation) error.
    const f = Float64Array.from(u, (v) => 3 * Math.PI * Math.PI * hx * hx * v)
    const exact = new Float64Array(n)
    timedSolve(new CsrOperator(A), new AmgPreconditioner(h), f, exact, new SparseVectorOps(n), 1e-12)
    const x = new Float64Array(n)
    h.fullMultigrid(x, f, 1)
    const disc = errorOf(exact)
    const fmg = errorOf(x)
    console.log(`FMG, 1 V-cycle per level, b = h^2 f: error vs the continuous u ${fmg.toExponential(3)}, discretisation error ${disc.toExponential(3)}`)
    expect(fmg).toBeLessThan(1.05 * disc)
  })
})

describe('IC(0) preconditioner', () => {
  it('is exact for a tridiagonal SPD matrix: ICCG converges in 1 iteration to 1e-10', () => {
    const n = 2000
    const r = rng(3)
    const rows: number[] = []
    const cols: number[] = []
    const vals: number[] = []
    const off = Array.from({ length: n - 1 }, () => -(0.5 + r()))
    for (let i = 0; i < n; i++) {
      const d = (i > 0 ? -off[i - 1] : 0) + (i < n - 1 ? -off[i] : 0) + 0.1 + r()
      rows.push(i)
      cols.push(i)
      vals.push(d)
      if (i < n - 1) {
        rows.push(i, i + 1)
        cols.push(i + 1, i)
        vals.push(off[i], off[i])
      }
    }
    const A = csrFromTriplets(n, n, rows, cols, vals)
    const ic = new IncompleteCholesky(A)
    const stats = timedSolve(new CsrOperator(A), ic, randVec(n, 4), new Float64Array(n), new SparseVectorOps(n), 1e-10)
    expect(ic.shift).toBe(0)
    expect(stats.iterations).toBe(1)
    expect(stats.converged).toBe(true)
  })

  it('reduces CG iterations on 20^3 Poisson (< 1/2 of plain CG to 1e-8)', () => {
    const A = poisson3d(20, 20, 20)
    const op = new CsrOperator(A)
    const ops = new SparseVectorOps(A.n)
    const b = randVec(A.n, 8)
    const iccg = timedSolve(op, new IncompleteCholesky(A), b, new Float64Array(A.n), ops, 1e-8)
    const cg = timedSolve(op, null, b, new Float64Array(A.n), ops, 1e-8)
    console.log(`20^3 Poisson: ICCG ${iccg.iterations}, CG ${cg.iterations} iterations`)
    expect(iccg.converged).toBe(true)
    expect(iccg.iterations * 2).toBeLessThan(cg.iterations)
  })
})

describe('determinism on the WebAssembly backend', () => {
  it('AMG-CG and FMG give the same bits on 1 and 3 threads (and as the TypeScript reference)', () => {
    const A0 = randomWeights3d(24, 12)
    const n = A0.n
    const runOn = (k: KernelBackend) => {
      const A = k === TS_KERNELS ? A0 : copyCsr(A0, k)
      const h = new AmgHierarchy(A0, { kernels: k })
      const b = randVec(n, 13, (m) => k.f64(m))
      const x = k.f64(n)
      const t0 = now()
      const stats = new PcgSolver(new SparseVectorOps(n, k)).solve(new CsrOperator(A, k), new AmgPreconditioner(h), b, x, { tolerance: 1e-10 })
      const seconds = (now() - t0) / 1000
      const y = k.f64(n)
      h.fullMultigrid(y, b, 2)
      return { stats, seconds, x: Float64Array.from(x), y: Float64Array.from(y) }
    }
    const ts = runOn(TS_KERNELS)
    const runs = [1, 3].map((threads) => {
      const k = createKernelBackend('wasm', { threads, minParallelWork: 0, strict: true, initialBytes: 1 << 24 })
      backends.push(k)
      return { threads, ...runOn(k) }
    })
    console.log(`AMG-CG n=${n} to 1e-10: ${ts.stats.iterations} iterations; TypeScript ${ts.seconds.toFixed(3)} s, ${runs.map((r) => `wasm ${r.threads} thread(s) ${r.seconds.toFixed(3)} s`).join(', ')}`)
    const same = (a: Float64Array, b: Float64Array) => a.length === b.length && a.every((v, i) => Object.is(v, b[i]))
    expect(ts.stats.converged).toBe(true)
    for (const r of runs) {
      expect(r.stats.iterations).toBe(ts.stats.iterations)
      expect(same(r.x, runs[0].x)).toBe(true)
      expect(same(r.y, runs[0].y)).toBe(true)
      expect(same(r.x, ts.x)).toBe(true)
      expect(same(r.y, ts.y)).toBe(true)
    }
  })
})
