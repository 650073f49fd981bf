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
import { TS_KERNELS } from '../kernelBackend'
import type { KernelBackend } from '../kernelTypes'
import { closeRowGaps, type CsrMatrix } from '../sparse/csr'
import type { Splitting } from './coarsening'
import { RELAXED_P_COUNT, RELAXED_P_FILL } from './prolongationKernels'

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
 * order of A's row then Pavg's rows (deterministic); columns sorted. On `kernels` (default
 * TypeScript; A must then lie in its memory, and P is made there) as two rows split over A's
 * rows (prolongationKernels.ts): a count pass, then the fill at the counts' offsets.
 */
export function relaxedProlongation(A: CsrMatrix, s: Splitting, kernels: KernelBackend = TS_KERNELS, Pavg: CsrMatrix = averagingProlongation(s)): CsrMatrix {
  const { coarse } = s
  const n = A.n
  const onKernels = kernels !== TS_KERNELS
  const i32 = (m: number) => (onKernels ? kernels.i32(m) : new Int32Array(m))
  const f64 = (m: number) => (onKernels ? kernels.f64(m) : new Float64Array(m))
  // The splitting's and Pavg's arrays are plain ones: copied in for the kernels' rows.
  const into = <T extends Int32Array | Float64Array>(a: T, make: (m: number) => T): T => {
    if (!onKernels || kernels.holds(a)) return a
    const b = make(a.length)
    b.set(a)
    return b
  }
  const coarseIndex = into(s.coarseIndex, i32)
  const pPtr = into(Pavg.rowPtr, i32), pCol = into(Pavg.col, i32), pVal = into(Pavg.val, f64)
  const rowPtr = i32(n + 1)
  // Row i's count lands in rowPtr[i + 1]; the prefix sum then turns counts into offsets.
  kernels.run(RELAXED_P_COUNT, A.rowPtr, A.col, A.val, coarseIndex, pPtr, pCol, coarse, rowPtr.subarray(1), null, n)
  for (let i = 0; i < n; i++) rowPtr[i + 1] += rowPtr[i]
  const bound = rowPtr[n]
  const P: CsrMatrix = { n, cols: coarse, rowPtr, col: i32(bound), val: f64(bound) }
  const lengths = i32(n)
  kernels.run(RELAXED_P_FILL, A.rowPtr, A.col, A.val, coarseIndex, pPtr, pCol, pVal, coarse, rowPtr, P.col, P.val, lengths, null, n)
  closeRowGaps(P, lengths)
  return P
}
