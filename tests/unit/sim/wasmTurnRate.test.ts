// The smoke's turn-rate limit (vortexKernels.ts turnRatePlanes, run as the TURN_RATE kernel
// row, and its twin wasm/assembly/turnRate.ts): the largest rate at which the flow turns its
// own velocity, max |u x (u . grad) u| / |u|^2 over the cells. Per plane then the largest
// plane, against one plain pass over the cells written here from cellVelocityGradient, on
// TypeScript and on 1, 2 and 3 WebAssembly threads (the same bits); a NaN anywhere gives NaN;
// and a solid-body rotation at Omega gives Omega (central differences are exact on a linear
// field, so only the faces' float32 rounding is left).
import { afterAll, describe, expect, it } from 'vitest'
import type { KernelBackend } from '../../../src-shared/sim/core/kernelBackend'
import { largestPartial } from '../../../src-shared/sim/core/vectorOps'
import { cellVelocityGradient, TURN_RATE } from '../../../src-shared/sim/smoke/vortexKernels'
import { everyBackend } from './everyBackend'

function rng(seed: number): () => number {
  let s = seed >>> 0
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0
    return s / 4294967296
  }
}

const nx = 13, ny = 11, nz = 9, dx = 0.07

interface Faces {
  u: number[]
  v: number[]
  w: number[]
}

/** Face velocities: random in (-1, 1), or the rotation (-Omega z, 0, Omega x) about the grid's centre line along y. */
function faces(kind: 'random' | 'rotation', omega = 0): Faces {
  const r = rng(5)
  const u: number[] = [], v: number[] = [], w: number[] = []
  const cx = (nx * dx) / 2, cz = (nz * dx) / 2
  for (let k = 0; k < nz; k++) for (let j = 0; j < ny; j++) for (let i = 0; i <= nx; i++) u.push(kind === 'random' ? r() * 2 - 1 : -omega * ((k + 0.5) * dx - cz))
  for (let k = 0; k < nz; k++) for (let j = 0; j <= ny; j++) for (let i = 0; i < nx; i++) v.push(kind === 'random' ? r() * 2 - 1 : 0)
  for (let k = 0; k <= nz; k++) for (let j = 0; j < ny; j++) for (let i = 0; i < nx; i++) w.push(kind === 'random' ? r() * 2 - 1 : omega * ((i + 0.5) * dx - cx))
  return { u, v, w }
}

function rateOn(b: KernelBackend, f: Faces): number {
  const u = b.f32(f.u.length), v = b.f32(f.v.length), w = b.f32(f.w.length)
  u.set(f.u)
  v.set(f.v)
  w.set(f.w)
  const partial = b.f64(nz)
  b.run(TURN_RATE, u, v, w, nx, ny, nz, dx, partial)
  return largestPartial(partial, nz)
}

/** One pass over every cell, as the definition reads. */
function plain(f: Faces): number {
  const u = Float32Array.from(f.u), v = Float32Array.from(f.v), w = Float32Array.from(f.w)
  const g = new Float64Array(9)
  let best = 0
  for (let k = 0; k < nz; k++) for (let j = 0; j < ny; j++) for (let i = 0; i < nx; i++) {
    const a = 0.5 * (u[i + (nx + 1) * (j + ny * k)] + u[i + 1 + (nx + 1) * (j + ny * k)])
    const b = 0.5 * (v[i + nx * (j + (ny + 1) * k)] + v[i + nx * (j + 1 + (ny + 1) * k)])
    const c = 0.5 * (w[i + nx * j + nx * ny * k] + w[i + nx * j + nx * ny * (k + 1)])
    const q = a * a + b * b + c * c
    if (!(q > 0)) continue
    cellVelocityGradient(u, v, w, nx, ny, nz, dx, i, j, k, g, 0)
    const e = [0, 1, 2].map((r) => g[3 * r] * a + g[3 * r + 1] * b + g[3 * r + 2] * c)
    const cross = [b * e[2] - c * e[1], c * e[0] - a * e[2], a * e[1] - b * e[0]]
    const rate = Math.sqrt(cross[0] ** 2 + cross[1] ** 2 + cross[2] ** 2) / q
    if (rate !== rate) return NaN
    best = Math.max(best, rate)
  }
  return best
}

const backends: KernelBackend[] = []
afterAll(async () => {
  for (const b of backends) await b.dispose()
})


describe('the smoke\'s turn rate on the kernels', () => {
  it('a random flow: every backend and thread count gives the plain pass\'s bits', () => {
    const f = faces('random')
    const want = plain(f)
    expect(want).toBeGreaterThan(0)
    for (const [name, b] of everyBackend(backends)) expect(rateOn(b, f), name).toBe(want)
  })

  it('a NaN face anywhere gives NaN on every backend', () => {
    const f = faces('random')
    f.w[f.w.length - nx * ny - 3] = NaN
    expect(plain(f)).toBeNaN()
    for (const [name, b] of everyBackend(backends)) expect(rateOn(b, f), name).toBeNaN()
  })

  it('a solid-body rotation at 3 rad/s turns at 3 rad/s within 1e-4', () => {
    const f = faces('rotation', 3)
    for (const [name, b] of everyBackend(backends)) expect(Math.abs(rateOn(b, f) - 3), name).toBeLessThan(3e-4)
  })
})
