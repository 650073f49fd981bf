// Twins of src-shared/sim/core/sparse/product.ts spgemmCountRows and spgemmFillRows: the
// Gustavson product C = A B in two passes over a range of A's rows, the same entries, values
// and column order as the references (and csr.ts multiplyCsr) to the bit. Per thread, a
// scratch block holds the dense accumulator (bCols float64) and then the markers (bCols int32),
// cleared at every call: the block may have served another kernel of the same scratch size.
import { rf64, ri32, wf64, wi32 } from './common'

/** Longest row sorted by insertion (csr.ts sortColumns' limit); longer rows take the heap sort. */
const INSERTION_LIMIT = 64

function insertionSort(a: usize, start: i32, end: i32): void {
  for (let t = start + 1; t < end; t++) {
    const c = ri32(a, t)
    let u = t - 1
    while (u >= start && ri32(a, u) > c) {
      wi32(a, u + 1, ri32(a, u))
      u--
    }
    wi32(a, u + 1, c)
  }
}

/** Moves a[start + root] down the max-heap a[start, start + n). */
function siftDown(a: usize, start: i32, root: i32, n: i32): void {
  const v = ri32(a, start + root)
  let r = root
  for (;;) {
    let child = 2 * r + 1
    if (child >= n) break
    if (child + 1 < n && ri32(a, start + child + 1) > ri32(a, start + child)) child++
    const c = ri32(a, start + child)
    if (c <= v) break
    wi32(a, start + r, c)
    r = child
  }
  wi32(a, start + r, v)
}

/**
 * Sorts the int32 run a[start, end) increasing. The columns of a row are distinct, so every
 * correct sort gives the reference's order: insertion for short rows, heap sort (in place, no
 * allocation) for long ones, where the reference calls the built-in sort.
 */
function sortRun(a: usize, start: i32, end: i32): void {
  const n = end - start
  if (n <= INSERTION_LIMIT) {
    insertionSort(a, start, end)
    return
  }
  for (let r = (n >> 1) - 1; r >= 0; r--) siftDown(a, start, r, n)
  for (let last = n - 1; last > 0; last--) {
    const top = ri32(a, start)
    wi32(a, start, ri32(a, start + last))
    wi32(a, start + last, top)
    siftDown(a, start, 0, last)
  }
}

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
