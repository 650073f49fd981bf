// The WebAssembly twin of the vortex-particle splats (src-shared/sim/wasm/assembly/vortex.ts)
// against their TypeScript references (particleForceSlab, particleStrengthSlab in
// src-shared/sim/smoke/vortexKernels.ts): both splats bit for bit (the force's smooth kernel is
// a polynomial, evaluated with the reference's float64 operations per lane), and the same bits
// on 1, 2 and 3 worker threads.
import { afterAll, describe, expect, it } from 'vitest'
import { type KernelBackend, TS_KERNELS } from '../../../src-shared/sim/core/kernelBackend'
import { particleForceSlab, particleStrengthSlab } from '../../../src-shared/sim/smoke/vortexKernels'
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

interface Case {
  nx: number
  ny: number
  nz: number
  dx: number
  origin: [number, number, number]
}

interface Particles {
  px: Float64Array
  py: Float64Array
  pz: Float64Array
  wx: Float64Array
  wy: Float64Array
  wz: Float64Array
  pr: Float64Array
  count: number
}

/**
 * Random particles over the domain and a margin around it (some reach in from outside), with
 * radii of 0.4 to 5 cells; `onLattice` puts some exactly on faces / cell centres (d2 = 0).
 */
function particles(c: Case, count: number, seed: number, onLattice = false): Particles {
  const r = rng(seed)
  const P: Particles = {
    px: new Float64Array(count),
    py: new Float64Array(count),
    pz: new Float64Array(count),
    wx: new Float64Array(count),
    wy: new Float64Array(count),
    wz: new Float64Array(count),
    pr: new Float64Array(count),
    count,
  }
  const [ox, oy, oz] = c.origin
  for (let p = 0; p < count; p++) {
    const at = (n: number, o: number) => o + (r() * (n + 4) - 2) * c.dx
    P.px[p] = at(c.nx, ox)
    P.py[p] = at(c.ny, oy)
    P.pz[p] = at(c.nz, oz)
    if (onLattice && p % 3 === 0) {
      P.px[p] = ox + Math.round((P.px[p] - ox) / c.dx) * c.dx
      P.py[p] = oy + (Math.round((P.py[p] - oy) / c.dx) + 0.5) * c.dx
      P.pz[p] = oz + (Math.round((P.pz[p] - oz) / c.dx) + 0.5) * c.dx
    }
    P.wx[p] = (r() - 0.5) * 4e-3
    P.wy[p] = (r() - 0.5) * 4e-3
    P.wz[p] = (r() - 0.5) * 4e-3
    P.pr[p] = (0.4 + 4.6 * r()) * c.dx
  }
  return P
}

function faces(c: Case, seed: number, b: KernelBackend) {
  const { nx, ny, nz } = c
  const u = b.f32((nx + 1) * ny * nz)
  const v = b.f32(nx * (ny + 1) * nz)
  const w = b.f32(nx * ny * (nz + 1))
  const r = rng(seed)
  for (const f of [u, v, w]) for (let i = 0; i < f.length; i++) f[i] = (r() - 0.5) * 0.2
  return { u, v, w }
}

function sameBits(a: ArrayLike<number>, b: ArrayLike<number>): boolean {
  if (a.length !== b.length) return false
  for (let i = 0; i < a.length; i++) if (!Object.is(a[i], b[i])) return false
  return true
}

/** Particle confinement, 1/s. */
const EPS = 3
const DT = 0.04
const WEIGHT = 0.02

function force(b: KernelBackend, c: Case, P: Particles) {
  const F = faces(c, 7, b)
  const { nx, ny, nz, dx, origin } = c
  b.particleForce(F.u, F.v, F.w, P.px, P.py, P.pz, P.wx, P.wy, P.wz, P.pr, P.count, EPS, DT, nx, ny, nz, dx, origin[0], origin[1], origin[2])
  return { u: Float32Array.from(F.u), v: Float32Array.from(F.v), w: Float32Array.from(F.w), before: faces(c, 7, TS_KERNELS) }
}

function strength(b: KernelBackend, c: Case, P: Particles) {
  const { nx, ny, nz, dx, origin } = c
  const eps = b.f32(nx * ny * nz).fill(0.25)
  b.particleStrength(eps, P.px, P.py, P.pz, P.wx, P.wy, P.wz, P.pr, P.count, WEIGHT, nx, ny, nz, dx, origin[0], origin[1], origin[2])
  return Float32Array.from(eps)
}

/** Largest change the splat made to any face: the force tests must move something. */
function maxChange(after: Float32Array, before: Float32Array): number {
  let m = 0
  for (let i = 0; i < after.length; i++) m = Math.max(m, Math.abs(after[i] - before[i]))
  return m
}

const CASES: Case[] = [
  { nx: 13, ny: 11, nz: 9, dx: 0.1, origin: [0, 0, 0] },
  { nx: 17, ny: 7, nz: 5, dx: 0.05, origin: [-0.3, 0.2, 1.1] },
  { nx: 1, ny: 3, nz: 2, dx: 0.2, origin: [0, 0, 0] },
  { nx: 9, ny: 12, nz: 1, dx: 0.07, origin: [0.5, -1, 0] },
]

const backends: KernelBackend[] = []
afterAll(async () => {
  for (const b of backends) await b.dispose()
})

function wasm(): WasmKernelBackend {
  const b = createWasmBackend({ strict: true, initialBytes: 1 << 20 })
  backends.push(b)
  return b
}

describe('WebAssembly vortex-particle splats', () => {
  it.each(CASES.map((c, i) => [i, c] as const))('force matches particleForceSlab bit for bit (case %i)', (i, c) => {
    const b = wasm()
    for (const [count, onLattice] of [[1, false], [40, false], [120, true]] as const) {
      const P = particles(c, count, 100 + 10 * i + count, onLattice)
      const ref = force(TS_KERNELS, c, P)
      const got = force(b, c, P)
      expect(b.fallbacks).toBe(0)
      if (count > 1) expect(maxChange(ref.u, ref.before.u) + maxChange(ref.v, ref.before.v) + maxChange(ref.w, ref.before.w)).toBeGreaterThan(1e-5)
      expect(sameBits(got.u, ref.u) && sameBits(got.v, ref.v) && sameBits(got.w, ref.w)).toBe(true)
    }
  })

  it.each(CASES.map((c, i) => [i, c] as const))('strength matches particleStrengthSlab bit for bit (case %i)', (i, c) => {
    const b = wasm()
    for (const [count, onLattice] of [[1, true], [40, false], [120, true]] as const) {
      const P = particles(c, count, 200 + 10 * i + count, onLattice)
      const ref = strength(TS_KERNELS, c, P)
      expect(ref.some((e) => e !== 0.25) || count === 1).toBe(true)
      expect(sameBits(strength(b, c, P), ref)).toBe(true)
    }
  })

  it('matches the slab references called per slab, particles exactly on faces and borders', () => {
    const c: Case = { nx: 7, ny: 5, nz: 6, dx: 0.1, origin: [0, 0, 0] }
    const P = particles(c, 6, 5)
    // On the domain's corner, on a face, on the far border, beyond it, and at the origin.
    const spots = [
      [0, 0, 0],
      [0.3, 0.25, 0.35],
      [0.7, 0.5, 0.6],
      [0.75, 0.55, 0.65],
      [-0.05, 0.25, 0.3],
      [0.35, 0.25, 0.3],
    ]
    spots.forEach(([x, y, z], p) => {
      P.px[p] = x
      P.py[p] = y
      P.pz[p] = z
      P.pr[p] = 0.25
    })
    const b = wasm()
    const got = force(b, c, P)
    const ref = faces(c, 7, TS_KERNELS)
    // Slab by slab, as worker threads would split it.
    for (const [k0, k1] of [[0, 2], [2, 3], [3, 6]]) {
      particleForceSlab(ref.u, ref.v, ref.w, P.px, P.py, P.pz, P.wx, P.wy, P.wz, P.pr, P.count, EPS, DT, c.nx, c.ny, c.nz, c.dx, 0, 0, 0, k0, k1)
    }
    expect(maxChange(ref.u, got.before.u)).toBeGreaterThan(0)
    expect(sameBits(got.u, ref.u) && sameBits(got.v, ref.v) && sameBits(got.w, ref.w)).toBe(true)
    const eps = new Float32Array(c.nx * c.ny * c.nz).fill(0.25)
    for (const [k0, k1] of [[0, 4], [4, 6]]) particleStrengthSlab(eps, P.px, P.py, P.pz, P.wx, P.wy, P.wz, P.pr, P.count, WEIGHT, c.nx, c.ny, c.dx, 0, 0, 0, k0, k1)
    expect(sameBits(strength(b, c, P), eps)).toBe(true)
  })

  it('does nothing with zero particles, zero strength or NaN particles', () => {
    const c = CASES[0]
    const b = wasm()
    const none = particles(c, 0, 1)
    const before = faces(c, 7, TS_KERNELS)
    const got = force(b, c, none)
    expect(sameBits(got.u, before.u) && sameBits(got.v, before.v) && sameBits(got.w, before.w)).toBe(true)
    expect(strength(b, c, none).every((e) => e === 0.25)).toBe(true)
    const P = particles(c, 5, 3)
    P.px[0] = NaN
    P.py[1] = Infinity
    P.pz[2] = -Infinity
    P.pr[3] = NaN
    P.pr[4] = 0
    const ref = force(TS_KERNELS, c, P)
    const out = force(b, c, P)
    expect(sameBits(out.u, ref.u) && sameBits(out.v, ref.v) && sameBits(out.w, ref.w)).toBe(true)
    expect(sameBits(out.u, before.u)).toBe(true)
    expect(sameBits(strength(b, c, P), strength(TS_KERNELS, c, P))).toBe(true)
    // epsilon * dt = 0: untouched.
    const F = faces(c, 7, b)
    const Q = particles(c, 20, 4)
    b.particleForce(F.u, F.v, F.w, Q.px, Q.py, Q.pz, Q.wx, Q.wy, Q.wz, Q.pr, Q.count, 0, DT, c.nx, c.ny, c.nz, c.dx, 0, 0, 0)
    expect(sameBits(F.u, before.u)).toBe(true)
  })

  it('uses particle arrays in the kernel memory in place', () => {
    const c = CASES[1]
    const b = wasm()
    const P = particles(c, 50, 9)
    const Q: Particles = { ...P }
    for (const key of ['px', 'py', 'pz', 'wx', 'wy', 'wz', 'pr'] as const) {
      Q[key] = b.f64(P.count)
      Q[key].set(P[key])
    }
    const a = force(b, c, P)
    const q = force(b, c, Q)
    expect(sameBits(a.u, q.u) && sameBits(a.v, q.v) && sameBits(a.w, q.w)).toBe(true)
    expect(sameBits(strength(b, c, P), strength(b, c, Q))).toBe(true)
  })

  it('1, 2 and 3 threads give identical bits', () => {
    const c: Case = { nx: 19, ny: 14, nz: 11, dx: 0.05, origin: [0.1, 0, -0.2] }
    const P = particles(c, 300, 42, true)
    const results = [1, 2, 3].map((threads) => {
      const b = createKernelBackend('wasm', { threads, minParallelWork: 0, strict: true, initialBytes: 1 << 20 })
      backends.push(b)
      const out = { f: force(b, c, P), s: strength(b, c, P) }
      // The particle count grows past the staging block: it must be reallocated correctly.
      const big = particles(c, 900, 43)
      const out2 = { f: force(b, c, big), s: strength(b, c, big) }
      if (threads > 1) expect(((b as WasmKernelBackend).runner as SlabPool).parallelJobs).toBeGreaterThanOrEqual(4)
      return [out, out2]
    })
    const ref = force(TS_KERNELS, c, P)
    expect(sameBits(results[0][0].f.u, ref.u) && sameBits(results[0][0].f.v, ref.v) && sameBits(results[0][0].f.w, ref.w)).toBe(true)
    for (const r of results.slice(1)) {
      for (let n = 0; n < 2; n++) {
        const [a, o] = [r[n], results[0][n]]
        expect(sameBits(a.f.u, o.f.u) && sameBits(a.f.v, o.f.v) && sameBits(a.f.w, o.f.w)).toBe(true)
        expect(sameBits(a.s, o.s)).toBe(true)
      }
    }
  })
})
