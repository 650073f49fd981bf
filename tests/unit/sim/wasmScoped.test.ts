// KernelBackend.scoped on the WebAssembly kernels: everything allocated inside goes back to the
// arena, including the per-thread scratch a row first needed inside, which must be made again
// afterwards rather than written where new arrays now live.
import { describe, expect, it } from 'vitest'
import { TS_KERNELS } from '../../../src-shared/sim/core/kernelBackend'
import { REDISTANCE } from '../../../src-shared/sim/liquid/redistance'
import { createWasmBackend } from '../../../src-shared/sim/wasm/wasmBackend'

const nx = 20, ny = 18, nz = 16, dx = 0.1, band = 0.6
const n = nx * ny * nz

/** A sphere's distance scaled by 1.7 (not a distance: the redistancing has work to do). */
function steepSphere(): Float32Array {
  const phi = new Float32Array(n)
  for (let k = 0, c = 0; k < nz; k++) for (let j = 0; j < ny; j++) for (let i = 0; i < nx; i++, c++) {
    phi[c] = Math.max(-band, Math.min(band, 1.7 * (Math.hypot((i - 9.3) * dx, (j - 8.1) * dx, (k - 7.2) * dx) - 0.5)))
  }
  return phi
}

describe('scoped allocation on the WebAssembly kernels', () => {
  it("frees the scope's arrays and scratch; a row run after it gets scratch of its own and gives the reference's bits", async () => {
    const reference = steepSphere()
    TS_KERNELS.run(REDISTANCE, reference, new Float64Array(n), new Int32Array(4 * ny * nz), nx, ny, nz, dx, band)

    const k = createWasmBackend()
    try {
      const before = k.kernels.arena.used
      const inside = k.scoped(() => {
        const phi = k.f32(n)
        phi.set(steepSphere())
        k.run(REDISTANCE, phi, k.f64(n), new Int32Array(4 * ny * nz), nx, ny, nz, dx, band)
        return Array.from(phi)
      })
      expect(inside).toEqual(Array.from(reference))
      expect(k.kernels.arena.used).toBe(before)

      // The same arrays again, then one over where the scope's scratch was: a stale scratch
      // block would be written into it.
      const phi = k.f32(n)
      phi.set(steepSphere())
      const d = k.f64(n)
      const guard = k.f64(ny * nz * 4).fill(12345)
      k.run(REDISTANCE, phi, d, new Int32Array(4 * ny * nz), nx, ny, nz, dx, band)
      expect(Array.from(phi)).toEqual(Array.from(reference))
      expect(guard.every((v) => v === 12345)).toBe(true)
    } finally {
      await k.dispose()
    }
  })
})
