// Where a bake's kernels run. A family says where its kernels run best (smoke, liquid:
// WebAssembly over worker threads; surface flows: TypeScript on the bake thread), and a request
// may ask for TypeScript or WebAssembly instead. WebAssembly's memory is wasm32's: at most
// 4 GiB, and the kernels' arrays must all live in it, so a bake whose estimate is beyond
// WASM_MEMORY_LIMIT runs its kernels in TypeScript (one thread, the JavaScript heap) rather
// than failing for memory a few frames in; the runner's log says so.
import type { KernelKind } from '../../src-shared/sim/core/kernelTypes'

/** Estimated bake memory above which the WebAssembly kernels are not chosen by default: wasm32's 4 GiB less room for the module, staging and scratch. */
export const WASM_MEMORY_LIMIT = 3.5 * 1024 ** 3

export interface KernelChoice {
  kind: KernelKind
  /** Why the default was not taken (for the bake's log), or null. */
  note: string | null
}

/** The kernels for a family that prefers `preferred`, a request's `requested`, and an estimate of `memoryBytes`. */
export function chooseKernels(preferred: KernelKind, requested: KernelKind | undefined, memoryBytes: number): KernelChoice {
  if (preferred !== 'wasm') return { kind: 'ts', note: null }
  if (requested) return { kind: requested, note: null }
  if (memoryBytes > WASM_MEMORY_LIMIT) {
    const gib = (b: number) => `${(b / 1024 ** 3).toFixed(1)} GiB`
    return { kind: 'ts', note: `needs about ${gib(memoryBytes)}, more than the WebAssembly kernels can address (${gib(WASM_MEMORY_LIMIT)} here), so its kernels run in TypeScript on one thread` }
  }
  return { kind: 'wasm', note: null }
}
