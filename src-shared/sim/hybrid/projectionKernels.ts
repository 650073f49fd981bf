// The hybrid projection's passes around its pressure solve (hybridProjection.ts) as kernel-table
// rows, so they run on the solve's threads next to the matrix instead of on the calling thread:
// the right-hand side -sum_i s_i A_i z_i per cell (eq. 6), the correction z -= G p per face
// (eq. 4), and per cell the divergence left relative to the flux through its faces (the
// projection's accuracy check). The TypeScript references below and their AssemblyScript twins
// (wasm/assembly/hybridProjection.ts) make each cell's or face's number in the same operations
// and order as the loops they replace, so the bits are theirs on any split over threads.
//
// Each cell-face entry carries s_i A_i, its face's area with the sign of the face's normal seen
// from the cell (hybridMesh.ts cellFaceSign): s_i A_i z_i is the same number as
// s_i (A_i z_i), since a change of sign commutes with rounding.
import { defineKernel, f64, i32, int, type KernelArgs, size } from '../core/kernelTable'

/** out[c] = sum over cell c's faces of signedArea_i z_f, negated when `negate` is 1. */
export function cellFluxRows(cellFaceStart: Int32Array, cellFaces: Int32Array, signedArea: Float64Array, z: Float64Array, out: Float64Array, negate: number, c0: number, c1: number): void {
  for (let c = c0; c < c1; c++) {
    let s = 0
    for (let i = cellFaceStart[c], e = cellFaceStart[c + 1]; i < e; i++) s += signedArea[i] * z[cellFaces[i]]
    out[c] = negate === 1 ? -s : s
  }
}

/** z[f] -= (p_b - p_a) inv[f] on faces with inv[f] != 0 (p_b = 0 beyond an open face). */
export function faceCorrectionRows(faceCellA: Int32Array, faceCellB: Int32Array, inv: Float64Array, p: Float64Array, z: Float64Array, f0: number, f1: number): void {
  for (let f = f0; f < f1; f++) {
    const w = inv[f]
    if (w === 0) continue
    const b = faceCellB[f]
    z[f] -= ((b >= 0 ? p[b] : 0) - p[faceCellA[f]]) * w
  }
}

/** ratio[c] = |sum_i s_i A_i z_i| / sum_i |A_i z_i| over cell c's faces (0 with no flow). */
export function relativeDivergenceRows(cellFaceStart: Int32Array, cellFaces: Int32Array, signedArea: Float64Array, z: Float64Array, ratio: Float64Array, c0: number, c1: number): void {
  for (let c = c0; c < c1; c++) {
    let s = 0, m = 0
    for (let i = cellFaceStart[c], e = cellFaceStart[c + 1]; i < e; i++) {
      const q = signedArea[i] * z[cellFaces[i]]
      s += q
      m += Math.abs(q)
    }
    ratio[c] = m > 0 ? Math.abs(s) / m : 0
  }
}

const num = (a: KernelArgs, i: number) => a[i] as number

/** cellFluxRows over cells [0, cells). Args: cellFaceStart, cellFaces, signedArea, z, out, negate, cells. */
export const HYBRID_CELL_FLUX = defineKernel({
  name: 'hybridCellFluxRows',
  args: [i32('cellFaceStart'), i32('cellFaces'), f64('signedArea'), f64('z'), f64('out'), int('negate'), size('cells')],
  split: 'rows',
  range: (a) => num(a, 6),
  work: (a) => 6 * num(a, 6),
  ref: cellFluxRows,
})

/** faceCorrectionRows over faces [0, faces). Args: faceCellA, faceCellB, inv, p, z, faces. */
export const HYBRID_FACE_CORRECTION = defineKernel({
  name: 'hybridFaceCorrectionRows',
  args: [i32('faceCellA'), i32('faceCellB'), f64('inv'), f64('p'), f64('z'), size('faces')],
  split: 'rows',
  range: (a) => num(a, 5),
  work: (a) => num(a, 5),
  ref: faceCorrectionRows,
})

/** relativeDivergenceRows over cells [0, cells). Args: cellFaceStart, cellFaces, signedArea, z, ratio, cells. */
export const HYBRID_RELATIVE_DIVERGENCE = defineKernel({
  name: 'hybridRelativeDivergenceRows',
  args: [i32('cellFaceStart'), i32('cellFaces'), f64('signedArea'), f64('z'), f64('ratio'), size('cells')],
  split: 'rows',
  range: (a) => num(a, 5),
  work: (a) => 6 * num(a, 5),
  ref: relativeDivergenceRows,
})
