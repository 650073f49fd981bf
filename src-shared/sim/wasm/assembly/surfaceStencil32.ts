// Twins of src-shared/sim/surface/patchStencil32.ts: the projection multigrid's float32 sweeps,
// residuals and 2 x 2 transfers. Inner rows go four at a time in the f32x4 lanes, each lane
// summing the stencil's nine products in the CSR's column order from the five symmetric planes
// (patchStencil32.ts), with the same byte-pointer walk as surfaceStencil.ts (one pointer for the
// planes at fixed distances, one for x's three rows at +-n); edge rows are summed one by one
// from the compact edge CSR.
// Every operation is an f32 instruction, which rounds as the references' Math.fround does.
import { ri32 } from './common'

/** What a row's sum s becomes: y = s, r = b - s, out = x + scale (b - s), the same widened to float64. */
const PUT_SUM = 0
const PUT_RESIDUAL = 1
const PUT_JACOBI = 2
const PUT_JACOBI_WIDE = 3

@inline function lf(p: usize, i: i32): f32 {
  return load<f32>(p + (<usize>i << 2))
}

@inline function put1(mode: i32, s: f32, x: usize, b: usize, scale: usize, out: usize, u: i32): void {
  if (mode == PUT_SUM) store<f32>(out + (<usize>u << 2), s)
  else if (mode == PUT_RESIDUAL) store<f32>(out + (<usize>u << 2), lf(b, u) - s)
  else {
    const v: f32 = lf(x, u) + lf(scale, u) * (lf(b, u) - s)
    if (mode == PUT_JACOBI) store<f32>(out + (<usize>u << 2), v)
    else store<f64>(out + (<usize>u << 3), <f64>v)
  }
}

/** Edge row e's float32 sum in storage order. */
@inline function edgeSum(ePtr: usize, eCol: usize, eVal: usize, x: usize, e: i32): f32 {
  let s: f32 = 0
  const end = ri32(ePtr, e + 1)
  for (let q = ri32(ePtr, e); q < end; q++) s += lf(eVal, q) * lf(x, ri32(eCol, q))
  return s
}

/**
 * Rows r .. r + 3's stencil sums in the lanes: c at the centre plane's entry r (the symmetric
 * layout's planes at c + q pb: centre, +1, +n - 1, +n, +n + 1; an offset -d's coefficient read
 * from plane +d at r - d), xr at x[r].
 */
@inline function quadSum(c: usize, pb: usize, xr: usize, nb: usize): v128 {
  const xm = xr - nb, xp = xr + nb
  const e = c + pb, nw = c + 2 * pb, no = c + 3 * pb, ne = c + 4 * pb
  let s = f32x4.add(f32x4.splat(0), f32x4.mul(v128.load(ne - nb - 4), v128.load(xm - 4)))
  s = f32x4.add(s, f32x4.mul(v128.load(no - nb), v128.load(xm)))
  s = f32x4.add(s, f32x4.mul(v128.load(nw - nb + 4), v128.load(xm + 4)))
  s = f32x4.add(s, f32x4.mul(v128.load(e - 4), v128.load(xr - 4)))
  s = f32x4.add(s, f32x4.mul(v128.load(c), v128.load(xr)))
  s = f32x4.add(s, f32x4.mul(v128.load(e), v128.load(xr + 4)))
  s = f32x4.add(s, f32x4.mul(v128.load(nw), v128.load(xp - 4)))
  s = f32x4.add(s, f32x4.mul(v128.load(no), v128.load(xp)))
  return f32x4.add(s, f32x4.mul(v128.load(ne), v128.load(xp + 4)))
}

/** Row r's stencil sum (pointers as quadSum). */
@inline function oneSum(c: usize, pb: usize, xr: usize, nb: usize): f32 {
  const xm = xr - nb, xp = xr + nb
  const e = c + pb, nw = c + 2 * pb, no = c + 3 * pb, ne = c + 4 * pb
  let s: f32 = 0
  s += load<f32>(ne - nb - 4) * load<f32>(xm - 4)
  s += load<f32>(no - nb) * load<f32>(xm)
  s += load<f32>(nw - nb + 4) * load<f32>(xm + 4)
  s += load<f32>(e - 4) * load<f32>(xr - 4)
  s += load<f32>(c) * load<f32>(xr)
  s += load<f32>(e) * load<f32>(xr + 4)
  s += load<f32>(nw) * load<f32>(xp - 4)
  s += load<f32>(no) * load<f32>(xp)
  s += load<f32>(ne) * load<f32>(xp + 4)
  return s
}

/** The inner rows [r, last) of one patch row, four at a time, then the rest one by one. */
@inline function innerRun(mode: i32, coef: usize, pb: usize, x: usize, b: usize, scale: usize, out: usize, nb: usize, r: i32, last: i32): void {
  let c = coef + (<usize>r << 2)
  let xr = x + (<usize>r << 2)
  let br = b + (<usize>r << 2)
  let sr = scale + (<usize>r << 2)
  let u = r
  for (; u + 4 <= last; u += 4, c += 16, xr += 16, br += 16, sr += 16) {
    const s = quadSum(c, pb, xr, nb)
    if (mode == PUT_SUM) v128.store(out + (<usize>u << 2), s)
    else if (mode == PUT_RESIDUAL) v128.store(out + (<usize>u << 2), f32x4.sub(v128.load(br), s))
    else {
      const v = f32x4.add(v128.load(xr), f32x4.mul(v128.load(sr), f32x4.sub(v128.load(br), s)))
      if (mode == PUT_JACOBI) v128.store(out + (<usize>u << 2), v)
      else {
        const o = out + (<usize>u << 3)
        v128.store(o, f64x2.promote_low_f32x4(v))
        v128.store(o + 16, f64x2.promote_low_f32x4(i32x4.shuffle(v, v, 2, 3, 2, 3)))
      }
    }
  }
  for (; u < last; u++, c += 4, xr += 4) put1(mode, oneSum(c, pb, xr, nb), x, b, scale, out, u)
}

/** The rows of patches [p0, p1), each sum put by `mode` (patchStencil32.ts eachRow32's order). */
@inline function patchRows32(mode: i32, ePtr: usize, eCol: usize, eVal: usize, coef: usize, stride: i32, x: usize, b: usize, scale: usize, out: usize, n: i32, p0: i32, p1: i32): void {
  const pb = <usize>stride << 2
  const nb = <usize>n << 2
  for (let p = p0; p < p1; p++) {
    let e = p * (4 * n - 4)
    for (let j = 0; j < n; j++) {
      const r0 = p * n * n + n * j
      if (j == 0 || j == n - 1) {
        for (let i = 0; i < n; i++) put1(mode, edgeSum(ePtr, eCol, eVal, x, e++), x, b, scale, out, r0 + i)
        continue
      }
      put1(mode, edgeSum(ePtr, eCol, eVal, x, e++), x, b, scale, out, r0)
      innerRun(mode, coef, pb, x, b, scale, out, nb, r0 + 1, r0 + n - 1)
      put1(mode, edgeSum(ePtr, eCol, eVal, x, e++), x, b, scale, out, r0 + n - 1)
    }
  }
}

/** stencil32SpmvPatches: y = A x. */
export function stencil32Spmv(ePtr: usize, eCol: usize, eVal: usize, coef: usize, stride: i32, x: usize, y: usize, n: i32, p0: i32, p1: i32): void {
  patchRows32(PUT_SUM, ePtr, eCol, eVal, coef, stride, x, 0, 0, y, n, p0, p1)
}

/** stencil32ResidualPatches: r = b - A x. */
export function stencil32Residual(ePtr: usize, eCol: usize, eVal: usize, coef: usize, stride: i32, x: usize, b: usize, r: usize, n: i32, p0: i32, p1: i32): void {
  patchRows32(PUT_RESIDUAL, ePtr, eCol, eVal, coef, stride, x, b, 0, r, n, p0, p1)
}

/** stencil32JacobiPatches: out = x + scale (b - A x), out float32. */
export function stencil32Jacobi(ePtr: usize, eCol: usize, eVal: usize, coef: usize, stride: i32, x: usize, b: usize, scale: usize, out: usize, n: i32, p0: i32, p1: i32): void {
  patchRows32(PUT_JACOBI, ePtr, eCol, eVal, coef, stride, x, b, scale, out, n, p0, p1)
}

/** stencil32JacobiPatches with out float64. */
export function stencil32JacobiWide(ePtr: usize, eCol: usize, eVal: usize, coef: usize, stride: i32, x: usize, b: usize, scale: usize, out: usize, n: i32, p0: i32, p1: i32): void {
  patchRows32(PUT_JACOBI_WIDE, ePtr, eCol, eVal, coef, stride, x, b, scale, out, n, p0, p1)
}

/** narrowScalePatches: b = f32(r), y = scale b. */
export function narrowScale(r: usize, b: usize, scale: usize, y: usize, n: i32, p0: i32, p1: i32): void {
  let u = p0 * n * n
  const end = p1 * n * n
  for (; u + 4 <= end; u += 4) {
    const ro = r + (<usize>u << 3)
    const lo = f32x4.demote_f64x2_zero(v128.load(ro))
    const hi = f32x4.demote_f64x2_zero(v128.load(ro + 16))
    const v = i32x4.shuffle(lo, hi, 0, 1, 4, 5)
    const o = <usize>u << 2
    v128.store(b + o, v)
    v128.store(y + o, f32x4.mul(v128.load(scale + o), v))
  }
  for (; u < end; u++) {
    const v = <f32>load<f64>(r + (<usize>u << 3))
    store<f32>(b + (<usize>u << 2), v)
    store<f32>(y + (<usize>u << 2), lf(scale, u) * v)
  }
}

/** restrict32Patches: each coarse cell the sum of its 2 x 2 fine cells in ascending order. */
export function restrict32(fine: usize, coarse: usize, n: i32, p0: i32, p1: i32): void {
  const nc = (n + 1) >> 1
  for (let p = p0; p < p1; p++) {
    const f0 = p * n * n, c0 = p * nc * nc
    for (let J = 0; J < nc; J++) {
      const j = 2 * J
      const two = j + 1 < n
      for (let I = 0; I < nc; I++) {
        const i = 2 * I
        const u = f0 + i + n * j
        const wide = i + 1 < n
        let s: f32 = 0
        s += lf(fine, u)
        if (wide) s += lf(fine, u + 1)
        if (two) {
          s += lf(fine, u + n)
          if (wide) s += lf(fine, u + n + 1)
        }
        store<f32>(coarse + (<usize>(c0 + I + nc * J) << 2), s)
      }
    }
  }
}

/** prolongAdd32Patches: x += alpha xc[aggregate]. */
export function prolongAdd32(coarse: usize, x: usize, alpha: f64, n: i32, p0: i32, p1: i32): void {
  const nc = (n + 1) >> 1
  const a = <f32>alpha
  for (let p = p0; p < p1; p++) {
    const f0 = p * n * n, c0 = p * nc * nc
    for (let j = 0; j < n; j++) {
      const row = c0 + nc * (j >> 1)
      for (let i = 0; i < n; i++) {
        const u = f0 + i + n * j
        store<f32>(x + (<usize>u << 2), lf(x, u) + a * lf(coarse, row + (i >> 1)))
      }
    }
  }
}

/** scale32Patches: y = scale b. */
export function scale32(b: usize, scale: usize, y: usize, n: i32, p0: i32, p1: i32): void {
  let u = p0 * n * n
  const end = p1 * n * n
  for (; u + 4 <= end; u += 4) {
    const o = <usize>u << 2
    v128.store(y + o, f32x4.mul(v128.load(scale + o), v128.load(b + o)))
  }
  for (; u < end; u++) store<f32>(y + (<usize>u << 2), lf(scale, u) * lf(b, u))
}
