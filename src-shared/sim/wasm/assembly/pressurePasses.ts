// Twins of src-shared/sim/core/pressureKernels.ts: the floating regions' mean removal and the
// pressure solve's set-up pass. The same float64 operations in the same order: the same bits.
import { rf64, ri32, wf64 } from './common'

/** removeMeansRows over regions [f0, f1). */
export function removeMeans(v: usize, cells: usize, start: usize, floating: i32, f0: i32, f1: i32): void {
  for (let f = f0; f < f1; f++) {
    const n0 = ri32(start, f)
    const n1 = ri32(start, f + 1)
    let sum: f64 = 0
    for (let n = n0; n < n1; n++) sum += rf64(v, ri32(cells, n))
    const mean = sum / <f64>(n1 - n0)
    for (let n = n0; n < n1; n++) {
      const c = ri32(cells, n)
      wf64(v, c, rf64(v, c) - mean)
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
