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
  const mx = X - 0.5 * c * vel[0]
  const my = Y - 0.5 * c * vel[1]
  const mz = Z - 0.5 * c * vel[2]
  velocityAtGridCoord(u, v, w, nx, ny, nz, mx, my, mz, vel)
  out[0] = X - c * vel[0]
  out[1] = Y - c * vel[1]
  out[2] = Z - c * vel[2]
}

/**
 * Semi-Lagrangian advection of lattice `axis` for planes [k0, k1) of that lattice:
 * dst = src at the RK2 departure point. dtOverDx = dt / dx (negative for MacCormack's
 * backward step). dst must not alias src. With dst2 and src2, a second field on the same
 * lattice rides the same back-trace (dst2 = src2 at the departure point); with base, the
 * corner index of each departure point (cornerIndex) is recorded for maccormackCorrectSlab,
 * which then need not trace again. Solid samples leave base untouched.
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
        backtrace(u, v, w, nx, ny, nz, i + ox, j + oy, k + oz, dtOverDx, vel, p)
        const gx = p[0] - ox
        const gy = p[1] - oy
        const gz = p[2] - oz
        dst[s] = sample3(src, sx, sy, sz, gx, gy, gz, cubic)
        if (pair) dst2[s] = sample3(src2, sx, sy, sz, gx, gy, gz, cubic)
        if (base !== null) base[s] = cornerIndex(gx, gy, gz, sx, sy, sz)
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

/**
 * MacCormack correction with Selle et al. 2008 limiting for planes [k0, k1) of lattice `axis`:
 * dst = fwd + (src - bwd) / 2; where that leaves the range of the 8 src samples around the
 * departure point it is reverted to fwd (limiter LIMIT_REVERT) or clamped to the range
 * (LIMIT_CLAMP). dst may alias bwd (each sample reads only its own bwd). base, when given,
 * holds the corner indices advectSlab recorded for this departure point (same velocity,
 * dtOverDx and solid); the result is the same as without it.
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
        const hat = fwd[s]
        let val = hat + 0.5 * (src[s] - bwd[s])
        // The 8 samples the forward step interpolated from (same clamping as lerp3): the
        // corner the forward pass recorded, or the same back-trace again.
        let o: number
        if (base !== null) o = base[s]
        else {
          backtrace(u, v, w, nx, ny, nz, i + ox, j + oy, k + oz, dtOverDx, vel, p)
          o = cornerIndex(p[0] - ox, p[1] - oy, p[2] - oz, sx, sy, sz)
        }
        let lo = src[o]
        let hi = lo
        for (let n = 1; n < 8; n++) {
          const q = src[o + (n & 1 ? di : 0) + (n & 2 ? dj : 0) + (n & 4 ? dk : 0)]
          if (q < lo) lo = q
          else if (q > hi) hi = q
        }
        if (!(val >= lo && val <= hi)) {
          if (limiter === LIMIT_REVERT || val !== val) val = hat
          else if (limiter === LIMIT_CLAMP) val = val < lo ? lo : hi
        }
        dst[s] = val
      }
    }
  }
}

