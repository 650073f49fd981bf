// The frame's marker arrays (liquid/frameArrayKernel.ts): the WebAssembly twin (four markers a
// step by lane shuffles, wasm/assembly/frameArrays.ts) against the reference bit for bit, on 1, 2
// and 3 threads, with counts that leave a tail of 1-3 markers and values that are not plain
// numbers (NaN, infinities, -0, subnormals), and only markers [0, count) written.
import { afterAll, describe, expect, it } from 'vitest'
import { INTERLEAVE_MARKERS, interleaveMarkersSlab } from '../../../../src-shared/sim/liquid/frameArrayKernel'
import type { SlabPool } from '../../../../src-shared/sim/parallel/slabPool'
import type { WasmKernelBackend } from '../../../../src-shared/sim/wasm/wasmBackend'
import { createKernelBackend } from '../../../../src-main/sim/workerPool'

const backends: WasmKernelBackend[] = []
afterAll(async () => {
  for (const b of backends) await b.dispose()
})

const SPECIAL = [Number.NaN, Infinity, -Infinity, -0, 1e-42, -3.5e38]

describe('interleaveMarkers', () => {
  it('writes x, y, z triples of positions and velocities, the same bits as the reference on 1-3 threads', () => {
    const byThreads = [1, 2, 3].map((threads) => createKernelBackend('wasm', { threads, minParallelWork: 0, strict: true, initialBytes: 1 << 22 }) as WasmKernelBackend)
    backends.push(...byThreads)
    for (const count of [0, 1, 3, 4, 7, 1003, 40_001]) {
      const n = count + 5 // room beyond count, which must stay untouched
      const src = Array.from({ length: 6 }, (_, a) => Float32Array.from({ length: n }, (_, q) => (q % 97 === a ? SPECIAL[(q + a) % SPECIAL.length] : Math.sin(q * 1.7 + a) * 10 ** (a - 2))))
      const refPos = new Float32Array(3 * n).fill(7), refVel = new Float32Array(3 * n).fill(7)
      interleaveMarkersSlab(src[0], src[1], src[2], src[3], src[4], src[5], refPos, refVel, 0, count)
      // The reference itself: triples of the per-axis values' bits (copied as integers here).
      const bits = (f: Float32Array) => new Uint32Array(f.buffer, f.byteOffset, f.length)
      const want = [new Uint32Array(3 * n).fill(bits(Float32Array.of(7))[0]), new Uint32Array(3 * n).fill(bits(Float32Array.of(7))[0])]
      for (let q = 0; q < count; q++) for (let a = 0; a < 6; a++) want[a < 3 ? 0 : 1][3 * q + (a % 3)] = bits(src[a])[q]
      expect(bits(refPos)).toEqual(want[0])
      expect(bits(refVel)).toEqual(want[1])
      for (const b of byThreads) {
        const threads = b.threads
        const jobs = (b.runner as SlabPool).parallelJobs ?? 0
        const arrays = src.map((s) => {
          const a = b.f32(n)
          a.set(s)
          return a
        })
        const pos = b.f32(3 * n).fill(7), vel = b.f32(3 * n).fill(7)
        b.run(INTERLEAVE_MARKERS, arrays[0], arrays[1], arrays[2], arrays[3], arrays[4], arrays[5], pos, vel, count)
        expect(new Uint32Array(pos.buffer, pos.byteOffset, pos.length), `positions, ${count} markers, ${threads} threads`).toEqual(new Uint32Array(refPos.buffer))
        expect(new Uint32Array(vel.buffer, vel.byteOffset, vel.length), `velocities, ${count} markers, ${threads} threads`).toEqual(new Uint32Array(refVel.buffer))
        if (threads > 1 && count >= threads) expect((b.runner as SlabPool).parallelJobs).toBe(jobs + 1)
      }
    }
  })
})
