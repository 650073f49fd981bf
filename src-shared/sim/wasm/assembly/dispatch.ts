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
