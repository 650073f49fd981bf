// Trilinear sampling for the marker loops: core/interpolate.ts lerp3 (same clamping, same
// products in the same order, so the same bits) specialised to lattices at least 2 samples
// along every axis, which every liquid lattice is (validateLiquidSetup wants 3+ cells). The
// per-call checks for 1-sample-thick lattices go, and the floor of a coordinate already
// clamped to [0, s - 1] is a truncation. These run about ten times per marker per substep.

/** lerp3(f, sx, sy, sz, gx, gy, gz) for sx, sy, sz >= 2. */
export function lerpLattice(f: Float32Array, sx: number, sy: number, sz: number, gx: number, gy: number, gz: number): number {
  // Clamp to [0, s - 1]; NaN -> 0 (as lerp3).
  gx = gx > 0 ? (gx < sx - 1 ? gx : sx - 1) : 0
  gy = gy > 0 ? (gy < sy - 1 ? gy : sy - 1) : 0
  gz = gz > 0 ? (gz < sz - 1 ? gz : sz - 1) : 0
  let i = gx | 0
  let j = gy | 0
  let k = gz | 0
  if (i > sx - 2) i = sx - 2
  if (j > sy - 2) j = sy - 2
  if (k > sz - 2) k = sz - 2
  const tx = gx - i
  const ty = gy - j
  const tz = gz - k
  const dk = sx * sy
  const o = i + sx * (j + sy * k)
  const c00 = f[o] + tx * (f[o + 1] - f[o])
  const c10 = f[o + sx] + tx * (f[o + sx + 1] - f[o + sx])
  const c01 = f[o + dk] + tx * (f[o + dk + 1] - f[o + dk])
  const c11 = f[o + dk + sx] + tx * (f[o + dk + sx + 1] - f[o + dk + sx])
  const c0 = c00 + ty * (c10 - c00)
  const c1 = c01 + ty * (c11 - c01)
  return c0 + tz * (c1 - c0)
}

/** MAC velocity at grid coordinates (X, Y, Z) into out[0..2] (interpolate.ts velocityAtGridCoord). */
export function macVelocity(u: Float32Array, v: Float32Array, w: Float32Array, nx: number, ny: number, nz: number, X: number, Y: number, Z: number, out: Float64Array): void {
  out[0] = lerpLattice(u, nx + 1, ny, nz, X, Y - 0.5, Z - 0.5)
  out[1] = lerpLattice(v, nx, ny + 1, nz, X - 0.5, Y, Z - 0.5)
  out[2] = lerpLattice(w, nx, ny, nz + 1, X - 0.5, Y - 0.5, Z)
}

/**
 * lerpLattice's per-axis set-up (clamp, floor, fraction) for the two kinds of lattice a MAC
 * sample reads along each axis: face-aligned (n + 1 samples at coordinate G) and cell-centred
 * (n samples at G - 1/2). The u, v, w and cell samples at one point share these six, where
 * separate lerpLattice calls would redo them twelve times; lerpAt then evaluates the same
 * expressions as lerpLattice, so the results are the same bits.
 */
export class MacStencil {
  readonly nx: number
  readonly ny: number
  readonly nz: number
  /** Lower sample index and fraction: face-aligned (f) and cell-centred (c) per axis. */
  xf = 0
  xft = 0
  xc = 0
  xct = 0
  yf = 0
  yft = 0
  yc = 0
  yct = 0
  zf = 0
  zft = 0
  zc = 0
  zct = 0

  constructor(nx: number, ny: number, nz: number) {
    this.nx = nx
    this.ny = ny
    this.nz = nz
  }

  /** Sets up the point at grid coordinates (X, Y, Z) = (x - origin) / dx. */
  at(X: number, Y: number, Z: number): void {
    const { nx, ny, nz } = this
    // Face-aligned: lattice of n + 1 samples, clamp to [0, n], lower index at most n - 1.
    let g = X > 0 ? (X < nx ? X : nx) : 0
    let i = g | 0
    if (i > nx - 1) i = nx - 1
    this.xf = i
    this.xft = g - i
    // Cell-centred: lattice of n samples at X - 1/2, clamp to [0, n - 1], index at most n - 2.
    g = X - 0.5
    g = g > 0 ? (g < nx - 1 ? g : nx - 1) : 0
    i = g | 0
    if (i > nx - 2) i = nx - 2
    this.xc = i
    this.xct = g - i
    g = Y > 0 ? (Y < ny ? Y : ny) : 0
    i = g | 0
    if (i > ny - 1) i = ny - 1
    this.yf = i
    this.yft = g - i
    g = Y - 0.5
    g = g > 0 ? (g < ny - 1 ? g : ny - 1) : 0
    i = g | 0
    if (i > ny - 2) i = ny - 2
    this.yc = i
    this.yct = g - i
    g = Z > 0 ? (Z < nz ? Z : nz) : 0
    i = g | 0
    if (i > nz - 1) i = nz - 1
    this.zf = i
    this.zft = g - i
    g = Z - 0.5
    g = g > 0 ? (g < nz - 1 ? g : nz - 1) : 0
    i = g | 0
    if (i > nz - 2) i = nz - 2
    this.zc = i
    this.zct = g - i
  }

  /** u (x faces) at the point: lerpLattice(u, nx + 1, ny, nz, X, Y - 1/2, Z - 1/2). */
  u(f: Float32Array): number {
    return lerpAt(f, this.nx + 1, this.ny, this.xf, this.yc, this.zc, this.xft, this.yct, this.zct)
  }

  /** v (y faces): lerpLattice(v, nx, ny + 1, nz, X - 1/2, Y, Z - 1/2). */
  v(f: Float32Array): number {
    return lerpAt(f, this.nx, this.ny + 1, this.xc, this.yf, this.zc, this.xct, this.yft, this.zct)
  }

  /** w (z faces): lerpLattice(w, nx, ny, nz + 1, X - 1/2, Y - 1/2, Z). */
  w(f: Float32Array): number {
    return lerpAt(f, this.nx, this.ny, this.xc, this.yc, this.zf, this.xct, this.yct, this.zft)
  }

  /** A cell-centred field: lerpLattice(f, nx, ny, nz, X - 1/2, Y - 1/2, Z - 1/2). */
  cell(f: Float32Array): number {
    return lerpAt(f, this.nx, this.ny, this.xc, this.yc, this.zc, this.xct, this.yct, this.zct)
  }
}

/** The interpolation of lerpLattice from its lower corner (i, j, k) and fractions. */
function lerpAt(f: Float32Array, sx: number, sy: number, i: number, j: number, k: number, tx: number, ty: number, tz: number): number {
  const dk = sx * sy
  const o = i + sx * (j + sy * k)
  const c00 = f[o] + tx * (f[o + 1] - f[o])
  const c10 = f[o + sx] + tx * (f[o + sx + 1] - f[o + sx])
  const c01 = f[o + dk] + tx * (f[o + dk + 1] - f[o + dk])
  const c11 = f[o + dk + sx] + tx * (f[o + dk + sx + 1] - f[o + dk + sx])
  const c0 = c00 + ty * (c10 - c00)
  const c1 = c01 + ty * (c11 - c01)
  return c0 + tz * (c1 - c0)
}

/** Cell index of grid coordinates (X, Y, Z) = (x - origin) / dx, clamped into the grid. */
export function cellOf(X: number, Y: number, Z: number, nx: number, ny: number, nz: number): number {
  let i = Math.floor(X), j = Math.floor(Y), k = Math.floor(Z)
  i = i < 0 ? 0 : i >= nx ? nx - 1 : i
  j = j < 0 ? 0 : j >= ny ? ny - 1 : j
  k = k < 0 ? 0 : k >= nz ? nz - 1 : k
  return i + nx * (j + ny * k)
}
