// The kernel table: every hot kernel is declared once, as a row, and both ways of running it
// are derived from that row:
//
// - TypeScript forwarding (runReference): the row's reference slab function called over the
//   whole range [0, n) on the calling thread;
// - WebAssembly marshalling (wasm/wasmBackend.ts): each argument turned into what the
//   AssemblyScript twin takes (a typed array into its byte offset in the shared memory, null
//   into 0, a struct into its fields' offsets, a scratch into a per-thread block), the export
//   found by the row's name (no hand-numbered ids: the dispatch id is the name's position in
//   the module's sorted export list, the same on every thread), and [0, n) split across the
//   slab pool.
//
// Adding a kernel = a reference slab function + its AssemblyScript twin (exported from
// wasm/assembly/index.ts under the row's name) + one defineKernel row; then
// `backend.run(ROW, ...args)` runs it on any backend. Rows may be declared anywhere (a method
// folder declares its own, e.g. smoke/vortexKernels.ts): this module imports nothing but the
// partial-sum helper, so it sits at the bottom of the import graph.
//
// Calling convention shared by both sides: the reference is ref(...args, k0, k1) and the
// twin export(...marshalled args, k0, k1, worker) (wasm ignores a surplus `worker`), where
// [k0, k1) is a sub-range of [0, range(args)): z-planes ('planes'), matrix rows ('rows') or
// fixed-size vector blocks ('blocks'). Each index of the range must write disjoint outputs,
// so any split gives the same bits; a reducing row writes one float64 partial per index into
// its `partials` argument and run() returns their sum in index order (deterministic whatever
// the thread count).
import { sumPartials } from './vectorOps'

export type PtrType = 'f32' | 'f64' | 'i32' | 'u8'
export type TypedArray = Float32Array | Float64Array | Int32Array | Uint8Array
/** A kernel argument: a typed array (or null), a number, or a struct of typed arrays. */
export type KernelArg = TypedArray | number | null | object
export type KernelArgs = KernelArg[]

export interface IntArg {
  readonly name: string
  readonly kind: 'int' | 'float'
}
export interface PtrArg {
  readonly name: string
  readonly kind: 'ptr'
  /** Accepted element types (one, or a union such as the solid field's u8 | f32). */
  readonly types: readonly PtrType[]
  /** May be null (passed to wasm as pointer 0). */
  readonly nullable: boolean
  /** wasm also receives a tag after the pointer: 0 null, 1 + index of the array's type in `types`. */
  readonly tagged: boolean
  /**
   * Read-only input that may live outside the kernels' memory: wasm copies its first
   * stage(args) elements into a staging block instead of falling back to the reference.
   */
  readonly stage: ((a: KernelArgs) => number) | null
}
export interface StructArg {
  readonly name: string
  readonly kind: 'struct'
  /** Typed-array fields passed to wasm as consecutive pointers, in this order. */
  readonly fields: readonly (readonly [string, PtrType])[]
}
export interface ScratchArg {
  readonly name: string
  readonly kind: 'scratch'
  /**
   * Bytes of scratch one thread needs. The reference receives the caller's value as is; wasm
   * receives (base, stride) of a per-thread block in its memory (thread t uses base + t stride).
   */
  readonly bytes: (a: KernelArgs) => number
}
/**
 * A value the caller passes only so the row can compute its range (e.g. nz for a kernel whose
 * twin does not take it) or its balance: passed to neither the reference nor the twin.
 */
export interface SizeArg {
  readonly name: string
  readonly kind: 'size'
}
export type ArgSpec = IntArg | PtrArg | StructArg | ScratchArg | SizeArg

/** How [0, range) is understood; documentation for readers and the default work estimate. */
export type KernelSplit = 'planes' | 'rows' | 'blocks'

export interface KernelRowSpec {
  /** Export name of the AssemblyScript twin; also the row's label. */
  readonly name: string
  readonly args: readonly ArgSpec[]
  readonly split: KernelSplit
  /** Length of the index range the kernel runs over. */
  readonly range: (a: KernelArgs) => number
  /** Cells (or nonzeros) touched, for the pool's serial/parallel decision; default the range. */
  readonly work?: (a: KernelArgs, n: number) => number
  /**
   * Cumulative work over the range (length range + 1: entry i is the work of indices [0, i)),
   * so a thread pool can give its threads equal work rather than equal lengths (a liquid's
   * markers fill the lower planes); null or absent: uniform. Any split gives the same bits.
   */
  readonly balance?: (a: KernelArgs) => ArrayLike<number> | null
  /** Name of the float64 partial-sum argument of a reducing row. */
  readonly partials?: string
  /**
   * Cut the range into this many pieces per thread, which the threads take as they finish
   * (parallel/slabPool.ts): the threads then finish together when some indices cost more than
   * others in ways no balance predicts (markers near a body, spray). Only for rows whose every
   * index writes its own outputs alone and which use no per-thread scratch across indices, so
   * which thread runs an index changes nothing. Absent: one contiguous range per thread.
   */
  readonly piecesPerThread?: number
  /**
   * The twin also takes its thread's index after k0 and k1 (every call passes it): for rows
   * that find per-thread memory the caller lends (rows with a scratch argument always do).
   * A pool passes the number of the thread's range (parallel/slabPool.ts, "Claiming parts"),
   * which is the thread's own index unless another thread took the range over.
   */
  readonly worker?: boolean
  /** The reference slab function: ref(...args, k0, k1) (rows adapt any other signature). */
  // biome-ignore lint/suspicious/noExplicitAny: one table holds references of every signature
  readonly ref: (...args: any[]) => void
}

export interface KernelRow extends KernelRowSpec {
  /** Argument index of `partials`, or -1. */
  readonly partialIndex: number
  /** Number of values the wasm export takes before (k0, k1, worker). */
  readonly wasmArgCount: number
  /** Indices of the arguments the reference takes, when some are sizes only; else null. */
  readonly refPick: readonly number[] | null
}

const registry = new Map<string, KernelRow>()

/** Declares a kernel row (and lists it in kernelRows()). */
export function defineKernel(spec: KernelRowSpec): KernelRow {
  let wasmArgCount = 0
  for (const a of spec.args) wasmArgCount += a.kind === 'size' ? 0 : a.kind === 'struct' ? a.fields.length : a.kind === 'scratch' || (a.kind === 'ptr' && a.tagged) ? 2 : 1
  const picked = spec.args.flatMap((a, i) => (a.kind === 'size' ? [] : [i]))
  const partialIndex = spec.partials === undefined ? -1 : spec.args.findIndex((a) => a.name === spec.partials)
  if (spec.partials !== undefined && partialIndex < 0) throw new Error(`kernel ${spec.name}: no argument named ${spec.partials}`)
  const row: KernelRow = { ...spec, partialIndex, wasmArgCount, refPick: picked.length < spec.args.length ? picked : null }
  // Last definition wins (a module evaluated twice, e.g. under hot reload, redefines its rows).
  registry.set(spec.name, row)
  return row
}

/** Every row defined so far (core's rows, and those of method folders that were loaded). */
export function kernelRows(): KernelRow[] {
  return [...registry.values()]
}

/** The row named `name`, if defined. */
export function kernelRow(name: string): KernelRow | undefined {
  return registry.get(name)
}

// Argument helpers for rows.
export const int = (name: string): IntArg => ({ name, kind: 'int' })
export const size = (name: string): SizeArg => ({ name, kind: 'size' })
export const float = (name: string): IntArg => ({ name, kind: 'float' })

/** A cell grid's size and placement as kernel arguments, in this order: nx, ny, nz, dx, and its origin ox, oy, oz. */
export const GRID_PLACEMENT: readonly ArgSpec[] = [int('nx'), int('ny'), int('nz'), float('dx'), float('ox'), float('oy'), float('oz')]
export function ptr(name: string, types: PtrType | readonly PtrType[], options: { nullable?: boolean; tagged?: boolean; stage?: (a: KernelArgs) => number } = {}): PtrArg {
  return {
    name,
    kind: 'ptr',
    types: typeof types === 'string' ? [types] : types,
    nullable: options.nullable ?? options.tagged ?? false,
    tagged: options.tagged ?? false,
    stage: options.stage ?? null,
  }
}
export const f32 = (name: string, nullable = false): PtrArg => ptr(name, 'f32', { nullable })
export const f64 = (name: string, nullable = false): PtrArg => ptr(name, 'f64', { nullable })
export const i32 = (name: string, nullable = false): PtrArg => ptr(name, 'i32', { nullable })
export const u8 = (name: string, nullable = false): PtrArg => ptr(name, 'u8', { nullable })
export function struct(name: string, fields: Record<string, PtrType>): StructArg {
  return { name, kind: 'struct', fields: Object.entries(fields) }
}
export function scratch(name: string, bytes: (a: KernelArgs) => number): ScratchArg {
  return { name, kind: 'scratch', bytes }
}

/**
 * A row whose range is its last argument (a size neither side takes: the planes, the patches)
 * and whose work is weight x cellsPerIndex x range (weight: passes over a cell's data, for the
 * pool's serial/parallel choice).
 */
export function sizedRow(name: string, args: KernelRowSpec['args'], split: KernelSplit, cellsPerIndex: (a: KernelArgs) => number, weight: number, ref: KernelRowSpec['ref'], partials?: string): KernelRow {
  const last = args.length - 1
  if (args[last].kind !== 'size') throw new Error(`kernel ${name}: the row's last argument must be the size of its range`)
  return defineKernel({
    name,
    args,
    split,
    range: (a) => a[last] as number,
    work: (a) => weight * cellsPerIndex(a) * (a[last] as number),
    ref,
    ...(partials === undefined ? {} : { partials }),
  })
}

/**
 * A row over the z-planes of a flat cell grid whose arguments include `plane` (cells per
 * z-plane, an int both sides take) and end in `nz` (a size neither takes): range nz, work
 * weight x plane x nz.
 */
export function planeRow(name: string, args: KernelRowSpec['args'], weight: number, ref: KernelRowSpec['ref'], partials?: string): KernelRow {
  const planeAt = args.findIndex((a) => a.name === 'plane')
  if (planeAt < 0 || args[args.length - 1].kind !== 'size') throw new Error(`kernel ${name}: a plane row takes plane and ends in the size nz`)
  return sizedRow(name, args, 'planes', (a) => a[planeAt] as number, weight, ref, partials)
}

/** Element type of a typed array, as a PtrType. */
export function ptrTypeOf(a: TypedArray): PtrType {
  return a instanceof Float64Array ? 'f64' : a instanceof Float32Array ? 'f32' : a instanceof Int32Array ? 'i32' : 'u8'
}

const refBuffers = new WeakMap<KernelRow, KernelArgs>()

/**
 * The TypeScript forwarding of a row: its reference over the whole range on this thread.
 * `args` is the caller's argument list (run() owns it; k0 and k1 are appended and removed).
 * Returns the in-order sum of the partials for a reducing row, else 0.
 */
export function runReference(row: KernelRow, args: KernelArgs): number {
  if (args.length !== row.args.length) throw new Error(`kernel ${row.name} takes ${row.args.length} arguments, got ${args.length}`)
  const n = row.range(args)
  if (n > 0) {
    if (row.refPick !== null) {
      // The reference's arguments without the size-only ones, in a buffer kept per row (refs
      // never call back into run, so it is free again when they return).
      let pick = refBuffers.get(row)
      if (pick === undefined) refBuffers.set(row, (pick = []))
      pick.length = 0
      for (const i of row.refPick) pick.push(args[i])
      pick.push(0, n)
      try {
        row.ref(...pick)
      } finally {
        pick.length = 0 // do not keep the caller's arrays alive
      }
    } else {
      const count = args.length
      args.push(0, n)
      row.ref(...args)
      args.length = count
    }
  }
  return row.partialIndex >= 0 ? sumPartials(args[row.partialIndex] as Float64Array, n > 0 ? n : 0) : 0
}
