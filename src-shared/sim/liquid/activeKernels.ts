// The ghost-fluid pressure's PCG kernels over the unknown cells (activePcg.ts) as kernel-table
// rows: the matrix product and the vector updates with their per-plane reductions run as these
// TypeScript references on the TypeScript backend and as their AssemblyScript twins
// (wasm/assembly/active.ts) split over z-planes on the WebAssembly backend's threads. A plane's
// unknowns are cells[planeStart[k] .. planeStart[k + 1]); each call writes only its planes'
// unknowns and its planes' partial sums, which run() adds in plane order: the same bits on any
// number of threads.
//
// MIC(0)'s factor and triangular solves are sequential: row c of the forward solve needs rows c - 1,
// c - nx and c - nx ny. They run as one row over "bands" of grid rows j (the same j range in
// every plane), one band per thread, pipelined: band b solves plane k once band b - 1 has
// solved plane k (the only rows of another band it reads are in the same plane), so the bands
// run one plane apart. The backward solve runs the other way, band b after band b + 1. Every
// z_c is the same expression of the same finished values as in the serial loops, so the bits
// do not depend on the number of bands or threads.
import { defineKernel, f64, float, i32, int, type KernelArgs, planeRow, size, struct } from '../core/kernelTable'

/** The 7-point matrix's arrays (Stencil7Matrix's fields of these names). */
export interface Stencil7Arrays {
  diag: Float64Array
  ax: Float64Array
  ay: Float64Array
  az: Float64Array
}

/**
 * Row c of m x: the diagonal's product, then the -x, +x, -y, +y, -z, +z neighbours' (the order
 * every 7-point product here sums in), on a lattice of n cells, rows of nx, planes of plane.
 */
export function stencil7Row(m: Stencil7Arrays, x: Float64Array, c: number, nx: number, plane: number, n: number): number {
  const { diag, ax, ay, az } = m
  let s = diag[c] * x[c]
  if (c >= 1) s += ax[c - 1] * x[c - 1]
  if (c + 1 < n) s += ax[c] * x[c + 1]
  if (c >= nx) s += ay[c - nx] * x[c - nx]
  if (c + nx < n) s += ay[c] * x[c + nx]
  if (c >= plane) s += az[c - plane] * x[c - plane]
  if (c + plane < n) s += az[c] * x[c + plane]
  return s
}

/** out = m x on the unknowns of planes [k0, k1) (Stencil7Matrix.apply's expressions). */
export function activeApplySlab(out: Float64Array, x: Float64Array, m: Stencil7Arrays, cells: Int32Array, planeStart: Int32Array, nx: number, ny: number, nz: number, k0: number, k1: number): void {
  const plane = nx * ny
  const n = plane * nz
  const end = planeStart[k1]
  for (let t = planeStart[k0]; t < end; t++) {
    const c = cells[t]
    out[c] = stencil7Row(m, x, c, nx, plane, n)
  }
}

/** partial[k] = sum of a_c b_c over plane k's unknowns, planes [k0, k1). */
export function activeDotSlab(a: Float64Array, b: Float64Array, cells: Int32Array, planeStart: Int32Array, partial: Float64Array, k0: number, k1: number): void {
  for (let k = k0; k < k1; k++) {
    let s = 0
    const end = planeStart[k + 1]
    for (let t = planeStart[k]; t < end; t++) {
      const c = cells[t]
      s += a[c] * b[c]
    }
    partial[k] = s
  }
}

/** x += alpha s; r -= alpha q; partial[k] = |r|^2 over plane k's unknowns, planes [k0, k1). */
export function activeUpdateIterateSlab(x: Float64Array, r: Float64Array, s: Float64Array, q: Float64Array, alpha: number, cells: Int32Array, planeStart: Int32Array, partial: Float64Array, k0: number, k1: number): void {
  for (let k = k0; k < k1; k++) {
    let part = 0
    const end = planeStart[k + 1]
    for (let t = planeStart[k]; t < end; t++) {
      const c = cells[t]
      x[c] += alpha * s[c]
      const rc = r[c] - alpha * q[c]
      r[c] = rc
      part += rc * rc
    }
    partial[k] = part
  }
}

/** s = z + beta s on the unknowns of planes [k0, k1). */
export function activeUpdateSearchSlab(s: Float64Array, z: Float64Array, beta: number, cells: Int32Array, planeStart: Int32Array, k0: number, k1: number): void {
  const end = planeStart[k1]
  for (let t = planeStart[k0]; t < end; t++) {
    const c = cells[t]
    s[c] = z[c] + beta * s[c]
  }
}

/** The arrays MIC(0)'s solves read of the matrix (Stencil7Matrix's off-diagonals). */
export interface OffDiagonals {
  ax: Float64Array
  ay: Float64Array
  az: Float64Array
}

/**
 * z = (L L^T)^-1 r over the unknowns of bands [b0, b1) (Stencil7Mic0.apply's expressions; prec
 * = 1/sqrt(e_c) of the factor). Band b of plane k is cells[bandStart[k bands + b] ..
 * bandStart[k bands + b + 1]). Forward over the bands in order, then backward over them in
 * reverse: run serially over any bands this is the serial solve reordered along its
 * dependencies. (The WebAssembly twin also publishes each band's finished planes in
 * `progress`, 2 bands int32 zeroed by the caller, and waits on its neighbours' there; the
 * reference runs on one thread and has nothing to wait for.)
 */
export function activeMicApplySlab(r: Float64Array, z: Float64Array, prec: Float64Array, m: OffDiagonals, cells: Int32Array, bandStart: Int32Array, progress: Int32Array, nx: number, ny: number, nz: number, bands: number, b0: number, b1: number): void {
  const { ax, ay, az } = m
  const plane = nx * ny
  const n = plane * nz
  for (let b = b0; b < b1; b++) {
    for (let k = 0; k < nz; k++) {
      const end = bandStart[k * bands + b + 1]
      for (let t = bandStart[k * bands + b]; t < end; t++) {
        const c = cells[t]
        const p = prec[c]
        let v = r[c]
        if (c >= 1) v -= ax[c - 1] * prec[c - 1] * z[c - 1]
        if (c >= nx) v -= ay[c - nx] * prec[c - nx] * z[c - nx]
        if (c >= plane) v -= az[c - plane] * prec[c - plane] * z[c - plane]
        z[c] = v * p
      }
    }
  }
  for (let b = b1 - 1; b >= b0; b--) {
    for (let k = nz - 1; k >= 0; k--) {
      const start = bandStart[k * bands + b]
      for (let t = bandStart[k * bands + b + 1] - 1; t >= start; t--) {
        const c = cells[t]
        const p = prec[c]
        let v = z[c]
        if (c + 1 < n) v -= ax[c] * p * z[c + 1]
        if (c + nx < n) v -= ay[c] * p * z[c + nx]
        if (c + plane < n) v -= az[c] * p * z[c + plane]
        z[c] = v * p
      }
    }
  }
}

/**
 * MIC(0)'s factor over the unknowns of bands [b0, b1) (Stencil7Mic0.factor's expressions):
 * prec_c = 1 / sqrt(e_c) from the rows c - 1, c - nx, c - nx ny before it, each band's planes
 * in order after band b - 1's same plane (the WebAssembly twin waits on `progress`, bands
 * int32 zeroed by the caller). prec must be 0 on every cell that is not an unknown.
 */
export function activeMicFactorSlab(prec: Float64Array, m: Stencil7Arrays, cells: Int32Array, bandStart: Int32Array, progress: Int32Array, nx: number, ny: number, nz: number, bands: number, tuning: number, safety: number, b0: number, b1: number): void {
  const { diag, ax, ay, az } = m
  const plane = nx * ny
  for (let b = b0; b < b1; b++) {
    for (let k = 0; k < nz; k++) {
      const end = bandStart[k * bands + b + 1]
      for (let t = bandStart[k * bands + b]; t < end; t++) {
        const c = cells[t]
        const d = diag[c]
        let e = d
        if (c >= 1) {
          const a = ax[c - 1],
            p = prec[c - 1]
          e -= (a * p) ** 2 + tuning * a * (ay[c - 1] + az[c - 1]) * p * p
        }
        if (c >= nx) {
          const a = ay[c - nx],
            p = prec[c - nx]
          e -= (a * p) ** 2 + tuning * a * (ax[c - nx] + az[c - nx]) * p * p
        }
        if (c >= plane) {
          const a = az[c - plane],
            p = prec[c - plane]
          e -= (a * p) ** 2 + tuning * a * (ax[c - plane] + ay[c - plane]) * p * p
        }
        if (e < safety * d) e = d
        prec[c] = 1 / Math.sqrt(e)
      }
    }
  }
}

const num = (a: KernelArgs, i: number) => a[i] as number
/** Unknowns in all planes: planeStart[nz]. */
const unknowns = (a: KernelArgs, starts: number, nz: number) => (a[starts] as Int32Array)[num(a, nz)]

export const ACTIVE_APPLY = defineKernel({
  name: 'activeApply',
  args: [f64('out'), f64('x'), struct('m', { diag: 'f64', ax: 'f64', ay: 'f64', az: 'f64' }), i32('cells'), i32('planeStart'), int('nx'), int('ny'), int('nz')],
  split: 'planes',
  range: (a) => num(a, 7),
  work: (a) => 7 * unknowns(a, 4, 7),
  // planeStart is the cumulative unknown count: threads get equal numbers of unknowns.
  balance: (a) => a[4] as Int32Array,
  ref: activeApplySlab,
})

export const ACTIVE_DOT = defineKernel({
  name: 'activeDot',
  args: [f64('a'), f64('b'), i32('cells'), i32('planeStart'), f64('partial'), size('nz')],
  split: 'planes',
  range: (a) => num(a, 5),
  partials: 'partial',
  work: (a) => unknowns(a, 3, 5),
  balance: (a) => a[3] as Int32Array,
  ref: activeDotSlab,
})

export const ACTIVE_UPDATE_ITERATE = defineKernel({
  name: 'activeUpdateIterate',
  args: [f64('x'), f64('r'), f64('s'), f64('q'), float('alpha'), i32('cells'), i32('planeStart'), f64('partial'), size('nz')],
  split: 'planes',
  range: (a) => num(a, 8),
  partials: 'partial',
  work: (a) => 3 * unknowns(a, 6, 8),
  balance: (a) => a[6] as Int32Array,
  ref: activeUpdateIterateSlab,
})

export const ACTIVE_UPDATE_SEARCH = defineKernel({
  name: 'activeUpdateSearch',
  args: [f64('s'), f64('z'), float('beta'), i32('cells'), i32('planeStart'), size('nz')],
  split: 'planes',
  range: (a) => num(a, 5),
  work: (a) => unknowns(a, 4, 5),
  balance: (a) => a[4] as Int32Array,
  ref: activeUpdateSearchSlab,
})

export const ACTIVE_MIC_APPLY = defineKernel({
  name: 'activeMicApply',
  args: [f64('r'), f64('z'), f64('prec'), struct('m', { ax: 'f64', ay: 'f64', az: 'f64' }), i32('cells'), i32('bandStart'), i32('progress'), int('nx'), int('ny'), int('nz'), int('bands')],
  split: 'rows',
  // One index per band: the pool gives each thread one band (contiguous, in thread order).
  range: (a) => num(a, 10),
  work: (a) => 10 * (a[5] as Int32Array)[num(a, 9) * num(a, 10)],
  ref: activeMicApplySlab,
})

export const ACTIVE_MIC_FACTOR = defineKernel({
  name: 'activeMicFactor',
  args: [f64('prec'), struct('m', { diag: 'f64', ax: 'f64', ay: 'f64', az: 'f64' }), i32('cells'), i32('bandStart'), i32('progress'), int('nx'), int('ny'), int('nz'), int('bands'), float('tuning'), float('safety')],
  split: 'rows',
  range: (a) => num(a, 8),
  work: (a) => 10 * (a[3] as Int32Array)[num(a, 7) * num(a, 8)],
  ref: activeMicFactorSlab,
})

/**
 * The unknowns' census over cell planes [k0, k1) (ActiveCells.gather): rowCount[ny k + j] =
 * the cells of grid row j of plane k with diag != 0.
 */
export function activeRowCountSlab(diag: Float64Array, rowCount: Int32Array, nx: number, ny: number, k0: number, k1: number): void {
  for (let k = k0; k < k1; k++) {
    for (let j = 0; j < ny; j++) {
      let n = 0
      const row = nx * (j + ny * k)
      for (let c = row; c < row + nx; c++) if (diag[c] !== 0) n++
      rowCount[ny * k + j] = n
    }
  }
}

/** The unknowns of planes [k0, k1) in increasing index order, plane k's from cells[planeStart[k]]. */
export function activeListSlab(diag: Float64Array, cells: Int32Array, planeStart: Int32Array, plane: number, k0: number, k1: number): void {
  for (let k = k0; k < k1; k++) {
    let t = planeStart[k]
    const end = (k + 1) * plane
    for (let c = k * plane; c < end; c++) if (diag[c] !== 0) cells[t++] = c
  }
}

export const ACTIVE_ROW_COUNT = defineKernel({
  name: 'activeRowCount',
  args: [f64('diag'), i32('rowCount'), int('nx'), int('ny'), size('nz')],
  split: 'planes',
  range: (a) => num(a, 4),
  work: (a) => num(a, 2) * num(a, 3) * num(a, 4),
  ref: activeRowCountSlab,
})

export const ACTIVE_LIST = planeRow('activeList', [f64('diag'), i32('cells'), i32('planeStart'), int('plane'), size('nz')], 1, activeListSlab)

