// The markers' fastest velocity component (liquidSolver.ts's CFL speed and instability guard;
// speedKernel.ts markerSpeedSlab and its twin wasm/assembly/speed.ts): per block, then the
// largest block, against one plain pass, on TypeScript and on 1, 2 and 3 WebAssembly threads;
// a NaN anywhere gives NaN, an infinity gives Infinity.
import { afterAll, describe, expect, it } from 'vitest'
import { type KernelBackend, TS_KERNELS } from '../../../../src-shared/sim/core/kernelBackend'
import { MarkerParticles } from '../../../../src-shared/sim/liquid/markers'
import { MARKER_SPEED, SPEED_BLOCK } from '../../../../src-shared/sim/liquid/speedKernel'
import { largestPartial } from '../../../../src-shared/sim/core/vectorOps'
import { createKernelBackend } from '../../../../src-main/sim/workerPool'

function rng(seed: number): () => number {
  let s = seed >>> 0
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0
    return s / 4294967296
  }
}

/** count markers with velocities in (-1, 1); `at` gets component `axis` = value. */
function speed(b: KernelBackend, count: number, at = -1, axis = 0, value = 0): number {
  const r = rng(count)
  const p = new MarkerParticles(count, 16, false, b)
  for (let q = 0; q < count; q++) p.add(0, 0, 0, r() * 2 - 1, r() * 2 - 1, r() * 2 - 1, 290)
  if (at >= 0) [p.vx, p.vy, p.vz][axis][at] = value
  const partial = b.f64(Math.ceil(count / SPEED_BLOCK) + 1)
  b.run(MARKER_SPEED, p, partial, p.count)
  return largestPartial(partial, Math.ceil(count / SPEED_BLOCK))
}

function plain(count: number, at = -1, axis = 0, value = 0): number {
  const r = rng(count)
  const v: number[][] = [[], [], []]
  for (let q = 0; q < count; q++) for (let a = 0; a < 3; a++) v[a].push(Math.fround(r() * 2 - 1))
  if (at >= 0) v[axis][at] = Math.fround(value)
  let m = 0
  for (let q = 0; q < count; q++) for (let a = 0; a < 3; a++) m = Math.max(m, Math.abs(v[a][q]))
  return m
}

const backends: KernelBackend[] = []
afterAll(async () => {
  for (const b of backends) await b.dispose()
})

describe('the markers\' fastest velocity component', () => {
  const count = 3 * SPEED_BLOCK + 123
  const cases: [string, number, number, number][] = [
    ['plain', -1, 0, 0],
    ['a fast marker in the last block', count - 5, 1, -7.5],
    ['NaN in the second block', SPEED_BLOCK + 9, 2, NaN],
    ['infinity in the first block', 3, 0, -Infinity],
  ]
  it.each(cases)('%s: TypeScript and 1, 2, 3 WebAssembly threads agree with one pass', (_name, at, axis, value) => {
    const want = plain(count, at, axis, value)
    expect(speed(TS_KERNELS, count, at, axis, value)).toBe(want)
    for (const threads of [1, 2, 3]) {
      const b = createKernelBackend('wasm', { threads, minParallelWork: 0, strict: true, initialBytes: 1 << 22 })
      backends.push(b)
      expect(speed(b, count, at, axis, value), `${threads} threads`).toBe(want)
    }
  })

  it('no markers: 0', () => {
    expect(speed(TS_KERNELS, 0)).toBe(0)
  })
})
