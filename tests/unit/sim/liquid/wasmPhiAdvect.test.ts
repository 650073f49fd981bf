// The tracked surface's semi-Lagrangian step (phiAdvectKernel.ts ADVECT_PHI) on the
// WebAssembly kernels against the TypeScript reference: the same bits on 1-3 threads, split or
// inline, with cells at rest (copied), back-traces far outside the grid (clamped) and a NaN
// velocity (clamped to the first sample, as lerpLattice does).
import { afterAll, describe, expect, it } from 'vitest'
import { type KernelBackend, TS_KERNELS } from '../../../../src-shared/sim/core/kernelBackend'
import { Prng } from '../../../../src-shared/sim/core/prng'
import { ADVECT_PHI } from '../../../../src-shared/sim/liquid/phiAdvectKernel'
import type { WasmKernelBackend } from '../../../../src-shared/sim/wasm/wasmBackend'
import { createKernelBackend } from '../../../../src-main/sim/workerPool'

const nx = 12, ny = 10, nz = 9, n = nx * ny * nz

function inputs(b: KernelBackend) {
  const prng = new Prng(21)
  const phi = b.f32(n), out = b.f32(n)
  const u = b.f32((nx + 1) * ny * nz), v = b.f32(nx * (ny + 1) * nz), w = b.f32(nx * ny * (nz + 1))
  for (let c = 0; c < n; c++) phi[c] = prng.range(-0.2, 0.2)
  for (const f of [u, v, w]) for (let i = 0; i < f.length; i++) f[i] = prng.next() < 0.2 ? 0 : prng.range(-4, 4) * (prng.next() < 0.05 ? 100 : 1)
  // A whole region at rest (its cells copy phi), and one NaN face.
  for (let i = 0; i < 200; i++) u[i] = v[i] = w[i] = 0
  u[500] = Number.NaN
  return { phi, out, u, v, w }
}

const bits = (a: Float32Array) => Array.from(new Uint32Array(a.buffer, a.byteOffset, a.length))
const backends: KernelBackend[] = []
afterAll(async () => {
  for (const b of backends) await b.dispose()
})

describe('tracked surface advection on the WebAssembly kernels', () => {
  it('gives the TypeScript reference bits on 1-3 threads, split or inline', () => {
    const ref = inputs(TS_KERNELS)
    TS_KERNELS.run(ADVECT_PHI, ref.out, ref.phi, ref.u, ref.v, ref.w, nx, ny, nz, 0.37)
    // Cells at rest copied phi; moving ones did not.
    expect(ref.out[0]).toBe(ref.phi[0])
    expect(bits(ref.out)).not.toEqual(bits(ref.phi))
    for (const [threads, minParallelWork] of [[1, 0], [2, 0], [3, 0], [3, 1e9]]) {
      const b = createKernelBackend('wasm', { threads, minParallelWork, strict: true, initialBytes: 1 << 20 })
      backends.push(b)
      const got = inputs(b)
      b.run(ADVECT_PHI, got.out, got.phi, got.u, got.v, got.w, nx, ny, nz, 0.37)
      expect((b as WasmKernelBackend).fallbacks).toBe(0)
      expect(bits(got.out), `${threads} threads`).toEqual(bits(ref.out))
    }
  })
})
