// KernelBackend over the WebAssembly kernels: arrays come from the WasmArena (views of the
// shared memory), each call turns its arrays into byte offsets and runs the kernel through a
// SlabRunner: on this thread (InlineRunner) or split across worker threads (SlabPool).
//
// Results are bit-identical to the TypeScript backend, except for the reductions (dot,
// updateIterate) when `exactReductions` is false: then each plane's sum is accumulated in two
// SIMD lanes (see assembly/vector.ts), which moves the sum by a few units in the last place.
// With either setting the result does not depend on the number of threads.
//
// An array that is not in the kernels' memory (allocated elsewhere) runs the TypeScript
// reference on this thread instead; `fallbacks` counts such calls, and `strict` turns them
// into an error. Monotone cubic advection has its own kernel (advectCubic).
import { EddyError } from '../../api/errors'
import type { SolidField } from '../core/advect'
import { type KernelBackend, TS_KERNELS } from '../core/kernelBackend'
import { type AxisTransfer, restrictScratchLength } from '../core/multigrid'
import { sumPartials } from '../core/vectorOps'
import { InlineRunner, type SlabRunner } from '../parallel/slabPool'
import { KERNEL, MAX_KERNEL_ARGS, WasmKernels, type WasmKernelsOptions } from './kernels'
import { splatWork, VortexStage } from './vortexStage'

type Arr = Float32Array | Float64Array | Int32Array | Uint8Array

export interface WasmBackendOptions {
  /**
   * Per-plane sums in the reference's order (bit-identical to the TypeScript backend) rather
   * than two SIMD lanes; default true.
   */
  exactReductions?: boolean
  /** Throw when an array is not in the kernels' memory instead of falling back; default false. */
  strict?: boolean
}

export class WasmKernelBackend implements KernelBackend {
  readonly kind = 'wasm' as const
  readonly kernels: WasmKernels
  readonly runner: SlabRunner
  /** Calls that ran the TypeScript reference instead (arrays outside the memory). */
  fallbacks = 0
  private readonly exact: boolean
  private readonly strict: boolean
  private readonly a = new Float64Array(MAX_KERNEL_ARGS)
  private n = 0
  private ok = true
  /** Per-thread restriction scratch: [base pointer, bytes per thread] by scratch length. */
  private readonly scratch = new Map<number, [number, number]>()
  /** Particle arrays and force scratch of the vortex-particle kernels (created on first use). */
  private vortex: VortexStage | null = null

  constructor(kernels: WasmKernels, runner: SlabRunner = new InlineRunner(kernels), options: WasmBackendOptions = {}) {
    this.kernels = kernels
    this.runner = runner
    this.exact = options.exactReductions ?? true
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

  // Argument building: begin(), then p(array) / v(number) in the kernel's parameter order.
  private begin(): this {
    this.n = 0
    this.ok = true
    return this
  }
  private p(x: Arr | null): this {
    if (x === null) this.a[this.n++] = 0
    else if (this.kernels.arena.owns(x)) this.a[this.n++] = x.byteOffset
    else {
      if (this.strict) throw new EddyError('INTERNAL', 'an array passed to the WebAssembly kernels is not in their memory (allocate it through the kernel backend)')
      this.ok = false
    }
    return this
  }
  private v(x: number): this {
    this.a[this.n++] = x
    return this
  }
  /** Runs the kernel over [0, n) if every array was in memory; false means: use the reference. */
  private go(kernel: number, n: number, work: number): boolean {
    if (!this.ok) {
      this.fallbacks++
      return false
    }
    this.runner.run(kernel, this.a, this.n, n, work)
    return true
  }

  applyPoisson(out: Float64Array, x: Float64Array, fu: Float32Array, fv: Float32Array, fw: Float32Array, nx: number, ny: number, nz: number): void {
    this.begin().p(out).p(x).p(fu).p(fv).p(fw).v(nx).v(ny).v(nz)
    if (!this.go(KERNEL.applyPoisson, nz, nx * ny * nz)) TS_KERNELS.applyPoisson(out, x, fu, fv, fw, nx, ny, nz)
  }

  residual(r: Float64Array, b: Float64Array, x: Float64Array, fu: Float32Array, fv: Float32Array, fw: Float32Array, nx: number, ny: number, nz: number): void {
    this.begin().p(r).p(b).p(x).p(fu).p(fv).p(fw).v(nx).v(ny).v(nz)
    if (!this.go(KERNEL.residual, nz, nx * ny * nz)) TS_KERNELS.residual(r, b, x, fu, fv, fw, nx, ny, nz)
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
    this.begin()
      .p(out)
      .v(out instanceof Float64Array ? 1 : 0)
      .p(u)
      .p(v)
      .p(w)
      .p(fu)
      .p(fv)
      .p(fw)
      .p(su)
      .p(sv)
      .p(sw)
      .v(nx)
      .v(ny)
    if (!this.go(KERNEL.netOutflux, nz, nx * ny * nz)) TS_KERNELS.netOutflux(out, u, v, w, fu, fv, fw, su, sv, sw, nx, ny, nz)
  }

  subtractGradient(u: Float32Array, v: Float32Array, w: Float32Array, phi: Float64Array, fu: Float32Array, fv: Float32Array, fw: Float32Array, nx: number, ny: number, nz: number): void {
    this.begin().p(u).p(v).p(w).p(phi).p(fu).p(fv).p(fw).v(nx).v(ny).v(nz)
    if (!this.go(KERNEL.subtractGradient, nz, nx * ny * nz)) TS_KERNELS.subtractGradient(u, v, w, phi, fu, fv, fw, nx, ny, nz)
  }

  dot(a: Float64Array, b: Float64Array, plane: number, nz: number, partial: Float64Array): number {
    this.begin().p(a).p(b).v(plane).p(partial)
    if (!this.go(this.exact ? KERNEL.dotPlanesExact : KERNEL.dotPlanes, nz, plane * nz)) return TS_KERNELS.dot(a, b, plane, nz, partial)
    return sumPartials(partial, nz)
  }

  updateIterate(x: Float64Array, r: Float64Array, s: Float64Array, q: Float64Array, alpha: number, plane: number, nz: number, partial: Float64Array): number {
    this.begin().p(x).p(r).p(s).p(q).v(alpha).v(plane).p(partial)
    if (!this.go(this.exact ? KERNEL.updateIterateExact : KERNEL.updateIterate, nz, plane * nz)) {
      return TS_KERNELS.updateIterate(x, r, s, q, alpha, plane, nz, partial)
    }
    return sumPartials(partial, nz)
  }

  updateSearch(s: Float64Array, z: Float64Array, beta: number, plane: number, nz: number): void {
    this.begin().p(s).p(z).v(beta).v(plane)
    if (!this.go(KERNEL.updateSearch, nz, plane * nz)) TS_KERNELS.updateSearch(s, z, beta, plane, nz)
  }

  gaussSeidelColor(x: Float64Array, b: Float64Array, fu: Float32Array, fv: Float32Array, fw: Float32Array, nx: number, ny: number, nz: number, color: number): void {
    this.begin().p(x).p(b).p(fu).p(fv).p(fw).v(nx).v(ny).v(nz).v(color)
    if (!this.go(KERNEL.gaussSeidelColor, nz, nx * ny * nz)) TS_KERNELS.gaussSeidelColor(x, b, fu, fv, fw, nx, ny, nz, color)
  }

  gaussSeidelSweep(x: Float64Array, b: Float64Array, fu: Float32Array, fv: Float32Array, fw: Float32Array, nx: number, ny: number, nz: number, first: number): void {
    // Two phases over the same slabs (see assembly/multigrid.ts): interior, then slab borders.
    this.begin().p(x).p(b).p(fu).p(fv).p(fw).v(nx).v(ny).v(nz).v(first).v(0)
    if (!this.go(KERNEL.gaussSeidelSweep, nz, nx * ny * nz)) {
      TS_KERNELS.gaussSeidelSweep(x, b, fu, fv, fw, nx, ny, nz, first)
      return
    }
    this.a[9] = 1
    this.runner.run(KERNEL.gaussSeidelSweep, this.a, this.n, nz, nx * ny * nz)
  }

  jacobi(out: Float64Array, x: Float64Array, b: Float64Array, fu: Float32Array, fv: Float32Array, fw: Float32Array, nx: number, ny: number, nz: number, omega: number): void {
    this.begin().p(out).p(x).p(b).p(fu).p(fv).p(fw).v(nx).v(ny).v(nz).v(omega)
    if (!this.go(KERNEL.jacobi, nz, nx * ny * nz)) TS_KERNELS.jacobi(out, x, b, fu, fv, fw, nx, ny, nz, omega)
  }

  relaxCells(x: Float64Array, b: Float64Array, fu: Float32Array, fv: Float32Array, fw: Float32Array, nx: number, ny: number, nz: number, cells: Int32Array, begin: number, end: number): void {
    if (end <= begin) return
    // The kernel runs positions [k0, k1) of the list: shift the range by viewing from `begin`.
    const list = cells.subarray(begin, end)
    this.begin().p(x).p(b).p(fu).p(fv).p(fw).v(nx).v(ny).v(nz).p(list)
    // About 4x the work of a stencil cell per listed cell (index decoding, scattered loads).
    if (!this.go(KERNEL.relaxCells, end - begin, 4 * (end - begin))) TS_KERNELS.relaxCells(x, b, fu, fv, fw, nx, ny, nz, cells, begin, end)
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
    const len = restrictScratchLength(ny, cx, cy)
    let base = scratch.byteOffset
    let stride = 0
    if (this.threads > 1 && this.kernels.arena.owns(scratch)) {
      // Each thread needs its own scratch planes.
      let s = this.scratch.get(len)
      if (!s) {
        const bytes = Math.ceil((len * 8) / 64) * 64
        s = [this.kernels.arena.alloc(bytes * this.threads, 64), bytes]
        this.scratch.set(len, s)
      }
      ;[base, stride] = s
    }
    this.begin().p(bc).p(rf).v(nx).v(ny).v(nz).v(cx).v(cy).p(tx.rw).p(ty.rw).p(tz.rw).p(scratch).v(stride)
    this.a[10] = base // restrict(..., scratchBase, scratchStride, K0, K1, worker)
    if (!this.go(KERNEL.restrict, cz, nx * ny * nz)) TS_KERNELS.restrict(bc, rf, nx, ny, nz, cx, cy, cz, tx, ty, tz, scratch)
  }

  prolongAdd(xf: Float64Array, xc: Float64Array, active: Uint8Array, nx: number, ny: number, nz: number, cx: number, cy: number, tx: AxisTransfer, ty: AxisTransfer, tz: AxisTransfer): void {
    this.begin().p(xf).p(xc).p(active).v(nx).v(ny).v(cx).v(cy)
    for (const t of [tx, ty, tz]) this.p(t.pa).p(t.pb).p(t.wa).p(t.wb)
    if (!this.go(KERNEL.prolongAdd, nz, 2 * nx * ny * nz)) TS_KERNELS.prolongAdd(xf, xc, active, nx, ny, nz, cx, cy, tx, ty, tz)
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
    const planes = axis === 2 ? nz + 1 : nz
    const pair = dst2 !== null && src2 !== null
    this.begin().p(dst).p(src).v(axis).p(u).p(v).p(w).v(nx).v(ny).v(nz).v(dtOverDx).p(solid).v(solidKind(solid))
    this.p(pair ? dst2 : null).p(pair ? src2 : null).p(base)
    // About 20x the work of a stencil cell per sample (two RK2 velocity lookups); a monotone
    // tricubic field lookup (64 loads, 21 segments) about 40x more per field (measured 3x).
    const work = cubic ? (pair ? 100 : 60) : pair ? 22 : 20
    if (!this.go(cubic ? KERNEL.advectCubic : KERNEL.advect, planes, work * nx * ny * planes)) TS_KERNELS.advect(dst, src, axis, u, v, w, nx, ny, nz, dtOverDx, cubic, solid, dst2, src2, base)
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
    const planes = axis === 2 ? nz + 1 : nz
    this.begin().p(dst).p(src).p(fwd).p(bwd).v(axis).p(u).p(v).p(w).v(nx).v(ny).v(nz).v(dtOverDx).p(solid).v(solidKind(solid)).v(limiter).p(base)
    // With recorded corners a sample is a few loads and compares, not a back-trace.
    if (!this.go(KERNEL.maccormackCorrect, planes, (base !== null ? 3 : 20) * nx * ny * planes)) {
      TS_KERNELS.maccormackCorrect(dst, src, fwd, bwd, axis, u, v, w, nx, ny, nz, dtOverDx, solid, limiter, base)
    }
  }

  vorticity(ox: Float32Array, oy: Float32Array, oz: Float32Array, mag: Float32Array, u: Float32Array, v: Float32Array, w: Float32Array, nx: number, ny: number, nz: number, dx: number): void {
    this.begin().p(ox).p(oy).p(oz).p(mag).p(u).p(v).p(w).v(nx).v(ny).v(nz).v(dx)
    if (!this.go(KERNEL.vorticity, nz, 4 * nx * ny * nz)) TS_KERNELS.vorticity(ox, oy, oz, mag, u, v, w, nx, ny, nz, dx)
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
    this.begin().p(fx).p(fy).p(fz).p(ox).p(oy).p(oz).p(mag).v(epsilon).v(nx).v(ny).v(nz).v(dx)
    if (!this.go(KERNEL.confinementForce, nz, 2 * nx * ny * nz)) TS_KERNELS.confinementForce(fx, fy, fz, ox, oy, oz, mag, epsilon, nx, ny, nz, dx)
  }

  addCellForceToFaces(u: Float32Array, v: Float32Array, w: Float32Array, fx: Float32Array, fy: Float32Array, fz: Float32Array, dt: number, nx: number, ny: number, nz: number): void {
    this.begin().p(u).p(v).p(w).p(fx).p(fy).p(fz).v(dt).v(nx).v(ny).v(nz)
    if (!this.go(KERNEL.addCellForceToFaces, nz, nx * ny * nz)) TS_KERNELS.addCellForceToFaces(u, v, w, fx, fy, fz, dt, nx, ny, nz)
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
    this.begin().p(v).p(density).p(temperature).v(alpha).v(beta).v(ambientTemperature).v(dt).v(nx).v(ny)
    if (!this.go(KERNEL.addBuoyancy, nz, nx * ny * nz)) TS_KERNELS.addBuoyancy(v, density, temperature, alpha, beta, ambientTemperature, dt, nx, ny, nz)
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
    if (count <= 0 || epsilon * dt === 0) return
    this.vortex ??= new VortexStage(this.kernels.arena)
    const P = this.vortex.particles(px, py, pz, wx, wy, wz, pr, count)
    const [base, stride] = this.vortex.scratch(nx, ny, this.threads)
    this.begin().p(u).p(v).p(w).v(P.px).v(P.py).v(P.pz).v(P.wx).v(P.wy).v(P.wz).v(P.pr).v(count)
    this.v(epsilon).v(dt).v(nx).v(ny).v(nz).v(dx).v(ox).v(oy).v(oz).v(base).v(stride)
    // About 3x a stencil cell per face (three face lattices), times a few for the divide.
    if (!this.go(KERNEL.particleForce, nz, splatWork(pr, count, dx, nx * ny * nz, 6))) {
      TS_KERNELS.particleForce(u, v, w, px, py, pz, wx, wy, wz, pr, count, epsilon, dt, nx, ny, nz, dx, ox, oy, oz)
    }
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
    if (count <= 0 || weight === 0) return
    this.vortex ??= new VortexStage(this.kernels.arena)
    const P = this.vortex.particles(px, py, pz, wx, wy, wz, pr, count)
    this.begin().p(eps).v(P.px).v(P.py).v(P.pz).v(P.wx).v(P.wy).v(P.wz).v(P.pr).v(count).v(weight).v(nx).v(ny).v(dx).v(ox).v(oy).v(oz)
    if (!this.go(KERNEL.particleStrength, nz, splatWork(pr, count, dx, nx * ny * nz, 1))) {
      TS_KERNELS.particleStrength(eps, px, py, pz, wx, wy, wz, pr, count, weight, nx, ny, nz, dx, ox, oy, oz)
    }
  }

  async dispose(): Promise<void> {
    await this.runner.close()
  }
}

function solidKind(solid: SolidField | null): number {
  return solid === null ? 0 : solid instanceof Uint8Array ? 1 : 2
}

/** WebAssembly kernels on the calling thread, in a new shared memory (or options.memory). */
export function createWasmBackend(options: WasmKernelsOptions & WasmBackendOptions = {}): WasmKernelBackend {
  const kernels = new WasmKernels(options)
  return new WasmKernelBackend(kernels, new InlineRunner(kernels), options)
}
