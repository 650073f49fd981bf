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
// A second stencil (slot 1), so two markers' samples can be taken side by side (markers.ts).
export let xfB: i32 = 0, yfB: i32 = 0, zfB: i32 = 0, xcB: i32 = 0, ycB: i32 = 0, zcB: i32 = 0
export let xftB: f64 = 0, yftB: f64 = 0, zftB: f64 = 0, xctB: f64 = 0, yctB: f64 = 0, zctB: f64 = 0

/**
 * One axis of MacStencil.at into the globals of axis a (0 x, 1 y, 2 z) of stencil `slot` (0: xf ..,
 * 1: xfB ..; a constant at every call, so the branches fold away): lane 0 the face-aligned
 * lattice (coordinate G, cells [0, n - 1]), lane 1 the cell-centred one (G - 1/2, cells
 * [0, n - 2]). pmax(0, g) is the reference's `g > 0 ? g : 0` (NaN and -0 give +0), pmin(hi, g)
 * its `g < hi ? g : hi`; the index is the truncation (g >= 0), capped; the fraction g - index.
 * Lane for lane the reference's values.
 */
@inline function axisStencil(a: i32, G: f64, n: i32, slot: i32 = 0): void {
  const g = f64x2.pmin(f64x2.replace_lane(f64x2.splat(<f64>n), 1, <f64>(n - 1)), f64x2.pmax(f64x2.splat(0), f64x2.replace_lane(f64x2.splat(G), 1, G - 0.5)))
  const i = i32x4.min_s(i32x4.trunc_sat_f64x2_s_zero(g), i32x4.replace_lane(i32x4.splat(n - 1), 1, n - 2))
  const t = f64x2.sub(g, f64x2.convert_low_i32x4_s(i))
  const f = i32x4.extract_lane(i, 0), c = i32x4.extract_lane(i, 1), ft = f64x2.extract_lane(t, 0), ct = f64x2.extract_lane(t, 1)
  if (slot == 0) {
    if (a == 0) {
      xf = f
      xc = c
      xft = ft
      xct = ct
    } else if (a == 1) {
      yf = f
      yc = c
      yft = ft
      yct = ct
    } else {
      zf = f
      zc = c
      zft = ft
      zct = ct
    }
  } else {
    if (a == 0) {
      xfB = f
      xcB = c
      xftB = ft
      xctB = ct
    } else if (a == 1) {
      yfB = f
      ycB = c
      yftB = ft
      yctB = ct
    } else {
      zfB = f
      zcB = c
      zftB = ft
      zctB = ct
    }
  }
}

/** MacStencil.at(X, Y, Z). */
@inline export function stencilAt(X: f64, Y: f64, Z: f64, nx: i32, ny: i32, nz: i32, slot: i32 = 0): void {
  axisStencil(0, X, nx, slot)
  axisStencil(1, Y, ny, slot)
  axisStencil(2, Z, nz, slot)
}

// The eight corners of a lattice cell as four pairs along x, f(o) and f(o + 1) being adjacent
// float32s: one 8-byte load and one promotion a pair. Every product and sum below is the
// scalar reference's, lane by lane, in the same order (f64x2 arithmetic rounds each lane as
// float64 does, and nothing is fused), so the bits are the reference's.
@inline function pairAt(f: usize, o: i32): v128 {
  return f64x2.promote_low_f32x4(v128.load64_zero(f + (<usize>o << 2)))
}
// Lane shuffles of two f64x2: [a0, b0] and [a1, b1].
@inline function lows(a: v128, b: v128): v128 {
  return v128.shuffle<f64>(a, b, 0, 2)
}
@inline function highs(a: v128, b: v128): v128 {
  return v128.shuffle<f64>(a, b, 1, 3)
}
@inline function laneSum(v: v128): f64 {
  return f64x2.extract_lane(v, 0) + f64x2.extract_lane(v, 1)
}

/** sample.ts lerpAt. */
@inline export function lerpAt(f: usize, sx: i32, sy: i32, i: i32, j: i32, k: i32, tx: f64, ty: f64, tz: f64): f64 {
  const dk = sx * sy
  const o = i + sx * (j + sy * k)
  // a = [f000, f100], b = [f010, f110], c = [f001, f101], d = [f011, f111].
  const a = pairAt(f, o), b = pairAt(f, o + sx), c = pairAt(f, o + dk), d = pairAt(f, o + dk + sx)
  // [c00, c10] and [c01, c11]: f0yz + tx (f1yz - f0yz).
  const TX = f64x2.splat(tx)
  const lo0 = lows(a, b), lo1 = lows(c, d)
  const cy0 = f64x2.add(lo0, f64x2.mul(TX, f64x2.sub(highs(a, b), lo0)))
  const cy1 = f64x2.add(lo1, f64x2.mul(TX, f64x2.sub(highs(c, d), lo1)))
  // [c0, c1] = [c00, c01] + ty ([c10, c11] - [c00, c01]).
  const l = lows(cy0, cy1)
  const cz = f64x2.add(l, f64x2.mul(f64x2.splat(ty), f64x2.sub(highs(cy0, cy1), l)))
  const c0 = f64x2.extract_lane(cz, 0)
  return c0 + tz * (f64x2.extract_lane(cz, 1) - c0)
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

@inline export function sampleU(f: usize, nx: i32, ny: i32, slot: i32 = 0): f64 {
  return slot == 0 ? lerpAt(f, nx + 1, ny, xf, yc, zc, xft, yct, zct) : lerpAt(f, nx + 1, ny, xfB, ycB, zcB, xftB, yctB, zctB)
}
@inline export function sampleV(f: usize, nx: i32, ny: i32, slot: i32 = 0): f64 {
  return slot == 0 ? lerpAt(f, nx, ny + 1, xc, yf, zc, xct, yft, zct) : lerpAt(f, nx, ny + 1, xcB, yfB, zcB, xctB, yftB, zctB)
}
@inline export function sampleW(f: usize, nx: i32, ny: i32, slot: i32 = 0): f64 {
  return slot == 0 ? lerpAt(f, nx, ny, xc, yc, zf, xct, yct, zft) : lerpAt(f, nx, ny, xcB, ycB, zfB, xctB, yctB, zftB)
}
@inline export function sampleCell(f: usize, nx: i32, ny: i32, slot: i32 = 0): f64 {
  return slot == 0 ? lerpAt(f, nx, ny, xc, yc, zc, xct, yct, zct) : lerpAt(f, nx, ny, xcB, ycB, zcB, xctB, yctB, zctB)
}

/**
 * affine.ts gradAt: the gradient of lattice f's interpolant (times inv) into C[o .. o + 2]
 * (float32), returns the value (lerpAt's bits). The differences along y and z are of whole
 * pairs, those along x of shuffled ones; each gradient component is two pair products whose
 * lanes are added, then weighted across the third axis (see pairAt for the bits).
 */
@inline function gradAt(f: usize, sx: i32, sy: i32, i: i32, j: i32, k: i32, tx: f64, ty: f64, tz: f64, inv: f64, C: usize, o: i32): f64 {
  const dk = sx * sy
  const at = i + sx * (j + sy * k)
  const a = pairAt(f, at), b = pairAt(f, at + sx), c = pairAt(f, at + dk), d = pairAt(f, at + dk + sx)
  const ux = 1 - tx, uy = 1 - ty, uz = 1 - tz
  const UTX = f64x2.replace_lane(f64x2.splat(ux), 1, tx)
  const UTY = f64x2.replace_lane(f64x2.splat(uy), 1, ty)
  const UTZ = f64x2.replace_lane(f64x2.splat(uz), 1, tz)
  const lo0 = lows(a, b), lo1 = lows(c, d)
  // [f100 - f000, f110 - f010] and [f101 - f001, f111 - f011].
  const dx0 = f64x2.sub(highs(a, b), lo0), dx1 = f64x2.sub(highs(c, d), lo1)
  // d/dx: uz (uy dx00 + ty dx10) + tz (uy dx01 + ty dx11).
  const px0 = f64x2.mul(UTY, dx0), px1 = f64x2.mul(UTY, dx1)
  const gx = f64x2.mul(UTZ, f64x2.add(lows(px0, px1), highs(px0, px1)))
  // d/dy from [f010 - f000, f110 - f100] and [f011 - f001, f111 - f101]: uz (ux .. + tx ..) + tz (..).
  const py0 = f64x2.mul(UTX, f64x2.sub(b, a)), py1 = f64x2.mul(UTX, f64x2.sub(d, c))
  const gy = f64x2.mul(UTZ, f64x2.add(lows(py0, py1), highs(py0, py1)))
  // d/dz from [f001 - f000, f101 - f100] and [f011 - f010, f111 - f110]: uy (ux .. + tx ..) + ty (..).
  const pz0 = f64x2.mul(UTX, f64x2.sub(c, a)), pz1 = f64x2.mul(UTX, f64x2.sub(d, b))
  const gz = f64x2.mul(UTY, f64x2.add(lows(pz0, pz1), highs(pz0, pz1)))
  wf32(C, o, inv * laneSum(gx))
  wf32(C, o + 1, inv * laneSum(gy))
  wf32(C, o + 2, inv * laneSum(gz))
  const TX = f64x2.splat(tx)
  const cy0 = f64x2.add(lo0, f64x2.mul(TX, dx0))
  const cy1 = f64x2.add(lo1, f64x2.mul(TX, dx1))
  const l = lows(cy0, cy1)
  const cz = f64x2.add(l, f64x2.mul(f64x2.splat(ty), f64x2.sub(highs(cy0, cy1), l)))
  const c0 = f64x2.extract_lane(cz, 0)
  return c0 + tz * (f64x2.extract_lane(cz, 1) - c0)
}

/** affine.ts gradU / gradV / gradW at the stencil's point: gradient into C[o ..], value returned. */
@inline export function gradU(f: usize, nx: i32, ny: i32, inv: f64, C: usize, o: i32, slot: i32 = 0): f64 {
  return slot == 0 ? gradAt(f, nx + 1, ny, xf, yc, zc, xft, yct, zct, inv, C, o) : gradAt(f, nx + 1, ny, xfB, ycB, zcB, xftB, yctB, zctB, inv, C, o)
}
@inline export function gradV(f: usize, nx: i32, ny: i32, inv: f64, C: usize, o: i32, slot: i32 = 0): f64 {
  return slot == 0 ? gradAt(f, nx, ny + 1, xc, yf, zc, xct, yft, zct, inv, C, o) : gradAt(f, nx, ny + 1, xcB, yfB, zcB, xctB, yftB, zctB, inv, C, o)
}
@inline export function gradW(f: usize, nx: i32, ny: i32, inv: f64, C: usize, o: i32, slot: i32 = 0): f64 {
  return slot == 0 ? gradAt(f, nx, ny, xc, yc, zf, xct, yct, zft, inv, C, o) : gradAt(f, nx, ny, xcB, ycB, zfB, xctB, yctB, zftB, inv, C, o)
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
