// MacCormack's backward step from recorded departure points (advectKernels.ts advectSlab's
// `rev`, advectAtSlab; their twins in wasm/assembly/advect.ts): the forward pass with rev gives
// the same forward values and corners as without, and sampling fwd at the recorded points
// gives exactly what tracing the backward step again (advect over -dt/dx) gives, on every
// lattice, trilinear and cubic, with and without a second field and a solid mask, on
// TypeScript and on 1, 2 and 3 WebAssembly threads (bit for bit, no fallback).
import { afterAll, describe, expect, it } from 'vitest'
import type { KernelBackend } from '../../../src-shared/sim/core/kernelBackend'
import { everyBackend } from './everyBackend'

function rng(seed: number): () => number {
  let s = seed >>> 0
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0
    return s / 4294967296
  }
}

const nx = 9, ny = 7, nz = 6

function fill<T extends Float32Array | Uint8Array>(a: T, seed: number, f: (r: number) => number): T {
  const r = rng(seed)
  for (let i = 0; i < a.length; i++) a[i] = f(r())
  return a
}

const backends: KernelBackend[] = []
afterAll(async () => {
  for (const b of backends) await b.dispose()
})


const bits = (a: Float32Array | Int32Array) => Array.from(new Uint32Array(a.buffer, a.byteOffset, a.length))

describe('the backward step at recorded departure points', () => {
  const cases: [string, -1 | 0 | 1 | 2, boolean, boolean, boolean][] = []
  for (const axis of [-1, 0, 1, 2] as const) for (const cubic of [false, true]) cases.push([`lattice ${axis}, ${cubic ? 'cubic' : 'trilinear'}`, axis, cubic, axis === -1, axis !== 1])
  it.each(cases)('%s: the same bits as tracing it again, on every backend', (_name, axis, cubic, pair, withSolid) => {
    const sx = axis === 0 ? nx + 1 : nx, sy = axis === 1 ? ny + 1 : ny, sz = axis === 2 ? nz + 1 : nz
    const n = sx * sy * sz
    const c = 2.7 // cells per (m/s): traces several cells long
    let want: number[][] | null = null
    for (const [name, b] of everyBackend(backends)) {
      const u = fill(b.f32((nx + 1) * ny * nz), 1, (r) => r - 0.5)
      const v = fill(b.f32(nx * (ny + 1) * nz), 2, (r) => r - 0.5)
      const w = fill(b.f32(nx * ny * (nz + 1)), 3, (r) => r - 0.5)
      const src = fill(b.f32(n), 4, (r) => 2 * r)
      const src2 = pair ? fill(b.f32(n), 5, (r) => r * r) : null
      const solid = withSolid ? fill(b.u8(nx * ny * nz), 6, (r) => (r < 0.15 ? 1 : 0)) : null
      const fwd = b.f32(n), fwdRev = b.f32(n), fwd2 = pair ? b.f32(n) : null, fwd2Rev = pair ? b.f32(n) : null
      const base = b.i32(n), baseRev = b.i32(n)
      const rev = b.f64(3 * n)
      b.advect(fwd, src, axis, u, v, w, nx, ny, nz, c, cubic, solid, fwd2, src2, base)
      b.advect(fwdRev, src, axis, u, v, w, nx, ny, nz, c, cubic, solid, fwd2Rev, src2, baseRev, rev)
      expect(bits(fwdRev), `${name}: forward`).toEqual(bits(fwd))
      expect(bits(baseRev), `${name}: corners`).toEqual(bits(base))
      if (pair) expect(bits(fwd2Rev!), `${name}: second forward`).toEqual(bits(fwd2!))
      const traced = b.f32(n), at = b.f32(n), traced2 = pair ? b.f32(n) : null, at2 = pair ? b.f32(n) : null
      b.advect(traced, fwd, axis, u, v, w, nx, ny, nz, -c, cubic, solid, traced2, fwd2)
      b.advectAt(at, fwd, axis, nx, ny, nz, cubic, solid, rev, at2, fwd2)
      expect(bits(at), `${name}: backward`).toEqual(bits(traced))
      if (pair) expect(bits(at2!), `${name}: second backward`).toEqual(bits(traced2!))
      const got = [bits(at), pair ? bits(at2!) : []]
      // Every backend gives the first one's bits.
      if (want === null) want = got
      else expect(got, name).toEqual(want)
    }
  })
})
