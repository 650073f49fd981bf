// The WebAssembly kernels split over worker threads (src-main/sim/workerPool.ts +
// src-shared/sim/parallel/slabPool.ts) must give the same bits with 1, 2 and 3 threads: every
// kernel writes disjoint outputs and reductions keep one partial sum per plane, added in plane
// order. minParallelWork: 0 makes even tiny jobs split, so every kernel is exercised in parallel.
import { closeSync, openSync, readFileSync, readSync } from 'node:fs'
import { afterAll, describe, expect, it, vi } from 'vitest'
import { Advector } from '../../../src-shared/sim/core/advect'
import { computeFaceFractions, type DomainSides } from '../../../src-shared/sim/core/boundaries'
import { addBuoyancy } from '../../../src-shared/sim/core/forces'
import { type GridSpec, MacGrid, ScalarField } from '../../../src-shared/sim/core/grid'
import type { KernelBackend } from '../../../src-shared/sim/core/kernelBackend'
import { PressureSolver } from '../../../src-shared/sim/core/pressure'
import { VorticityConfinement } from '../../../src-shared/sim/core/vorticity'
import { ACTIVE_UPDATE_ITERATE, ACTIVE_UPDATE_SEARCH } from '../../../src-shared/sim/liquid/activeKernels'
import { balancedCuts, guidedShare, type SlabPool } from '../../../src-shared/sim/parallel/slabPool'
import type { WasmMemory } from '../../../src-shared/sim/wasm/kernels'
import { WasmKernelBackend } from '../../../src-shared/sim/wasm/wasmBackend'
import { createKernelBackend } from '../../../src-main/sim/workerPool'

function rng(seed: number): () => number {
  let s = seed >>> 0
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0
    return s / 4294967296
  }
}

function fillRandom(a: Float32Array | Float64Array, seed: number, scale = 1): void {
  const r = rng(seed)
  for (let i = 0; i < a.length; i++) a[i] = (r() - 0.5) * 2 * scale
}

const spec: GridSpec = { nx: 23, ny: 17, nz: 13, dx: 0.05, origin: [0, 0, 0] }
const { nx, ny, nz } = spec
const n = nx * ny * nz
const sides: DomainSides = { xMin: 'closed', xMax: 'closed', yMin: 'closed', yMax: 'open', zMin: 'closed', zMax: 'closed' }
const solid = new Float32Array(n)
for (let k = 0; k < nz; k++)
  for (let j = 0; j < ny; j++)
    for (let i = 0; i < nx; i++) {
      const d = Math.hypot(i - 11, j - 7.5, k - 6) - 3.6
      solid[i + nx * (j + ny * k)] = Math.min(1, Math.max(0, 0.5 - d / 1.7))
    }

/** Everything a short smoke-like sequence produces, run on one backend. */
function run(kernels: KernelBackend) {
  const opts = { kernels }
  const fractions = new MacGrid(spec, opts)
  const s = kernels.f32(n)
  s.set(solid)
  computeFaceFractions(s, sides, fractions)
  const mask = kernels.u8(n)
  for (let c = 0; c < n; c++) mask[c] = solid[c] >= 0.5 ? 1 : 0
  const vel = new MacGrid(spec, opts)
  fillRandom(vel.u, 1)
  fillRandom(vel.v, 2)
  fillRandom(vel.w, 3)
  const density = new ScalarField(spec, opts)
  const temperature = new ScalarField(spec, opts)
  fillRandom(density.data, 4)
  fillRandom(temperature.data, 5, 30)
  const pressure = new PressureSolver(spec, { kernels, tolerance: 1e-8 })
  const advector = new Advector(spec, opts)
  const confinement = new VorticityConfinement(spec, opts)
  const next = new MacGrid(spec, opts)
  const rho = new ScalarField(spec, opts)
  const stats = []
  for (let step = 0; step < 2; step++) {
    addBuoyancy(vel, density.data, temperature.data, { alpha: 0.1, beta: 0.2, ambientTemperature: 0 }, 0.04, kernels)
    confinement.apply(vel, 0.4, 0.04)
    stats.push(pressure.project(vel, fractions))
    advector.advectVelocity(next, vel, 0.04, { solid: mask })
    advector.advectScalar(rho.data, density.data, next, 0.04, { solid: s })
    vel.copyFrom(next)
    density.data.set(rho.data)
  }
  // A plain dot product on top (per-plane partials summed in order).
  const partial = kernels.f64(nz)
  const dot = kernels.dot(pressure.phi, pressure.phi, nx * ny, nz, partial)
  return { stats, u: Float32Array.from(vel.u), v: Float32Array.from(vel.v), w: Float32Array.from(vel.w), rho: Float32Array.from(density.data), phi: Float64Array.from(pressure.phi), partial: Float64Array.from(partial), dot }
}

const backends: KernelBackend[] = []
afterAll(async () => {
  for (const b of backends) await b.dispose()
})

function sameBits(a: ArrayLike<number>, b: ArrayLike<number>): boolean {
  if (a.length !== b.length) return false
  for (let i = 0; i < a.length; i++) if (!Object.is(a[i], b[i])) return false
  return true
}

describe('worker-thread kernels', () => {
  it.each([true, false])('1, 2 and 3 threads give identical bits (exact reductions: %s)', (exactReductions) => {
    const results = [1, 2, 3].map((threads) => {
      const backend = createKernelBackend('wasm', { threads, minParallelWork: 0, strict: true, exactReductions, initialBytes: 1 << 20 })
      backends.push(backend)
      expect(backend.threads).toBe(threads)
      const r = run(backend)
      const pool = (backend as WasmKernelBackend).runner as SlabPool
      if (threads > 1) expect(pool.parallelJobs).toBeGreaterThan(100)
      return r
    })
    const [one, ...more] = results
    expect(one.stats.every((s) => s.converged)).toBe(true)
    for (const r of more) {
      expect(r.stats).toEqual(one.stats)
      expect(sameBits(r.u, one.u)).toBe(true)
      expect(sameBits(r.v, one.v)).toBe(true)
      expect(sameBits(r.w, one.w)).toBe(true)
      expect(sameBits(r.rho, one.rho)).toBe(true)
      expect(sameBits(r.phi, one.phi)).toBe(true)
      expect(sameBits(r.partial, one.partial)).toBe(true)
      expect(r.dot).toBe(one.dot)
    }
  })

  it('matches the TypeScript kernels bit for bit with exact reductions', () => {
    const backend = createKernelBackend('wasm', { threads: 2, minParallelWork: 0, strict: true })
    backends.push(backend)
    const a = run(backend)
    const b = run(createKernelBackend('ts'))
    expect(a.stats).toEqual(b.stats)
    expect(sameBits(a.u, b.u) && sameBits(a.v, b.v) && sameBits(a.w, b.w) && sameBits(a.rho, b.rho) && sameBits(a.phi, b.phi)).toBe(true)
  })

  it('reports a kernel fault in a worker and keeps working', () => {
    const backend = createKernelBackend('wasm', { threads: 2, minParallelWork: 0 }) as WasmKernelBackend
    backends.push(backend)
    const pool = backend.runner
    const { kernels } = backend
    // An unknown kernel number traps (unreachable) in every thread.
    expect(() => pool.run(999, [], 0, 4)).toThrow()
    const x = kernels.arena.f64(8).fill(1)
    const out = kernels.arena.f64(8)
    const f = kernels.arena.f32(12).fill(1)
    backend.applyPoisson(out, x, f, f, f, 2, 2, 2)
    expect(Array.from(out)).toEqual([3, 3, 3, 3, 3, 3, 3, 3])
  })
})

describe('pieces taken by whichever thread is free (KernelRowSpec.piecesPerThread)', () => {
  it('runs every index exactly once, with or without a balance, on 1, 2 and 3 threads', () => {
    for (const threads of [1, 2, 3]) {
      const backend = createKernelBackend('wasm', { threads, minParallelWork: 0, strict: true, initialBytes: 1 << 20 }) as WasmKernelBackend
      backends.push(backend)
      const { kernels } = backend
      const pool = backend.runner
      const planes = 37, plane = 5
      const id = kernels.idOf('updateIterateExact')
      for (const pieces of [1, 2, 8, 100]) {
        for (const balance of [null, Float64Array.from({ length: planes + 1 }, (_, k) => k * k)]) {
          // x += alpha s with x = 0, s = index + 1, alpha = 1: x = s exactly where an index ran
          // once (twice gives 2 s, never 0); r = -q: the partial per plane is |r|^2.
          const x = kernels.arena.f64(planes * plane), r = kernels.arena.f64(planes * plane)
          const sv = kernels.arena.f64(planes * plane), q = kernels.arena.f64(planes * plane)
          const partial = kernels.arena.f64(planes).fill(-1)
          for (let i = 0; i < sv.length; i++) (sv[i] = i + 1), (q[i] = 1)
          pool.run(id, [x.byteOffset, r.byteOffset, sv.byteOffset, q.byteOffset, 1, plane, partial.byteOffset], 7, planes, planes * plane, balance, pieces)
          expect(Array.from(x), `${threads} threads, ${pieces} pieces`).toEqual(Array.from(sv))
          expect(Array.from(r)).toEqual(new Array(r.length).fill(-1))
          expect(Array.from(partial)).toEqual(new Array(planes).fill(plane))
        }
      }
      if (threads > 1) expect((pool as SlabPool).parallelJobs).toBeGreaterThanOrEqual(8)
    }
  })
})

describe('balancedCuts', () => {
  /** The ranges [out[2t], out[2t + 1]) for `parts` threads over cumulative work `cum`. */
  function cuts(cum: number[], parts: number): number[][] {
    const n = cum.length - 1
    const out = new Int32Array(2 * parts)
    for (let t = 0; t < parts; t++) (out[2 * t] = Math.floor((n * t) / parts)), (out[2 * t + 1] = Math.floor((n * (t + 1)) / parts))
    balancedCuts(cum, n, parts, out, 0)
    return Array.from({ length: parts }, (_, t) => [out[2 * t], out[2 * t + 1]])
  }
  const cumulative = (w: number[]) => w.reduce((acc, x) => [...acc, acc[acc.length - 1] + x], [0])

  it('gives each thread an equal share of the work, covering the range in order', () => {
    // A liquid in the lower quarter of 16 planes: the work is in planes 0-3.
    const w = [10, 10, 10, 10, 0.1, 0.1, 0.1, 0.1, 0.1, 0.1, 0.1, 0.1, 0.1, 0.1, 0.1, 0.1]
    const two = cuts(cumulative(w), 2)
    expect(two).toEqual([[0, 2], [2, 16]])
    const three = cuts(cumulative(w), 3)
    expect(three[0][0]).toBe(0)
    expect(three[2][1]).toBe(16)
    for (let t = 1; t < 3; t++) expect(three[t][0]).toBe(three[t - 1][1])
    // Uniform work: equal lengths.
    expect(cuts(cumulative(new Array(12).fill(1)), 3)).toEqual([[0, 4], [4, 8], [8, 12]])
  })

  it('cuts pieces of falling work when given the guided shares, so the last piece taken is small', () => {
    for (const parts of [2, 4, 12, 40]) {
      expect(guidedShare(0, parts)).toBe(0)
      expect(guidedShare(parts, parts)).toBeCloseTo(1, 12)
      for (let t = 1; t < parts; t++) expect(guidedShare(t + 1, parts) - guidedShare(t, parts)).toBeLessThan(guidedShare(t, parts) - guidedShare(t - 1, parts))
    }
    // Twelve pieces (six a thread on two): the last about a third of an equal share, the first about twice.
    expect(guidedShare(12, 12) - guidedShare(11, 12)).toBeLessThan(0.4 / 12)
    expect(guidedShare(1, 12)).toBeGreaterThan(1.8 / 12)
    // Over work that is not uniform, the cuts follow the work, not the index.
    const w = [...new Array(60).fill(1), ...new Array(60).fill(3)]
    const cum = cumulative(w)
    const out = new Int32Array(2 * 12)
    balancedCuts(cum, 120, 12, out, 0, guidedShare)
    const work = Array.from({ length: 12 }, (_, t) => cum[out[2 * t + 1]] - cum[out[2 * t]])
    expect(out[0]).toBe(0)
    expect(out[23]).toBe(120)
    for (let t = 1; t < 12; t++) expect(out[2 * t]).toBe(out[2 * t - 1])
    for (let t = 0; t < 12; t++) expect(Math.abs(work[t] - 240 * (guidedShare(t + 1, 12) - guidedShare(t, 12)))).toBeLessThanOrEqual(3)
  })

  it('keeps the equal-length split when the balance has no work or is not finite', () => {
    expect(cuts([0, 0, 0, 0, 0], 2)).toEqual([[0, 2], [2, 4]])
    expect(cuts([0, 1, NaN, 3, 4], 2)).toEqual([[0, 2], [2, 4]])
    // All the work in the last index: the first thread's range is empty, the ranges still cover all.
    expect(cuts([0, 0, 0, 0, 5], 2)).toEqual([[0, 3], [3, 4]])
  })
})

describe('committing ahead (slabPool.ts): idle workers commit the pages of blocks as they are handed out', () => {
  /** How many of the memory's whole pages in [at, at + bytes) the operating system has backed (Linux's pagemap). */
  function residentPages(memory: WasmMemory, at: number, bytes: number): number {
    const length = BigInt(memory.buffer.byteLength)
    const mapping = readFileSync('/proc/self/maps', 'utf8')
      .split('\n')
      .map((line) => line.split(' '))
      .filter((f) => f[1] === 'rw-p')
      .map((f) => f[0].split('-').map((x) => BigInt(`0x${x}`)))
      .filter(([lo, hi]) => hi - lo === length)
    // The memory's size is made unique below, so exactly one mapping has it.
    expect(mapping.length).toBe(1)
    const base = mapping[0][0]
    const fd = openSync('/proc/self/pagemap', 'r')
    const entry = Buffer.alloc(8)
    let resident = 0
    try {
      for (let off = Math.ceil(at / 4096) * 4096; off + 4096 <= at + bytes; off += 4096) {
        readSync(fd, entry, 0, 8, Number((base + BigInt(off)) / 4096n) * 8)
        if (entry.readBigUInt64LE(0) >> 63n) resident++
      }
    } finally {
      closeSync(fd)
    }
    return resident
  }

  /** WebAssembly pages (64 KiB) of the memory in the first test: reserved, not backed. */
  const UNIQUE_PAGES = 3331

  it('commits every whole page of a block no thread writes, and keeps the values another block receives meanwhile', async () => {
    const backend = createKernelBackend('wasm', { threads: 2, initialBytes: 1 << 20 }) as WasmKernelBackend
    backends.push(backend)
    const { kernels } = backend
    const pool = backend.runner as SlabPool
    const bytes = 24 << 20
    // Written by this thread at once, while the worker commits the same pages.
    const written = kernels.arena.f64(bytes / 8)
    for (let i = 0; i < written.length; i++) written[i] = i + 0.5
    // Never written by anyone here.
    const idle = kernels.arena.f32(bytes / 4)
    // A job while pages are still left: it runs (the worker looks for jobs between batches).
    const x = kernels.arena.f64(8).fill(1)
    const out = kernels.arena.f64(8)
    const f = kernels.arena.f32(12).fill(1)
    backend.applyPoisson(out, x, f, f, f, 2, 2, 2)
    expect(Array.from(out)).toEqual([3, 3, 3, 3, 3, 3, 3, 3])
    await vi.waitFor(() => expect(pool.pagesToCommit).toBe(0), { timeout: 30_000, interval: 20 })
    let wrong = 0
    for (let i = 0; i < written.length; i++) if (written[i] !== i + 0.5) wrong++
    expect(wrong).toBe(0)
    expect(idle.every((v) => v === 0)).toBe(true)
    // A size no other memory in this process has (grown, not handed out: nothing commits it).
    kernels.memory.grow(UNIQUE_PAGES - kernels.memory.buffer.byteLength / 65536)
    const whole = Math.floor((idle.byteOffset + idle.byteLength) / 4096) - Math.ceil(idle.byteOffset / 4096)
    expect(residentPages(kernels.memory, idle.byteOffset, idle.byteLength)).toBe(whole)
  })

  it('is off with one thread: nothing but the caller touches the memory', () => {
    const backend = createKernelBackend('wasm', { threads: 1, initialBytes: 1 << 20 }) as WasmKernelBackend
    backends.push(backend)
    expect(backend.kernels.arena.onFresh).toBeNull()
  })
})

describe('overlapped jobs (KernelBackend.begin, slabPool.ts)', () => {
  it('a job begun on the other threads gives run()\'s bits while jobs run here meanwhile, on 1, 2 and 3 threads and on TypeScript', () => {
    const planes = 41, plane = 7
    const results: number[][] = []
    for (const threads of [0, 1, 2, 3]) {
      const backend = (threads === 0 ? createKernelBackend('ts') : createKernelBackend('wasm', { threads, minParallelWork: 0, strict: true, initialBytes: 1 << 20 })) as WasmKernelBackend
      if (threads > 0) backends.push(backend)
      // x += alpha s with x = 0, s = index + 1, alpha = 1 (as in the pieces test above): x = s
      // exactly where an index ran once.
      const x = backend.f64(planes * plane), r = backend.f64(planes * plane)
      const sv = backend.f64(planes * plane), q = backend.f64(planes * plane)
      const partial = backend.f64(planes).fill(-1)
      for (let i = 0; i < sv.length; i++) (sv[i] = i + 1), (q[i] = 1)
      const cells = new Int32Array(planes * plane).map((_, i) => i)
      const planeStart = new Int32Array(planes + 1).map((_, k) => k * plane)
      const c = backend.i32(cells.length)
      c.set(cells)
      const ps = backend.i32(planeStart.length)
      ps.set(planeStart)
      expect(() => backend.begin(ACTIVE_UPDATE_ITERATE, x, r, sv, q, 1, c, ps, partial, planes)).toThrow(/partials/)
      backend.begin(ACTIVE_UPDATE_SEARCH, sv, q, 2, c, ps, planes)
      // Meanwhile, here: a product on other arrays (on the calling thread alone).
      const px = backend.f64(8).fill(1)
      const out = backend.f64(8)
      const f = backend.f32(12).fill(1)
      backend.applyPoisson(out, px, f, f, f, 2, 2, 2)
      expect(Array.from(out)).toEqual([3, 3, 3, 3, 3, 3, 3, 3])
      // A second begin is refused while one is out.
      if (threads > 1) expect(() => backend.begin(ACTIVE_UPDATE_SEARCH, sv, q, 2, c, ps, planes)).toThrow(/overlapped/)
      backend.finish()
      backend.finish()
      // s = z + beta s: 1 + 2 (i + 1) at every index.
      expect(Array.from(sv)).toEqual(Array.from({ length: sv.length }, (_, i) => 1 + 2 * (i + 1)))
      // And the pool takes ordinary jobs again afterwards.
      backend.run(ACTIVE_UPDATE_ITERATE, x, r, sv, q, 1, c, ps, partial, planes)
      results.push(Array.from(x), Array.from(partial))
      if (threads > 1) expect(((backend as WasmKernelBackend).runner as SlabPool).parallelJobs).toBeGreaterThanOrEqual(2)
    }
    for (let t = 2; t < results.length; t += 2) {
      expect(results[t]).toEqual(results[0])
      expect(results[t + 1]).toEqual(results[1])
    }
  })

  it('a job begun inside a scoped region, then another after the region was given back and its memory reused, each gives its bits and leaves the new arrays alone', () => {
    const planes = 41, plane = 7, n = planes * plane
    const backend = createKernelBackend('wasm', { threads: 2, minParallelWork: 0, strict: true, initialBytes: 1 << 20 }) as WasmKernelBackend
    backends.push(backend)
    const c = backend.i32(n), ps = backend.i32(planes + 1)
    for (let i = 0; i < n; i++) c[i] = i
    for (let k = 0; k <= planes; k++) ps[k] = k * plane
    const searchOnce = () => {
      const sv = backend.f64(n), q = backend.f64(n).fill(1)
      for (let i = 0; i < n; i++) sv[i] = i + 1
      backend.begin(ACTIVE_UPDATE_SEARCH, sv, q, 2, c, ps, planes)
      backend.finish()
      return sv
    }
    const expected = Array.from({ length: n }, (_, i) => 1 + 2 * (i + 1))
    // The first begin() on this backend, inside a region: whatever it makes there goes back.
    expect(backend.scoped(() => Array.from(searchOnce()))).toEqual(expected)
    // Arrays over the given-back memory, then a second overlapped job.
    const guard = backend.f64(4096).fill(12345)
    expect(Array.from(searchOnce())).toEqual(expected)
    expect(guard.every((v) => v === 12345)).toBe(true)
  })
})
