// Kernel rows of the smoke's pressure solve (pressure.ts) that ran as TypeScript loops on the
// calling thread while the kernels' threads waited: the mean removal over the floating regions
// (components.ts), called twice a CG iteration, by planes, and the right-hand side and warm
// start set up before each solve. Their twins are in wasm/assembly/pressurePasses.ts.
import { defineKernel, f64, i32, int, size } from './kernelTable'

/**
 * Planes [k0, k1): partial[g nz + k] = the sum of v over floating region g's cells in plane k
 * (the cells[planeStart[g (nz + 1) + k] .. planeStart[g (nz + 1) + k + 1]) of its ascending
 * list), for every region g < floating. A region's mean is then its planes' sums added in
 * plane order (components.ts removeMeans): the same on every backend and thread count.
 */
export function regionPlaneSumsSlab(v: Float64Array, cells: Int32Array, planeStart: Int32Array, floating: number, nz: number, partial: Float64Array, k0: number, k1: number): void {
  for (let k = k0; k < k1; k++) {
    for (let g = 0; g < floating; g++) {
      const o = g * (nz + 1) + k
      let s = 0
      for (let t = planeStart[o]; t < planeStart[o + 1]; t++) s += v[cells[t]]
      partial[g * nz + k] = s
    }
  }
}

export const REGION_PLANE_SUMS = defineKernel({
  name: 'regionPlaneSums',
  args: [f64('v'), i32('cells'), i32('planeStart'), int('floating'), int('nz'), f64('partial'), size('cells')],
  split: 'planes',
  range: (a) => a[4] as number,
  work: (a) => a[6] as number,
  ref: regionPlaneSumsSlab,
})

/** Planes [k0, k1): v -= mean[g] on floating region g's cells in the plane, for every region g. */
export function regionSubtractSlab(v: Float64Array, cells: Int32Array, planeStart: Int32Array, floating: number, nz: number, mean: Float64Array, k0: number, k1: number): void {
  for (let k = k0; k < k1; k++) {
    for (let g = 0; g < floating; g++) {
      const o = g * (nz + 1) + k
      const m = mean[g]
      for (let t = planeStart[o]; t < planeStart[o + 1]; t++) v[cells[t]] -= m
    }
  }
}

export const REGION_SUBTRACT = defineKernel({
  name: 'regionSubtract',
  args: [f64('v'), i32('cells'), i32('planeStart'), int('floating'), int('nz'), f64('mean'), size('cells')],
  split: 'planes',
  range: (a) => a[4] as number,
  work: (a) => a[6] as number,
  ref: regionSubtractSlab,
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
