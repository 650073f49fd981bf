// The pressure multigrid's smoother and residual (pressureMultigrid.ts) as kernel-table rows:
// these TypeScript references, and their AssemblyScript twins (wasm/assembly/pressureMg.ts)
// split over the listed unknowns on the WebAssembly backend's threads. Each level is a
// Stencil7Matrix-shaped operator (stencil7.ts: diag, and ax / ay / az coupling a cell with its
// +x / +y / +z neighbour, 0 across the lattice's ends and next to cells that are not unknowns);
// its unknowns are listed by colour ((i + j + k) even first), and a half sweep visits one
// colour, whose cells read only the other's: any split of the list gives the same bits. The
// smoother runs a whole red-black sweep in one pass over the lattice's planes (pmgSmoothSlab).
import { defineKernel, f64, float, i32, int, size, struct } from '../core/kernelTable'
import { type Stencil7Arrays, stencil7Row } from './activeKernels'
import { colourPairAt, colourPairs } from './colourPairs'

/**
 * One cell's Gauss-Seidel update: x_c = (b_c - sum of couplings x neighbour) / diag_c, or with
 * x taken as 0 when fresh (a cycle's first half sweep), x_c = b_c / diag_c, reading nothing of
 * the neighbours or of x's old value.
 */
function relaxCell(x: Float64Array, b: Float64Array, m: Stencil7Arrays, c: number, fresh: number, nx: number, plane: number, n: number): void {
  const { diag, ax, ay, az } = m
  if (fresh) {
    x[c] = b[c] / diag[c]
    return
  }
  let s = b[c]
  if (c >= 1) s -= ax[c - 1] * x[c - 1]
  if (c + 1 < n) s -= ax[c] * x[c + 1]
  if (c >= nx) s -= ay[c - nx] * x[c - nx]
  if (c + nx < n) s -= ay[c] * x[c + nx]
  if (c >= plane) s -= az[c - plane] * x[c - plane]
  if (c + plane < n) s -= az[c] * x[c + plane]
  x[c] = s / diag[c]
}

/** relaxCell over the listed cells of one colour in lattice plane k (at: the level's plane offsets, see pmgSmoothSlab). */
function relaxPlane(x: Float64Array, b: Float64Array, m: Stencil7Arrays, order: Int32Array, at: Int32Array, colour: number, k: number, fresh: number, nx: number, plane: number, n: number, sz: number): void {
  const base = colour * (sz + 1)
  for (let q = at[base + k], end = at[base + k + 1]; q < end; q++) relaxCell(x, b, m, order[q], fresh, nx, plane, n)
}

/**
 * A whole red-black sweep (first colour, then the other) in one pass over the planes of blocks
 * [q0, q1): a half sweep per colour reads every cache line of the level twice. Block t is the
 * planes [cuts[t], cuts[t + 1]); at[colour * (sz + 1) + k] is where colour's cells of plane k
 * start in order (pressureMultigrid.ts lists them). In plane order, the first colour of plane
 * k, then the second colour of plane k - 1: a cell of either colour reads only the other's
 * (7 points), so the first colour of plane k still sees the second's old values at k - 1 and
 * the second colour of k - 1 sees the first's new ones at k - 2 .. k, as the two half sweeps
 * would give: the same bits. A block leaves the second colour of its first and last planes
 * (pmgSmoothSeamsSlab, after every block is done) unless they are the lattice's ends: another
 * thread's first colour next to them may not have run yet, and theirs must still read these
 * planes' old values. fresh: the first colour's half sweep takes x as 0 (relaxCell).
 */
export function pmgSmoothSlab(x: Float64Array, b: Float64Array, m: Stencil7Arrays, order: Int32Array, at: Int32Array, cuts: Int32Array, first: number, fresh: number, nx: number, plane: number, n: number, sz: number, q0: number, q1: number): void {
  const second = 1 - first
  for (let t = q0; t < q1; t++) {
    const k0 = cuts[t], k1 = cuts[t + 1]
    // The second colour's planes this block updates: the seams excepted.
    const s0 = k0 === 0 ? 0 : k0 + 1, s1 = k1 === sz ? sz : k1 - 1
    for (let k = k0; k <= k1; k++) {
      if (k < k1) relaxPlane(x, b, m, order, at, first, k, fresh, nx, plane, n, sz)
      if (k - 1 >= s0 && k - 1 < s1) relaxPlane(x, b, m, order, at, second, k - 1, 0, nx, plane, n, sz)
    }
  }
}

/** The second colour of the planes pmgSmoothSlab left, for blocks [q0, q1) (first: the sweep's first colour). */
export function pmgSmoothSeamsSlab(x: Float64Array, b: Float64Array, m: Stencil7Arrays, order: Int32Array, at: Int32Array, cuts: Int32Array, first: number, nx: number, plane: number, n: number, sz: number, q0: number, q1: number): void {
  const second = 1 - first
  for (let t = q0; t < q1; t++) {
    const k0 = cuts[t], k1 = cuts[t + 1]
    if (k1 <= k0) continue
    const low = k0 > 0 ? k0 : -1, high = k1 < sz ? k1 - 1 : -1
    if (low >= 0) relaxPlane(x, b, m, order, at, second, low, 0, nx, plane, n, sz)
    if (high >= 0 && high !== low) relaxPlane(x, b, m, order, at, second, high, 0, nx, plane, n, sz)
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

/** The level and its planes' layout, as both smoother rows take them. */
const SMOOTH_LEVEL = [f64('x'), f64('b'), matrix, i32('order'), i32('at'), i32('cuts'), int('first')] as const

/**
 * pmgSmoothSlab over blocks of planes cut by cuts. Args: x, b, m, order, at, cuts, first,
 * fresh, nx, plane, n, sz, count (the level's unknowns, for the pool's choice), blocks.
 */
export const PMG_SMOOTH = defineKernel({
  name: 'pmgSmooth',
  args: [...SMOOTH_LEVEL, int('fresh'), int('nx'), int('plane'), int('n'), int('sz'), size('count'), size('blocks')],
  split: 'rows',
  range: (a) => a[13] as number,
  // Two half sweeps of seven products a cell.
  work: (a) => 14 * (a[12] as number),
  ref: pmgSmoothSlab,
})

/** pmgSmoothSeamsSlab over the blocks. Args: x, b, m, order, at, cuts, first, nx, plane, n, sz, count (the seams' cells), blocks. */
export const PMG_SMOOTH_SEAMS = defineKernel({
  name: 'pmgSmoothSeams',
  args: [...SMOOTH_LEVEL, int('nx'), int('plane'), int('n'), int('sz'), size('count'), size('blocks')],
  split: 'rows',
  range: (a) => a[12] as number,
  work: (a) => 7 * (a[11] as number),
  ref: pmgSmoothSeamsSlab,
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
