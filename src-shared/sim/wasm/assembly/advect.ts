// Semi-Lagrangian advection with trilinear sampling and the MacCormack correction
// (reference: src-shared/sim/core/advect.ts and interpolate.ts lerp3 / velocityAtGridCoord).
// Float64 arithmetic in the reference's order: bit-identical to advectSlab (linear) and
// maccormackCorrectSlab.
//
// A sample is a long dependent chain (three trilinear velocity lookups, a midpoint, three
// more, then the field lookup: about 400 instructions), too long for the CPU to overlap two
// samples by itself, so the scalar form is latency-bound. The main loops therefore run two
// neighbouring samples in the two lanes of f64x2 vectors: index arithmetic in i32x4, each
// trilinear row fetched as one 8-byte load per lane (the two samples along x are adjacent in
// memory) and transposed into lanes. Samples next to a solid, odd tails and lattices one
// sample wide take the scalar path.
//
// advectCubic is the same kernel with monotone tricubic field sampling (interpolate.ts
// cubic3 / monotoneCubic; the back-trace stays trilinear, as in the reference): the pair
// path traces two samples in lanes as above and evaluates both tricubic stencils in the two
// lanes too (cubic3x2: per-lane indices, each x row one 16-byte load per lane away from the
// borders, monotoneCubic's branches as selects); bit-identical to advectSlab with cubic = true.
//
// Solid masks: solidKind 0 = none, 1 = uint8 (nonzero is solid), 2 = float32 fraction
// (>= 0.5 is solid), like the reference's SolidField.
import { rf32, wf32, rf64, wf64, ri32, ru8, w32x2 } from './common'

const SOLID_THRESHOLD: f64 = 0.5

@inline function solidAt(solid: usize, kind: i32, c: i32): bool {
  return kind == 1 ? ru8(solid, c) != 0 : rf32(solid, c) >= SOLID_THRESHOLD
}

/** solidSample of the reference: sample (i, j, k) of lattice `axis` touches a solid cell. */
@inline function solidSample(solid: usize, kind: i32, axis: i32, i: i32, j: i32, k: i32, nx: i32, ny: i32, nz: i32): bool {
  const c = i + nx * (j + ny * k)
  if (axis == 0) return (i < nx && solidAt(solid, kind, c)) || (i > 0 && solidAt(solid, kind, c - 1))
  if (axis == 1) return (j < ny && solidAt(solid, kind, c)) || (j > 0 && solidAt(solid, kind, c - nx))
  if (axis == 2) return (k < nz && solidAt(solid, kind, c)) || (k > 0 && solidAt(solid, kind, c - nx * ny))
  return solidAt(solid, kind, c)
}

/** Whether sample (i, j, k) or (i + 1, j, k) of lattice `axis` is solid (the pair loops then go sample by sample). */
@inline function solidPair(solid: usize, kind: i32, axis: i32, i: i32, j: i32, k: i32, nx: i32, ny: i32, nz: i32): bool {
  return kind != 0 && (solidSample(solid, kind, axis, i, j, k, nx, ny, nz) || solidSample(solid, kind, axis, i + 1, j, k, nx, ny, nz))
}

@inline function clampCoord(g: f64, hi: f64): f64 {
  return g > 0 ? (g < hi ? g : hi) : 0
}

/** lerp3: trilinear sample of a float32 sx*sy*sz lattice at index coordinates, clamped. */
function lerp3(f: usize, sx: i32, sy: i32, sz: i32, gx: f64, gy: f64, gz: f64): f64 {
  gx = clampCoord(gx, <f64>(sx - 1))
  gy = clampCoord(gy, <f64>(sy - 1))
  gz = clampCoord(gz, <f64>(sz - 1))
  let i = <i32>Math.floor(gx)
  let j = <i32>Math.floor(gy)
  let k = <i32>Math.floor(gz)
  if (i > sx - 2) i = sx > 1 ? sx - 2 : 0
  if (j > sy - 2) j = sy > 1 ? sy - 2 : 0
  if (k > sz - 2) k = sz > 1 ? sz - 2 : 0
  const tx = gx - <f64>i
  const ty = gy - <f64>j
  const tz = gz - <f64>k
  const di = sx > 1 ? 1 : 0
  const dj = sy > 1 ? sx : 0
  const dk = sz > 1 ? sx * sy : 0
  const o = i + sx * (j + sy * k)
  const f0 = rf32(f, o)
  const c00 = f0 + tx * (rf32(f, o + di) - f0)
  const f1 = rf32(f, o + dj)
  const c10 = f1 + tx * (rf32(f, o + dj + di) - f1)
  const f2 = rf32(f, o + dk)
  const c01 = f2 + tx * (rf32(f, o + dk + di) - f2)
  const f3 = rf32(f, o + dk + dj)
  const c11 = f3 + tx * (rf32(f, o + dk + dj + di) - f3)
  const c0 = c00 + ty * (c10 - c00)
  const c1 = c01 + ty * (c11 - c01)
  return c0 + tz * (c1 - c0)
}

/** monotoneCubic of the reference: one monotone cubic Hermite segment between f1 and f2. */
@inline function monotoneCubic(f0: f64, f1: f64, f2: f64, f3: f64, t: f64): f64 {
  const delta = f2 - f1
  if (delta == 0) return f1
  let d1 = 0.5 * (f2 - f0)
  let d2 = 0.5 * (f3 - f1)
  if (delta > 0) {
    d1 = d1 < 0 ? 0 : d1 > 3 * delta ? 3 * delta : d1
    d2 = d2 < 0 ? 0 : d2 > 3 * delta ? 3 * delta : d2
  } else {
    d1 = d1 > 0 ? 0 : d1 < 3 * delta ? 3 * delta : d1
    d2 = d2 > 0 ? 0 : d2 < 3 * delta ? 3 * delta : d2
  }
  const a2 = 3 * delta - 2 * d1 - d2
  const a3 = d1 + d2 - 2 * delta
  return f1 + t * (d1 + t * (a2 + t * a3))
}

@inline function cubicRow(f: usize, o: i32, i0: i32, i1: i32, i2: i32, i3: i32, t: f64): f64 {
  return monotoneCubic(rf32(f, o + i0), rf32(f, o + i1), rf32(f, o + i2), rf32(f, o + i3), t)
}

function cubicPlane(f: usize, o: i32, sx: i32, i0: i32, i1: i32, i2: i32, i3: i32, j0: i32, j1: i32, j2: i32, j3: i32, tx: f64, ty: f64): f64 {
  return monotoneCubic(
    cubicRow(f, o + sx * j0, i0, i1, i2, i3, tx),
    cubicRow(f, o + sx * j1, i0, i1, i2, i3, tx),
    cubicRow(f, o + sx * j2, i0, i1, i2, i3, tx),
    cubicRow(f, o + sx * j3, i0, i1, i2, i3, tx),
    ty,
  )
}

/** cubic3: monotone tricubic sample of a float32 sx*sy*sz lattice at index coordinates, clamped. */
function cubic3(f: usize, sx: i32, sy: i32, sz: i32, gx: f64, gy: f64, gz: f64): f64 {
  gx = clampCoord(gx, <f64>(sx - 1))
  gy = clampCoord(gy, <f64>(sy - 1))
  gz = clampCoord(gz, <f64>(sz - 1))
  let i1 = <i32>Math.floor(gx)
  let j1 = <i32>Math.floor(gy)
  let k1 = <i32>Math.floor(gz)
  if (i1 > sx - 2) i1 = sx > 1 ? sx - 2 : 0
  if (j1 > sy - 2) j1 = sy > 1 ? sy - 2 : 0
  if (k1 > sz - 2) k1 = sz > 1 ? sz - 2 : 0
  const tx = gx - <f64>i1
  const ty = gy - <f64>j1
  const tz = gz - <f64>k1
  const i0 = i1 > 0 ? i1 - 1 : 0
  const i2 = i1 + 1 < sx ? i1 + 1 : sx - 1
  const i3 = i1 + 2 < sx ? i1 + 2 : sx - 1
  const j0 = j1 > 0 ? j1 - 1 : 0
  const j2 = j1 + 1 < sy ? j1 + 1 : sy - 1
  const j3 = j1 + 2 < sy ? j1 + 2 : sy - 1
  const k0 = k1 > 0 ? k1 - 1 : 0
  const k2 = k1 + 1 < sz ? k1 + 1 : sz - 1
  const k3 = k1 + 2 < sz ? k1 + 2 : sz - 1
  const pz = sx * sy
  return monotoneCubic(
    cubicPlane(f, pz * k0, sx, i0, i1, i2, i3, j0, j1, j2, j3, tx, ty),
    cubicPlane(f, pz * k1, sx, i0, i1, i2, i3, j0, j1, j2, j3, tx, ty),
    cubicPlane(f, pz * k2, sx, i0, i1, i2, i3, j0, j1, j2, j3, tx, ty),
    cubicPlane(f, pz * k3, sx, i0, i1, i2, i3, j0, j1, j2, j3, tx, ty),
    tz,
  )
}

/** sample3 of the reference: cubic3 or lerp3. */
@inline function sample3(f: usize, sx: i32, sy: i32, sz: i32, gx: f64, gy: f64, gz: f64, cubic: bool): f64 {
  return cubic ? cubic3(f, sx, sy, sz, gx, gy, gz) : lerp3(f, sx, sy, sz, gx, gy, gz)
}

/** monotoneCubic in two lanes: the same operations, branches turned into selects. */
@inline function monotoneCubicX2(f0: v128, f1: v128, f2: v128, f3: v128, t: v128): v128 {
  const zero = f64x2.splat(0)
  const two = f64x2.splat(2)
  const delta = f64x2.sub(f2, f1)
  const t3 = f64x2.mul(f64x2.splat(3), delta)
  let d1 = f64x2.mul(f64x2.splat(0.5), f64x2.sub(f2, f0))
  let d2 = f64x2.mul(f64x2.splat(0.5), f64x2.sub(f3, f1))
  const pos = f64x2.gt(delta, zero)
  const p1 = v128.bitselect(zero, v128.bitselect(t3, d1, f64x2.gt(d1, t3)), f64x2.lt(d1, zero))
  const n1 = v128.bitselect(zero, v128.bitselect(t3, d1, f64x2.lt(d1, t3)), f64x2.gt(d1, zero))
  d1 = v128.bitselect(p1, n1, pos)
  const p2 = v128.bitselect(zero, v128.bitselect(t3, d2, f64x2.gt(d2, t3)), f64x2.lt(d2, zero))
  const n2 = v128.bitselect(zero, v128.bitselect(t3, d2, f64x2.lt(d2, t3)), f64x2.gt(d2, zero))
  d2 = v128.bitselect(p2, n2, pos)
  const a2 = f64x2.sub(f64x2.sub(t3, f64x2.mul(two, d1)), d2)
  const a3 = f64x2.sub(f64x2.add(d1, d2), f64x2.mul(two, delta))
  const r = f64x2.add(f1, f64x2.mul(t, f64x2.add(d1, f64x2.mul(t, f64x2.add(a2, f64x2.mul(t, a3))))))
  return v128.bitselect(f1, r, f64x2.eq(delta, zero))
}

/** Lower stencil index along one axis (cubic3's clamping); the fraction goes to cubicT. */
let cubicT: f64 = 0
@inline function cubicAxis(g: f64, s: i32): i32 {
  g = clampCoord(g, <f64>(s - 1))
  let i = <i32>Math.floor(g)
  if (i > s - 2) i = s > 1 ? s - 2 : 0
  cubicT = g - <f64>i
  return i
}

@inline function pairOf(a: f64, b: f64): v128 {
  return f64x2.replace_lane(f64x2.splat(a), 1, b)
}

/** cubicRow for two samples: rows at oA, oB, x stencils iA0..3 / iB0..3 (contiguous: one 16-byte load each). */
@inline function cubicRowX2(
  f: usize, oA: i32, oB: i32, iA0: i32, iA1: i32, iA2: i32, iA3: i32, iB0: i32, iB1: i32, iB2: i32, iB3: i32, contig: bool, tx: v128,
): v128 {
  if (contig) {
    const a = v128.load(f + (<usize>(oA + iA0) << 2))
    const b = v128.load(f + (<usize>(oB + iB0) << 2))
    return monotoneCubicX2(
      f64x2.promote_low_f32x4(i32x4.shuffle(a, b, 0, 4, 0, 4)),
      f64x2.promote_low_f32x4(i32x4.shuffle(a, b, 1, 5, 1, 5)),
      f64x2.promote_low_f32x4(i32x4.shuffle(a, b, 2, 6, 2, 6)),
      f64x2.promote_low_f32x4(i32x4.shuffle(a, b, 3, 7, 3, 7)),
      tx,
    )
  }
  return monotoneCubicX2(
    pairOf(rf32(f, oA + iA0), rf32(f, oB + iB0)),
    pairOf(rf32(f, oA + iA1), rf32(f, oB + iB1)),
    pairOf(rf32(f, oA + iA2), rf32(f, oB + iB2)),
    pairOf(rf32(f, oA + iA3), rf32(f, oB + iB3)),
    tx,
  )
}

function cubicPlaneX2(
  f: usize, pA: i32, pB: i32, sx: i32,
  iA0: i32, iA1: i32, iA2: i32, iA3: i32, iB0: i32, iB1: i32, iB2: i32, iB3: i32, contig: bool,
  jA0: i32, jA1: i32, jA2: i32, jA3: i32, jB0: i32, jB1: i32, jB2: i32, jB3: i32, tx: v128, ty: v128,
): v128 {
  return monotoneCubicX2(
    cubicRowX2(f, pA + sx * jA0, pB + sx * jB0, iA0, iA1, iA2, iA3, iB0, iB1, iB2, iB3, contig, tx),
    cubicRowX2(f, pA + sx * jA1, pB + sx * jB1, iA0, iA1, iA2, iA3, iB0, iB1, iB2, iB3, contig, tx),
    cubicRowX2(f, pA + sx * jA2, pB + sx * jB2, iA0, iA1, iA2, iA3, iB0, iB1, iB2, iB3, contig, tx),
    cubicRowX2(f, pA + sx * jA3, pB + sx * jB3, iA0, iA1, iA2, iA3, iB0, iB1, iB2, iB3, contig, tx),
    ty,
  )
}

/** cubic3 for the two lanes of (gx, gy, gz): the same operations per lane. */
function cubic3x2(f: usize, sx: i32, sy: i32, sz: i32, gx: v128, gy: v128, gz: v128): v128 {
  const iA1 = cubicAxis(f64x2.extract_lane(gx, 0), sx)
  const txA = cubicT
  const iB1 = cubicAxis(f64x2.extract_lane(gx, 1), sx)
  const tx = pairOf(txA, cubicT)
  const jA1 = cubicAxis(f64x2.extract_lane(gy, 0), sy)
  const tyA = cubicT
  const jB1 = cubicAxis(f64x2.extract_lane(gy, 1), sy)
  const ty = pairOf(tyA, cubicT)
  const kA1 = cubicAxis(f64x2.extract_lane(gz, 0), sz)
  const tzA = cubicT
  const kB1 = cubicAxis(f64x2.extract_lane(gz, 1), sz)
  const tz = pairOf(tzA, cubicT)
  const iA0 = iA1 > 0 ? iA1 - 1 : 0
  const iA2 = iA1 + 1 < sx ? iA1 + 1 : sx - 1
  const iA3 = iA1 + 2 < sx ? iA1 + 2 : sx - 1
  const iB0 = iB1 > 0 ? iB1 - 1 : 0
  const iB2 = iB1 + 1 < sx ? iB1 + 1 : sx - 1
  const iB3 = iB1 + 2 < sx ? iB1 + 2 : sx - 1
  const contig = iA1 > 0 && iA1 + 2 < sx && iB1 > 0 && iB1 + 2 < sx
  const jA0 = jA1 > 0 ? jA1 - 1 : 0
  const jA2 = jA1 + 1 < sy ? jA1 + 1 : sy - 1
  const jA3 = jA1 + 2 < sy ? jA1 + 2 : sy - 1
  const jB0 = jB1 > 0 ? jB1 - 1 : 0
  const jB2 = jB1 + 1 < sy ? jB1 + 1 : sy - 1
  const jB3 = jB1 + 2 < sy ? jB1 + 2 : sy - 1
  const kA0 = kA1 > 0 ? kA1 - 1 : 0
  const kA2 = kA1 + 1 < sz ? kA1 + 1 : sz - 1
  const kA3 = kA1 + 2 < sz ? kA1 + 2 : sz - 1
  const kB0 = kB1 > 0 ? kB1 - 1 : 0
  const kB2 = kB1 + 1 < sz ? kB1 + 1 : sz - 1
  const kB3 = kB1 + 2 < sz ? kB1 + 2 : sz - 1
  const pz = sx * sy
  return monotoneCubicX2(
    cubicPlaneX2(f, pz * kA0, pz * kB0, sx, iA0, iA1, iA2, iA3, iB0, iB1, iB2, iB3, contig, jA0, jA1, jA2, jA3, jB0, jB1, jB2, jB3, tx, ty),
    cubicPlaneX2(f, pz * kA1, pz * kB1, sx, iA0, iA1, iA2, iA3, iB0, iB1, iB2, iB3, contig, jA0, jA1, jA2, jA3, jB0, jB1, jB2, jB3, tx, ty),
    cubicPlaneX2(f, pz * kA2, pz * kB2, sx, iA0, iA1, iA2, iA3, iB0, iB1, iB2, iB3, contig, jA0, jA1, jA2, jA3, jB0, jB1, jB2, jB3, tx, ty),
    cubicPlaneX2(f, pz * kA3, pz * kB3, sx, iA0, iA1, iA2, iA3, iB0, iB1, iB2, iB3, contig, jA0, jA1, jA2, jA3, jB0, jB1, jB2, jB3, tx, ty),
    tz,
  )
}

// The departure point of the last backtrace (one per instance, i.e. per thread).
let bx: f64 = 0
let by: f64 = 0
let bz: f64 = 0

/** backtrace: RK2 midpoint back-trace from grid coordinates (X, Y, Z) over c = dt/dx. */
@inline function backtrace(u: usize, v: usize, w: usize, nx: i32, ny: i32, nz: i32, X: f64, Y: f64, Z: f64, c: f64): void {
  const vx = lerp3(u, nx + 1, ny, nz, X, Y - 0.5, Z - 0.5)
  const vy = lerp3(v, nx, ny + 1, nz, X - 0.5, Y, Z - 0.5)
  const vz = lerp3(w, nx, ny, nz + 1, X - 0.5, Y - 0.5, Z)
  traceFrom1(u, v, w, nx, ny, nz, X, Y, Z, vx, vy, vz, c)
}

/** The rest of backtrace once the velocity (vx, vy, vz) at (X, Y, Z) is known: the midpoint, its velocity, the departure point into bx, by, bz. */
@inline function traceFrom1(u: usize, v: usize, w: usize, nx: i32, ny: i32, nz: i32, X: f64, Y: f64, Z: f64, vx: f64, vy: f64, vz: f64, c: f64): void {
  const mx = X - 0.5 * c * vx
  const my = Y - 0.5 * c * vy
  const mz = Z - 0.5 * c * vz
  const wx = lerp3(u, nx + 1, ny, nz, mx, my - 0.5, mz - 0.5)
  const wy = lerp3(v, nx, ny + 1, nz, mx - 0.5, my, mz - 0.5)
  const wz = lerp3(w, nx, ny, nz + 1, mx - 0.5, my - 0.5, mz)
  bx = X - c * wx
  by = Y - c * wy
  bz = Z - c * wz
}

// The velocity of the last latticeVelocity1 (per instance, i.e. per thread).
let lvx: f64 = 0
let lvy: f64 = 0
let lvz: f64 = 0

@inline function half1(a: f64, b: f64): f64 {
  return a + 0.5 * (b - a)
}

/** latticeVelocity of the reference (advectKernels.ts): the velocity at sample (i, j, k) of lattice `axis` where it is inside, into lvx, lvy, lvz. */
function latticeVelocity1(axis: i32, u: usize, v: usize, w: usize, nx: i32, ny: i32, nz: i32, i: i32, j: i32, k: i32): bool {
  const su = nx + 1, sv = ny + 1, pw = nx * ny
  if (axis == -1) {
    if (i > nx - 2 || j > ny - 2 || k > nz - 2) return false
    const ou = i + su * (j + ny * k), ov = i + nx * (j + sv * k), ow = i + nx * (j + ny * k)
    lvx = half1(rf32(u, ou), rf32(u, ou + 1))
    lvy = half1(rf32(v, ov), rf32(v, ov + nx))
    lvz = half1(rf32(w, ow), rf32(w, ow + pw))
    return true
  }
  if (axis == 0) {
    if (i < 1 || i > nx - 1 || j > ny - 2 || k > nz - 2) return false
    const ov = i - 1 + nx * (j + sv * k), ow = i - 1 + nx * (j + ny * k)
    lvx = rf32(u, i + su * (j + ny * k))
    lvy = half1(half1(rf32(v, ov), rf32(v, ov + 1)), half1(rf32(v, ov + nx), rf32(v, ov + nx + 1)))
    lvz = half1(half1(rf32(w, ow), rf32(w, ow + 1)), half1(rf32(w, ow + pw), rf32(w, ow + pw + 1)))
    return true
  }
  if (axis == 1) {
    if (i > nx - 2 || j < 1 || j > ny - 1 || k > nz - 2) return false
    const ou = i + su * (j - 1 + ny * k), ow = i + nx * (j - 1 + ny * k)
    lvx = half1(half1(rf32(u, ou), rf32(u, ou + 1)), half1(rf32(u, ou + su), rf32(u, ou + su + 1)))
    lvy = rf32(v, i + nx * (j + sv * k))
    lvz = half1(half1(rf32(w, ow), rf32(w, ow + nx)), half1(rf32(w, ow + pw), rf32(w, ow + pw + nx)))
    return true
  }
  if (i > nx - 2 || j > ny - 2 || k < 1 || k > nz - 1) return false
  const ou = i + su * (j + ny * (k - 1)), ov = i + nx * (j + sv * (k - 1)), pu = su * ny, pv = nx * sv
  lvx = half1(half1(rf32(u, ou), rf32(u, ou + 1)), half1(rf32(u, ou + pu), rf32(u, ou + pu + 1)))
  lvy = half1(half1(rf32(v, ov), rf32(v, ov + nx)), half1(rf32(v, ov + pv), rf32(v, ov + pv + nx)))
  lvz = rf32(w, i + nx * (j + ny * k))
  return true
}

/** backtraceAt of the reference: backtrace from sample (i, j, k) of lattice `axis`, its first velocity latticeVelocity1's where inside. */
@inline function backtraceAt(axis: i32, i: i32, j: i32, k: i32, u: usize, v: usize, w: usize, nx: i32, ny: i32, nz: i32, X: f64, Y: f64, Z: f64, c: f64): void {
  if (latticeVelocity1(axis, u, v, w, nx, ny, nz, i, j, k)) traceFrom1(u, v, w, nx, ny, nz, X, Y, Z, lvx, lvy, lvz, c)
  else backtrace(u, v, w, nx, ny, nz, X, Y, Z, c)
}

@inline function clampV(g: v128, hi: v128): v128 {
  const t = v128.bitselect(g, hi, f64x2.lt(g, hi))
  return v128.bitselect(t, f64x2.splat(0), f64x2.gt(g, f64x2.splat(0)))
}

/** float32 pairs f[oA], f[oA + 1] and f[oB], f[oB + 1] in one vector (f32 lanes 0-1 and 2-3). */
@inline function rowPair(f: usize, oA: i32, oB: i32): v128 {
  return v128.load64_lane(f + (<usize>oB << 2), v128.load64_zero(f + (<usize>oA << 2)), 1)
}

/** One interpolated row for two samples: lanes f[oA] + tx (f[oA+1] - f[oA]) and the same at oB. */
@inline function rowLerp(f: usize, oA: i32, oB: i32, tx: v128): v128 {
  const v = rowPair(f, oA, oB)
  const f0 = f64x2.promote_low_f32x4(i32x4.shuffle(v, v, 0, 2, 0, 2))
  const f1 = f64x2.promote_low_f32x4(i32x4.shuffle(v, v, 1, 3, 1, 3))
  return f64x2.add(f0, f64x2.mul(tx, f64x2.sub(f1, f0)))
}

/** lerp3 for two samples (lanes); the lattice must be at least 2 samples wide along x. */
@inline function lerp3x2(f: usize, sx: i32, sy: i32, sz: i32, gx: v128, gy: v128, gz: v128): v128 {
  gx = clampV(gx, f64x2.splat(<f64>(sx - 1)))
  gy = clampV(gy, f64x2.splat(<f64>(sy - 1)))
  gz = clampV(gz, f64x2.splat(<f64>(sz - 1)))
  const iv = i32x4.min_s(i32x4.trunc_sat_f64x2_s_zero(f64x2.floor(gx)), i32x4.splat(sx - 2))
  const jv = i32x4.min_s(i32x4.trunc_sat_f64x2_s_zero(f64x2.floor(gy)), i32x4.splat(sy > 1 ? sy - 2 : 0))
  const kv = i32x4.min_s(i32x4.trunc_sat_f64x2_s_zero(f64x2.floor(gz)), i32x4.splat(sz > 1 ? sz - 2 : 0))
  const tx = f64x2.sub(gx, f64x2.convert_low_i32x4_s(iv))
  const ty = f64x2.sub(gy, f64x2.convert_low_i32x4_s(jv))
  const tz = f64x2.sub(gz, f64x2.convert_low_i32x4_s(kv))
  const dj = sy > 1 ? sx : 0
  const dk = sz > 1 ? sx * sy : 0
  const ov = i32x4.add(iv, i32x4.mul(i32x4.splat(sx), i32x4.add(jv, i32x4.mul(i32x4.splat(sy), kv))))
  return lerpCorner(f, i32x4.extract_lane(ov, 0), i32x4.extract_lane(ov, 1), dj, dk, tx, ty, tz)
}

/**
 * lerp3x2 where every coordinate is known to lie in [0, s - 1) along its axis (a point strictly
 * inside the lattice) and sy, sz >= 2: there lerp3x2's clamps leave the coordinates as they are,
 * floor is truncation, and the corner needs no upper clamp, so dropping the three gives the same
 * bits with about a third fewer instructions (the back-traces are most of the advection's time).
 * Callers test the coordinates first (insideX2).
 */
@inline function lerp3x2In(f: usize, sx: i32, sy: i32, gx: v128, gy: v128, gz: v128): v128 {
  const ov = cornerIn2(gx, gy, gz, sx, sy)
  return lerpCorner(f, i32x4.extract_lane(ov, 0), i32x4.extract_lane(ov, 1), sx, sx * sy, fracIn2(gx), fracIn2(gy), fracIn2(gz))
}

/** g - floor(g) in both lanes for g >= 0 (floor is truncation there). */
@inline function fracIn2(g: v128): v128 {
  return f64x2.sub(g, f64x2.convert_low_i32x4_s(i32x4.trunc_sat_f64x2_s_zero(g)))
}

/**
 * The corner index of two points inside an (sx, sy, *) lattice, in i32 lanes 0 and 1. (The
 * truncations repeat fracIn2's; the compiler computes them once.)
 */
@inline function cornerIn2(gx: v128, gy: v128, gz: v128, sx: i32, sy: i32): v128 {
  const iv = i32x4.trunc_sat_f64x2_s_zero(gx)
  const jv = i32x4.trunc_sat_f64x2_s_zero(gy)
  const kv = i32x4.trunc_sat_f64x2_s_zero(gz)
  return i32x4.add(iv, i32x4.mul(i32x4.splat(sx), i32x4.add(jv, i32x4.mul(i32x4.splat(sy), kv))))
}

/** The trilinear of lerp3x2 from the two samples' corners oA, oB and weights (tx, ty, tz); row and plane strides dj, dk. */
@inline function lerpCorner(f: usize, oA: i32, oB: i32, dj: i32, dk: i32, tx: v128, ty: v128, tz: v128): v128 {
  const c00 = rowLerp(f, oA, oB, tx)
  const c10 = rowLerp(f, oA + dj, oB + dj, tx)
  const c01 = rowLerp(f, oA + dk, oB + dk, tx)
  const c11 = rowLerp(f, oA + dk + dj, oB + dk + dj, tx)
  const c0 = f64x2.add(c00, f64x2.mul(ty, f64x2.sub(c10, c00)))
  const c1 = f64x2.add(c01, f64x2.mul(ty, f64x2.sub(c11, c01)))
  return f64x2.add(c0, f64x2.mul(tz, f64x2.sub(c1, c0)))
}

/** Both lanes of g in the open interval (lo, hi); false for NaN. */
@inline function inOpen(g: v128, lo: f64, hi: f64): v128 {
  return v128.and(f64x2.gt(g, f64x2.splat(lo)), f64x2.lt(g, f64x2.splat(hi)))
}

/**
 * Whether lerp3x2In may stand for lerp3x2 at (gx, gy, gz) on an (sx, sy, sz) lattice in both
 * lanes: every coordinate in (0, s - 1) and the lattice at least 2 samples thick along y and z.
 */
@inline function insideX2(gx: v128, gy: v128, gz: v128, sx: i32, sy: i32, sz: i32): bool {
  if (sy < 2 || sz < 2) return false
  return i64x2.all_true(v128.and(inOpen(gx, 0, <f64>(sx - 1)), v128.and(inOpen(gy, 0, <f64>(sy - 1)), inOpen(gz, 0, <f64>(sz - 1)))))
}

/** lerp3x2, by lerp3x2In where the point is inside. */
@inline function lerp3x2Any(f: usize, sx: i32, sy: i32, sz: i32, gx: v128, gy: v128, gz: v128): v128 {
  if (insideX2(gx, gy, gz, sx, sy, sz)) return lerp3x2In(f, sx, sy, gx, gy, gz)
  return lerp3x2(f, sx, sy, sz, gx, gy, gz)
}

// Departure points of the last backtrace2 (per instance, i.e. per thread).
let vbx: v128 = f64x2.splat(0)
let vby: v128 = f64x2.splat(0)
let vbz: v128 = f64x2.splat(0)

// The velocity at the two samples of the last latticeVelocity2 (per instance, i.e. per thread).
let lux: v128 = f64x2.splat(0)
let luy: v128 = f64x2.splat(0)
let luz: v128 = f64x2.splat(0)

/** float32 f[o], f[o + 1] widened into the two f64 lanes. */
@inline function pairAt(f: usize, o: i32): v128 {
  return f64x2.promote_low_f32x4(v128.load64_zero(f + (<usize>o << 2)))
}

/** a + (b - a) / 2 lane by lane: lerp3's step at weight 1/2. */
@inline function halfway(a: v128, b: v128): v128 {
  return f64x2.add(a, f64x2.mul(f64x2.splat(0.5), f64x2.sub(b, a)))
}

/**
 * The velocity at samples (i, j, k) and (i + 1, j, k) of lattice `axis` (-1 cells, 0/1/2 the
 * u/v/w faces) into lux, luy, luz, where the pair lies inside every component's lattice: each
 * component's trilinear weights there are 0 or 1/2 along every axis, so it is the average of
 * 1, 2 or 4 of its samples, taken as lerp3x2 takes it (f0 + 1/2 (f1 - f0) a step, its steps at
 * weight 0 dropped: f + 0 (g - f) is f for finite values, up to a zero's sign, which the trace
 * X - c u never shows). 6 to 9 loads instead of three 8-sample trilinears. Returns false next
 * to a border (a clamped weight, or a weight of 1), where the caller interpolates in general.
 */
@inline function latticeVelocity2(axis: i32, u: usize, v: usize, w: usize, nx: i32, ny: i32, nz: i32, i: i32, j: i32, k: i32): bool {
  const su = nx + 1, sv = ny + 1
  if (axis == -1) {
    if (i + 1 > nx - 2 || j > ny - 2 || k > nz - 2) return false
    const ou = i + su * (j + ny * k), ov = i + nx * (j + sv * k), ow = i + nx * (j + ny * k)
    lux = halfway(pairAt(u, ou), pairAt(u, ou + 1))
    luy = halfway(pairAt(v, ov), pairAt(v, ov + nx))
    luz = halfway(pairAt(w, ow), pairAt(w, ow + nx * ny))
    return true
  }
  if (axis == 0) {
    if (i < 1 || i + 1 > nx - 1 || j > ny - 2 || k > nz - 2) return false
    lux = pairAt(u, i + su * (j + ny * k))
    const ov = i - 1 + nx * (j + sv * k), ow = i - 1 + nx * (j + ny * k), pw = nx * ny
    luy = halfway(halfway(pairAt(v, ov), pairAt(v, ov + 1)), halfway(pairAt(v, ov + nx), pairAt(v, ov + nx + 1)))
    luz = halfway(halfway(pairAt(w, ow), pairAt(w, ow + 1)), halfway(pairAt(w, ow + pw), pairAt(w, ow + pw + 1)))
    return true
  }
  if (axis == 1) {
    if (i + 1 > nx - 2 || j < 1 || j > ny - 1 || k > nz - 2) return false
    const ou = i + su * (j - 1 + ny * k), ow = i + nx * (j - 1 + ny * k), pw = nx * ny
    lux = halfway(halfway(pairAt(u, ou), pairAt(u, ou + 1)), halfway(pairAt(u, ou + su), pairAt(u, ou + su + 1)))
    luy = pairAt(v, i + nx * (j + sv * k))
    luz = halfway(halfway(pairAt(w, ow), pairAt(w, ow + nx)), halfway(pairAt(w, ow + pw), pairAt(w, ow + pw + nx)))
    return true
  }
  if (i + 1 > nx - 2 || j > ny - 2 || k < 1 || k > nz - 1) return false
  const ou = i + su * (j + ny * (k - 1)), ov = i + nx * (j + sv * (k - 1)), pu = su * ny, pv = nx * sv
  lux = halfway(halfway(pairAt(u, ou), pairAt(u, ou + 1)), halfway(pairAt(u, ou + pu), pairAt(u, ou + pu + 1)))
  luy = halfway(halfway(pairAt(v, ov), pairAt(v, ov + nx)), halfway(pairAt(v, ov + pv), pairAt(v, ov + pv + nx)))
  luz = pairAt(w, i + nx * (j + ny * k))
  return true
}

/** The velocity at the two samples in general (three trilinears) into lux, luy, luz. */
@inline function sampleVelocity2(u: usize, v: usize, w: usize, nx: i32, ny: i32, nz: i32, X: v128, Y: v128, Z: v128): void {
  const half = f64x2.splat(0.5)
  lux = lerp3x2(u, nx + 1, ny, nz, X, f64x2.sub(Y, half), f64x2.sub(Z, half))
  luy = lerp3x2(v, nx, ny + 1, nz, f64x2.sub(X, half), Y, f64x2.sub(Z, half))
  luz = lerp3x2(w, nx, ny, nz + 1, f64x2.sub(X, half), f64x2.sub(Y, half), Z)
}

/**
 * The velocity at samples (i, j, k), (i + 1, j, k) of lattice `axis` into lux, luy, luz, each
 * lane as backtraceAt takes it: latticeVelocity2 where both are inside, else the trilinears with
 * the lane that is inside (if one is) replaced by its latticeVelocity1.
 */
@inline function startVelocity2(axis: i32, i: i32, j: i32, k: i32, u: usize, v: usize, w: usize, nx: i32, ny: i32, nz: i32, X: v128, Y: v128, Z: v128): void {
  if (latticeVelocity2(axis, u, v, w, nx, ny, nz, i, j, k)) return
  sampleVelocity2(u, v, w, nx, ny, nz, X, Y, Z)
  if (latticeVelocity1(axis, u, v, w, nx, ny, nz, i, j, k)) {
    lux = f64x2.replace_lane(lux, 0, lvx)
    luy = f64x2.replace_lane(luy, 0, lvy)
    luz = f64x2.replace_lane(luz, 0, lvz)
  }
  if (latticeVelocity1(axis, u, v, w, nx, ny, nz, i + 1, j, k)) {
    lux = f64x2.replace_lane(lux, 1, lvx)
    luy = f64x2.replace_lane(luy, 1, lvy)
    luz = f64x2.replace_lane(luz, 1, lvz)
  }
}

/** backtraceAt for two samples (i, j, k), (i + 1, j, k) of lattice `axis` at (X, Y, Z); nx >= 2. */
@inline function backtrace2(axis: i32, i: i32, j: i32, k: i32, u: usize, v: usize, w: usize, nx: i32, ny: i32, nz: i32, X: v128, Y: v128, Z: v128, c: f64): void {
  startVelocity2(axis, i, j, k, u, v, w, nx, ny, nz, X, Y, Z)
  traceFrom2(u, v, w, nx, ny, nz, X, Y, Z, lux, luy, luz, c)
}

/**
 * The rest of backtrace2 once the velocity (ux, uy, uz) at the two samples is known: the
 * midpoint over c, the velocity there, the departure points into vbx, vby, vbz.
 */
@inline function traceFrom2(u: usize, v: usize, w: usize, nx: i32, ny: i32, nz: i32, X: v128, Y: v128, Z: v128, ux: v128, uy: v128, uz: v128, c: f64): void {
  const half = f64x2.splat(0.5)
  const hc = f64x2.splat(0.5 * c)
  const vc = f64x2.splat(c)
  const mx = f64x2.sub(X, f64x2.mul(hc, ux))
  const my = f64x2.sub(Y, f64x2.mul(hc, uy))
  const mz = f64x2.sub(Z, f64x2.mul(hc, uz))
  // A midpoint in (1/2, n - 1/2) along every axis lies strictly inside all three staggered
  // lattices (their coordinates mx or mx - 1/2, exact, in [0, s - 1)): no clamps needed.
  let vx: v128, vy: v128, vz: v128
  if (nz >= 2 && ny >= 2 && i64x2.all_true(v128.and(inOpen(mx, 0.5, <f64>nx - 0.5), v128.and(inOpen(my, 0.5, <f64>ny - 0.5), inOpen(mz, 0.5, <f64>nz - 0.5))))) {
    vx = lerp3x2In(u, nx + 1, ny, mx, f64x2.sub(my, half), f64x2.sub(mz, half))
    vy = lerp3x2In(v, nx, ny + 1, f64x2.sub(mx, half), my, f64x2.sub(mz, half))
    vz = lerp3x2In(w, nx, ny, f64x2.sub(mx, half), f64x2.sub(my, half), mz)
  } else {
    vx = lerp3x2(u, nx + 1, ny, nz, mx, f64x2.sub(my, half), f64x2.sub(mz, half))
    vy = lerp3x2(v, nx, ny + 1, nz, f64x2.sub(mx, half), my, f64x2.sub(mz, half))
    vz = lerp3x2(w, nx, ny, nz + 1, f64x2.sub(mx, half), f64x2.sub(my, half), mz)
  }
  vbx = f64x2.sub(X, f64x2.mul(vc, vx))
  vby = f64x2.sub(Y, f64x2.mul(vc, vy))
  vbz = f64x2.sub(Z, f64x2.mul(vc, vz))
}

// Departure points of the reverse trace of the last backtrace2Both (per instance, i.e. per thread).
let rbx: v128 = f64x2.splat(0)
let rby: v128 = f64x2.splat(0)
let rbz: v128 = f64x2.splat(0)

/**
 * backtrace2 over c (into vbx, vby, vbz) and over -c (into rbx, rby, rbz) from the same two
 * samples: both start with the velocity there, looked up once; each is then traceFrom2 with
 * its own c, so the same bits as two backtrace2 calls.
 */
@inline function backtrace2Both(axis: i32, i: i32, j: i32, k: i32, u: usize, v: usize, w: usize, nx: i32, ny: i32, nz: i32, X: v128, Y: v128, Z: v128, c: f64): void {
  startVelocity2(axis, i, j, k, u, v, w, nx, ny, nz, X, Y, Z)
  const ux = lux, uy = luy, uz = luz
  traceFrom2(u, v, w, nx, ny, nz, X, Y, Z, ux, uy, uz, -c)
  rbx = vbx
  rby = vby
  rbz = vbz
  traceFrom2(u, v, w, nx, ny, nz, X, Y, Z, ux, uy, uz, c)
}

@inline function laneX(i: i32, ox: f64): v128 {
  return f64x2.replace_lane(f64x2.splat(<f64>i + ox), 1, <f64>(i + 1) + ox)
}

/** Stores the two lanes of v as float32 at dst[s], dst[s + 1]. */
@inline function storePair(dst: usize, s: i32, v: v128): void {
  v128.store64_lane(dst + (<usize>s << 2), f32x4.demote_f64x2_zero(v), 0)
}

/** cornerIndex of the reference: lower corner of the 8 samples around (gx, gy, gz), clamped like lerp3. */
@inline function cornerIndex(gx: f64, gy: f64, gz: f64, sx: i32, sy: i32, sz: i32): i32 {
  let a = gx > 0 ? <i32>Math.floor(gx) : 0
  let b = gy > 0 ? <i32>Math.floor(gy) : 0
  let c = gz > 0 ? <i32>Math.floor(gz) : 0
  if (a > sx - 2) a = sx > 1 ? sx - 2 : 0
  if (b > sy - 2) b = sy > 1 ? sy - 2 : 0
  if (c > sz - 2) c = sz > 1 ? sz - 2 : 0
  return a + sx * (b + sy * c)
}

/** cornerIndex for two samples (i32 lanes 0 and 1); sx >= 2. */
@inline function cornerIndex2(gx: v128, gy: v128, gz: v128, sx: i32, sy: i32, sz: i32): v128 {
  const zero = f64x2.splat(0)
  const av = i32x4.min_s(i32x4.trunc_sat_f64x2_s_zero(f64x2.floor(v128.bitselect(gx, zero, f64x2.gt(gx, zero)))), i32x4.splat(sx - 2))
  const bv = i32x4.min_s(i32x4.trunc_sat_f64x2_s_zero(f64x2.floor(v128.bitselect(gy, zero, f64x2.gt(gy, zero)))), i32x4.splat(sy > 1 ? sy - 2 : 0))
  const cv = i32x4.min_s(i32x4.trunc_sat_f64x2_s_zero(f64x2.floor(v128.bitselect(gz, zero, f64x2.gt(gz, zero)))), i32x4.splat(sz > 1 ? sz - 2 : 0))
  return i32x4.add(av, i32x4.mul(i32x4.splat(sx), i32x4.add(bv, i32x4.mul(i32x4.splat(sy), cv))))
}

@inline function advectSample(
  dst: usize, src: usize, axis: i32, u: usize, v: usize, w: usize, nx: i32, ny: i32, nz: i32,
  c: f64, solid: usize, solidKind: i32, dst2: usize, src2: usize, base: usize, rev: usize,
  sx: i32, sy: i32, sz: i32, ox: f64, oy: f64, oz: f64, i: i32, j: i32, k: i32, s: i32, cubic: bool,
): void {
  if (solidKind != 0 && solidSample(solid, solidKind, axis, i, j, k, nx, ny, nz)) {
    store<f32>(dst + (<usize>s << 2), load<f32>(src + (<usize>s << 2)))
    if (dst2 != 0) store<f32>(dst2 + (<usize>s << 2), load<f32>(src2 + (<usize>s << 2)))
    return
  }
  backtraceAt(axis, i, j, k, u, v, w, nx, ny, nz, <f64>i + ox, <f64>j + oy, <f64>k + oz, c)
  const gx = bx - ox
  const gy = by - oy
  const gz = bz - oz
  wf32(dst, s, sample3(src, sx, sy, sz, gx, gy, gz, cubic))
  if (dst2 != 0) wf32(dst2, s, sample3(src2, sx, sy, sz, gx, gy, gz, cubic))
  if (base != 0) store<i32>(base + (<usize>s << 2), cornerIndex(gx, gy, gz, sx, sy, sz))
  if (rev != 0) {
    backtraceAt(axis, i, j, k, u, v, w, nx, ny, nz, <f64>i + ox, <f64>j + oy, <f64>k + oz, -c)
    wf64(rev, 3 * s, bx - ox)
    wf64(rev, 3 * s + 1, by - oy)
    wf64(rev, 3 * s + 2, bz - oz)
  }
}

/**
 * advectSlab (trilinear): dst = src at the RK2 departure point for planes [k0, k1) of
 * lattice `axis` (-1 cells, 0/1/2 u/v/w faces). dst must not alias src. dst2/src2 (0 = none):
 * a second field along the same trace; base (0 = none): record each corner index (int32).
 */
export function advect(
  dst: usize, src: usize, axis: i32, u: usize, v: usize, w: usize, nx: i32, ny: i32, nz: i32,
  dtOverDx: f64, solid: usize, solidKind: i32, dst2: usize, src2: usize, base: usize, rev: usize, k0: i32, k1: i32,
): void {
  advectBody(dst, src, axis, u, v, w, nx, ny, nz, dtOverDx, solid, solidKind, dst2, src2, base, rev, k0, k1, false)
}

/** advectSlab with cubic = true: advect's contract, monotone tricubic field sampling. */
export function advectCubic(
  dst: usize, src: usize, axis: i32, u: usize, v: usize, w: usize, nx: i32, ny: i32, nz: i32,
  dtOverDx: f64, solid: usize, solidKind: i32, dst2: usize, src2: usize, base: usize, rev: usize, k0: i32, k1: i32,
): void {
  advectBody(dst, src, axis, u, v, w, nx, ny, nz, dtOverDx, solid, solidKind, dst2, src2, base, rev, k0, k1, true)
}

/**
 * advectAtSlab (trilinear): dst = src at the departure points advect recorded in rev (lattice
 * index coordinates, 3 float64 a sample) for planes [k0, k1) of lattice `axis`; solid samples
 * keep src. dst2/src2 (0 = none): a second field at the same points.
 */
export function advectAt(
  dst: usize, src: usize, axis: i32, nx: i32, ny: i32, nz: i32, solid: usize, solidKind: i32, rev: usize, dst2: usize, src2: usize, k0: i32, k1: i32,
): void {
  advectAtBody(dst, src, axis, nx, ny, nz, solid, solidKind, rev, dst2, src2, k0, k1, false)
}

/** advectAtSlab with monotone tricubic sampling. */
export function advectAtCubic(
  dst: usize, src: usize, axis: i32, nx: i32, ny: i32, nz: i32, solid: usize, solidKind: i32, rev: usize, dst2: usize, src2: usize, k0: i32, k1: i32,
): void {
  advectAtBody(dst, src, axis, nx, ny, nz, solid, solidKind, rev, dst2, src2, k0, k1, true)
}

@inline function advectAtBody(
  dst: usize, src: usize, axis: i32, nx: i32, ny: i32, nz: i32, solid: usize, solidKind: i32, rev: usize, dst2: usize, src2: usize, k0: i32, k1: i32, cubic: bool,
): void {
  if (src2 == 0) dst2 = 0
  const sx = axis == 0 ? nx + 1 : nx
  const sy = axis == 1 ? ny + 1 : ny
  const sz = axis == 2 ? nz + 1 : nz
  // Samples go in pairs through the two-lane interpolants (the same bits as sample3 lane by
  // lane, as advect's paired path), one at a time where a pair touches a solid and at a row's end.
  const paired = sx >= 2
  for (let k = k0; k < k1; k++) {
    for (let j = 0; j < sy; j++) {
      const s0 = sx * (j + sy * k)
      let i = 0
      if (paired) {
        for (; i + 1 < sx; i += 2) {
          const s = s0 + i
          if (solidPair(solid, solidKind, axis, i, j, k, nx, ny, nz)) {
            advectAtSample(dst, src, axis, nx, ny, nz, solid, solidKind, rev, dst2, src2, sx, sy, sz, i, j, k, s, cubic)
            advectAtSample(dst, src, axis, nx, ny, nz, solid, solidKind, rev, dst2, src2, sx, sy, sz, i + 1, j, k, s + 1, cubic)
            continue
          }
          const r = rev + (<usize>(3 * s) << 3)
          const gx = f64x2.replace_lane(f64x2.splat(load<f64>(r)), 1, load<f64>(r, 24))
          const gy = f64x2.replace_lane(f64x2.splat(load<f64>(r, 8)), 1, load<f64>(r, 32))
          const gz = f64x2.replace_lane(f64x2.splat(load<f64>(r, 16)), 1, load<f64>(r, 40))
          if (cubic) {
            storePair(dst, s, cubic3x2(src, sx, sy, sz, gx, gy, gz))
            if (dst2 != 0) storePair(dst2, s, cubic3x2(src2, sx, sy, sz, gx, gy, gz))
          } else {
            storePair(dst, s, lerp3x2Any(src, sx, sy, sz, gx, gy, gz))
            if (dst2 != 0) storePair(dst2, s, lerp3x2Any(src2, sx, sy, sz, gx, gy, gz))
          }
        }
      }
      for (; i < sx; i++) advectAtSample(dst, src, axis, nx, ny, nz, solid, solidKind, rev, dst2, src2, sx, sy, sz, i, j, k, s0 + i, cubic)
    }
  }
}

/** One sample of advectAtBody: a solid one keeps src, else src at its recorded departure point. */
@inline function advectAtSample(
  dst: usize, src: usize, axis: i32, nx: i32, ny: i32, nz: i32, solid: usize, solidKind: i32, rev: usize, dst2: usize, src2: usize,
  sx: i32, sy: i32, sz: i32, i: i32, j: i32, k: i32, s: i32, cubic: bool,
): void {
  if (solidKind != 0 && solidSample(solid, solidKind, axis, i, j, k, nx, ny, nz)) {
    store<f32>(dst + (<usize>s << 2), load<f32>(src + (<usize>s << 2)))
    if (dst2 != 0) store<f32>(dst2 + (<usize>s << 2), load<f32>(src2 + (<usize>s << 2)))
    return
  }
  const gx = rf64(rev, 3 * s), gy = rf64(rev, 3 * s + 1), gz = rf64(rev, 3 * s + 2)
  wf32(dst, s, sample3(src, sx, sy, sz, gx, gy, gz, cubic))
  if (dst2 != 0) wf32(dst2, s, sample3(src2, sx, sy, sz, gx, gy, gz, cubic))
}

@inline function advectBody(
  dst: usize, src: usize, axis: i32, u: usize, v: usize, w: usize, nx: i32, ny: i32, nz: i32,
  dtOverDx: f64, solid: usize, solidKind: i32, dst2: usize, src2: usize, base: usize, rev: usize, k0: i32, k1: i32, cubic: bool,
): void {
  if (src2 == 0) dst2 = 0
  const sx = axis == 0 ? nx + 1 : nx
  const sy = axis == 1 ? ny + 1 : ny
  const sz = axis == 2 ? nz + 1 : nz
  const ox: f64 = axis == 0 ? 0 : 0.5
  const oy: f64 = axis == 1 ? 0 : 0.5
  const oz: f64 = axis == 2 ? 0 : 0.5
  const vox = f64x2.splat(ox)
  const voy = f64x2.splat(oy)
  const voz = f64x2.splat(oz)
  const paired = nx >= 2
  for (let k = k0; k < k1; k++) {
    for (let j = 0; j < sy; j++) {
      const s0 = sx * (j + sy * k)
      let i = 0
      if (paired) {
        const Y = f64x2.splat(<f64>j + oy)
        const Z = f64x2.splat(<f64>k + oz)
        for (; i + 1 < sx; i += 2) {
          if (solidPair(solid, solidKind, axis, i, j, k, nx, ny, nz)) {
            advectSample(dst, src, axis, u, v, w, nx, ny, nz, dtOverDx, solid, solidKind, dst2, src2, base, rev, sx, sy, sz, ox, oy, oz, i, j, k, s0 + i, cubic)
            advectSample(dst, src, axis, u, v, w, nx, ny, nz, dtOverDx, solid, solidKind, dst2, src2, base, rev, sx, sy, sz, ox, oy, oz, i + 1, j, k, s0 + i + 1, cubic)
            continue
          }
          if (rev != 0) {
            backtrace2Both(axis, i, j, k, u, v, w, nx, ny, nz, laneX(i, ox), Y, Z, dtOverDx)
            const r = rev + (<usize>(3 * (s0 + i)) << 3)
            const rx = f64x2.sub(rbx, vox), ry = f64x2.sub(rby, voy), rz = f64x2.sub(rbz, voz)
            store<f64>(r, f64x2.extract_lane(rx, 0)); store<f64>(r, f64x2.extract_lane(ry, 0), 8); store<f64>(r, f64x2.extract_lane(rz, 0), 16)
            store<f64>(r, f64x2.extract_lane(rx, 1), 24); store<f64>(r, f64x2.extract_lane(ry, 1), 32); store<f64>(r, f64x2.extract_lane(rz, 1), 40)
          } else backtrace2(axis, i, j, k, u, v, w, nx, ny, nz, laneX(i, ox), Y, Z, dtOverDx)
          const gx = f64x2.sub(vbx, vox)
          const gy = f64x2.sub(vby, voy)
          const gz = f64x2.sub(vbz, voz)
          if (cubic) {
            storePair(dst, s0 + i, cubic3x2(src, sx, sy, sz, gx, gy, gz))
            if (dst2 != 0) storePair(dst2, s0 + i, cubic3x2(src2, sx, sy, sz, gx, gy, gz))
          } else {
            if (insideX2(gx, gy, gz, sx, sy, sz)) {
              // Inside, the fields' lerp3x2In and cornerIndex2 share one corner and weights.
              const ov = cornerIn2(gx, gy, gz, sx, sy)
              const oA = i32x4.extract_lane(ov, 0)
              const oB = i32x4.extract_lane(ov, 1)
              const tx = fracIn2(gx), ty = fracIn2(gy), tz = fracIn2(gz)
              storePair(dst, s0 + i, lerpCorner(src, oA, oB, sx, sx * sy, tx, ty, tz))
              if (dst2 != 0) storePair(dst2, s0 + i, lerpCorner(src2, oA, oB, sx, sx * sy, tx, ty, tz))
              if (base != 0) v128.store64_lane(base + (<usize>(s0 + i) << 2), ov, 0)
              continue
            }
            storePair(dst, s0 + i, lerp3x2(src, sx, sy, sz, gx, gy, gz))
            if (dst2 != 0) storePair(dst2, s0 + i, lerp3x2(src2, sx, sy, sz, gx, gy, gz))
          }
          if (base != 0) v128.store64_lane(base + (<usize>(s0 + i) << 2), cornerIndex2(gx, gy, gz, sx, sy, sz), 0)
        }
      }
      for (; i < sx; i++) advectSample(dst, src, axis, u, v, w, nx, ny, nz, dtOverDx, solid, solidKind, dst2, src2, base, rev, sx, sy, sz, ox, oy, oz, i, j, k, s0 + i, cubic)
    }
  }
}

/**
 * errorSample of the reference: the sample of the departure stencil with corner o nearest to
 * the arrival sample (i, j, k) along each axis, where MacCormack reads src - bwd (whole cells
 * of a trace shift the error estimate with the field; Lin & Rood 1996).
 */
@inline function errorSample(o: i32, i: i32, j: i32, k: i32, sx: i32, sy: i32): i32 {
  const a = o % sx
  const r = (o - a) / sx
  const b = r % sy
  const c = (r - b) / sy
  const ta = i < a ? a : i > a + 1 ? a + 1 : i
  const tb = j < b ? b : j > b + 1 ? b + 1 : j
  const tc = k < c ? c : k > c + 1 ? c + 1 : k
  return ta + sx * (tb + sy * tc)
}

/** MacCormack's limiter on val against [lo, hi]: 0 reverts to hat (so does a NaN), 1 clamps, 2 keeps val. */
@inline function limited(val: f64, hat: f64, lo: f64, hi: f64, limiter: i32): f64 {
  if (!(val >= lo && val <= hi)) {
    if (limiter == 0 || val != val) return hat
    if (limiter == 1) return val < lo ? lo : hi
  }
  return val
}

/** limited() in both lanes. */
@inline function limitPair(val: v128, hat: v128, lo: v128, hi: v128, limiter: i32): v128 {
  const out = v128.not(v128.and(f64x2.ge(val, lo), f64x2.le(val, hi)))
  const nan = f64x2.ne(val, val)
  if (limiter == 0) return v128.bitselect(hat, val, out)
  if (limiter == 1) return v128.bitselect(v128.bitselect(hat, v128.bitselect(lo, hi, f64x2.lt(val, lo)), nan), val, out)
  return v128.bitselect(hat, val, v128.and(out, nan))
}

/**
 * maccormackCorrectSlab: dst = fwd + (src - bwd) / 2 with src and bwd read at the errorSample,
 * limited to the range of the 8 src samples around the departure point (limiter 0 revert to
 * fwd, 1 clamp, 2 none). dst must not alias bwd. base (0 = none): the corner indices advect
 * recorded for this trace.
 */
export function maccormackCorrect(
  dst: usize, src: usize, fwd: usize, bwd: usize, axis: i32, u: usize, v: usize, w: usize,
  nx: i32, ny: i32, nz: i32, dtOverDx: f64, solid: usize, solidKind: i32, limiter: i32, base: usize, k0: i32, k1: i32,
): void {
  const sx = axis == 0 ? nx + 1 : nx
  const sy = axis == 1 ? ny + 1 : ny
  const sz = axis == 2 ? nz + 1 : nz
  const ox: f64 = axis == 0 ? 0 : 0.5
  const oy: f64 = axis == 1 ? 0 : 0.5
  const oz: f64 = axis == 2 ? 0 : 0.5
  const di = sx > 1 ? 1 : 0
  const dj = sy > 1 ? sx : 0
  const dk = sz > 1 ? sx * sy : 0
  const vox = f64x2.splat(ox)
  const voy = f64x2.splat(oy)
  const voz = f64x2.splat(oz)
  const paired = nx >= 2
  for (let k = k0; k < k1; k++) {
    for (let j = 0; j < sy; j++) {
      const s0 = sx * (j + sy * k)
      let i = 0
      if (paired) {
        const Y = f64x2.splat(<f64>j + oy)
        const Z = f64x2.splat(<f64>k + oz)
        for (; i + 1 < sx; i += 2) {
          if (solidPair(solid, solidKind, axis, i, j, k, nx, ny, nz)) {
            correctSample(dst, src, fwd, bwd, axis, u, v, w, nx, ny, nz, dtOverDx, solid, solidKind, limiter, base, sx, sy, sz, ox, oy, oz, di, dj, dk, i, j, k, s0 + i)
            correctSample(dst, src, fwd, bwd, axis, u, v, w, nx, ny, nz, dtOverDx, solid, solidKind, limiter, base, sx, sy, sz, ox, oy, oz, di, dj, dk, i + 1, j, k, s0 + i + 1)
            continue
          }
          const s = s0 + i
          const hat = w32x2(fwd, s)
          // The 8 src samples around the departure point, in the reference's order.
          let oA: i32
          let oB: i32
          if (base != 0) {
            oA = ri32(base, s)
            oB = ri32(base, s + 1)
          } else {
            backtrace2(axis, i, j, k, u, v, w, nx, ny, nz, laneX(i, ox), Y, Z, dtOverDx)
            const ov = cornerIndex2(f64x2.sub(vbx, vox), f64x2.sub(vby, voy), f64x2.sub(vbz, voz), sx, sy, sz)
            oA = i32x4.extract_lane(ov, 0)
            oB = i32x4.extract_lane(ov, 1)
          }
          // src - bwd at each lane's errorSample (not adjacent in general: one load per lane).
          const tA = errorSample(oA, i, j, k, sx, sy)
          const tB = errorSample(oB, i + 1, j, k, sx, sy)
          const eq = f64x2.replace_lane(f64x2.splat(rf32(src, tA)), 1, rf32(src, tB))
          const eb = f64x2.replace_lane(f64x2.splat(rf32(bwd, tA)), 1, rf32(bwd, tB))
          let val = f64x2.add(hat, f64x2.mul(f64x2.splat(0.5), f64x2.sub(eq, eb)))
          stencilRange2(src, oA, oB, dj, dk)
          storePair(dst, s, limitPair(val, hat, vLo, vHi, limiter))
        }
      }
      for (; i < sx; i++) correctSample(dst, src, fwd, bwd, axis, u, v, w, nx, ny, nz, dtOverDx, solid, solidKind, limiter, base, sx, sy, sz, ox, oy, oz, di, dj, dk, i, j, k, s0 + i)
    }
  }
}

@inline function correctSample(
  dst: usize, src: usize, fwd: usize, bwd: usize, axis: i32, u: usize, v: usize, w: usize,
  nx: i32, ny: i32, nz: i32, dtOverDx: f64, solid: usize, solidKind: i32, limiter: i32, base: usize,
  sx: i32, sy: i32, sz: i32, ox: f64, oy: f64, oz: f64, di: i32, dj: i32, dk: i32, i: i32, j: i32, k: i32, s: i32,
): void {
  if (solidKind != 0 && solidSample(solid, solidKind, axis, i, j, k, nx, ny, nz)) {
    store<f32>(dst + (<usize>s << 2), load<f32>(src + (<usize>s << 2)))
    return
  }
  let o: i32
  if (base != 0) o = ri32(base, s)
  else {
    backtraceAt(axis, i, j, k, u, v, w, nx, ny, nz, <f64>i + ox, <f64>j + oy, <f64>k + oz, dtOverDx)
    o = cornerIndex(bx - ox, by - oy, bz - oz, sx, sy, sz)
  }
  const t = errorSample(o, i, j, k, sx, sy)
  const hat = rf32(fwd, s)
  stencilRange(src, o, di, dj, dk)
  wf32(dst, s, limited(hat + 0.5 * (rf32(src, t) - rf32(bwd, t)), hat, rLo, rHi, limiter))
}

// Conservative limiting of MacCormack (reference: advectKernels.ts maccormackExcessSlab and
// maccormackRedistributeSlab): scalar code in the reference's float64 order, bit-identical.

// [lo, hi] of the last stencilRange (per instance, i.e. per thread).
let rLo: f64 = 0
let rHi: f64 = 0

@inline function stencilRange(src: usize, o: i32, di: i32, dj: i32, dk: i32): void {
  let lo = rf32(src, o)
  let hi = lo
  for (let n = 1; n < 8; n++) {
    const q = rf32(src, o + (n & 1 ? di : 0) + (n & 2 ? dj : 0) + (n & 4 ? dk : 0))
    if (q < lo) lo = q
    else if (q > hi) hi = q
  }
  rLo = lo
  rHi = hi
}

/** weightedRange of the reference: the range of the stencil samples the look-up weights. */
@inline function weightedRange(src: usize, o: i32, gx: f64, gy: f64, gz: f64, sx: i32, sy: i32, di: i32, dj: i32, dk: i32): void {
  const i = o % sx
  const j = ((o - i) / sx) % sy
  const k = (o - i - sx * j) / (sx * sy)
  const ex = gx > <f64>i ? di : 0
  const ey = gy > <f64>j ? dj : 0
  const ez = gz > <f64>k ? dk : 0
  let lo = rf32(src, o)
  let hi = lo
  for (let n = 1; n < 8; n++) {
    const q = rf32(src, o + (n & 1 ? ex : 0) + (n & 2 ? ey : 0) + (n & 4 ? ez : 0))
    if (q < lo) lo = q
    else if (q > hi) hi = q
  }
  rLo = lo
  rHi = hi
}

// Lane-wise [lo, hi] of the last stencilRange2 / weightedRange2 (per instance, i.e. per thread).
let vLo: v128 = f64x2.splat(0)
let vHi: v128 = f64x2.splat(0)

/** A running range's low after one more sample q, lane by lane: the scalar loops' "if (q < lo) lo = q" (a NaN moves it not). */
@inline function lowerWith(q: v128, lo: v128): v128 {
  return v128.bitselect(q, lo, f64x2.lt(q, lo))
}

/** Its high after q: "else if (q > hi) hi = q", against the low before q. */
@inline function upperWith(q: v128, hi: v128, lo: v128): v128 {
  return v128.bitselect(q, hi, v128.andnot(f64x2.gt(q, hi), f64x2.lt(q, lo)))
}

/** stencilRange for corners oA and oB in lanes 0 and 1 (sx >= 2, so di = 1): the range of each 2x2x2 stencil, into vLo, vHi. */
@inline function stencilRange2(src: usize, oA: i32, oB: i32, dj: i32, dk: i32): void {
  let r = rowPair(src, oA, oB)
  let lo = f64x2.promote_low_f32x4(i32x4.shuffle(r, r, 0, 2, 0, 2))
  let hi = lo
  let q = f64x2.promote_low_f32x4(i32x4.shuffle(r, r, 1, 3, 1, 3))
  hi = upperWith(q, hi, lo)
  lo = lowerWith(q, lo)
  for (let n = 1; n < 4; n++) {
    const o = (n & 1 ? dj : 0) + (n & 2 ? dk : 0)
    r = rowPair(src, oA + o, oB + o)
    q = f64x2.promote_low_f32x4(i32x4.shuffle(r, r, 0, 2, 0, 2))
    hi = upperWith(q, hi, lo)
    lo = lowerWith(q, lo)
    q = f64x2.promote_low_f32x4(i32x4.shuffle(r, r, 1, 3, 1, 3))
    hi = upperWith(q, hi, lo)
    lo = lowerWith(q, lo)
  }
  vLo = lo
  vHi = hi
}

/** weightedRange for two samples in lanes 0 and 1: corners oA, oB, departure points (gx, gy, gz) lane by lane. */
@inline function weightedRange2(src: usize, oA: i32, oB: i32, gx: v128, gy: v128, gz: v128, sx: i32, sy: i32, di: i32, dj: i32, dk: i32): void {
  const iA = oA % sx, iB = oB % sx
  const jA = ((oA - iA) / sx) % sy, jB = ((oB - iB) / sx) % sy
  const kA = (oA - iA - sx * jA) / (sx * sy), kB = (oB - iB - sx * jB) / (sx * sy)
  weightedRange2At(src, oA, oB, iA, jA, kA, iB, jB, kB, gx, gy, gz, di, dj, dk)
}

/** weightedRange2 with the corners' lattice coordinates (iA, jA, kA) and (iB, jB, kB) given. */
@inline function weightedRange2At(src: usize, oA: i32, oB: i32, iA: i32, jA: i32, kA: i32, iB: i32, jB: i32, kB: i32, gx: v128, gy: v128, gz: v128, di: i32, dj: i32, dk: i32): void {
  const exA = f64x2.extract_lane(gx, 0) > <f64>iA ? di : 0, exB = f64x2.extract_lane(gx, 1) > <f64>iB ? di : 0
  const eyA = f64x2.extract_lane(gy, 0) > <f64>jA ? dj : 0, eyB = f64x2.extract_lane(gy, 1) > <f64>jB ? dj : 0
  const ezA = f64x2.extract_lane(gz, 0) > <f64>kA ? dk : 0, ezB = f64x2.extract_lane(gz, 1) > <f64>kB ? dk : 0
  let lo = f64x2.replace_lane(f64x2.splat(<f64>rf32(src, oA)), 1, <f64>rf32(src, oB))
  let hi = lo
  for (let n = 1; n < 8; n++) {
    const a = oA + (n & 1 ? exA : 0) + (n & 2 ? eyA : 0) + (n & 4 ? ezA : 0)
    const b = oB + (n & 1 ? exB : 0) + (n & 2 ? eyB : 0) + (n & 4 ? ezB : 0)
    const q = f64x2.replace_lane(f64x2.splat(<f64>rf32(src, a)), 1, <f64>rf32(src, b))
    hi = upperWith(q, hi, lo)
    lo = lowerWith(q, lo)
  }
  vLo = lo
  vHi = hi
}

// d of the last excessHead (per instance, i.e. per thread).
let headD: f64 = 0

/**
 * maccormackExcessSlab's sample s up to its back-trace: ex, and dst clamped where val is within
 * rounding of the range; leaves d in headD. Returns whether the room needs the trace (a stencil
 * that is not flat), else writes up = dn = 0.
 */
@inline function excessHead(
  ex: usize, up: usize, dn: usize, dst: usize, src: usize, fwd: usize, bwd: usize, base: usize,
  sx: i32, sy: i32, i: i32, j: i32, k: i32, s: i32, lo: f64, hi: f64,
): bool {
  const o = ri32(base, s)
  const t = errorSample(o, i, j, k, sx, sy)
  return excessHeadOf(ex, up, dn, dst, s, rf32(fwd, s), rf32(src, t), rf32(bwd, t), lo, hi)
}

/** excessHead from what it reads: f = fwd[s], q = src[t], r = bwd[t] at the errorSample t. */
@inline function excessHeadOf(ex: usize, up: usize, dn: usize, dst: usize, s: i32, f: f64, q: f64, r: f64, lo: f64, hi: f64): bool {
  const val = f + 0.5 * (q - r)
  let d = rf32(dst, s)
  if (!(val >= lo && val <= hi)) {
    const tol = 9.5367431640625e-7 * ((f < 0 ? -f : f) + (q < 0 ? -q : q) + (r < 0 ? -r : r))
    if (val > hi && val <= hi + tol) {
      wf32(dst, s, hi)
      d = hi
    } else if (val < lo && val >= lo - tol) {
      wf32(dst, s, lo)
      d = lo
    }
  }
  wf32(ex, s, val >= lo && val <= hi ? 0 : val == val ? val - d : 0)
  headD = d
  if (lo == hi) {
    wf32(up, s, 0)
    wf32(dn, s, 0)
    return false
  }
  return true
}

/** The rest of sample s once its forward departure point (gx, gy, gz) is known: up and dn. */
@inline function excessRoom(up: usize, dn: usize, d: f64, lo: f64, hi: f64, s: i32): void {
  const a = hi - d
  const b = d - lo
  wf32(up, s, a > 0 ? a : 0)
  wf32(dn, s, b > 0 ? b : 0)
}

/** excessRoom for the samples s, s + 1 that need it, from the lane ranges of the last weightedRange2. */
@inline function excessRoom2(up: usize, dn: usize, s: i32, needA: bool, dA: f64, needB: bool, dB: f64): void {
  if (needA) excessRoom(up, dn, dA, f64x2.extract_lane(vLo, 0), f64x2.extract_lane(vHi, 0), s)
  if (needB) excessRoom(up, dn, dB, f64x2.extract_lane(vLo, 1), f64x2.extract_lane(vHi, 1), s + 1)
}

/**
 * maccormackExcessSlab: ex (clipped amount), up / dn (room in the limiter range) per sample.
 * Neighbouring samples along x go in pairs whose back-traces run in the two lanes (backtrace2,
 * the same departure points as backtraceAt), traced only when either needs it.
 */
export function maccormackExcess(
  ex: usize, up: usize, dn: usize, dst: usize, src: usize, fwd: usize, bwd: usize, axis: i32,
  u: usize, v: usize, w: usize, nx: i32, ny: i32, nz: i32, dtOverDx: f64, solid: usize, solidKind: i32, base: usize, k0: i32, k1: i32,
): void {
  const sx = axis == 0 ? nx + 1 : nx
  const sy = axis == 1 ? ny + 1 : ny
  const sz = axis == 2 ? nz + 1 : nz
  const ox: f64 = axis == 0 ? 0 : 0.5
  const oy: f64 = axis == 1 ? 0 : 0.5
  const oz: f64 = axis == 2 ? 0 : 0.5
  const di = sx > 1 ? 1 : 0
  const dj = sy > 1 ? sx : 0
  const dk = sz > 1 ? sx * sy : 0
  const paired = nx >= 2
  for (let k = k0; k < k1; k++) {
    for (let j = 0; j < sy; j++) {
      const s0 = sx * (j + sy * k)
      let i = 0
      if (paired) {
        const Y = f64x2.splat(<f64>j + oy)
        const Z = f64x2.splat(<f64>k + oz)
        for (; i + 1 < sx; i += 2) {
          const s = s0 + i
          if (solidPair(solid, solidKind, axis, i, j, k, nx, ny, nz)) {
            excessSample(ex, up, dn, dst, src, fwd, bwd, axis, u, v, w, nx, ny, nz, dtOverDx, solid, solidKind, base, sx, sy, ox, oy, oz, di, dj, dk, i, j, k, s)
            excessSample(ex, up, dn, dst, src, fwd, bwd, axis, u, v, w, nx, ny, nz, dtOverDx, solid, solidKind, base, sx, sy, ox, oy, oz, di, dj, dk, i + 1, j, k, s + 1)
            continue
          }
          const oA = ri32(base, s)
          const oB = ri32(base, s + 1)
          stencilRange2(src, oA, oB, dj, dk)
          const needA = excessHead(ex, up, dn, dst, src, fwd, bwd, base, sx, sy, i, j, k, s, f64x2.extract_lane(vLo, 0), f64x2.extract_lane(vHi, 0))
          const dA = headD
          const needB = excessHead(ex, up, dn, dst, src, fwd, bwd, base, sx, sy, i + 1, j, k, s + 1, f64x2.extract_lane(vLo, 1), f64x2.extract_lane(vHi, 1))
          const dB = headD
          if (!needA && !needB) continue
          backtrace2(axis, i, j, k, u, v, w, nx, ny, nz, laneX(i, ox), Y, Z, dtOverDx)
          weightedRange2(src, oA, oB, f64x2.sub(vbx, f64x2.splat(ox)), f64x2.sub(vby, f64x2.splat(oy)), f64x2.sub(vbz, f64x2.splat(oz)), sx, sy, di, dj, dk)
          excessRoom2(up, dn, s, needA, dA, needB, dB)
        }
      }
      for (; i < sx; i++) excessSample(ex, up, dn, dst, src, fwd, bwd, axis, u, v, w, nx, ny, nz, dtOverDx, solid, solidKind, base, sx, sy, ox, oy, oz, di, dj, dk, i, j, k, s0 + i)
    }
  }
}

/** One sample of maccormackExcess on its own (a solid keeps no excess and no room). */
@inline function excessSample(
  ex: usize, up: usize, dn: usize, dst: usize, src: usize, fwd: usize, bwd: usize, axis: i32,
  u: usize, v: usize, w: usize, nx: i32, ny: i32, nz: i32, dtOverDx: f64, solid: usize, solidKind: i32, base: usize,
  sx: i32, sy: i32, ox: f64, oy: f64, oz: f64, di: i32, dj: i32, dk: i32, i: i32, j: i32, k: i32, s: i32,
): void {
  if (solidKind != 0 && solidSample(solid, solidKind, axis, i, j, k, nx, ny, nz)) {
    wf32(ex, s, 0)
    wf32(up, s, 0)
    wf32(dn, s, 0)
    return
  }
  const o = ri32(base, s)
  stencilRange(src, o, di, dj, dk)
  if (!excessHead(ex, up, dn, dst, src, fwd, bwd, base, sx, sy, i, j, k, s, rLo, rHi)) return
  const d = headD
  backtraceAt(axis, i, j, k, u, v, w, nx, ny, nz, <f64>i + ox, <f64>j + oy, <f64>k + oz, dtOverDx)
  weightedRange(src, o, bx - ox, by - oy, bz - oz, sx, sy, di, dj, dk)
  excessRoom(up, dn, d, rLo, rHi, s)
}

@inline function neighbourRoom(room: usize, s: i32, i: i32, j: i32, k: i32, sx: i32, sy: i32, sz: i32): f64 {
  const p = sx * sy
  let r: f64 = 0
  if (i > 0) r += rf32(room, s - 1)
  if (i + 1 < sx) r += rf32(room, s + 1)
  if (j > 0) r += rf32(room, s - sx)
  if (j + 1 < sy) r += rf32(room, s + sx)
  if (k > 0) r += rf32(room, s - p)
  if (k + 1 < sz) r += rf32(room, s + p)
  return r
}

let shareUp: f64 = 0
let shareDn: f64 = 0

@inline function donor(ex: usize, up: usize, dn: usize, s: i32, i: i32, j: i32, k: i32, sx: i32, sy: i32, sz: i32): void {
  const e = rf32(ex, s)
  if (e > 0) {
    const r = neighbourRoom(up, s, i, j, k, sx, sy, sz)
    if (r > 0) shareUp += e / r
  } else if (e < 0) {
    const r = neighbourRoom(dn, s, i, j, k, sx, sy, sz)
    if (r > 0) shareDn += -e / r
  }
}

/** maccormackRedistributeSlab: each sample gathers its share of its neighbours' clipped excess. */
export function maccormackRedistribute(
  dst: usize, ex: usize, up: usize, dn: usize, src: usize, axis: i32, nx: i32, ny: i32, nz: i32, base: usize, k0: i32, k1: i32,
): void {
  const sx = axis == 0 ? nx + 1 : nx
  const sy = axis == 1 ? ny + 1 : ny
  const sz = axis == 2 ? nz + 1 : nz
  const di = sx > 1 ? 1 : 0
  const dj = sy > 1 ? sx : 0
  const dk = sz > 1 ? sx * sy : 0
  const p = sx * sy
  for (let k = k0; k < k1; k++) {
    for (let j = 0; j < sy; j++) {
      let s = sx * (j + sy * k)
      for (let i = 0; i < sx; i++, s++) {
        const a = rf32(up, s)
        const b = rf32(dn, s)
        if (a == 0 && b == 0) continue
        shareUp = 0
        shareDn = 0
        if (i > 0) donor(ex, up, dn, s - 1, i - 1, j, k, sx, sy, sz)
        if (i + 1 < sx) donor(ex, up, dn, s + 1, i + 1, j, k, sx, sy, sz)
        if (j > 0) donor(ex, up, dn, s - sx, i, j - 1, k, sx, sy, sz)
        if (j + 1 < sy) donor(ex, up, dn, s + sx, i, j + 1, k, sx, sy, sz)
        if (k > 0) donor(ex, up, dn, s - p, i, j, k - 1, sx, sy, sz)
        if (k + 1 < sz) donor(ex, up, dn, s + p, i, j, k + 1, sx, sy, sz)
        if (shareUp == 0 && shareDn == 0) continue
        let gain = a * shareUp
        if (gain > a) gain = a
        let loss = b * shareDn
        if (loss > b) loss = b
        let val = rf32(dst, s) + gain - loss
        stencilRange(src, ri32(base, s), di, dj, dk)
        if (val > rHi) val = rHi
        if (val < rLo) val = rLo
        wf32(dst, s, val)
      }
    }
  }
}

// MacCormack's correction and conservative limiting in one pass (reference: advectKernels.ts
// maccormackFusedSlab): bwd is not a lattice advectAt wrote but fwd looked up at the errorSample's
// recorded reverse departure point where the correction reads it, rounded to float32 as the
// lattice held it; fwd itself at a solid sample. The same bits as advectAt, maccormackCorrect
// and maccormackExcess in turn.

// floor(2^40 / s) + 1 for the lattice's sx and sy, so that o / s is (o m) >> 40 (a multiply
// instead of a division on the chain from a sample's corner to its backward value): exact while
// o s < 2^40 (the error o (m s - 2^40) / (s 2^40) stays below 1 / s), and o m fits in 64 bits
// while o / s < 2^24. 0: lattices beyond either bound divide (magicDivisors).
let mulX: u64 = 0
let mulY: u64 = 0

/** Sets mulX, mulY for an sx x sy x sz lattice, or 0 where the bounds above do not hold for every index. */
@inline function magicDivisors(sx: i32, sy: i32, sz: i32): void {
  const cells = <u64>sx * <u64>sy * <u64>sz
  const wide = <u64>(sx > sy ? sx : sy)
  const ok = cells * wide < (<u64>1 << 40) && <u64>sy * <u64>sz < (<u64>1 << 24)
  mulX = ok ? (<u64>1 << 40) / <u64>sx + 1 : 0
  mulY = ok ? (<u64>1 << 40) / <u64>sy + 1 : 0
}

// Lattice coordinates of the last errorSampleAt's sample and corner (per instance, i.e. per thread).
let eOa: i32 = 0
let eOb: i32 = 0
let eOc: i32 = 0
let eTa: i32 = 0
let eTb: i32 = 0
let eTc: i32 = 0

/** errorSample, keeping the sample's lattice coordinates in eTa, eTb, eTc. */
@inline function errorSampleAt(o: i32, i: i32, j: i32, k: i32, sx: i32, sy: i32): i32 {
  const r = mulX != 0 ? <i32>((<u64>o * mulX) >> 40) : o / sx
  const a = (eOa = o - r * sx)
  const c = (eOc = mulX != 0 ? <i32>((<u64>r * mulY) >> 40) : r / sy)
  const b = (eOb = r - c * sy)
  eTa = i < a ? a : i > a + 1 ? a + 1 : i
  eTb = j < b ? b : j > b + 1 ? b + 1 : j
  eTc = k < c ? c : k > c + 1 ? c + 1 : k
  return eTa + sx * (eTb + sy * eTc)
}

/** What advectAt stores at sample t of the last errorSampleAt: fwd at rev[t] (trilinear), fwd[t] at a solid t. */
@inline function reverseAt(fwd: usize, rev: usize, solid: usize, solidKind: i32, axis: i32, t: i32, nx: i32, ny: i32, nz: i32, sx: i32, sy: i32, sz: i32): f64 {
  if (solidKind != 0 && solidSample(solid, solidKind, axis, eTa, eTb, eTc, nx, ny, nz)) return rf32(fwd, t)
  return <f64><f32>sample3(fwd, sx, sy, sz, rf64(rev, 3 * t), rf64(rev, 3 * t + 1), rf64(rev, 3 * t + 2), false)
}

/** maccormackFusedSlab's sample s on its own (the pair path's solid-touching pairs and odd tails). */
@inline function fusedSample(
  dst: usize, src: usize, fwd: usize, rev: usize, ex: usize, up: usize, dn: usize, axis: i32, u: usize, v: usize, w: usize,
  nx: i32, ny: i32, nz: i32, dtOverDx: f64, solid: usize, solidKind: i32, limiter: i32, base: usize,
  sx: i32, sy: i32, sz: i32, ox: f64, oy: f64, oz: f64, di: i32, dj: i32, dk: i32, i: i32, j: i32, k: i32, s: i32,
): void {
  if (solidKind != 0 && solidSample(solid, solidKind, axis, i, j, k, nx, ny, nz)) {
    store<f32>(dst + (<usize>s << 2), load<f32>(src + (<usize>s << 2)))
    if (ex != 0) {
      wf32(ex, s, 0)
      wf32(up, s, 0)
      wf32(dn, s, 0)
    }
    return
  }
  const o = ri32(base, s)
  const t = errorSampleAt(o, i, j, k, sx, sy)
  const hat = rf32(fwd, s)
  const q = rf32(src, t)
  const r = reverseAt(fwd, rev, solid, solidKind, axis, t, nx, ny, nz, sx, sy, sz)
  stencilRange(src, o, di, dj, dk)
  const lo = rLo, hi = rHi
  wf32(dst, s, limited(hat + 0.5 * (q - r), hat, lo, hi, limiter))
  if (ex == 0) return
  if (!excessHeadOf(ex, up, dn, dst, s, hat, q, r, lo, hi)) return
  const d = headD
  backtraceAt(axis, i, j, k, u, v, w, nx, ny, nz, <f64>i + ox, <f64>j + oy, <f64>k + oz, dtOverDx)
  weightedRange(src, o, bx - ox, by - oy, bz - oz, sx, sy, di, dj, dk)
  excessRoom(up, dn, d, rLo, rHi, s)
}

/**
 * maccormackFusedSlab: dst by MacCormack's correction (limiter 0 revert, 1 clamp, 2 none) and,
 * with ex != 0, ex / up / dn as maccormackExcess writes them (dst clamped where within rounding
 * of the range), bwd worked out where it is read (see above). Pairs of samples along x in the
 * two lanes, as maccormackCorrect; each lane's bwd value by the two-lane look-up where neither
 * errorSample is solid.
 */
export function maccormackFused(
  dst: usize, src: usize, fwd: usize, rev: usize, ex: usize, up: usize, dn: usize, axis: i32, u: usize, v: usize, w: usize,
  nx: i32, ny: i32, nz: i32, dtOverDx: f64, solid: usize, solidKind: i32, limiter: i32, base: usize, k0: i32, k1: i32,
): void {
  if (up == 0 || dn == 0) ex = 0
  const sx = axis == 0 ? nx + 1 : nx
  const sy = axis == 1 ? ny + 1 : ny
  const sz = axis == 2 ? nz + 1 : nz
  magicDivisors(sx, sy, sz)
  const ox: f64 = axis == 0 ? 0 : 0.5
  const oy: f64 = axis == 1 ? 0 : 0.5
  const oz: f64 = axis == 2 ? 0 : 0.5
  const di = sx > 1 ? 1 : 0
  const dj = sy > 1 ? sx : 0
  const dk = sz > 1 ? sx * sy : 0
  const paired = nx >= 2
  for (let k = k0; k < k1; k++) {
    for (let j = 0; j < sy; j++) {
      const s0 = sx * (j + sy * k)
      let i = 0
      if (paired) {
        const Y = f64x2.splat(<f64>j + oy)
        const Z = f64x2.splat(<f64>k + oz)
        for (; i + 1 < sx; i += 2) {
          const s = s0 + i
          if (solidPair(solid, solidKind, axis, i, j, k, nx, ny, nz)) {
            fusedSample(dst, src, fwd, rev, ex, up, dn, axis, u, v, w, nx, ny, nz, dtOverDx, solid, solidKind, limiter, base, sx, sy, sz, ox, oy, oz, di, dj, dk, i, j, k, s)
            fusedSample(dst, src, fwd, rev, ex, up, dn, axis, u, v, w, nx, ny, nz, dtOverDx, solid, solidKind, limiter, base, sx, sy, sz, ox, oy, oz, di, dj, dk, i + 1, j, k, s + 1)
            continue
          }
          const hat = w32x2(fwd, s)
          const oA = ri32(base, s)
          const oB = ri32(base, s + 1)
          const tA = errorSampleAt(oA, i, j, k, sx, sy)
          const solidA = solidKind != 0 && solidSample(solid, solidKind, axis, eTa, eTb, eTc, nx, ny, nz)
          const iA = eOa, jA = eOb, kA = eOc
          const tB = errorSampleAt(oB, i + 1, j, k, sx, sy)
          const solidB = solidKind != 0 && solidSample(solid, solidKind, axis, eTa, eTb, eTc, nx, ny, nz)
          const eq = f64x2.replace_lane(f64x2.splat(rf32(src, tA)), 1, rf32(src, tB))
          let eb: v128
          if (!solidA && !solidB) {
            const rA = rev + (<usize>(3 * tA) << 3), rB = rev + (<usize>(3 * tB) << 3)
            const gx = f64x2.replace_lane(f64x2.splat(load<f64>(rA)), 1, load<f64>(rB))
            const gy = f64x2.replace_lane(f64x2.splat(load<f64>(rA, 8)), 1, load<f64>(rB, 8))
            const gz = f64x2.replace_lane(f64x2.splat(load<f64>(rA, 16)), 1, load<f64>(rB, 16))
            // Rounded to float32 and back, as advectAt's lattice held it.
            eb = f64x2.promote_low_f32x4(f32x4.demote_f64x2_zero(lerp3x2Any(fwd, sx, sy, sz, gx, gy, gz)))
          } else {
            const bA = solidA ? <f64>rf32(fwd, tA) : <f64><f32>sample3(fwd, sx, sy, sz, rf64(rev, 3 * tA), rf64(rev, 3 * tA + 1), rf64(rev, 3 * tA + 2), false)
            const bB = solidB ? <f64>rf32(fwd, tB) : <f64><f32>sample3(fwd, sx, sy, sz, rf64(rev, 3 * tB), rf64(rev, 3 * tB + 1), rf64(rev, 3 * tB + 2), false)
            eb = f64x2.replace_lane(f64x2.splat(bA), 1, bB)
          }
          const raw = f64x2.add(hat, f64x2.mul(f64x2.splat(0.5), f64x2.sub(eq, eb)))
          stencilRange2(src, oA, oB, dj, dk)
          const lo = vLo, hi = vHi
          storePair(dst, s, limitPair(raw, hat, lo, hi, limiter))
          if (ex == 0) continue
          const needA = excessHeadOf(ex, up, dn, dst, s, f64x2.extract_lane(hat, 0), f64x2.extract_lane(eq, 0), f64x2.extract_lane(eb, 0), f64x2.extract_lane(lo, 0), f64x2.extract_lane(hi, 0))
          const dA = headD
          const needB = excessHeadOf(ex, up, dn, dst, s + 1, f64x2.extract_lane(hat, 1), f64x2.extract_lane(eq, 1), f64x2.extract_lane(eb, 1), f64x2.extract_lane(lo, 1), f64x2.extract_lane(hi, 1))
          const dB = headD
          if (!needA && !needB) continue
          backtrace2(axis, i, j, k, u, v, w, nx, ny, nz, laneX(i, ox), Y, Z, dtOverDx)
          weightedRange2At(src, oA, oB, iA, jA, kA, eOa, eOb, eOc, f64x2.sub(vbx, f64x2.splat(ox)), f64x2.sub(vby, f64x2.splat(oy)), f64x2.sub(vbz, f64x2.splat(oz)), di, dj, dk)
          excessRoom2(up, dn, s, needA, dA, needB, dB)
        }
      }
      for (; i < sx; i++) fusedSample(dst, src, fwd, rev, ex, up, dn, axis, u, v, w, nx, ny, nz, dtOverDx, solid, solidKind, limiter, base, sx, sy, sz, ox, oy, oz, di, dj, dk, i, j, k, s0 + i)
    }
  }
}
