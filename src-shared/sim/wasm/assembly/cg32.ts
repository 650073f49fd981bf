// Twins of src-shared/sim/core/sparse/cg32Kernels.ts: float32 CG vector steps, four entries a
// f32x4 vector; the float64 sums in four lanes (two f64x2 halves), (s0 + s1) + (s2 + s3), then
// a block's last n mod 4 entries one by one, as the references add them.
import { rf64, wf64 } from './common'

@inline function lf(p: usize, i: i32): f32 {
  return load<f32>(p + (<usize>i << 2))
}

/** The four lanes of a (float32) widened into two f64x2 sums' increments: lanes 0, 1 and 2, 3. */
@inline function lo(v: v128): v128 {
  return f64x2.promote_low_f32x4(v)
}
@inline function hi(v: v128): v128 {
  return f64x2.promote_low_f32x4(i32x4.shuffle(v, v, 2, 3, 2, 3))
}
@inline function total(a: v128, b: v128): f64 {
  return f64x2.extract_lane(a, 0) + f64x2.extract_lane(a, 1) + (f64x2.extract_lane(b, 0) + f64x2.extract_lane(b, 1))
}

/** dot32Blocks: partial[k] = a . b over block k. */
export function dot32Blocks(a: usize, b: usize, n: i32, block: i32, partial: usize, k0: i32, k1: i32): void {
  for (let k = k0; k < k1; k++) {
    let c = k * block
    const e = c + block
    const end = e < n ? e : n
    let s01 = f64x2.splat(0), s23 = f64x2.splat(0)
    for (; c + 4 <= end; c += 4) {
      const o = <usize>c << 2
      const p = f32x4.mul(v128.load(a + o), v128.load(b + o))
      s01 = f64x2.add(s01, lo(p))
      s23 = f64x2.add(s23, hi(p))
    }
    let s = total(s01, s23)
    for (; c < end; c++) s += <f64>(lf(a, c) * lf(b, c))
    wf64(partial, k, s)
  }
}

/** update32Blocks: x += alpha s; r -= alpha q; partial[k] = |r|^2, rz[k] = r . (invDiag r). */
export function update32Blocks(x: usize, r: usize, s: usize, q: usize, invDiag: usize, alpha: f64, n: i32, block: i32, partial: usize, rz: usize, k0: i32, k1: i32): void {
  const a = <f32>alpha
  const va = f32x4.splat(a)
  for (let k = k0; k < k1; k++) {
    let c = k * block
    const e = c + block
    const end = e < n ? e : n
    let r01 = f64x2.splat(0), r23 = f64x2.splat(0), z01 = f64x2.splat(0), z23 = f64x2.splat(0)
    for (; c + 4 <= end; c += 4) {
      const o = <usize>c << 2
      v128.store(x + o, f32x4.add(v128.load(x + o), f32x4.mul(va, v128.load(s + o))))
      const v = f32x4.sub(v128.load(r + o), f32x4.mul(va, v128.load(q + o)))
      v128.store(r + o, v)
      const sq = f32x4.mul(v, v)
      const vz = f32x4.mul(v, f32x4.mul(v, v128.load(invDiag + o)))
      r01 = f64x2.add(r01, lo(sq))
      r23 = f64x2.add(r23, hi(sq))
      z01 = f64x2.add(z01, lo(vz))
      z23 = f64x2.add(z23, hi(vz))
    }
    let sr = total(r01, r23), sz = total(z01, z23)
    for (; c < end; c++) {
      const o = <usize>c << 2
      store<f32>(x + o, load<f32>(x + o) + a * load<f32>(s + o))
      const v: f32 = load<f32>(r + o) - a * load<f32>(q + o)
      store<f32>(r + o, v)
      sr += <f64>(v * v)
      sz += <f64>(v * (v * load<f32>(invDiag + o)))
    }
    wf64(partial, k, sr)
    wf64(rz, k, sz)
  }
}

/** search32Blocks: s = invDiag r + beta s. */
export function search32Blocks(s: usize, r: usize, invDiag: usize, beta: f64, n: i32, block: i32, k0: i32, k1: i32): void {
  const b = <f32>beta
  const vb = f32x4.splat(b)
  let c = k0 * block
  const e = k1 * block
  const end = e < n ? e : n
  for (; c + 4 <= end; c += 4) {
    const o = <usize>c << 2
    v128.store(s + o, f32x4.add(f32x4.mul(v128.load(r + o), v128.load(invDiag + o)), f32x4.mul(vb, v128.load(s + o))))
  }
  for (; c < end; c++) {
    const o = <usize>c << 2
    store<f32>(s + o, load<f32>(r + o) * load<f32>(invDiag + o) + b * load<f32>(s + o))
  }
}

/** addWideBlocks: x += e, e widened. */
export function addWideBlocks(x: usize, e: usize, n: i32, block: i32, k0: i32, k1: i32): void {
  let c = k0 * block
  const en = k1 * block
  const end = en < n ? en : n
  for (; c + 4 <= end; c += 4) {
    const v = v128.load(e + (<usize>c << 2))
    const o = <usize>c << 3
    v128.store(x + o, f64x2.add(v128.load(x + o), lo(v)))
    v128.store(x + o + 16, f64x2.add(v128.load(x + o + 16), hi(v)))
  }
  for (; c < end; c++) wf64(x, c, rf64(x, c) + <f64>lf(e, c))
}
