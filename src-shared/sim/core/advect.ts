// Advection of cell-centred scalars and of the MAC velocity itself by a MAC velocity field.
//
// Semi-Lagrangian (Stam 1999; Bridson 2015, ch. 3): each sample looks back along the flow
// for dt and takes the interpolated old value there. The back-trace is RK2 midpoint
// (Bridson 2015, ch. 3): x_mid = x - dt/2 u(x), x_back = x - dt u(x_mid). Every velocity
// component is advected at its own face location.
//
// MacCormack (Selle, Fedkiw, Kim, Liu, Rossignac 2008, "An unconditionally stable MacCormack
// method"): phi_hat = A(phi) forward, phi_back = A^R(phi_hat) backward
// with -dt, phi_new = phi_hat + (phi - phi_back) / 2; where phi_new leaves the [min, max] of
// the 8 samples around the forward back-traced point, the sample reverts to phi_hat (plain
// semi-Lagrangian), which keeps the scheme unconditionally stable and free of new extrema.
//
// Kernels work on a z-slab [k0, k1) of one sample lattice so that workers can split them;
// the lattice of `axis` -1 is the cells, 0/1/2 the u/v/w faces (w has nz + 1 planes).
// Solid samples keep their old value (nothing is advected into an obstacle): a cell is solid
// when its solid fraction is >= 0.5 (a Uint8Array mask: nonzero), a face when either of its
// cells is.
import { EddyError } from '../../api/errors'
import { type AdvectOptions, LIMIT_CLAMP, LIMIT_REVERT } from './advectKernels'
import { allocF32With, type AllocOptions, type GridSpec, type MacGrid } from './grid'
import { type KernelBackend, kernelsOf } from './kernelBackend'

export * from './advectKernels'

/**
 * Owns the MacCormack scratch lattices; one per grid size. options.kernels runs the kernels
 * and allocates the scratch (default TypeScript); with WebAssembly kernels the fields, the
 * velocity and the solid mask passed in must be allocated through them too.
 *
 * Each back-trace is computed once per lattice and pass: the forward pass records the corner
 * of every departure point for the limiter (no third trace), and advectScalars carries several
 * cell-centred fields along one trace. Results are bit-identical to advecting each field alone.
 */
export class Advector {
  readonly spec: GridSpec
  private readonly fwd: Float32Array
  private readonly bwd: Float32Array
  /** The second field's scratch (advectScalars), allocated on first use. */
  private fwd2: Float32Array | null = null
  private bwd2: Float32Array | null = null
  /** Corner index of each forward departure point (cornerIndex). */
  private readonly base: Int32Array
  private readonly kernels: KernelBackend
  private readonly alloc: AllocOptions

  constructor(spec: GridSpec, options: AllocOptions = {}) {
    const { nx, ny, nz } = spec
    this.spec = spec
    this.alloc = options
    this.kernels = kernelsOf(options)
    const len = Math.max((nx + 1) * ny * nz, nx * (ny + 1) * nz, nx * ny * (nz + 1))
    this.fwd = allocF32With(len, options)
    this.bwd = allocF32With(len, options)
    this.base = this.kernels.i32(len)
  }

  /** Advects a cell-centred field: dst <- src carried by vel over dt seconds. */
  advectScalar(dst: Float32Array, src: Float32Array, vel: MacGrid, dt: number, options: AdvectOptions = {}): void {
    if (dst === src) throw new EddyError('INVALID_PARAM', 'advection needs distinct source and destination arrays')
    this.lattice(dst, src, null, null, -1, vel, this.spec.nz, dt, options)
  }

  /**
   * Advects cell-centred fields together, dsts[n] <- srcs[n], sharing each back-trace between
   * pairs of fields; each result equals advectScalar's.
   */
  advectScalars(dsts: readonly Float32Array[], srcs: readonly Float32Array[], vel: MacGrid, dt: number, options: AdvectOptions = {}): void {
    if (dsts.length !== srcs.length) throw new EddyError('INVALID_PARAM', 'advection needs as many destinations as sources')
    for (let n = 0; n < dsts.length; n++) {
      for (let m = 0; m < srcs.length; m++) {
        if (dsts[n] === srcs[m]) throw new EddyError('INVALID_PARAM', 'advection needs distinct source and destination arrays')
      }
    }
    const { nz } = this.spec
    let n = 0
    for (; n + 1 < dsts.length; n += 2) this.lattice(dsts[n], srcs[n], dsts[n + 1], srcs[n + 1], -1, vel, nz, dt, options)
    if (n < dsts.length) this.lattice(dsts[n], srcs[n], null, null, -1, vel, nz, dt, options)
  }

  /** Self-advection of the MAC velocity: dst <- src carried by src over dt seconds. */
  advectVelocity(dst: MacGrid, src: MacGrid, dt: number, options: AdvectOptions = {}): void {
    if (dst === src || dst.u === src.u) throw new EddyError('INVALID_PARAM', 'advection needs distinct source and destination grids')
    const { nz } = this.spec
    this.lattice(dst.u, src.u, null, null, 0, src, nz, dt, options)
    this.lattice(dst.v, src.v, null, null, 1, src, nz, dt, options)
    this.lattice(dst.w, src.w, null, null, 2, src, nz + 1, dt, options)
  }

  private lattice(
    dst: Float32Array,
    src: Float32Array,
    dst2: Float32Array | null,
    src2: Float32Array | null,
    axis: -1 | 0 | 1 | 2,
    vel: MacGrid,
    planes: number,
    dt: number,
    options: AdvectOptions,
  ): void {
    const { nx, ny, nz, dx } = this.spec
    const k = this.kernels
    if (!Number.isFinite(dt)) throw new EddyError('INVALID_PARAM', `advection time step must be finite, got ${dt}`)
    const cubic = options.interpolation === 'cubic'
    const solid = options.solid ?? null
    const c = dt / dx
    const { u, v, w } = vel
    if ((options.scheme ?? 'maccormack') === 'semi-lagrangian') {
      k.advect(dst, src, axis, u, v, w, nx, ny, nz, c, cubic, solid, dst2, src2)
      return
    }
    let fwd2: Float32Array | null = null
    let bwd2: Float32Array | null = null
    if (dst2 !== null && src2 !== null) {
      if (this.fwd2 === null || this.bwd2 === null) {
        this.fwd2 = allocF32With(this.fwd.length, this.alloc)
        this.bwd2 = allocF32With(this.bwd.length, this.alloc)
      }
      fwd2 = this.fwd2
      bwd2 = this.bwd2
    }
    // Three passes: each reads its input lattice at other samples, so in a worker split
    // every pass ends at a barrier.
    k.advect(this.fwd, src, axis, u, v, w, nx, ny, nz, c, cubic, solid, fwd2, src2, this.base)
    k.advect(this.bwd, this.fwd, axis, u, v, w, nx, ny, nz, -c, cubic, solid, bwd2, fwd2)
    const limiter = options.limiter === 'clamp' ? LIMIT_CLAMP : LIMIT_REVERT
    k.maccormackCorrect(dst, src, this.fwd, this.bwd, axis, u, v, w, nx, ny, nz, c, solid, limiter, this.base)
    if (dst2 !== null && src2 !== null && fwd2 !== null && bwd2 !== null) {
      k.maccormackCorrect(dst2, src2, fwd2, bwd2, axis, u, v, w, nx, ny, nz, c, solid, limiter, this.base)
    }
  }
}
