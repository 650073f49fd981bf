// Every WebAssembly kernel against its TypeScript reference on random fields: odd sizes (rows
// not a multiple of the SIMD width), face fractions with zeros, all lattices and solid kinds.
// The kernels are written to be bit-identical to the references (same float64 operations in
// the same order), so most checks demand exact equality; the two-lane SIMD reductions
// (exactReductions: false) are checked to a relative 1e-12.
import { afterAll, describe, expect, it } from 'vitest'
import { Advector, advectSlab, LIMIT_CLAMP, LIMIT_NONE, LIMIT_REVERT, maccormackCorrectSlab, maccormackExcessSlab, maccormackRedistributeSlab } from '../../../src-shared/sim/core/advect'
import { MACCORMACK_EXCESS, MACCORMACK_REDISTRIBUTE } from '../../../src-shared/sim/core/kernelRows'
import { computeFaceFractions, type DomainSides } from '../../../src-shared/sim/core/boundaries'
import { addBuoyancySlab } from '../../../src-shared/sim/core/forces'
import { type GridSpec, MacGrid } from '../../../src-shared/sim/core/grid'
import { TS_KERNELS } from '../../../src-shared/sim/core/kernelBackend'
import { gaussSeidelColorSlab, jacobiSlab, MultigridPreconditioner, prolongAddSlab, relaxRuns, restrictSlab } from '../../../src-shared/sim/core/multigrid'
import { RELAX_RUNS } from '../../../src-shared/sim/core/kernelRows'
import { randomRuns } from './runLists'
import { applyPoissonSlab, netOutfluxSlab, residualSlab, subtractGradientSlab } from '../../../src-shared/sim/core/poisson'
import { PressureSolver } from '../../../src-shared/sim/core/pressure'
import { dotPlanesSlab, updateIterateSlab, updateSearchSlab } from '../../../src-shared/sim/core/vectorOps'
import { addCellForceToFacesSlab, confinementForceSlab, VorticityConfinement, vorticitySlab } from '../../../src-shared/sim/core/vorticity'
import { decodeBase64, WasmArena, WasmKernels } from '../../../src-shared/sim/wasm/kernels'
import { createWasmBackend, WasmKernelBackend } from '../../../src-shared/sim/wasm/wasmBackend'

function rng(seed: number): () => number {
  let s = seed >>> 0
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0
    return s / 4294967296
  }
}

const wasm = createWasmBackend({ strict: true })
const wasmFast = new WasmKernelBackend(wasm.kernels, undefined, { strict: true, exactReductions: false })
afterAll(() => wasm.dispose())

type Arr = Float32Array | Float64Array | Int32Array | Uint8Array

/** A copy of src in the wasm memory. */
function inWasm<T extends Arr>(src: T): T {
  const a = src instanceof Float32Array ? wasm.f32(src.length) : src instanceof Float64Array ? wasm.f64(src.length) : src instanceof Int32Array ? wasm.i32(src.length) : wasm.u8(src.length)
  a.set(src)
  return a as T
}

function randF32(n: number, seed: number, scale = 1): Float32Array {
  const r = rng(seed)
  const a = new Float32Array(n)
  for (let i = 0; i < n; i++) a[i] = (r() - 0.5) * 2 * scale
  return a
}

function randF64(n: number, seed: number): Float64Array {
  const r = rng(seed)
  const a = new Float64Array(n)
  for (let i = 0; i < n; i++) a[i] = r() - 0.5
  return a
}

/** Face fractions: about 30% zero, 30% one, the rest in (0, 1). */
function randWeights(n: number, seed: number): Float32Array {
  const r = rng(seed)
  const a = new Float32Array(n)
  for (let i = 0; i < n; i++) {
    const t = r()
    a[i] = t < 0.3 ? 0 : t < 0.6 ? 1 : r()
  }
  return a
}

/** max |a - b| / max |b| (0 when both are all zero). */
function relDiff(a: ArrayLike<number>, b: ArrayLike<number>): number {
  let d = 0
  let m = 0
  for (let i = 0; i < b.length; i++) {
    if (!Number.isFinite(b[i])) continue
    d = Math.max(d, Math.abs(a[i] - b[i]))
    m = Math.max(m, Math.abs(b[i]))
  }
  return m === 0 ? d : d / m
}

/** Bitwise equality of two typed arrays (NaNs compare by value here: none are produced). */
function expectSame(a: ArrayLike<number>, b: ArrayLike<number>): void {
  expect(a.length).toBe(b.length)
  let mismatches = 0
  for (let i = 0; i < b.length; i++) if (!Object.is(a[i], b[i])) mismatches++
  expect(relDiff(a, b)).toBe(0)
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

describe('loading', () => {
  it('decodes base64 like Node does', () => {
    const bytes = new Uint8Array(300).map((_, i) => (i * 37 + 11) & 255)
    for (const len of [0, 1, 2, 3, 4, 299, 300]) {
      const s = Buffer.from(bytes.subarray(0, len)).toString('base64')
      expect(Array.from(decodeBase64(s))).toEqual(Array.from(bytes.subarray(0, len)))
    }
  })

  it('the arena hands out aligned, zeroed views that survive memory growth', () => {
    const k = new WasmKernels({ initialBytes: 65536 })
    const arena: WasmArena = k.arena
    const a = arena.f64(3)
    a.set([1, 2, 3])
    expect(a.byteOffset % 16).toBe(0)
    const before = k.memory.buffer.byteLength
    const big = arena.f32(1 << 20) // grows the memory
    expect(k.memory.buffer.byteLength).toBeGreaterThan(before)
    expect(big.byteOffset % 16).toBe(0)
    expect(Array.from(a)).toEqual([1, 2, 3])
    expect(arena.owns(a)).toBe(true)
    expect(arena.owns(big)).toBe(true)
    expect(arena.owns(new Float64Array(3))).toBe(false)
    const mark = arena.mark()
    const t = arena.u8(100)
    t.fill(7)
    arena.release(mark)
    expect(Array.from(arena.u8(100)).every((x) => x === 0)).toBe(true)
    // Bytes never handed out are zero as the memory grew them (the arena does not write them);
    // reused ones are cleared, also in a block that runs on past the highest one handed out.
    expect(big.every((x) => x === 0)).toBe(true)
    const mark2 = arena.mark()
    arena.u8(4096).fill(9)
    arena.release(mark2)
    const spans = arena.u8(8192)
    expect(spans.every((x) => x === 0)).toBe(true)
  })

  it('strict mode refuses arrays outside the memory; otherwise the reference runs', () => {
    const x = new Float64Array(8)
    const out = new Float64Array(8)
    const f = new Float32Array(12).fill(1)
    expect(() => wasm.applyPoisson(out, x, f, f, f, 2, 2, 2)).toThrow(/not in their memory/)
    const lax = new WasmKernelBackend(wasm.kernels)
    x.fill(1)
    lax.applyPoisson(out, x, f, f, f, 2, 2, 2)
    expect(lax.fallbacks).toBe(1)
    const ref = new Float64Array(8)
    applyPoissonSlab(ref, x, f, f, f, 2, 2, 2, 0, 2)
    expectSame(out, ref)
  })
})

describe.each(SIZES)('kernels on %i x %i x %i', (nx, ny, nz) => {
  const n = nx * ny * nz
  const plane = nx * ny
  const nu = (nx + 1) * ny * nz
  const nv = nx * (ny + 1) * nz
  const nw = nx * ny * (nz + 1)
  const fu = randWeights(nu, 1)
  const fv = randWeights(nv, 2)
  const fw = randWeights(nw, 3)
  const x = randF64(n, 4)
  const b = randF64(n, 5)
  const wfu = inWasm(fu)
  const wfv = inWasm(fv)
  const wfw = inWasm(fw)

  it('applyPoisson and residual', () => {
    const ref = new Float64Array(n)
    applyPoissonSlab(ref, x, fu, fv, fw, nx, ny, nz, 0, nz)
    const out = wasm.f64(n)
    wasm.applyPoisson(out, inWasm(x), wfu, wfv, wfw, nx, ny, nz)
    expectSame(out, ref)
    residualSlab(ref, b, x, fu, fv, fw, nx, ny, nz, 0, nz)
    const r = wasm.f64(n)
    wasm.residual(r, inWasm(b), inWasm(x), wfu, wfv, wfw, nx, ny, nz)
    expectSame(r, ref)
    // In place (r aliasing b), as PCG's true residual does not but multigrid could.
    const rb = inWasm(b)
    wasm.residual(rb, rb, inWasm(x), wfu, wfv, wfw, nx, ny, nz)
    expectSame(rb, ref)
  })

  it.each([false, true])('netOutflux (obstacle velocity: %s), float32 and float64 out', (withObstacle) => {
    const u = randF32(nu, 6)
    const v = randF32(nv, 7)
    const w = randF32(nw, 8)
    const su = withObstacle ? randF32(nu, 9) : null
    const sv = withObstacle ? randF32(nv, 10) : null
    const sw = withObstacle ? randF32(nw, 11) : null
    for (const out64 of [false, true]) {
      const ref = out64 ? new Float64Array(n) : new Float32Array(n)
      netOutfluxSlab(ref, u, v, w, fu, fv, fw, su, sv, sw, nx, ny, 0, nz)
      const out = out64 ? wasm.f64(n) : wasm.f32(n)
      wasm.netOutflux(out, inWasm(u), inWasm(v), inWasm(w), wfu, wfv, wfw, su && inWasm(su), sv && inWasm(sv), sw && inWasm(sw), nx, ny, nz)
      expectSame(out, ref)
    }
  })

  it('subtractGradient', () => {
    const u = randF32(nu, 12)
    const v = randF32(nv, 13)
    const w = randF32(nw, 14)
    const wu = inWasm(u)
    const wv = inWasm(v)
    const ww = inWasm(w)
    subtractGradientSlab(u, v, w, x, fu, fv, fw, nx, ny, nz, 0, nz)
    wasm.subtractGradient(wu, wv, ww, inWasm(x), wfu, wfv, wfw, nx, ny, nz)
    expectSame(wu, u)
    expectSame(wv, v)
    expectSame(ww, w)
  })

  it('dot, updateIterate, updateSearch (exact order: bit-identical; two lanes: 1e-12)', () => {
    const pRef = new Float64Array(nz)
    dotPlanesSlab(x, b, plane, pRef, 0, nz)
    const p = wasm.f64(nz)
    const wx = inWasm(x)
    const wb = inWasm(b)
    const total = wasm.dot(wx, wb, plane, nz, p)
    expectSame(p, pRef)
    expect(total).toBe(TS_KERNELS.dot(x, b, plane, nz, new Float64Array(nz)))
    wasmFast.dot(wx, wb, plane, nz, p)
    expect(relDiff(p, pRef)).toBeLessThan(1e-12)

    for (const backend of [wasm, wasmFast]) {
      const xs = Float64Array.from(x)
      const rs = Float64Array.from(b)
      const s = randF64(n, 15)
      const q = randF64(n, 16)
      const wxs = inWasm(xs)
      const wrs = inWasm(rs)
      updateIterateSlab(xs, rs, s, q, 0.37, plane, pRef, 0, nz)
      backend.updateIterate(wxs, wrs, inWasm(s), inWasm(q), 0.37, plane, nz, p)
      expectSame(wxs, xs)
      expectSame(wrs, rs)
      if (backend === wasm) expectSame(p, pRef)
      else expect(relDiff(p, pRef)).toBeLessThan(1e-12)
    }

    const s = randF64(n, 17)
    const ws = inWasm(s)
    updateSearchSlab(s, x, -1.3, plane, 0, nz)
    wasm.updateSearch(ws, inWasm(x), -1.3, plane, nz)
    expectSame(ws, s)
  })

  it.each([0, 1])('red-black Gauss-Seidel half sweep, colour %i', (color) => {
    const xs = Float64Array.from(x)
    const wx = inWasm(xs)
    gaussSeidelColorSlab(xs, b, fu, fv, fw, nx, ny, nz, color, 0, nz)
    wasm.gaussSeidelColor(wx, inWasm(b), wfu, wfv, wfw, nx, ny, nz, color)
    expectSame(wx, xs)
  })

  it.each([0, 1])('full red-black sweep, first colour %i (one pass, and in two-phase slabs)', (first) => {
    const xs = Float64Array.from(x)
    const wx = inWasm(xs)
    gaussSeidelColorSlab(xs, b, fu, fv, fw, nx, ny, nz, first, 0, nz)
    gaussSeidelColorSlab(xs, b, fu, fv, fw, nx, ny, nz, 1 - first, 0, nz)
    wasm.gaussSeidelSweep(wx, inWasm(b), wfu, wfv, wfw, nx, ny, nz, first)
    expectSame(wx, xs)
    // Any split into slabs: phase 0 on every slab, then phase 1 on every slab.
    for (const cuts of [[0, 1, nz], [0, Math.floor(nz / 2), nz], [0, 1, 2, 3, nz].filter((c) => c <= nz)]) {
      const wy = inWasm(x)
      const wb = inWasm(b)
      const e = wasm.kernels.exports
      for (const phase of [0, 1])
        for (let t = 0; t + 1 < cuts.length; t++)
          if (cuts[t] < cuts[t + 1]) e.gaussSeidelSweep(wy.byteOffset, wb.byteOffset, wfu.byteOffset, wfv.byteOffset, wfw.byteOffset, nx, ny, nz, first, phase, cuts[t], cuts[t + 1])
      expectSame(wy, xs)
    }
  })

  it('damped Jacobi', () => {
    const ref = new Float64Array(n)
    jacobiSlab(ref, x, b, fu, fv, fw, nx, ny, nz, 2 / 3, 0, nz)
    const out = wasm.f64(n)
    wasm.jacobi(out, inWasm(x), inWasm(b), wfu, wfv, wfw, nx, ny, nz, 2 / 3)
    expectSame(out, ref)
  })

  it.each([0, 1])('relaxRuns over runs of colour %i (rows whole, ends, single cells; any split of the runs)', (color) => {
    const { runs, cells } = randomRuns(nx, ny, nz, color, 18 + color)
    const xs = Float64Array.from(x)
    relaxRuns(xs, b, fu, fv, fw, nx, ny, nz, runs, 0, runs.length / 2)
    const wx = inWasm(x)
    wasm.run(RELAX_RUNS, wx, inWasm(b), wfu, wfv, wfw, nx, ny, nz, inWasm(runs), cells)
    expectSame(wx, xs)
    // The twin on any cut of the run list, in any order of the pieces.
    const m = runs.length / 2
    const wr = inWasm(runs)
    for (const cuts of [[0, m], [0, Math.floor(m / 2), m], [0, 1, Math.floor(m / 3), m].filter((c) => c <= m)]) {
      const wy = inWasm(x)
      const wb = inWasm(b)
      const e = wasm.kernels.exports
      for (let t = cuts.length - 2; t >= 0; t--)
        if (cuts[t] < cuts[t + 1]) e.relaxRuns(wy.byteOffset, wb.byteOffset, wfu.byteOffset, wfv.byteOffset, wfw.byteOffset, nx, ny, nz, wr.byteOffset, cuts[t], cuts[t + 1])
      expectSame(wy, xs)
    }
  })

  it('restriction and prolongation', () => {
    if (Math.max(nx, ny, nz) <= 4) return // a single multigrid level
    const mg = new MultigridPreconditioner(nx, ny, nz, { kernels: wasm, precision: 'float64' })
    const [f, c] = mg.levels
    const rf = randF64(n, 19)
    const ref = new Float64Array(c.nx * c.ny * c.nz)
    restrictSlab(ref, rf, nx, ny, nz, c.nx, c.ny, f.tx!, f.ty!, f.tz!, new Float64Array(f.scratch.length), 0, c.nz)
    const bc = wasm.f64(ref.length)
    wasm.restrict(bc, inWasm(rf), nx, ny, nz, c.nx, c.ny, c.nz, f.tx!, f.ty!, f.tz!, f.scratch)
    expectSame(bc, ref)

    const active = new Uint8Array(n)
    const r = rng(20)
    for (let i = 0; i < n; i++) active[i] = r() < 0.8 ? 1 : 0
    const xc = randF64(ref.length, 21)
    const xf = Float64Array.from(x)
    const wxf = inWasm(xf)
    prolongAddSlab(xf, xc, active, nx, ny, c.nx, c.ny, f.tx!, f.ty!, f.tz!, 0, nz)
    wasm.prolongAdd(wxf, inWasm(xc), inWasm(active), nx, ny, nz, c.nx, c.ny, f.tx!, f.ty!, f.tz!)
    expectSame(wxf, xf)
  })

  describe.each([-1, 0, 1, 2] as const)('advection of lattice %i', (axis) => {
    const sx = axis === 0 ? nx + 1 : nx
    const sy = axis === 1 ? ny + 1 : ny
    const sz = axis === 2 ? nz + 1 : nz
    const m = sx * sy * sz
    const planes = axis === 2 ? nz + 1 : nz
    // Velocities of up to 3 cells per step: departure points leave the grid too.
    const u = randF32(nu, 22, 3)
    const v = randF32(nv, 23, 3)
    const w = randF32(nw, 24, 3)
    const src = randF32(m, 25)
    const r = rng(26)
    const mask = new Uint8Array(n).map(() => (r() < 0.2 ? 1 : 0))
    const frac = new Float32Array(n).map(() => r())
    const solids = { none: null, mask, fraction: frac }

    it.each(['none', 'mask', 'fraction'] as const)('semi-Lagrangian and MacCormack, solid: %s', (kind) => {
      const solid = solids[kind]
      const ws = solid && inWasm(solid)
      const wu = inWasm(u)
      const wv = inWasm(v)
      const ww = inWasm(w)
      const wsrc = inWasm(src)
      for (const c of [0.7, -0.45]) {
        const ref = new Float32Array(m)
        advectSlab(ref, src, axis, u, v, w, nx, ny, nz, c, false, solid, 0, planes)
        const out = wasm.f32(m)
        wasm.advect(out, wsrc, axis, wu, wv, ww, nx, ny, nz, c, false, ws)
        expectSame(out, ref)
      }
      const fwd = new Float32Array(m)
      const bwd = new Float32Array(m)
      advectSlab(fwd, src, axis, u, v, w, nx, ny, nz, 0.7, false, solid, 0, planes)
      advectSlab(bwd, fwd, axis, u, v, w, nx, ny, nz, -0.7, false, solid, 0, planes)
      for (const limiter of [LIMIT_REVERT, LIMIT_CLAMP, LIMIT_NONE]) {
        const ref = new Float32Array(m)
        maccormackCorrectSlab(ref, src, fwd, bwd, axis, u, v, w, nx, ny, nz, 0.7, solid, limiter, 0, planes)
        const out = wasm.f32(m)
        wasm.maccormackCorrect(out, wsrc, inWasm(fwd), inWasm(bwd), axis, wu, wv, ww, nx, ny, nz, 0.7, ws, limiter)
        expectSame(out, ref)
      }
    })

    it.each(['none', 'mask', 'fraction'] as const)('a second field on the same trace and recorded corners, solid: %s', (kind) => {
      const solid = solids[kind]
      const ws = solid && inWasm(solid)
      const wu = inWasm(u)
      const wv = inWasm(v)
      const ww = inWasm(w)
      const src2 = randF32(m, 27)
      // Each field alone (the reference path without corners).
      const fwd = new Float32Array(m)
      const fwd2 = new Float32Array(m)
      advectSlab(fwd, src, axis, u, v, w, nx, ny, nz, 0.7, false, solid, 0, planes)
      advectSlab(fwd2, src2, axis, u, v, w, nx, ny, nz, 0.7, false, solid, 0, planes)
      // Both at once, recording corners: the same fields, in TypeScript and in wasm.
      const pa = new Float32Array(m)
      const pb = new Float32Array(m)
      const base = new Int32Array(m)
      advectSlab(pa, src, axis, u, v, w, nx, ny, nz, 0.7, false, solid, 0, planes, pb, src2, base)
      expectSame(pa, fwd)
      expectSame(pb, fwd2)
      const wa = wasm.f32(m)
      const wb = wasm.f32(m)
      const wbase = wasm.i32(m)
      wasm.advect(wa, inWasm(src), axis, wu, wv, ww, nx, ny, nz, 0.7, false, ws, wb, inWasm(src2), wbase)
      expectSame(wa, fwd)
      expectSame(wb, fwd2)
      const bwd = new Float32Array(m)
      advectSlab(bwd, fwd, axis, u, v, w, nx, ny, nz, -0.7, false, solid, 0, planes)
      for (const limiter of [LIMIT_REVERT, LIMIT_CLAMP, LIMIT_NONE]) {
        const ref = new Float32Array(m)
        maccormackCorrectSlab(ref, src, fwd, bwd, axis, u, v, w, nx, ny, nz, 0.7, solid, limiter, 0, planes)
        const viaBase = new Float32Array(m)
        maccormackCorrectSlab(viaBase, src, fwd, bwd, axis, u, v, w, nx, ny, nz, 0.7, solid, limiter, 0, planes, base)
        expectSame(viaBase, ref)
        const out = wasm.f32(m)
        wasm.maccormackCorrect(out, inWasm(src), inWasm(fwd), inWasm(bwd), axis, wu, wv, ww, nx, ny, nz, 0.7, ws, limiter, wbase)
        expectSame(out, ref)
      }
    })
    it.each(['none', 'mask', 'fraction'] as const)('conservative limiting (maccormackExcess, maccormackRedistribute), solid: %s', (kind) => {
      const solid = solids[kind]
      const ws = solid && inWasm(solid)
      // A sharp field (0/1 blocks) so the limiter clips and neighbours have room.
      const sharp = new Float32Array(m).map((_, q) => ((q * 7919) % 11 < 5 ? 1 : 0))
      const fwd = new Float32Array(m)
      const base = new Int32Array(m)
      advectSlab(fwd, sharp, axis, u, v, w, nx, ny, nz, 0.7, false, solid, 0, planes, null, null, base)
      const bwd = new Float32Array(m)
      advectSlab(bwd, fwd, axis, u, v, w, nx, ny, nz, -0.7, false, solid, 0, planes)
      for (const limiter of [LIMIT_REVERT, LIMIT_CLAMP]) {
        const dst = new Float32Array(m)
        maccormackCorrectSlab(dst, sharp, fwd, bwd, axis, u, v, w, nx, ny, nz, 0.7, solid, limiter, 0, planes, base)
        const [ex, up, dn] = [new Float32Array(m), new Float32Array(m), new Float32Array(m)]
        maccormackExcessSlab(ex, up, dn, dst, sharp, fwd, bwd, axis, u, v, w, nx, ny, nz, 0.7, solid, base, 0, planes)
        if (m >= 200) expect(ex.some((e) => e !== 0)).toBe(true) // the limiter did clip (tiny lattices may not)
        const [wex, wup, wdn, wdst] = [wasm.f32(m), wasm.f32(m), wasm.f32(m), inWasm(dst)]
        const [wsharp, wbase] = [inWasm(sharp), inWasm(base)]
        wasm.run(MACCORMACK_EXCESS, wex, wup, wdn, wdst, wsharp, inWasm(fwd), inWasm(bwd), axis, inWasm(u), inWasm(v), inWasm(w), nx, ny, nz, 0.7, ws, wbase)
        expectSame(wex, ex)
        expectSame(wup, up)
        expectSame(wdn, dn)
        maccormackRedistributeSlab(dst, ex, up, dn, sharp, axis, nx, ny, nz, base, 0, planes)
        wasm.run(MACCORMACK_REDISTRIBUTE, wdst, wex, wup, wdn, wsharp, axis, nx, ny, nz, wbase)
        expectSame(wdst, dst)
      }
    })
  })

  it('advection and MacCormack treat NaN and infinite values like the reference', () => {
    const u = randF32(nu, 33, 2)
    const v = randF32(nv, 34, 2)
    const w = randF32(nw, 35, 2)
    const src = randF32(n, 36)
    const r = rng(37)
    for (const a of [u, v, w, src]) for (let t = 0; t < 3; t++) a[Math.floor(r() * a.length)] = [Number.NaN, Infinity, -Infinity][t]
    const wu = inWasm(u)
    const wv = inWasm(v)
    const ww = inWasm(w)
    const wsrc = inWasm(src)
    const fwd = new Float32Array(n)
    advectSlab(fwd, src, -1, u, v, w, nx, ny, nz, 0.6, false, null, 0, nz)
    const wfwd = wasm.f32(n)
    wasm.advect(wfwd, wsrc, -1, wu, wv, ww, nx, ny, nz, 0.6, false, null)
    expectSame(wfwd, fwd)
    const bwd = new Float32Array(n)
    advectSlab(bwd, fwd, -1, u, v, w, nx, ny, nz, -0.6, false, null, 0, nz)
    for (const limiter of [LIMIT_REVERT, LIMIT_CLAMP, LIMIT_NONE]) {
      const ref = new Float32Array(n)
      maccormackCorrectSlab(ref, src, fwd, bwd, -1, u, v, w, nx, ny, nz, 0.6, null, limiter, 0, nz)
      const out = wasm.f32(n)
      wasm.maccormackCorrect(out, wsrc, wfwd, inWasm(bwd), -1, wu, wv, ww, nx, ny, nz, 0.6, null, limiter)
      expectSame(out, ref)
    }
  })

  it('vorticity, confinement force, force onto faces', () => {
    const u = randF32(nu, 27)
    const v = randF32(nv, 28)
    const w = randF32(nw, 29)
    const o = [new Float32Array(n), new Float32Array(n), new Float32Array(n), new Float32Array(n)]
    vorticitySlab(o[0], o[1], o[2], o[3], u, v, w, nx, ny, nz, 0.1, 0, nz)
    const wo = [wasm.f32(n), wasm.f32(n), wasm.f32(n), wasm.f32(n)]
    const wu = inWasm(u)
    const wv = inWasm(v)
    const ww = inWasm(w)
    wasm.vorticity(wo[0], wo[1], wo[2], wo[3], wu, wv, ww, nx, ny, nz, 0.1)
    for (let i = 0; i < 4; i++) expectSame(wo[i], o[i])
    const f = [new Float32Array(n), new Float32Array(n), new Float32Array(n)]
    confinementForceSlab(f[0], f[1], f[2], o[0], o[1], o[2], o[3], 0.6, nx, ny, nz, 0.1, 0, nz)
    const wf = [wasm.f32(n), wasm.f32(n), wasm.f32(n)]
    wasm.confinementForce(wf[0], wf[1], wf[2], wo[0], wo[1], wo[2], wo[3], 0.6, nx, ny, nz, 0.1)
    for (let i = 0; i < 3; i++) expectSame(wf[i], f[i])
    addCellForceToFacesSlab(u, v, w, f[0], f[1], f[2], 0.04, nx, ny, nz, 0, nz)
    wasm.addCellForceToFaces(wu, wv, ww, wf[0], wf[1], wf[2], 0.04, nx, ny, nz)
    expectSame(wu, u)
    expectSame(wv, v)
    expectSame(ww, w)
  })

  it('buoyancy with and without density / temperature', () => {
    const rho = randF32(n, 30)
    const temp = randF32(n, 31, 50)
    for (const [d, t] of [
      [rho, temp],
      [null, temp],
      [rho, null],
    ] as const) {
      const v = randF32(nv, 32)
      const wv = inWasm(v)
      addBuoyancySlab(v, d, t, 0.08, 0.12, 3.5, 0.04, nx, ny, 0, nz)
      wasm.addBuoyancy(wv, d && inWasm(d), t && inWasm(t), 0.08, 0.12, 3.5, 0.04, nx, ny, nz)
      expectSame(wv, v)
    }
  })
})

describe('solver parts on WebAssembly kernels give the TypeScript answer', () => {
  const spec: GridSpec = { nx: 19, ny: 14, nz: 11, dx: 0.05, origin: [0, 0, 0] }
  const { nx, ny, nz } = spec
  const n = nx * ny * nz
  const sides: DomainSides = { xMin: 'closed', xMax: 'open', yMin: 'closed', yMax: 'open', zMin: 'closed', zMax: 'closed' }
  const solid = new Float32Array(n)
  for (let k = 0; k < nz; k++)
    for (let j = 0; j < ny; j++)
      for (let i = 0; i < nx; i++) {
        const d = Math.hypot(i - 9, j - 6.5, k - 5) - 3.2
        solid[i + nx * (j + ny * k)] = Math.min(1, Math.max(0, 0.5 - d / 1.7))
      }

  function grids(kernels?: WasmKernelBackend) {
    const opts = kernels ? { kernels } : {}
    const fractions = new MacGrid(spec, opts)
    computeFaceFractions(kernels ? inWasm(solid) : solid, sides, fractions)
    const vel = new MacGrid(spec, opts)
    vel.u.set(randF32(vel.u.length, 40))
    vel.v.set(randF32(vel.v.length, 41))
    vel.w.set(randF32(vel.w.length, 42))
    return { fractions, vel }
  }

  it.each(['multigrid', 'mic0', 'none'] as const)('pressure projection (%s): same iterations, same velocity bits', (preconditioner) => {
    const t = grids()
    const a = new PressureSolver(spec, { preconditioner }).project(t.vel, t.fractions)
    const g = grids(wasm)
    const b = new PressureSolver(spec, { preconditioner, kernels: wasm }).project(g.vel, g.fractions)
    expect(b.iterations).toBe(a.iterations)
    expect(b.residual).toBe(a.residual)
    expect(b.converged).toBe(true)
    expectSame(g.vel.u, t.vel.u)
    expectSame(g.vel.v, t.vel.v)
    expectSame(g.vel.w, t.vel.w)
  })

  it('pressure projection with two-lane reductions converges to the same field within the tolerance', () => {
    const t = grids()
    new PressureSolver(spec, { tolerance: 1e-10 }).project(t.vel, t.fractions)
    const g = grids(wasmFast)
    const s = new PressureSolver(spec, { tolerance: 1e-10, kernels: wasmFast }).project(g.vel, g.fractions)
    expect(s.converged).toBe(true)
    expect(relDiff(g.vel.u, t.vel.u)).toBeLessThan(1e-6)
    expect(relDiff(g.vel.v, t.vel.v)).toBeLessThan(1e-6)
    expect(relDiff(g.vel.w, t.vel.w)).toBeLessThan(1e-6)
  })

  it('MacCormack and semi-Lagrangian scalar pairs with open sides and ambient values', () => {
    const t = grids()
    const g = grids(wasm)
    const open = Uint8Array.of(1, 0, 1, 1, 0, 1)
    const n3 = spec.nx * spec.ny * spec.nz
    const a = randF32(n3, 41)
    const b = randF32(n3, 42, 300)
    for (const scheme of ['maccormack', 'semi-lagrangian'] as const) {
      const [ta, tb] = [new Float32Array(n3), new Float32Array(n3)]
      const [wa, wb] = [wasm.f32(n3), wasm.f32(n3)]
      new Advector(spec).advectScalars([ta, tb], [a, b], t.vel, 0.04, { scheme, open, ambient: [0, 293] })
      new Advector(spec, { kernels: wasm }).advectScalars([wa, wb], [inWasm(a), inWasm(b)], g.vel, 0.04, { scheme, open, ambient: [0, 293] })
      expectSame(wa, ta)
      expectSame(wb, tb)
    }
    expect(wasm.fallbacks).toBe(0)
  })

  it('MacCormack advection of velocity and a scalar, vorticity confinement', () => {
    const t = grids()
    const g = grids(wasm)
    const mask = new Uint8Array(n).map((_, c) => (solid[c] >= 0.5 ? 1 : 0))
    const outT = new MacGrid(spec)
    const outW = new MacGrid(spec, { kernels: wasm })
    new Advector(spec).advectVelocity(outT, t.vel, 0.04, { solid: mask })
    new Advector(spec, { kernels: wasm }).advectVelocity(outW, g.vel, 0.04, { solid: inWasm(mask) })
    expectSame(outW.u, outT.u)
    expectSame(outW.v, outT.v)
    expectSame(outW.w, outT.w)
    new VorticityConfinement(spec).apply(outT, 0.5, 0.04)
    new VorticityConfinement(spec, { kernels: wasm }).apply(outW, 0.5, 0.04)
    expectSame(outW.u, outT.u)
    expectSame(outW.v, outT.v)
    expectSame(outW.w, outT.w)
    expect(wasm.fallbacks).toBe(0)
  })
})
