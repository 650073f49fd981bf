// Twins of src-shared/sim/core/sparse/product.ts spgemmCountRows and spgemmFillRows: the
// Gustavson product C = A B in two passes over a range of A's rows, the same entries, values
// and column order as the references (and csr.ts multiplyCsr) to the bit. Per thread, a
// scratch block holds the dense accumulator (bCols float64) and then the markers (bCols int32),
// cleared at every call: the block may have served another kernel of the same scratch size.
import { rf64, ri32, wf64, wi32 } from './common'
import { sortRun } from './sortRun'

export function spgemmCount(
  aPtr: usize, aCol: usize, bPtr: usize, bCol: usize, bCols: i32, counts: usize, markBase: usize, markStride: usize, r0: i32, r1: i32, worker: i32,
): void {
  const mark = markBase + <usize>worker * markStride
  memory.fill(mark, 0, <usize>bCols << 2)
  for (let i = r0; i < r1; i++) {
    const stamp = i + 1
    let c = 0
    const pe = ri32(aPtr, i + 1)
    for (let p = ri32(aPtr, i); p < pe; p++) {
      const k = ri32(aCol, p)
      const qe = ri32(bPtr, k + 1)
      for (let q = ri32(bPtr, k); q < qe; q++) {
        const j = ri32(bCol, q)
        if (ri32(mark, j) != stamp) {
          wi32(mark, j, stamp)
          c++
        }
      }
    }
    wi32(counts, i, c)
  }
}

export function spgemmFill(
  aPtr: usize, aCol: usize, aVal: usize, bPtr: usize, bCol: usize, bVal: usize, bCols: i32,
  cPtr: usize, cCol: usize, cVal: usize, sorted: i32, workBase: usize, workStride: usize, r0: i32, r1: i32, worker: i32,
): void {
  const acc = workBase + <usize>worker * workStride
  const mark = acc + (<usize>bCols << 3)
  memory.fill(mark, 0, <usize>bCols << 2)
  for (let i = r0; i < r1; i++) {
    const stamp = i + 1
    const start = ri32(cPtr, i)
    let end = start
    const pe = ri32(aPtr, i + 1)
    for (let p = ri32(aPtr, i); p < pe; p++) {
      const k = ri32(aCol, p)
      const a = rf64(aVal, p)
      const qe = ri32(bPtr, k + 1)
      for (let q = ri32(bPtr, k); q < qe; q++) {
        const j = ri32(bCol, q)
        if (ri32(mark, j) != stamp) {
          wi32(mark, j, stamp)
          wf64(acc, j, a * rf64(bVal, q))
          wi32(cCol, end++, j)
        } else wf64(acc, j, rf64(acc, j) + a * rf64(bVal, q))
      }
    }
    if (sorted != 0) sortRun(cCol, start, end)
    for (let t = start; t < end; t++) wf64(cVal, t, rf64(acc, ri32(cCol, t)))
  }
}
