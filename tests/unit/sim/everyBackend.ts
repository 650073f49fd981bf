// The kernel backends a bit-for-bit test compares: the TypeScript reference and WebAssembly on
// 1, 2 and 3 threads (no serial shortcut for small work, no fallback to the reference). The
// WebAssembly ones are pushed on `owned` for the test's afterAll to dispose.
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
