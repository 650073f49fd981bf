// Kernel rows of the smoke's pressure solve (pressure.ts) that ran as TypeScript loops on the
// calling thread while the kernels' threads waited: the mean removal over the floating regions
// (components.ts), called twice a CG iteration, and the right-hand side and warm start set up
// before each solve. Their twins are in wasm/assembly/pressurePasses.ts; the same bits.
import { defineKernel, f64, i32, int, size } from './kernelTable'

/**
 * Subtracts from v its mean over each floating region f in [f0, f1) (cells[start[f] ..
 * start[f + 1]), ascending): the sum runs over the cells in order, as a sweep over all
 * cells would, so a region is one index of the range (one thread).
 */
export function removeMeansRows(v: Float64Array, cells: Int32Array, start: Int32Array, f0: number, f1: number): void {
  for (let f = f0; f < f1; f++) {
    const n0 = start[f]
    const n1 = start[f + 1]
    let sum = 0
    for (let n = n0; n < n1; n++) sum += v[cells[n]]
    const mean = sum / (n1 - n0)
    for (let n = n0; n < n1; n++) v[cells[n]] -= mean
  }
}

export const REMOVE_MEANS = defineKernel({
  name: 'removeMeans',
  args: [f64('v'), i32('cells'), i32('start'), int('floating'), size('cells')],
  split: 'rows',
  range: (a) => a[3] as number,
  // Two passes over the regions' cells; on one thread for one region.
  work: (a) => 2 * (a[4] as number),
  ref: (v: Float64Array, cells: Int32Array, start: Int32Array, _floating: number, f0: number, f1: number) => removeMeansRows(v, cells, start, f0, f1),
})

/**
 * Before a solve, planes [k0, k1): b = -(net outflux) on the unknowns (labels >= 0) and 0
 * elsewhere; the warm start phi kept on the unknowns where it is finite, else 0 (cold: 0 everywhere).
 */
export function prepareSolveSlab(b: Float64Array, phi: Float64Array, labels: Int32Array, warm: number, plane: number, k0: number, k1: number): void {
  for (let c = k0 * plane; c < k1 * plane; c++) {
    const unknown = labels[c] >= 0
    b[c] = unknown ? -b[c] : 0
    if (warm === 0 || !unknown || !Number.isFinite(phi[c])) phi[c] = 0
  }
}

export const PREPARE_SOLVE = defineKernel({
  name: 'prepareSolve',
  args: [f64('b'), f64('phi'), i32('labels'), int('warm'), int('plane'), size('nz')],
  split: 'planes',
  range: (a) => a[5] as number,
  work: (a) => (a[4] as number) * (a[5] as number),
  ref: prepareSolveSlab,
})
