// Whole hybrid-mesh smoke frames on the WebAssembly kernels (2 threads: the traces, fits,
// vorticity, forces and projection as kernel rows) give the TypeScript reference's state bit for
// bit: the ramp jet of Figure 4 on a small hybrid mesh, its checkpoint (face velocities, density,
// temperature, pressure, particles) compared frame by frame.
import { afterAll, describe, expect, it } from 'vitest'
import { rampJetScene } from '../../../../src-shared/scene/examples/hybridGases'
import { createBakeSolver } from '../../../../src-shared/sim/registry'
import { createKernelBackend } from '../../../../src-main/sim/workerPool'
import type { KernelBackend } from '../../../../src-shared/sim/core/kernelTypes'
import type { WasmKernelBackend } from '../../../../src-shared/sim/wasm/wasmBackend'

const owned: KernelBackend[] = []
afterAll(async () => {
  for (const k of owned) await k.dispose()
})

describe('hybrid-mesh smoke on the WebAssembly kernels', () => {
  it('steps the ramp jet to the TypeScript reference\'s bits, frame by frame', () => {
    const k = createKernelBackend('wasm', { threads: 2, minParallelWork: 0 })
    owned.push(k)
    const scene = () => {
      const { doc } = rampJetScene({ resolution: 14, mode: 'hybrid', frames: 4 })
      return doc
    }
    const ts = createBakeSolver(scene(), 'domain')
    const wasm = createBakeSolver(scene(), 'domain', { kernels: k, shared: true })
    for (let f = 1; f <= 4; f++) {
      ts.stepFrame(f)
      wasm.stepFrame(f)
      const a = ts.checkpoint(), b = wasm.checkpoint()
      expect(b.length, `frame ${f}`).toBe(a.length)
      expect(Buffer.from(b).equals(Buffer.from(a)), `frame ${f}: checkpoints differ`).toBe(true)
    }
    // Every row ran on WebAssembly (none fell back to the reference for an array outside its memory).
    expect((k as WasmKernelBackend).fallbacks).toBe(0)
    const density = ts.frame().volumes.find((v) => v.name === 'density')!.data
    expect(density.some((x) => x > 0.01)).toBe(true)
    expect(Buffer.from(wasm.frame().volumes.find((v) => v.name === 'density')!.data.buffer).equals(Buffer.from(density.buffer))).toBe(true)
  }, 120000)
})
