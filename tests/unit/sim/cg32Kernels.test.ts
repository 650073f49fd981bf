// The float32 CG vector steps (core/sparse/cg32Kernels.ts): the same bits on TypeScript and 1-3
// WebAssembly threads (blocks whose length is not a multiple of four end in the twins' one-by-one
// tails), and each within float32 rounding of the same step done in float64: a kernel that
// read the wrong lane or dropped a term would miss by order one.
import { describe, expect, it } from 'vitest'
import type { KernelBackend } from '../../../src-shared/sim/core/kernelTypes'
import { ADD_WIDE, DOT32, SEARCH32, UPDATE32 } from '../../../src-shared/sim/core/sparse/cg32Kernels'
import { everyBackendOfFile, rng, sameBits } from './everyBackend'

function random32(k: KernelBackend, n: number, seed: number, lo = -1): Float32Array {
  const r = rng(seed), a = k.f32(n)
  for (let i = 0; i < n; i++) a[i] = lo + (1 - lo) * r()
  return a
}

/** Every kernel on k over n entries in blocks of `block`: the results, after checking them against float64. */
function runAll(k: KernelBackend, n: number, block: number): Float64Array[] {
  const blocks = Math.ceil(n / block)
  const a = random32(k, n, 1), b = random32(k, n, 2)
  const partial = k.f64(blocks)
  const dot = k.run(DOT32, a, b, n, block, partial)
  let want = 0
  for (let i = 0; i < n; i++) want += a[i] * b[i]
  expect(Math.abs(dot - want)).toBeLessThan(1e-6 * n)
  const out: Float64Array[] = [Float64Array.from(partial)]

  const x = random32(k, n, 3), r = random32(k, n, 4), s = random32(k, n, 5), q = random32(k, n, 6), d = random32(k, n, 7, 0.1)
  const x0 = Float64Array.from(x), r0 = Float64Array.from(r)
  const rz = k.f64(blocks)
  const rr = k.run(UPDATE32, x, r, s, q, d, 0.37, n, block, partial, rz)
  let wantRR = 0, wantRZ = 0, gotRZ = 0
  for (let i = 0; i < n; i++) {
    const v = r0[i] - 0.37 * q[i]
    expect(Math.abs(x[i] - (x0[i] + 0.37 * s[i]))).toBeLessThan(1e-6)
    expect(Math.abs(r[i] - v)).toBeLessThan(1e-6)
    wantRR += v * v
    wantRZ += v * v * d[i]
  }
  for (let i = 0; i < blocks; i++) gotRZ += rz[i]
  expect(Math.abs(rr - wantRR)).toBeLessThan(1e-5 * wantRR)
  expect(Math.abs(gotRZ - wantRZ)).toBeLessThan(1e-5 * wantRZ)
  out.push(Float64Array.from(x), Float64Array.from(r), Float64Array.from(partial), Float64Array.from(rz))

  const s0 = Float64Array.from(s)
  k.run(SEARCH32, s, r, d, -0.61, n, block)
  for (let i = 0; i < n; i++) expect(Math.abs(s[i] - (r[i] * d[i] - 0.61 * s0[i]))).toBeLessThan(1e-6)
  out.push(Float64Array.from(s))

  const w = k.f64(n)
  for (let i = 0; i < n; i++) w[i] = Math.sin(i)
  k.run(ADD_WIDE, w, s, n, block)
  for (let i = 0; i < n; i++) expect(w[i]).toBe(Math.sin(i) + s[i])
  out.push(Float64Array.from(w))
  return out
}

describe('float32 CG vector steps', () => {
  const backends = everyBackendOfFile()
  const sizes: [number, number][] = [[693, 64], [1000, 4096], [37, 8]]
  const reference = sizes.map(([n, block]) => {
    const [, ts] = backends[0]
    return runAll(ts, n, block)
  })

  it.each(backends)('agree with float64 to rounding and with the reference bit for bit: %s', (_name, k) => {
    sizes.forEach(([n, block], i) => {
      const got = runAll(k, n, block)
      got.forEach((a, j) => expect(sameBits(a, reference[i][j]), `n ${n} block ${block} result ${j}`).toBe(true))
    })
  })
})
