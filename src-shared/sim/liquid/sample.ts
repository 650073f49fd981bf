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
