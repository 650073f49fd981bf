// KernelBackend over the WebAssembly kernels: arrays come from the WasmArena (views of the
// shared memory); run(row, ...args) marshals a kernel-table row's arguments (core/kernelTable.ts)
// into the values its AssemblyScript twin takes and runs the twin through a SlabRunner: on this
// thread (InlineRunner) or split across worker threads (SlabPool). The named methods solvers
// call come from core's TableKernelBackend, the same faces as the TypeScript backend's.
//
// Marshalling, per argument kind: a typed array becomes its byte offset (null: 0; a tagged
// union also passes 1 + its type's index), a struct its fields' offsets, a scratch a per-thread
// block (base, stride) in the arena, a staged array its offset or that of a copy, numbers pass
// as they are, sizes not at all. The dispatch number is the row name's position among the
// module's exports (WasmKernels.idOf).
//
// Results are bit-identical to the TypeScript backend, except for the reductions (dot,
// updateIterate) when `exactReductions` is false: then each plane's sum is accumulated in two
// SIMD lanes (see assembly/vector.ts), which moves the sum by a few units in the last place.
// With either setting the result does not depend on the number of threads.
//
// An array that is not in the kernels' memory (allocated elsewhere) runs the row's TypeScript
// reference on this thread instead; `fallbacks` counts such calls, and `strict` turns them
// into an error.
import { EddyError } from '../../api/errors'
import { TableKernelBackend } from '../core/kernelBackend'
import { type KernelArgs, type KernelRow, ptrTypeOf, runReference, type TypedArray } from '../core/kernelTable'
import { sumPartials } from '../core/vectorOps'
import { InlineRunner, type SlabRunner } from '../parallel/slabPool'
import { MAX_KERNEL_ARGS, WasmKernels, type WasmKernelsOptions } from './kernels'

export interface WasmBackendOptions {
  /**
   * Per-plane sums in the reference's order (bit-identical to the TypeScript backend) rather
   * than two SIMD lanes; default true.
   */
  exactReductions?: boolean
  /** Throw when an array is not in the kernels' memory instead of falling back; default false. */
  strict?: boolean
}

/** A copy block in the arena for one staged argument of one row. */
interface Stage {
  ptr: number
  bytes: number
}

/** start()'s result for a row the pool took overlapped. */
const OVERLAPPED = -1

export class WasmKernelBackend extends TableKernelBackend {
  readonly kind = 'wasm' as const
  readonly kernels: WasmKernels
  readonly runner: SlabRunner
  /** Calls that ran the TypeScript reference instead (arrays outside the memory). */
  fallbacks = 0
  private readonly strict: boolean
  /** Marshalled values of the current call (reused: no allocation per call). */
  private readonly a = new Float64Array(MAX_KERNEL_ARGS)
  /** Per-thread scratch blocks by bytes per thread: [base pointer, stride]. */
  private readonly scratch = new Map<number, [number, number]>()
  /** Staging blocks by row name and argument index. */
  private readonly stages = new Map<string, (Stage | undefined)[]>()
  /** Dispatch number of each row (by row object; rows are module constants). */
  private readonly ids = new Map<KernelRow, number>()

  constructor(kernels: WasmKernels, runner: SlabRunner = new InlineRunner(kernels), options: WasmBackendOptions = {}) {
    super()
    this.kernels = kernels
    this.runner = runner
    this.exactReductions = options.exactReductions ?? true
    this.strict = options.strict ?? false
  }

  get threads(): number {
    return this.runner.threads
  }

  f32(length: number): Float32Array {
    return this.kernels.arena.f32(length)
  }
  f64(length: number): Float64Array {
    return this.kernels.arena.f64(length)
  }
  i32(length: number): Int32Array {
    return this.kernels.arena.i32(length)
  }
  u8(length: number): Uint8Array {
    return this.kernels.arena.u8(length)
  }

  run(row: KernelRow, ...args: KernelArgs): number {
    if (row === this.flightRow) throw new EddyError('INTERNAL', `kernel ${row.name} run while it is overlapped (its staged arguments are in use)`)
    return this.start(row, args, false)
  }

  /** See KernelBackend.begin: the pool's other threads start it (SlabPool.begin). */
  override begin(row: KernelRow, ...args: KernelArgs): void {
    this.checkOverlappable(row)
    if (this.flightRow !== null) throw new EddyError('INTERNAL', `kernel ${row.name} begun while ${this.flightRow.name} is overlapped`)
    if (this.start(row, args, true) === OVERLAPPED) this.flightRow = row
  }

  /**
   * run() and begin(): the row's arguments marshalled, then the pool's run (returning the sum of
   * a reducing row's partials, else 0) or begin (returning OVERLAPPED); the reference here when
   * an array is not in the kernels' memory.
   */
  private start(row: KernelRow, args: KernelArgs, overlapped: boolean): number {
    const id = this.marshal(row, args)
    if (id < 0) {
      this.fallbacks++
      return runReference(row, args)
    }
    const range = row.range(args)
    if (range <= 0) return 0
    const work = row.work ? row.work(args, range) : range, balance = row.balance ? row.balance(args) : null, pieces = row.piecesPerThread ?? 1
    if (overlapped) {
      this.runner.begin(id, this.a, this.argCount, range, work, balance, pieces)
      return OVERLAPPED
    }
    this.runner.run(id, this.a, this.argCount, range, work, balance, pieces)
    return row.partialIndex >= 0 ? sumPartials(args[row.partialIndex] as Float64Array, range) : 0
  }

  override finish(): void {
    if (this.flightRow === null) return
    this.flightRow = null
    this.runner.finish()
  }

  /** The row overlapped by begin(), until finish(). */
  private flightRow: KernelRow | null = null
  /** The argument count of the last marshal(). */
  private argCount = 0

  /**
   * Writes the row's arguments into `a` (pointers, scalars, staged copies) and returns its
   * dispatch number, or -1 when an array is not in the kernels' memory and cannot be staged.
   */
  private marshal(row: KernelRow, args: KernelArgs): number {
    if (args.length !== row.args.length) throw new EddyError('INTERNAL', `kernel ${row.name} takes ${row.args.length} arguments, got ${args.length}`)
    let id = this.ids.get(row)
    if (id === undefined) {
      id = this.kernels.idOf(row.name)
      this.ids.set(row, id)
    }
    const { a } = this
    const arena = this.kernels.arena
    let n = 0
    let ok = true
    const specs = row.args
    for (let i = 0; i < specs.length; i++) {
      const spec = specs[i]
      const v = args[i]
      switch (spec.kind) {
        case 'int':
        case 'float':
          a[n++] = v as number
          break
        case 'size':
          break
        case 'ptr': {
          if (v === null) {
            a[n++] = 0
            if (spec.tagged) a[n++] = 0
            break
          }
          const t = v as TypedArray
          if (arena.owns(t)) a[n++] = t.byteOffset
          else if (spec.stage !== null) a[n++] = this.stageIn(row, i, t, spec.stage(args))
          else {
            ok = false
            a[n++] = 0
          }
          if (spec.tagged) a[n++] = 1 + spec.types.indexOf(ptrTypeOf(t))
          break
        }
        case 'struct': {
          const o = v as Record<string, TypedArray>
          for (const [field] of spec.fields) {
            const t = o[field]
            if (arena.owns(t)) a[n++] = t.byteOffset
            else {
              ok = false
              a[n++] = 0
            }
          }
          break
        }
        case 'scratch': {
          const [base, stride] = this.scratchFor(spec.bytes(args))
          a[n++] = base
          a[n++] = stride
          break
        }
      }
    }
    if (!ok) {
      if (this.strict) throw new EddyError('INTERNAL', `an array passed to the WebAssembly kernel ${row.name} is not in their memory (allocate it through the kernel backend)`)
      return -1
    }
    this.argCount = n
    return id
  }

  /** [base, stride] of `bytes` of scratch per thread (blocks 64-byte aligned, kept per size). */
  private scratchFor(bytes: number): [number, number] {
    const stride = Math.ceil(Math.max(bytes, 8) / 64) * 64
    let s = this.scratch.get(stride)
    if (!s) {
      s = [this.kernels.arena.alloc(stride * this.threads, 64), stride]
      this.scratch.set(stride, s)
    }
    return s
  }

  /**
   * Copies the first `count` elements of `t` (outside the memory) into the staging block of
   * argument `index` of `row` and returns its offset. Blocks grow by doubling; the bump arena
   * cannot free the old block (bounded waste).
   */
  private stageIn(row: KernelRow, index: number, t: TypedArray, count: number): number {
    let list = this.stages.get(row.name)
    if (!list) {
      list = []
      this.stages.set(row.name, list)
    }
    let st = list[index]
    const bytes = count * t.BYTES_PER_ELEMENT
    if (st === undefined || bytes > st.bytes) {
      const cap = Math.max(2048, 2 * (st?.bytes ?? 0), bytes)
      st = { ptr: this.kernels.arena.alloc(cap, 64), bytes: cap }
      list[index] = st
    }
    if (count > 0) new Uint8Array(this.kernels.arena.buffer(), st.ptr, bytes).set(new Uint8Array(t.buffer, t.byteOffset, bytes))
    return st.ptr
  }

  /** Only arrays in the kernels' memory. */
  override holds(view: ArrayBufferView): boolean {
    return this.kernels.arena.owns(view)
  }

  /** See KernelBackend.scoped: the arena goes back to its mark when fn returns or throws. */
  override scoped<T>(fn: () => T): T {
    const mark = this.mark()
    try {
      return fn()
    } finally {
      this.release(mark)
    }
  }

  override mark(): number {
    return this.kernels.arena.mark()
  }

  override release(mark: number): void {
    // Scratch and staging blocks first made (or grown) since the mark lie above it: they are
    // forgotten here and made again on their next use.
    for (const [bytes, block] of this.scratch) if (block[0] >= mark) this.scratch.delete(bytes)
    for (const list of this.stages.values()) for (let i = 0; i < list.length; i++) if (list[i] !== undefined && list[i]!.ptr >= mark) list[i] = undefined
    this.kernels.arena.release(mark)
  }

  async dispose(): Promise<void> {
    await this.runner.close()
  }
}

/** WebAssembly kernels on the calling thread, in a new shared memory (or options.memory). */
export function createWasmBackend(options: WasmKernelsOptions & WasmBackendOptions = {}): WasmKernelBackend {
  const kernels = new WasmKernels(options)
  return new WasmKernelBackend(kernels, new InlineRunner(kernels), options)
}
