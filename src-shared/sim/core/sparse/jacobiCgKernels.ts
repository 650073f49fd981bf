// Fused kernels for Jacobi-preconditioned CG over several systems that share one matrix (the
// surface's density diffusions, surface/lockstepPcg.ts). Each gives the same bits as the
// separate kernels it replaces (kernels.ts), so a fused solve is still PcgSolver.solve's
// iteration bit for bit:
//   - residualMultiRows: r_d = b_d - A x_d for every system d in one pass over A (residualRows'
//     order for each), where count residuals cost count passes;
//   - jacobiCgUpdateBlocks: x += alpha s; r -= alpha q; |r|^2 and r . z with z = D^-1 r, in one
//     pass (updateIterateBlocks, scaleBlocks and dotBlocks were three, and z was stored);
//   - jacobiSearchBlocks: s = D^-1 r + beta s without z (scaleBlocks then xpbyBlocks).
// On the 450-patch cage at 32^2 the three densities' diffusion takes 8 iterations a step, so
// these cut about 2 x 8 x 3 vector passes and 2 of the 6 residuals' matrix passes a step.
import { defineKernel, f64, float, i32, int, type KernelArgs, size } from '../kernelTable'
import { residualRows } from './kernels'

const num = (a: KernelArgs, i: number) => a[i] as number

/** r_d = b_d - A x_d for d < count (vectors n apart), rows [r0, r1): residualRows for each. */
export function residualMultiRows(rowPtr: Int32Array, col: Int32Array, val: Float64Array, x: Float64Array, b: Float64Array, r: Float64Array, n: number, count: number, r0: number, r1: number): void {
  for (let d = 0; d < count; d++) {
    const at = (a: Float64Array) => a.subarray(d * n, (d + 1) * n)
    residualRows(rowPtr, col, val, at(x), at(b), at(r), r0, r1)
  }
}

/**
 * x += alpha s; r -= alpha q over blocks [k0, k1), with partial[k] = |r|^2 and rz[k] = r . z
 * (z = invDiag r) over block k, each as two running sums over even and odd offsets (dotBlocks).
 */
export function jacobiCgUpdateBlocks(
  x: Float64Array, r: Float64Array, s: Float64Array, q: Float64Array, invDiag: Float64Array, alpha: number, n: number, block: number, partial: Float64Array, rz: Float64Array, k0: number, k1: number,
): void {
  for (let k = k0; k < k1; k++) {
    let c = k * block
    const end = Math.min(n, c + block)
    let s0 = 0, s1 = 0, t0 = 0, t1 = 0
    for (; c + 1 < end; c += 2) {
      x[c] += alpha * s[c]
      x[c + 1] += alpha * s[c + 1]
      const r0 = r[c] - alpha * q[c]
      const r1 = r[c + 1] - alpha * q[c + 1]
      r[c] = r0
      r[c + 1] = r1
      s0 += r0 * r0
      s1 += r1 * r1
      t0 += r0 * (r0 * invDiag[c])
      t1 += r1 * (r1 * invDiag[c + 1])
    }
    let rr = s0 + s1, rzk = t0 + t1
    if (c < end) {
      x[c] += alpha * s[c]
      const rc = r[c] - alpha * q[c]
      r[c] = rc
      rr += rc * rc
      rzk += rc * (rc * invDiag[c])
    }
    partial[k] = rr
    rz[k] = rzk
  }
}

/** s = invDiag r + beta s over blocks [k0, k1). */
export function jacobiSearchBlocks(s: Float64Array, r: Float64Array, invDiag: Float64Array, beta: number, n: number, block: number, k0: number, k1: number): void {
  const end = Math.min(n, k1 * block)
  for (let c = k0 * block; c < end; c++) s[c] = r[c] * invDiag[c] + beta * s[c]
}

const csr = [i32('rowPtr'), i32('col'), f64('val')]

export const RESIDUAL_MULTI = defineKernel({
  name: 'residualMulti',
  args: [...csr, f64('x'), f64('b'), f64('r'), int('n'), int('count'), size('rows')],
  split: 'rows',
  range: (a) => num(a, 8),
  work: (a) => (a[0] as Int32Array)[num(a, 8)] * num(a, 7),
  ref: residualMultiRows,
})

/** Returns |r|^2; rz's first ceil(n / block) entries take the blocks' r . z. */
export const JACOBI_CG_UPDATE = defineKernel({
  name: 'jacobiCgUpdateBlocks',
  args: [f64('x'), f64('r'), f64('s'), f64('q'), f64('invDiag'), float('alpha'), int('n'), int('block'), f64('partial'), f64('rz')],
  split: 'blocks',
  range: (a) => Math.ceil(num(a, 6) / num(a, 7)),
  work: (a) => 3 * num(a, 6),
  partials: 'partial',
  ref: jacobiCgUpdateBlocks,
})

export const JACOBI_SEARCH = defineKernel({
  name: 'jacobiSearchBlocks',
  args: [f64('s'), f64('r'), f64('invDiag'), float('beta'), int('n'), int('block')],
  split: 'blocks',
  range: (a) => Math.ceil(num(a, 4) / num(a, 5)),
  work: (a) => num(a, 4),
  ref: jacobiSearchBlocks,
})
