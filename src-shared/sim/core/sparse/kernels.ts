// Reference slab kernels over CSR matrices and plain Float64 vectors (twins in
// wasm/assembly/sparse.ts, bit for bit). Matrix kernels take a row range [r0, r1) (or a range
// of positions in a row list); each row is written by exactly one call, so any split of the
// rows across threads gives the same bits. Vector kernels take a range of fixed-size blocks
// [k0, k1) of `block` entries (the last block may be short); reductions write one partial
// per block, summed in block order by the caller (kernelTable's run), so the result does not
// depend on the thread count either.
//
// Summation orders are chosen so the f64x2 twins reproduce them exactly:
// - a row sum accumulates its entries in storage order from 0 (the twin runs two rows in the
//   two lanes, each lane in its own row's order);
// - a block dot keeps two running sums, over even and odd offsets from the block start, adds
//   them, then the odd tail (the twin's two lanes).
// wasm has no fused multiply-add (relaxed-simd is not enabled), so every product is rounded
// before it is added, as in JavaScript.

/** y[i] = sum_j A_ij x_j for rows [r0, r1). */
export function spmvRows(rowPtr: Int32Array, col: Int32Array, val: Float64Array, x: Float64Array, y: Float64Array, r0: number, r1: number): void {
  for (let i = r0; i < r1; i++) {
    let s = 0
    const end = rowPtr[i + 1]
    for (let p = rowPtr[i]; p < end; p++) s += val[p] * x[col[p]]
    y[i] = s
  }
}

/** spmvRows for `count` vectors n apart in x and y (vector d: x[d n ..], y[d n ..]), rows [r0, r1). */
export function spmvMultiRows(rowPtr: Int32Array, col: Int32Array, val: Float64Array, x: Float64Array, y: Float64Array, n: number, count: number, r0: number, r1: number): void {
  for (let d = 0; d < count; d++) spmvRows(rowPtr, col, val, x.subarray(d * n, (d + 1) * n), y.subarray(d * n, (d + 1) * n), r0, r1)
}

/** y[i] += sum_j A_ij x_j for rows [r0, r1) (the prolongation x_fine += P x_coarse). */
export function spmvAddRows(rowPtr: Int32Array, col: Int32Array, val: Float64Array, x: Float64Array, y: Float64Array, r0: number, r1: number): void {
  for (let i = r0; i < r1; i++) {
    let s = 0
    const end = rowPtr[i + 1]
    for (let p = rowPtr[i]; p < end; p++) s += val[p] * x[col[p]]
    y[i] += s
  }
}

/** r[i] = b[i] - sum_j A_ij x_j for rows [r0, r1). */
export function residualRows(rowPtr: Int32Array, col: Int32Array, val: Float64Array, x: Float64Array, b: Float64Array, r: Float64Array, r0: number, r1: number): void {
  for (let i = r0; i < r1; i++) {
    let s = 0
    const end = rowPtr[i + 1]
    for (let p = rowPtr[i]; p < end; p++) s += val[p] * x[col[p]]
    r[i] = b[i] - s
  }
}

/**
 * One damped Jacobi sweep for rows [r0, r1): out[i] = x[i] + scale[i] (b[i] - sum_j A_ij x_j)
 * (scale = omega / A_ii); out must not be x.
 */
export function jacobiRows(rowPtr: Int32Array, col: Int32Array, val: Float64Array, x: Float64Array, b: Float64Array, scale: Float64Array, out: Float64Array, r0: number, r1: number): void {
  for (let i = r0; i < r1; i++) {
    let s = 0
    const end = rowPtr[i + 1]
    for (let p = rowPtr[i]; p < end; p++) s += val[p] * x[col[p]]
    out[i] = x[i] + scale[i] * (b[i] - s)
  }
}

/**
 * Gauss-Seidel on the rows listed at positions [t0, t1) of `rows` (rows of one colour, so
 * none reads another's unknown and the order within the list does not matter):
 *   x_i = (b_i - sum_{j != i} A_ij x_j) / A_ii
 * the off-diagonal terms subtracted in storage order. Rows with A_ii = 0 are left alone.
 */
export function gsRows(rowPtr: Int32Array, col: Int32Array, val: Float64Array, x: Float64Array, b: Float64Array, rows: Int32Array, t0: number, t1: number): void {
  for (let t = t0; t < t1; t++) {
    const i = rows[t]
    relaxRow(col, val, x, b, i, rowPtr[i], rowPtr[i + 1])
  }
}

/**
 * gsRows over a colour-packed copy of the matrix: packed row q is row order[q] of A (its entries
 * in A's storage order), and a colour's rows are the packed rows [start, start + count), so a
 * sweep streams the colour's entries instead of picking its rows out of all of A's. Positions
 * [t0, t1) of the colour; the same operations as gsRows on the same rows (the same bits).
 */
export function gsPackedRows(rowPtr: Int32Array, col: Int32Array, val: Float64Array, x: Float64Array, b: Float64Array, order: Int32Array, start: number, t0: number, t1: number): void {
  for (let t = t0; t < t1; t++) {
    const q = start + t
    relaxRow(col, val, x, b, order[q], rowPtr[q], rowPtr[q + 1])
  }
}

/**
 * Row i's Gauss-Seidel update from its entries [start, end) of col and val; the off-diagonal
 * terms subtracted in storage order, a row with A_ii = 0 left alone.
 */
function relaxRow(col: Int32Array, val: Float64Array, x: Float64Array, b: Float64Array, i: number, start: number, end: number): void {
  let s = b[i]
  let d = 0
  for (let p = start; p < end; p++) {
    const c = col[p]
    if (c === i) d = val[p]
    else s -= val[p] * x[c]
  }
  if (d !== 0) x[i] = s / d
}

/**
 * Gauss-Seidel in fixed blocks of rows (the rows [k block, (k + 1) block) of blocks [k0, k1)),
 * each block swept in order (forward) or reversed on its own: a row reads its own block's
 * unknowns as they are updated and every other block's from xOld, the sweep's starting values,
 * so the blocks are independent and the result does not depend on how they are split.
 * The rows are laid out by blockOrderRows: the diagonal first, then the entries in the row's own
 * block, then those in other blocks (each group in storage order); split[i] is the place of row
 * i's first entry in another block, -1 for a row without a diagonal (left alone). Then
 *   x_i = (b_i - sum_own A_ij x_j - sum_other A_ij xOld_j) / A_ii,
 * the other blocks' terms summed first, in their own sum (they do not wait on this sweep's
 * updates, so the two chains of additions overlap), the own block's subtracted from b_i in
 * order, then that sum. A row with A_ii = 0 is left alone.
 */
export function gsBlocks(rowPtr: Int32Array, col: Int32Array, val: Float64Array, split: Int32Array, x: Float64Array, b: Float64Array, xOld: Float64Array, n: number, block: number, forward: number, k0: number, k1: number): void {
  for (let k = k0; k < k1; k++) {
    const r0 = k * block, r1 = Math.min(n, r0 + block)
    for (let t = 0; t < r1 - r0; t++) {
      const i = forward ? r0 + t : r1 - 1 - t
      const mid = split[i]
      if (mid < 0) continue
      const start = rowPtr[i], end = rowPtr[i + 1]
      let other = 0
      for (let p = mid; p < end; p++) other += val[p] * xOld[col[p]]
      let s = b[i]
      for (let p = start + 1; p < mid; p++) s -= val[p] * x[col[p]]
      s -= other
      const d = val[start]
      if (d !== 0) x[i] = s / d
    }
  }
}

/** partial[k] = sum of a_c b_c over block k (two running sums: even, odd offsets), blocks [k0, k1). */
export function dotBlocks(a: Float64Array, b: Float64Array, n: number, block: number, partial: Float64Array, k0: number, k1: number): void {
  for (let k = k0; k < k1; k++) {
    let c = k * block
    const end = Math.min(n, c + block)
    let s0 = 0
    let s1 = 0
    for (; c + 1 < end; c += 2) {
      s0 += a[c] * b[c]
      s1 += a[c + 1] * b[c + 1]
    }
    let s = s0 + s1
    if (c < end) s += a[c] * b[c]
    partial[k] = s
  }
}

/** y += alpha x over blocks [k0, k1). */
export function axpyBlocks(y: Float64Array, alpha: number, x: Float64Array, n: number, block: number, k0: number, k1: number): void {
  const end = Math.min(n, k1 * block)
  for (let c = k0 * block; c < end; c++) y[c] += alpha * x[c]
}

/**
 * Zeroes entries [v stride + from, v stride + to) of a for v < count, over blocks [k0, k1) of
 * that list of ranges (each range cut into blocks of `block` entries, range after range).
 */
export function zeroRangesBlocks(a: Float64Array, stride: number, count: number, from: number, to: number, block: number, k0: number, k1: number): void {
  const perRange = Math.ceil((to - from) / block)
  for (let k = k0; k < k1; k++) {
    const v = Math.floor(k / perRange)
    if (v >= count) break
    const lo = v * stride + from + (k - v * perRange) * block
    a.fill(0, lo, Math.min(v * stride + to, lo + block))
  }
}

/** z = d r entry by entry (a diagonal preconditioner), blocks [k0, k1). */
export function scaleBlocks(z: Float64Array, d: Float64Array, r: Float64Array, n: number, block: number, k0: number, k1: number): void {
  const end = Math.min(n, k1 * block)
  for (let c = k0 * block; c < end; c++) z[c] = r[c] * d[c]
}

/** s = z + beta s over blocks [k0, k1). */
export function xpbyBlocks(s: Float64Array, z: Float64Array, beta: number, n: number, block: number, k0: number, k1: number): void {
  const end = Math.min(n, k1 * block)
  for (let c = k0 * block; c < end; c++) s[c] = z[c] + beta * s[c]
}

/**
 * x = a x + b prev and prev = x's old value, over blocks [k0, k1): a linear extrapolation
 * from the last two iterates (a solve's initial guess from its last two solutions).
 */
export function extrapolateBlocks(x: Float64Array, prev: Float64Array, a: number, b: number, n: number, block: number, k0: number, k1: number): void {
  const end = Math.min(n, k1 * block)
  for (let c = k0 * block; c < end; c++) {
    const t = x[c]
    x[c] = a * t + b * prev[c]
    prev[c] = t
  }
}

/**
 * x += alpha s; r -= alpha q; partial[k] = |r|^2 over block k (even/odd running sums as
 * dotBlocks), blocks [k0, k1).
 */
export function updateIterateBlocks(
  x: Float64Array,
  r: Float64Array,
  s: Float64Array,
  q: Float64Array,
  alpha: number,
  n: number,
  block: number,
  partial: Float64Array,
  k0: number,
  k1: number,
): void {
  for (let k = k0; k < k1; k++) {
    let c = k * block
    const end = Math.min(n, c + block)
    let s0 = 0
    let s1 = 0
    for (; c + 1 < end; c += 2) {
      x[c] += alpha * s[c]
      x[c + 1] += alpha * s[c + 1]
      const r0 = r[c] - alpha * q[c]
      const r1 = r[c + 1] - alpha * q[c + 1]
      r[c] = r0
      r[c + 1] = r1
      s0 += r0 * r0
      s1 += r1 * r1
    }
    let rr = s0 + s1
    if (c < end) {
      x[c] += alpha * s[c]
      const rc = r[c] - alpha * q[c]
      r[c] = rc
      rr += rc * rc
    }
    partial[k] = rr
  }
}

/**
 * IC(0)'s factorisation (IncompleteCholesky, incompleteCholesky.ts): L by rows over the pattern
 * rowPtr / col, whose val holds A's strict lower entries on entry and L's on return, of
 * A + alpha diag(A) (diag: A's diagonal), with invDiag = 1 / L_ii. For row i, in column order,
 *   L_ik = (A_ik - sum_{j < k} L_ij L_kj) / L_kk   (j over the pattern of both rows)
 *   L_ii = sqrt(A_ii (1 + alpha) - sum_{k < i} L_ik^2).
 * pos is n ints of scratch. status[0] = 0, or i + 1 for the first row whose pivot is not
 * positive (the factor is then incomplete). One index: rows wait for the ones before them.
 */
export function icFactorSlab(
  rowPtr: Int32Array,
  col: Int32Array,
  val: Float64Array,
  diag: Float64Array,
  invDiag: Float64Array,
  pos: Int32Array,
  alpha: number,
  n: number,
  status: Float64Array,
  k0: number,
  k1: number,
): void {
  if (k0 >= k1) return
  status[0] = 0
  // pos[j] = position of column j in the current row i's strict lower part, else -1.
  for (let j = 0; j < n; j++) pos[j] = -1
  for (let i = 0; i < n; i++) {
    const start = rowPtr[i]
    const end = rowPtr[i + 1]
    for (let t = start; t < end; t++) pos[col[t]] = t
    let d = diag[i] * (1 + alpha)
    for (let t = start; t < end; t++) {
      const k = col[t]
      // Row i's entries at columns < k are final by now; j runs over row k's pattern found in row i.
      let s = val[t]
      const kEnd = rowPtr[k + 1]
      for (let u = rowPtr[k]; u < kEnd; u++) {
        const at = pos[col[u]]
        if (at >= 0) s -= val[at] * val[u]
      }
      const lik = s * invDiag[k]
      val[t] = lik
      d -= lik * lik
    }
    for (let t = start; t < end; t++) pos[col[t]] = -1
    if (!(d > 0)) {
      status[0] = i + 1
      return
    }
    invDiag[i] = 1 / Math.sqrt(d)
  }
}

/**
 * Incomplete Cholesky's two triangular solves (incompleteCholesky.ts): y = L^-1 r[index] by
 * L's rows, then L^T z = y by L^T's rows (upPtr / upRow / upVal: each row's entries in
 * decreasing order of L's row), in place in y and copied to out[index[j]]. index null: r, y
 * and out are the compact vectors (out may be y, r may be either). Serial by nature: one index,
 * [k0, k1) = [0, 1), run on the calling thread.
 */
export function icSolveSlab(
  rowPtr: Int32Array,
  col: Int32Array,
  val: Float64Array,
  invDiag: Float64Array,
  upPtr: Int32Array,
  upRow: Int32Array,
  upVal: Float64Array,
  r: Float64Array,
  index: Int32Array | null,
  y: Float64Array,
  out: Float64Array,
  n: number,
  k0: number,
  k1: number,
): void {
  if (k0 >= k1) return
  for (let i = 0; i < n; i++) {
    let s = index === null ? r[i] : r[index[i]]
    const end = rowPtr[i + 1]
    for (let p = rowPtr[i]; p < end; p++) s -= val[p] * y[col[p]]
    y[i] = s * invDiag[i]
  }
  for (let j = n - 1; j >= 0; j--) {
    let s = y[j]
    const end = upPtr[j + 1]
    for (let p = upPtr[j]; p < end; p++) s -= upVal[p] * y[upRow[p]]
    const zj = s * invDiag[j]
    y[j] = zj
    if (index === null) out[j] = zj
    else out[index[j]] = zj
  }
}
