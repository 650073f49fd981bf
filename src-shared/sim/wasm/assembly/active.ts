// The ghost-fluid pressure's PCG kernels over the unknown cells (reference:
// src-shared/sim/liquid/activeKernels.ts): the 7-point product and the vector updates with
// per-plane partial sums, over the unknowns cells[planeStart[k] .. planeStart[k + 1]) of planes
// [k0, k1). The same float64 expressions in the same order as the references: the same bits.
import { rf64, ri32, wf64 } from './common'

/** activeApplySlab. */
export function activeApply(out: usize, x: usize, diag: usize, ax: usize, ay: usize, az: usize, cells: usize, planeStart: usize, nx: i32, ny: i32, nz: i32, k0: i32, k1: i32): void {
  const plane = nx * ny
  const n = plane * nz
  const end = ri32(planeStart, k1)
  for (let t = ri32(planeStart, k0); t < end; t++) {
    const c = ri32(cells, t)
    let s = rf64(diag, c) * rf64(x, c)
    if (c >= 1) s += rf64(ax, c - 1) * rf64(x, c - 1)
    if (c + 1 < n) s += rf64(ax, c) * rf64(x, c + 1)
    if (c >= nx) s += rf64(ay, c - nx) * rf64(x, c - nx)
    if (c + nx < n) s += rf64(ay, c) * rf64(x, c + nx)
    if (c >= plane) s += rf64(az, c - plane) * rf64(x, c - plane)
    if (c + plane < n) s += rf64(az, c) * rf64(x, c + plane)
    wf64(out, c, s)
  }
}

/** activeDotSlab. */
export function activeDot(a: usize, b: usize, cells: usize, planeStart: usize, partial: usize, k0: i32, k1: i32): void {
  for (let k = k0; k < k1; k++) {
    let s: f64 = 0
    const end = ri32(planeStart, k + 1)
    for (let t = ri32(planeStart, k); t < end; t++) {
      const c = ri32(cells, t)
      s += rf64(a, c) * rf64(b, c)
    }
    wf64(partial, k, s)
  }
}

/** activeUpdateIterateSlab. */
export function activeUpdateIterate(x: usize, r: usize, s: usize, q: usize, alpha: f64, cells: usize, planeStart: usize, partial: usize, k0: i32, k1: i32): void {
  for (let k = k0; k < k1; k++) {
    let part: f64 = 0
    const end = ri32(planeStart, k + 1)
    for (let t = ri32(planeStart, k); t < end; t++) {
      const c = ri32(cells, t)
      wf64(x, c, rf64(x, c) + alpha * rf64(s, c))
      const rc = rf64(r, c) - alpha * rf64(q, c)
      wf64(r, c, rc)
      part += rc * rc
    }
    wf64(partial, k, part)
  }
}

/** activeUpdateSearchSlab. */
export function activeUpdateSearch(s: usize, z: usize, beta: f64, cells: usize, planeStart: usize, k0: i32, k1: i32): void {
  const end = ri32(planeStart, k1)
  for (let t = ri32(planeStart, k0); t < end; t++) {
    const c = ri32(cells, t)
    wf64(s, c, rf64(z, c) + beta * rf64(s, c))
  }
}
