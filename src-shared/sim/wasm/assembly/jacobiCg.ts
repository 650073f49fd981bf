// Twins of src-shared/sim/core/sparse/jacobiCgKernels.ts: fused Jacobi-CG steps for systems
// sharing one matrix, bit-identical to the separate kernels of sparse.ts they replace (the same
// f64x2 lane sums over even and odd offsets, the same products).
import { rf64, ri32, st64, v64, wf64 } from './common'

/** residualMultiRows: r_d = b_d - A x_d, rows [r0, r1); three systems share each entry's loads. */
export function residualMulti(rowPtr: usize, col: usize, val: usize, x: usize, b: usize, r: usize, n: i32, count: i32, r0: i32, r1: i32): void {
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
      const o = <usize>i << 3
      store<f64>(r + o, load<f64>(b + o) - s0)
      store<f64>(r + o + stride, load<f64>(b + o + stride) - s1)
      store<f64>(r + o + 2 * stride, load<f64>(b + o + 2 * stride) - s2)
    }
    return
  }
  for (let d = 0; d < count; d++) {
    const o = <usize>d * stride
    for (let i = r0; i < r1; i++) {
      let s: f64 = 0
      const end = ri32(rowPtr, i + 1)
      for (let p = ri32(rowPtr, i); p < end; p++) s += rf64(val, p) * load<f64>(x + o + (<usize>ri32(col, p) << 3))
      const at = o + (<usize>i << 3)
      store<f64>(r + at, load<f64>(b + at) - s)
    }
  }
}

/** jacobiCgUpdateBlocks: x += alpha s; r -= alpha q; partial[k] = |r|^2, rz[k] = r . (invDiag r). */
export function jacobiCgUpdateBlocks(x: usize, r: usize, s: usize, q: usize, invDiag: usize, alpha: f64, n: i32, block: i32, partial: usize, rz: usize, k0: i32, k1: i32): void {
  const va = f64x2.splat(alpha)
  for (let k = k0; k < k1; k++) {
    let c = k * block
    const e = c + block
    const end = e < n ? e : n
    let acc = f64x2.splat(0)
    let accz = f64x2.splat(0)
    for (; c + 1 < end; c += 2) {
      st64(x, c, f64x2.add(v64(x, c), f64x2.mul(va, v64(s, c))))
      const rc = f64x2.sub(v64(r, c), f64x2.mul(va, v64(q, c)))
      st64(r, c, rc)
      acc = f64x2.add(acc, f64x2.mul(rc, rc))
      accz = f64x2.add(accz, f64x2.mul(rc, f64x2.mul(rc, v64(invDiag, c))))
    }
    let rr = f64x2.extract_lane(acc, 0) + f64x2.extract_lane(acc, 1)
    let rzk = f64x2.extract_lane(accz, 0) + f64x2.extract_lane(accz, 1)
    if (c < end) {
      wf64(x, c, rf64(x, c) + alpha * rf64(s, c))
      const rc = rf64(r, c) - alpha * rf64(q, c)
      wf64(r, c, rc)
      rr += rc * rc
      rzk += rc * (rc * rf64(invDiag, c))
    }
    wf64(partial, k, rr)
    wf64(rz, k, rzk)
  }
}

/** jacobiSearchBlocks: s = invDiag r + beta s. */
export function jacobiSearchBlocks(s: usize, r: usize, invDiag: usize, beta: f64, n: i32, block: i32, k0: i32, k1: i32): void {
  const vb = f64x2.splat(beta)
  let c = k0 * block
  const e = k1 * block
  const end = e < n ? e : n
  for (; c + 1 < end; c += 2) st64(s, c, f64x2.add(f64x2.mul(v64(r, c), v64(invDiag, c)), f64x2.mul(vb, v64(s, c))))
  if (c < end) wf64(s, c, rf64(r, c) * rf64(invDiag, c) + beta * rf64(s, c))
}
