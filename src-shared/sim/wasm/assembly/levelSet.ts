// The particle level set's kernel splat (reference: src-shared/sim/liquid/levelSetKernels.ts
// levelSetSplatSlab; Zhu & Bridson 2005 sec. 3.2). A call covers cell planes [k0, k1): it
// zeroes their sums and adds every marker (and its mirrors across closed sides within R) to
// the cells of its planes in marker order, so the result is the same bits on any thread split.
// Index bounds are computed and compared in float64 as the reference does, and converted to
// integers only once they are known to be in range. Markers with no mirror go two at a time,
// their arithmetic in the lanes of f64x2 (splatPair).
import { rf32, ru8 } from './common'

/**
 * levelSetKernels.ts addKernel: the cell's four sums (weight, weighted x, y, z) are adjacent,
 * so two f64x2 adds; the weight's lane multiplies by 1 (exact), the same bits.
 */
@inline function addKernel(sums: usize, c: i32, s2: f64, oneX: v128, yz: v128): void {
  if (s2 >= 1) return
  const t = 1 - s2
  addWeight(sums, c, t * t * t, oneX, yz)
}

/** The cell's sums += t3 (1, x, y, z). */
@inline function addWeight(sums: usize, c: i32, t3: f64, oneX: v128, yz: v128): void {
  const w = f64x2.splat(t3)
  const p = sums + (<usize>c << 5)
  v128.store(p, f64x2.add(v128.load(p), f64x2.mul(w, oneX)))
  v128.store(p, f64x2.add(v128.load(p, 16), f64x2.mul(w, yz)), 16)
}

/**
 * The kernel weights (1 - s2)^3 of one corner for two markers (lanes), s2 = (xx + yy + zz) /
 * R^2 summed in addKernel's order; +0 where s2 >= 1 (addKernel adds nothing there, and adding
 * the +-0 products instead changes no sum's bits: a sum starts at +0 and never becomes -0).
 */
@inline function cornerWeights(xx: v128, yy: v128, zz: v128, invR2: v128): v128 {
  const t = f64x2.sub(f64x2.splat(1), f64x2.mul(f64x2.add(f64x2.add(xx, yy), zz), invR2))
  return v128.and(f64x2.mul(f64x2.mul(t, t), t), f64x2.gt(t, f64x2.splat(0)))
}

/** The four corners of one cell plane, in addKernel's order, with their weights. */
@inline function addPlane(sums: usize, c: i32, nx: i32, w00: f64, w10: f64, w01: f64, w11: f64, oneX: v128, yz: v128): void {
  addWeight(sums, c, w00, oneX, yz)
  addWeight(sums, c + 1, w10, oneX, yz)
  addWeight(sums, c + nx, w01, oneX, yz)
  addWeight(sums, c + nx + 1, w11, oneX, yz)
}

/** levelSetKernels.ts splatKernel. */
@inline function splatKernel(sums: usize, nx: i32, ny: i32, nz: i32, dx: f64, o0: f64, o1: f64, o2: f64, x: f64, y: f64, z: f64, R: f64, invR2: f64, ka: i32, kb: i32): void {
  const oneX = f64x2.replace_lane(f64x2.splat(1), 1, x), yz = f64x2.replace_lane(f64x2.splat(y), 1, z)
  let i0 = Math.ceil((x - R - o0) / dx - 0.5), i1 = Math.floor((x + R - o0) / dx - 0.5)
  let j0 = Math.ceil((y - R - o1) / dx - 0.5), j1 = Math.floor((y + R - o1) / dx - 0.5)
  let k0 = Math.ceil((z - R - o2) / dx - 0.5), k1 = Math.floor((z + R - o2) / dx - 0.5)
  i0 = i0 > 0 ? i0 : 0
  j0 = j0 > 0 ? j0 : 0
  k0 = k0 > 0 ? k0 : 0
  if (i1 > <f64>(nx - 1)) i1 = <f64>(nx - 1)
  if (j1 > <f64>(ny - 1)) j1 = <f64>(ny - 1)
  if (k1 > <f64>(nz - 1)) k1 = <f64>(nz - 1)
  if (i1 == i0 + 1 && j1 == j0 + 1 && k1 == k0 + 1) {
    const lo = k0 >= <f64>ka && k0 < <f64>kb, up = k1 >= <f64>ka && k1 < <f64>kb
    if (!lo && !up) return
    const ax0 = o0 + (i0 + 0.5) * dx - x, ax1 = o0 + (i1 + 0.5) * dx - x
    const ay0 = o1 + (j0 + 0.5) * dx - y, ay1 = o1 + (j1 + 0.5) * dx - y
    const az0 = o2 + (k0 + 0.5) * dx - z, az1 = o2 + (k1 + 0.5) * dx - z
    const xx0 = ax0 * ax0, xx1 = ax1 * ax1, yy0 = ay0 * ay0, yy1 = ay1 * ay1, zz0 = az0 * az0, zz1 = az1 * az1
    // Here i0, j0, k0 are in [0, n - 2]: finite and in range.
    const c = <i32>i0 + nx * (<i32>j0 + ny * <i32>k0)
    const plane = nx * ny
    if (lo) {
      addKernel(sums, c, (xx0 + yy0 + zz0) * invR2, oneX, yz)
      addKernel(sums, c + 1, (xx1 + yy0 + zz0) * invR2, oneX, yz)
      addKernel(sums, c + nx, (xx0 + yy1 + zz0) * invR2, oneX, yz)
      addKernel(sums, c + nx + 1, (xx1 + yy1 + zz0) * invR2, oneX, yz)
    }
    if (up) {
      addKernel(sums, c + plane, (xx0 + yy0 + zz1) * invR2, oneX, yz)
      addKernel(sums, c + plane + 1, (xx1 + yy0 + zz1) * invR2, oneX, yz)
      addKernel(sums, c + plane + nx, (xx0 + yy1 + zz1) * invR2, oneX, yz)
      addKernel(sums, c + plane + nx + 1, (xx1 + yy1 + zz1) * invR2, oneX, yz)
    }
    return
  }
  if (k0 < <f64>ka) k0 = <f64>ka
  if (k1 > <f64>(kb - 1)) k1 = <f64>(kb - 1)
  // Empty (or non-finite) ranges write nothing, as the reference's loops.
  if (!(i0 <= i1 && j0 <= j1 && k0 <= k1)) return
  const ia = <i32>i0, ib = <i32>i1, ja = <i32>j0, jb = <i32>j1, ka2 = <i32>k0, kb2 = <i32>k1
  for (let k = ka2; k <= kb2; k++) {
    const dz = o2 + (<f64>k + 0.5) * dx - z
    const dz2 = dz * dz
    for (let j = ja; j <= jb; j++) {
      const dy = o1 + (<f64>j + 0.5) * dx - y
      const dy2 = dy * dy
      let c = ia + nx * (j + ny * k)
      for (let i = ia; i <= ib; i++, c++) {
        const dxx = o0 + (<f64>i + 0.5) * dx - x
        addKernel(sums, c, (dxx * dxx + dy2 + dz2) * invR2, oneX, yz)
      }
    }
  }
}

/**
 * splatKernel for markers q and q + 1 together, the per-marker arithmetic in the two lanes of
 * f64x2 (the same float64 operations as splatKernel's, lane by lane), then each marker's
 * corners in order, q's first: the same sums, bit for bit. Only when neither marker has a
 * mirror and both take splatKernel's 2 x 2 x 2 path; else it does nothing and returns false.
 * A marker costs about 80 ns of scalar arithmetic here (its divisions, roundings, distances
 * and weights), not of memory traffic: with one scalar add a corner in place of its two vector
 * sum updates it took as long, and with its weight branch turned into a select too. Two in
 * lanes: 1M markers in cell order 84-88 -> 52 ms on one thread.
 */
@inline function splatPair(
  px: usize, py: usize, pz: usize, sums: usize, q: i32, x: f64, y: f64, z: f64,
  nx: i32, ny: i32, nz: i32, dx: f64, lo0: f64, lo1: f64, lo2: f64, hi0: f64, hi1: f64, hi2: f64, R: f64, invR2: f64,
  c0: bool, c1: bool, c2: bool, c3: bool, c4: bool, c5: bool, ka: i32, kb: i32,
): bool {
  const x2 = rf32(px, q + 1), y2 = rf32(py, q + 1), z2 = rf32(pz, q + 1)
  if ((c0 && x2 - lo0 < R) || (c1 && hi0 - x2 < R) || (c2 && y2 - lo1 < R) || (c3 && hi1 - y2 < R) || (c4 && z2 - lo2 < R) || (c5 && hi2 - z2 < R)) return false
  const X = f64x2.replace_lane(f64x2.splat(x), 1, x2)
  const Y = f64x2.replace_lane(f64x2.splat(y), 1, y2)
  const Z = f64x2.replace_lane(f64x2.splat(z), 1, z2)
  const RR = f64x2.splat(R), D = f64x2.splat(dx), H = f64x2.splat(0.5), ZERO = f64x2.splat(0)
  const O0 = f64x2.splat(lo0), O1 = f64x2.splat(lo1), O2 = f64x2.splat(lo2)
  let I0 = f64x2.ceil(f64x2.sub(f64x2.div(f64x2.sub(f64x2.sub(X, RR), O0), D), H))
  let I1 = f64x2.floor(f64x2.sub(f64x2.div(f64x2.sub(f64x2.add(X, RR), O0), D), H))
  let J0 = f64x2.ceil(f64x2.sub(f64x2.div(f64x2.sub(f64x2.sub(Y, RR), O1), D), H))
  let J1 = f64x2.floor(f64x2.sub(f64x2.div(f64x2.sub(f64x2.add(Y, RR), O1), D), H))
  let K0 = f64x2.ceil(f64x2.sub(f64x2.div(f64x2.sub(f64x2.sub(Z, RR), O2), D), H))
  let K1 = f64x2.floor(f64x2.sub(f64x2.div(f64x2.sub(f64x2.add(Z, RR), O2), D), H))
  I0 = v128.and(I0, f64x2.gt(I0, ZERO))
  J0 = v128.and(J0, f64x2.gt(J0, ZERO))
  K0 = v128.and(K0, f64x2.gt(K0, ZERO))
  const NX = f64x2.splat(<f64>(nx - 1)), NY = f64x2.splat(<f64>(ny - 1)), NZ = f64x2.splat(<f64>(nz - 1))
  I1 = v128.bitselect(NX, I1, f64x2.gt(I1, NX))
  J1 = v128.bitselect(NY, J1, f64x2.gt(J1, NY))
  K1 = v128.bitselect(NZ, K1, f64x2.gt(K1, NZ))
  const ONE = f64x2.splat(1)
  const fast = v128.and(v128.and(f64x2.eq(I1, f64x2.add(I0, ONE)), f64x2.eq(J1, f64x2.add(J0, ONE))), f64x2.eq(K1, f64x2.add(K0, ONE)))
  if (!i64x2.all_true(fast)) return false
  const KA = f64x2.splat(<f64>ka), KB = f64x2.splat(<f64>kb)
  const LO = v128.and(f64x2.ge(K0, KA), f64x2.lt(K0, KB))
  const UP = v128.and(f64x2.ge(K1, KA), f64x2.lt(K1, KB))
  const ax0 = f64x2.sub(f64x2.add(O0, f64x2.mul(f64x2.add(I0, H), D)), X), ax1 = f64x2.sub(f64x2.add(O0, f64x2.mul(f64x2.add(I1, H), D)), X)
  const ay0 = f64x2.sub(f64x2.add(O1, f64x2.mul(f64x2.add(J0, H), D)), Y), ay1 = f64x2.sub(f64x2.add(O1, f64x2.mul(f64x2.add(J1, H), D)), Y)
  const az0 = f64x2.sub(f64x2.add(O2, f64x2.mul(f64x2.add(K0, H), D)), Z), az1 = f64x2.sub(f64x2.add(O2, f64x2.mul(f64x2.add(K1, H), D)), Z)
  const xx0 = f64x2.mul(ax0, ax0), xx1 = f64x2.mul(ax1, ax1), yy0 = f64x2.mul(ay0, ay0), yy1 = f64x2.mul(ay1, ay1)
  const zz0 = f64x2.mul(az0, az0), zz1 = f64x2.mul(az1, az1)
  const IR = f64x2.splat(invR2)
  const w000 = cornerWeights(xx0, yy0, zz0, IR), w100 = cornerWeights(xx1, yy0, zz0, IR)
  const w010 = cornerWeights(xx0, yy1, zz0, IR), w110 = cornerWeights(xx1, yy1, zz0, IR)
  const w001 = cornerWeights(xx0, yy0, zz1, IR), w101 = cornerWeights(xx1, yy0, zz1, IR)
  const w011 = cornerWeights(xx0, yy1, zz1, IR), w111 = cornerWeights(xx1, yy1, zz1, IR)
  // Corner cells: here i0, j0, k0 are in [0, n - 2] (finite and in range).
  const C = i32x4.add(i32x4.trunc_sat_f64x2_s_zero(I0), i32x4.mul(i32x4.splat(nx), i32x4.add(i32x4.trunc_sat_f64x2_s_zero(J0), i32x4.mul(i32x4.splat(ny), i32x4.trunc_sat_f64x2_s_zero(K0)))))
  const plane = nx * ny
  let c = i32x4.extract_lane(C, 0)
  let oneX = f64x2.replace_lane(ONE, 1, x), yz = f64x2.replace_lane(f64x2.splat(y), 1, z)
  if (i64x2.extract_lane(LO, 0) != 0) addPlane(sums, c, nx, f64x2.extract_lane(w000, 0), f64x2.extract_lane(w100, 0), f64x2.extract_lane(w010, 0), f64x2.extract_lane(w110, 0), oneX, yz)
  if (i64x2.extract_lane(UP, 0) != 0) addPlane(sums, c + plane, nx, f64x2.extract_lane(w001, 0), f64x2.extract_lane(w101, 0), f64x2.extract_lane(w011, 0), f64x2.extract_lane(w111, 0), oneX, yz)
  c = i32x4.extract_lane(C, 1)
  oneX = f64x2.replace_lane(ONE, 1, x2)
  yz = f64x2.replace_lane(f64x2.splat(y2), 1, z2)
  if (i64x2.extract_lane(LO, 1) != 0) addPlane(sums, c, nx, f64x2.extract_lane(w000, 1), f64x2.extract_lane(w100, 1), f64x2.extract_lane(w010, 1), f64x2.extract_lane(w110, 1), oneX, yz)
  if (i64x2.extract_lane(UP, 1) != 0) addPlane(sums, c + plane, nx, f64x2.extract_lane(w001, 1), f64x2.extract_lane(w101, 1), f64x2.extract_lane(w011, 1), f64x2.extract_lane(w111, 1), oneX, yz)
  return true
}

/** Whether each of sixteen plane codes lies in [lo, hi] (bytes, unsigned; lo > hi: none). */
@inline function codesIn(v: v128, lo: i32, hi: i32): v128 {
  if (lo > hi) return i8x16.splat(0)
  const d = i8x16.sub(v, i8x16.splat(<i8>lo))
  return i8x16.eq(i8x16.min_u(d, i8x16.splat(<i8>(hi - lo))), d)
}

/** A plane-code window [a, b] of splat planes s (splatKernels.ts markerPlanesSlab), coarsened and clamped to the codes 0..254. */
@inline function codeLo(a: f64, shift: i32): i32 {
  return a <= 0 ? 0 : a >= <f64>(254 << shift) ? 255 : <i32>a >> shift
}
@inline function codeHi(b: f64, shift: i32): i32 {
  return b < 0 ? -1 : b >= <f64>(254 << shift) ? 254 : <i32>b >> shift
}

/**
 * levelSetSplatSlab over cell planes [k0, k1). With plane codes (splatKernels.ts
 * markerPlanes), groups of sixteen markers none of which can reach these planes, themselves
 * or mirrored, are passed over on their codes alone: a code in the window of the planes
 * widened by the kernel's reach, or within reach of a closed floor or top (whose mirrors may
 * land anywhere near them), or 255 (NaN, far off: left to the test below). The others go
 * through the test below in marker order, as without codes.
 */
export function levelSetSplat(
  px: usize, py: usize, pz: usize, sums: usize, count: i32, closed: usize,
  nx: i32, ny: i32, nz: i32, dx: f64, lo0: f64, lo1: f64, lo2: f64, R: f64,
  codes: usize, shift: i32,
  k0: i32, k1: i32,
): void {
  const plane = nx * ny
  if (k1 > k0) memory.fill(sums + (<usize>(k0 * plane) << 5), 0, <usize>((k1 - k0) * plane) << 5)
  const invR2 = 1 / (R * R)
  const hi0 = lo0 + <f64>nx * dx, hi1 = lo1 + <f64>ny * dx, hi2 = lo2 + <f64>nz * dx
  const c0 = ru8(closed, 0) != 0, c1 = ru8(closed, 1) != 0, c2 = ru8(closed, 2) != 0
  const c3 = ru8(closed, 3) != 0, c4 = ru8(closed, 4) != 0, c5 = ru8(closed, 5) != 0
  // Planes [k0, k1) hold centres from (k0 + 1/2) dx to (k1 - 1/2) dx: a marker whose z and
  // mirrored z are both farther than R from them (1.5 R: margin for rounding) reaches none of
  // them and is skipped before the x and y mirrors (NaN positions write nothing anyway).
  const zlo = lo2 + (<f64>k0 + 0.5) * dx - 1.5 * R, zhi = lo2 + (<f64>k1 - 0.5) * dx + 1.5 * R
  // Candidate groups by codes: s = floor(Z - 1/2) + 2 of a z in [zlo, zhi] lies in [floor(k0 -
  // 1.5 r) + 2, floor(k1 - 1 + 1.5 r) + 2], r = R / dx (one more each side for rounding); a
  // marker mirrored across the floor has Z < r, across the top Z > nz - r.
  let next = 0
  if (codes != 0) {
    const r = R / dx
    const a0 = codeLo(Math.floor(<f64>k0 - 1.5 * r) + 1, shift), a1 = codeHi(Math.floor(<f64>k1 - 1 + 1.5 * r) + 3, shift)
    const f1 = c4 ? codeHi(Math.floor(r - 0.5) + 3, shift) : -1
    const t0 = c5 ? codeLo(Math.floor(<f64>nz - r - 0.5) + 1, shift) : 255
    const OFF = i8x16.splat(-1)
    for (let g = 0; g + 16 <= count; g += 16) {
      const v = v128.load(codes + <usize>g)
      let m = i8x16.bitmask(v128.or(v128.or(codesIn(v, a0, a1), codesIn(v, 0, f1)), v128.or(codesIn(v, t0, 254), i8x16.eq(v, OFF))))
      while (m != 0) {
        const q = g + ctz(m)
        m &= m - 1
        if (q >= next) next = splatMarker(px, py, pz, sums, q, count, nx, ny, nz, dx, lo0, lo1, lo2, hi0, hi1, hi2, R, invR2, c0, c1, c2, c3, c4, c5, zlo, zhi, k0, k1)
      }
    }
    next = max(next, count & ~15)
  }
  for (let q = next; q < count; ) q = splatMarker(px, py, pz, sums, q, count, nx, ny, nz, dx, lo0, lo1, lo2, hi0, hi1, hi2, R, invR2, c0, c1, c2, c3, c4, c5, zlo, zhi, k0, k1)
}

/** One marker of levelSetSplat (with the next in the lanes when both can): the next marker to do. */
@inline function splatMarker(
  px: usize, py: usize, pz: usize, sums: usize, q: i32, count: i32,
  nx: i32, ny: i32, nz: i32, dx: f64, lo0: f64, lo1: f64, lo2: f64, hi0: f64, hi1: f64, hi2: f64, R: f64, invR2: f64,
  c0: bool, c1: bool, c2: bool, c3: bool, c4: bool, c5: bool, zlo: f64, zhi: f64, k0: i32, k1: i32,
): i32 {
  {
    const z = rf32(pz, q)
    const mz = c4 && z - lo2 < R ? 2 * lo2 - z : c5 && hi2 - z < R ? 2 * hi2 - z : NaN
    if (!(z >= zlo && z <= zhi) && !(mz >= zlo && mz <= zhi)) return q + 1
    const x = rf32(px, q), y = rf32(py, q)
    const mx = c0 && x - lo0 < R ? 2 * lo0 - x : c1 && hi0 - x < R ? 2 * hi0 - x : NaN
    const my = c2 && y - lo1 < R ? 2 * lo1 - y : c3 && hi1 - y < R ? 2 * hi1 - y : NaN
    if (mx != mx && my != my && mz != mz) {
      // With the next marker in the lanes when it too has no mirror (it may lie beyond this
      // call's planes: it then adds nothing, as the reference's skip).
      if (q + 1 < count && splatPair(px, py, pz, sums, q, x, y, z, nx, ny, nz, dx, lo0, lo1, lo2, hi0, hi1, hi2, R, invR2, c0, c1, c2, c3, c4, c5, k0, k1)) return q + 2
      if (x == x && y == y && z == z) splatKernel(sums, nx, ny, nz, dx, lo0, lo1, lo2, x, y, z, R, invR2, k0, k1)
      return q + 1
    }
    for (let m = 0; m < 8; m++) {
      const X = m & 1 ? mx : x, Y = m & 2 ? my : y, Z = m & 4 ? mz : z
      if (X != X || Y != Y || Z != Z) continue
      splatKernel(sums, nx, ny, nz, dx, lo0, lo1, lo2, X, Y, Z, R, invR2, k0, k1)
    }
  }
  return q + 1
}

// The level set and the cells' labels from the kernel sums (reference: levelSetKernels.ts
// levelSetPhiSlab), cell planes [k0, k1). Kinds: 0 air, 1 liquid, 2 solid (viscosity.ts).
export function levelSetPhi(
  sums: usize, count: usize, kind: usize, phi: usize, distance: usize,
  nx: i32, ny: i32, dx: f64, o0: f64, o1: f64, o2: f64, r: f64, rm: f64, band: f64, eps: f64, minCount: i32,
  k0: i32, k1: i32,
): void {
  for (let k = k0; k < k1; k++) {
    for (let j = 0; j < ny; j++) {
      for (let i = 0; i < nx; i++) {
        const c = i + nx * (j + ny * k)
        let v = band
        let vm = band
        const wc = load<f64>(sums + (<usize>(4 * c) << 3))
        if (wc > 0) {
          const ax = o0 + (<f64>i + 0.5) * dx - load<f64>(sums + (<usize>(4 * c + 1) << 3)) / wc
          const ay = o1 + (<f64>j + 0.5) * dx - load<f64>(sums + (<usize>(4 * c + 2) << 3)) / wc
          const az = o2 + (<f64>k + 0.5) * dx - load<f64>(sums + (<usize>(4 * c + 3) << 3)) / wc
          const dist = Math.sqrt(ax * ax + ay * ay + az * az)
          v = Math.min(dist - r, band)
          vm = Math.min(dist - rm, band)
        }
        store<f32>(distance + (<usize>c << 2), <f32>vm)
        const at = kind + <usize>c
        let kc = load<u8>(at)
        if (kc != 2) {
          kc = v < 0 || load<i32>(count + (<usize>c << 2)) >= minCount ? 1 : 0
          store<u8>(at, kc)
        }
        store<f32>(phi + (<usize>c << 2), <f32>(kc == 1 ? (v < 0 ? v : -eps) : v < eps ? eps : v))
      }
    }
  }
}
