// Node side of the kernel thread pool: worker_threads running the shared pool's worker loop.
// The worker's code is the plain JavaScript in SLAB_WORKER_SOURCE, started with `eval`, so it
// needs no file of its own, no TypeScript transpile and no bundler support (vitest, the
// headless host and Electron's main process all run it the same way). Each worker gets the
// compiled WebAssembly.Module and the shared memory through workerData.
import { setFlagsFromString } from 'node:v8'
import { Worker } from 'node:worker_threads'
import { defaultKernelThreads } from './kernelCores'
import { type KernelBackend, type KernelKind, TS_KERNELS } from '../../src-shared/sim/core/kernelBackend'
import { SLAB_WORKER_SOURCE, SlabPool, type SlabPoolOptions, type SlabWorkerHandle, type SlabWorkerHost, type SlabWorkerInit } from '../../src-shared/sim/parallel/slabPool'
import { WasmKernels, type WasmKernelsOptions } from '../../src-shared/sim/wasm/kernels'
import { type WasmBackendOptions, WasmKernelBackend } from '../../src-shared/sim/wasm/wasmBackend'

const WORKER_MAIN = `'use strict'
const { workerData } = require('node:worker_threads')
// Linux applies setpriority(pid 0) to the calling thread only: this lowers just this worker.
if (workerData.nice) { try { require('node:os').setPriority(0, workerData.nice) } catch {} }
;(${SLAB_WORKER_SOURCE})(workerData)
`

/** Spawns pool workers as Node worker threads, optionally at a lower CPU priority (nice). */
export class NodeSlabWorkerHost implements SlabWorkerHost {
  constructor(private readonly nice = 0) {}
  spawn(init: SlabWorkerInit): SlabWorkerHandle {
    const worker = new Worker(WORKER_MAIN, { eval: true, workerData: { ...init, nice: this.nice }, name: `eddy-kernels-${init.index}` })
    // A pool that is never closed must not keep the process alive.
    worker.unref()
    worker.on('error', () => {
      // The loop catches kernel errors itself; an error here means the thread died. The pool
      // cannot be woken from Atomics.wait by an event, so nothing more can be done here.
    })
    return { terminate: () => worker.terminate() }
  }
}

/** A pool of `threads` threads (this one plus threads-1 workers) over the kernels' memory. */
export function createNodeSlabPool(kernels: WasmKernels, options: SlabPoolOptions & { nice?: number } = {}): SlabPool {
  return new SlabPool(kernels, new NodeSlabWorkerHost(options.nice ?? 0), { ...options, threads: options.threads ?? defaultKernelThreads() })
}

export interface NodeKernelOptions extends WasmKernelsOptions, WasmBackendOptions, Omit<SlabPoolOptions, 'threads'> {
  /** Threads for the WebAssembly kernels, including the calling one; default all cores. */
  threads?: number
  /** Unix nice value of the worker threads (bakes run at 10 so the UI stays responsive). */
  nice?: number
}

/**
 * The solver's kernels: 'ts' (reference TypeScript, one thread) or 'wasm' (WebAssembly SIMD
 * on `threads` threads sharing one memory). Call dispose() on a 'wasm' backend when done.
 */
export function createKernelBackend(kind: KernelKind, options: NodeKernelOptions = {}): KernelBackend {
  if (kind === 'ts') return TS_KERNELS
  optimiseWasmAtFirstCall()
  const kernels = new WasmKernels(options)
  const pool = createNodeSlabPool(kernels, options)
  return new WasmKernelBackend(kernels, pool, options)
}

let optimisingWasm = false

/**
 * Compiles each WebAssembly function with V8's optimising compiler (TurboFan) when it is first
 * called, instead of its baseline compiler (Liftoff) followed by a tier-up on hot functions.
 * The kernels are few (about 160 functions) and all of a bake's are hot, so the baseline code
 * only ran them 2-3x slower through a bake's first frame while the tier-up competed with the
 * kernels for the cores: `bench rigidfluid --frames 1` took 2.61 instead of 2.84 s (four
 * alternated pairs). Compiling every function up front would cost 0.27 s at the first backend
 * whether a bake uses a function or not. V8's flags are the process's: set once, before the
 * module is first compiled (a module compiled earlier keeps its code; nothing else here runs
 * WebAssembly).
 */
function optimiseWasmAtFirstCall(): void {
  if (optimisingWasm) return
  optimisingWasm = true
  setFlagsFromString('--no-liftoff')
}
