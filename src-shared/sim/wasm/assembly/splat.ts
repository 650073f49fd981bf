// The liquid's markers -> grid splat (reference: src-shared/sim/liquid/splatKernels.ts
// splatMarkersSlab, transfer.ts toGrid). A call covers lattice planes [k0, k1) of the u, v, w
// face lattices and the cell lattice: it zeroes their sums, adds every marker's samples in
// those planes in marker order, and writes the weighted means and marks. Bit-identical to the
// reference (the same float64 expressions in the same order), whatever the thread split.
import { rf32, ru8, wf32 } from './common'
import { cellAxis, sampleCell, stencilAt } from './stencil'

@inline function add2(s: usize, c: i32, wv: f64, w: f64): void {
  const p = s + (<usize>c << 3)
  v128.store(p, f64x2.add(v128.load(p), f64x2.replace_lane(f64x2.splat(wv), 1, w)))
}

/**
 * add2 for two corners adjacent along x (sums at c and c + 2): weights W = [w0, w1], corner
 * values C = [c0, c1]; the lanes give w0 c0, w0 and w1 c1, w1 as the scalar adds would.
 */
@inline function addPair(s: usize, c: i32, W: v128, C: v128): void {
  const WC = f64x2.mul(W, C)
  const p = s + (<usize>c << 3)
  v128.store(p, f64x2.add(v128.load(p), v128.shuffle<f64>(WC, W, 0, 2)))
  v128.store(p, f64x2.add(v128.load(p, 16), v128.shuffle<f64>(WC, W, 1, 3)), 16)
}

/** splatKernels.ts splatPlanes. */
@inline function splatPlanes(s: usize, sx: i32, sy: i32, sz: i32, gx: f64, gy: f64, gz: f64, value: f64, affine: bool, ax: f64, ay: f64, az: f64, ka: i32, kb: i32, finite: bool = false): void {
  const fi = Math.floor(gx), fj = Math.floor(gy), fk = Math.floor(gz)
  // Planes first, in float64 (NaN or far-off coordinates reach no plane, as in the reference).
  const lo = fk >= <f64>ka && fk < <f64>kb
  const up = fk + 1 >= <f64>ka && fk + 1 < <f64>kb
  if (!lo && !up) return
  const tx = gx - fi, ty = gy - fj, tz = gz - fk
  const v0 = affine ? value - ax * tx - ay * ty - az * tz : value
  if (fi >= 0 && fj >= 0 && fk >= 0 && fi < <f64>(sx - 1) && fj < <f64>(sy - 1) && fk < <f64>(sz - 1)) {
    const i0 = <i32>fi, j0 = <i32>fj, k0 = <i32>fk
    const ux = 1 - tx, uy = 1 - ty, uz = 1 - tz
    const a = 2 * (i0 + sx * (j0 + sy * k0))
    const y1 = 2 * sx, z1 = 2 * sx * sy
    const vy = affine ? v0 + ay : value
    const vz = affine ? v0 + az : value
    const vyz = affine ? vy + az : value
    // The eight corner values. When all are finite an unweighted corner (w = 0, a marker on a
    // lattice plane) adds +-0 to its sums, which changes no bits: add all eight without a branch
    // (three times faster here). A non-finite value must not reach a corner it does not weigh.
    const c0 = affine ? v0 : value, c1 = affine ? v0 + ax : value
    const c2 = vy, c3 = affine ? vy + ax : value
    const c4 = vz, c5 = affine ? vz + ax : value
    const c6 = vyz, c7 = affine ? vyz + ax : value
    let wyz: f64, w: f64
    if (finite) {
      // Corners in pairs along x (adjacent sums): weights [ux, tx] wyz in one product.
      const UT = f64x2.replace_lane(f64x2.splat(ux), 1, tx)
      if (lo) {
        addPair(s, a, f64x2.mul(UT, f64x2.splat(uy * uz)), f64x2.replace_lane(f64x2.splat(c0), 1, c1))
        addPair(s, a + y1, f64x2.mul(UT, f64x2.splat(ty * uz)), f64x2.replace_lane(f64x2.splat(c2), 1, c3))
      }
      if (up) {
        addPair(s, a + z1, f64x2.mul(UT, f64x2.splat(uy * tz)), f64x2.replace_lane(f64x2.splat(c4), 1, c5))
        addPair(s, a + z1 + y1, f64x2.mul(UT, f64x2.splat(ty * tz)), f64x2.replace_lane(f64x2.splat(c6), 1, c7))
      }
      return
    }
    if (lo) {
      wyz = uy * uz
      w = ux * wyz
      if (w != 0) add2(s, a, w * c0, w)
      w = tx * wyz
      if (w != 0) add2(s, a + 2, w * c1, w)
      wyz = ty * uz
      w = ux * wyz
      if (w != 0) add2(s, a + y1, w * c2, w)
      w = tx * wyz
      if (w != 0) add2(s, a + y1 + 2, w * c3, w)
    }
    if (up) {
      wyz = uy * tz
      w = ux * wyz
      if (w != 0) add2(s, a + z1, w * c4, w)
      w = tx * wyz
      if (w != 0) add2(s, a + z1 + 2, w * c5, w)
      wyz = ty * tz
      w = ux * wyz
      if (w != 0) add2(s, a + z1 + y1, w * c6, w)
      w = tx * wyz
      if (w != 0) add2(s, a + z1 + y1 + 2, w * c7, w)
    }
    return
  }
  // Some sample outside the lattice: the coordinates are finite here only if the planes test
  // passed, but i and j may still be far off; test them in float64 before converting.
  for (let dk = 0; dk < 2; dk++) {
    const kf = fk + <f64>dk
    if (kf < 0 || kf >= <f64>sz || kf < <f64>ka || kf >= <f64>kb) continue
    const k = <i32>kf
    const wz = dk ? tz : 1 - tz
    for (let dj = 0; dj < 2; dj++) {
      const jf = fj + <f64>dj
      if (!(jf >= 0 && jf < <f64>sy)) continue
      const j = <i32>jf
      const wyz = (dj ? ty : 1 - ty) * wz
      const vjk = affine ? v0 + <f64>dj * ay + <f64>dk * az : value
      for (let di = 0; di < 2; di++) {
        const iff = fi + <f64>di
        if (!(iff >= 0 && iff < <f64>sx)) continue
        const i = <i32>iff
        const w = (di ? tx : 1 - tx) * wyz
        if (w == 0) continue
        add2(s, 2 * (i + sx * (j + sy * k)), w * (affine ? vjk + <f64>di * ax : value), w)
      }
    }
  }
}

@inline function zero(s: usize, c0: i32, c1: i32): void {
  if (c1 > c0) memory.fill(s + (<usize>c0 << 4), 0, <usize>(c1 - c0) << 4)
}

@inline function resolveRange(s: usize, out: usize, mark: usize, c0: i32, c1: i32): void {
  for (let c = c0; c < c1; c++) {
    const p = s + (<usize>c << 4)
    const weight = load<f64>(p + 8)
    if (weight > 1e-6) {
      wf32(out, c, load<f64>(p) / weight)
      store<u8>(mark + <usize>c, 1)
    } else {
      wf32(out, c, 0)
      store<u8>(mark + <usize>c, 0)
    }
  }
}

/** One marker of splatMarkers (its planes test first). */
@inline function splatOne(
  q: i32, px: usize, py: usize, pz: usize, vx: usize, vy: usize, vz: usize, T: usize, C: usize,
  su: usize, sv: usize, sw: usize, sc: usize,
  A: bool, nx: i32, ny: i32, nz: i32, dx: f64, inv: f64, ox: f64, oy: f64, oz: f64, k0: i32, k1: i32, kc: i32,
): void {
  const Z = (rf32(pz, q) - oz) * inv
  // Markers that reach none of this call's planes (of any lattice: w's planes sit at Z,
  // the others' at Z - 1/2) are skipped before reading the rest of them.
  const fz = Math.floor(Z - 0.5)
  if (!(fz + 2 >= <f64>k0 && fz < <f64>k1)) return
  const X = (rf32(px, q) - ox) * inv
  const Y = (rf32(py, q) - oy) * inv
  const o = 9 * q
  const ux = rf32(vx, q), uy = rf32(vy, q), uz = rf32(vz, q), ut = rf32(T, q)
  // Finite float32 inputs keep every corner value finite (|value| < 4e38 times small
  // weights), so the corners can be added without testing each weight (see splatPlanes).
  let spread = (ux - ux) + (uy - uy) + (uz - uz) + (ut - ut)
  if (A) {
    const c0 = rf32(C, o), c1 = rf32(C, o + 1), c2 = rf32(C, o + 2), c3 = rf32(C, o + 3), c4 = rf32(C, o + 4)
    const c5 = rf32(C, o + 5), c6 = rf32(C, o + 6), c7 = rf32(C, o + 7), c8 = rf32(C, o + 8)
    spread += (c0 - c0) + (c1 - c1) + (c2 - c2) + (c3 - c3) + (c4 - c4) + (c5 - c5) + (c6 - c6) + (c7 - c7) + (c8 - c8)
    const finite = spread == 0
    splatPlanes(su, nx + 1, ny, nz, X, Y - 0.5, Z - 0.5, ux, true, dx * c0, dx * c1, dx * c2, k0, kc, finite)
    splatPlanes(sv, nx, ny + 1, nz, X - 0.5, Y, Z - 0.5, uy, true, dx * c3, dx * c4, dx * c5, k0, kc, finite)
    splatPlanes(sw, nx, ny, nz + 1, X - 0.5, Y - 0.5, Z, uz, true, dx * c6, dx * c7, dx * c8, k0, k1, finite)
  } else {
    const finite = spread == 0
    splatPlanes(su, nx + 1, ny, nz, X, Y - 0.5, Z - 0.5, ux, false, 0, 0, 0, k0, kc, finite)
    splatPlanes(sv, nx, ny + 1, nz, X - 0.5, Y, Z - 0.5, uy, false, 0, 0, 0, k0, kc, finite)
    splatPlanes(sw, nx, ny, nz + 1, X - 0.5, Y - 0.5, Z, uz, false, 0, 0, 0, k0, k1, finite)
  }
  splatPlanes(sc, nx, ny, nz, X - 0.5, Y - 0.5, Z - 0.5, ut, false, 0, 0, 0, k0, kc, spread == 0)
}

/** splatKernels.ts markerPlanesSlab, four markers a step (each lane the reference's float64 operations). */
export function markerPlanes(pz: usize, codes: usize, dx: f64, oz: f64, shift: i32, q0: i32, q1: i32): void {
  const inv = 1 / dx
  const top = <f64>(254 << shift)
  const OZ = f64x2.splat(oz), INV = f64x2.splat(inv), HALF = f64x2.splat(0.5), TWO = f64x2.splat(2)
  const ZERO = f64x2.splat(0), TOP = f64x2.splat(top), FAR = i32x4.splat(255)
  let q = q0
  for (; q + 4 <= q1; q += 4) {
    const v = v128.load(pz + (<usize>q << 2))
    const a = f64x2.add(f64x2.floor(f64x2.sub(f64x2.mul(f64x2.sub(f64x2.promote_low_f32x4(v), OZ), INV), HALF)), TWO)
    const b = f64x2.add(f64x2.floor(f64x2.sub(f64x2.mul(f64x2.sub(f64x2.promote_low_f32x4(v128.shuffle<f32>(v, v, 2, 3, 0, 1)), OZ), INV), HALF)), TWO)
    // In range (NaN is not): the integer s >> shift, else 255; the 64-bit masks to 32-bit lanes.
    const okA = v128.and(f64x2.ge(a, ZERO), f64x2.le(a, TOP)), okB = v128.and(f64x2.ge(b, ZERO), f64x2.le(b, TOP))
    const ok = v128.shuffle<i32>(okA, okB, 0, 2, 4, 6)
    const s = v128.shuffle<i32>(i32x4.trunc_sat_f64x2_s_zero(a), i32x4.trunc_sat_f64x2_s_zero(b), 0, 1, 4, 5)
    const code = v128.bitselect(i32x4.shr_s(s, shift), FAR, ok)
    const bytes = i8x16.narrow_i16x8_u(i16x8.narrow_i32x4_u(code, code), ZERO)
    store<u32>(codes + <usize>q, i32x4.extract_lane(bytes, 0))
  }
  for (; q < q1; q++) {
    const s = Math.floor((rf32(pz, q) - oz) * inv - 0.5) + 2
    store<u8>(codes + <usize>q, s >= 0 && s <= top ? <u8>(<i32>s >> shift) : <u8>255)
  }
}

/**
 * splatMarkersSlab over planes [k0, k1). With plane codes (markerPlanes), groups of sixteen
 * markers none of which can reach these planes are passed over on their codes alone; the
 * others go through splatOne's own test, in marker order, as without codes.
 */
export function splatMarkers(
  px: usize, py: usize, pz: usize, vx: usize, vy: usize, vz: usize, T: usize, C: usize,
  su: usize, sv: usize, sw: usize, sc: usize,
  u: usize, v: usize, w: usize, temp: usize,
  mu: usize, mv: usize, mw: usize, mt: usize,
  count: i32, affine: i32, nx: i32, ny: i32, nz: i32, dx: f64, ox: f64, oy: f64, oz: f64,
  codes: usize, shift: i32,
  k0: i32, k1: i32,
): void {
  const A = affine != 0
  const inv = 1 / dx
  const kc = min(k1, nz)
  const pu = (nx + 1) * ny, pv = nx * (ny + 1), pc = nx * ny
  zero(su, k0 * pu, kc * pu)
  zero(sv, k0 * pv, kc * pv)
  zero(sw, k0 * pc, k1 * pc)
  zero(sc, k0 * pc, kc * pc)
  let q = 0
  if (codes != 0) {
    // Codes in [lo, lo + span] may reach these planes: (code - lo) <= span, unsigned.
    const lo = k0 >> shift
    const LO = i8x16.splat(<i8>lo), SPAN = i8x16.splat(<i8>(((k1 + 1) >> shift) - lo))
    for (; q + 16 <= count; q += 16) {
      const d = i8x16.sub(v128.load(codes + <usize>q), LO)
      let m = i8x16.bitmask(i8x16.eq(i8x16.min_u(d, SPAN), d))
      while (m != 0) {
        const b = ctz(m)
        m &= m - 1
        splatOne(q + b, px, py, pz, vx, vy, vz, T, C, su, sv, sw, sc, A, nx, ny, nz, dx, inv, ox, oy, oz, k0, k1, kc)
      }
    }
  }
  for (; q < count; q++) splatOne(q, px, py, pz, vx, vy, vz, T, C, su, sv, sw, sc, A, nx, ny, nz, dx, inv, ox, oy, oz, k0, k1, kc)
  resolveRange(su, u, mu, k0 * pu, kc * pu)
  resolveRange(sv, v, mv, k0 * pv, kc * pv)
  resolveRange(sw, w, mw, k0 * pc, k1 * pc)
  resolveRange(sc, temp, mt, k0 * pc, kc * pc)
}

/** splatKernels.ts tempResidualSlab over cell planes [k0, k1). */
export function tempResidual(
  px: usize, py: usize, pz: usize, T: usize, sums: usize, tempOld: usize, reach: usize, resid: usize, mark: usize,
  count: i32, nx: i32, ny: i32, nz: i32, dx: f64, ox: f64, oy: f64, oz: f64,
  k0: i32, k1: i32,
): void {
  const pc = nx * ny
  zero(sums, k0 * pc, k1 * pc)
  const inv = 1 / dx
  for (let q = 0; q < count; q++) {
    const Z = (rf32(pz, q) - oz) * inv
    // The cell lattice's planes at Z - 1/2: skip markers that reach none of this call's.
    const fz = Math.floor(Z - 0.5)
    if (!(fz + 1 >= <f64>k0 && fz < <f64>k1)) continue
    const X = (rf32(px, q) - ox) * inv
    const Y = (rf32(py, q) - oy) * inv
    const ci = cellAxis(X, nx), cj = cellAxis(Y, ny), ck = cellAxis(Z, nz)
    // (A NaN coordinate is never skipped by the reference's reach test; it reaches no plane.)
    if (ci >= 0 && cj >= 0 && ck >= 0 && ru8(reach, ci + nx * (cj + ny * ck)) == 0) continue
    stencilAt(X, Y, Z, nx, ny, nz)
    splatPlanes(sums, nx, ny, nz, X - 0.5, Y - 0.5, Z - 0.5, rf32(T, q) - sampleCell(tempOld, nx, ny), false, 0, 0, 0, k0, k1)
  }
  resolveRange(sums, resid, mark, k0 * pc, k1 * pc)
}
