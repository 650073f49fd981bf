// Types of the kernel layer, at the bottom of core's import graph: the backend interface that
// solver parts take (grid.ts's AllocOptions, every solver's `kernels`), and the small shared
// types of kernel arguments (SolidField, AxisTransfer). Implementations: kernelBackend.ts
// (TypeScript reference) and wasm/wasmBackend.ts (WebAssembly on the slab pool).
import type { KernelArgs, KernelRow } from './kernelTable'

/** Cell solid occupancy: a 0/1 mask or a solid fraction in [0, 1]. */
export type SolidField = Uint8Array | Float32Array

/** Per-axis transfer tables between a fine axis of n cells and its coarse axis of nc cells. */
export interface AxisTransfer {
  /** Prolongation: fine cell i reads coarse cells pa[i] (weight wa[i]) and pb[i] (wb[i]). */
  pa: Int32Array
  pb: Int32Array
  wa: Float64Array
  wb: Float64Array
  /** Restriction: coarse cell I reads fine cells 2I-1 .. 2I+2 with weights rw[4I .. 4I+3] (P^T). */
  rw: Float64Array
}

/**
 * AxisTransfer's tables for the float32 cycle (multigrid32Kernels.ts): the same indices and
 * the same weights, which are exact in float32 (1, 3/4, 1/4 and their sums).
 */
export interface AxisTransfer32 {
  pa: Int32Array
  pb: Int32Array
  wa: Float32Array
  wb: Float32Array
  rw: Float32Array
}

export type KernelKind = 'ts' | 'wasm'

/** Allocates zeroed arrays where a backend's kernels can reach them. */
export interface KernelAllocator {
  f32(length: number): Float32Array
  f64(length: number): Float64Array
  i32(length: number): Int32Array
  u8(length: number): Uint8Array
}

/**
 * Whole-grid kernels; the reference semantics are the *Slab functions named in each comment
 * called over every plane.
 */
export interface KernelBackend extends KernelAllocator {
  readonly kind: KernelKind
  /** Threads the kernels run on. */
  readonly threads: number
  /**
   * Runs any kernel row (kernelTable.ts) over its whole range: the reference on this thread
   * for TypeScript, the twin across the pool for WebAssembly. Returns the in-order sum of
   * the partials for a reducing row, else 0. The named methods below are thin faces over
   * core's rows (kernelRows.ts); method folders run their own rows through this, and may add
   * named faces with installKernelMethods (kernelBackend.ts).
   */
  run(row: KernelRow, ...args: KernelArgs): number
  /**
   * Starts a row whose results the caller needs only after finish(), and returns: on the
   * WebAssembly pool the other threads compute it while the caller goes on (any run() until
   * finish() then runs on the calling thread alone), and finish() joins in (parallel/slabPool.ts,
   * "Overlapped jobs"); elsewhere it runs at once. Until finish() the caller must neither read
   * nor write what the row writes, nor write what it reads. One at a time; no reducing rows.
   */
  begin(row: KernelRow, ...args: KernelArgs): void
  /** Returns when the row begin() started is done (at once when none is out). */
  finish(): void
  /**
   * Runs fn, then frees every array this backend handed out during it. For solvers that build
   * a whole system and drop it each substep (the tetrahedral liquid's mesh, matrix and
   * multigrid hierarchy): the WebAssembly kernels' memory is a bump arena that would otherwise
   * keep every one of them; on TypeScript the garbage collector does it, so this is fn().
   * Arrays allocated in fn must not be used after it returns.
   */
  scoped<T>(fn: () => T): T
  /**
   * scoped() in two halves, for memory a solver keeps across substeps and later drops as a
   * whole (the hybrid gas's mesh, rebuilt when an obstacle moves): mark() before allocating it,
   * release(mark) to free every array handed out since. Nothing allocated after the mark may be
   * used after the release. On TypeScript, 0 and nothing (the garbage collector frees it).
   */
  mark(): number
  release(mark: number): void
  /** Whether the kernels can read and write `view` where it lies (on TypeScript, any array). */
  holds(view: ArrayBufferView): boolean
  /** applyPoissonSlab: out = A x. */
  applyPoisson(out: Float64Array, x: Float64Array, fu: Float32Array, fv: Float32Array, fw: Float32Array, nx: number, ny: number, nz: number): void
  /** residualSlab: r = b - A x. */
  residual(r: Float64Array, b: Float64Array, x: Float64Array, fu: Float32Array, fv: Float32Array, fw: Float32Array, nx: number, ny: number, nz: number): void
  /** netOutfluxSlab. */
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
  ): void
  /** subtractGradientSlab. */
  subtractGradient(u: Float32Array, v: Float32Array, w: Float32Array, phi: Float64Array, fu: Float32Array, fv: Float32Array, fw: Float32Array, nx: number, ny: number, nz: number): void
  /** a . b as dotPlanesSlab into partial (nz entries) + sumPartials: independent of the thread count. */
  dot(a: Float64Array, b: Float64Array, plane: number, nz: number, partial: Float64Array): number
  /** updateIterateSlab + sumPartials: returns |r|^2. */
  updateIterate(x: Float64Array, r: Float64Array, s: Float64Array, q: Float64Array, alpha: number, plane: number, nz: number, partial: Float64Array): number
  /** updateSearchSlab. */
  updateSearch(s: Float64Array, z: Float64Array, beta: number, plane: number, nz: number): void
  /** gaussSeidelColorSlab: one red-black half sweep. */
  gaussSeidelColor(x: Float64Array, b: Float64Array, fu: Float32Array, fv: Float32Array, fw: Float32Array, nx: number, ny: number, nz: number, color: number): void
  /** A full red-black sweep: gaussSeidelColorSlab for colour `first`, then for the other. */
  gaussSeidelSweep(x: Float64Array, b: Float64Array, fu: Float32Array, fv: Float32Array, fw: Float32Array, nx: number, ny: number, nz: number, first: number): void
  /** jacobiSlab. */
  jacobi(out: Float64Array, x: Float64Array, b: Float64Array, fu: Float32Array, fv: Float32Array, fw: Float32Array, nx: number, ny: number, nz: number, omega: number): void
  /** restrictSlab over all cz coarse planes; scratch of restrictScratchLength (a backend may use its own per thread). */
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
  ): void
  /** prolongAddSlab over all nz fine planes. */
  prolongAdd(xf: Float64Array, xc: Float64Array, active: Uint8Array, nx: number, ny: number, nz: number, cx: number, cy: number, tx: AxisTransfer, ty: AxisTransfer, tz: AxisTransfer): void
  /**
   * advectSlab over every plane of lattice `axis` (dst2/src2: a second field on the same
   * trace; base: record corners; rev: record the reverse trace's departure points).
   */
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
    dst2?: Float32Array | null,
    src2?: Float32Array | null,
    base?: Int32Array | null,
    rev?: Float64Array | null,
  ): void
  /** advectAtSlab over every plane of lattice `axis`: src sampled at the points advect recorded in rev. */
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
    dst2?: Float32Array | null,
    src2?: Float32Array | null,
  ): void
  /** maccormackCorrectSlab over every plane of lattice `axis` (base: corners advect recorded). */
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
    base?: Int32Array | null,
  ): void
  /** vorticitySlab. */
  vorticity(ox: Float32Array, oy: Float32Array, oz: Float32Array, mag: Float32Array, u: Float32Array, v: Float32Array, w: Float32Array, nx: number, ny: number, nz: number, dx: number): void
  /** confinementForceSlab. */
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
  ): void
  /** addCellForceToFacesSlab. */
  addCellForceToFaces(u: Float32Array, v: Float32Array, w: Float32Array, fx: Float32Array, fy: Float32Array, fz: Float32Array, dt: number, nx: number, ny: number, nz: number): void
  /** addBuoyancySlab. */
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
  ): void
  /** Stops worker threads, if any; the backend must not be used afterwards. */
  dispose(): Promise<void>
}
