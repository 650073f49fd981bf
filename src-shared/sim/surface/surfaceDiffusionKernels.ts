// Filling a density diffusion system's values (surfaceDiffusion.ts) from the projection's
// Laplacian L: val = k dt L / h^2 + diag(sqrt(g)) and 1 / diag in float64, and the same
// entries rounded to float32 as stencil planes and edge rows (refinedDiffusion.ts's inner
// solve). Twins in wasm/assembly/surfaceDiffusion.ts.
//
// Why kernels: a new rate or step refills every value (the live viewport's step follows the
// wall clock, so every frame), and as plain loops over the kernels' shared memory the first
// fill at 450 patches x 32^2 (4.1M entries) took about 160 ms before the JIT had warmed up,
// most of a baked run's first step. Each row writes only its own entries: any split gives
// the same bits.
import { defineKernel, f32, f64, float, i32, int, type KernelArgs, size } from '../core/kernelTable'

const fr = Math.fround
const num = (a: KernelArgs, i: number) => a[i] as number

/**
 * Rows [r0, r1): val[q] = (kdt lv[q]) / hh over the row's entries, then sqrt(g) added on its
 * diagonal (val[diagAt[u]]) and invDiag[u] = 1 / that (kdt = k dt, hh = h^2, as the caller's
 * float64 products).
 */
export function diffusionFillRows(
  rowPtr: Int32Array, lv: Float64Array, val: Float64Array, diagAt: Int32Array, areaOf: Float64Array, invDiag: Float64Array, kdt: number, hh: number, r0: number, r1: number,
): void {
  for (let u = r0; u < r1; u++) {
    for (let q = rowPtr[u]; q < rowPtr[u + 1]; q++) val[q] = (kdt * lv[q]) / hh
    const d = diagAt[u]
    val[d] += areaOf[u]
    invDiag[u] = 1 / val[d]
  }
}

/**
 * Rows [r0, r1) of the float32 planes (patchStencil32.ts's symmetric layout, from L's planes in
 * that layout, sym): plane q's entry (kdt sym_q) / hh, plus sqrt(g) on the centre plane (q = 0),
 * rounded; and invDiag32 = invDiag rounded. Edge rows' centre is 0 in sym (the edge CSR carries
 * those rows), so it gets sqrt(g) alone, which the float32 kernels never read.
 */
export function diffusionPlanes32Rows(
  sym: Float64Array, coef32: Float32Array, stride: number, areaOf: Float64Array, invDiag: Float64Array, invDiag32: Float32Array, kdt: number, hh: number, r0: number, r1: number,
): void {
  for (let q = 0; q < 5; q++) {
    const at = q * stride
    for (let r = r0; r < r1; r++) coef32[at + r] = fr((kdt * sym[at + r]) / hh + (q === 0 ? areaOf[r] : 0))
  }
  for (let r = r0; r < r1; r++) invDiag32[r] = fr(invDiag[r])
}

/**
 * Edge rows [e0, e1) in float32: edge row e is A's row rowOf[e], its entries A's in order, each
 * val (the float64 system's) + 0 rounded (the + 0 makes a -0 entry +0, as the planes' sum does).
 */
export function diffusionEdge32Rows(rowPtr: Int32Array, val: Float64Array, ePtr: Int32Array, rowOf: Int32Array, eVal32: Float32Array, e0: number, e1: number): void {
  for (let e = e0; e < e1; e++) {
    const at = rowPtr[rowOf[e]] - ePtr[e]
    for (let m = ePtr[e]; m < ePtr[e + 1]; m++) eVal32[m] = fr(val[at + m] + 0)
  }
}

export const DIFFUSION_FILL = defineKernel({
  name: 'diffusionFillRows',
  args: [i32('rowPtr'), f64('lv'), f64('val'), i32('diagAt'), f64('areaOf'), f64('invDiag'), float('kdt'), float('hh'), size('rows')],
  split: 'rows',
  range: (a) => num(a, 8),
  work: (a) => (a[0] as Int32Array)[num(a, 8)],
  ref: diffusionFillRows,
})

export const DIFFUSION_PLANES32 = defineKernel({
  name: 'diffusionPlanes32Rows',
  args: [f64('sym'), f32('coef32'), int('stride'), f64('areaOf'), f64('invDiag'), f32('invDiag32'), float('kdt'), float('hh'), size('rows')],
  split: 'rows',
  range: (a) => num(a, 8),
  work: (a) => 6 * num(a, 8),
  ref: diffusionPlanes32Rows,
})

export const DIFFUSION_EDGE32 = defineKernel({
  name: 'diffusionEdge32Rows',
  args: [i32('rowPtr'), f64('val'), i32('ePtr'), i32('rowOf'), f32('eVal32'), size('rows')],
  split: 'rows',
  range: (a) => num(a, 5),
  work: (a) => (a[2] as Int32Array)[num(a, 5)],
  ref: diffusionEdge32Rows,
})
