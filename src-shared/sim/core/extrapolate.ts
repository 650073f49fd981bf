// Extension of values from known samples into the air (Carlson 2004 sec. 6.3.2): particles
// near the surface interpolate from faces and cells outside the liquid, and the semi-implicit
// steps read neighbours there, so those samples need sensible values. Sec. 6.3.2 solves
// u_t + n . grad u = 0 with upwinding; the breadth-first form used here (Bridson 2015, ch. 4:
// each unknown sample takes the mean of its already-known neighbours, one layer at a time) has
// the same effect, carrying values outward from the surface, and needs no normal. The grid
// smoke uses it too, to carry its density and temperature into obstacles (solidBorder.ts).
//
// Works on any lattice sx*sy*sz (a face component or the cell centres). `mark` holds 0 for
// unknown samples and 1 for known ones on entry; layer L's new samples get mark L + 1 so a
// sample never averages values set in its own layer (the result does not depend on the
// sweep order).
//
// This is the sequential definition; the liquid runs it layer by layer over z-planes on the
// kernel threads (extendPlanes.ts EXTEND_LAYER), whose tests compare it with this bit for bit.

// Layer 1 scans the lattice for the known samples; later layers only visit the unknown
// neighbours of the samples the previous layer set (with marks 0 / 1 on entry, a sample joins
// layer L >= 2 exactly when a neighbour got mark L in layer L - 1), so the band costs what it
// holds, not the whole grid per layer. Each sample's value reads the same neighbours in the
// same order as a full scan would, so the result is the same bits (tests/unit/sim/liquid/
// liquidFastPaths.test.ts).

/**
 * Worklists: sample index and its (i, j, k) at 4t .. 4t + 3 (no divisions to recover the
 * coordinates for the bounds tests). Module scratch that doubles when a layer outgrows it, so
 * it stays the size of the band, not the grid, and calls do not allocate once it has grown.
 */
let listA: Int32Array = new Int32Array(4 * 4096)
let listB: Int32Array = new Int32Array(4 * 4096)

/** list with room for `entries` entries, contents kept. */
function room(list: Int32Array, entries: number): Int32Array {
  if (4 * entries <= list.length) return list
  const bigger = new Int32Array(Math.max(4 * entries, 2 * list.length))
  bigger.set(list)
  return bigger
}

/** Mark of a sample queued for the current layer (never < lim, so never read as known). */
const QUEUED = 255

/** Marks sample c = (i, j, k) QUEUED and appends it to list; returns the new length. */
function queue(mark: Uint8Array, list: Int32Array, n: number, c: number, i: number, j: number, k: number): number {
  mark[c] = QUEUED
  const t = 4 * n
  list[t] = c
  list[t + 1] = i
  list[t + 2] = j
  list[t + 3] = k
  return n + 1
}

/** Mean of the neighbours of sample c = (i, j, k) with 0 < mark < lim into f[c], mark lim; false if none. */
export function average(f: Float32Array, mark: Uint8Array, c: number, i: number, j: number, k: number, sx: number, sy: number, sz: number, sxy: number, lim: number): boolean {
  let s = 0
  let n = 0
  let m: number
  if (i > 0 && (m = mark[c - 1]) !== 0 && m < lim) (s += f[c - 1]), n++
  if (i < sx - 1 && (m = mark[c + 1]) !== 0 && m < lim) (s += f[c + 1]), n++
  if (j > 0 && (m = mark[c - sx]) !== 0 && m < lim) (s += f[c - sx]), n++
  if (j < sy - 1 && (m = mark[c + sx]) !== 0 && m < lim) (s += f[c + sx]), n++
  if (k > 0 && (m = mark[c - sxy]) !== 0 && m < lim) (s += f[c - sxy]), n++
  if (k < sz - 1 && (m = mark[c + sxy]) !== 0 && m < lim) (s += f[c + sxy]), n++
  if (n === 0) return false
  f[c] = s / n
  mark[c] = lim
  return true
}

/**
 * Extends f from samples with mark != 0 into up to `layers` rings of unknown samples. Returns
 * the number of samples set. mark (0 or 1 on entry) is updated in place.
 */
export function extrapolateLayers(f: Float32Array, mark: Uint8Array, sx: number, sy: number, sz: number, layers: number): number {
  const sxy = sx * sy
  if (layers < 1) return 0
  let prev = listA
  let next = listB
  let count = 0
  let entryAbove1 = false
  // Layer 1: the unknown neighbours of the known samples (mark 1), each queued once. Reading
  // one mark per sample is cheaper than testing six around every unknown one, and the known
  // samples are the fewer (a band around the liquid).
  for (let k = 0; k < sz; k++) {
    for (let j = 0; j < sy; j++) {
      let c = sx * (j + sy * k)
      for (let i = 0; i < sx; i++, c++) {
        const m = mark[c]
        if (m !== 1) {
          // Entry marks above 1 (a second call on the same marks); QUEUED is this scan's own.
          if (m !== 0 && m !== QUEUED) entryAbove1 = true
          continue
        }
        prev = room(prev, count + 6)
        if (i > 0 && mark[c - 1] === 0) count = queue(mark, prev, count, c - 1, i - 1, j, k)
        if (i < sx - 1 && mark[c + 1] === 0) count = queue(mark, prev, count, c + 1, i + 1, j, k)
        if (j > 0 && mark[c - sx] === 0) count = queue(mark, prev, count, c - sx, i, j - 1, k)
        if (j < sy - 1 && mark[c + sx] === 0) count = queue(mark, prev, count, c + sx, i, j + 1, k)
        if (k > 0 && mark[c - sxy] === 0) count = queue(mark, prev, count, c - sxy, i, j, k - 1)
        if (k < sz - 1 && mark[c + sxy] === 0) count = queue(mark, prev, count, c + sxy, i, j, k + 1)
      }
    }
  }
  // Each queued sample has a neighbour with mark 1, so each gets a value (from its mark-1
  // neighbours only, as in a full scan: QUEUED and 2 are not below lim = 2).
  for (let t = 0; t < 4 * count; t += 4) average(f, mark, prev[t], prev[t + 1], prev[t + 2], prev[t + 3], sx, sy, sz, sxy, 2)
  let set = count
  // Marks above 1 on entry (a second call on the same marks) join later layers without being
  // neighbours of the previous one: scan the whole lattice per layer then.
  listA = prev
  if (entryAbove1) return set + fullScanLayers(f, mark, sx, sy, sz, 2, layers)
  for (let layer = 2; layer <= layers && count > 0; layer++) {
    const lim = layer + 1
    // Unknown neighbours of the samples the last layer set, each queued once.
    let queued = 0
    for (let t = 0; t < 4 * count; t += 4) {
      const c = prev[t], i = prev[t + 1], j = prev[t + 2], k = prev[t + 3]
      next = room(next, queued + 6)
      if (i > 0 && mark[c - 1] === 0) queued = queue(mark, next, queued, c - 1, i - 1, j, k)
      if (i < sx - 1 && mark[c + 1] === 0) queued = queue(mark, next, queued, c + 1, i + 1, j, k)
      if (j > 0 && mark[c - sx] === 0) queued = queue(mark, next, queued, c - sx, i, j - 1, k)
      if (j < sy - 1 && mark[c + sx] === 0) queued = queue(mark, next, queued, c + sx, i, j + 1, k)
      if (k > 0 && mark[c - sxy] === 0) queued = queue(mark, next, queued, c - sxy, i, j, k - 1)
      if (k < sz - 1 && mark[c + sxy] === 0) queued = queue(mark, next, queued, c + sxy, i, j, k + 1)
    }
    // Every queued sample has a neighbour with mark `layer`, so each gets a value.
    for (let t = 0; t < 4 * queued; t += 4) average(f, mark, next[t], next[t + 1], next[t + 2], next[t + 3], sx, sy, sz, sxy, lim)
    set += queued
    count = queued
    const swap = prev
    prev = next
    next = swap
  }
  listA = prev
  listB = next
  return set
}

/** Layers [from, to] by scanning the whole lattice each layer (any marks on entry). */
function fullScanLayers(f: Float32Array, mark: Uint8Array, sx: number, sy: number, sz: number, from: number, to: number): number {
  const sxy = sx * sy
  let set = 0
  for (let layer = from; layer <= to; layer++) {
    const lim = layer + 1
    for (let k = 0; k < sz; k++) {
      for (let j = 0; j < sy; j++) {
        let c = sx * (j + sy * k)
        for (let i = 0; i < sx; i++, c++) {
          if (mark[c] === 0 && average(f, mark, c, i, j, k, sx, sy, sz, sxy, lim)) set++
        }
      }
    }
  }
  return set
}
