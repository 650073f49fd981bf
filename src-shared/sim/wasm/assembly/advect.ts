// Semi-Lagrangian advection with trilinear sampling and the MacCormack correction
// (reference: src-shared/sim/core/advect.ts and interpolate.ts lerp3 / velocityAtGridCoord).
// Scalar float64 arithmetic in the reference's order: bit-identical to advectSlab (linear)
// and maccormackCorrectSlab. The work is dominated by the 56 scattered loads per sample
// (three trilinear velocity lookups at two points and one field lookup), which SIMD lanes
// would not remove.
//
// Solid masks: solidKind 0 = none, 1 = uint8 (nonzero is solid), 2 = float32 fraction
// (>= 0.5 is solid), like the reference's SolidField.
import { rf32, wf32, ru8 } from './common'

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

// The departure point of the last backtrace (one per instance, i.e. per thread).
let bx: f64 = 0
let by: f64 = 0
let bz: f64 = 0

/** backtrace: RK2 midpoint back-trace from grid coordinates (X, Y, Z) over c = dt/dx. */
@inline function backtrace(u: usize, v: usize, w: usize, nx: i32, ny: i32, nz: i32, X: f64, Y: f64, Z: f64, c: f64): void {
  let vx = lerp3(u, nx + 1, ny, nz, X, Y - 0.5, Z - 0.5)
  let vy = lerp3(v, nx, ny + 1, nz, X - 0.5, Y, Z - 0.5)
  let vz = lerp3(w, nx, ny, nz + 1, X - 0.5, Y - 0.5, Z)
  const mx = X - 0.5 * c * vx
  const my = Y - 0.5 * c * vy
  const mz = Z - 0.5 * c * vz
  vx = lerp3(u, nx + 1, ny, nz, mx, my - 0.5, mz - 0.5)
  vy = lerp3(v, nx, ny + 1, nz, mx - 0.5, my, mz - 0.5)
  vz = lerp3(w, nx, ny, nz + 1, mx - 0.5, my - 0.5, mz)
  bx = X - c * vx
  by = Y - c * vy
  bz = Z - c * vz
}

/**
 * advectSlab (trilinear): dst = src at the RK2 departure point for planes [k0, k1) of
 * lattice `axis` (-1 cells, 0/1/2 u/v/w faces). dst must not alias src.
 */
export function advect(
  dst: usize, src: usize, axis: i32, u: usize, v: usize, w: usize, nx: i32, ny: i32, nz: i32,
  dtOverDx: f64, solid: usize, solidKind: i32, k0: i32, k1: i32,
): void {
  const sx = axis == 0 ? nx + 1 : nx
  const sy = axis == 1 ? ny + 1 : ny
  const sz = axis == 2 ? nz + 1 : nz
  const ox: f64 = axis == 0 ? 0 : 0.5
  const oy: f64 = axis == 1 ? 0 : 0.5
  const oz: f64 = axis == 2 ? 0 : 0.5
  for (let k = k0; k < k1; k++) {
    for (let j = 0; j < sy; j++) {
      let s = sx * (j + sy * k)
      for (let i = 0; i < sx; i++, s++) {
        if (solidKind != 0 && solidSample(solid, solidKind, axis, i, j, k, nx, ny, nz)) {
          store<f32>(dst + (<usize>s << 2), load<f32>(src + (<usize>s << 2)))
          continue
        }
        backtrace(u, v, w, nx, ny, nz, <f64>i + ox, <f64>j + oy, <f64>k + oz, dtOverDx)
        wf32(dst, s, lerp3(src, sx, sy, sz, bx - ox, by - oy, bz - oz))
      }
    }
  }
}

/**
 * maccormackCorrectSlab: dst = fwd + (src - bwd) / 2, limited to the range of the 8 src
 * samples around the departure point (limiter 0 revert to fwd, 1 clamp, 2 none).
 * dst may alias bwd.
 */
export function maccormackCorrect(
  dst: usize, src: usize, fwd: usize, bwd: usize, axis: i32, u: usize, v: usize, w: usize,
  nx: i32, ny: i32, nz: i32, dtOverDx: f64, solid: usize, solidKind: i32, limiter: i32, k0: i32, k1: i32,
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
  for (let k = k0; k < k1; k++) {
    for (let j = 0; j < sy; j++) {
      let s = sx * (j + sy * k)
      for (let i = 0; i < sx; i++, s++) {
        if (solidKind != 0 && solidSample(solid, solidKind, axis, i, j, k, nx, ny, nz)) {
          store<f32>(dst + (<usize>s << 2), load<f32>(src + (<usize>s << 2)))
          continue
        }
        const hat = rf32(fwd, s)
        let val = hat + 0.5 * (rf32(src, s) - rf32(bwd, s))
        backtrace(u, v, w, nx, ny, nz, <f64>i + ox, <f64>j + oy, <f64>k + oz, dtOverDx)
        const gx = bx - ox
        const gy = by - oy
        const gz = bz - oz
        let a = gx > 0 ? <i32>Math.floor(gx) : 0
        let b = gy > 0 ? <i32>Math.floor(gy) : 0
        let c = gz > 0 ? <i32>Math.floor(gz) : 0
        if (a > sx - 2) a = sx > 1 ? sx - 2 : 0
        if (b > sy - 2) b = sy > 1 ? sy - 2 : 0
        if (c > sz - 2) c = sz > 1 ? sz - 2 : 0
        const o = a + sx * (b + sy * c)
        let lo = rf32(src, o)
        let hi = lo
        for (let n = 1; n < 8; n++) {
          const q = rf32(src, o + (n & 1 ? di : 0) + (n & 2 ? dj : 0) + (n & 4 ? dk : 0))
          if (q < lo) lo = q
          else if (q > hi) hi = q
        }
        if (!(val >= lo && val <= hi)) {
          if (limiter == 0 || val != val) val = hat
          else if (limiter == 1) val = val < lo ? lo : hi
        }
        wf32(dst, s, val)
      }
    }
  }
}
