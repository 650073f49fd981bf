// The ghost-fluid pressure's PCG on the WebAssembly kernels (activeKernels.ts rows and their
// twins in wasm/assembly/active.ts) against the TypeScript backend: the same iteration counts,
// residuals and solution bits, with and without an extra low-rank term (the coupled bodies'),
// whole or in the halves the operator overlaps with its product, on 1, 2 and 3 threads. (liquidFastPaths.test.ts checks the TypeScript ActivePcg against
// PcgSolver on the whole grid.)
import { fillBlobSystem } from '../../../fixtures/ghostFluidBlob'
import { afterAll, describe, expect, it } from 'vitest'
import { type KernelBackend, TS_KERNELS } from '../../../../src-shared/sim/core/kernelBackend'
import { Prng } from '../../../../src-shared/sim/core/prng'
import { ACTIVE_PCG_SCRATCH_CELLS, ActivePcg, type ExtraTerm } from '../../../../src-shared/sim/liquid/activePcg'
import { Stencil7Matrix } from '../../../../src-shared/sim/liquid/stencil7'
import type { WasmKernelBackend } from '../../../../src-shared/sim/wasm/wasmBackend'
import { createKernelBackend } from '../../../../src-main/sim/workerPool'

const nx = 17, ny = 13, nz = 11, n = nx * ny * nz

/** A ghost-fluid-like system over a blob of unknowns, built in backend b's memory. */
function system(b: KernelBackend) {
  const prng = new Prng(9)
  const m = new Stencil7Matrix(nx, ny, nz, b)
  const on = fillBlobSystem(m, prng, [8.2, 5.1, 5.5], [7, 5.5, 5])
  const rhs = b.f64(n), x = b.f64(n)
  for (let c = 0; c < n; c++) if (on[c]) (rhs[c] = prng.range(-1, 1)), (x[c] = prng.range(-0.1, 0.1))
  // A symmetric positive rank-1 term w w^T over some unknowns (as a coupled body adds).
  const w = new Float64Array(n)
  for (let c = 0; c < n; c++) if (on[c] && c % 7 === 0) w[c] = prng.range(0, 0.5)
  const extra: ExtraTerm = {
    addTo(v, out) {
      let s = 0
      for (let c = 0; c < n; c++) s += w[c] * v[c]
      for (let c = 0; c < n; c++) if (w[c] !== 0) out[c] += w[c] * s
    },
  }
  // The same term in the halves the coupled bodies' term has (coupledWalls.ts prepare and
  // scatter), which the operator overlaps with its product on the other threads.
  let held = 0
  const halves: ExtraTerm = {
    addTo: extra.addTo,
    prepare(v) {
      held = 0
      for (let c = 0; c < n; c++) held += w[c] * v[c]
    },
    scatter(out) {
      for (let c = 0; c < n; c++) if (w[c] !== 0) out[c] += w[c] * held
    },
  }
  return { m, rhs, x, extra, halves }
}

function solve(b: KernelBackend, withExtra: boolean | 'halves', tol: number, maxIt: number) {
  const s = system(b)
  const stats = new ActivePcg(nx, ny, nz, b).solve(s.m, s.rhs, s.x, tol, maxIt, withExtra === 'halves' ? s.halves : withExtra ? s.extra : null)
  return { stats, x: Array.from(s.x, (v) => (Object.is(v, -0) ? '-0' : String(v))) }
}

const backends: KernelBackend[] = []

describe('ActivePcg on a borrowed scratch block', () => {
  it('gives its own scratch\'s bits when another pass leaves NaN in the block between solves (the liquid lends it to the level set)', () => {
    const shared = new Float64Array(ACTIVE_PCG_SCRATCH_CELLS * n)
    const own = new ActivePcg(nx, ny, nz), borrowing = new ActivePcg(nx, ny, nz, TS_KERNELS, shared)
    for (const withExtra of [false, true, false]) {
      const a = system(TS_KERNELS), b = system(TS_KERNELS)
      const want = own.solve(a.m, a.rhs, a.x, 1e-9, 1000, withExtra ? a.extra : null)
      shared.fill(Number.NaN)
      const got = borrowing.solve(b.m, b.rhs, b.x, 1e-9, 1000, withExtra ? b.extra : null)
      expect(want.iterations).toBeGreaterThan(3)
      expect(got).toEqual(want)
      expect(Array.from(b.x)).toEqual(Array.from(a.x))
    }
  })
  it('clears only the planes its kernels read: NaN above and below a liquid in the middle planes changes nothing, on TypeScript and 2 WebAssembly threads', () => {
    // A taller grid whose unknowns fill planes 9..15 of 24: the solve clears planes 8..16.
    const tz = 24, tn = nx * ny * tz
    const tall = (b: KernelBackend) => {
      const prng = new Prng(4)
      const m = new Stencil7Matrix(nx, ny, tz, b)
      const on = fillBlobSystem(m, prng, [8.2, 5.1, 12.2], [7, 5.5, 3.6])
      const rhs = b.f64(tn), x = b.f64(tn)
      for (let c = 0; c < tn; c++) if (on[c]) (rhs[c] = prng.range(-1, 1)), (x[c] = prng.range(-0.1, 0.1))
      const planes = new Set<number>()
      for (let c = 0; c < tn; c++) if (on[c]) planes.add(Math.floor(c / (nx * ny)))
      expect(Math.min(...planes)).toBe(9)
      expect(Math.max(...planes)).toBe(15)
      return { m, rhs, x }
    }
    const a = tall(TS_KERNELS)
    const want = new ActivePcg(nx, ny, tz).solve(a.m, a.rhs, a.x, 1e-9, 1000)
    expect(want.iterations).toBeGreaterThan(3)
    const wasm = createKernelBackend('wasm', { threads: 2, minParallelWork: 0, strict: true, initialBytes: 1 << 22 })
    backends.push(wasm)
    for (const b of [TS_KERNELS, wasm]) {
      const shared = b.f64(ACTIVE_PCG_SCRATCH_CELLS * tn).fill(Number.NaN)
      const got = tall(b)
      expect(new ActivePcg(nx, ny, tz, b, shared).solve(got.m, got.rhs, got.x, 1e-9, 1000)).toEqual(want)
      expect(Array.from(got.x)).toEqual(Array.from(a.x))
      // What it did not need stays as the other pass left it (r may take b whole on a cold start; b is 0 there).
      for (const v of [1, 2, 3, 4]) expect(Number.isNaN(shared[v * tn]) && Number.isNaN(shared[(v + 1) * tn - 1]), `vector ${v}`).toBe(true)
    }
  })
})
afterAll(async () => {
  for (const b of backends) await b.dispose()
})

describe('ActivePcg on the WebAssembly kernels', () => {
  it('gives the TypeScript backend\'s iterations, residual and solution bits on 1, 2 and 3 threads, split or inline', () => {
    for (const [withExtra, tol, maxIt] of [[false, 1e-8, 1000], [true, 1e-10, 1000], ['halves', 1e-10, 1000], [false, 1e-6, 4]] as const) {
      // (The halves against the whole term's reference: the overlapped operator's bits.)
      const ref = solve(TS_KERNELS, withExtra === 'halves' ? true : withExtra, tol, maxIt)
      expect(ref.stats.iterations).toBeGreaterThan(3)
      // Split across the threads (MIC(0)'s solves pipelined over one band per thread), and on
      // 3 threads with every kernel run inline (3 bands solved one after another).
      for (const [threads, minParallelWork] of [[1, 0], [2, 0], [3, 0], [3, 1e9]]) {
        const b = createKernelBackend('wasm', { threads, minParallelWork, strict: true, initialBytes: 1 << 20 })
        backends.push(b)
        const got = solve(b, withExtra, tol, maxIt)
        expect((b as WasmKernelBackend).fallbacks).toBe(0)
        expect(got.stats, `${threads} threads, parallel from ${minParallelWork}, extra ${withExtra}`).toEqual(ref.stats)
        expect(got.x).toEqual(ref.x)
      }
    }
  })
})
