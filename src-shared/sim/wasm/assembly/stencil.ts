// The trilinear MAC stencil of one point (reference: src-shared/sim/liquid/sample.ts MacStencil,
// lerpAt and lerpLattice, affine.ts gradAt), shared by the marker kernels (markers.ts, splat.ts)
// and the tracked surface's advection (phiAdvect.ts): the same float64 expressions in the same
// order, so the same bits.
import { rf32, wf32 } from './common'

// The stencil of one point (sample.ts MacStencil): lower index and fraction per axis, for the
// face-aligned (f) and cell-centred (c) lattices. Module globals: each thread has its own
// instance of the module, so they are per-thread scratch.
export let xf: i32 = 0, yf: i32 = 0, zf: i32 = 0, xc: i32 = 0, yc: i32 = 0, zc: i32 = 0
export let xft: f64 = 0, yft: f64 = 0, zft: f64 = 0, xct: f64 = 0, yct: f64 = 0, zct: f64 = 0

/** MacStencil.at(X, Y, Z). */
@inline export function stencilAt(X: f64, Y: f64, Z: f64, nx: i32, ny: i32, nz: i32): void {
  let g = X > 0 ? (X < <f64>nx ? X : <f64>nx) : 0
  let i = <i32>g
  if (i > nx - 1) i = nx - 1
  xf = i
  xft = g - <f64>i
  g = X - 0.5
  g = g > 0 ? (g < <f64>(nx - 1) ? g : <f64>(nx - 1)) : 0
  i = <i32>g
  if (i > nx - 2) i = nx - 2
  xc = i
  xct = g - <f64>i
  g = Y > 0 ? (Y < <f64>ny ? Y : <f64>ny) : 0
  i = <i32>g
  if (i > ny - 1) i = ny - 1
  yf = i
  yft = g - <f64>i
  g = Y - 0.5
  g = g > 0 ? (g < <f64>(ny - 1) ? g : <f64>(ny - 1)) : 0
  i = <i32>g
  if (i > ny - 2) i = ny - 2
  yc = i
  yct = g - <f64>i
  g = Z > 0 ? (Z < <f64>nz ? Z : <f64>nz) : 0
  i = <i32>g
  if (i > nz - 1) i = nz - 1
  zf = i
  zft = g - <f64>i
  g = Z - 0.5
  g = g > 0 ? (g < <f64>(nz - 1) ? g : <f64>(nz - 1)) : 0
  i = <i32>g
  if (i > nz - 2) i = nz - 2
  zc = i
  zct = g - <f64>i
}

/** sample.ts lerpAt. */
@inline export function lerpAt(f: usize, sx: i32, sy: i32, i: i32, j: i32, k: i32, tx: f64, ty: f64, tz: f64): f64 {
  const dk = sx * sy
  const o = i + sx * (j + sy * k)
  const f000 = rf32(f, o), f100 = rf32(f, o + 1), f010 = rf32(f, o + sx), f110 = rf32(f, o + sx + 1)
  const f001 = rf32(f, o + dk), f101 = rf32(f, o + dk + 1), f011 = rf32(f, o + dk + sx), f111 = rf32(f, o + dk + sx + 1)
  const c00 = f000 + tx * (f100 - f000)
  const c10 = f010 + tx * (f110 - f010)
  const c01 = f001 + tx * (f101 - f001)
  const c11 = f011 + tx * (f111 - f011)
  const c0 = c00 + ty * (c10 - c00)
  const c1 = c01 + ty * (c11 - c01)
  return c0 + tz * (c1 - c0)
}

/** sample.ts lerpLattice (sx, sy, sz >= 2). */
@inline export function lerpLattice(f: usize, sx: i32, sy: i32, sz: i32, gx: f64, gy: f64, gz: f64): f64 {
  gx = gx > 0 ? (gx < <f64>(sx - 1) ? gx : <f64>(sx - 1)) : 0
  gy = gy > 0 ? (gy < <f64>(sy - 1) ? gy : <f64>(sy - 1)) : 0
  gz = gz > 0 ? (gz < <f64>(sz - 1) ? gz : <f64>(sz - 1)) : 0
  let i = <i32>gx
  let j = <i32>gy
  let k = <i32>gz
  if (i > sx - 2) i = sx - 2
  if (j > sy - 2) j = sy - 2
  if (k > sz - 2) k = sz - 2
  return lerpAt(f, sx, sy, i, j, k, gx - <f64>i, gy - <f64>j, gz - <f64>k)
}

@inline export function sampleU(f: usize, nx: i32, ny: i32): f64 {
  return lerpAt(f, nx + 1, ny, xf, yc, zc, xft, yct, zct)
}
@inline export function sampleV(f: usize, nx: i32, ny: i32): f64 {
  return lerpAt(f, nx, ny + 1, xc, yf, zc, xct, yft, zct)
}
@inline export function sampleW(f: usize, nx: i32, ny: i32): f64 {
  return lerpAt(f, nx, ny, xc, yc, zf, xct, yct, zft)
}
@inline export function sampleCell(f: usize, nx: i32, ny: i32): f64 {
  return lerpAt(f, nx, ny, xc, yc, zc, xct, yct, zct)
}

/**
 * affine.ts gradAt: the gradient of lattice f's interpolant (times inv) into C[o .. o + 2]
 * (float32), returns the value (lerpAt's bits).
 */
@inline function gradAt(f: usize, sx: i32, sy: i32, i: i32, j: i32, k: i32, tx: f64, ty: f64, tz: f64, inv: f64, C: usize, o: i32): f64 {
  const dk = sx * sy
  const a = i + sx * (j + sy * k)
  const f000 = rf32(f, a), f100 = rf32(f, a + 1), f010 = rf32(f, a + sx), f110 = rf32(f, a + sx + 1)
  const f001 = rf32(f, a + dk), f101 = rf32(f, a + dk + 1), f011 = rf32(f, a + dk + sx), f111 = rf32(f, a + dk + sx + 1)
  const ux = 1 - tx, uy = 1 - ty, uz = 1 - tz
  wf32(C, o, inv * (uz * (uy * (f100 - f000) + ty * (f110 - f010)) + tz * (uy * (f101 - f001) + ty * (f111 - f011))))
  wf32(C, o + 1, inv * (uz * (ux * (f010 - f000) + tx * (f110 - f100)) + tz * (ux * (f011 - f001) + tx * (f111 - f101))))
  wf32(C, o + 2, inv * (uy * (ux * (f001 - f000) + tx * (f101 - f100)) + ty * (ux * (f011 - f010) + tx * (f111 - f110))))
  const c00 = f000 + tx * (f100 - f000)
  const c10 = f010 + tx * (f110 - f010)
  const c01 = f001 + tx * (f101 - f001)
  const c11 = f011 + tx * (f111 - f011)
  const c0 = c00 + ty * (c10 - c00)
  const c1 = c01 + ty * (c11 - c01)
  return c0 + tz * (c1 - c0)
}

/** affine.ts gradU / gradV / gradW at the stencil's point: gradient into C[o ..], value returned. */
@inline export function gradU(f: usize, nx: i32, ny: i32, inv: f64, C: usize, o: i32): f64 {
  return gradAt(f, nx + 1, ny, xf, yc, zc, xft, yct, zct, inv, C, o)
}
@inline export function gradV(f: usize, nx: i32, ny: i32, inv: f64, C: usize, o: i32): f64 {
  return gradAt(f, nx, ny + 1, xc, yf, zc, xct, yft, zct, inv, C, o)
}
@inline export function gradW(f: usize, nx: i32, ny: i32, inv: f64, C: usize, o: i32): f64 {
  return gradAt(f, nx, ny, xc, yc, zf, xct, yct, zft, inv, C, o)
}

/**
 * sample.ts cellOf's index along one axis of n cells: floor, clamped into [0, n - 1]; -1 for
 * NaN, where the reference's index is NaN (and reach[NaN] is undefined, not 0).
 */
@inline export function cellAxis(X: f64, n: i32): i32 {
  const f = Math.floor(X)
  if (f < 0) return 0
  if (f >= <f64>n) return n - 1
  if (f != f) return -1
  return <i32>f
}
