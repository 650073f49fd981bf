// The hot kernels behind one small interface (kernelTypes.ts), so a solver can run them as
// plain TypeScript (the reference slab functions) or as WebAssembly SIMD kernels split across
// worker threads (src-shared/sim/wasm/wasmBackend.ts), chosen by `kernels: 'ts' | 'wasm'`.
//
// Every kernel is a row of the kernel table (kernelTable.ts; core's rows in kernelRows.ts).
// A backend implements one primitive, run(row, ...args), and TableKernelBackend derives the
// named methods solvers call from it, once for both backends: the TypeScript backend runs the
// row's reference over the whole range, the WebAssembly one marshals the row's arguments and
// splits the range across its threads. A backend also allocates: arrays that its kernels
// touch must come from its allocator (for WebAssembly, views of the shared memory the kernels
// address), so solver parts take `{ kernels }` in their AllocOptions and allocate through it.
import { EddyError } from '../../api/errors'
import { allocF32, allocF64 } from './grid'
import {
  ADD_BUOYANCY,
  ADD_CELL_FORCE,
  ADVECT,
  ADVECT_AT,
  ADVECT_AT_CUBIC,
  ADVECT_CUBIC,
  APPLY_POISSON,
  CONFINEMENT_FORCE,
  DOT_PLANES,
  DOT_PLANES_EXACT,
  GS_COLOR,
  GS_SWEEP,
  JACOBI,
  MACCORMACK,
  NET_OUTFLUX,
  PROLONG_ADD,
  RESIDUAL,
  RESTRICT,
  SUBTRACT_GRADIENT,
  UPDATE_ITERATE,
  UPDATE_ITERATE_EXACT,
  UPDATE_SEARCH,
  VORTICITY,
} from './kernelRows'
import { type KernelArgs, type KernelRow, runReference } from './kernelTable'
import type { AxisTransfer, KernelBackend, KernelKind, SolidField } from './kernelTypes'

export type { AxisTransfer, KernelAllocator, KernelBackend, KernelKind, SolidField } from './kernelTypes'

/**
 * KernelBackend's named methods over run(): each is the row of the same name (kernelRows.ts)
 * with the caller's arguments, plus the little each needs besides (choosing a row, a second
 * phase). Subclasses provide run(), the allocator and dispose().
 */
export abstract class TableKernelBackend implements KernelBackend {
  abstract readonly kind: KernelKind
  abstract readonly threads: number
  /**
   * Whether dot and updateIterate use the rows whose twins keep the reference's summation
   * order (bit-identical) rather than two SIMD lanes; the reference is the same for both.
   */
  exactReductions = true

  abstract run(row: KernelRow, ...args: KernelArgs): number

  /** See KernelBackend.begin: here the row runs at once. */
  begin(row: KernelRow, ...args: KernelArgs): void {
    this.checkOverlappable(row)
    this.run(row, ...args)
  }

  /** A reducing row's sum is run()'s result, which begin() has no way to return. */
  protected checkOverlappable(row: KernelRow): void {
    if (row.partialIndex >= 0) throw new EddyError('INTERNAL', `kernel ${row.name} sums partials: it cannot be overlapped`)
  }

  finish(): void {}
  abstract f32(length: number): Float32Array
  abstract f64(length: number): Float64Array
  abstract i32(length: number): Int32Array
  abstract u8(length: number): Uint8Array
  abstract dispose(): Promise<void>

  scoped<T>(fn: () => T): T {
    return fn()
  }

  mark(): number {
    return 0
  }

  release(_mark: number): void {}

  holds(_view: ArrayBufferView): boolean {
    return true
  }

  applyPoisson(out: Float64Array, x: Float64Array, fu: Float32Array, fv: Float32Array, fw: Float32Array, nx: number, ny: number, nz: number): void {
    this.run(APPLY_POISSON, out, x, fu, fv, fw, nx, ny, nz)
  }
  residual(r: Float64Array, b: Float64Array, x: Float64Array, fu: Float32Array, fv: Float32Array, fw: Float32Array, nx: number, ny: number, nz: number): void {
    this.run(RESIDUAL, r, b, x, fu, fv, fw, nx, ny, nz)
  }
  netOutflux(
    out: Float32Array | Float64Array,
    u: Float32Array,
    v: Float32Array,
    w: Float32Array,
    fu: Float32Array,
    fv: Float32Array,
    fw: Float32Array,
    su: Float32Array | null,
    sv: Float32Array | null,
    sw: Float32Array | null,
    nx: number,
    ny: number,
    nz: number,
  ): void {
    this.run(NET_OUTFLUX, out, u, v, w, fu, fv, fw, su, sv, sw, nx, ny, nz)
  }
  subtractGradient(u: Float32Array, v: Float32Array, w: Float32Array, phi: Float64Array, fu: Float32Array, fv: Float32Array, fw: Float32Array, nx: number, ny: number, nz: number): void {
    this.run(SUBTRACT_GRADIENT, u, v, w, phi, fu, fv, fw, nx, ny, nz)
  }
  dot(a: Float64Array, b: Float64Array, plane: number, nz: number, partial: Float64Array): number {
    return this.run(this.exactReductions ? DOT_PLANES_EXACT : DOT_PLANES, a, b, plane, partial, nz)
  }
  updateIterate(x: Float64Array, r: Float64Array, s: Float64Array, q: Float64Array, alpha: number, plane: number, nz: number, partial: Float64Array): number {
    return this.run(this.exactReductions ? UPDATE_ITERATE_EXACT : UPDATE_ITERATE, x, r, s, q, alpha, plane, partial, nz)
  }
  updateSearch(s: Float64Array, z: Float64Array, beta: number, plane: number, nz: number): void {
    this.run(UPDATE_SEARCH, s, z, beta, plane, nz)
  }
  gaussSeidelColor(x: Float64Array, b: Float64Array, fu: Float32Array, fv: Float32Array, fw: Float32Array, nx: number, ny: number, nz: number, color: number): void {
    this.run(GS_COLOR, x, b, fu, fv, fw, nx, ny, nz, color)
  }
  gaussSeidelSweep(x: Float64Array, b: Float64Array, fu: Float32Array, fv: Float32Array, fw: Float32Array, nx: number, ny: number, nz: number, first: number): void {
    // Two phases over the same slabs (see GS_SWEEP): interior, then slab borders.
    this.run(GS_SWEEP, x, b, fu, fv, fw, nx, ny, nz, first, 0)
    this.run(GS_SWEEP, x, b, fu, fv, fw, nx, ny, nz, first, 1)
  }
  jacobi(out: Float64Array, x: Float64Array, b: Float64Array, fu: Float32Array, fv: Float32Array, fw: Float32Array, nx: number, ny: number, nz: number, omega: number): void {
    this.run(JACOBI, out, x, b, fu, fv, fw, nx, ny, nz, omega)
  }
  restrict(
    bc: Float64Array,
    rf: Float64Array,
    nx: number,
    ny: number,
    nz: number,
    cx: number,
    cy: number,
    cz: number,
    tx: AxisTransfer,
    ty: AxisTransfer,
    tz: AxisTransfer,
    scratch: Float64Array,
  ): void {
    this.run(RESTRICT, bc, rf, nx, ny, nz, cx, cy, tx, ty, tz, scratch, cz)
  }
  prolongAdd(xf: Float64Array, xc: Float64Array, active: Uint8Array, nx: number, ny: number, nz: number, cx: number, cy: number, tx: AxisTransfer, ty: AxisTransfer, tz: AxisTransfer): void {
    this.run(PROLONG_ADD, xf, xc, active, nx, ny, cx, cy, tx, ty, tz, nz)
  }
  advect(
    dst: Float32Array,
    src: Float32Array,
    axis: -1 | 0 | 1 | 2,
    u: Float32Array,
    v: Float32Array,
    w: Float32Array,
    nx: number,
    ny: number,
    nz: number,
    dtOverDx: number,
    cubic: boolean,
    solid: SolidField | null,
    dst2: Float32Array | null = null,
    src2: Float32Array | null = null,
    base: Int32Array | null = null,
    rev: Float64Array | null = null,
  ): void {
    // The second field rides along only as a pair (advectSlab ignores a lone dst2 or src2).
    const pair = dst2 !== null && src2 !== null
    this.run(cubic ? ADVECT_CUBIC : ADVECT, dst, src, axis, u, v, w, nx, ny, nz, dtOverDx, solid, pair ? dst2 : null, pair ? src2 : null, base, rev)
  }
  advectAt(
    dst: Float32Array,
    src: Float32Array,
    axis: -1 | 0 | 1 | 2,
    nx: number,
    ny: number,
    nz: number,
    cubic: boolean,
    solid: SolidField | null,
    rev: Float64Array,
    dst2: Float32Array | null = null,
    src2: Float32Array | null = null,
  ): void {
    const pair = dst2 !== null && src2 !== null
    this.run(cubic ? ADVECT_AT_CUBIC : ADVECT_AT, dst, src, axis, nx, ny, nz, solid, rev, pair ? dst2 : null, pair ? src2 : null)
  }
  maccormackCorrect(
    dst: Float32Array,
    src: Float32Array,
    fwd: Float32Array,
    bwd: Float32Array,
    axis: -1 | 0 | 1 | 2,
    u: Float32Array,
    v: Float32Array,
    w: Float32Array,
    nx: number,
    ny: number,
    nz: number,
    dtOverDx: number,
    solid: SolidField | null,
    limiter: number,
    base: Int32Array | null = null,
  ): void {
    this.run(MACCORMACK, dst, src, fwd, bwd, axis, u, v, w, nx, ny, nz, dtOverDx, solid, limiter, base)
  }
  vorticity(ox: Float32Array, oy: Float32Array, oz: Float32Array, mag: Float32Array, u: Float32Array, v: Float32Array, w: Float32Array, nx: number, ny: number, nz: number, dx: number): void {
    this.run(VORTICITY, ox, oy, oz, mag, u, v, w, nx, ny, nz, dx)
  }
  confinementForce(
    fx: Float32Array,
    fy: Float32Array,
    fz: Float32Array,
    ox: Float32Array,
    oy: Float32Array,
    oz: Float32Array,
    mag: Float32Array,
    epsilon: number,
    nx: number,
    ny: number,
    nz: number,
    dx: number,
  ): void {
    this.run(CONFINEMENT_FORCE, fx, fy, fz, ox, oy, oz, mag, epsilon, nx, ny, nz, dx)
  }
  addCellForceToFaces(u: Float32Array, v: Float32Array, w: Float32Array, fx: Float32Array, fy: Float32Array, fz: Float32Array, dt: number, nx: number, ny: number, nz: number): void {
    this.run(ADD_CELL_FORCE, u, v, w, fx, fy, fz, dt, nx, ny, nz)
  }
  addBuoyancy(
    v: Float32Array,
    density: Float32Array | null,
    temperature: Float32Array | null,
    alpha: number,
    beta: number,
    ambientTemperature: number,
    dt: number,
    nx: number,
    ny: number,
    nz: number,
  ): void {
    this.run(ADD_BUOYANCY, v, density, temperature, alpha, beta, ambientTemperature, dt, nx, ny, nz)
  }
}

/**
 * Extension point for method folders: adds named methods to every table backend, each
 * running one row with the caller's arguments (missing trailing ones, such as a scratch the
 * caller does not supply, are passed as null). Declare the methods' types on KernelBackend
 * and TableKernelBackend by module augmentation next to the call (see smoke/vortexKernels.ts).
 */
export function installKernelMethods(methods: Record<string, KernelRow>): void {
  for (const [name, row] of Object.entries(methods)) {
    const count = row.args.length
    Object.defineProperty(TableKernelBackend.prototype, name, {
      configurable: true,
      writable: true,
      value: function (this: TableKernelBackend, ...args: KernelArgs): number {
        while (args.length < count) args.push(null)
        return this.run(row, ...args)
      },
    })
  }
}

/** The reference kernels on the calling thread; arrays from allocF32/allocF64 (shared when asked). */
export class TsKernelBackend extends TableKernelBackend {
  readonly kind = 'ts' as const
  readonly threads = 1
  constructor(readonly shared = false) {
    super()
  }

  run(row: KernelRow, ...args: KernelArgs): number {
    return runReference(row, args)
  }

  f32(length: number): Float32Array {
    return allocF32(length, this.shared)
  }
  f64(length: number): Float64Array {
    return allocF64(length, this.shared)
  }
  i32(length: number): Int32Array {
    return this.shared ? new Int32Array(new SharedArrayBuffer(length * 4)) : new Int32Array(length)
  }
  u8(length: number): Uint8Array {
    return this.shared ? new Uint8Array(new SharedArrayBuffer(length)) : new Uint8Array(length)
  }
  async dispose(): Promise<void> {}
}

/** The default backend: reference kernels, unshared arrays. */
export const TS_KERNELS: KernelBackend = new TsKernelBackend(false)
const TS_SHARED = new TsKernelBackend(true)

/** The backend of some AllocOptions-like options: the given one, else TypeScript (shared when asked). */
export function kernelsOf(options: { kernels?: KernelBackend; shared?: boolean } | undefined): KernelBackend {
  if (options?.kernels) return options.kernels
  return options?.shared ? TS_SHARED : TS_KERNELS
}

/**
 * An array the rows of `kernels` can read: `a` itself on TypeScript, else a copy in that
 * backend's memory (for read-only inputs, copied once: a mesh's arrays, a fixed operator).
 */
export function kernelCopy<T extends Float64Array | Float32Array | Int32Array | Uint8Array>(kernels: KernelBackend, a: T): T {
  if (kernels.kind === 'ts') return a
  const b = (a instanceof Float64Array ? kernels.f64(a.length) : a instanceof Float32Array ? kernels.f32(a.length) : a instanceof Int32Array ? kernels.i32(a.length) : kernels.u8(a.length)) as T
  b.set(a)
  return b
}
