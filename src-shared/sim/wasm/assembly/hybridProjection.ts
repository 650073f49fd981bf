// Twins of src-shared/sim/hybrid/projectionKernels.ts: the hybrid projection's right-hand side,
// face correction and relative divergence, in the references' operations and order.
import { rf64, ri32, wf64 } from './common'

/** cellFluxRows over cells [c0, c1). */
export function hybridCellFluxRows(cellFaceStart: usize, cellFaces: usize, signedArea: usize, z: usize, out: usize, negate: i32, c0: i32, c1: i32): void {
  for (let c = c0; c < c1; c++) {
    let s: f64 = 0
    for (let i = ri32(cellFaceStart, c), e = ri32(cellFaceStart, c + 1); i < e; i++) s += rf64(signedArea, i) * rf64(z, ri32(cellFaces, i))
    wf64(out, c, negate == 1 ? -s : s)
  }
}

/** faceCorrectionRows over faces [f0, f1). */
export function hybridFaceCorrectionRows(faceCellA: usize, faceCellB: usize, inv: usize, p: usize, z: usize, f0: i32, f1: i32): void {
  for (let f = f0; f < f1; f++) {
    const w = rf64(inv, f)
    if (w == 0) continue
    const b = ri32(faceCellB, f)
    wf64(z, f, rf64(z, f) - ((b >= 0 ? rf64(p, b) : 0) - rf64(p, ri32(faceCellA, f))) * w)
  }
}

/** relativeDivergenceRows over cells [c0, c1). */
export function hybridRelativeDivergenceRows(cellFaceStart: usize, cellFaces: usize, signedArea: usize, z: usize, ratio: usize, c0: i32, c1: i32): void {
  for (let c = c0; c < c1; c++) {
    let s: f64 = 0, m: f64 = 0
    for (let i = ri32(cellFaceStart, c), e = ri32(cellFaceStart, c + 1); i < e; i++) {
      const q = rf64(signedArea, i) * rf64(z, ri32(cellFaces, i))
      s += q
      m += Math.abs(q)
    }
    wf64(ratio, c, m > 0 ? Math.abs(s) / m : 0)
  }
}
