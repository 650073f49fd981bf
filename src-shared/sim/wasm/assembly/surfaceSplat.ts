// The liquid surface mesher's particle splat and phi (reference: src-shared/sim/liquid/surface/
// surfaceSplatKernels.ts surfaceSplatSlab; Zhu & Bridson 2005). The arrays hold a window of
// node planes from grid plane kBase; a call covers window planes [k0, k1): it zeroes their
// sums, adds particles [first, last) and their wall mirrors to the interior nodes of its planes
// in particle order, and turns the sums into phi there. float32 sums
// rounded after every add, as the reference's Float32Array stores; bounds computed and
// compared in float64 before any conversion to integers.
import { rf32, wf32 } from './common'

@inline function add32(p: usize, m: i32, v: f64): void {
  const a = p + (<usize>m << 2)
  store<f32>(a, <f32>(<f64>load<f32>(a) + v))
}

/** add32 on nodes m and m + 1 (adjacent float32s), lane by lane. */
@inline function add32x2(p: usize, m: i32, v: v128): void {
  const a = p + (<usize>m << 2)
  v128.store64_lane(a, f32x4.demote_f64x2_zero(f64x2.add(f64x2.promote_low_f32x4(v128.load64_zero(a)), v)), 0)
}

@inline function splat(ws: usize, sx: usize, sy: usize, sz: usize, nx: i32, ny: i32, nz: i32, kBase: i32, ox: f64, oy: f64, oz: f64, h: f64, R: f64, px: f64, py: f64, pz: f64, ka: i32, kb: i32): void {
  const R2 = R * R, invR2 = 1 / R2, invH = 1 / h, plane = nx * ny
  const R2v = f64x2.splat(R2), INVR2 = f64x2.splat(invR2), ONE = f64x2.splat(1)
  const i0 = Math.max(1, Math.ceil((px - R - ox) * invH)), i1 = Math.min(<f64>(nx - 2), Math.floor((px + R - ox) * invH))
  const j0 = Math.max(1, Math.ceil((py - R - oy) * invH)), j1 = Math.min(<f64>(ny - 2), Math.floor((py + R - oy) * invH))
  const k0 = Math.max(Math.max(1, <f64>ka), Math.ceil((pz - R - oz) * invH)), k1 = Math.min(Math.min(<f64>(nz - 2), <f64>(kb - 1)), Math.floor((pz + R - oz) * invH))
  // Empty or non-finite ranges write nothing, as the reference's loops.
  if (!(i0 <= i1 && j0 <= j1 && k0 <= k1)) return
  const ia = <i32>i0, ib = <i32>i1, ja = <i32>j0, jb = <i32>j1, kA = <i32>k0, kB = <i32>k1
  for (let k = kA; k <= kB; k++) {
    const ez = pz - (oz + <f64>k * h)
    for (let j = ja; j <= jb; j++) {
      const ey = py - (oy + <f64>j * h)
      const dyz = ey * ey + ez * ez
      if (dyz >= R2) continue
      const row = nx * j + plane * (k - kBase)
      const DYZ = f64x2.splat(dyz), EY = f64x2.splat(ey), EZ = f64x2.splat(ez)
      let i = ia
      // Two nodes at a time, in the lanes of f64x2: a node beyond R gets a weight of +0, and
      // adding +-0 leaves its float32 sums' bits as they were (they start at +0 and are never
      // -0), so every node's sums are the reference's.
      for (; i < ib; i += 2) {
        const EX = f64x2.replace_lane(f64x2.splat(px - (ox + <f64>i * h)), 1, px - (ox + <f64>(i + 1) * h))
        const D2 = f64x2.add(f64x2.mul(EX, EX), DYZ)
        const inside = f64x2.lt(D2, R2v)
        if (!v128.any_true(inside)) continue
        const Q = f64x2.sub(ONE, f64x2.mul(D2, INVR2))
        const W = v128.and(f64x2.mul(f64x2.mul(Q, Q), Q), inside)
        const m = row + i
        add32x2(ws, m, W)
        add32x2(sx, m, f64x2.mul(W, EX))
        add32x2(sy, m, f64x2.mul(W, EY))
        add32x2(sz, m, f64x2.mul(W, EZ))
      }
      if (i == ib) {
        const ex = px - (ox + <f64>i * h)
        const d2 = ex * ex + dyz
        if (d2 >= R2) continue
        const q = 1 - d2 * invR2
        const w = q * q * q
        const m = row + i
        add32(ws, m, w)
        add32(sx, m, w * ex)
        add32(sy, m, w * ey)
        add32(sz, m, w * ez)
      }
    }
  }
}

/** surfaceSplatSlab over window planes [k0, k1). */
export function surfaceSplat(
  ws: usize, sx: usize, sy: usize, sz: usize, sorted: usize, first: i32, last: i32,
  nx: i32, ny: i32, nz: i32, kBase: i32, ox: f64, oy: f64, oz: f64, h: f64, R: f64,
  lo0: f64, lo1: f64, lo2: f64, hi0: f64, hi1: f64, hi2: f64, rad: f64, far: f64,
  k0: i32, k1: i32,
): void {
  const plane = nx * ny
  const m0 = k0 * plane, m1 = k1 * plane
  if (m1 > m0) {
    const bytes = <usize>(m1 - m0) << 2, at = <usize>m0 << 2
    memory.fill(ws + at, 0, bytes)
    memory.fill(sx + at, 0, bytes)
    memory.fill(sy + at, 0, bytes)
    memory.fill(sz + at, 0, bytes)
  }
  // A particle (or its z mirror) reaches node planes within R of it: skip those that reach
  // none of [k0, k1) before the x and y images (1.5 R: margin for rounding).
  const ka = kBase + k0, kb = kBase + k1
  const zlo = oz + <f64>ka * h - 1.5 * R, zhi = oz + <f64>(kb - 1) * h + 1.5 * R
  for (let s = first; s < last; s++) {
    const z = rf32(sorted, 3 * s + 2)
    const zm = z - lo2 < R ? 2 * lo2 - z : NaN, zp = hi2 - z < R ? 2 * hi2 - z : NaN
    if (!(z >= zlo && z <= zhi) && !(zm >= zlo && zm <= zhi) && !(zp >= zlo && zp <= zhi)) continue
    const x = rf32(sorted, 3 * s), y = rf32(sorted, 3 * s + 1)
    const ym = y - lo1 < R ? 2 * lo1 - y : NaN, yp = hi1 - y < R ? 2 * hi1 - y : NaN
    const xm = x - lo0 < R ? 2 * lo0 - x : NaN, xp = hi0 - x < R ? 2 * hi0 - x : NaN
    // Most particles are farther than R from every wall: no images, the particle alone (what
    // the loops below do then, without their 27 tests).
    if (xm != xm && xp != xp && ym != ym && yp != yp && zm != zm && zp != zp) {
      splat(ws, sx, sy, sz, nx, ny, nz, kBase, ox, oy, oz, h, R, x, y, z, ka, kb)
      continue
    }
    for (let c = 0; c < 3; c++) {
      const Z = c == 0 ? z : c == 1 ? zm : zp
      if (c > 0 && Z != Z) continue
      for (let b = 0; b < 3; b++) {
        const Y = b == 0 ? y : b == 1 ? ym : yp
        if (b > 0 && Y != Y) continue
        for (let a = 0; a < 3; a++) {
          const X = a == 0 ? x : a == 1 ? xm : xp
          if (a > 0 && X != X) continue
          splat(ws, sx, sy, sz, nx, ny, nz, kBase, ox, oy, oz, h, R, X, Y, Z, ka, kb)
        }
      }
    }
  }
  for (let m = m0; m < m1; m++) {
    const w = rf32(ws, m)
    if (w > 0) {
      const a = rf32(sx, m), b = rf32(sy, m), c = rf32(sz, m)
      wf32(ws, m, Math.sqrt(a * a + b * b + c * c) / w - rad)
    } else wf32(ws, m, far)
  }
}
