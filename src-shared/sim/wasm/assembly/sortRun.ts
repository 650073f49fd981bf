// Sorting a row's int32 column indices in place (csr.ts sortColumns' twin) and finishing an
// accumulated row (csr.ts finishAccumulatedRow's), for the kernels that build sparse matrices
// (sparseProduct.ts, amgSetup.ts). Not exported from index.ts: helpers, not kernels.
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
export function sortRun(a: usize, start: i32, end: i32): void {
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

/**
 * csr.ts finishAccumulatedRow: the row's columns col[start, end) sorted, each column's value
 * taken from the dense accumulator acc, exact zeros dropped; returns the row's new end.
 */
export function finishRow(col: usize, val: usize, acc: usize, start: i32, end: i32): i32 {
  sortRun(col, start, end)
  let w = start
  for (let t = start; t < end; t++) {
    const c = ri32(col, t)
    const v = rf64(acc, c)
    if (v == 0) continue
    wi32(col, w, c)
    wf64(val, w++, v)
  }
  return w
}
