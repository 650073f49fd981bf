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
// The error estimate phi - phi_back is read at the departure stencil's sample nearest to the
// arrival sample (errorSample in advectKernels.ts): at the app's default of 4 cells per substep
// Selle's form adds it whole cells downstream of where the forward step erred, and the limiter
// then dragged blobs 0.2-0.6 cell back with 2-5% more mass.
// What the limiter clips from cell-centred fields is handed to neighbours with room
// (maccormackExcessSlab / maccormackRedistributeSlab, Zalesak 1979's capacity rule), so the
// limiter neither creates nor destroys mass nor drags fronts back.
//
// Open sides (options.open): departure points of cell-centred fields beyond an open side read
// the field's ambient value through a ghost layer (openSidesSlab); MacCormack falls back to its
// forward (semi-Lagrangian) value there. The velocity keeps clamping (zero gradient).
//
// Kernels work on a z-slab [k0, k1) of one sample lattice so that workers can split them;
// the lattice of `axis` -1 is the cells, 0/1/2 the u/v/w faces (w has nz + 1 planes).
// Solid samples keep their old value (nothing is advected into an obstacle): a cell is solid
// when its solid fraction is >= 0.5 (a Uint8Array mask: nonzero), a face when either of its
// cells is.
import { EddyError } from '../../api/errors'
import { type AdvectOptions, LIMIT_CLAMP, LIMIT_REVERT, OPEN_RESAMPLE, OPEN_TAKE_FWD, openSidesSlab } from './advectKernels'
import { allocF32With, allocF64With, type AllocOptions, type GridSpec, type MacGrid } from './grid'
import type { SolidField } from './kernelTypes'
import { type KernelBackend, kernelsOf } from './kernelBackend'
import { MACCORMACK_EXCESS, MACCORMACK_FUSED, MACCORMACK_REDISTRIBUTE } from './kernelRows'

export * from './advectKernels'

/**
 * Owns the MacCormack scratch lattices; one per grid size. options.kernels runs the kernels
 * and allocates the scratch (default TypeScript); with WebAssembly kernels the fields, the
 * velocity and the solid mask passed in must be allocated through them too.
 *
 * Each back-trace is computed once per lattice and pass: the forward pass records the corner
 * of every departure point for the limiter (no third trace), and advectScalars carries several
 * cell-centred fields along one trace. Results are bit-identical to advecting each field alone.
 * With trilinear sampling MacCormack is two passes over a lattice, not four: the forward one
 * (advect, recording where each backward trace departs), then the backward step, the
 * correction and the limiter's excess together (MACCORMACK_FUSED), the backward value looked up
 * where the correction reads it instead of stored as a lattice (the same bits).
 */
export class Advector {
  readonly spec: GridSpec
  private readonly fwd: Float32Array
  /** The backward step's lattice, for monotone tricubic sampling only (on first use). */
  private bwd: Float32Array | null = null
  /** The second field's scratch (advectScalars), allocated on first use. */
  private fwd2: Float32Array | null = null
  private bwd2: Float32Array | null = null
  /** Corner index of each forward departure point (cornerIndex). */
  private readonly base: Int32Array
  /**
   * Departure point of each sample's reverse trace (MacCormack's backward step), recorded by
   * the forward pass (3 float64 a sample), on first use.
   */
  private rev: Float64Array | null = null
  /** Redistribution scratch of cell-centred MacCormack (clipped excess, room below), on first use. */
  private ex: Float32Array | null = null
  private up: Float32Array | null = null
  private dn: Float32Array | null = null
  private readonly kernels: KernelBackend
  private readonly alloc: AllocOptions

  constructor(spec: GridSpec, options: AllocOptions = {}) {
    const { nx, ny, nz } = spec
    this.spec = spec
    this.alloc = options
    this.kernels = kernelsOf(options)
    const len = Math.max((nx + 1) * ny * nz, nx * (ny + 1) * nz, nx * ny * (nz + 1))
    this.fwd = allocF32With(len, options)
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
    this.advectVelocityBy(dst, src, src, dt, options)
  }

  /**
   * dst <- src carried by `by` over dt seconds (advection-reflection carries the reflected
   * velocity by the projected one). `by` may be src, never dst.
   */
  advectVelocityBy(dst: MacGrid, src: MacGrid, by: MacGrid, dt: number, options: AdvectOptions = {}): void {
    if (dst.u === src.u || dst.u === by.u) throw new EddyError('INVALID_PARAM', 'advection needs distinct source and destination grids')
    const { nz } = this.spec
    this.lattice(dst.u, src.u, null, null, 0, by, nz, dt, options)
    this.lattice(dst.v, src.v, null, null, 1, by, nz, dt, options)
    this.lattice(dst.w, src.w, null, null, 2, by, nz + 1, dt, options)
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
    // Open sides matter to cell-centred fields only (the velocity clamps: zero gradient).
    const open = axis === -1 && options.open != null && options.open.some((f) => f !== 0) ? options.open : null
    const amb1 = options.ambient?.[0] ?? 0
    const amb2 = options.ambient?.[1] ?? 0
    const depth = open === null ? 0 : openDepth(vel, open, c)
    if ((options.scheme ?? 'maccormack') === 'semi-lagrangian') {
      k.advect(dst, src, axis, u, v, w, nx, ny, nz, c, cubic, solid, dst2, src2)
      if (open !== null) openSidesSlab(OPEN_RESAMPLE, dst, src, amb1, dst2, src2, amb2, u, v, w, nx, ny, nz, c, solid, open, depth, 0, nz)
      return
    }
    let fwd2: Float32Array | null = null
    if (dst2 !== null && src2 !== null) fwd2 = this.fwd2 ??= allocF32With(this.fwd.length, this.alloc)
    // Passes that each read their input lattice at other samples, so in a worker split every
    // pass ends at a barrier. The backward step's traces (over -c) do not depend on fwd, and
    // start where the forward ones do, with the velocity at the sample: the forward pass traces
    // both and records where the backward one departs (rev), and the backward step only
    // samples fwd there, the same values as tracing it again.
    this.rev ??= allocF64With(3 * this.fwd.length, this.alloc)
    k.advect(this.fwd, src, axis, u, v, w, nx, ny, nz, c, cubic, solid, fwd2, src2, this.base, this.rev)
    // The forward step reads the ambient beyond open sides; the backward one (traced downstream
    // from fwd) clamps: what left the domain is best guessed by the border (zero gradient).
    if (open !== null) openSidesSlab(OPEN_RESAMPLE, this.fwd, src, amb1, fwd2, src2, amb2, u, v, w, nx, ny, nz, c, solid, open, depth, 0, nz)
    const limiter = options.limiter === 'clamp' ? LIMIT_CLAMP : LIMIT_REVERT
    if (!cubic) {
      // The backward step, the correction and the limiter's excess in one pass (MACCORMACK_FUSED).
      this.fused(dst, src, this.fwd, amb1, axis, vel, c, solid, limiter, options, open, depth)
      if (dst2 !== null && src2 !== null && fwd2 !== null) this.fused(dst2, src2, fwd2, amb2, axis, vel, c, solid, limiter, options, open, depth)
      return
    }
    const bwd = (this.bwd ??= allocF32With(this.fwd.length, this.alloc))
    const bwd2 = fwd2 === null ? null : (this.bwd2 ??= allocF32With(this.fwd.length, this.alloc))
    k.advectAt(bwd, this.fwd, axis, nx, ny, nz, cubic, solid, this.rev, bwd2, fwd2)
    k.maccormackCorrect(dst, src, this.fwd, bwd, axis, u, v, w, nx, ny, nz, c, solid, limiter, this.base)
    if (dst2 !== null && src2 !== null && fwd2 !== null && bwd2 !== null) {
      k.maccormackCorrect(dst2, src2, fwd2, bwd2, axis, u, v, w, nx, ny, nz, c, solid, limiter, this.base)
      this.finish(dst, src, this.fwd, bwd, amb1, axis, vel, c, solid, options, open, depth)
      this.finish(dst2, src2, fwd2, bwd2, amb2, axis, vel, c, solid, options, open, depth)
    } else this.finish(dst, src, this.fwd, bwd, amb1, axis, vel, c, solid, options, open, depth)
  }

  /**
   * MacCormack's rest for one field once fwd, base and rev stand (trilinear): the correction,
   * with the limiter's excess for cell-centred fields, in one pass (MACCORMACK_FUSED: the same
   * bits as advectAt, maccormackCorrect and maccormackExcess in turn), then as finish().
   */
  private fused(
    dst: Float32Array,
    src: Float32Array,
    fwd: Float32Array,
    ambient: number,
    axis: -1 | 0 | 1 | 2,
    vel: MacGrid,
    c: number,
    solid: SolidField | null,
    limiter: number,
    options: AdvectOptions,
    open: Uint8Array | null,
    depth: number,
  ): void {
    const { nx, ny, nz } = this.spec
    const { u, v, w } = vel
    const rev = this.rev as Float64Array
    if (!(axis === -1 && (options.redistribute ?? true))) {
      this.kernels.run(MACCORMACK_FUSED, dst, src, fwd, rev, null, null, null, axis, u, v, w, nx, ny, nz, c, solid, limiter, this.base)
      if (open !== null) openSidesSlab(OPEN_TAKE_FWD, dst, fwd, ambient, null, null, 0, u, v, w, nx, ny, nz, c, solid, open, depth, 0, nz)
      return
    }
    const { ex, up, dn } = this.redistributeScratch()
    this.kernels.run(MACCORMACK_FUSED, dst, src, fwd, rev, ex, up, dn, axis, u, v, w, nx, ny, nz, c, solid, limiter, this.base)
    this.redistribute(dst, src, fwd, ambient, axis, vel, c, solid, open, depth)
  }

  /**
   * Once ex, up and dn stand: samples whose stencil reaches past an open side take fwd (and
   * keep no excess), then the clipped amounts go to neighbours with room.
   */
  private redistribute(dst: Float32Array, src: Float32Array, fwd: Float32Array, ambient: number, axis: -1 | 0 | 1 | 2, vel: MacGrid, c: number, solid: SolidField | null, open: Uint8Array | null, depth: number): void {
    const { nx, ny, nz } = this.spec
    const { u, v, w } = vel
    const { ex, up, dn } = this.redistributeScratch()
    if (open !== null) openSidesSlab(OPEN_TAKE_FWD, dst, fwd, ambient, null, null, 0, u, v, w, nx, ny, nz, c, solid, open, depth, 0, nz, ex, up, dn)
    this.kernels.run(MACCORMACK_REDISTRIBUTE, dst, ex, up, dn, src, axis, nx, ny, nz, this.base)
  }

  /** The conservative limiter's scratch (clipped excess, room above and below), made on first use. */
  private redistributeScratch(): { ex: Float32Array; up: Float32Array; dn: Float32Array } {
    if (this.ex === null || this.up === null || this.dn === null) {
      const { nx, ny, nz } = this.spec
      const n = nx * ny * nz
      this.ex = allocF32With(n, this.alloc)
      this.up = allocF32With(n, this.alloc)
      this.dn = allocF32With(n, this.alloc)
    }
    return { ex: this.ex, up: this.up, dn: this.dn }
  }

  /**
   * After maccormackCorrect: samples whose departure stencil reaches past an open side take
   * fwd, and (cell-centred fields) the limiter's clipped amounts go to neighbours with room.
   */
  private finish(
    dst: Float32Array,
    src: Float32Array,
    fwd: Float32Array,
    bwd: Float32Array,
    ambient: number,
    axis: -1 | 0 | 1 | 2,
    vel: MacGrid,
    c: number,
    solid: SolidField | null,
    options: AdvectOptions,
    open: Uint8Array | null,
    depth: number,
  ): void {
    const { nx, ny, nz } = this.spec
    const { u, v, w } = vel
    const redistribute = axis === -1 && (options.redistribute ?? true)
    if (!redistribute) {
      if (open !== null) openSidesSlab(OPEN_TAKE_FWD, dst, fwd, ambient, null, null, 0, u, v, w, nx, ny, nz, c, solid, open, depth, 0, nz)
      return
    }
    // up has its own scratch: maccormackExcess reads bwd at other samples (errorSample) than
    // the one it writes, so the room cannot overwrite bwd in place (nor in a worker split).
    const { ex, up, dn } = this.redistributeScratch()
    this.kernels.run(MACCORMACK_EXCESS, ex, up, dn, dst, src, fwd, bwd, axis, u, v, w, nx, ny, nz, c, solid, this.base)
    this.redistribute(dst, src, fwd, ambient, axis, vel, c, solid, open, depth)
  }
}

/**
 * Cells from an open side within which a departure point may leave the domain through it:
 * |dt/dx| times the largest speed normal to an open side, plus the stencil.
 */
function openDepth(vel: MacGrid, open: Uint8Array, c: number): number {
  let m = 0
  if (open[0] || open[1]) m = Math.max(m, maxAbs(vel.u))
  if (open[2] || open[3]) m = Math.max(m, maxAbs(vel.v))
  if (open[4] || open[5]) m = Math.max(m, maxAbs(vel.w))
  const d = Math.ceil(Math.abs(c) * m) + 2
  return d === d ? d : Math.max(vel.nx, vel.ny, vel.nz) // NaN speeds: trace everything
}

function maxAbs(a: Float32Array): number {
  let m = 0
  for (let i = 0; i < a.length; i++) {
    const x = a[i] < 0 ? -a[i] : a[i]
    if (x > m) m = x
  }
  return m
}
