// The particle level set's kernel splat (reference: src-shared/sim/liquid/levelSetKernels.ts
// levelSetSplatSlab; Zhu & Bridson 2005 sec. 3.2). A call covers cell planes [k0, k1): it
// zeroes their sums and adds every marker (and its mirrors across closed sides within R) to
// the cells of its planes in marker order, so the result is the same bits on any thread split.
// Index bounds are computed and compared in float64 as the reference does, and converted to
// integers only once they are known to be in range.
import { rf32, ru8 } from './common'

/**
 * levelSetKernels.ts addKernel: the cell's four sums (weight, weighted x, y, z) are adjacent,
 * so two f64x2 adds; the weight's lane multiplies by 1 (exact), the same bits.
 */
@inline function addKernel(sums: usize, c: i32, s2: f64, oneX: v128, yz: v128): void {
  if (s2 >= 1) return
  const t = 1 - s2
  const w = f64x2.splat(t * t * t)
  const p = sums + (<usize>c << 5)
  v128.store(p, f64x2.add(v128.load(p), f64x2.mul(w, oneX)))
  v128.store(p, f64x2.add(v128.load(p, 16), f64x2.mul(w, yz)), 16)
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

/** levelSetSplatSlab over cell planes [k0, k1). */
export function levelSetSplat(
  px: usize, py: usize, pz: usize, sums: usize, count: i32, closed: usize,
  nx: i32, ny: i32, nz: i32, dx: f64, lo0: f64, lo1: f64, lo2: f64, R: f64,
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
  for (let q = 0; q < count; q++) {
    const z = rf32(pz, q)
    const mz = c4 && z - lo2 < R ? 2 * lo2 - z : c5 && hi2 - z < R ? 2 * hi2 - z : NaN
    if (!(z >= zlo && z <= zhi) && !(mz >= zlo && mz <= zhi)) continue
    const x = rf32(px, q), y = rf32(py, q)
    const mx = c0 && x - lo0 < R ? 2 * lo0 - x : c1 && hi0 - x < R ? 2 * hi0 - x : NaN
    const my = c2 && y - lo1 < R ? 2 * lo1 - y : c3 && hi1 - y < R ? 2 * hi1 - y : NaN
    if (mx != mx && my != my && mz != mz) {
      if (x == x && y == y && z == z) splatKernel(sums, nx, ny, nz, dx, lo0, lo1, lo2, x, y, z, R, invR2, k0, k1)
      continue
    }
    for (let m = 0; m < 8; m++) {
      const X = m & 1 ? mx : x, Y = m & 2 ? my : y, Z = m & 4 ? mz : z
      if (X != X || Y != Y || Z != Z) continue
      splatKernel(sums, nx, ny, nz, dx, lo0, lo1, lo2, X, Y, Z, R, invR2, k0, k1)
    }
  }
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
