// Single-precision copies of a patch stencil (patchStencil.ts) and the kernels the projection's
// multigrid preconditioner runs on them: damped Jacobi sweeps, residuals, and the 2 x 2
// aggregation's restriction and prolongation, all in float32 storage and float32 arithmetic.
//
// Why float32: the preconditioner only has to approximate A^-1; PCG itself keeps its vectors,
// its product and its residual in float64, so the projection still converges to its float64
// tolerance. The V-cycle's sweeps stream nine coefficient planes and three or four vectors a
// row, and in float32 those are half the bytes and the twin (wasm/assembly/surfaceStencil32.ts)
// takes four rows a vector instead of two. On the 450-patch cage at 32^2 an inner-row sweep took
// 0.34-0.54 ms in float32 against 0.8-0.9 ms in float64 (2 threads, 2026-12-05's experiment).
// The rounding makes the V-cycle symmetric only to about 1e-7 relative, well below what the
// 1e-6 tolerance lets PCG notice (it takes the same iteration counts).
//
// The planes are stored symmetrically: five, not nine. A is symmetric, so an inner row's
// coefficient towards its lower neighbour r - d (d = 1, n - 1, n, n + 1) is that neighbour's
// coefficient towards r, A[r - d, r], and sits in the plane of offset +d at index r - d. An
// edge row's own slot in the planes is unused (edge rows are summed from their CSR), so there
// it holds the coefficient its inner neighbour r = s + d needs, A[r, s]. The sweeps stream 20
// bytes of coefficients a row instead of 36; the planes of offset -d are read at r - d, a
// stream a patch row behind, in cache. Each row's products are the same numbers in the same
// order as with nine planes, so the results are the same bits. (A C sketch of one Jacobi sweep at
// 460,800 rows on this machine's two cores: 0.25 ms with five planes against 0.67 with nine; the
// WebAssembly sweeps gained less, being bound by their instructions as much as by their bytes:
// the projection at 450 x 32^2 went from 76-81 to 70-75 ms a step.)
//
// Every operation rounds to float32 as the twin's f32 instructions do: Math.fround of a sum or
// product of two float32 values is the correctly rounded float32 result (a float64 has more than
// twice float32's precision plus two bits), so the references and the twin agree bit for bit.
import type { KernelBackend } from '../core/kernelTypes'
import { f32, f64, float, i32, int, size } from '../core/kernelTable'
import type { PatchStencil } from './patchStencil'
import { patchRow } from './patchRow'

const fr = Math.fround

/**
 * A PatchStencil in float32, coefficients and edge values rounded to float32, its planes stored
 * symmetrically: PLANES32 planes `stride` apart (the centre, then offsets +1, +n - 1, +n,
 * +n + 1), as the header says.
 */
export interface PatchStencil32 {
  readonly n: number
  readonly P: number
  readonly coef: Float32Array
  readonly stride: number
  readonly edge: { readonly n: number; readonly rowPtr: Int32Array; readonly col: Int32Array; readonly val: Float32Array }
}

/** Planes of the symmetric layout: the centre and the four upper offsets. */
export const PLANES32 = 5

/**
 * The nine planes' index (patchStencil.ts: offsets -n-1, -n, -n+1, -1, 0, +1, +n-1, +n, +n+1)
 * of symmetric plane q: the centre, then the upper offsets +1, +n - 1, +n, +n + 1.
 */
const UPPER = [4, 5, 6, 7, 8] as const

/**
 * S's planes in the symmetric layout (float64, PLANES32 x S.stride): plane q at row s holds
 * A[s, s + d_q] where s is an inner row, else A[s + d_q, s] where s + d_q is an inner row of
 * the same patch, else 0 (the centre plane: A[s, s] on inner rows, 0 on edge rows). Throws if
 * two inner rows' coefficients towards each other differ: the layout holds only one of them.
 */
export function symmetricPlanes(S: PatchStencil): Float64Array {
  const { n, P, coef, stride } = S
  const out = new Float64Array(PLANES32 * stride)
  const inner = (i: number, j: number) => i > 0 && i < n - 1 && j > 0 && j < n - 1
  for (let q = 0; q < PLANES32; q++) {
    const k = UPPER[q], di = (k % 3) - 1, dj = Math.floor(k / 3) - 1, d = di + n * dj
    for (let p = 0; p < P; p++) for (let j = 0; j < n; j++) for (let i = 0; i < n; i++) {
      const s = p * n * n + i + n * j
      const up = inner(i, j), down = q > 0 && inner(i + di, j + dj)
      // The lower neighbour's coefficient towards s: plane 8 - k of row s + d.
      const mirror = down ? coef[(8 - k) * stride + s + d] : 0
      if (up && down && coef[k * stride + s] !== mirror) {
        throw new Error(`surface stencil: the matrix is not symmetric (rows ${s} and ${s + d}: ${coef[k * stride + s]} against ${mirror}); the float32 planes need A = A^T`)
      }
      out[q * stride + s] = up ? coef[k * stride + s] : mirror
    }
  }
  return out
}

/**
 * S rounded to float32, in the kernels' memory, its planes in the symmetric layout (S may be
 * anywhere: the edge rows' pattern is copied too, so a coarse level's float64 planes need never
 * enter the kernels' memory).
 */
export function stencil32Of(S: PatchStencil, kernels: KernelBackend): PatchStencil32 {
  const coef = kernels.f32(PLANES32 * S.stride)
  coef.set(symmetricPlanes(S))
  const E = S.edge
  const rowPtr = kernels.i32(E.rowPtr.length), col = kernels.i32(E.col.length), val = kernels.f32(E.val.length)
  rowPtr.set(E.rowPtr)
  col.set(E.col)
  val.set(E.val)
  return { n: S.n, P: S.P, coef, stride: S.stride, edge: { n: E.n, rowPtr, col, val } }
}

/**
 * sum_k A[r, r + off_k] x[r + off_k] in float32 over the nine offsets in the stencil's (CSR
 * column) order, the lower four read from the upper planes at r - d.
 */
function stencilSum32(coef: Float32Array, stride: number, x: Float32Array, r: number, n: number): number {
  const e = stride + r, nw = 2 * stride + r, no = 3 * stride + r, ne = 4 * stride + r
  let s = 0
  s = fr(s + fr(coef[ne - n - 1] * x[r - n - 1]))
  s = fr(s + fr(coef[no - n] * x[r - n]))
  s = fr(s + fr(coef[nw - n + 1] * x[r - n + 1]))
  s = fr(s + fr(coef[e - 1] * x[r - 1]))
  s = fr(s + fr(coef[r] * x[r]))
  s = fr(s + fr(coef[e] * x[r + 1]))
  s = fr(s + fr(coef[nw] * x[r + n - 1]))
  s = fr(s + fr(coef[no] * x[r + n]))
  return fr(s + fr(coef[ne] * x[r + n + 1]))
}

/** Edge row e's sum in float32, in storage order. */
function edgeSum32(rowPtr: Int32Array, col: Int32Array, val: Float32Array, x: Float32Array, e: number): number {
  let s = 0
  const end = rowPtr[e + 1]
  for (let q = rowPtr[e]; q < end; q++) s = fr(s + fr(val[q] * x[col[q]]))
  return s
}

/** What a row's sum s becomes (the twin's modes): y = s, r = b - s, out = x + scale (b - s). */
const PUT_SUM = 0
const PUT_RESIDUAL = 1
const PUT_JACOBI = 2

/**
 * The rows of patches [p0, p1), each float32 sum put by `mode` into out: inner rows by the
 * planes, edge rows by the edge CSR (4n - 4 a patch in patchStencil.ts's visiting order). (One
 * loop with the mode tested per row, not a callback per mode: V8 inlines neither a callback
 * that differs from call to call, and the reference is the live viewport's solver.)
 */
function patchRows32(
  mode: number, ePtr: Int32Array, eCol: Int32Array, eVal: Float32Array, coef: Float32Array, stride: number,
  x: Float32Array, b: Float32Array | null, scale: Float32Array | null, out: Float32Array | Float64Array, n: number, p0: number, p1: number,
): void {
  for (let p = p0; p < p1; p++) {
    let e = p * (4 * n - 4)
    for (let j = 0; j < n; j++) {
      const r0 = p * n * n + n * j
      const edgeRow = j === 0 || j === n - 1
      for (let i = 0; i < n; i++) {
        const u = r0 + i
        const s = edgeRow || i === 0 || i === n - 1 ? edgeSum32(ePtr, eCol, eVal, x, e++) : stencilSum32(coef, stride, x, u, n)
        out[u] = mode === PUT_SUM ? s : mode === PUT_RESIDUAL ? fr((b as Float32Array)[u] - s) : fr(x[u] + fr((scale as Float32Array)[u] * fr((b as Float32Array)[u] - s)))
      }
    }
  }
}

/** y = A x in float32 over the rows of patches [p0, p1). */
export function stencil32SpmvPatches(ePtr: Int32Array, eCol: Int32Array, eVal: Float32Array, coef: Float32Array, stride: number, x: Float32Array, y: Float32Array, n: number, p0: number, p1: number): void {
  patchRows32(PUT_SUM, ePtr, eCol, eVal, coef, stride, x, null, null, y, n, p0, p1)
}

/** r = b - A x in float32 over the rows of patches [p0, p1). */
export function stencil32ResidualPatches(ePtr: Int32Array, eCol: Int32Array, eVal: Float32Array, coef: Float32Array, stride: number, x: Float32Array, b: Float32Array, r: Float32Array, n: number, p0: number, p1: number): void {
  patchRows32(PUT_RESIDUAL, ePtr, eCol, eVal, coef, stride, x, b, null, r, n, p0, p1)
}

/**
 * One damped Jacobi sweep out = x + scale (b - A x) in float32 over the rows of patches
 * [p0, p1) (out is not x). out may be a Float64Array (the cycle's last sweep writing the
 * caller's z): it receives the same float32 values, widened.
 */
export function stencil32JacobiPatches(
  ePtr: Int32Array, eCol: Int32Array, eVal: Float32Array, coef: Float32Array, stride: number, x: Float32Array, b: Float32Array, scale: Float32Array, out: Float32Array | Float64Array, n: number, p0: number, p1: number,
): void {
  patchRows32(PUT_JACOBI, ePtr, eCol, eVal, coef, stride, x, b, scale, out, n, p0, p1)
}

/**
 * The cycle's entry on patches [p0, p1): b = r rounded to float32, and the first Jacobi sweep
 * from x = 0, y = scale b.
 */
export function narrowScalePatches(r: Float64Array, b: Float32Array, scale: Float32Array, y: Float32Array, n: number, p0: number, p1: number): void {
  for (let u = p0 * n * n; u < p1 * n * n; u++) {
    const v = fr(r[u])
    b[u] = v
    y[u] = fr(scale[u] * v)
  }
}

/** The first Jacobi sweep from x = 0 on a coarse level, patches [p0, p1): y = scale b. */
export function scale32Patches(b: Float32Array, scale: Float32Array, y: Float32Array, n: number, p0: number, p1: number): void {
  for (let u = p0 * n * n; u < p1 * n * n; u++) y[u] = fr(scale[u] * b[u])
}

/**
 * R = P^T for the 2 x 2 aggregation (surfaceMultigrid.ts: fine cell (i, j) of patch p belongs to
 * coarse cell (i >> 1, j >> 1)), patches [p0, p1): each coarse cell sums its fine cells in
 * ascending order ((2I, 2J), (2I + 1, 2J), (2I, 2J + 1), (2I + 1, 2J + 1), those that exist).
 */
export function restrict32Patches(fine: Float32Array, coarse: Float32Array, n: number, p0: number, p1: number): void {
  const nc = (n + 1) >> 1
  for (let p = p0; p < p1; p++) {
    const f0 = p * n * n, c0 = p * nc * nc
    for (let J = 0; J < nc; J++) {
      const j = 2 * J, two = j + 1 < n
      for (let I = 0; I < nc; I++) {
        const i = 2 * I, u = f0 + i + n * j, wide = i + 1 < n
        let s = fr(0 + fine[u])
        if (wide) s = fr(s + fine[u + 1])
        if (two) {
          s = fr(s + fine[u + n])
          if (wide) s = fr(s + fine[u + n + 1])
        }
        coarse[c0 + I + nc * J] = s
      }
    }
  }
}

/** x += alpha P xc for the 2 x 2 aggregation, patches [p0, p1) (n: the fine level's edge). */
export function prolongAdd32Patches(coarse: Float32Array, x: Float32Array, alpha: number, n: number, p0: number, p1: number): void {
  const nc = (n + 1) >> 1
  const a = fr(alpha)
  for (let p = p0; p < p1; p++) {
    const f0 = p * n * n, c0 = p * nc * nc
    for (let j = 0; j < n; j++) for (let i = 0; i < n; i++) {
      const u = f0 + i + n * j
      x[u] = fr(x[u] + fr(a * coarse[c0 + (i >> 1) + nc * (j >> 1)]))
    }
  }
}

const planes = [i32('edgePtr'), i32('edgeCol'), f32('edgeVal'), f32('coef'), int('stride')] as const
export const STENCIL32_SPMV = patchRow('stencil32Spmv', [...planes, f32('x'), f32('y'), int('N'), size('patches')], 9, stencil32SpmvPatches)
export const STENCIL32_RESIDUAL = patchRow('stencil32Residual', [...planes, f32('x'), f32('b'), f32('r'), int('N'), size('patches')], 9, stencil32ResidualPatches)
export const STENCIL32_JACOBI = patchRow('stencil32Jacobi', [...planes, f32('x'), f32('b'), f32('scale'), f32('out'), int('N'), size('patches')], 9, stencil32JacobiPatches)
export const STENCIL32_JACOBI_WIDE = patchRow('stencil32JacobiWide', [
  ...planes, f32('x'), f32('b'), f32('scale'), f64('out'), int('N'), size('patches'),
], 9, stencil32JacobiPatches)
export const NARROW_SCALE = patchRow('narrowScale', [f64('r'), f32('b'), f32('scale'), f32('y'), int('N'), size('patches')], 1, narrowScalePatches)
export const SCALE32 = patchRow('scale32', [f32('b'), f32('scale'), f32('y'), int('N'), size('patches')], 1, scale32Patches)
export const RESTRICT32 = patchRow('restrict32', [f32('fine'), f32('coarse'), int('N'), size('patches')], 1, restrict32Patches)
export const PROLONG_ADD32 = patchRow('prolongAdd32', [f32('coarse'), f32('x'), float('alpha'), int('N'), size('patches')], 1, prolongAdd32Patches)

/** y = A x. */
export function stencil32Spmv(kernels: KernelBackend, S: PatchStencil32, x: Float32Array, y: Float32Array): void {
  const E = S.edge
  kernels.run(STENCIL32_SPMV, E.rowPtr, E.col, E.val, S.coef, S.stride, x, y, S.n, S.P)
}

/** r = b - A x. */
export function stencil32Residual(kernels: KernelBackend, S: PatchStencil32, x: Float32Array, b: Float32Array, r: Float32Array): void {
  const E = S.edge
  kernels.run(STENCIL32_RESIDUAL, E.rowPtr, E.col, E.val, S.coef, S.stride, x, b, r, S.n, S.P)
}

/** out = x + scale (b - A x); out a Float64Array takes the float32 results widened. */
export function stencil32Jacobi(kernels: KernelBackend, S: PatchStencil32, x: Float32Array, b: Float32Array, scale: Float32Array, out: Float32Array | Float64Array): void {
  const E = S.edge
  kernels.run(out instanceof Float64Array ? STENCIL32_JACOBI_WIDE : STENCIL32_JACOBI, E.rowPtr, E.col, E.val, S.coef, S.stride, x, b, scale, out, S.n, S.P)
}
