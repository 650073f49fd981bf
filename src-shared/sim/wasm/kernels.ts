// Loads the AssemblyScript kernels (src-shared/sim/wasm/assembly, compiled by
// scripts/build-wasm.mjs into generated/kernelsWasm.ts) and manages the memory they work in.
//
// One shared WebAssembly.Memory holds every array a kernel touches. The main thread and each
// pool worker (src-shared/sim/parallel) instantiate the same module on that memory, so a
// kernel argument is just a byte offset. WasmArena hands out 16-byte aligned typed-array views
// of it. The memory is shared, and a SharedArrayBuffer is never detached: when the arena grows
// the memory, views handed out earlier stay valid (they keep seeing their own bytes; only
// `memory.buffer` returns a new, longer SharedArrayBuffer object). Pure TypeScript: no node:*,
// no DOM; the WebAssembly API is typed locally because shared code compiles without lib.dom.
import { EddyError } from '../../api/errors'
import { KERNELS_WASM_BASE64 } from './generated/kernelsWasm'

/** The parts of WebAssembly.Memory used here. */
export interface WasmMemory {
  readonly buffer: ArrayBufferLike
  grow(deltaPages: number): number
}

/** An opaque compiled WebAssembly.Module (structured-cloneable to workers). */
export interface WasmModule {
  readonly __wasmModule?: never
}

interface WasmInstance {
  readonly exports: Record<string, unknown>
}

interface WasmApi {
  Module: {
    new (bytes: Uint8Array): WasmModule
    exports(module: WasmModule): { name: string; kind: string }[]
  }
  Memory: new (descriptor: { initial: number; maximum: number; shared: boolean }) => WasmMemory
  Instance: new (module: WasmModule, imports: Record<string, Record<string, unknown>>) => WasmInstance
  compile(bytes: Uint8Array): Promise<WasmModule>
}

/** Most values any kernel takes before its range (particleForce: 22). */
export const MAX_KERNEL_ARGS = 32

/** WebAssembly page size, bytes. */
export const WASM_PAGE = 65536
/** The module declares at most 65536 pages (4 GiB, the wasm32 limit). */
export const MAX_PAGES = 65536

type Fn = (...args: number[]) => number | void

/**
 * The module's exports: the kernels (called by name through the kernel table's rows; pointers
 * are byte offsets into the shared memory, 0 = null) and heapBase.
 */
export interface KernelExports {
  heapBase(): number
  zeroBytes(at: number, bytes: number): void
  [name: string]: Fn
}

/**
 * Dispatch numbers of a module: its function exports in sorted order, after an unused 0. The
 * list is a pure function of the module, so the dispatching thread and every pool worker
 * agree on it without hand-numbered ids; a kernel row's number is its name's position.
 */
export function kernelExportNames(module: WasmModule): string[] {
  const names = wasmApi()
    .Module.exports(module)
    .filter((e) => e.kind === 'function')
    .map((e) => e.name)
    .sort()
  return ['', ...names]
}

function wasmApi(): WasmApi {
  const api = (globalThis as unknown as { WebAssembly?: WasmApi }).WebAssembly
  if (!api) throw new EddyError('INTERNAL', 'WebAssembly is not available in this environment')
  return api
}

const B64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/'

/** Decodes standard base64 (no atob: it is not in every worker flavour's type set). */
export function decodeBase64(text: string): Uint8Array {
  const table = new Int16Array(128).fill(-1)
  for (let i = 0; i < B64.length; i++) table[B64.charCodeAt(i)] = i
  let len = text.length
  while (len > 0 && text[len - 1] === '=') len--
  const out = new Uint8Array((len * 3) >> 2)
  let acc = 0
  let bits = 0
  let o = 0
  for (let i = 0; i < len; i++) {
    const v = table[text.charCodeAt(i) & 127]
    if (v < 0) throw new EddyError('INTERNAL', 'corrupt WebAssembly kernel bytes (base64)')
    acc = (acc << 6) | v
    bits += 6
    if (bits >= 8) {
      bits -= 8
      out[o++] = (acc >> bits) & 255
    }
  }
  return out
}

let cachedModule: WasmModule | null = null

/** The kernel module's bytes. */
export function kernelWasmBytes(): Uint8Array {
  return decodeBase64(KERNELS_WASM_BASE64)
}

/** The compiled kernel module (compiled once per thread, synchronously). */
export function kernelModule(): WasmModule {
  cachedModule ??= new (wasmApi().Module)(kernelWasmBytes())
  return cachedModule
}

/** The compiled kernel module, compiled off the calling thread (for a browser main thread). */
export async function compileKernelModule(): Promise<WasmModule> {
  cachedModule ??= await wasmApi().compile(kernelWasmBytes())
  return cachedModule
}

export interface KernelMemoryOptions {
  /** Initial size, bytes (rounded up to pages); default 16 MiB. */
  initialBytes?: number
  /** Largest size the memory may grow to, bytes; default (and at most) 4 GiB. */
  maximumBytes?: number
}

/** A shared WebAssembly.Memory sized for the kernel module. */
export function createKernelMemory(options: KernelMemoryOptions = {}): WasmMemory {
  const maximum = Math.min(MAX_PAGES, Math.ceil((options.maximumBytes ?? MAX_PAGES * WASM_PAGE) / WASM_PAGE))
  const initial = Math.min(maximum, Math.max(1, Math.ceil((options.initialBytes ?? 16 * 1024 * 1024) / WASM_PAGE)))
  if (typeof SharedArrayBuffer === 'undefined') {
    throw new EddyError('INVALID_PARAM', 'WebAssembly kernels need shared memory (SharedArrayBuffer needs cross-origin isolation)')
  }
  try {
    return new (wasmApi().Memory)({ initial, maximum, shared: true })
  } catch (e) {
    throw new EddyError('INVALID_PARAM', `could not reserve shared WebAssembly memory of up to ${maximum * 64} KiB`, { cause: String(e) })
  }
}

/** Instantiates the kernel module on `memory` (each thread does this once). */
export function instantiateKernels(module: WasmModule, memory: WasmMemory): KernelExports {
  const instance = new (wasmApi().Instance)(module, { env: { memory } })
  return instance.exports as unknown as KernelExports
}

type View = Float32Array | Float64Array | Int32Array | Uint8Array

/**
 * Bump allocator over the shared memory. Every block is 16-byte aligned and zeroed when
 * handed out; mark()/release() free everything allocated after a mark. Views stay valid when
 * the memory grows (see the header), so callers may keep them.
 */
export class WasmArena {
  readonly memory: WasmMemory
  /** First byte the arena may use (above the module's static data). */
  readonly base: number
  private top: number
  /** Lowest byte never handed out (above it the memory is zero as grown). */
  private fresh: number
  private readonly buffers = new Set<ArrayBufferLike>()
  private last: ArrayBufferLike
  /**
   * Told the new end of the bytes handed out whenever it grows past every earlier block (set by
   * a SlabPool, whose idle workers then commit those pages: slabPool.ts "Committing ahead").
   */
  onFresh: ((end: number) => void) | null = null

  /**
   * memory: the shared memory; base: the first byte above the module's static data; zero:
   * clears reused bytes (the module's memory.fill; default a typed array's fill).
   */
  constructor(
    memory: WasmMemory,
    base: number,
    private readonly zero: (at: number, bytes: number) => void = (at, bytes) => new Uint8Array(memory.buffer, at, bytes).fill(0),
  ) {
    this.memory = memory
    this.base = align(Math.max(base, 16), 64)
    this.top = this.base
    this.fresh = this.base
    this.last = memory.buffer
    this.buffers.add(this.last)
  }

  /** Bytes handed out. */
  get used(): number {
    return this.top - this.base
  }

  /** Current size of the memory, bytes. */
  get capacity(): number {
    return this.memory.buffer.byteLength
  }

  /** Reserves `bytes` (zeroed) and returns their byte offset. */
  alloc(bytes: number, alignment = 16): number {
    if (!(bytes >= 0) || !Number.isFinite(bytes)) throw new EddyError('INTERNAL', `bad allocation size ${bytes}`)
    const at = align(this.top, Math.max(16, alignment))
    const end = at + align(bytes, 16)
    const have = this.memory.buffer.byteLength
    if (end > have) {
      const pages = Math.ceil((end - have) / WASM_PAGE)
      try {
        this.memory.grow(pages)
      } catch {
        const mib = (b: number) => `${Math.ceil(b / 1024 ** 2)} MiB`
        throw new EddyError('INVALID_PARAM', `simulation needs more than ${mib(end)} of WebAssembly memory (${mib(have)} in use); use a coarser grid or the TypeScript kernels`, {
          requested: end,
        })
      }
    }
    this.top = end
    // Bytes above the highest block ever handed out are still as the memory grew them: zero
    // (WebAssembly zeroes new pages). Writing zeros there would only make the operating system
    // commit pages an array may never use (the viscosity's, a body's), so only reused bytes
    // are cleared.
    const reused = Math.min(end, this.fresh)
    if (reused > at) this.zero(at, reused - at)
    if (end > this.fresh) {
      this.fresh = end
      this.onFresh?.(end)
    }
    return at
  }

  /** The memory's current SharedArrayBuffer (remembered for owns()). */
  buffer(): ArrayBufferLike {
    const b = this.memory.buffer
    if (b !== this.last) {
      this.last = b
      this.buffers.add(b)
    }
    return b
  }

  f32(length: number): Float32Array {
    const at = this.alloc(length * 4) // may grow the memory: take the buffer after
    return new Float32Array(this.buffer(), at, length)
  }

  f64(length: number): Float64Array {
    const at = this.alloc(length * 8) // may grow the memory: take the buffer after
    return new Float64Array(this.buffer(), at, length)
  }

  i32(length: number): Int32Array {
    const at = this.alloc(length * 4) // may grow the memory: take the buffer after
    return new Int32Array(this.buffer(), at, length)
  }

  u8(length: number): Uint8Array {
    const at = this.alloc(length) // may grow the memory: take the buffer after
    return new Uint8Array(this.buffer(), at, length)
  }

  /** Whether a view lies in this memory (then its byteOffset is its kernel pointer). */
  owns(view: View | ArrayBufferView): boolean {
    const b = view.buffer
    return b === this.last || this.buffers.has(b) || b === this.buffer()
  }

  mark(): number {
    return this.top
  }

  /** Frees everything allocated after `mark`; views of it must no longer be used. */
  release(mark: number): void {
    if (mark < this.base || mark > this.top) throw new EddyError('INTERNAL', 'WasmArena.release: mark out of range')
    this.top = mark
  }
}

function align(n: number, a: number): number {
  return Math.ceil(n / a) * a
}

export interface WasmKernelsOptions extends KernelMemoryOptions {
  /** Use this memory instead of creating one. */
  memory?: WasmMemory
  /** Use this compiled module (default: kernelModule()). */
  module?: WasmModule
}

/**
 * The kernel module instantiated on this thread, its shared memory and the arena over it.
 * dispatch() runs one kernel over a range on the calling thread; a SlabPool runs it on many.
 */
export class WasmKernels {
  readonly memory: WasmMemory
  readonly module: WasmModule
  readonly exports: KernelExports
  readonly arena: WasmArena
  /** Byte offset of the MAX_KERNEL_ARGS float64 argument slots that pool workers read. */
  readonly argsPtr: number
  private readonly args: Float64Array
  /** Argument list of the next call on this thread: the arguments, k0, k1, worker. */
  private readonly argv: number[] = []
  private argc = 0
  /** Export name of each dispatch number (kernelExportNames). */
  readonly names: readonly string[]
  /** Export of each dispatch number. */
  private readonly entry: Fn[] = []
  private readonly ids = new Map<string, number>()

  constructor(options: WasmKernelsOptions = {}) {
    this.module = options.module ?? kernelModule()
    this.memory = options.memory ?? createKernelMemory(options)
    this.exports = instantiateKernels(this.module, this.memory)
    this.names = kernelExportNames(this.module)
    for (let k = 1; k < this.names.length; k++) {
      this.entry[k] = this.exports[this.names[k]]
      this.ids.set(this.names[k], k)
    }
    const zero = this.exports.zeroBytes
    this.arena = new WasmArena(this.memory, this.exports.heapBase(), (at, bytes) => zero(at, bytes))
    this.argsPtr = this.arena.alloc(MAX_KERNEL_ARGS * 8, 64)
    this.args = new Float64Array(this.arena.buffer(), this.argsPtr, MAX_KERNEL_ARGS)
  }

  /** Dispatch number of the export `name` (a kernel row's name). */
  idOf(name: string): number {
    const id = this.ids.get(name)
    if (id === undefined) throw new EddyError('INTERNAL', `WebAssembly kernels out of date (no export ${name}); run node scripts/build-wasm.mjs`)
    return id
  }

  /** Sets the arguments of the next dispatch, here and (through memory) for pool workers. */
  setArgs(args: ArrayLike<number>, count = args.length): void {
    if (count > MAX_KERNEL_ARGS) throw new EddyError('INTERNAL', `too many kernel arguments (${count})`)
    const { argv } = this
    argv.length = count + 3
    for (let i = 0; i < count; i++) {
      this.args[i] = args[i]
      argv[i] = args[i]
    }
    this.argc = count
  }

  /** Runs `kernel` over [k0, k1) on this thread with the arguments last set by setArgs. */
  dispatch(kernel: number, k0: number, k1: number, worker = 0): void {
    const run = this.entry[kernel]
    if (run === undefined) throw new EddyError('INTERNAL', `no WebAssembly kernel number ${kernel}`)
    const { argv, argc } = this
    argv[argc] = k0
    argv[argc + 1] = k1
    argv[argc + 2] = worker
    run(...argv)
  }
}
