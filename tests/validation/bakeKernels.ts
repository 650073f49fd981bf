// The kernels a bake runs a family on (its preference: WebAssembly for every family; the
// tetrahedral liquid's only for its projection), here on the test's own thread: vitest already runs one test file per core. Validation then checks the code the
// app bakes with. The WebAssembly kernels give the reference's bits (the kernel tests compare
// every row on TypeScript and 1-3 WebAssembly threads, tests/unit/sim/everyBackend.ts), and run
// these scenes about twice as fast (a 32-cell rigid-fluid tank: 335 -> 179 ms a frame).
// Each call makes a backend of its own: its memory is a bump arena that frees only as a whole,
// when the solver holding it is collected.
import { createKernelBackend } from '../../src-main/sim/workerPool'
import type { SceneDocument } from '../../src-shared/scene/types'
import type { CompileOptions } from '../../src-shared/sim/compile'
import { familyOf } from '../../src-shared/sim/registry'

/** Compile options placing a scene's fields on single-threaded WebAssembly kernels. */
export function wasmKernels(): CompileOptions {
  return { kernels: createKernelBackend('wasm', { threads: 1 }), shared: true }
}

/** The compile options a bake of this host would use for its kernels (single-threaded). */
export function bakeKernels(doc: SceneDocument, hostId: string): CompileOptions {
  return familyOf(doc, hostId).kernels === 'wasm' ? wasmKernels() : {}
}
