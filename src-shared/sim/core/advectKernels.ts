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
// arrival sample, not at the arrival sample itself once a trace is a cell or longer
// (errorSample, below).
//
// Kernels work on a z-slab [k0, k1) of one sample lattice so that workers can split them;
// the lattice of `axis` -1 is the cells, 0/1/2 the u/v/w faces (w has nz + 1 planes).
// Solid samples keep their old value (nothing is advected into an obstacle): a cell is solid
// when its solid fraction is >= 0.5 (a Uint8Array mask: nonzero), a face when either of its
// cells is.
//
// The reference slab kernels (advectSlab, maccormackCorrectSlab); the Advector that drives them
// through a kernel backend is in advect.ts.
import type { SolidField } from './kernelTypes'
import { type Interpolation, sample3, velocityAtGridCoord } from './interpolate'

export type { SolidField } from './kernelTypes'

export type AdvectionScheme = 'semi-lagrangian' | 'maccormack'

/**
 * What MacCormack does where its result leaves the local [min, max] (Selle et al. 2008):
 * 'revert' to the semi-Lagrangian value (the default), or 'clamp' to the nearer bound.
 */
export type MacCormackLimiter = 'revert' | 'clamp'

export interface AdvectOptions {
  /** Default 'maccormack'. */
  scheme?: AdvectionScheme
  /** Default 'linear'. */
  interpolation?: Interpolation
  /** Cell solid fraction or mask; solid samples are not advected into. */
  solid?: SolidField | null
  /** Default 'revert'. */
  limiter?: MacCormackLimiter
  /**
   * MacCormack only: hand what the limiter clips to neighbours with room (conservative
   * limiting, see maccormackExcessSlab); default true. Applies to cell-centred fields.
   */
  redistribute?: boolean
  /**
   * Open domain sides (xMin, xMax, yMin, yMax, zMin, zMax; 1 = open), for cell-centred fields:
   * departure points beyond an open side read `ambient` there (openSidesSlab). Default none
   * (every side clamps, as a closed side does).
   */
  open?: Uint8Array | null
  /** Ambient value of each advected cell-centred field beyond open sides (default 0). */
  ambient?: readonly number[]
}

/** Limiter codes of maccormackCorrectSlab; LIMIT_NONE (no limiter, not unconditionally stable) is for analysis only. */
export const LIMIT_REVERT = 0
export const LIMIT_CLAMP = 1
export const LIMIT_NONE = 2

/** A cell counts as solid for advection at or above this fraction. */
export const SOLID_THRESHOLD = 0.5

/** Whether sample (i, j, k) of lattice `axis` touches a solid cell. */
function solidSample(solid: SolidField, axis: number, i: number, j: number, k: number, nx: number, ny: number, nz: number): boolean {
  if (axis === 0) {
    const c = i + nx * (j + ny * k)
    return (i < nx && solid[c] >= SOLID_THRESHOLD) || (i > 0 && solid[c - 1] >= SOLID_THRESHOLD)
  }
  if (axis === 1) {
    const c = i + nx * (j + ny * k)
    return (j < ny && solid[c] >= SOLID_THRESHOLD) || (j > 0 && solid[c - nx] >= SOLID_THRESHOLD)
  }
  if (axis === 2) {
    const c = i + nx * (j + ny * k)
    return (k < nz && solid[c] >= SOLID_THRESHOLD) || (k > 0 && solid[c - nx * ny] >= SOLID_THRESHOLD)
  }
  return solid[i + nx * (j + ny * k)] >= SOLID_THRESHOLD
}

/**
 * RK2 midpoint back-trace from grid coordinates (X, Y, Z) over c = dt/dx cells per (m/s);
 * writes the departure point into out[0..2]. vel is a 3-element scratch.
 */
export function backtrace(
  u: Float32Array,
  v: Float32Array,
  w: Float32Array,
  nx: number,
  ny: number,
  nz: number,
  X: number,
  Y: number,
  Z: number,
  c: number,
  vel: Float64Array,
  out: Float64Array,
): void {
  velocityAtGridCoord(u, v, w, nx, ny, nz, X, Y, Z, vel)
  traceFrom(u, v, w, nx, ny, nz, X, Y, Z, c, vel, out)
}

/** The rest of backtrace once vel holds the velocity at (X, Y, Z): the midpoint, its velocity, the departure point. */
function traceFrom(u: Float32Array, v: Float32Array, w: Float32Array, nx: number, ny: number, nz: number, X: number, Y: number, Z: number, c: number, vel: Float64Array, out: Float64Array): void {
  const mx = X - 0.5 * c * vel[0]
  const my = Y - 0.5 * c * vel[1]
  const mz = Z - 0.5 * c * vel[2]
  velocityAtGridCoord(u, v, w, nx, ny, nz, mx, my, mz, vel)
  out[0] = X - c * vel[0]
  out[1] = Y - c * vel[1]
  out[2] = Z - c * vel[2]
}

/** a + (b - a) / 2: a trilinear step at weight 1/2, as velocityAtGridCoord takes it. */
function halfway(a: number, b: number): number {
  return a + 0.5 * (b - a)
}

/**
 * The velocity at sample (i, j, k) of lattice `axis` (-1 cells, 0/1/2 the u/v/w faces) into
 * vel, where the sample lies inside every component's lattice: there each component's trilinear
 * weights are 0 or 1/2 along every axis, so it is the average of 1, 2 or 4 of its samples, taken
 * as velocityAtGridCoord takes it with the steps at weight 0 left out (f + 0 (g - f) is f for
 * finite values, up to a zero's sign, which the trace X - c u never shows). The same numbers
 * for finite velocities; a NaN or infinity beyond the averaged samples no longer enters. Returns
 * false next to a border (a clamped weight, or a weight of 1): the caller interpolates in general.
 * (WebAssembly's advection spends a third less on its back-traces: 6 to 9 loads for this
 * velocity instead of three trilinears of 8.)
 */
export function latticeVelocity(axis: number, u: Float32Array, v: Float32Array, w: Float32Array, nx: number, ny: number, nz: number, i: number, j: number, k: number, vel: Float64Array): boolean {
  const su = nx + 1, sv = ny + 1, pw = nx * ny
  if (axis === -1) {
    if (i > nx - 2 || j > ny - 2 || k > nz - 2) return false
    const ou = i + su * (j + ny * k), ov = i + nx * (j + sv * k), ow = i + nx * (j + ny * k)
    vel[0] = halfway(u[ou], u[ou + 1])
    vel[1] = halfway(v[ov], v[ov + nx])
    vel[2] = halfway(w[ow], w[ow + pw])
    return true
  }
  if (axis === 0) {
    if (i < 1 || i > nx - 1 || j > ny - 2 || k > nz - 2) return false
    const ov = i - 1 + nx * (j + sv * k), ow = i - 1 + nx * (j + ny * k)
    vel[0] = u[i + su * (j + ny * k)]
    vel[1] = halfway(halfway(v[ov], v[ov + 1]), halfway(v[ov + nx], v[ov + nx + 1]))
    vel[2] = halfway(halfway(w[ow], w[ow + 1]), halfway(w[ow + pw], w[ow + pw + 1]))
    return true
  }
  if (axis === 1) {
    if (i > nx - 2 || j < 1 || j > ny - 1 || k > nz - 2) return false
    const ou = i + su * (j - 1 + ny * k), ow = i + nx * (j - 1 + ny * k)
    vel[0] = halfway(halfway(u[ou], u[ou + 1]), halfway(u[ou + su], u[ou + su + 1]))
    vel[1] = v[i + nx * (j + sv * k)]
    vel[2] = halfway(halfway(w[ow], w[ow + nx]), halfway(w[ow + pw], w[ow + pw + nx]))
    return true
  }
  if (i > nx - 2 || j > ny - 2 || k < 1 || k > nz - 1) return false
  const ou = i + su * (j + ny * (k - 1)), ov = i + nx * (j + sv * (k - 1)), pu = su * ny, pv = nx * sv
  vel[0] = halfway(halfway(u[ou], u[ou + 1]), halfway(u[ou + pu], u[ou + pu + 1]))
  vel[1] = halfway(halfway(v[ov], v[ov + nx]), halfway(v[ov + pv], v[ov + pv + nx]))
  vel[2] = w[i + nx * (j + ny * k)]
  return true
}

/**
 * backtrace from sample (i, j, k) of lattice `axis` (at grid coordinates i + ox, j + oy,
 * k + oz), its first velocity latticeVelocity's where the sample is inside.
 */
export function backtraceAt(
  axis: number, i: number, j: number, k: number, u: Float32Array, v: Float32Array, w: Float32Array, nx: number, ny: number, nz: number,
  X: number, Y: number, Z: number, c: number, vel: Float64Array, out: Float64Array,
): void {
  if (!latticeVelocity(axis, u, v, w, nx, ny, nz, i, j, k, vel)) velocityAtGridCoord(u, v, w, nx, ny, nz, X, Y, Z, vel)
  traceFrom(u, v, w, nx, ny, nz, X, Y, Z, c, vel, out)
}

/**
 * Semi-Lagrangian advection of lattice `axis` for planes [k0, k1) of that lattice:
 * dst = src at the RK2 departure point. dtOverDx = dt / dx (negative for MacCormack's
 * backward step). dst must not alias src. With dst2 and src2, a second field on the same
 * lattice rides the same back-trace (dst2 = src2 at the departure point); with base, the
 * corner index of each departure point (cornerIndex) is recorded for maccormackCorrectSlab,
 * which then need not trace again. With rev, the departure point of the reverse trace (over
 * -dtOverDx, MacCormack's backward step, from the same sample) is recorded too, in lattice
 * index coordinates, rev[3s .. 3s+2], for advectAtSlab: both traces start with the velocity
 * at the sample itself, which the WebAssembly twin then looks up once. Solid samples leave
 * base and rev untouched.
 */
export function advectSlab(
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
  k0: number,
  k1: number,
  dst2: Float32Array | null = null,
  src2: Float32Array | null = null,
  base: Int32Array | null = null,
  rev: Float64Array | null = null,
): void {
  const sx = axis === 0 ? nx + 1 : nx
  const sy = axis === 1 ? ny + 1 : ny
  const sz = axis === 2 ? nz + 1 : nz
  // Offsets from sample index to grid coordinates (cell corner = integer).
  const ox = axis === 0 ? 0 : 0.5
  const oy = axis === 1 ? 0 : 0.5
  const oz = axis === 2 ? 0 : 0.5
  const pair = dst2 !== null && src2 !== null
  const vel = new Float64Array(3)
  const p = new Float64Array(3)
  for (let k = k0; k < k1; k++) {
    for (let j = 0; j < sy; j++) {
      let s = sx * (j + sy * k)
      for (let i = 0; i < sx; i++, s++) {
        if (solid !== null && solidSample(solid, axis, i, j, k, nx, ny, nz)) {
          dst[s] = src[s]
          if (pair) dst2[s] = src2[s]
          continue
        }
        backtraceAt(axis, i, j, k, u, v, w, nx, ny, nz, i + ox, j + oy, k + oz, dtOverDx, vel, p)
        const gx = p[0] - ox
        const gy = p[1] - oy
        const gz = p[2] - oz
        dst[s] = sample3(src, sx, sy, sz, gx, gy, gz, cubic)
        if (pair) dst2[s] = sample3(src2, sx, sy, sz, gx, gy, gz, cubic)
        if (base !== null) base[s] = cornerIndex(gx, gy, gz, sx, sy, sz)
        if (rev !== null) {
          backtraceAt(axis, i, j, k, u, v, w, nx, ny, nz, i + ox, j + oy, k + oz, -dtOverDx, vel, p)
          rev[3 * s] = p[0] - ox
          rev[3 * s + 1] = p[1] - oy
          rev[3 * s + 2] = p[2] - oz
        }
      }
    }
  }
}

/**
 * MacCormack's backward step from recorded departure points: dst = src sampled at
 * rev[3s .. 3s+2] (lattice index coordinates, advectSlab's rev) for planes [k0, k1) of lattice
 * `axis`; solid samples keep src. The same values as advectSlab over -dtOverDx, which traces
 * to those very points (dst2/src2 likewise).
 */
export function advectAtSlab(
  dst: Float32Array,
  src: Float32Array,
  axis: -1 | 0 | 1 | 2,
  nx: number,
  ny: number,
  nz: number,
  cubic: boolean,
  solid: SolidField | null,
  rev: Float64Array,
  dst2: Float32Array | null,
  src2: Float32Array | null,
  k0: number,
  k1: number,
): void {
  const sx = axis === 0 ? nx + 1 : nx
  const sy = axis === 1 ? ny + 1 : ny
  const sz = axis === 2 ? nz + 1 : nz
  const pair = dst2 !== null && src2 !== null
  for (let k = k0; k < k1; k++) {
    for (let j = 0; j < sy; j++) {
      let s = sx * (j + sy * k)
      for (let i = 0; i < sx; i++, s++) {
        if (solid !== null && solidSample(solid, axis, i, j, k, nx, ny, nz)) {
          dst[s] = src[s]
          if (pair) dst2[s] = src2[s]
          continue
        }
        const gx = rev[3 * s], gy = rev[3 * s + 1], gz = rev[3 * s + 2]
        dst[s] = sample3(src, sx, sy, sz, gx, gy, gz, cubic)
        if (pair) dst2[s] = sample3(src2, sx, sy, sz, gx, gy, gz, cubic)
      }
    }
  }
}

/**
 * Index of the lower corner of the 8 samples around index coordinates (gx, gy, gz) of a
 * sx*sy*sz lattice, clamped like lerp3 (the samples MacCormack's limiter takes its range from).
 */
export function cornerIndex(gx: number, gy: number, gz: number, sx: number, sy: number, sz: number): number {
  let a = gx > 0 ? Math.floor(gx) : 0
  let b = gy > 0 ? Math.floor(gy) : 0
  let c = gz > 0 ? Math.floor(gz) : 0
  if (a > sx - 2) a = sx > 1 ? sx - 2 : 0
  if (b > sy - 2) b = sy > 1 ? sy - 2 : 0
  if (c > sz - 2) c = sz > 1 ? sz - 2 : 0
  return a + sx * (b + sy * c)
}

// Where MacCormack reads its error estimate.
//
// Selle et al. 2008 add (phi - phi_back) / 2 at the arrival sample x. phi - phi_back is the
// round-trip error of the old field around x, while the forward step's error was made where x
// came from; when the trace is shorter than a cell the two are neighbours and, in a uniform
// flow, the scheme is exactly Lax-Wendroff (flux form: mass kept, centroid carried at the flow
// speed; see conservative limiting below). A trace of c = n + f cells (n whole) puts the
// estimate n cells downstream of where it was made: in a uniform flow along x, with
// G = 1 - f + f e^{-ik} the linear interpolation at the fraction f, the forward step multiplies
// a Fourier mode by e^{-ikn} G, the round trip by |G|^2, and Selle's result by
// e^{-ikn} G + (1 - |G|^2) / 2 instead of e^{-ikn} (G + (1 - |G|^2) / 2). So the correction
// sharpens a blob's edges at its old place, inside or behind the new one; the limiter clips it
// there and a sharp blob carried 30 cells at 1.3-3.75 cells per step landed 0.2-0.6 cell short
// with 2-5% more mass. Reading the estimate at x shifted by the whole cells of its trace, i.e.
// at the sample of the departure stencil nearest to x along each axis, gives the second form:
// Lax-Wendroff at the fraction f (G + (1 - |G|^2) / 2 = 1 - i f sin k - f^2 (1 - cos k)) plus an
// exact shift of n cells, the usual treatment of Courant numbers above 1 in flux-form
// semi-Lagrangian transport (Lin & Rood 1996, "Multidimensional flux-form semi-Lagrangian
// transport schemes": whole cells move exactly, the fraction goes through the flux scheme).
// Traces shorter than a cell read x itself, as before (bit for bit). An exactly whole trace of
// a cell or more may read the sample next to the one it lands on, where a uniform flow's
// estimate is 0 anyway. The sample is derived from the recorded corner alone: no second
// back-trace.

/**
 * The sample of the departure stencil with lower corner o (cornerIndex) nearest to the arrival
 * sample (i, j, k) along each axis: the sample MacCormack reads phi - phi_back at. It is (i, j,
 * k) itself when the trace is shorter than a cell along every axis.
 */
export function errorSample(o: number, i: number, j: number, k: number, sx: number, sy: number): number {
  const a = o % sx
  const r = (o - a) / sx
  const b = r % sy
  const c = (r - b) / sy
  const ta = (eTa = i < a ? a : i > a + 1 ? a + 1 : i)
  const tb = (eTb = j < b ? b : j > b + 1 ? b + 1 : j)
  const tc = (eTc = k < c ? c : k > c + 1 ? c + 1 : k)
  return ta + sx * (tb + sy * tc)
}

/** The lattice coordinates of the last errorSample. */
let eTa = 0
let eTb = 0
let eTc = 0

/** Selle et al. 2008's limiter on val against [lo, hi]: LIMIT_REVERT (and a NaN) takes hat, LIMIT_CLAMP the nearer bound, LIMIT_NONE val. */
function limited(val: number, hat: number, lo: number, hi: number, limiter: number): number {
  if (!(val >= lo && val <= hi)) {
    if (limiter === LIMIT_REVERT || val !== val) return hat
    if (limiter === LIMIT_CLAMP) return val < lo ? lo : hi
  }
  return val
}

/**
 * MacCormack correction with Selle et al. 2008 limiting for planes [k0, k1) of lattice `axis`:
 * dst = fwd + (src - bwd) / 2, src and bwd read at the errorSample of the departure stencil;
 * where that leaves the range of the 8 src samples around the departure point it is reverted
 * to fwd (limiter LIMIT_REVERT) or clamped to the range (LIMIT_CLAMP). dst must not alias src,
 * fwd or bwd (bwd is read at other samples). base, when given, holds the corner indices
 * advectSlab recorded for this departure point (same velocity, dtOverDx and solid); the result
 * is the same as without it.
 */
export function maccormackCorrectSlab(
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
  k0: number,
  k1: number,
  base: Int32Array | null = null,
): void {
  const sx = axis === 0 ? nx + 1 : nx
  const sy = axis === 1 ? ny + 1 : ny
  const sz = axis === 2 ? nz + 1 : nz
  const ox = axis === 0 ? 0 : 0.5
  const oy = axis === 1 ? 0 : 0.5
  const oz = axis === 2 ? 0 : 0.5
  const di = sx > 1 ? 1 : 0
  const dj = sy > 1 ? sx : 0
  const dk = sz > 1 ? sx * sy : 0
  const vel = new Float64Array(3)
  const p = new Float64Array(3)
  for (let k = k0; k < k1; k++) {
    for (let j = 0; j < sy; j++) {
      let s = sx * (j + sy * k)
      for (let i = 0; i < sx; i++, s++) {
        if (solid !== null && solidSample(solid, axis, i, j, k, nx, ny, nz)) {
          dst[s] = src[s]
          continue
        }
        // The 8 samples the forward step interpolated from (same clamping as lerp3): the
        // corner the forward pass recorded, or the same back-trace again.
        let o: number
        if (base !== null) o = base[s]
        else {
          backtraceAt(axis, i, j, k, u, v, w, nx, ny, nz, i + ox, j + oy, k + oz, dtOverDx, vel, p)
          o = cornerIndex(p[0] - ox, p[1] - oy, p[2] - oz, sx, sy, sz)
        }
        const t = errorSample(o, i, j, k, sx, sy)
        const hat = fwd[s]
        stencilRange(src, o, di, dj, dk)
        dst[s] = limited(hat + 0.5 * (src[t] - bwd[t]), hat, rLo, rHi, limiter)
      }
    }
  }
}


// ---------------------------------------------------------------------------------------------
// Open sides: ambient values flow in.
//
// A back-traced point beyond an open side of the domain left air that came from outside, so it
// must read the ambient value there (density 0, ambient temperature), not the border cell
// (clamping keeps a border cell's smoke forever where air flows in). Cell-centred fields get a
// ghost layer one cell beyond every open side holding the ambient value (the usual ghost-cell
// Dirichlet inflow condition: Bridson 2015, ch. 3 "boundary conditions" for semi-Lagrangian
// look-ups outside the fluid; Carlson 2004, sec. 3.3.2.2 for open sides), and the trilinear
// look-up runs over [-1, s] on an open axis instead of [0, s - 1]. Closed sides keep clamping.
// The velocity keeps clamping at open sides too: that is the zero-gradient extrapolation, so an
// inflow reads the side's own (wind) velocity and an outflow its own.
//
// openSidesSlab re-samples only the samples whose trilinear stencil reaches a ghost: those
// within `depth` cells of an open side (depth >= |dtOverDx| max |u_normal| + 1 covers every
// departure point that leaves the domain), after the ordinary kernel has run. Allocation free.

/** Lower/upper ghost flags of one axis from open (xMin, xMax, yMin, yMax, zMin, zMax). */
function openLo(open: Uint8Array, a: number): boolean {
  return open[2 * a] !== 0
}
function openHi(open: Uint8Array, a: number): boolean {
  return open[2 * a + 1] !== 0
}

// Stencil of the last lerp3Ghost per axis: lower and upper index (either may be a ghost, -1 or
// n) and the fraction; module scratch, so the pass allocates nothing.
const gLo = new Int32Array(3)
const gHi = new Int32Array(3)
const gT = new Float64Array(3)

/**
 * Trilinear sample of a cell lattice nx*ny*nz at index coordinates (gx, gy, gz) with an ambient
 * ghost layer beyond each open side (index -1 or n): the look-up range of an open axis is
 * [-1, n], of a closed one [0, n - 1] (clamped like lerp3). out[0] receives the value of f,
 * out[1] that of f2 (ghosts ambient2) when f2 is given. Returns whether the stencil uses a ghost
 * sample (otherwise the value is lerp3's).
 */
export function lerp3Ghost(
  f: Float32Array,
  ambient: number,
  f2: Float32Array | null,
  ambient2: number,
  nx: number,
  ny: number,
  nz: number,
  open: Uint8Array,
  gx: number,
  gy: number,
  gz: number,
  out: Float64Array,
): boolean {
  let touched = false
  for (let a = 0; a < 3; a++) {
    const n = a === 0 ? nx : a === 1 ? ny : nz
    const g = a === 0 ? gx : a === 1 ? gy : gz
    const lo = openLo(open, a) ? -1 : 0
    const hi = openHi(open, a) ? n : n - 1
    const c = g > lo ? (g < hi ? g : hi) : lo // NaN clamps to lo
    let i = Math.floor(c)
    if (i > hi - 1) i = hi - 1 >= lo ? hi - 1 : lo
    // A closed axis one sample thick has step 0 (like lerp3).
    const i1 = hi > lo ? i + 1 : i
    gLo[a] = i
    gHi[a] = i1
    gT[a] = c - i
    if (i < 0 || i1 > n - 1) touched = true
  }
  out[0] = ghostTrilinear(f, ambient, nx, ny, nz)
  if (f2 !== null) out[1] = ghostTrilinear(f2, ambient2, nx, ny, nz)
  return touched
}

function ghostAt(f: Float32Array, ambient: number, nx: number, ny: number, nz: number, i: number, j: number, k: number): number {
  if (i < 0 || j < 0 || k < 0 || i >= nx || j >= ny || k >= nz) return ambient
  return f[i + nx * (j + ny * k)]
}

/** lerp3's arithmetic over the stencil lerp3Ghost left in gLo / gHi / gT. */
function ghostTrilinear(f: Float32Array, amb: number, nx: number, ny: number, nz: number): number {
  const i = gLo[0]
  const j = gLo[1]
  const k = gLo[2]
  const i1 = gHi[0]
  const j1 = gHi[1]
  const k1 = gHi[2]
  const tx = gT[0]
  const ty = gT[1]
  const tz = gT[2]
  const a0 = ghostAt(f, amb, nx, ny, nz, i, j, k)
  const c00 = a0 + tx * (ghostAt(f, amb, nx, ny, nz, i1, j, k) - a0)
  const a1 = ghostAt(f, amb, nx, ny, nz, i, j1, k)
  const c10 = a1 + tx * (ghostAt(f, amb, nx, ny, nz, i1, j1, k) - a1)
  const a2 = ghostAt(f, amb, nx, ny, nz, i, j, k1)
  const c01 = a2 + tx * (ghostAt(f, amb, nx, ny, nz, i1, j, k1) - a2)
  const a3 = ghostAt(f, amb, nx, ny, nz, i, j1, k1)
  const c11 = a3 + tx * (ghostAt(f, amb, nx, ny, nz, i1, j1, k1) - a3)
  const c0 = c00 + ty * (c10 - c00)
  const c1 = c01 + ty * (c11 - c01)
  return c0 + tz * (c1 - c0)
}

const oVel = new Float64Array(3)
const oP = new Float64Array(3)
const oOut = new Float64Array(2)

/** What openSidesSlab writes at a sample whose stencil reaches a ghost. */
export const OPEN_RESAMPLE = 0
/** MacCormack's last step: the sample takes fwd (its error estimate would need the field outside). */
export const OPEN_TAKE_FWD = 1

/**
 * The open-side pass over cell planes [k0, k1) of the cell lattice (see above). mode
 * OPEN_RESAMPLE: dst (and dst2) = the ghost-aware trilinear sample of src (src2) at the RK2
 * departure point; OPEN_TAKE_FWD: dst = fwd (dst2 = fwd2), and ex/up/dn (MacCormack's
 * redistribution scratch, when given) are zeroed there. Only samples within `depth` cells of an
 * open side are traced; the others are left as the kernel wrote them. Returns how many samples
 * touched a ghost.
 */
export function openSidesSlab(
  mode: number,
  dst: Float32Array,
  src: Float32Array,
  ambient: number,
  dst2: Float32Array | null,
  src2: Float32Array | null,
  ambient2: number,
  u: Float32Array,
  v: Float32Array,
  w: Float32Array,
  nx: number,
  ny: number,
  nz: number,
  dtOverDx: number,
  solid: SolidField | null,
  open: Uint8Array,
  depth: number,
  k0: number,
  k1: number,
  ex: Float32Array | null = null,
  up: Float32Array | null = null,
  dn: Float32Array | null = null,
): number {
  const pair = dst2 !== null && src2 !== null
  const xLo = openLo(open, 0) ? depth : 0
  const xHi = openHi(open, 0) ? nx - depth : nx
  const yBand = (j: number) => (openLo(open, 1) && j < depth) || (openHi(open, 1) && j >= ny - depth)
  const zBand = (k: number) => (openLo(open, 2) && k < depth) || (openHi(open, 2) && k >= nz - depth)
  let count = 0
  for (let k = k0; k < k1; k++) {
    const zb = zBand(k)
    for (let j = 0; j < ny; j++) {
      const whole = zb || yBand(j)
      const row = nx * (j + ny * k)
      for (let i = 0; i < nx; i++) {
        if (!whole && i >= xLo && i < xHi) {
          i = xHi - 1 // jump to the upper x band
          continue
        }
        if (solid !== null && solid[row + i] >= SOLID_THRESHOLD) continue
        backtrace(u, v, w, nx, ny, nz, i + 0.5, j + 0.5, k + 0.5, dtOverDx, oVel, oP)
        const touched = lerp3Ghost(src, ambient, pair ? src2 : null, ambient2, nx, ny, nz, open, oP[0] - 0.5, oP[1] - 0.5, oP[2] - 0.5, oOut)
        if (!touched) continue
        count++
        const s = row + i
        if (mode === OPEN_RESAMPLE) {
          dst[s] = oOut[0]
          if (pair) dst2[s] = oOut[1]
        } else {
          dst[s] = src[s] // src is fwd here
          if (pair) dst2[s] = src2[s]
          if (ex !== null) ex[s] = 0
          if (up !== null) up[s] = 0
          if (dn !== null) dn[s] = 0
        }
      }
    }
  }
  return count
}

// ---------------------------------------------------------------------------------------------
// Conservative limiting of MacCormack.
//
// Unlimited MacCormack with trilinear sampling is, in a uniform flow, exactly Lax-Wendroff (at
// the fraction of a cell of each trace, whole cells being an exact shift: errorSample): a
// flux-form scheme, so it conserves mass and carries a centroid at the flow speed. Selle et al.
// 2008's limiter then clips each sample to the range of its departure stencil on its own: at the
// front of a blob it cuts the Lax-Wendroff overshoot (mass removed from the front), at the back
// it lifts the undershoot to 0 (mass added behind). Both move mass backwards: a sharp blob carried
// 30 cells landed 0.2-1.4 cells short with up to +13% mass, and a thermal lost heat and smoke.
//
// Instead of dropping what the limiter clips, it is handed to the six face neighbours that can
// take it without leaving their own limiter range, in proportion to that room, the capacity
// rule of flux-corrected transport (Zalesak 1979, "Fully multidimensional flux-corrected
// transport algorithms for fluids", eqs. 7-13: P+, Q+, R+): with e_i the amount clipped at i
// (unlimited - limited), up_k = hi_k - phi_k and dn_k = phi_k - lo_k the room of a neighbour,
// neighbour j of a donor receives e_i up_j / sum_{k in N(i)} up_k (e_i > 0; dn for e_i < 0), and
// what it receives in total is capped at its room. Nothing leaves its limiter range (no new
// extrema), and the clipped amount is conserved whenever the neighbours have room for it (a
// clipped step front has: the Lax-Wendroff overshoot behind the front lands in the first cell
// ahead, giving back the semi-Lagrangian profile there).
//
// Two passes, each writing only its own samples so any z split gives the same bits:
// maccormackExcessSlab (ex, up, dn per sample, after maccormackCorrectSlab) and
// maccormackRedistributeSlab (gathers from neighbours into dst).

/** [lo, hi] of the 8 src samples from corner o (maccormackCorrectSlab's range) into rLo/rHi. */
let rLo = 0
let rHi = 0
function stencilRange(src: Float32Array, o: number, di: number, dj: number, dk: number): void {
  let lo = src[o]
  let hi = lo
  for (let n = 1; n < 8; n++) {
    const q = src[o + (n & 1 ? di : 0) + (n & 2 ? dj : 0) + (n & 4 ? dk : 0)]
    if (q < lo) lo = q
    else if (q > hi) hi = q
  }
  rLo = lo
  rHi = hi
}

/**
 * [lo, hi] into rLo/rHi of those of the 8 src samples from corner o that the trilinear look-up
 * at (gx, gy, gz) weights (the upper sample along an axis only when its fraction is > 0).
 */
function weightedRange(src: Float32Array, o: number, gx: number, gy: number, gz: number, sx: number, sy: number, sz: number, di: number, dj: number, dk: number): void {
  const i = o % sx
  const j = ((o - i) / sx) % sy
  const k = (o - i - sx * j) / (sx * sy)
  const ex = gx > i ? di : 0
  const ey = gy > j ? dj : 0
  const ez = gz > k ? dk : 0
  let lo = src[o]
  let hi = lo
  for (let n = 1; n < 8; n++) {
    const q = src[o + (n & 1 ? ex : 0) + (n & 2 ? ey : 0) + (n & 4 ? ez : 0)]
    if (q < lo) lo = q
    else if (q > hi) hi = q
  }
  rLo = lo
  rHi = hi
}

/**
 * For planes [k0, k1) of lattice `axis`, after maccormackCorrectSlab wrote dst with corners
 * base: ex = (fwd + (src - bwd) / 2) - dst where the limiter changed the sample (else 0), up =
 * hi - dst and dn = dst - lo (the room left in the limiter range); all 0 at solid samples. A
 * sample the limiter reverted although it was within rounding of its range is clamped instead
 * (dst rewritten). src and bwd are read at the errorSample, as maccormackCorrectSlab does, so
 * up and dn must not alias bwd.
 */
export function maccormackExcessSlab(
  ex: Float32Array,
  up: Float32Array,
  dn: Float32Array,
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
  base: Int32Array,
  k0: number,
  k1: number,
): void {
  const sx = axis === 0 ? nx + 1 : nx
  const sy = axis === 1 ? ny + 1 : ny
  const sz = axis === 2 ? nz + 1 : nz
  const di = sx > 1 ? 1 : 0
  const dj = sy > 1 ? sx : 0
  const dk = sz > 1 ? sx * sy : 0
  for (let k = k0; k < k1; k++) {
    for (let j = 0; j < sy; j++) {
      let s = sx * (j + sy * k)
      for (let i = 0; i < sx; i++, s++) {
        if (solid !== null && solidSample(solid, axis, i, j, k, nx, ny, nz)) {
          ex[s] = 0
          up[s] = 0
          dn[s] = 0
          continue
        }
        const o = base[s]
        const t = errorSample(o, i, j, k, sx, sy)
        stencilRange(src, o, di, dj, dk)
        excessAt(ex, up, dn, dst, src, base, axis, u, v, w, nx, ny, nz, dtOverDx, sx, sy, sz, di, dj, dk, i, j, k, s, fwd[s], src[t], bwd[t])
      }
    }
  }
}

/**
 * maccormackExcessSlab's sample s (not solid) from what it reads: f = fwd[s], q = src[t] and
 * r = bwd[t] at the errorSample t, the 8-sample range in rLo/rHi (stencilRange), and dst[s] as
 * maccormackCorrectSlab wrote it.
 */
function excessAt(
  ex: Float32Array, up: Float32Array, dn: Float32Array, dst: Float32Array, src: Float32Array, base: Int32Array, axis: -1 | 0 | 1 | 2,
  u: Float32Array, v: Float32Array, w: Float32Array, nx: number, ny: number, nz: number, dtOverDx: number,
  sx: number, sy: number, sz: number, di: number, dj: number, dk: number, i: number, j: number, k: number, s: number, f: number, q: number, r: number,
): void {
  const ox = axis === 0 ? 0 : 0.5
  const oy = axis === 1 ? 0 : 0.5
  const oz = axis === 2 ? 0 : 0.5
  const val = f + 0.5 * (q - r)
  let d = dst[s]
  if (!(val >= rLo && val <= rHi)) {
    // Within rounding of the range (2^-20 of the magnitudes val is made of), the sample
    // is clamped rather than reverted: a revert there would hinge on the last bit of val,
    // and mirror-image samples, rounded differently, would take different branches.
    const tol = 9.5367431640625e-7 * ((f < 0 ? -f : f) + (q < 0 ? -q : q) + (r < 0 ? -r : r))
    if (val > rHi && val <= rHi + tol) d = dst[s] = rHi
    else if (val < rLo && val >= rLo - tol) d = dst[s] = rLo
  }
  ex[s] = val >= rLo && val <= rHi ? 0 : val === val ? val - d : 0
  if (rLo === rHi) {
    up[s] = 0
    dn[s] = 0
    return
  }
  // The room counts only the samples the forward step weighted: a departure point on a
  // grid plane (a velocity component exactly 0) gives the samples past it weight 0, and
  // the 8-sample range would then reach one side only (mirror images would differ).
  // The trace is the forward step's own (backtraceAt, as advectSlab takes it).
  backtraceAt(axis, i, j, k, u, v, w, nx, ny, nz, i + ox, j + oy, k + oz, dtOverDx, oVel, oP)
  weightedRange(src, base[s], oP[0] - ox, oP[1] - oy, oP[2] - oz, sx, sy, sz, di, dj, dk)
  const a = rHi - d
  const b = d - rLo
  up[s] = a > 0 ? a : 0
  dn[s] = b > 0 ? b : 0
}

/**
 * MacCormack's last two passes in one, over planes [k0, k1) of lattice `axis`:
 * maccormackCorrectSlab (limiter as there) and, with ex, up and dn given, maccormackExcessSlab,
 * sample by sample, and without the backward step's lattice. Where the correction reads bwd at
 * the errorSample t it takes what advectAtSlab (trilinear) would have stored there: fwd at t's
 * recorded reverse departure point rev[t] as float32, or fwd[t] where t is solid. The same bits
 * as advectAtSlab, maccormackCorrectSlab and maccormackExcessSlab in turn, for one pass over
 * the lattice instead of three (each reading it at other samples, so each ended at a barrier
 * when split across threads). base and rev as advectSlab recorded them.
 */
export function maccormackFusedSlab(
  dst: Float32Array,
  src: Float32Array,
  fwd: Float32Array,
  rev: Float64Array,
  ex: Float32Array | null,
  up: Float32Array | null,
  dn: Float32Array | null,
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
  base: Int32Array,
  k0: number,
  k1: number,
): void {
  const sx = axis === 0 ? nx + 1 : nx
  const sy = axis === 1 ? ny + 1 : ny
  const sz = axis === 2 ? nz + 1 : nz
  const di = sx > 1 ? 1 : 0
  const dj = sy > 1 ? sx : 0
  const dk = sz > 1 ? sx * sy : 0
  const excess = ex !== null && up !== null && dn !== null
  for (let k = k0; k < k1; k++) {
    for (let j = 0; j < sy; j++) {
      let s = sx * (j + sy * k)
      for (let i = 0; i < sx; i++, s++) {
        if (solid !== null && solidSample(solid, axis, i, j, k, nx, ny, nz)) {
          dst[s] = src[s]
          if (excess) ex[s] = up[s] = dn[s] = 0
          continue
        }
        const o = base[s]
        const t = errorSample(o, i, j, k, sx, sy)
        const hat = fwd[s]
        const q = src[t]
        const r = solid !== null && solidSample(solid, axis, eTa, eTb, eTc, nx, ny, nz) ? fwd[t] : Math.fround(sample3(fwd, sx, sy, sz, rev[3 * t], rev[3 * t + 1], rev[3 * t + 2], false))
        stencilRange(src, o, di, dj, dk)
        dst[s] = limited(hat + 0.5 * (q - r), hat, rLo, rHi, limiter)
        if (excess) excessAt(ex, up, dn, dst, src, base, axis, u, v, w, nx, ny, nz, dtOverDx, sx, sy, sz, di, dj, dk, i, j, k, s, hat, q, r)
      }
    }
  }
}

/** sum of room[] over the in-lattice face neighbours of sample s = (i, j, k). */
function neighbourRoom(room: Float32Array, s: number, i: number, j: number, k: number, sx: number, sy: number, sz: number): number {
  const p = sx * sy
  let r = 0
  if (i > 0) r += room[s - 1]
  if (i + 1 < sx) r += room[s + 1]
  if (j > 0) r += room[s - sx]
  if (j + 1 < sy) r += room[s + sx]
  if (k > 0) r += room[s - p]
  if (k + 1 < sz) r += room[s + p]
  return r
}

/** Accumulated shares of the neighbour donors of the sample being gathered. */
let shareUp = 0
let shareDn = 0
function donor(ex: Float32Array, up: Float32Array, dn: Float32Array, s: number, i: number, j: number, k: number, sx: number, sy: number, sz: number): void {
  const e = ex[s]
  if (e > 0) {
    const r = neighbourRoom(up, s, i, j, k, sx, sy, sz)
    if (r > 0) shareUp += e / r
  } else if (e < 0) {
    const r = neighbourRoom(dn, s, i, j, k, sx, sy, sz)
    if (r > 0) shareDn += -e / r
  }
}

/**
 * For planes [k0, k1) of lattice `axis`: each sample j gathers from its face neighbours i the
 * share ex_i up_j / sum_{k in N(i)} up_k of their clipped excess (dn for a deficit), capped at
 * its room, and stays within its limiter range [lo, hi] (corners base, values src). dst is
 * updated in place; ex, up, dn come from maccormackExcessSlab and are only read.
 */
export function maccormackRedistributeSlab(
  dst: Float32Array,
  ex: Float32Array,
  up: Float32Array,
  dn: Float32Array,
  src: Float32Array,
  axis: -1 | 0 | 1 | 2,
  nx: number,
  ny: number,
  nz: number,
  base: Int32Array,
  k0: number,
  k1: number,
): void {
  const sx = axis === 0 ? nx + 1 : nx
  const sy = axis === 1 ? ny + 1 : ny
  const sz = axis === 2 ? nz + 1 : nz
  const di = sx > 1 ? 1 : 0
  const dj = sy > 1 ? sx : 0
  const dk = sz > 1 ? sx * sy : 0
  const p = sx * sy
  for (let k = k0; k < k1; k++) {
    for (let j = 0; j < sy; j++) {
      let s = sx * (j + sy * k)
      for (let i = 0; i < sx; i++, s++) {
        const a = up[s]
        const b = dn[s]
        if (a === 0 && b === 0) continue
        shareUp = 0
        shareDn = 0
        if (i > 0) donor(ex, up, dn, s - 1, i - 1, j, k, sx, sy, sz)
        if (i + 1 < sx) donor(ex, up, dn, s + 1, i + 1, j, k, sx, sy, sz)
        if (j > 0) donor(ex, up, dn, s - sx, i, j - 1, k, sx, sy, sz)
        if (j + 1 < sy) donor(ex, up, dn, s + sx, i, j + 1, k, sx, sy, sz)
        if (k > 0) donor(ex, up, dn, s - p, i, j, k - 1, sx, sy, sz)
        if (k + 1 < sz) donor(ex, up, dn, s + p, i, j, k + 1, sx, sy, sz)
        if (shareUp === 0 && shareDn === 0) continue
        let gain = a * shareUp
        if (gain > a) gain = a
        let loss = b * shareDn
        if (loss > b) loss = b
        let val = dst[s] + gain - loss
        stencilRange(src, base[s], di, dj, dk)
        if (val > rHi) val = rHi
        if (val < rLo) val = rLo
        dst[s] = val
      }
    }
  }
}
