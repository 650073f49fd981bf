// The hybrid mesh's grid arithmetic the trace twins share (hybridTrace.ts, hybridFullTrace.ts):
// not re-exported from index.ts, so nothing here is a kernel export. Twin of
// src-shared/sim/hybrid/hybridLocate.ts gridCubeAt.

/** The grid cube (x fastest) holding (x, y, z), a point on the far side in the last cube; -1 outside the grid or for NaN. */
@inline export function gridCubeAt(x: f64, y: f64, z: f64, nx: i32, ny: i32, nz: i32, ox: f64, oy: f64, oz: f64, invH: f64): i32 {
  const fx = (x - ox) * invH, fy = (y - oy) * invH, fz = (z - oz) * invH
  if (!(fx >= 0 && fy >= 0 && fz >= 0 && fx <= <f64>nx && fy <= <f64>ny && fz <= <f64>nz)) return -1
  let i = <i32>Math.floor(fx), j = <i32>Math.floor(fy), k = <i32>Math.floor(fz)
  if (i == nx) i--
  if (j == ny) j--
  if (k == nz) k--
  return i + nx * (j + ny * k)
}
