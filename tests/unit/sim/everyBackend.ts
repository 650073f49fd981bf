// The kernel backends a bit-for-bit test compares: the TypeScript reference and WebAssembly on
// 1, 2 and 3 threads (no serial shortcut for small work, no fallback to the reference). The
// WebAssembly ones are pushed on `owned` for the test's afterAll to dispose.
import { afterAll } from 'vitest'
import { type KernelBackend, TS_KERNELS } from '../../../src-shared/sim/core/kernelBackend'
import { createKernelBackend } from '../../../src-main/sim/workerPool'

export function everyBackend(owned: KernelBackend[]): [string, KernelBackend][] {
  const list: [string, KernelBackend][] = [['TypeScript', TS_KERNELS]]
  for (const threads of [1, 2, 3]) {
    const b = createKernelBackend('wasm', { threads, minParallelWork: 0, strict: true, initialBytes: 1 << 22 })
    owned.push(b)
    list.push([`${threads} WebAssembly threads`, b])
  }
  return list
}

/** everyBackend for a test file: its WebAssembly backends are disposed after the file's tests. */
export function everyBackendOfFile(): [string, KernelBackend][] {
  const owned: KernelBackend[] = []
  afterAll(async () => {
    for (const b of owned) await b.dispose()
  })
  return everyBackend(owned)
}

/** A small deterministic generator in [0, 1) (a linear congruential one). */
export function rng(seed: number): () => number {
  let s = seed >>> 0
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0
    return s / 4294967296
  }
}

/** Whether two arrays hold the same numbers bit for bit (NaN equal to NaN, +0 not -0). */
export function sameBits(a: ArrayLike<number>, b: ArrayLike<number>): boolean {
  if (a.length !== b.length) return false
  for (let i = 0; i < a.length; i++) if (!Object.is(a[i], b[i])) return false
  return true
}
