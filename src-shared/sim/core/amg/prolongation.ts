// The prolongation of Chentanez et al. 2007, sec. 3.5:
//
//   "P_{k,k-1} is a matrix that prolongs a level k-1 solution by assigning each fine level k
//    variable the average of the values of its coarse neighbors from the level k-1 solution.
//    [...] Some researchers advocate using weighted averages based on matrix coefficients
//    [McC87], but we find that simple averages converge faster. They also save memory and
//    time by obviating the need to compute weights."
//
// So a coarse variable keeps its value (its row of P is a single 1 in its own coarse column:
// "coarse variables survive into the coarser level"), and a fine variable with m coarse
// neighbours (in the splitting's neighbour graph, coarsening.ts) gets 1/m from each. Rows sum
// to 1, so P reproduces constants: a closed (pure Neumann) system's null space carries down,
// A_c 1 = P^T A P 1 = P^T A 1 = 0.
//
// A fine variable with no coarse neighbour only arises when it has no neighbour at all (the
// greedy splitting labels every other fine variable as the neighbour of a coarse one); its
// row of P is empty and the smoother, which solves its decoupled row exactly, owns it.
//
// Measured deviation, on by default (AmgOptions.prolongation = 'relaxed'): each fine row of
// the averaging P is then relaxed once against its own equation (one Jacobi step on the fine
// rows of A_k P = 0, weight 1; Stüben 2001, "A review of algebraic multigrid", calls this
// improving an interpolation by Jacobi F-relaxation):
//   P_i = -(1 / A_ii) sum_{j != i} A_ij Pavg_j      (i fine; coarse rows still inject)
// i.e. a fine variable takes the value its own row gives when every neighbour holds the
// paper's average ("algebraically smooth error has a small residual", the principle behind
// AMG interpolation). Where all of a fine variable's neighbours are coarse with equal
// weights (the finest level of a 7-point or 5-point Laplacian, or the tetrahedra's four face
// neighbours, whose graphs are bipartite and split into their two colours) this is the same
// average away from walls; it differs on the Galerkin levels, whose fine variables see coarse
// neighbours at several distances through fine ones. Measured V-cycle convergence factors
// (residual ratio per cycle, cycles 3-8), 3D 7-point Dirichlet Poisson at 10k / 50k / 250k
// unknowns: simple averages 0.36 / 0.44 / 0.46 (over the 0.3, and growing with
// size); relaxed averages 0.04 / 0.05 / 0.05, for an operator complexity of 2.7 instead of
// 2.45 and the same time per cycle (the coarser levels get smaller). Row sums are kept where
// A's row sum is zero, so constants (a closed system's null space) still carry down.
import { type CsrMatrix, finishAccumulatedRow, GrowingRows, nnzOf } from '../sparse/csr'
import type { Splitting } from './coarsening'

/** The n x coarse prolongation of a splitting: injection at coarse variables, simple averages at fine ones. */
export function averagingProlongation(s: Splitting): CsrMatrix {
  const { coarseIndex, coarse, graph } = s
  const { n, ptr, adj } = graph
  const rowPtr = new Int32Array(n + 1)
  for (let i = 0; i < n; i++) {
    let m = 1
    if (coarseIndex[i] < 0) {
      m = 0
      for (let p = ptr[i]; p < ptr[i + 1]; p++) if (coarseIndex[adj[p]] >= 0) m++
    }
    rowPtr[i + 1] = rowPtr[i] + m
  }
  const col = new Int32Array(rowPtr[n])
  const val = new Float64Array(rowPtr[n])
  for (let i = 0; i < n; i++) {
    let q = rowPtr[i]
    if (coarseIndex[i] >= 0) {
      col[q] = coarseIndex[i]
      val[q] = 1
      continue
    }
    const w = 1 / (rowPtr[i + 1] - q)
    // Neighbours are increasing and coarse indices follow variable order: columns come out sorted.
    for (let p = ptr[i]; p < ptr[i + 1]; p++) {
      const c = coarseIndex[adj[p]]
      if (c >= 0) {
        col[q] = c
        val[q++] = w
      }
    }
  }
  return { n, cols: coarse, rowPtr, col, val }
}

/**
 * The averaging P with every fine row relaxed once against A's row (see the header): coarse
 * rows inject, fine row i becomes -(1 / A_ii) sum_{j != i} A_ij Pavg_j. Entries summed in the
 * order of A's row then Pavg's rows (serial, deterministic); columns sorted.
 */
export function relaxedProlongation(A: CsrMatrix, s: Splitting, Pavg: CsrMatrix = averagingProlongation(s)): CsrMatrix {
  const { coarseIndex, coarse } = s
  const n = A.n
  const { rowPtr: aPtr, col: aCol, val: aVal } = A
  const { rowPtr: pPtr, col: pCol, val: pVal } = Pavg
  const acc = new Float64Array(coarse)
  const mark = new Int32Array(coarse).fill(-1)
  const rowPtr = new Int32Array(n + 1)
  // Typed arrays grown by doubling (plain arrays and a comparator sort per row cost most of
  // this function); a fine row's columns are gathered where the row starts, sorted in place.
  const rows = new GrowingRows(2 * nnzOf(Pavg))
  let col = rows.col
  let val = rows.val
  const reserve = (need: number, keep: number) => {
    rows.reserve(need, keep)
    col = rows.col
    val = rows.val
  }
  let end = 0
  for (let i = 0; i < n; i++) {
    let d = 0
    for (let p = aPtr[i]; p < aPtr[i + 1]; p++) if (aCol[p] === i) d += aVal[p]
    if (coarseIndex[i] >= 0 || !(d > 0)) {
      // Coarse: injection; a fine row without a positive diagonal keeps its average.
      if (end + pPtr[i + 1] - pPtr[i] > col.length) reserve(end + pPtr[i + 1] - pPtr[i], end)
      for (let q = pPtr[i]; q < pPtr[i + 1]; q++) {
        col[end] = pCol[q]
        val[end++] = pVal[q]
      }
      rowPtr[i + 1] = end
      continue
    }
    const start = end
    for (let p = aPtr[i]; p < aPtr[i + 1]; p++) {
      const j = aCol[p]
      if (j === i || aVal[p] === 0) continue
      const a = -aVal[p] / d
      if (end + pPtr[j + 1] - pPtr[j] > col.length) reserve(end + pPtr[j + 1] - pPtr[j], end)
      for (let q = pPtr[j]; q < pPtr[j + 1]; q++) {
        const c = pCol[q]
        if (mark[c] !== i) {
          mark[c] = i
          acc[c] = a * pVal[q]
          col[end++] = c
        } else acc[c] += a * pVal[q]
      }
    }
    // Sorted, exact zeros dropped.
    end = finishAccumulatedRow(col, val, acc, start, end)
    rowPtr[i + 1] = end
  }
  return { n, cols: coarse, rowPtr, ...rows.finish(end) }
}
