// The smoke's stability guard as a kernel row (smokeSolver.ts guard(), run after every
// substep): the largest face speed, which the next substep's CFL needs, and whether any cell's
// density or temperature is NaN or infinite. Both were TypeScript passes over the whole grid
// on the calling thread while the kernels' threads waited. Per plane, then the largest plane:
// a maximum is the same whatever the order, so the speed is the old single pass's bits.
// Twin: wasm/assembly/smokeGuard.ts.
import { defineKernel, f32, f64, int, size } from '../core/kernelTable'

/**
 * Planes [k0, k1) of [0, nz]: partial[2k] = max |velocity| over the u and v faces of cell
 * plane k (k < nz) and the w faces of face plane k, NaN if one is NaN; partial[2k + 1] = NaN
 * if density + temperature is not finite in a cell of plane k (k < nz), else 0.
 */
export function smokeGuardPlanes(u: Float32Array, v: Float32Array, w: Float32Array, density: Float32Array, temperature: Float32Array, nx: number, ny: number, nz: number, partial: Float64Array, k0: number, k1: number): void {
  const pu = (nx + 1) * ny, pv = nx * (ny + 1), pc = nx * ny
  for (let k = k0; k < k1; k++) {
    let m = 0
    if (k < nz) {
      m = largestAbs(u, k * pu, (k + 1) * pu, m)
      m = largestAbs(v, k * pv, (k + 1) * pv, m)
    }
    m = largestAbs(w, k * pc, (k + 1) * pc, m)
    partial[2 * k] = m
    let bad = 0
    if (k < nz) {
      for (let c = k * pc; c < (k + 1) * pc; c++) {
        const s = density[c] + temperature[c]
        // s - s is 0 for a finite s, NaN for NaN and the infinities.
        if (!(s - s === 0)) {
          bad = NaN
          break
        }
      }
    }
    partial[2 * k + 1] = bad
  }
}

/** max(m, |f[i]|) over [i0, i1), NaN once one is NaN (as maxAbsOrNaN). */
function largestAbs(f: Float32Array, i0: number, i1: number, m: number): number {
  if (m !== m) return m
  for (let i = i0; i < i1; i++) {
    const x = f[i] < 0 ? -f[i] : f[i]
    if (x > m) m = x
    else if (x !== x) return NaN
  }
  return m
}

export const SMOKE_GUARD = defineKernel({
  name: 'smokeGuard',
  args: [f32('u'), f32('v'), f32('w'), f32('density'), f32('temperature'), int('nx'), int('ny'), int('nz'), f64('partial'), size('planes')],
  split: 'planes',
  range: (a) => a[9] as number,
  work: (a) => 5 * (a[5] as number) * (a[6] as number) * (a[9] as number),
  ref: smokeGuardPlanes,
})
