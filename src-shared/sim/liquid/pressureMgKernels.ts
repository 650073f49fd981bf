// The pressure multigrid's smoother and residual (pressureMultigrid.ts) as kernel-table rows:
// these TypeScript references, and their AssemblyScript twins (wasm/assembly/pressureMg.ts)
// split over the listed unknowns on the WebAssembly backend's threads. Each level is a
// Stencil7Matrix-shaped operator (stencil7.ts: diag, and ax / ay / az coupling a cell with its
// +x / +y / +z neighbour, 0 across the lattice's ends and next to cells that are not unknowns);
// its unknowns are listed by colour ((i + j + k) even first), and a half sweep visits one
// colour, whose cells read only the other's: any split of the list gives the same bits.
import { defineKernel, f64, float, i32, int, size, struct } from '../core/kernelTable'
import { type Stencil7Arrays, stencil7Row } from './activeKernels'
import { colourPairAt, colourPairs } from './colourPairs'

/**
 * x_c = (b_c - sum of couplings x neighbour) / diag_c for the listed cells order[begin + q],
 * q in [q0, q1). fresh: x is taken as 0 before the sweep (a cycle's first half sweep), so
 * x_c = b_c / diag_c and nothing is read of the neighbours or of x's old values.
 */
export function pmgSweepSlab(x: Float64Array, b: Float64Array, m: Stencil7Arrays, order: Int32Array, begin: number, fresh: number, nx: number, plane: number, n: number, q0: number, q1: number): void {
  const { diag, ax, ay, az } = m
  if (fresh) {
    for (let q = begin + q0; q < begin + q1; q++) {
      const c = order[q]
      x[c] = b[c] / diag[c]
    }
    return
  }
  for (let q = begin + q0; q < begin + q1; q++) {
    const c = order[q]
    let s = b[c]
    if (c >= 1) s -= ax[c - 1] * x[c - 1]
    if (c + 1 < n) s -= ax[c] * x[c + 1]
    if (c >= nx) s -= ay[c - nx] * x[c - nx]
    if (c + nx < n) s -= ay[c] * x[c + nx]
    if (c >= plane) s -= az[c - plane] * x[c - plane]
    if (c + plane < n) s -= az[c] * x[c + plane]
    x[c] = s / diag[c]
  }
}

/** r_c = b_c - (m x)_c for the listed cells of colour pairs [q0, q1) (colourPairs.ts; red: the level's red count). */
export function pmgResidualSlab(r: Float64Array, b: Float64Array, x: Float64Array, m: Stencil7Arrays, order: Int32Array, red: number, count: number, nx: number, plane: number, n: number, q0: number, q1: number): void {
  for (let colour = 0; colour < 2; colour++) {
    const end = colourPairAt(colour, q1, red, count)
    for (let q = colourPairAt(colour, q0, red, count); q < end; q++) {
      const c = order[q]
      r[c] = b[c] - stencil7Row(m, x, c, nx, plane, n)
    }
  }
}

/** A listed cell's lattice coordinates, packed (pressureMultigrid.ts: i | j << 10 | k << 20). */
export const PACK_BITS = 10
const MASK = (1 << PACK_BITS) - 1

/**
 * xf_c += xc_parent(c) for the listed fine unknowns of colour pairs [q0, q1) (colourPairs.ts; red:
 * the level's red count): the aggregation prolongation (a coarse cell's value copied to its
 * 2x2x2 children), ijk[q] the cell's packed coordinates, cx and cplane the coarse strides.
 */
export function pmgProlongSlab(xf: Float64Array, xc: Float64Array, order: Int32Array, ijk: Int32Array, cx: number, cplane: number, red: number, count: number, q0: number, q1: number): void {
  for (let colour = 0; colour < 2; colour++) {
    const end = colourPairAt(colour, q1, red, count)
    for (let q = colourPairAt(colour, q0, red, count); q < end; q++) {
      const p = ijk[q]
      const i = p & MASK, j = (p >> PACK_BITS) & MASK, k = p >> (2 * PACK_BITS)
      const c = order[q]
      xf[c] += xc[(i >> 1) + cx * (j >> 1) + cplane * (k >> 1)]
    }
  }
}

/**
 * bc_C = alpha * (sum of the fine residual over C's 2x2x2 children) for the listed coarse
 * unknowns of colour pairs [q0, q1) (colourPairs.ts; red: the coarse level's red count) (alpha P^T
 * rf, P the aggregation; children in x, then y, then z order). The fine residual must be 0
 * wherever it is not an unknown. (sx, sy, sz): the fine lattice.
 */
export function pmgRestrictSlab(bc: Float64Array, rf: Float64Array, order: Int32Array, ijk: Int32Array, alpha: number, sx: number, sy: number, sz: number, red: number, count: number, q0: number, q1: number): void {
  const plane = sx * sy
  for (let colour = 0; colour < 2; colour++) {
    const end = colourPairAt(colour, q1, red, count)
    for (let q = colourPairAt(colour, q0, red, count); q < end; q++) {
      const p = ijk[q]
      const I = p & MASK, J = (p >> PACK_BITS) & MASK, K = p >> (2 * PACK_BITS)
      const i1 = Math.min(2 * I + 2, sx), j1 = Math.min(2 * J + 2, sy), k1 = Math.min(2 * K + 2, sz)
      let s = 0
      for (let k = 2 * K; k < k1; k++) for (let j = 2 * J; j < j1; j++) for (let i = 2 * I; i < i1; i++) s += rf[i + sx * j + plane * k]
      bc[order[q]] = alpha * s
    }
  }
}

const matrix = struct('m', { diag: 'f64', ax: 'f64', ay: 'f64', az: 'f64' })

/** pmgProlongSlab over count listed cells, red of them red. Args: xf, xc, order, ijk, cx, cplane, red, count. */
export const PMG_PROLONG = defineKernel({
  name: 'pmgProlong',
  args: [f64('xf'), f64('xc'), i32('order'), i32('ijk'), int('cx'), int('cplane'), int('red'), int('count')],
  split: 'rows',
  range: (a) => colourPairs(a[6] as number, a[7] as number),
  work: (a) => 2 * (a[7] as number),
  ref: pmgProlongSlab,
})

/** pmgRestrictSlab over count listed coarse cells, red of them red. Args: bc, rf, order, ijk, alpha, sx, sy, sz, red, count. */
export const PMG_RESTRICT = defineKernel({
  name: 'pmgRestrict',
  args: [f64('bc'), f64('rf'), i32('order'), i32('ijk'), float('alpha'), int('sx'), int('sy'), int('sz'), int('red'), int('count')],
  split: 'rows',
  range: (a) => colourPairs(a[8] as number, a[9] as number),
  work: (a) => 8 * (a[9] as number),
  ref: pmgRestrictSlab,
})

/** pmgSweepSlab over count listed cells from begin. Args: x, b, m, order, begin, fresh, nx, plane, n, count. */
export const PMG_SWEEP = defineKernel({
  name: 'pmgSweep',
  args: [f64('x'), f64('b'), matrix, i32('order'), int('begin'), int('fresh'), int('nx'), int('plane'), int('n'), size('count')],
  split: 'rows',
  range: (a) => a[9] as number,
  // Seven products a cell; the pool runs small levels on the calling thread.
  work: (a) => 7 * (a[9] as number),
  ref: pmgSweepSlab,
})

/** pmgResidualSlab over count listed cells, red of them red. Args: r, b, x, m, order, red, count, nx, plane, n. */
export const PMG_RESIDUAL = defineKernel({
  name: 'pmgResidual',
  args: [f64('r'), f64('b'), f64('x'), matrix, i32('order'), int('red'), int('count'), int('nx'), int('plane'), int('n')],
  split: 'rows',
  range: (a) => colourPairs(a[5] as number, a[6] as number),
  work: (a) => 7 * (a[6] as number),
  ref: pmgResidualSlab,
})
