// Monotone cubic advection on the WebAssembly kernels (assembly/advect.ts advectCubic) against
// the TypeScript reference (advectSlab with cubic = true, maccormackCorrectSlab): bit for bit
// on every lattice, odd sizes and solid kinds, with a second field and recorded corners; the
// same bits on 1 and 2 worker threads; and no fallback to the reference.
import { afterAll, describe, expect, it } from 'vitest'
import { Advector, advectSlab, LIMIT_CLAMP, LIMIT_REVERT, maccormackCorrectSlab } from '../../../src-shared/sim/core/advect'
import { type GridSpec, MacGrid } from '../../../src-shared/sim/core/grid'
import type { KernelBackend } from '../../../src-shared/sim/core/kernelBackend'
import type { SlabPool } from '../../../src-shared/sim/parallel/slabPool'
import { createWasmBackend, type WasmKernelBackend } from '../../../src-shared/sim/wasm/wasmBackend'
import { createKernelBackend } from '../../../src-main/sim/workerPool'

function rng(seed: number): () => number {
  let s = seed >>> 0
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0
    return s / 4294967296
  }
}

function randF32(n: number, seed: number, scale = 1): Float32Array {
  const r = rng(seed)
  const a = new Float32Array(n)
  for (let i = 0; i < n; i++) a[i] = (r() - 0.5) * 2 * scale
  return a
}

const wasm = createWasmBackend({ strict: true })
const backends: KernelBackend[] = [wasm]
afterAll(async () => {
  for (const b of backends) await b.dispose()
})

type Arr = Float32Array | Int32Array | Uint8Array

function inWasm<T extends Arr>(src: T, b: KernelBackend = wasm): T {
  const a = src instanceof Float32Array ? b.f32(src.length) : src instanceof Int32Array ? b.i32(src.length) : b.u8(src.length)
  a.set(src)
  return a as T
}

function expectSame(a: ArrayLike<number>, b: ArrayLike<number>): void {
  expect(a.length).toBe(b.length)
  let mismatches = 0
  for (let i = 0; i < b.length; i++) if (!Object.is(a[i], b[i])) mismatches++
  expect(mismatches).toBe(0)
}

const SIZES: [number, number, number][] = [
  [13, 10, 7],
  [8, 8, 8],
  [5, 3, 9],
  [1, 4, 3],
  [2, 2, 2],
  [9, 1, 5],
]

describe.each(SIZES)('cubic advection on %i x %i x %i', (nx, ny, nz) => {
  const n = nx * ny * nz
  const nu = (nx + 1) * ny * nz
  const nv = nx * (ny + 1) * nz
  const nw = nx * ny * (nz + 1)

  describe.each([-1, 0, 1, 2] as const)('lattice %i', (axis) => {
    const sx = axis === 0 ? nx + 1 : nx
    const sy = axis === 1 ? ny + 1 : ny
    const sz = axis === 2 ? nz + 1 : nz
    const m = sx * sy * sz
    const planes = axis === 2 ? nz + 1 : nz
    // Up to 3 cells per step: departure points leave the grid, stencils hit every border.
    const u = randF32(nu, 42, 3)
    const v = randF32(nv, 43, 3)
    const w = randF32(nw, 44, 3)
    const src = randF32(m, 45)
    const src2 = randF32(m, 46)
    // Flat patches (delta = 0 segments) and runs with extrema (the slope limiter fires).
    for (let i = 0; i < m; i += 7) src[i] = src[(i + 1) % m]
    const r = rng(47)
    const mask = new Uint8Array(n).map(() => (r() < 0.2 ? 1 : 0))
    const frac = new Float32Array(n).map(() => r())
    const solids = { none: null, mask, fraction: frac }

    it.each(['none', 'mask', 'fraction'] as const)('semi-Lagrangian, second field, corners, MacCormack; solid: %s', (kind) => {
      const solid = solids[kind]
      const ws = solid && inWasm(solid)
      const wu = inWasm(u)
      const wv = inWasm(v)
      const ww = inWasm(w)
      const wsrc = inWasm(src)
      const wsrc2 = inWasm(src2)
      for (const c of [0.7, -0.45]) {
        const ref = new Float32Array(m)
        advectSlab(ref, src, axis, u, v, w, nx, ny, nz, c, true, solid, 0, planes)
        const out = wasm.f32(m)
        wasm.advect(out, wsrc, axis, wu, wv, ww, nx, ny, nz, c, true, ws)
        expectSame(out, ref)
      }
      // Forward pass with a second field and recorded corners.
      const fwd = new Float32Array(m)
      const fwd2 = new Float32Array(m)
      const base = new Int32Array(m)
      advectSlab(fwd, src, axis, u, v, w, nx, ny, nz, 0.7, true, solid, 0, planes, fwd2, src2, base)
      const wfwd = wasm.f32(m)
      const wfwd2 = wasm.f32(m)
      const wbase = wasm.i32(m)
      wasm.advect(wfwd, wsrc, axis, wu, wv, ww, nx, ny, nz, 0.7, true, ws, wfwd2, wsrc2, wbase)
      expectSame(wfwd, fwd)
      expectSame(wfwd2, fwd2)
      // Solid samples leave base untouched (zero in both).
      expectSame(wbase, base)
      const bwd = new Float32Array(m)
      advectSlab(bwd, fwd, axis, u, v, w, nx, ny, nz, -0.7, true, solid, 0, planes)
      const wbwd = wasm.f32(m)
      wasm.advect(wbwd, wfwd, axis, wu, wv, ww, nx, ny, nz, -0.7, true, ws)
      expectSame(wbwd, bwd)
      for (const limiter of [LIMIT_REVERT, LIMIT_CLAMP]) {
        const ref = new Float32Array(m)
        maccormackCorrectSlab(ref, src, fwd, bwd, axis, u, v, w, nx, ny, nz, 0.7, solid, limiter, 0, planes)
        const out = wasm.f32(m)
        wasm.maccormackCorrect(out, wsrc, wfwd, wbwd, axis, wu, wv, ww, nx, ny, nz, 0.7, ws, limiter, wbase)
        expectSame(out, ref)
      }
      expect(wasm.fallbacks).toBe(0)
    })
  })

  it('NaN and infinite values like the reference', () => {
    const u = randF32(nu, 53, 2)
    const v = randF32(nv, 54, 2)
    const w = randF32(nw, 55, 2)
    const src = randF32(n, 56)
    const r = rng(57)
    for (const a of [u, v, w, src]) for (let t = 0; t < 3; t++) a[Math.floor(r() * a.length)] = [Number.NaN, Infinity, -Infinity][t]
    const ref = new Float32Array(n)
    advectSlab(ref, src, -1, u, v, w, nx, ny, nz, 0.6, true, null, 0, nz)
    const out = wasm.f32(n)
    wasm.advect(out, inWasm(src), -1, inWasm(u), inWasm(v), inWasm(w), nx, ny, nz, 0.6, true, null)
    expectSame(out, ref)
    expect(wasm.fallbacks).toBe(0)
  })
})

describe('cubic Advector on WebAssembly kernels', () => {
  const spec: GridSpec = { nx: 11, ny: 9, nz: 7, dx: 0.1, origin: [0, 0, 0] }
  const { nx, ny, nz } = spec
  const n = nx * ny * nz
  const r = rng(61)
  const mask = new Uint8Array(n).map(() => (r() < 0.15 ? 1 : 0))

  function fill(g: MacGrid, seed: number): void {
    g.u.set(randF32(g.u.length, seed, 2))
    g.v.set(randF32(g.v.length, seed + 1, 2))
    g.w.set(randF32(g.w.length, seed + 2, 2))
  }

  /** MacCormack (velocity, two scalars) and semi-Lagrangian velocity, cubic, on backend b. */
  function run(b: KernelBackend | null) {
    const opts = b ? { kernels: b } : {}
    const vel = new MacGrid(spec, opts)
    fill(vel, 70)
    const out = new MacGrid(spec, opts)
    const sl = new MacGrid(spec, opts)
    const alloc = (len: number) => (b ? b.f32(len) : new Float32Array(len))
    const s1 = alloc(n)
    const s2 = alloc(n)
    s1.set(randF32(n, 80))
    s2.set(randF32(n, 81))
    const d1 = alloc(n)
    const d2 = alloc(n)
    const solid = b ? inWasm(mask, b) : mask
    const adv = new Advector(spec, opts)
    adv.advectVelocity(out, vel, 0.05, { interpolation: 'cubic', solid })
    adv.advectVelocity(sl, vel, 0.05, { interpolation: 'cubic', scheme: 'semi-lagrangian', solid })
    adv.advectScalars([d1, d2], [s1, s2], out, 0.05, { interpolation: 'cubic', limiter: 'clamp' })
    return [out.u, out.v, out.w, sl.u, sl.v, sl.w, d1, d2].map((a) => Float32Array.from(a))
  }

  it('gives the TypeScript answer on 1 and 2 threads, without falling back', () => {
    const ref = run(null)
    for (const threads of [1, 2]) {
      const b = createKernelBackend('wasm', { threads, minParallelWork: 0, strict: true, initialBytes: 1 << 20 }) as WasmKernelBackend
      backends.push(b)
      const got = run(b)
      for (let f = 0; f < ref.length; f++) expectSame(got[f], ref[f])
      expect(b.fallbacks).toBe(0)
      if (threads > 1) expect((b.runner as SlabPool).parallelJobs).toBeGreaterThanOrEqual(4)
    }
  })
})
