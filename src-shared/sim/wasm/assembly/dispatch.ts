// Module-level exports that are not kernels. Every kernel is exported under the name of its
// kernel-table row (core/kernelTable.ts) and called from JavaScript as
// name(...args, k0, k1, worker): wasm ignores the surplus arguments of kernels that do not
// take `worker` (restrict and particleForce do, for their per-thread scratch). Kernels are called directly rather than through one switch function: inlined
// into such a function, the small kernels compiled several times slower in V8 (a dot product
// 9 ms instead of 2 ms at 128^3).

/** Bytes before this offset belong to the module (static data); the arena starts above it. */
export function heapBase(): usize {
  return __heap_base
}

/**
 * Zeroes `bytes` bytes at `at` (the arena's reused blocks): memory.fill runs at memset's speed,
 * where a typed array's fill on the shared memory makes relaxed atomic stores, 4-20 times
 * slower (a 200 MB block: about 90 ms with a byte view, 20 with a float64 one).
 */
export function zeroBytes(at: usize, bytes: usize): void {
  memory.fill(at, 0, bytes)
}
