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
import type { KernelAllocator } from '../kernelTypes'
import { allocCsr, type CsrMatrix, finishAccumulatedRow } from '../sparse/csr'

export interface Aggregates {
  /** Each variable's aggregate, or -1 for a variable with no neighbour (in none). */
  readonly aggregateOf: Int32Array
  /** Number of aggregates (the coarse level's unknowns). */
  readonly count: number
}

/** The standard aggregation of A's neighbour graph (the header's three phases, in row order). */
export function greedyAggregates(A: CsrMatrix): Aggregates {
  const { n, rowPtr, col, val } = A
  const agg = new Int32Array(n).fill(-1)
  // Variables in phase-1 aggregates, the only ones phase 2 joins (so joins do not chain).
  const phase1 = new Uint8Array(n)
  let count = 0
  // Entry p of row i couples i to another variable (a neighbour in the graph).
  const couples = (i: number, p: number): boolean => col[p] !== i && val[p] !== 0
  const hasNeighbour = (i: number): boolean => {
    for (let p = rowPtr[i]; p < rowPtr[i + 1]; p++) if (couples(i, p)) return true
    return false
  }
  for (let i = 0; i < n; i++) {
    if (agg[i] >= 0 || !hasNeighbour(i)) continue
    let free = true
    for (let p = rowPtr[i]; p < rowPtr[i + 1] && free; p++) if (couples(i, p) && agg[col[p]] >= 0) free = false
    if (!free) continue
    agg[i] = count
    phase1[i] = 1
    for (let p = rowPtr[i]; p < rowPtr[i + 1]; p++) {
      if (!couples(i, p)) continue
      agg[col[p]] = count
      phase1[col[p]] = 1
    }
    count++
  }
  for (let i = 0; i < n; i++) {
    if (agg[i] >= 0) continue
    for (let p = rowPtr[i]; p < rowPtr[i + 1]; p++) {
      if (couples(i, p) && phase1[col[p]] === 1) {
        agg[i] = agg[col[p]]
        break
      }
    }
  }
  for (let i = 0; i < n; i++) {
    if (agg[i] >= 0 || !hasNeighbour(i)) continue
    agg[i] = count
    for (let p = rowPtr[i]; p < rowPtr[i + 1]; p++) if (couples(i, p) && agg[col[p]] < 0) agg[col[p]] = count
    count++
  }
  return { aggregateOf: agg, count }
}

/** Gershgorin's bound on the spectral radius of D^-1 A: max_i sum_j |A_ij| / A_ii over rows with a positive diagonal. */
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
 * exact zeros dropped. A row without a positive diagonal keeps T's row. The arrays come from
 * `alloc` when given (the kernels' memory, so the hierarchy need not copy P there): a first pass
 * counts each row's aggregates, the second fills them (a row shorter for a dropped zero leaves
 * the array's tail unused).
 */
export function smoothedAggregationProlongation(A: CsrMatrix, aggregates: Aggregates, alloc?: KernelAllocator): CsrMatrix {
  const { n, rowPtr: aPtr, col: aCol, val: aVal } = A
  const { aggregateOf: agg, count } = aggregates
  const rho = jacobiRadiusBound(A)
  const omega = rho > 0 ? 4 / (3 * rho) : 0
  const mark = new Int32Array(count).fill(-1)
  let bound = 0
  for (let i = 0; i < n; i++) {
    if (agg[i] >= 0) {
      mark[agg[i]] = i
      bound++
    }
    for (let p = aPtr[i]; p < aPtr[i + 1]; p++) {
      const c = agg[aCol[p]]
      if (c >= 0 && aVal[p] !== 0 && mark[c] !== i) {
        mark[c] = i
        bound++
      }
    }
  }
  const P = allocCsr(n, count, bound, alloc)
  const { rowPtr, col, val } = P
  const acc = new Float64Array(count)
  mark.fill(-1)
  rowPtr[0] = 0
  let end = 0
  for (let i = 0; i < n; i++) {
    let d = 0
    for (let p = aPtr[i]; p < aPtr[i + 1]; p++) if (aCol[p] === i) d += aVal[p]
    const start = end
    const own = agg[i]
    if (own >= 0) {
      mark[own] = i
      acc[own] = 1
      col[end++] = own
    }
    if (d > 0) {
      const s = omega / d
      for (let p = aPtr[i]; p < aPtr[i + 1]; p++) {
        const c = agg[aCol[p]]
        if (c < 0 || aVal[p] === 0) continue
        if (mark[c] !== i) {
          mark[c] = i
          acc[c] = -s * aVal[p]
          col[end++] = c
        } else acc[c] -= s * aVal[p]
      }
    }
    end = finishAccumulatedRow(col, val, acc, start, end)
    rowPtr[i + 1] = end
  }
  return P
}
