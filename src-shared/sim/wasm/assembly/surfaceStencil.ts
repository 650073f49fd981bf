// Twins of src-shared/sim/surface/patchStencil.ts: a patch operator's products with its inner
// rows read from nine coefficient planes, two neighbouring rows in the two f64x2 lanes, each
// lane summing in the stencil's (the CSR's column) order; a patch's edge rows go through the
// stencil's compact edge CSR as sparse.ts goes through a CSR. Bit-identical to the references.
//
// Why the pointers: the inner loop steps one byte pointer per stream (the nine planes share
// one, at fixed distances; x's three rows another, at +-n) and every load takes a constant
// offset from it, so a pair of rows costs its 18 loads, 9 multiplies and 9 adds and little
// else. Written with element indices (base + ((r + offset) << 3) per load) the same loop ran
// no faster than the CSR rows: on the 450-patch cage at 32^2 a damped Jacobi sweep over the
// inner rows took 0.8-0.9 ms this way against 2.9 ms as CSR rows (2 threads).
import { rf64, wf64, v64, st64 } from './common'
import { rowPair, rowSum } from './csrRows'

/** What a row's sum s becomes: y = s, r = b - s, out = x + scale (b - s). */
const PUT_SUM = 0
const PUT_RESIDUAL = 1
const PUT_JACOBI = 2

@inline function put1(mode: i32, s: f64, x: usize, b: usize, scale: usize, out: usize, r: i32): void {
  if (mode == PUT_SUM) wf64(out, r, s)
  else if (mode == PUT_RESIDUAL) wf64(out, r, rf64(b, r) - s)
  else wf64(out, r, rf64(x, r) + rf64(scale, r) * (rf64(b, r) - s))
}

@inline function put2(mode: i32, s: v128, x: usize, b: usize, scale: usize, out: usize, r: i32): void {
  if (mode == PUT_SUM) st64(out, r, s)
  else if (mode == PUT_RESIDUAL) st64(out, r, f64x2.sub(v64(b, r), s))
  else st64(out, r, f64x2.add(v64(x, r), f64x2.mul(v64(scale, r), f64x2.sub(v64(b, r), s))))
}

/**
 * Rows r, r + 1's stencil sums in the lanes: c points at plane 0's entry r (plane k at c + k pb),
 * xr at x[r] (row j - 1 at xr - nb, row j + 1 at xr + nb).
 */
@inline function pairSum(c: usize, pb: usize, xr: usize, nb: usize): v128 {
  const xm = xr - nb, xp = xr + nb
  let s = f64x2.add(f64x2.splat(0), f64x2.mul(v128.load(c), v128.load(xm - 8)))
  s = f64x2.add(s, f64x2.mul(v128.load(c + pb), v128.load(xm)))
  s = f64x2.add(s, f64x2.mul(v128.load(c + 2 * pb), v128.load(xm + 8)))
  s = f64x2.add(s, f64x2.mul(v128.load(c + 3 * pb), v128.load(xr - 8)))
  s = f64x2.add(s, f64x2.mul(v128.load(c + 4 * pb), v128.load(xr)))
  s = f64x2.add(s, f64x2.mul(v128.load(c + 5 * pb), v128.load(xr + 8)))
  s = f64x2.add(s, f64x2.mul(v128.load(c + 6 * pb), v128.load(xp - 8)))
  s = f64x2.add(s, f64x2.mul(v128.load(c + 7 * pb), v128.load(xp)))
  return f64x2.add(s, f64x2.mul(v128.load(c + 8 * pb), v128.load(xp + 8)))
}

/** Row r's stencil sum (pointers as pairSum). */
@inline function oneSum(c: usize, pb: usize, xr: usize, nb: usize): f64 {
  const xm = xr - nb, xp = xr + nb
  let s: f64 = 0
  s += load<f64>(c) * load<f64>(xm - 8)
  s += load<f64>(c + pb) * load<f64>(xm)
  s += load<f64>(c + 2 * pb) * load<f64>(xm + 8)
  s += load<f64>(c + 3 * pb) * load<f64>(xr - 8)
  s += load<f64>(c + 4 * pb) * load<f64>(xr)
  s += load<f64>(c + 5 * pb) * load<f64>(xr + 8)
  s += load<f64>(c + 6 * pb) * load<f64>(xp - 8)
  s += load<f64>(c + 7 * pb) * load<f64>(xp)
  s += load<f64>(c + 8 * pb) * load<f64>(xp + 8)
  return s
}

/**
 * The inner rows [r, last) of one patch row, two at a time, each stream a byte pointer stepped
 * by 16 (the sums of pairSum, put by `mode`); an odd last row alone. Returns nothing: every row
 * of the run is written.
 */
@inline function innerRun(mode: i32, coef: usize, pb: usize, x: usize, b: usize, scale: usize, out: usize, nb: usize, r: i32, last: i32): void {
  let c = coef + (<usize>r << 3)
  let xr = x + (<usize>r << 3)
  let br = b + (<usize>r << 3)
  let sr = scale + (<usize>r << 3)
  let or = out + (<usize>r << 3)
  const end = x + (<usize>(last - 1) << 3)
  for (; xr < end; c += 16, xr += 16, br += 16, sr += 16, or += 16) {
    const s = pairSum(c, pb, xr, nb)
    if (mode == PUT_SUM) v128.store(or, s)
    else if (mode == PUT_RESIDUAL) v128.store(or, f64x2.sub(v128.load(br), s))
    else v128.store(or, f64x2.add(v128.load(xr), f64x2.mul(v128.load(sr), f64x2.sub(v128.load(br), s))))
  }
  if (xr < end + 8) {
    const s = oneSum(c, pb, xr, nb)
    if (mode == PUT_SUM) store<f64>(or, s)
    else if (mode == PUT_RESIDUAL) store<f64>(or, load<f64>(br) - s)
    else store<f64>(or, load<f64>(xr) + load<f64>(sr) * (load<f64>(br) - s))
  }
}

/**
 * The rows of patches [p0, p1), each sum put by `mode` (a constant where this is inlined):
 * inner rows by innerRun, edge rows from the edge CSR (ePtr, eCol, eVal; 4n - 4 rows a patch in
 * visiting order), two at a time in rowPair's lanes.
 */
@inline function patchRows(mode: i32, ePtr: usize, eCol: usize, eVal: usize, coef: usize, stride: i32, x: usize, b: usize, scale: usize, out: usize, n: i32, p0: i32, p1: i32): void {
  const pb = <usize>stride << 3
  const nb = <usize>n << 3
  for (let p = p0; p < p1; p++) {
    let e = p * (4 * n - 4)
    for (let j = 0; j < n; j++) {
      const r0 = p * n * n + n * j
      if (j == 0 || j == n - 1) {
        let i = 0
        for (; i + 1 < n; i += 2, e += 2) put2(mode, rowPair(ePtr, eCol, eVal, x, e), x, b, scale, out, r0 + i)
        if (i < n) put1(mode, rowSum(ePtr, eCol, eVal, x, e++), x, b, scale, out, r0 + i)
        continue
      }
      // The row's first and last cells are consecutive edge rows: one pair of lanes.
      const s = rowPair(ePtr, eCol, eVal, x, e)
      e += 2
      put1(mode, f64x2.extract_lane(s, 0), x, b, scale, out, r0)
      innerRun(mode, coef, pb, x, b, scale, out, nb, r0 + 1, r0 + n - 1)
      put1(mode, f64x2.extract_lane(s, 1), x, b, scale, out, r0 + n - 1)
    }
  }
}

/** stencilSpmvPatches: y = A x over the rows of patches [p0, p1). */
export function stencilSpmv(ePtr: usize, eCol: usize, eVal: usize, coef: usize, stride: i32, x: usize, y: usize, n: i32, p0: i32, p1: i32): void {
  patchRows(PUT_SUM, ePtr, eCol, eVal, coef, stride, x, 0, 0, y, n, p0, p1)
}

/** stencilResidualPatches: r = b - A x. */
export function stencilResidual(ePtr: usize, eCol: usize, eVal: usize, coef: usize, stride: i32, x: usize, b: usize, r: usize, n: i32, p0: i32, p1: i32): void {
  patchRows(PUT_RESIDUAL, ePtr, eCol, eVal, coef, stride, x, b, 0, r, n, p0, p1)
}

/** stencilJacobiPatches: out = x + scale (b - A x). */
export function stencilJacobi(ePtr: usize, eCol: usize, eVal: usize, coef: usize, stride: i32, x: usize, b: usize, scale: usize, out: usize, n: i32, p0: i32, p1: i32): void {
  patchRows(PUT_JACOBI, ePtr, eCol, eVal, coef, stride, x, b, scale, out, n, p0, p1)
}
