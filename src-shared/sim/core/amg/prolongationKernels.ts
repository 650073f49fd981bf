// The relaxed prolongation (prolongation.ts relaxedProlongation) as two kernel rows over A's
// rows, so the WebAssembly backend builds it on its threads (serial in TypeScript it was a
// quarter of the splitting hierarchy's setup at a million unknowns, over its two big levels):
// - RELAXED_P_COUNT: each row's entry count, Pavg's for a coarse row or one without a positive
//   diagonal (copied as it is), else the distinct columns of the Pavg rows of its coupled
//   neighbours (an upper bound: an exact zero may be dropped);
// - RELAXED_P_FILL: each row at its count's offset, -(1 / A_ii) sum_j A_ij Pavg_j summed in
//   the order of A's row then Pavg's rows, columns sorted, exact zeros dropped, its length
//   written out (csr.ts closeRowGaps closes the gaps).
// Twins in wasm/assembly/amgSetup.ts, the same operations in the same order: the same bits on
// any backend and split. Each pass keeps a dense marker (the fill also a dense accumulator)
// over the coarse variables per thread, the kernels' per-thread scratch, cleared every call.
import { defineKernel, f64, i32, int, type KernelArgs, scratch, size } from '../kernelTable'
import { finishAccumulatedRow, rowDiagonal } from '../sparse/csr'
import { aNnz, aRows } from '../sparse/product'

/** counts[i] for rows [r0, r1) (see the header). mark: cols int32 of scratch. */
export function relaxedCountRows(aPtr: Int32Array, aCol: Int32Array, aVal: Float64Array, coarseIndex: Int32Array, pPtr: Int32Array, pCol: Int32Array, cols: number, counts: Int32Array, scratchMark: Int32Array | null, r0: number, r1: number): void {
  const mark = scratchMark ?? new Int32Array(cols)
  mark.fill(0, 0, cols)
  for (let i = r0; i < r1; i++) {
    const d = rowDiagonal(aPtr, aCol, aVal, i)
    if (coarseIndex[i] >= 0 || !(d > 0)) {
      counts[i] = pPtr[i + 1] - pPtr[i]
      continue
    }
    // Row i stamps i + 1: unique within the call, and never the cleared 0.
    const stamp = i + 1
    let c = 0
    for (let p = aPtr[i]; p < aPtr[i + 1]; p++) {
      const j = aCol[p]
      if (j === i || aVal[p] === 0) continue
      for (let q = pPtr[j]; q < pPtr[j + 1]; q++) {
        if (mark[pCol[q]] !== stamp) {
          mark[pCol[q]] = stamp
          c++
        }
      }
    }
    counts[i] = c
  }
}

/**
 * Rows [r0, r1) of the relaxed P at outPtr (from the count pass), lengths[i] the entries kept.
 * work: cols float64 (the accumulator) then cols int32 (the marker).
 */
export function relaxedFillRows(
  aPtr: Int32Array, aCol: Int32Array, aVal: Float64Array, coarseIndex: Int32Array, pPtr: Int32Array, pCol: Int32Array, pVal: Float64Array, cols: number,
  outPtr: Int32Array, outCol: Int32Array, outVal: Float64Array, lengths: Int32Array, scratchWork: Float64Array | null, r0: number, r1: number,
): void {
  const work = scratchWork ?? new Float64Array(cols + Math.ceil(cols / 2))
  const acc = work.subarray(0, cols)
  const mark = new Int32Array(work.buffer, work.byteOffset + 8 * cols, cols)
  mark.fill(0)
  for (let i = r0; i < r1; i++) {
    const d = rowDiagonal(aPtr, aCol, aVal, i)
    const start = outPtr[i]
    if (coarseIndex[i] >= 0 || !(d > 0)) {
      // Coarse: injection; a fine row without a positive diagonal keeps its average.
      let end = start
      for (let q = pPtr[i]; q < pPtr[i + 1]; q++) {
        outCol[end] = pCol[q]
        outVal[end++] = pVal[q]
      }
      lengths[i] = end - start
      continue
    }
    const stamp = i + 1
    let end = start
    for (let p = aPtr[i]; p < aPtr[i + 1]; p++) {
      const j = aCol[p]
      if (j === i || aVal[p] === 0) continue
      const a = -aVal[p] / d
      for (let q = pPtr[j]; q < pPtr[j + 1]; q++) {
        const c = pCol[q]
        if (mark[c] !== stamp) {
          mark[c] = stamp
          acc[c] = a * pVal[q]
          outCol[end++] = c
        } else acc[c] += a * pVal[q]
      }
    }
    lengths[i] = finishAccumulatedRow(outCol, outVal, acc, start, end) - start
  }
}

const num = (a: KernelArgs, i: number) => a[i] as number

/** relaxedCountRows over A's rows. Args: aPtr, aCol, aVal, coarseIndex, pPtr, pCol, cols, counts, mark, rows. */
export const RELAXED_P_COUNT = defineKernel({
  name: 'relaxedProlongationCount',
  args: [i32('aPtr'), i32('aCol'), f64('aVal'), i32('coarseIndex'), i32('pPtr'), i32('pCol'), int('cols'), i32('counts'), scratch('mark', (a) => 4 * num(a, 6)), size('rows')],
  split: 'rows',
  range: (a) => num(a, 9),
  // Each off-diagonal entry scatters a row of Pavg (a few entries).
  work: (a) => 4 * aNnz(a),
  balance: aRows,
  worker: true,
  ref: relaxedCountRows,
})

/** relaxedFillRows over A's rows. Args: aPtr, aCol, aVal, coarseIndex, pPtr, pCol, pVal, cols, outPtr, outCol, outVal, lengths, work, rows. */
export const RELAXED_P_FILL = defineKernel({
  name: 'relaxedProlongationFill',
  args: [
    i32('aPtr'), i32('aCol'), f64('aVal'), i32('coarseIndex'), i32('pPtr'), i32('pCol'), f64('pVal'), int('cols'),
    i32('outPtr'), i32('outCol'), f64('outVal'), i32('lengths'), scratch('work', (a) => 12 * num(a, 7) + 8), size('rows'),
  ],
  split: 'rows',
  range: (a) => num(a, 13),
  work: (a) => 6 * aNnz(a),
  balance: aRows,
  worker: true,
  ref: relaxedFillRows,
})
