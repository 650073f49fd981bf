// The sparse products on the kernels (src-shared/sim/core/sparse/product.ts) against csr.ts's
// serial multiplyCsr and galerkin: the same row pointers, columns (sorted, or in the order
// first reached) and values to the bit, on 1 and 2 WebAssembly threads, and an AMG hierarchy
// built on the kernels with the same levels as the TypeScript one.
import { afterAll, describe, expect, it } from 'vitest'
import { AmgHierarchy } from '../../../../src-shared/sim/core/amg/amgHierarchy'
import type { KernelBackend } from '../../../../src-shared/sim/core/kernelTypes'
import { copyCsr, type CsrMatrix, csrFromTriplets, galerkin, multiplyCsr, nnzOf, poisson3d, transposeCsr } from '../../../../src-shared/sim/core/sparse/csr'
import { galerkinOn, multiplyCsrOn } from '../../../../src-shared/sim/core/sparse/product'
import { createKernelBackend } from '../../../../src-main/sim/workerPool'

const backends: KernelBackend[] = []
afterAll(async () => {
  for (const k of backends) await k.dispose()
})
const wasmOn = (threads: number): KernelBackend => {
  const k = createKernelBackend('wasm', { threads, minParallelWork: 0, strict: true, initialBytes: 1 << 24 })
  backends.push(k)
  return k
}

/** A deterministic generator in [0, 1). */
function rng(seed: number): () => number {
  let s = seed >>> 0
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0
    return s / 2 ** 32
  }
}

/**
 * An n x cols matrix with rows of 0 to `most` entries at random columns (duplicates summed by
 * csrFromTriplets), values of both signs and magnitudes far apart, so that a change of
 * summation order would show in the last bits; every 37th row is long (past the insertion
 * sort's limit of 64 in the product).
 */
function randomCsr(n: number, cols: number, most: number, seed: number): CsrMatrix {
  const r = rng(seed)
  const rows: number[] = [], cs: number[] = [], vs: number[] = []
  for (let i = 0; i < n; i++) {
    const m = i % 37 === 0 ? 3 * most : Math.floor(r() * (most + 1))
    for (let t = 0; t < m; t++) {
      rows.push(i)
      cs.push(Math.floor(r() * cols))
      vs.push((r() - 0.5) * 10 ** Math.floor(r() * 12 - 6))
    }
  }
  return csrFromTriplets(n, cols, rows, cs, vs)
}

function expectSame(a: CsrMatrix, b: CsrMatrix): void {
  expect([a.n, a.cols]).toEqual([b.n, b.cols])
  const nnz = nnzOf(b)
  expect(nnzOf(a)).toBe(nnz)
  expect(Array.from(a.rowPtr.subarray(0, a.n + 1))).toEqual(Array.from(b.rowPtr.subarray(0, b.n + 1)))
  expect(Array.from(a.col.subarray(0, nnz))).toEqual(Array.from(b.col.subarray(0, nnz)))
  const av = a.val.subarray(0, nnz), bv = b.val.subarray(0, nnz)
  let differ = 0
  for (let t = 0; t < nnz; t++) if (!Object.is(av[t], bv[t])) differ++
  expect(differ).toBe(0)
}

describe('sparse products on the kernels', () => {
  const A = randomCsr(3000, 2000, 12, 1)
  const B = randomCsr(2000, 2500, 9, 2)

  it('A B matches multiplyCsr bit for bit, sorted and in first-reached order, on 1 and 2 threads', () => {
    for (const threads of [1, 2]) {
      const k = wasmOn(threads)
      const Ak = copyCsr(A, k), Bk = copyCsr(B, k)
      for (const sorted of [true, false]) expectSame(multiplyCsrOn(k, Ak, Bk, sorted), multiplyCsr(A, B, sorted))
    }
  })

  it('handles empty rows and a product with no entries', () => {
    const k = wasmOn(2)
    const Z = csrFromTriplets(40, 30, [], [], [])
    const C = multiplyCsrOn(k, copyCsr(Z, k), copyCsr(randomCsr(30, 20, 4, 3), k))
    expect(C.n).toBe(40)
    expect(nnzOf(C)).toBe(0)
    expect(Array.from(C.rowPtr).every((v) => v === 0)).toBe(true)
  })

  it('rejects factors whose sizes do not chain', () => {
    const k = wasmOn(1)
    expect(() => multiplyCsrOn(k, copyCsr(A, k), copyCsr(A, k))).toThrow(/3000x2000 times 3000x2000/)
  })

  it('R A P matches galerkin on a Poisson matrix and gives the product memory back', () => {
    const k = wasmOn(2)
    // Pairs of neighbouring unknowns aggregated, with a second, weighted entry in every third row.
    const Ap = poisson3d(14, 12, 10)
    const n = Ap.n, nc = Math.ceil(n / 2)
    const rows: number[] = [], cs: number[] = [], vs: number[] = []
    for (let i = 0; i < n; i++) {
      rows.push(i); cs.push(i >> 1); vs.push(i % 3 === 0 ? 0.75 : 1)
      if (i % 3 === 0 && (i >> 1) + 1 < nc) { rows.push(i); cs.push((i >> 1) + 1); vs.push(0.25) }
    }
    const P = csrFromTriplets(n, nc, rows, cs, vs)
    const R = transposeCsr(P)
    const Ak = copyCsr(Ap, k), Pk = copyCsr(P, k), Rk = copyCsr(R, k)
    const probe = () => k.f64(1).byteOffset
    const before = probe()
    const C = galerkinOn(k, Ak, Pk, Rk)
    expectSame(C, galerkin(Ap, P, R))
    // The scoped products were released: the next allocation lands where the last one did, past the probe.
    expect(probe()).toBe(before + 16)
    // The result lives outside the kernels' memory.
    expect(C.val.buffer instanceof SharedArrayBuffer).toBe(false)
  })

  it('an AMG hierarchy built on the kernels has the TypeScript hierarchy\'s levels to the bit', () => {
    const A0 = poisson3d(16, 15, 14)
    const ts = new AmgHierarchy(A0)
    const k = wasmOn(2)
    const wasm = new AmgHierarchy(copyCsr(A0, k), { kernels: k })
    expect(wasm.sizes).toEqual(ts.sizes)
    expect(ts.levels.length).toBeGreaterThan(2)
    for (let l = 0; l < ts.levels.length; l++) {
      expectSame(wasm.levels[l].A, ts.levels[l].A)
      if (ts.levels[l].P) expectSame(wasm.levels[l].P as CsrMatrix, ts.levels[l].P as CsrMatrix)
    }
  })
})
