// Twins of src-shared/sim/core/amg/aggregationKernels.ts: smoothed aggregation's prolongation
// in two passes over a range of A's rows, the same counts, ratios, entries, values and column
// order as the references to the bit. Per thread, a scratch block holds the dense marker over
// the aggregates (the fill: the accumulator, float64, then the marker), cleared at every call.
import { rf64, ri32, wf64, wi32 } from './common'
import { finishRow } from './sortRun'

export function saProlongationCount(
  aPtr: usize, aCol: usize, aVal: usize, agg: usize, aggCount: i32, counts: usize, ratio: usize, markBase: usize, markStride: usize, r0: i32, r1: i32, worker: i32,
): void {
  const mark = markBase + <usize>worker * markStride
  memory.fill(mark, 0, <usize>aggCount << 2)
  for (let i = r0; i < r1; i++) {
    const stamp = i + 1
    let c = 0
    const own = ri32(agg, i)
    if (own >= 0) {
      wi32(mark, own, stamp)
      c++
    }
    let d: f64 = 0, s: f64 = 0
    const pe = ri32(aPtr, i + 1)
    for (let p = ri32(aPtr, i); p < pe; p++) {
      const a = rf64(aVal, p)
      const j = ri32(aCol, p)
      s += Math.abs(a)
      if (j == i) d += a
      const g = ri32(agg, j)
      if (g >= 0 && a != 0 && ri32(mark, g) != stamp) {
        wi32(mark, g, stamp)
        c++
      }
    }
    wi32(counts, i, c)
    wf64(ratio, i, d > 0 ? s / d : 0)
  }
}

export function saProlongationFill(
  aPtr: usize, aCol: usize, aVal: usize, agg: usize, aggCount: i32, omega: f64,
  pPtr: usize, pCol: usize, pVal: usize, lengths: usize, workBase: usize, workStride: usize, r0: i32, r1: i32, worker: i32,
): void {
  const acc = workBase + <usize>worker * workStride
  const mark = acc + (<usize>aggCount << 3)
  memory.fill(mark, 0, <usize>aggCount << 2)
  for (let i = r0; i < r1; i++) {
    const stamp = i + 1
    const p0 = ri32(aPtr, i), pe = ri32(aPtr, i + 1)
    const d = diagonalOf(aPtr, aCol, aVal, i)
    const start = ri32(pPtr, i)
    let end = start
    const own = ri32(agg, i)
    if (own >= 0) {
      wi32(mark, own, stamp)
      wf64(acc, own, 1)
      wi32(pCol, end++, own)
    }
    if (d > 0) {
      const s = omega / d
      for (let p = p0; p < pe; p++) {
        const g = ri32(agg, ri32(aCol, p))
        const a = rf64(aVal, p)
        if (g < 0 || a == 0) continue
        if (ri32(mark, g) != stamp) {
          wi32(mark, g, stamp)
          wf64(acc, g, -s * a)
          wi32(pCol, end++, g)
        } else wf64(acc, g, rf64(acc, g) - s * a)
      }
    }
    wi32(lengths, i, finishRow(pCol, pVal, acc, start, end) - start)
  }
}

/** csr.ts transposeInto (one call: a serial row). next: cols int32 of scratch. */
export function transposeCsrRows(
  rowPtr: usize, col: usize, val: usize, n: i32, cols: i32, tPtr: usize, tCol: usize, tVal: usize, nextBase: usize, nextStride: usize, k0: i32, k1: i32, worker: i32,
): void {
  const next = nextBase + <usize>worker * nextStride
  const nnz = ri32(rowPtr, n)
  memory.fill(tPtr, 0, <usize>(cols + 1) << 2)
  for (let p = 0; p < nnz; p++) {
    const c = ri32(col, p) + 1
    wi32(tPtr, c, ri32(tPtr, c) + 1)
  }
  for (let j = 0; j < cols; j++) wi32(tPtr, j + 1, ri32(tPtr, j + 1) + ri32(tPtr, j))
  memory.copy(next, tPtr, <usize>cols << 2)
  for (let i = 0; i < n; i++) {
    const pe = ri32(rowPtr, i + 1)
    for (let p = ri32(rowPtr, i); p < pe; p++) {
      const c = ri32(col, p)
      const q = ri32(next, c)
      wi32(next, c, q + 1)
      wi32(tCol, q, i)
      wf64(tVal, q, rf64(val, p))
    }
  }
}

/** csr.ts symmetriseInPlace (one call: a serial row); flag[0] = 1 when done, 0 for an unsymmetric pattern. next: n int32 of scratch. */
export function symmetriseCsrRows(rowPtr: usize, col: usize, val: usize, n: i32, nextBase: usize, nextStride: usize, flag: usize, k0: i32, k1: i32, worker: i32): void {
  const next = nextBase + <usize>worker * nextStride
  // symmetricPattern: a cursor per row pairs every upper entry with its mirror.
  memory.copy(next, rowPtr, <usize>n << 2)
  for (let i = 0; i < n; i++) {
    const pe = ri32(rowPtr, i + 1)
    for (let p = ri32(rowPtr, i); p < pe; p++) {
      const j = ri32(col, p)
      if (j <= i) continue
      const q = ri32(next, j)
      if (q >= ri32(rowPtr, j + 1) || ri32(col, q) != i) {
        wi32(flag, 0, 0)
        return
      }
      wi32(next, j, q + 1)
    }
    const q = ri32(next, i)
    if (q < pe && ri32(col, q) < i) {
      wi32(flag, 0, 0)
      return
    }
  }
  // averageMirrored in place.
  memory.copy(next, rowPtr, <usize>n << 2)
  for (let i = 0; i < n; i++) {
    const pe = ri32(rowPtr, i + 1)
    for (let p = ri32(rowPtr, i); p < pe; p++) {
      const j = ri32(col, p)
      if (j < i) continue
      if (j == i) {
        const a = rf64(val, p)
        wf64(val, p, 0.5 * (a + a))
        continue
      }
      const q = ri32(next, j)
      wi32(next, j, q + 1)
      const v = 0.5 * (rf64(val, p) + rf64(val, q))
      wf64(val, p, v)
      wf64(val, q, v)
    }
  }
  wi32(flag, 0, 1)
}

/** aggregationKernels.ts aggregatesInto (one call: a serial row); agg[n] = the count. phase1: n bytes of scratch. */
export function aggregatesRows(rowPtr: usize, col: usize, val: usize, n: i32, agg: usize, phaseBase: usize, phaseStride: usize, k0: i32, k1: i32, worker: i32): void {
  const phase1 = phaseBase + <usize>worker * phaseStride
  memory.fill(agg, 0xff, <usize>n << 2)
  memory.fill(phase1, 0, <usize>n)
  let count = 0
  for (let i = 0; i < n; i++) {
    if (ri32(agg, i) >= 0 || !hasNeighbour(rowPtr, col, val, i)) continue
    const pe = ri32(rowPtr, i + 1)
    let free = true
    for (let p = ri32(rowPtr, i); p < pe && free; p++) {
      const j = ri32(col, p)
      if (j != i && rf64(val, p) != 0 && ri32(agg, j) >= 0) free = false
    }
    if (!free) continue
    wi32(agg, i, count)
    store<u8>(phase1 + <usize>i, 1)
    for (let p = ri32(rowPtr, i); p < pe; p++) {
      const j = ri32(col, p)
      if (j == i || rf64(val, p) == 0) continue
      wi32(agg, j, count)
      store<u8>(phase1 + <usize>j, 1)
    }
    count++
  }
  for (let i = 0; i < n; i++) {
    if (ri32(agg, i) >= 0) continue
    const pe = ri32(rowPtr, i + 1)
    for (let p = ri32(rowPtr, i); p < pe; p++) {
      const j = ri32(col, p)
      if (j != i && rf64(val, p) != 0 && load<u8>(phase1 + <usize>j) == 1) {
        wi32(agg, i, ri32(agg, j))
        break
      }
    }
  }
  for (let i = 0; i < n; i++) {
    if (ri32(agg, i) >= 0 || !hasNeighbour(rowPtr, col, val, i)) continue
    wi32(agg, i, count)
    const pe = ri32(rowPtr, i + 1)
    for (let p = ri32(rowPtr, i); p < pe; p++) {
      const j = ri32(col, p)
      if (j != i && rf64(val, p) != 0 && ri32(agg, j) < 0) wi32(agg, j, count)
    }
    count++
  }
  wi32(agg, n, count)
}

/** Whether row i couples to another variable. */
@inline function hasNeighbour(rowPtr: usize, col: usize, val: usize, i: i32): bool {
  const pe = ri32(rowPtr, i + 1)
  for (let p = ri32(rowPtr, i); p < pe; p++) if (ri32(col, p) != i && rf64(val, p) != 0) return true
  return false
}

/** csr.ts rowColoursInto (one call: a serial row); color[n] = the number of colours. taken: maxRow + 1 int32 of scratch. */
export function colorRowsSerial(rowPtr: usize, col: usize, n: i32, color: usize, maxRow: i32, takenBase: usize, takenStride: usize, k0: i32, k1: i32, worker: i32): void {
  const taken = takenBase + <usize>worker * takenStride
  memory.fill(color, 0xff, <usize>n << 2)
  memory.fill(taken, 0xff, <usize>(maxRow + 1) << 2)
  let colors = 0
  for (let i = 0; i < n; i++) {
    const pe = ri32(rowPtr, i + 1)
    for (let p = ri32(rowPtr, i); p < pe; p++) {
      const j = ri32(col, p)
      const c = ri32(color, j)
      if (c >= 0 && j != i) wi32(taken, c, i)
    }
    let c = 0
    while (ri32(taken, c) == i) c++
    wi32(color, i, c)
    if (c + 1 > colors) colors = c + 1
  }
  wi32(color, n, colors)
}

/** A_ii: row i's diagonal entries summed in storage order (csr.ts rowDiagonal). */
@inline function diagonalOf(aPtr: usize, aCol: usize, aVal: usize, i: i32): f64 {
  let d: f64 = 0
  const pe = ri32(aPtr, i + 1)
  for (let p = ri32(aPtr, i); p < pe; p++) if (ri32(aCol, p) == i) d += rf64(aVal, p)
  return d
}

/** prolongationKernels.ts relaxedCountRows. mark: cols int32 of scratch. */
export function relaxedProlongationCount(
  aPtr: usize, aCol: usize, aVal: usize, coarseIndex: usize, pPtr: usize, pCol: usize, cols: i32, counts: usize, markBase: usize, markStride: usize, r0: i32, r1: i32, worker: i32,
): void {
  const mark = markBase + <usize>worker * markStride
  memory.fill(mark, 0, <usize>cols << 2)
  for (let i = r0; i < r1; i++) {
    const d = diagonalOf(aPtr, aCol, aVal, i)
    if (ri32(coarseIndex, i) >= 0 || !(d > 0)) {
      wi32(counts, i, ri32(pPtr, i + 1) - ri32(pPtr, i))
      continue
    }
    const stamp = i + 1
    let c = 0
    const pe = ri32(aPtr, i + 1)
    for (let p = ri32(aPtr, i); p < pe; p++) {
      const j = ri32(aCol, p)
      if (j == i || rf64(aVal, p) == 0) continue
      const qe = ri32(pPtr, j + 1)
      for (let q = ri32(pPtr, j); q < qe; q++) {
        const cc = ri32(pCol, q)
        if (ri32(mark, cc) != stamp) {
          wi32(mark, cc, stamp)
          c++
        }
      }
    }
    wi32(counts, i, c)
  }
}

/** prolongationKernels.ts relaxedFillRows. work: cols float64 then cols int32 of scratch. */
export function relaxedProlongationFill(
  aPtr: usize, aCol: usize, aVal: usize, coarseIndex: usize, pPtr: usize, pCol: usize, pVal: usize, cols: i32,
  outPtr: usize, outCol: usize, outVal: usize, lengths: usize, workBase: usize, workStride: usize, r0: i32, r1: i32, worker: i32,
): void {
  const acc = workBase + <usize>worker * workStride
  const mark = acc + (<usize>cols << 3)
  memory.fill(mark, 0, <usize>cols << 2)
  for (let i = r0; i < r1; i++) {
    const d = diagonalOf(aPtr, aCol, aVal, i)
    const start = ri32(outPtr, i)
    if (ri32(coarseIndex, i) >= 0 || !(d > 0)) {
      let end = start
      const qe = ri32(pPtr, i + 1)
      for (let q = ri32(pPtr, i); q < qe; q++) {
        wi32(outCol, end, ri32(pCol, q))
        wf64(outVal, end++, rf64(pVal, q))
      }
      wi32(lengths, i, end - start)
      continue
    }
    const stamp = i + 1
    let end = start
    const pe = ri32(aPtr, i + 1)
    for (let p = ri32(aPtr, i); p < pe; p++) {
      const j = ri32(aCol, p)
      const av = rf64(aVal, p)
      if (j == i || av == 0) continue
      const a = -av / d
      const qe = ri32(pPtr, j + 1)
      for (let q = ri32(pPtr, j); q < qe; q++) {
        const c = ri32(pCol, q)
        if (ri32(mark, c) != stamp) {
          wi32(mark, c, stamp)
          wf64(acc, c, a * rf64(pVal, q))
          wi32(outCol, end++, c)
        } else wf64(acc, c, rf64(acc, c) + a * rf64(pVal, q))
      }
    }
    wi32(lengths, i, finishRow(outCol, outVal, acc, start, end) - start)
  }
}

/** packedRowStartsSerial (csr.ts packedRowStarts): the packed rows' starts, one pass. */
export function packedRowStartsSerial(rowPtr: usize, order: usize, n: i32, outPtr: usize, k0: i32, k1: i32, worker: i32): void {
  let p = 0
  wi32(outPtr, 0, 0)
  for (let q = 0; q < n; q++) {
    const i = ri32(order, q)
    p += ri32(rowPtr, i + 1) - ri32(rowPtr, i)
    wi32(outPtr, q + 1, p)
  }
}

/** packRows (csr.ts packRowsInto): packed rows [q0, q1), each row order[q]'s entries copied in order. */
export function packRows(rowPtr: usize, col: usize, val: usize, order: usize, outPtr: usize, outCol: usize, outVal: usize, q0: i32, q1: i32): void {
  for (let q = q0; q < q1; q++) {
    const i = ri32(order, q)
    const s = ri32(rowPtr, i)
    const m = ri32(rowPtr, i + 1) - s
    const o = ri32(outPtr, q)
    memory.copy(outCol + (<usize>o << 2), col + (<usize>s << 2), <usize>m << 2)
    memory.copy(outVal + (<usize>o << 3), val + (<usize>s << 3), <usize>m << 3)
  }
}
