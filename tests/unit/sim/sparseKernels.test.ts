// Sparse kernels over CSR matrices (src-shared/sim/core/sparse): hand-computed values on small
// matrices, the setup algebra (triplets, transpose, products, Galerkin, colouring), and the
// WebAssembly f64x2 twins against the TypeScript references bit for bit, on 1, 2 and 3 threads.
import { afterAll, describe, expect, it } from 'vitest'
import { TS_KERNELS } from '../../../src-shared/sim/core/kernelBackend'
import type { KernelBackend } from '../../../src-shared/sim/core/kernelTypes'
import {
  aggregationProlongation,
  colorRows,
  copyCsr,
  type CsrMatrix,
  csrFromTriplets,
  galerkin,
  multiplyCsr,
  nnzOf,
  poisson3d,
  transposeCsr,
} from '../../../src-shared/sim/core/sparse/csr'
import { dotBlocks, gsRows, spmvRows } from '../../../src-shared/sim/core/sparse/kernels'
import { EXTRAPOLATE_BLOCKS, JACOBI_ROWS, SCALE_BLOCKS, SPMV_MULTI, ZERO_BLOCKS } from '../../../src-shared/sim/core/sparse/rows'
import { packedRowsOn } from '../../../src-shared/sim/core/sparse/csrKernels'
import { MulticolorGaussSeidel, prolongAddCsr, restrictCsr, SparseVectorOps, spmv, spmvAdd, spResidual } from '../../../src-shared/sim/core/sparse/ops'
import { createWasmBackend, type WasmKernelBackend } from '../../../src-shared/sim/wasm/wasmBackend'
import type { SlabPool } from '../../../src-shared/sim/parallel/slabPool'
import { createKernelBackend } from '../../../src-main/sim/workerPool'
import { everyBackend, rng, sameBits } from './everyBackend'

function dense(A: CsrMatrix): number[][] {
  const D = Array.from({ length: A.n }, () => new Array<number>(A.cols).fill(0))
  for (let i = 0; i < A.n; i++) for (let p = A.rowPtr[i]; p < A.rowPtr[i + 1]; p++) D[i][A.col[p]] += A.val[p]
  return D
}

/** A random structurally symmetric matrix with rows of 1 .. 12 entries (diagonal always stored). */
function randomSymmetricPattern(n: number, seed: number): CsrMatrix {
  const r = rng(seed)
  const rows: number[] = []
  const cols: number[] = []
  const vals: number[] = []
  for (let i = 0; i < n; i++) {
    rows.push(i)
    cols.push(i)
    vals.push(4 + r())
    const k = Math.floor(r() * 6)
    for (let t = 0; t < k; t++) {
      const j = Math.floor(r() * n)
      if (j === i) continue
      rows.push(i, j)
      cols.push(j, i)
      vals.push(r() - 0.5, r() - 0.5) // structure symmetric, values not
    }
  }
  return csrFromTriplets(n, n, rows, cols, vals)
}

function randVec(n: number, seed: number, alloc: (n: number) => Float64Array = (m) => new Float64Array(m)): Float64Array {
  const r = rng(seed)
  const a = alloc(n)
  for (let i = 0; i < n; i++) a[i] = r() - 0.5
  return a
}

const backends: KernelBackend[] = []
afterAll(async () => {
  for (const b of backends) await b.dispose()
})

describe('CSR setup algebra', () => {
  it('builds from triplets, summing duplicates and sorting columns', () => {
    const A = csrFromTriplets(2, 3, [1, 0, 1, 0, 1], [2, 1, 0, 1, 2], [1, 2, 3, 4, 5])
    expect(Array.from(A.rowPtr)).toEqual([0, 1, 3])
    expect(Array.from(A.col)).toEqual([1, 0, 2])
    expect(Array.from(A.val)).toEqual([6, 3, 6])
  })

  it('transposes and multiplies like dense matrices', () => {
    const A = csrFromTriplets(2, 3, [0, 0, 1, 1], [0, 2, 1, 2], [1, 2, 3, 4]) // [[1,0,2],[0,3,4]]
    expect(dense(transposeCsr(A))).toEqual([
      [1, 0],
      [0, 3],
      [2, 4],
    ])
    // A A^T = [[5, 8], [8, 25]]
    expect(dense(multiplyCsr(A, transposeCsr(A)))).toEqual([
      [5, 8],
      [8, 25],
    ])
  })

  it('forms the Galerkin operator R A P with R = P^T', () => {
    const A = poisson3d(4, 4, 2)
    const P = aggregationProlongation(4, 4, 2)
    const Ac = galerkin(A, P)
    const D = dense(A)
    const Pd = dense(P)
    // Dense R A P.
    const m = P.cols
    for (let I = 0; I < m; I++)
      for (let J = 0; J < m; J++) {
        let s = 0
        for (let i = 0; i < A.n; i++) for (let j = 0; j < A.n; j++) s += Pd[i][I] * D[i][j] * Pd[j][J]
        expect(dense(Ac)[I][J]).toBe(s)
      }
    // Each aggregate of 8 Dirichlet cells: 8 * 6 - 2 * (12 internal couplings) = 24 on the diagonal.
    expect(dense(Ac)[0][0]).toBe(24)
  })

  it('colours a 7-point matrix red-black and keeps every colour uncoupled', () => {
    const A = poisson3d(5, 4, 3)
    const c = colorRows(A)
    expect(c.colors).toBe(2)
    const color = new Int32Array(A.n)
    for (let k = 0; k < c.colors; k++) for (let t = c.colorStart[k]; t < c.colorStart[k + 1]; t++) color[c.order[t]] = k
    for (let i = 0; i < A.n; i++) for (let p = A.rowPtr[i]; p < A.rowPtr[i + 1]; p++) if (A.col[p] !== i) expect(color[A.col[p]]).not.toBe(color[i])
    const R = randomSymmetricPattern(300, 3)
    const cr = colorRows(R)
    const col = new Int32Array(R.n)
    for (let k = 0; k < cr.colors; k++) for (let t = cr.colorStart[k]; t < cr.colorStart[k + 1]; t++) col[cr.order[t]] = k
    for (let i = 0; i < R.n; i++) for (let p = R.rowPtr[i]; p < R.rowPtr[i + 1]; p++) if (R.col[p] !== i) expect(col[R.col[p]]).not.toBe(col[i])
  })
})

describe('sparse reference kernels, hand-computed', () => {
  // A = [[4,-1,0],[-1,4,-1],[0,-1,4]]
  const A = csrFromTriplets(3, 3, [0, 0, 1, 1, 1, 2, 2], [0, 1, 0, 1, 2, 1, 2], [4, -1, -1, 4, -1, -1, 4])

  it('SpMV, y += A x and the residual', () => {
    const x = Float64Array.of(1, 2, 3)
    const y = new Float64Array(3)
    spmv(TS_KERNELS, A, x, y)
    expect(Array.from(y)).toEqual([2, 4, 10])
    spmvAdd(TS_KERNELS, A, x, y)
    expect(Array.from(y)).toEqual([4, 8, 20])
    const r = new Float64Array(3)
    spResidual(TS_KERNELS, A, x, Float64Array.of(1, 1, 1), r)
    expect(Array.from(r)).toEqual([-1, -3, -9])
  })

  it('multicolour Gauss-Seidel: colour 0 = rows 0, 2, then colour 1 = row 1', () => {
    const gs = new MulticolorGaussSeidel(A)
    expect(gs.coloring.colors).toBe(2)
    expect(Array.from(gs.coloring.order)).toEqual([0, 2, 1])
    const x = new Float64Array(3)
    gs.sweep(x, Float64Array.of(1, 2, 3))
    expect(Array.from(x)).toEqual([0.25, 0.75, 0.75])
    // Backward: colour 1 first: x1 = (2 + 0.25 + 0.75) / 4, then rows 0 and 2.
    gs.sweep(x, Float64Array.of(1, 2, 3), false)
    expect(x[1]).toBe(0.75)
    expect(x[0]).toBe((1 + 0.75) / 4)
    expect(x[2]).toBe((3 + 0.75) / 4)
  })

  it('dot, axpy and the fused update in fixed blocks', () => {
    const ops = new SparseVectorOps(5, TS_KERNELS, 2)
    const a = Float64Array.of(1, 2, 3, 4, 5)
    const b = Float64Array.of(5, 4, 3, 2, 1)
    expect(ops.dot(a, b)).toBe(35)
    const partial = new Float64Array(3)
    dotBlocks(a, b, 5, 2, partial, 0, 3)
    expect(Array.from(partial)).toEqual([13, 17, 5])
    const y = Float64Array.of(1, 1, 1, 1, 1)
    ops.axpy(y, 2, a)
    expect(Array.from(y)).toEqual([3, 5, 7, 9, 11])
    const x = new Float64Array(5)
    const r = Float64Array.of(1, 1, 1, 1, 1)
    const rr = ops.updateIterate(x, r, a, b, 0.5) // x = a/2, r = 1 - b/2
    expect(Array.from(x)).toEqual([0.5, 1, 1.5, 2, 2.5])
    expect(Array.from(r)).toEqual([-1.5, -1, -0.5, 0, 0.5])
    expect(rr).toBe(2.25 + 1 + 0.25 + 0 + 0.25)
    const s = Float64Array.of(1, 2, 3, 4, 5)
    ops.updateSearch(s, b, 2) // s = b + 2 s
    expect(Array.from(s)).toEqual([7, 8, 9, 10, 11])
    const z = new Float64Array(5)
    TS_KERNELS.run(SCALE_BLOCKS, z, b, a, 5, 2) // z = b a, entry by entry
    expect(Array.from(z)).toEqual([5, 8, 9, 8, 5])
  })

  it('restriction and prolongation as sparse products (R = P^T)', () => {
    const P = aggregationProlongation(4, 2, 2) // 16 fine cells, 2 coarse
    const R = transposeCsr(P)
    const fine = Float64Array.from({ length: 16 }, (_, i) => i)
    const coarse = new Float64Array(2)
    restrictCsr(TS_KERNELS, R, fine, coarse)
    // Coarse 0 holds fine i in {0,1}, j, k in {0,1}: 0+1+4+5+8+9+12+13 = 52; coarse 1 the rest.
    expect(Array.from(coarse)).toEqual([52, 120 - 52 + 0])
    const back = new Float64Array(16).fill(1)
    prolongAddCsr(TS_KERNELS, P, Float64Array.of(10, 20), back)
    expect(back[0]).toBe(11)
    expect(back[3]).toBe(21)
  })
})

/** Runs every sparse kernel on `k` over copies of the inputs in its memory; returns the outputs. */
function runAll(k: KernelBackend, A0: CsrMatrix, seed: number) {
  const A = copyCsr(A0, k)
  const n = A.n
  const f64 = (m: number) => k.f64(m)
  const x = randVec(n, seed, f64)
  const b = randVec(n, seed + 1, f64)
  const y = k.f64(n)
  spmv(k, A, x, y)
  const yAdd = randVec(n, seed + 2, f64)
  spmvAdd(k, A, x, yAdd)
  const r = k.f64(n)
  spResidual(k, A, x, b, r)
  const scale = randVec(n, seed + 8, f64)
  const jac = k.f64(n)
  k.run(JACOBI_ROWS, A.rowPtr, A.col, A.val, x, b, scale, jac, n)
  const gsx = randVec(n, seed + 3, f64)
  const gs = new MulticolorGaussSeidel(A, k)
  gs.symmetricSweep(gsx, b)
  gs.symmetricSweep(gsx, b)
  const ops = new SparseVectorOps(n, k, 64)
  const dot = ops.dot(x, b)
  const xi = randVec(n, seed + 4, f64)
  const ri = randVec(n, seed + 5, f64)
  const rr = ops.updateIterate(xi, ri, x, b, 0.37)
  const ax = randVec(n, seed + 6, f64)
  ops.axpy(ax, -1.7, b)
  const sv = randVec(n, seed + 7, f64)
  ops.updateSearch(sv, b, 0.61)
  const scaled = k.f64(n)
  k.run(SCALE_BLOCKS, scaled, scale, b, n, 64)
  // Three and two right-hand sides at once: each product is SPMV's bits.
  const xs = randVec(3 * n, seed + 9, f64), ys3 = k.f64(3 * n), ys2 = k.f64(2 * n)
  k.run(SPMV_MULTI, A.rowPtr, A.col, A.val, xs, ys3, n, 3, n)
  k.run(SPMV_MULTI, A.rowPtr, A.col, A.val, xs, ys2, n, 2, n)
  for (let d = 0; d < 3; d++) {
    const one = k.f64(n)
    spmv(k, A, xs.subarray(d * n, (d + 1) * n), one)
    expect(sameBits(ys3.subarray(d * n, (d + 1) * n), one)).toBe(true)
    if (d < 2) expect(sameBits(ys2.subarray(d * n, (d + 1) * n), one)).toBe(true)
  }
  const copy = (a: Float64Array) => Float64Array.from(a)
  return { y: copy(y), yAdd: copy(yAdd), r: copy(r), jac: copy(jac), gsx: copy(gsx), dot, xi: copy(xi), ri: copy(ri), rr, ax: copy(ax), sv: copy(sv), scaled: copy(scaled), ys3: copy(ys3) }
}

function expectSameResults(a: ReturnType<typeof runAll>, b: ReturnType<typeof runAll>): void {
  for (const key of ['y', 'yAdd', 'r', 'jac', 'gsx', 'xi', 'ri', 'ax', 'sv', 'scaled', 'ys3'] as const) expect(sameBits(a[key], b[key]), key).toBe(true)
  expect(Object.is(a.dot, b.dot)).toBe(true)
  expect(Object.is(a.rr, b.rr)).toBe(true)
}

describe('WebAssembly sparse twins', () => {
  const wasm = createWasmBackend({ strict: true })
  backends.push(wasm)
  const cases: [string, CsrMatrix][] = [
    ['Poisson 7x5x3 (odd row count)', poisson3d(7, 5, 3)],
    ['random pattern, 1001 rows of 1..12 entries', randomSymmetricPattern(1001, 11)],
    ['a single row', poisson3d(1, 1, 1)],
  ]

  it.each(cases)('match the TypeScript references bit for bit: %s', (_name, A) => {
    expectSameResults(runAll(wasm, A, 5), runAll(TS_KERNELS, A, 5))
  })

  it('SpMV and Gauss-Seidel match the slab references called on arbitrary row ranges', () => {
    const A = randomSymmetricPattern(257, 21)
    const W = copyCsr(A, wasm)
    const x = randVec(A.n, 1, (m) => wasm.f64(m))
    const yw = wasm.f64(A.n)
    spmv(wasm, W, x, yw)
    const yr = new Float64Array(A.n)
    for (const [r0, r1] of [
      [0, 1],
      [1, 100],
      [100, 257],
    ])
      spmvRows(A.rowPtr, A.col, A.val, x, yr, r0, r1)
    expect(sameBits(yw, yr)).toBe(true)
    const c = colorRows(A)
    const b = randVec(A.n, 2)
    const xr = new Float64Array(A.n)
    for (let k = 0; k < c.colors; k++) gsRows(A.rowPtr, A.col, A.val, xr, b, c.order, c.colorStart[k], c.colorStart[k + 1])
    const xw = wasm.f64(A.n)
    const bw = wasm.f64(A.n)
    bw.set(b)
    new MulticolorGaussSeidel(W, wasm).sweep(xw, bw)
    expect(sameBits(xw, xr)).toBe(true)
  })

  it('falls back to the reference (or throws when strict) for arrays outside the memory', () => {
    const A = poisson3d(3, 3, 3)
    const x = randVec(A.n, 3)
    expect(() => spmv(wasm, A, x, new Float64Array(A.n))).toThrow(/not in their memory/)
    const lax = createWasmBackend()
    backends.push(lax)
    const y = new Float64Array(A.n)
    spmv(lax, A, x, y)
    expect(lax.fallbacks).toBe(1)
    const ref = new Float64Array(A.n)
    spmv(TS_KERNELS, A, x, ref)
    expect(sameBits(y, ref)).toBe(true)
  })

  it('1, 2 and 3 threads give identical bits (rows and blocks split across threads)', () => {
    const A = poisson3d(13, 11, 9)
    const R = randomSymmetricPattern(2003, 7)
    const results = [1, 2, 3].map((threads) => {
      const k = createKernelBackend('wasm', { threads, minParallelWork: 0, strict: true, initialBytes: 1 << 22 })
      backends.push(k)
      const out = [runAll(k, A, 9), runAll(k, R, 19)]
      if (threads > 1) expect(((k as WasmKernelBackend).runner as SlabPool).parallelJobs).toBeGreaterThan(10)
      return out
    })
    const ts = [runAll(TS_KERNELS, A, 9), runAll(TS_KERNELS, R, 19)]
    for (const res of results) {
      expectSameResults(res[0], ts[0])
      expectSameResults(res[1], ts[1])
    }
    expect(nnzOf(A)).toBeGreaterThan(0)
  })
})

describe('colour-packed Gauss-Seidel (GS_PACKED: each colour\'s rows copied together, so a sweep streams them)', () => {
  const A = randomSymmetricPattern(3001, 5)
  const c = colorRows(A)

  it('packs row order[q] at packed row q with its entries in storage order, on TypeScript and WebAssembly', () => {
    const k = createKernelBackend('wasm', { threads: 3, minParallelWork: 0, strict: true, initialBytes: 1 << 22 })
    backends.push(k)
    const W = copyCsr(A, k)
    const order = k.i32(A.n)
    order.set(c.order)
    for (const P of [packedRowsOn(TS_KERNELS, A, c.order), packedRowsOn(k, W, order)]) {
      expect(P.rowPtr[A.n]).toBe(nnzOf(A))
      for (const q of [0, 1, 777, A.n - 1]) {
        const i = c.order[q]
        expect(Array.from(P.col.subarray(P.rowPtr[q], P.rowPtr[q + 1]))).toEqual(Array.from(A.col.subarray(A.rowPtr[i], A.rowPtr[i + 1])))
        expect(Array.from(P.val.subarray(P.rowPtr[q], P.rowPtr[q + 1]))).toEqual(Array.from(A.val.subarray(A.rowPtr[i], A.rowPtr[i + 1])))
      }
    }
  })

  it('sweeps to the same bits as the rows relaxed in place, on TypeScript and on 1-3 WebAssembly threads', () => {
    const b = randVec(A.n, 4)
    const sweeps = (kernels: KernelBackend, pack: boolean): Float64Array => {
      const M = kernels === TS_KERNELS ? A : copyCsr(A, kernels)
      const x = kernels === TS_KERNELS ? new Float64Array(A.n) : kernels.f64(A.n)
      const bb = kernels === TS_KERNELS ? b : kernels.f64(A.n)
      if (bb !== b) bb.set(b)
      const gs = new MulticolorGaussSeidel(M, kernels, undefined, pack)
      for (let s = 0; s < 3; s++) gs.symmetricSweep(x, bb)
      return Float64Array.from(x)
    }
    const ref = sweeps(TS_KERNELS, false)
    expect(ref.some((v) => v !== 0)).toBe(true)
    expect(sameBits(sweeps(TS_KERNELS, true), ref)).toBe(true)
    for (const threads of [1, 2, 3]) {
      const k = createKernelBackend('wasm', { threads, minParallelWork: 0, strict: true, initialBytes: 1 << 22 })
      backends.push(k)
      expect(sameBits(sweeps(k, true), ref), `${threads} threads, packed`).toBe(true)
      expect(sameBits(sweeps(k, false), ref), `${threads} threads, in place`).toBe(true)
      expect((k as WasmKernelBackend).fallbacks).toBe(0)
    }
  })
})

describe('zeroing a range of several vectors (ZERO_BLOCKS: a solver clearing its scratch block)', () => {
  const owned: KernelBackend[] = []
  afterAll(async () => {
    for (const b of owned) await b.dispose()
  })
  it('zeroes exactly [from, to) of each of the vectors, on TypeScript and on 1-3 WebAssembly threads with blocks split', () => {
    const stride = 1000, count = 3
    for (const [, b] of everyBackend(owned)) {
      // Ranges across several blocks of 64, one shorter than a block, one empty.
      for (const [from, to, block] of [[137, 911, 64], [5, 40, 64], [300, 300, 64], [0, stride, 128]]) {
        const a = b.f64(stride * count + 7).fill(Number.NaN)
        b.run(ZERO_BLOCKS, a, stride, count, from, to, block)
        if (b !== TS_KERNELS) expect((b as WasmKernelBackend).fallbacks).toBe(0)
        for (let i = 0; i < a.length; i++) {
          const v = Math.floor(i / stride), c = i - v * stride
          const zeroed = v < count && c >= from && c < to
          if (zeroed !== (a[i] === 0) || (!zeroed && !Number.isNaN(a[i]))) throw new Error(`${b.kind} ${b.threads} threads, range ${from}-${to}: entry ${i} is ${a[i]}`)
        }
      }
    }
  })
})

describe('extrapolating a guess from the last two iterates (EXTRAPOLATE_BLOCKS: the surface projection\'s start)', () => {
  const owned: KernelBackend[] = []
  afterAll(async () => {
    for (const b of owned) await b.dispose()
  })
  it('x = a x + b prev and prev = the old x, entry by entry, the same bits on TypeScript and on 1-3 WebAssembly threads', () => {
    const n = 1001, block = 64, a = 2.5, c = -1.25
    const r = rng(11)
    const x0 = Float64Array.from({ length: n }, () => r() - 0.5), p0 = Float64Array.from({ length: n }, () => r() - 0.5)
    let first: Float64Array | null = null
    for (const [, b] of everyBackend(owned)) {
      const x = b.f64(n), prev = b.f64(n)
      x.set(x0)
      prev.set(p0)
      b.run(EXTRAPOLATE_BLOCKS, x, prev, a, c, n, block)
      if (b !== TS_KERNELS) expect((b as WasmKernelBackend).fallbacks).toBe(0)
      for (let i = 0; i < n; i++) {
        if (x[i] !== a * x0[i] + c * p0[i]) throw new Error(`${b.kind} ${b.threads} threads: x[${i}] = ${x[i]}, expected ${a * x0[i] + c * p0[i]}`)
        if (prev[i] !== x0[i]) throw new Error(`${b.kind} ${b.threads} threads: prev[${i}] = ${prev[i]}, expected the old x ${x0[i]}`)
      }
      if (first === null) first = Float64Array.from(x)
      else expect(sameBits(first, x)).toBe(true)
    }
  })
})
