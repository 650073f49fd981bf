// PcgSolver on general linear operators (src-shared/sim/core/pcg.ts): a hand-checked 3x3
// system, a CSR Poisson matrix with the symmetric multicolour Gauss-Seidel preconditioner on
// the TypeScript and WebAssembly backends (same iterates, bit for bit, on 1, 2 and 3 threads),
// a matrix-free operator, and the grid constructor still matching explicit GridVectorOps.
import { afterAll, describe, expect, it } from 'vitest'
import { TS_KERNELS } from '../../../src-shared/sim/core/kernelBackend'
import type { KernelBackend } from '../../../src-shared/sim/core/kernelTypes'
import { GridVectorOps, type LinearOperator, PcgSolver } from '../../../src-shared/sim/core/pcg'
import { copyCsr, csrFromTriplets, poisson3d } from '../../../src-shared/sim/core/sparse/csr'
import { CsrOperator, SgsPreconditioner, SparseVectorOps, spmv } from '../../../src-shared/sim/core/sparse/ops'
import { createWasmBackend } from '../../../src-shared/sim/wasm/wasmBackend'
import { createKernelBackend } from '../../../src-main/sim/workerPool'

function sameBits(a: ArrayLike<number>, b: ArrayLike<number>): boolean {
  if (a.length !== b.length) return false
  for (let i = 0; i < a.length; i++) if (!Object.is(a[i], b[i])) return false
  return true
}

const backends: KernelBackend[] = []
afterAll(async () => {
  for (const b of backends) await b.dispose()
})

describe('PcgSolver on any linear operator', () => {
  it('solves a 3x3 SPD system exactly within 3 iterations (CG)', () => {
    // [[4,-1,0],[-1,4,-1],[0,-1,4]] x = [2, 4, 10] has x = [1, 2, 3].
    const A = csrFromTriplets(3, 3, [0, 0, 1, 1, 1, 2, 2], [0, 1, 0, 1, 2, 1, 2], [4, -1, -1, 4, -1, -1, 4])
    const pcg = new PcgSolver(new SparseVectorOps(3))
    const x = new Float64Array(3)
    const stats = pcg.solve(new CsrOperator(A), null, Float64Array.of(2, 4, 10), x, { tolerance: 1e-14 })
    expect(stats.converged).toBe(true)
    expect(stats.iterations).toBeLessThanOrEqual(3)
    for (let i = 0; i < 3; i++) expect(x[i]).toBeCloseTo(i + 1, 12)
  })

  it('takes a matrix-free operator (a diagonal) with Jacobi as the preconditioner: one iteration', () => {
    const d = Float64Array.of(1, 2, 4, 8, 16)
    const A: LinearOperator = { apply: (x, out) => x.forEach((v, i) => (out[i] = d[i] * v)) }
    const M = { apply: (r: Float64Array, z: Float64Array) => r.forEach((v, i) => (z[i] = v / d[i])) }
    const x = new Float64Array(5)
    const stats = new PcgSolver(new SparseVectorOps(5, TS_KERNELS, 2)).solve(A, M, Float64Array.of(1, 1, 1, 1, 1), x)
    expect(stats.iterations).toBe(1)
    expect(Array.from(x)).toEqual([1, 0.5, 0.25, 0.125, 0.0625])
  })

  it('giveUp ends a solve at the iteration it names, with the residual reduction so far; never asked, the iterates are unchanged', () => {
    const A = poisson3d(8, 8, 8)
    const n = A.n
    const b = new Float64Array(n)
    for (let i = 0; i < n; i++) b[i] = Math.cos(0.41 * i)
    const plain = new Float64Array(n)
    const full = new PcgSolver(new SparseVectorOps(n)).solve(new CsrOperator(A), null, b, plain, { tolerance: 1e-10 })
    expect(full.iterations).toBeGreaterThan(20)
    // Asked every iteration, never giving up: same bits as without the option.
    const asked: [number, number][] = []
    const watched = new Float64Array(n)
    const same = new PcgSolver(new SparseVectorOps(n)).solve(new CsrOperator(A), null, b, watched, {
      tolerance: 1e-10,
      giveUp: (it, reduction) => (asked.push([it, reduction]), false),
    })
    expect(same.iterations).toBe(full.iterations)
    expect(sameBits(watched, plain)).toBe(true)
    expect(asked[0][0]).toBe(1)
    expect(asked[9][0]).toBe(10)
    // Plain CG on Poisson reduces the residual: the reduction after 10 is well below 1.
    expect(asked[9][1]).toBeLessThan(0.5)
    // Giving up at 10: ten iterations, not converged, its residual the 10th iterate's.
    const cut = new Float64Array(n)
    const stopped = new PcgSolver(new SparseVectorOps(n)).solve(new CsrOperator(A), null, b, cut, { tolerance: 1e-10, giveUp: (it) => it === 10 })
    expect(stopped.iterations).toBe(10)
    expect(stopped.converged).toBe(false)
    expect(stopped.residual).toBeGreaterThan(1e-10)
  })

  /** SGS-preconditioned PCG on the 7-point Poisson matrix; returns x and stats. */
  function poissonSolve(k: KernelBackend, nx: number, ny: number, nz: number) {
    const A = copyCsr(poisson3d(nx, ny, nz), k)
    const n = A.n
    const xTrue = k.f64(n)
    for (let i = 0; i < n; i++) xTrue[i] = Math.sin(0.37 * i) + 0.01 * (i % 7)
    const b = k.f64(n)
    spmv(k, A, xTrue, b)
    const x = k.f64(n)
    const pcg = new PcgSolver(new SparseVectorOps(n, k, 512))
    const stats = pcg.solve(new CsrOperator(A, k), new SgsPreconditioner(A, k), b, x, { tolerance: 1e-10 })
    let err = 0
    for (let i = 0; i < n; i++) err = Math.max(err, Math.abs(x[i] - xTrue[i]))
    return { x: Float64Array.from(x), stats, err }
  }

  it('solves a CSR Poisson system with symmetric multicolour Gauss-Seidel, fewer iterations than CG', () => {
    const { stats, err } = poissonSolve(TS_KERNELS, 12, 10, 8)
    expect(stats.converged).toBe(true)
    expect(err).toBeLessThan(1e-8)
    const A = poisson3d(12, 10, 8)
    const b = new Float64Array(A.n).fill(1)
    const cg = new PcgSolver(new SparseVectorOps(A.n)).solve(new CsrOperator(A), null, b, new Float64Array(A.n), { tolerance: 1e-10 })
    expect(stats.iterations).toBeLessThan(cg.iterations)
  })

  it('gives the same bits with the WebAssembly kernels on 1, 2 and 3 threads', () => {
    const ref = poissonSolve(TS_KERNELS, 15, 9, 11)
    const w1 = createWasmBackend({ strict: true })
    backends.push(w1)
    const runs = [poissonSolve(w1, 15, 9, 11)]
    for (const threads of [2, 3]) {
      const k = createKernelBackend('wasm', { threads, minParallelWork: 0, strict: true, initialBytes: 1 << 22 })
      backends.push(k)
      runs.push(poissonSolve(k, 15, 9, 11))
    }
    for (const r of runs) {
      expect(r.stats).toEqual(ref.stats)
      expect(sameBits(r.x, ref.x)).toBe(true)
    }
  })

  it('new PcgSolver(nx, ny, nz) is PcgSolver(new GridVectorOps(...)) bit for bit', () => {
    const nx = 6,
      ny = 5,
      nz = 4
    const n = nx * ny * nz
    const A = poisson3d(nx, ny, nz)
    const op = new CsrOperator(A)
    const b = Float64Array.from({ length: n }, (_, i) => Math.cos(i))
    const xa = new Float64Array(n)
    const xb = new Float64Array(n)
    const sa = new PcgSolver(nx, ny, nz).solve(op, null, Float64Array.from(b), xa)
    const sb = new PcgSolver(new GridVectorOps(nx * ny, nz, TS_KERNELS)).solve(op, null, Float64Array.from(b), xb)
    expect(sa).toEqual(sb)
    expect(sameBits(xa, xb)).toBe(true)
    // The block ops order sums differently (two lanes per block): close, not necessarily equal.
    const xc = new Float64Array(n)
    const sc = new PcgSolver(new SparseVectorOps(n)).solve(op, null, Float64Array.from(b), xc)
    expect(sc.converged).toBe(true)
    for (let i = 0; i < n; i++) expect(xc[i]).toBeCloseTo(xa[i], 8)
  })
})
