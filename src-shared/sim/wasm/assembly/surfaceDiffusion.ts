// Twins of src-shared/sim/surface/surfaceDiffusionKernels.ts: a diffusion system's values in
// float64 and float32, entry by entry as the references compute them.
import { rf64, ri32, wf32, wf64 } from './common'

/** diffusionFillRows: val = kdt lv / hh, sqrt(g) added on the diagonal, invDiag = 1 / diagonal. */
export function diffusionFillRows(rowPtr: usize, lv: usize, val: usize, diagAt: usize, areaOf: usize, invDiag: usize, kdt: f64, hh: f64, r0: i32, r1: i32): void {
  for (let u = r0; u < r1; u++) {
    const end = ri32(rowPtr, u + 1)
    for (let q = ri32(rowPtr, u); q < end; q++) wf64(val, q, (kdt * rf64(lv, q)) / hh)
    const d = ri32(diagAt, u)
    const v = rf64(val, d) + rf64(areaOf, u)
    wf64(val, d, v)
    wf64(invDiag, u, 1 / v)
  }
}

/** diffusionPlanes32Rows: float32 symmetric planes (kdt sym) / hh + sqrt(g) on the centre, invDiag32 rounded. */
export function diffusionPlanes32Rows(sym: usize, coef32: usize, stride: i32, areaOf: usize, invDiag: usize, invDiag32: usize, kdt: f64, hh: f64, r0: i32, r1: i32): void {
  for (let r = r0; r < r1; r++) wf32(coef32, r, (kdt * rf64(sym, r)) / hh + rf64(areaOf, r))
  for (let q = 1; q < 5; q++) {
    const at = q * stride
    for (let r = r0; r < r1; r++) wf32(coef32, at + r, (kdt * rf64(sym, at + r)) / hh + 0.0)
  }
  for (let r = r0; r < r1; r++) wf32(invDiag32, r, rf64(invDiag, r))
}

/** diffusionEdge32Rows: edge row e's entries, A's row rowOf[e] in order, val + 0 rounded. */
export function diffusionEdge32Rows(rowPtr: usize, val: usize, ePtr: usize, rowOf: usize, eVal32: usize, e0: i32, e1: i32): void {
  for (let e = e0; e < e1; e++) {
    const m0 = ri32(ePtr, e), m1 = ri32(ePtr, e + 1)
    const at = ri32(rowPtr, ri32(rowOf, e)) - m0
    for (let m = m0; m < m1; m++) wf32(eVal32, m, rf64(val, at + m) + 0.0)
  }
}
