// Sparse kernels over CSR matrices and block-reduced vector kernels (reference:
// src-shared/sim/core/sparse/kernels.ts), bit-identical to the references.
//
// Matrix kernels run two rows at once in the two f64x2 lanes: lane 0 row i, lane 1 row i + 1,
// in lock-step over the shorter row's entries (values and x gathered lane by lane), each lane
// accumulating its own row in storage order; the longer row's tail is finished in scalar. So
// every row's sum is the reference's sequence of rounded products and adds. Vector kernels
// keep the references' two running sums (even and odd offsets of a block) in the two lanes.
// Arguments (rowPtr, col, val, ...) are byte offsets into the shared memory.
import { rf64, wf64, ri32, v64, st64 } from './common'
import { rowPair, rowSum } from './csrRows'

/** spmvRows: y = A x for rows [r0, r1). */
export function spmv(rowPtr: usize, col: usize, val: usize, x: usize, y: usize, r0: i32, r1: i32): void {
  let i = r0
  for (; i + 1 < r1; i += 2) st64(y, i, rowPair(rowPtr, col, val, x, i))
  if (i < r1) wf64(y, i, rowSum(rowPtr, col, val, x, i))
}

/** spmvAddRows: y += A x for rows [r0, r1). */
export function spmvAdd(rowPtr: usize, col: usize, val: usize, x: usize, y: usize, r0: i32, r1: i32): void {
  let i = r0
  for (; i + 1 < r1; i += 2) st64(y, i, f64x2.add(v64(y, i), rowPair(rowPtr, col, val, x, i)))
  if (i < r1) wf64(y, i, rf64(y, i) + rowSum(rowPtr, col, val, x, i))
}

/** jacobiRows: out = x + scale (b - A x) for rows [r0, r1). */
export function jacobiRows(rowPtr: usize, col: usize, val: usize, x: usize, b: usize, scale: usize, out: usize, r0: i32, r1: i32): void {
  let i = r0
  for (; i + 1 < r1; i += 2) st64(out, i, f64x2.add(v64(x, i), f64x2.mul(v64(scale, i), f64x2.sub(v64(b, i), rowPair(rowPtr, col, val, x, i)))))
  if (i < r1) wf64(out, i, rf64(x, i) + rf64(scale, i) * (rf64(b, i) - rowSum(rowPtr, col, val, x, i)))
}

/** residualRows: r = b - A x for rows [r0, r1). */
export function spResidual(rowPtr: usize, col: usize, val: usize, x: usize, b: usize, r: usize, r0: i32, r1: i32): void {
  let i = r0
  for (; i + 1 < r1; i += 2) st64(r, i, f64x2.sub(v64(b, i), rowPair(rowPtr, col, val, x, i)))
  if (i < r1) wf64(r, i, rf64(b, i) - rowSum(rowPtr, col, val, x, i))
}

/**
 * One row's Gauss-Seidel update (scalar): row i's entries [p, e), its unknown from the others'
 * in storage order, a row with a zero diagonal left alone.
 */
@inline function gsRow(col: usize, val: usize, x: usize, b: usize, i: i32, p: i32, e: i32): void {
  let s = rf64(b, i)
  let d: f64 = 0
  for (; p < e; p++) {
    const c = ri32(col, p)
    if (c == i) d = rf64(val, p)
    else s -= rf64(val, p) * rf64(x, c)
  }
  if (d != 0) wf64(x, i, s / d)
}

/**
 * Two rows of one colour (neither reads the other's unknown) in the two lanes: row i0's entries
 * [p0, e0), row i1's [p1, e1), in lock-step over the shorter; a lane's diagonal entry
 * contributes +0 instead of its product (s - (+0) is s bit for bit, also for s = -0), and its
 * value is kept as that lane's divisor; the longer row's tail in scalar.
 */
@inline function gsRowPair(col: usize, val: usize, x: usize, b: usize, i0: i32, p0: i32, e0: i32, i1: i32, p1: i32, e1: i32): void {
  const m0 = e0 - p0
  const m1 = e1 - p1
  const m = m0 < m1 ? m0 : m1
  let s = f64x2.replace_lane(f64x2.splat(rf64(b, i0)), 1, rf64(b, i1))
  let d0: f64 = 0
  let d1: f64 = 0
  for (let q = 0; q < m; q++) {
    const c0 = ri32(col, p0 + q)
    const c1 = ri32(col, p1 + q)
    const a0 = rf64(val, p0 + q)
    const a1 = rf64(val, p1 + q)
    let prod = f64x2.mul(f64x2.replace_lane(f64x2.splat(a0), 1, a1), f64x2.replace_lane(f64x2.splat(rf64(x, c0)), 1, rf64(x, c1)))
    if (c0 == i0) {
      d0 = a0
      prod = f64x2.replace_lane(prod, 0, 0)
    }
    if (c1 == i1) {
      d1 = a1
      prod = f64x2.replace_lane(prod, 1, 0)
    }
    s = f64x2.sub(s, prod)
  }
  let s0 = f64x2.extract_lane(s, 0)
  let s1 = f64x2.extract_lane(s, 1)
  for (let p = p0 + m; p < e0; p++) {
    const c = ri32(col, p)
    if (c == i0) d0 = rf64(val, p)
    else s0 -= rf64(val, p) * rf64(x, c)
  }
  for (let p = p1 + m; p < e1; p++) {
    const c = ri32(col, p)
    if (c == i1) d1 = rf64(val, p)
    else s1 -= rf64(val, p) * rf64(x, c)
  }
  if (d0 != 0) wf64(x, i0, s0 / d0)
  if (d1 != 0) wf64(x, i1, s1 / d1)
}

/**
 * gsRows: Gauss-Seidel on the rows at positions [t0, t1) of the int32 list `rows` (one
 * colour: no row reads another's unknown), two listed rows per step (gsRowPair).
 */
export function gsRows(rowPtr: usize, col: usize, val: usize, x: usize, b: usize, rows: usize, t0: i32, t1: i32): void {
  let t = t0
  for (; t + 1 < t1; t += 2) {
    const i0 = ri32(rows, t)
    const i1 = ri32(rows, t + 1)
    gsRowPair(col, val, x, b, i0, ri32(rowPtr, i0), ri32(rowPtr, i0 + 1), i1, ri32(rowPtr, i1), ri32(rowPtr, i1 + 1))
  }
  if (t < t1) {
    const i = ri32(rows, t)
    gsRow(col, val, x, b, i, ri32(rowPtr, i), ri32(rowPtr, i + 1))
  }
}

/**
 * gsPacked: gsRows over a colour-packed matrix (kernels.ts gsPackedRows), packed rows
 * start + [t0, t1), row order[q] of A at packed row q: two consecutive packed rows per step, as
 * gsRows pairs two listed rows (the same operations, the same bits).
 */
export function gsPacked(rowPtr: usize, col: usize, val: usize, x: usize, b: usize, order: usize, start: i32, t0: i32, t1: i32): void {
  let q = start + t0
  const qEnd = start + t1
  for (; q + 1 < qEnd; q += 2) {
    const p1 = ri32(rowPtr, q + 1)
    gsRowPair(col, val, x, b, ri32(order, q), ri32(rowPtr, q), p1, ri32(order, q + 1), p1, ri32(rowPtr, q + 2))
  }
  if (q < qEnd) gsRow(col, val, x, b, ri32(order, q), ri32(rowPtr, q), ri32(rowPtr, q + 1))
}

/**
 * gsBlocks (kernels.ts): Gauss-Seidel in fixed blocks of rows laid out by blockOrderRows (the
 * diagonal, the row's own block's entries, then the other blocks' from split[i]; -1: no
 * diagonal), the other blocks' terms in a sum of their own that does not wait on the block's
 * updates; the same operations and order as the reference.
 */
export function gsBlocks(rowPtr: usize, col: usize, val: usize, split: usize, x: usize, b: usize, xOld: usize, n: i32, block: i32, forward: i32, k0: i32, k1: i32): void {
  for (let k = k0; k < k1; k++) {
    const r0 = k * block
    const r1 = min(n, r0 + block)
    for (let t = 0; t < r1 - r0; t++) {
      const i = forward ? r0 + t : r1 - 1 - t
      const mid = ri32(split, i)
      if (mid < 0) continue
      const start = ri32(rowPtr, i)
      const end = ri32(rowPtr, i + 1)
      let other: f64 = 0
      for (let p = mid; p < end; p++) other += rf64(val, p) * rf64(xOld, ri32(col, p))
      let s = rf64(b, i)
      for (let p = start + 1; p < mid; p++) s -= rf64(val, p) * rf64(x, ri32(col, p))
      s -= other
      const d = rf64(val, start)
      if (d != 0) wf64(x, i, s / d)
    }
  }
}

/** dotBlocks: partial[k] = even-lane sum + odd-lane sum (+ odd tail) over block k, blocks [k0, k1). */
export function dotBlocks(a: usize, b: usize, n: i32, block: i32, partial: usize, k0: i32, k1: i32): void {
  for (let k = k0; k < k1; k++) {
    let c = k * block
    const e = c + block
    const end = e < n ? e : n
    let acc = f64x2.splat(0)
    for (; c + 1 < end; c += 2) acc = f64x2.add(acc, f64x2.mul(v64(a, c), v64(b, c)))
    let s = f64x2.extract_lane(acc, 0) + f64x2.extract_lane(acc, 1)
    if (c < end) s += rf64(a, c) * rf64(b, c)
    wf64(partial, k, s)
  }
}

/** axpyBlocks: y += alpha x over blocks [k0, k1). */
export function axpyBlocks(y: usize, alpha: f64, x: usize, n: i32, block: i32, k0: i32, k1: i32): void {
  const va = f64x2.splat(alpha)
  let c = k0 * block
  const e = k1 * block
  const end = e < n ? e : n
  for (; c + 1 < end; c += 2) st64(y, c, f64x2.add(v64(y, c), f64x2.mul(va, v64(x, c))))
  if (c < end) wf64(y, c, rf64(y, c) + alpha * rf64(x, c))
}

/** zeroRangesBlocks over blocks [k0, k1). */
export function zeroRangesBlocks(a: usize, stride: i32, count: i32, from: i32, to: i32, block: i32, k0: i32, k1: i32): void {
  const perRange = (to - from + block - 1) / block
  for (let k = k0; k < k1; k++) {
    const v = k / perRange
    if (v >= count) break
    const lo = v * stride + from + (k - v * perRange) * block
    const end = v * stride + to
    const hi = lo + block < end ? lo + block : end
    if (hi > lo) memory.fill(a + (<usize>lo << 3), 0, <usize>(hi - lo) << 3)
  }
}

/** scaleBlocks: z = d r. */
export function scaleBlocks(z: usize, d: usize, r: usize, n: i32, block: i32, k0: i32, k1: i32): void {
  let c = k0 * block
  const e = k1 * block
  const end = e < n ? e : n
  for (; c + 1 < end; c += 2) st64(z, c, f64x2.mul(v64(r, c), v64(d, c)))
  if (c < end) wf64(z, c, rf64(r, c) * rf64(d, c))
}

/** xpbyBlocks: s = z + beta s over blocks [k0, k1). */
export function xpbyBlocks(s: usize, z: usize, beta: f64, n: i32, block: i32, k0: i32, k1: i32): void {
  const vb = f64x2.splat(beta)
  let c = k0 * block
  const e = k1 * block
  const end = e < n ? e : n
  for (; c + 1 < end; c += 2) st64(s, c, f64x2.add(v64(z, c), f64x2.mul(vb, v64(s, c))))
  if (c < end) wf64(s, c, rf64(z, c) + beta * rf64(s, c))
}

/** extrapolateBlocks: x = a x + b prev, prev = the old x. */
export function extrapolateBlocks(x: usize, prev: usize, a: f64, b: f64, n: i32, block: i32, k0: i32, k1: i32): void {
  const va = f64x2.splat(a), vb = f64x2.splat(b)
  let c = k0 * block
  const e = k1 * block
  const end = e < n ? e : n
  for (; c + 1 < end; c += 2) {
    const t = v64(x, c)
    st64(x, c, f64x2.add(f64x2.mul(va, t), f64x2.mul(vb, v64(prev, c))))
    st64(prev, c, t)
  }
  if (c < end) {
    const t = rf64(x, c)
    wf64(x, c, a * t + b * rf64(prev, c))
    wf64(prev, c, t)
  }
}

/** updateIterateBlocks: x += alpha s; r -= alpha q; partial[k] = |r|^2 over block k (lane sums). */
export function updateIterateBlocks(x: usize, r: usize, s: usize, q: usize, alpha: f64, n: i32, block: i32, partial: usize, k0: i32, k1: i32): void {
  const va = f64x2.splat(alpha)
  for (let k = k0; k < k1; k++) {
    let c = k * block
    const e = c + block
    const end = e < n ? e : n
    let acc = f64x2.splat(0)
    for (; c + 1 < end; c += 2) {
      st64(x, c, f64x2.add(v64(x, c), f64x2.mul(va, v64(s, c))))
      const rc = f64x2.sub(v64(r, c), f64x2.mul(va, v64(q, c)))
      st64(r, c, rc)
      acc = f64x2.add(acc, f64x2.mul(rc, rc))
    }
    let rr = f64x2.extract_lane(acc, 0) + f64x2.extract_lane(acc, 1)
    if (c < end) {
      wf64(x, c, rf64(x, c) + alpha * rf64(s, c))
      const rc = rf64(r, c) - alpha * rf64(q, c)
      wf64(r, c, rc)
      rr += rc * rc
    }
    wf64(partial, k, rr)
  }
}

/** icFactorSlab: IC(0)'s factorisation by rows; status[0] = 0, or i + 1 at the first pivot <= 0. */
export function icFactor(rowPtr: usize, col: usize, val: usize, diag: usize, invDiag: usize, pos: usize, alpha: f64, n: i32, status: usize, k0: i32, k1: i32): void {
  if (k0 >= k1) return
  wf64(status, 0, 0)
  for (let j = 0; j < n; j++) store<i32>(pos + (<usize>j << 2), -1)
  for (let i = 0; i < n; i++) {
    const start = ri32(rowPtr, i)
    const end = ri32(rowPtr, i + 1)
    for (let t = start; t < end; t++) store<i32>(pos + (<usize>ri32(col, t) << 2), t)
    let d = rf64(diag, i) * (1 + alpha)
    for (let t = start; t < end; t++) {
      const k = ri32(col, t)
      let s = rf64(val, t)
      const kEnd = ri32(rowPtr, k + 1)
      for (let u = ri32(rowPtr, k); u < kEnd; u++) {
        const at = ri32(pos, ri32(col, u))
        if (at >= 0) s -= rf64(val, at) * rf64(val, u)
      }
      const lik = s * rf64(invDiag, k)
      wf64(val, t, lik)
      d -= lik * lik
    }
    for (let t = start; t < end; t++) store<i32>(pos + (<usize>ri32(col, t) << 2), -1)
    if (!(d > 0)) {
      wf64(status, 0, <f64>(i + 1))
      return
    }
    wf64(invDiag, i, 1 / Math.sqrt(d))
  }
}

/** icSolveSlab: incomplete Cholesky's forward (L's rows) and backward (L^T's rows) solves; index 0 = compact. */
export function icSolve(rowPtr: usize, col: usize, val: usize, invDiag: usize, upPtr: usize, upRow: usize, upVal: usize, r: usize, index: usize, y: usize, out: usize, n: i32, k0: i32, k1: i32): void {
  if (k0 >= k1) return
  for (let i = 0; i < n; i++) {
    let s = index == 0 ? rf64(r, i) : rf64(r, ri32(index, i))
    const end = ri32(rowPtr, i + 1)
    for (let p = ri32(rowPtr, i); p < end; p++) s -= rf64(val, p) * rf64(y, ri32(col, p))
    wf64(y, i, s * rf64(invDiag, i))
  }
  for (let j = n - 1; j >= 0; j--) {
    let s = rf64(y, j)
    const end = ri32(upPtr, j + 1)
    for (let p = ri32(upPtr, j); p < end; p++) s -= rf64(upVal, p) * rf64(y, ri32(upRow, p))
    const zj = s * rf64(invDiag, j)
    wf64(y, j, zj)
    wf64(out, index == 0 ? j : ri32(index, j), zj)
  }
}

/**
 * spmvMultiRows: `count` vectors n apart in x and y; for three (the surface's densities) each
 * row's entries are read once for all of them, every sum still in storage order.
 */
export function spmvMulti(rowPtr: usize, col: usize, val: usize, x: usize, y: usize, n: i32, count: i32, r0: i32, r1: i32): void {
  const stride = <usize>n << 3
  if (count == 3) {
    for (let i = r0; i < r1; i++) {
      let s0: f64 = 0, s1: f64 = 0, s2: f64 = 0
      const end = ri32(rowPtr, i + 1)
      for (let p = ri32(rowPtr, i); p < end; p++) {
        const a = rf64(val, p)
        const xp = x + (<usize>ri32(col, p) << 3)
        s0 += a * load<f64>(xp)
        s1 += a * load<f64>(xp + stride)
        s2 += a * load<f64>(xp + 2 * stride)
      }
      const yp = y + (<usize>i << 3)
      store<f64>(yp, s0)
      store<f64>(yp + stride, s1)
      store<f64>(yp + 2 * stride, s2)
    }
    return
  }
  for (let d = 0; d < count; d++) spmv(rowPtr, col, val, x + <usize>d * stride, y + <usize>d * stride, r0, r1)
}
