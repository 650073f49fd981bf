// Smoothed aggregation (Vaněk, Mandel and Brezina 1996, "Algebraic multigrid by smoothed
// aggregation for second and fourth order elliptic problems", Computing 56), the alternative
// to the paper's coarse/fine splitting (AmgOptions.coarsening = 'aggregation'):
//
// - Aggregates (their sec. 3, "standard" aggregation as PyAMG implements it): phase 1 takes,
//   in row order, each variable whose neighbours are all still free, with those neighbours, as
//   a new aggregate (its root's neighbourhood); phase 2 gives each variable left over to the
//   aggregate of a phase-1 neighbour; phase 3 makes aggregates of what is left and its free
//   neighbours. Neighbours are A's off-diagonal non-zeros (PyAMG's default strength, theta 0,
//   for the pressure Laplacians here: every coupling is strong). A variable with no neighbour
//   at all is in no aggregate: its row of P is empty and the smoother, which solves its
//   decoupled row exactly, owns it (as with the splitting's prolongation).
// - The tentative prolongation T: T_i,agg(i) = 1, which reproduces the constant, the
//   Laplacian's null space.
// - The smoothed prolongation P = (I - omega D^-1 A) T, omega = 4 / (3 rho(D^-1 A)) (their
//   eq. 4.3's choice; rho bounded by Gershgorin: max_i sum_j |A_ij| / A_ii, 2 for a
//   Laplacian): each fine variable interpolates from its own aggregate and its neighbours'.
//   Where A's row sums to zero (a closed system), P's row sums to one, so constants carry down.
//
// Why it is here: the splitting keeps 44% of a tetrahedral matrix's unknowns as coarse ones
// and its relaxed prolongation spreads each over two rings, so the first Galerkin level holds
// more entries than the finest (operator complexity 3.2-3.3 on the ball); aggregates of a root
// and its neighbours keep about a sixth (complexity 1.8), cheaper to build and to cycle though
// each cycle reduces the error less. The tetrahedral liquid, which builds a hierarchy every
// substep, gains from it; the hybrid gas, which builds one per bake, does not (README).
import { TS_KERNELS } from '../kernelBackend'
import type { KernelBackend } from '../kernelTypes'
import { closeRowGaps, type CsrMatrix } from '../sparse/csr'
import { AGGREGATES, aggregatesInto, SA_P_COUNT, SA_P_FILL } from './aggregationKernels'

export interface Aggregates {
  /** Each variable's aggregate, or -1 for a variable with no neighbour (in none). */
  readonly aggregateOf: Int32Array
  /** Number of aggregates (the coarse level's unknowns). */
  readonly count: number
}

/**
 * The standard aggregation of A's neighbour graph (the header's three phases, in row order). On
 * `kernels` (A in its memory) the WebAssembly twin of aggregatesInto runs it (a serial row).
 */
export function greedyAggregates(A: CsrMatrix, kernels: KernelBackend = TS_KERNELS): Aggregates {
  const { n, rowPtr, col, val } = A
  if (kernels === TS_KERNELS) {
    const agg = new Int32Array(n)
    return { aggregateOf: agg, count: aggregatesInto(rowPtr, col, val, n, agg, new Uint8Array(n)) }
  }
  const agg = kernels.i32(n + 1)
  kernels.run(AGGREGATES, rowPtr, col, val, n, agg, null)
  return { aggregateOf: agg.subarray(0, n), count: agg[n] }
}

/**
 * Gershgorin's bound on the spectral radius of D^-1 A: max_i sum_j |A_ij| / A_ii over rows with a
 * positive diagonal. The prolongation takes the same maximum from its count pass's ratios; this
 * is the definition the tests check P against.
 */
export function jacobiRadiusBound(A: CsrMatrix): number {
  const { n, rowPtr, col, val } = A
  let rho = 0
  for (let i = 0; i < n; i++) {
    let d = 0, s = 0
    for (let p = rowPtr[i]; p < rowPtr[i + 1]; p++) {
      s += Math.abs(val[p])
      if (col[p] === i) d += val[p]
    }
    if (d > 0 && s / d > rho) rho = s / d
  }
  return rho
}

/**
 * P = (I - omega D^-1 A) T for the aggregates' tentative T (see the header), omega =
 * 4 / (3 rho) with rho = jacobiRadiusBound(A). Row i: T's 1 at agg(i), minus omega A_ij / A_ii
 * at agg(j) for each j of A's row (i itself included), summed in A's row order; columns sorted,
 * exact zeros dropped. A row without a positive diagonal keeps T's row. On `kernels` (default
 * TypeScript; P's arrays are then made in the kernels' memory) as two rows split over A's rows
 * (aggregationKernels.ts): a first pass counts each row's aggregates and its Gershgorin ratio,
 * the second fills every row at its count's offset; rows shortened by a dropped zero are then
 * moved together (the array's tail past the last row is left unused).
 */
export function smoothedAggregationProlongation(A: CsrMatrix, aggregates: Aggregates, kernels: KernelBackend = TS_KERNELS): CsrMatrix {
  const { n } = A
  const { aggregateOf: agg, count } = aggregates
  const onKernels = kernels !== TS_KERNELS
  const aggOn = onKernels && !kernels.holds(agg) ? kernels.i32(n) : agg
  if (aggOn !== agg) aggOn.set(agg)
  const rowPtr = onKernels ? kernels.i32(n + 1) : new Int32Array(n + 1)
  const ratio = onKernels ? kernels.f64(n) : new Float64Array(n)
  // Row i's count lands in rowPtr[i + 1]; the prefix sum then turns counts into offsets.
  kernels.run(SA_P_COUNT, A.rowPtr, A.col, A.val, aggOn, count, rowPtr.subarray(1), ratio, null, n)
  let rho = 0
  for (let i = 0; i < n; i++) if (ratio[i] > rho) rho = ratio[i]
  const omega = rho > 0 ? 4 / (3 * rho) : 0
  for (let i = 0; i < n; i++) rowPtr[i + 1] += rowPtr[i]
  const bound = rowPtr[n]
  const P: CsrMatrix = { n, cols: count, rowPtr, col: onKernels ? kernels.i32(bound) : new Int32Array(bound), val: onKernels ? kernels.f64(bound) : new Float64Array(bound) }
  // The fill's row lengths reuse the ratios' array (read above, no longer needed) as int32s.
  const lengths = new Int32Array(ratio.buffer, ratio.byteOffset, n)
  kernels.run(SA_P_FILL, A.rowPtr, A.col, A.val, aggOn, count, omega, rowPtr, P.col, P.val, lengths, null, n)
  closeRowGaps(P, lengths)
  return P
}
