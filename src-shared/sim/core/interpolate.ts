// Sampling grid data at arbitrary points.
//
// The low-level samplers work in *index coordinates* of one sample lattice of size sx*sy*sz
// (sample (i, j, k) sits at index coordinate (i, j, k)); positions outside [0, s-1] are clamped
// to the border, so a back-traced point that leaves the domain reads the nearest boundary value
// (Bridson 2015, ch. 3: clamp rather than extrapolate). NaN coordinates clamp to 0 rather than
// poisoning the field.
//
// Two schemes:
// - trilinear (Carlson 2004, section 3.2.1): reproduces linear functions exactly, never
//   leaves the range of the 8 surrounding samples, smooths (first-order dissipation).
// - monotone cubic: a tensor product of 1D cubic Hermite segments whose slopes are the
//   central differences, zeroed when their sign disagrees with the segment's (Fedkiw, Stam,
//   Jensen 2001) and capped at 3x the segment slope (Fritsch & Carlson 1980, the
//   sufficient condition alpha, beta <= 3 for a monotone segment). Each 1D pass stays within
//   its two middle samples, so the 3D result stays within the min/max of the 8 samples around
//   the point, like trilinear: no new extrema. Where no limiter fires (in the interior, away
//   from extrema of the data) central differences are exact for quadratics and a Hermite
//   segment with exact values and slopes reproduces them, so quadratics are reproduced there.
import type { Axis, MacGrid, ScalarField } from './grid'

export type Interpolation = 'linear' | 'cubic'

/** Clamps g to [0, hi] with NaN mapped to 0. */
function clampCoord(g: number, hi: number): number {
  return g > 0 ? (g < hi ? g : hi) : 0
}

/** Trilinear sample of a sx*sy*sz lattice at index coordinates (gx, gy, gz), clamped to the lattice. */
export function lerp3(f: Float32Array, sx: number, sy: number, sz: number, gx: number, gy: number, gz: number): number {
  gx = clampCoord(gx, sx - 1)
  gy = clampCoord(gy, sy - 1)
  gz = clampCoord(gz, sz - 1)
  // The lower corner is at most s-2 so the upper one exists; a lattice 1 sample thick has step 0.
  let i = Math.floor(gx)
  let j = Math.floor(gy)
  let k = Math.floor(gz)
  if (i > sx - 2) i = sx > 1 ? sx - 2 : 0
  if (j > sy - 2) j = sy > 1 ? sy - 2 : 0
  if (k > sz - 2) k = sz > 1 ? sz - 2 : 0
  const tx = gx - i
  const ty = gy - j
  const tz = gz - k
  const di = sx > 1 ? 1 : 0
  const dj = sy > 1 ? sx : 0
  const dk = sz > 1 ? sx * sy : 0
  const o = i + sx * (j + sy * k)
  const c00 = f[o] + tx * (f[o + di] - f[o])
  const c10 = f[o + dj] + tx * (f[o + dj + di] - f[o + dj])
  const c01 = f[o + dk] + tx * (f[o + dk + di] - f[o + dk])
  const c11 = f[o + dk + dj] + tx * (f[o + dk + dj + di] - f[o + dk + dj])
  const c0 = c00 + ty * (c10 - c00)
  const c1 = c01 + ty * (c11 - c01)
  return c0 + tz * (c1 - c0)
}

/**
 * One monotone cubic Hermite segment between f1 (t = 0) and f2 (t = 1), with f0 and f3 the
 * outer neighbours. Fedkiw, Stam, Jensen 2001 (sign rule) + Fritsch & Carlson 1980
 * (slope cap): the result lies in [min(f1, f2), max(f1, f2)] for t in [0, 1].
 */
export function monotoneCubic(f0: number, f1: number, f2: number, f3: number, t: number): number {
  const delta = f2 - f1
  if (delta === 0) return f1
  let d1 = 0.5 * (f2 - f0)
  let d2 = 0.5 * (f3 - f1)
  if (delta > 0) {
    d1 = d1 < 0 ? 0 : d1 > 3 * delta ? 3 * delta : d1
    d2 = d2 < 0 ? 0 : d2 > 3 * delta ? 3 * delta : d2
  } else {
    d1 = d1 > 0 ? 0 : d1 < 3 * delta ? 3 * delta : d1
    d2 = d2 > 0 ? 0 : d2 < 3 * delta ? 3 * delta : d2
  }
  const a2 = 3 * delta - 2 * d1 - d2
  const a3 = d1 + d2 - 2 * delta
  return f1 + t * (d1 + t * (a2 + t * a3))
}

function cubicRow(f: Float32Array, o: number, i0: number, i1: number, i2: number, i3: number, t: number): number {
  return monotoneCubic(f[o + i0], f[o + i1], f[o + i2], f[o + i3], t)
}

function cubicPlane(
  f: Float32Array,
  o: number,
  sx: number,
  i0: number,
  i1: number,
  i2: number,
  i3: number,
  j0: number,
  j1: number,
  j2: number,
  j3: number,
  tx: number,
  ty: number,
): number {
  return monotoneCubic(
    cubicRow(f, o + sx * j0, i0, i1, i2, i3, tx),
    cubicRow(f, o + sx * j1, i0, i1, i2, i3, tx),
    cubicRow(f, o + sx * j2, i0, i1, i2, i3, tx),
    cubicRow(f, o + sx * j3, i0, i1, i2, i3, tx),
    ty,
  )
}

/**
 * Monotone tricubic sample of a sx*sy*sz lattice at index coordinates, clamped to the lattice.
 * Missing neighbours beyond the border repeat the border sample (slopes become one-sided
 * halves there, so quadratics are only reproduced where 1 <= g <= s-2 on every axis).
 */
export function cubic3(f: Float32Array, sx: number, sy: number, sz: number, gx: number, gy: number, gz: number): number {
  gx = clampCoord(gx, sx - 1)
  gy = clampCoord(gy, sy - 1)
  gz = clampCoord(gz, sz - 1)
  let i1 = Math.floor(gx)
  let j1 = Math.floor(gy)
  let k1 = Math.floor(gz)
  if (i1 > sx - 2) i1 = sx > 1 ? sx - 2 : 0
  if (j1 > sy - 2) j1 = sy > 1 ? sy - 2 : 0
  if (k1 > sz - 2) k1 = sz > 1 ? sz - 2 : 0
  const tx = gx - i1
  const ty = gy - j1
  const tz = gz - k1
  const i0 = i1 > 0 ? i1 - 1 : 0
  const i2 = i1 + 1 < sx ? i1 + 1 : sx - 1
  const i3 = i1 + 2 < sx ? i1 + 2 : sx - 1
  const j0 = j1 > 0 ? j1 - 1 : 0
  const j2 = j1 + 1 < sy ? j1 + 1 : sy - 1
  const j3 = j1 + 2 < sy ? j1 + 2 : sy - 1
  const k0 = k1 > 0 ? k1 - 1 : 0
  const k2 = k1 + 1 < sz ? k1 + 1 : sz - 1
  const k3 = k1 + 2 < sz ? k1 + 2 : sz - 1
  const pz = sx * sy
  return monotoneCubic(
    cubicPlane(f, pz * k0, sx, i0, i1, i2, i3, j0, j1, j2, j3, tx, ty),
    cubicPlane(f, pz * k1, sx, i0, i1, i2, i3, j0, j1, j2, j3, tx, ty),
    cubicPlane(f, pz * k2, sx, i0, i1, i2, i3, j0, j1, j2, j3, tx, ty),
    cubicPlane(f, pz * k3, sx, i0, i1, i2, i3, j0, j1, j2, j3, tx, ty),
    tz,
  )
}

/** Either sampler, chosen by a flag so kernels avoid string compares per sample. */
export function sample3(
  f: Float32Array,
  sx: number,
  sy: number,
  sz: number,
  gx: number,
  gy: number,
  gz: number,
  cubic: boolean,
): number {
  return cubic ? cubic3(f, sx, sy, sz, gx, gy, gz) : lerp3(f, sx, sy, sz, gx, gy, gz)
}

/**
 * Trilinear MAC velocity at grid coordinates (X, Y, Z) = (world - origin) / dx (so cell
 * (i, j, k)'s centre is at (i + 0.5, j + 0.5, k + 0.5)); each component is interpolated from
 * its own faces (Carlson 2004, section 3.2.1). Writes (u, v, w) into out[0..2].
 */
export function velocityAtGridCoord(
  u: Float32Array,
  v: Float32Array,
  w: Float32Array,
  nx: number,
  ny: number,
  nz: number,
  X: number,
  Y: number,
  Z: number,
  out: Float64Array | Float32Array | number[],
): void {
  out[0] = lerp3(u, nx + 1, ny, nz, X, Y - 0.5, Z - 0.5)
  out[1] = lerp3(v, nx, ny + 1, nz, X - 0.5, Y, Z - 0.5)
  out[2] = lerp3(w, nx, ny, nz + 1, X - 0.5, Y - 0.5, Z)
}

/** A cell-centred field sampled at world position (x, y, z), clamped to the grid. */
export function sampleScalar(field: ScalarField, x: number, y: number, z: number, interpolation: Interpolation = 'linear'): number {
  const { dx, origin } = field.spec
  const gx = (x - origin[0]) / dx - 0.5
  const gy = (y - origin[1]) / dx - 0.5
  const gz = (z - origin[2]) / dx - 0.5
  return sample3(field.data, field.nx, field.ny, field.nz, gx, gy, gz, interpolation === 'cubic')
}

/** One face component of a MAC grid sampled at world position (x, y, z), clamped to its faces. */
export function sampleFace(
  grid: MacGrid,
  axis: Axis,
  x: number,
  y: number,
  z: number,
  interpolation: Interpolation = 'linear',
): number {
  const { dx, origin } = grid.spec
  const gx = (x - origin[0]) / dx - (axis === 0 ? 0 : 0.5)
  const gy = (y - origin[1]) / dx - (axis === 1 ? 0 : 0.5)
  const gz = (z - origin[2]) / dx - (axis === 2 ? 0 : 0.5)
  const sx = grid.nx + (axis === 0 ? 1 : 0)
  const sy = grid.ny + (axis === 1 ? 1 : 0)
  const sz = grid.nz + (axis === 2 ? 1 : 0)
  return sample3(grid.component(axis), sx, sy, sz, gx, gy, gz, interpolation === 'cubic')
}

/** The velocity at world position (x, y, z) into out[0..2]; no allocation. */
export function sampleVelocity(
  grid: MacGrid,
  x: number,
  y: number,
  z: number,
  out: Float64Array | Float32Array | number[],
  interpolation: Interpolation = 'linear',
): void {
  out[0] = sampleFace(grid, 0, x, y, z, interpolation)
  out[1] = sampleFace(grid, 1, x, y, z, interpolation)
  out[2] = sampleFace(grid, 2, x, y, z, interpolation)
}
