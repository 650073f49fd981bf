// Smoothed aggregation's prolongation P = (I - omega D^-1 A) T (aggregation.ts) as two kernel
// rows over A's rows, so the WebAssembly backend builds it on its threads (serial in
// TypeScript it was a fifth of the aggregation hierarchy's setup at a million unknowns):
// - SA_P_COUNT: each row's count of distinct aggregates (its own, and those of its coupled
//   neighbours: an upper bound on P's row, which may lose an exact zero) and its Gershgorin
//   ratio sum_j |A_ij| / A_ii (0 without a positive diagonal), whose maximum bounds rho(D^-1 A);
// - SA_P_FILL: each row at its count's offset, summed in A's row order, columns sorted, exact
//   zeros dropped, its length written out (aggregation.ts closes the gaps).
// Twins in wasm/assembly/amgSetup.ts, the same operations in the same order: the same bits on
// any backend and split. Each pass keeps a dense marker (the fill also a dense accumulator)
// over the aggregates per thread, the kernels' per-thread scratch, cleared at every call.
import { defineKernel, f64, float, i32, int, type KernelArgs, scratch, size } from '../kernelTable'
import { finishAccumulatedRow } from '../sparse/csr'

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
    let d = 0
    for (let p = aPtr[i]; p < aPtr[i + 1]; p++) if (aCol[p] === i) d += aVal[p]
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
const aRows = (a: KernelArgs) => a[0] as Int32Array
const aNnz = (a: KernelArgs) => {
  const p = a[0] as Int32Array
  return p[p.length - 1]
}

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
