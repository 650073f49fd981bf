// Smoothed aggregation's setup (aggregation.ts) as kernel rows, so the WebAssembly backend runs
// it in its memory: the aggregates as a serial row (AGGREGATES: the greedy phases depend on row
// order), and the prolongation P = (I - omega D^-1 A) T as two rows over A's rows split over the
// threads (serial in TypeScript it was a fifth of the hierarchy's setup at a million unknowns):
// - SA_P_COUNT: each row's count of distinct aggregates (its own, and those of its coupled
//   neighbours: an upper bound on P's row, which may lose an exact zero) and its Gershgorin
//   ratio sum_j |A_ij| / A_ii (0 without a positive diagonal), whose maximum bounds rho(D^-1 A);
// - SA_P_FILL: each row at its count's offset, summed in A's row order, columns sorted, exact
//   zeros dropped, its length written out (aggregation.ts closes the gaps).
// Twins in wasm/assembly/amgSetup.ts, the same operations in the same order: the same bits on
// any backend and split. Each pass keeps a dense marker (the fill also a dense accumulator)
// over the aggregates per thread, the kernels' per-thread scratch, cleared at every call.
import { defineKernel, f64, float, i32, int, type KernelArgs, scratch, size } from '../kernelTable'
import { finishAccumulatedRow, rowDiagonal } from '../sparse/csr'
import { aNnz, aRows } from '../sparse/product'

/**
 * greedyAggregates' work on raw arrays: each variable's aggregate into agg[0 .. n) (-1 for
 * none); returns their count. phase1: n bytes of scratch.
 */
export function aggregatesInto(rowPtr: Int32Array, col: Int32Array, val: Float64Array, n: number, agg: Int32Array, phase1: Uint8Array): number {
  agg.fill(-1, 0, n)
  // Variables in phase-1 aggregates, the only ones phase 2 joins (so joins do not chain).
  phase1.fill(0, 0, n)
  let count = 0
  for (let i = 0; i < n; i++) {
    if (agg[i] >= 0 || !hasNeighbour(rowPtr, col, val, i)) continue
    let free = true
    for (let p = rowPtr[i]; p < rowPtr[i + 1] && free; p++) if (col[p] !== i && val[p] !== 0 && agg[col[p]] >= 0) free = false
    if (!free) continue
    agg[i] = count
    phase1[i] = 1
    for (let p = rowPtr[i]; p < rowPtr[i + 1]; p++) {
      // Entry p of row i couples i to another variable (a neighbour in the graph).
      if (col[p] === i || val[p] === 0) continue
      agg[col[p]] = count
      phase1[col[p]] = 1
    }
    count++
  }
  for (let i = 0; i < n; i++) {
    if (agg[i] >= 0) continue
    for (let p = rowPtr[i]; p < rowPtr[i + 1]; p++) {
      if (col[p] !== i && val[p] !== 0 && phase1[col[p]] === 1) {
        agg[i] = agg[col[p]]
        break
      }
    }
  }
  for (let i = 0; i < n; i++) {
    if (agg[i] >= 0 || !hasNeighbour(rowPtr, col, val, i)) continue
    agg[i] = count
    for (let p = rowPtr[i]; p < rowPtr[i + 1]; p++) if (col[p] !== i && val[p] !== 0 && agg[col[p]] < 0) agg[col[p]] = count
    count++
  }
  return count
}

/** Whether row i couples to another variable. */
function hasNeighbour(rowPtr: Int32Array, col: Int32Array, val: Float64Array, i: number): boolean {
  for (let p = rowPtr[i]; p < rowPtr[i + 1]; p++) if (col[p] !== i && val[p] !== 0) return true
  return false
}

/** aggregatesInto as a serial row: agg[0 .. n) the aggregates, agg[n] their count. Args: rowPtr, col, val, n, agg (n + 1 int32), phase1 (n bytes of scratch). */
export const AGGREGATES = defineKernel({
  name: 'aggregatesRows',
  args: [i32('rowPtr'), i32('col'), f64('val'), int('n'), i32('agg'), scratch('phase1', (a) => (a[3] as number) + 8)],
  split: 'rows',
  range: () => 1,
  work: () => 0,
  worker: true,
  ref: (rowPtr: Int32Array, col: Int32Array, val: Float64Array, n: number, agg: Int32Array, phase1: Uint8Array | null) => {
    agg[n] = aggregatesInto(rowPtr, col, val, n, agg, phase1 ?? new Uint8Array(n))
  },
})

/** counts[i] and ratio[i] for rows [r0, r1) (see the header). mark: aggCount int32 of scratch. */
export function saProlongationCountRows(aPtr: Int32Array, aCol: Int32Array, aVal: Float64Array, agg: Int32Array, aggCount: number, counts: Int32Array, ratio: Float64Array, scratchMark: Int32Array | null, r0: number, r1: number): void {
  const mark = scratchMark ?? new Int32Array(aggCount)
  mark.fill(0, 0, aggCount)
  for (let i = r0; i < r1; i++) {
    // Row i stamps i + 1: unique within the call, and never the cleared 0.
    const stamp = i + 1
    let c = 0
    const own = agg[i]
    if (own >= 0) {
      mark[own] = stamp
      c++
    }
    let d = 0, s = 0
    for (let p = aPtr[i]; p < aPtr[i + 1]; p++) {
      const a = aVal[p]
      s += Math.abs(a)
      if (aCol[p] === i) d += a
      const g = agg[aCol[p]]
      if (g >= 0 && a !== 0 && mark[g] !== stamp) {
        mark[g] = stamp
        c++
      }
    }
    counts[i] = c
    ratio[i] = d > 0 ? s / d : 0
  }
}

/**
 * Rows [r0, r1) of P at pPtr (from the count pass): T's 1 at the own aggregate, then
 * -omega A_ij / A_ii at agg(j) along A's row where A_ii > 0; columns sorted, zeros dropped;
 * lengths[i] the entries kept. work: aggCount float64 (the accumulator) then aggCount int32.
 */
export function saProlongationFillRows(
  aPtr: Int32Array, aCol: Int32Array, aVal: Float64Array, agg: Int32Array, aggCount: number, omega: number,
  pPtr: Int32Array, pCol: Int32Array, pVal: Float64Array, lengths: Int32Array, scratchWork: Float64Array | null, r0: number, r1: number,
): void {
  const work = scratchWork ?? new Float64Array(aggCount + Math.ceil(aggCount / 2))
  const acc = work.subarray(0, aggCount)
  const mark = new Int32Array(work.buffer, work.byteOffset + 8 * aggCount, aggCount)
  mark.fill(0)
  for (let i = r0; i < r1; i++) {
    const stamp = i + 1
    const d = rowDiagonal(aPtr, aCol, aVal, i)
    const start = pPtr[i]
    let end = start
    const own = agg[i]
    if (own >= 0) {
      mark[own] = stamp
      acc[own] = 1
      pCol[end++] = own
    }
    if (d > 0) {
      const s = omega / d
      for (let p = aPtr[i]; p < aPtr[i + 1]; p++) {
        const g = agg[aCol[p]]
        if (g < 0 || aVal[p] === 0) continue
        if (mark[g] !== stamp) {
          mark[g] = stamp
          acc[g] = -s * aVal[p]
          pCol[end++] = g
        } else acc[g] -= s * aVal[p]
      }
    }
    lengths[i] = finishAccumulatedRow(pCol, pVal, acc, start, end) - start
  }
}

const num = (a: KernelArgs, i: number) => a[i] as number

/** saProlongationCountRows over A's rows. Args: aPtr, aCol, aVal, agg, aggCount, counts, ratio, mark, rows. */
export const SA_P_COUNT = defineKernel({
  name: 'saProlongationCount',
  args: [i32('aPtr'), i32('aCol'), f64('aVal'), i32('agg'), int('aggCount'), i32('counts'), f64('ratio'), scratch('mark', (a) => 4 * num(a, 4)), size('rows')],
  split: 'rows',
  range: (a) => num(a, 8),
  work: (a) => 2 * aNnz(a),
  balance: aRows,
  worker: true,
  ref: saProlongationCountRows,
})

/** saProlongationFillRows over A's rows. Args: aPtr, aCol, aVal, agg, aggCount, omega, pPtr, pCol, pVal, lengths, work, rows. */
export const SA_P_FILL = defineKernel({
  name: 'saProlongationFill',
  args: [
    i32('aPtr'), i32('aCol'), f64('aVal'), i32('agg'), int('aggCount'), float('omega'),
    i32('pPtr'), i32('pCol'), f64('pVal'), i32('lengths'), scratch('work', (a) => 12 * num(a, 4) + 8), size('rows'),
  ],
  split: 'rows',
  range: (a) => num(a, 11),
  work: (a) => 3 * aNnz(a),
  balance: aRows,
  worker: true,
  ref: saProlongationFillRows,
})
