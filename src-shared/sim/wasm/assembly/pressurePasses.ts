// Twins of src-shared/sim/core/pressureKernels.ts: the floating regions' mean removal by planes
// and the pressure solve's set-up pass. The same float64 operations in the same order: the same bits.
import { rf64, ri32, wf64 } from './common'

/** regionPlaneSumsSlab over planes [k0, k1). */
export function regionPlaneSums(v: usize, cells: usize, planeStart: usize, floating: i32, nz: i32, partial: usize, k0: i32, k1: i32): void {
  for (let k = k0; k < k1; k++) {
    for (let g = 0; g < floating; g++) {
      const o = g * (nz + 1) + k
      let s: f64 = 0
      const t1 = ri32(planeStart, o + 1)
      for (let t = ri32(planeStart, o); t < t1; t++) s += rf64(v, ri32(cells, t))
      wf64(partial, g * nz + k, s)
    }
  }
}

/** regionSubtractSlab over planes [k0, k1). */
export function regionSubtract(v: usize, cells: usize, planeStart: usize, floating: i32, nz: i32, mean: usize, k0: i32, k1: i32): void {
  for (let k = k0; k < k1; k++) {
    for (let g = 0; g < floating; g++) {
      const o = g * (nz + 1) + k
      const m = rf64(mean, g)
      const t1 = ri32(planeStart, o + 1)
      for (let t = ri32(planeStart, o); t < t1; t++) {
        const c = ri32(cells, t)
        wf64(v, c, rf64(v, c) - m)
      }
    }
  }
}

/** prepareSolveSlab over planes [k0, k1). */
export function prepareSolve(b: usize, phi: usize, labels: usize, warm: i32, plane: i32, k0: i32, k1: i32): void {
  for (let c = k0 * plane; c < k1 * plane; c++) {
    const unknown = ri32(labels, c) >= 0
    wf64(b, c, unknown ? -rf64(b, c) : 0)
    const p = rf64(phi, c)
    // p - p is 0 for a finite p, NaN for NaN and the infinities (Number.isFinite).
    if (warm == 0 || !unknown || !(p - p == 0)) wf64(phi, c, 0)
  }
}
