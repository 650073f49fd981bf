// Sorting a short run of integers in place, increasing: an insertion sort, cheaper than the
// built-in sort (and its subarray) for the handful of entries a BVH node's bins or a sparse
// row hold.

/** Sorts a[start, end) in place, increasing. */
export function insertionSortInt32(a: Int32Array, start: number, end: number): void {
  for (let t = start + 1; t < end; t++) {
    const c = a[t]
    let u = t - 1
    while (u >= start && a[u] > c) {
      a[u + 1] = a[u]
      u--
    }
    a[u + 1] = c
  }
}
