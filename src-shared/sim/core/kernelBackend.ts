// The hot kernels behind one small interface, so a solver can run them as plain TypeScript
// (the reference implementations in this folder) or as WebAssembly SIMD kernels split across
// worker threads (src-shared/sim/wasm/wasmBackend.ts), chosen by `kernels: 'ts' | 'wasm'`.
//
// Each method works on a whole grid; the backend decides how to split it (the WebAssembly one
// cuts [0, nz) into z-slabs, one per thread). A backend also allocates: arrays that its
// kernels touch must come from its allocator (for WebAssembly, views of the shared memory the
// kernels address), so solver parts take `{ kernels }` in their AllocOptions and allocate
// through it.
import { advectSlab, maccormackCorrectSlab, type SolidField } from './advect'
import { addBuoyancySlab } from './forces'
import { allocF32, allocF64 } from './grid'
import { type AxisTransfer, gaussSeidelColorSlab, jacobiSlab, prolongAddSlab, relaxCells, restrictSlab } from './multigrid'
import { applyPoissonSlab, netOutfluxSlab, residualSlab, subtractGradientSlab } from './poisson'
import { dotPlanesSlab, sumPartials, updateIterateSlab, updateSearchSlab } from './vectorOps'
import { addCellForceToFacesSlab, confinementForceSlab, vorticitySlab } from './vorticity'
import { particleForceSlab, particleStrengthSlab } from '../smoke/vortexKernels'

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
  /** relaxCells over cells[begin .. end-1] (one colour). */
  relaxCells(x: Float64Array, b: Float64Array, fu: Float32Array, fv: Float32Array, fw: Float32Array, nx: number, ny: number, nz: number, cells: Int32Array, begin: number, end: number): void
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
  /** advectSlab over every plane of lattice `axis` (dst2/src2: a second field on the same trace; base: record corners). */
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
  /**
   * particleForceSlab over every plane: vortex-particle confinement forces (Selle 2005, sec. 5)
   * added to the faces. Particle arrays may live anywhere (a backend copies them if it must).
   */
  particleForce(
    u: Float32Array,
    v: Float32Array,
    w: Float32Array,
    px: Float64Array,
    py: Float64Array,
    pz: Float64Array,
    wx: Float64Array,
    wy: Float64Array,
    wz: Float64Array,
    pr: Float64Array,
    count: number,
    epsilon: number,
    dt: number,
    nx: number,
    ny: number,
    nz: number,
    dx: number,
    ox: number,
    oy: number,
    oz: number,
  ): void
  /** particleStrengthSlab over every plane: tent-splatted particle |omega| added to eps. */
  particleStrength(
    eps: Float32Array,
    px: Float64Array,
    py: Float64Array,
    pz: Float64Array,
    wx: Float64Array,
    wy: Float64Array,
    wz: Float64Array,
    pr: Float64Array,
    count: number,
    weight: number,
    nx: number,
    ny: number,
    nz: number,
    dx: number,
    ox: number,
    oy: number,
    oz: number,
  ): void
  /** Stops worker threads, if any; the backend must not be used afterwards. */
  dispose(): Promise<void>
}

/** The reference kernels on the calling thread; arrays from allocF32/allocF64 (shared when asked). */
export class TsKernelBackend implements KernelBackend {
  readonly kind = 'ts' as const
  readonly threads = 1
  constructor(readonly shared = false) {}

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

  applyPoisson(out: Float64Array, x: Float64Array, fu: Float32Array, fv: Float32Array, fw: Float32Array, nx: number, ny: number, nz: number): void {
    applyPoissonSlab(out, x, fu, fv, fw, nx, ny, nz, 0, nz)
  }
  residual(r: Float64Array, b: Float64Array, x: Float64Array, fu: Float32Array, fv: Float32Array, fw: Float32Array, nx: number, ny: number, nz: number): void {
    residualSlab(r, b, x, fu, fv, fw, nx, ny, nz, 0, nz)
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
    netOutfluxSlab(out, u, v, w, fu, fv, fw, su, sv, sw, nx, ny, 0, nz)
  }
  subtractGradient(u: Float32Array, v: Float32Array, w: Float32Array, phi: Float64Array, fu: Float32Array, fv: Float32Array, fw: Float32Array, nx: number, ny: number, nz: number): void {
    subtractGradientSlab(u, v, w, phi, fu, fv, fw, nx, ny, nz, 0, nz)
  }
  dot(a: Float64Array, b: Float64Array, plane: number, nz: number, partial: Float64Array): number {
    dotPlanesSlab(a, b, plane, partial, 0, nz)
    return sumPartials(partial, nz)
  }
  updateIterate(x: Float64Array, r: Float64Array, s: Float64Array, q: Float64Array, alpha: number, plane: number, nz: number, partial: Float64Array): number {
    updateIterateSlab(x, r, s, q, alpha, plane, partial, 0, nz)
    return sumPartials(partial, nz)
  }
  updateSearch(s: Float64Array, z: Float64Array, beta: number, plane: number, nz: number): void {
    updateSearchSlab(s, z, beta, plane, 0, nz)
  }
  gaussSeidelColor(x: Float64Array, b: Float64Array, fu: Float32Array, fv: Float32Array, fw: Float32Array, nx: number, ny: number, nz: number, color: number): void {
    gaussSeidelColorSlab(x, b, fu, fv, fw, nx, ny, nz, color, 0, nz)
  }
  gaussSeidelSweep(x: Float64Array, b: Float64Array, fu: Float32Array, fv: Float32Array, fw: Float32Array, nx: number, ny: number, nz: number, first: number): void {
    gaussSeidelColorSlab(x, b, fu, fv, fw, nx, ny, nz, first, 0, nz)
    gaussSeidelColorSlab(x, b, fu, fv, fw, nx, ny, nz, 1 - first, 0, nz)
  }
  jacobi(out: Float64Array, x: Float64Array, b: Float64Array, fu: Float32Array, fv: Float32Array, fw: Float32Array, nx: number, ny: number, nz: number, omega: number): void {
    jacobiSlab(out, x, b, fu, fv, fw, nx, ny, nz, omega, 0, nz)
  }
  relaxCells(x: Float64Array, b: Float64Array, fu: Float32Array, fv: Float32Array, fw: Float32Array, nx: number, ny: number, nz: number, cells: Int32Array, begin: number, end: number): void {
    relaxCells(x, b, fu, fv, fw, nx, ny, nz, cells, begin, end)
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
    restrictSlab(bc, rf, nx, ny, nz, cx, cy, tx, ty, tz, scratch, 0, cz)
  }
  prolongAdd(xf: Float64Array, xc: Float64Array, active: Uint8Array, nx: number, ny: number, nz: number, cx: number, cy: number, tx: AxisTransfer, ty: AxisTransfer, tz: AxisTransfer): void {
    prolongAddSlab(xf, xc, active, nx, ny, cx, cy, tx, ty, tz, 0, nz)
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
  ): void {
    advectSlab(dst, src, axis, u, v, w, nx, ny, nz, dtOverDx, cubic, solid, 0, axis === 2 ? nz + 1 : nz, dst2, src2, base)
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
    maccormackCorrectSlab(dst, src, fwd, bwd, axis, u, v, w, nx, ny, nz, dtOverDx, solid, limiter, 0, axis === 2 ? nz + 1 : nz, base)
  }
  vorticity(ox: Float32Array, oy: Float32Array, oz: Float32Array, mag: Float32Array, u: Float32Array, v: Float32Array, w: Float32Array, nx: number, ny: number, nz: number, dx: number): void {
    vorticitySlab(ox, oy, oz, mag, u, v, w, nx, ny, nz, dx, 0, nz)
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
    confinementForceSlab(fx, fy, fz, ox, oy, oz, mag, epsilon, nx, ny, nz, dx, 0, nz)
  }
  addCellForceToFaces(u: Float32Array, v: Float32Array, w: Float32Array, fx: Float32Array, fy: Float32Array, fz: Float32Array, dt: number, nx: number, ny: number, nz: number): void {
    addCellForceToFacesSlab(u, v, w, fx, fy, fz, dt, nx, ny, nz, 0, nz)
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
    addBuoyancySlab(v, density, temperature, alpha, beta, ambientTemperature, dt, nx, ny, 0, nz)
  }
  particleForce(
    u: Float32Array,
    v: Float32Array,
    w: Float32Array,
    px: Float64Array,
    py: Float64Array,
    pz: Float64Array,
    wx: Float64Array,
    wy: Float64Array,
    wz: Float64Array,
    pr: Float64Array,
    count: number,
    epsilon: number,
    dt: number,
    nx: number,
    ny: number,
    nz: number,
    dx: number,
    ox: number,
    oy: number,
    oz: number,
  ): void {
    particleForceSlab(u, v, w, px, py, pz, wx, wy, wz, pr, count, epsilon, dt, nx, ny, nz, dx, ox, oy, oz, 0, nz)
  }
  particleStrength(
    eps: Float32Array,
    px: Float64Array,
    py: Float64Array,
    pz: Float64Array,
    wx: Float64Array,
    wy: Float64Array,
    wz: Float64Array,
    pr: Float64Array,
    count: number,
    weight: number,
    nx: number,
    ny: number,
    nz: number,
    dx: number,
    ox: number,
    oy: number,
    oz: number,
  ): void {
    particleStrengthSlab(eps, px, py, pz, wx, wy, wz, pr, count, weight, nx, ny, dx, ox, oy, oz, 0, nz)
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
