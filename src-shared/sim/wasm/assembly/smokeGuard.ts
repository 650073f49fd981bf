// Twin of src-shared/sim/smoke/guardKernels.ts smokeGuardPlanes: the largest face speed per
// plane (NaN if one is NaN) and a NaN flag for non-finite density + temperature.
import { rf32, wf64 } from './common'

/** max(m, |f[i]|) over [i0, i1), NaN once one is NaN. */
@inline function largestAbs(f: usize, i0: i32, i1: i32, m: f64): f64 {
  if (m != m) return m
  for (let i = i0; i < i1; i++) {
    const v = rf32(f, i)
    const x = v < 0 ? -v : v
    if (x > m) m = x
    else if (x != x) return NaN
  }
  return m
}

/** smokeGuardPlanes over planes [k0, k1) of [0, nz]. */
export function smokeGuard(u: usize, v: usize, w: usize, density: usize, temperature: usize, nx: i32, ny: i32, nz: i32, partial: usize, k0: i32, k1: i32): void {
  const pu = (nx + 1) * ny, pv = nx * (ny + 1), pc = nx * ny
  for (let k = k0; k < k1; k++) {
    let m: f64 = 0
    if (k < nz) {
      m = largestAbs(u, k * pu, (k + 1) * pu, m)
      m = largestAbs(v, k * pv, (k + 1) * pv, m)
    }
    m = largestAbs(w, k * pc, (k + 1) * pc, m)
    wf64(partial, 2 * k, m)
    let bad: f64 = 0
    if (k < nz) {
      for (let c = k * pc; c < (k + 1) * pc; c++) {
        const s = rf32(density, c) + rf32(temperature, c)
        if (!(s - s == 0)) {
          bad = NaN
          break
        }
      }
    }
    wf64(partial, 2 * k + 1, bad)
  }
}
