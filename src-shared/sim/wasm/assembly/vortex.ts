// Vortex-particle splatting (reference: src-shared/sim/smoke/vortexKernels.ts, Selle,
// Rasmussen, Fedkiw 2005, sec. 5): particleForceSlab and particleStrengthSlab.
//
// Same structure as the references: a call covers cell planes [k0, k1) and loops over every
// particle in order, touching only faces (cells) of its own slab, so every face sums its
// particles in particle order whatever the thread split: results do not depend on the thread
// count. Two faces per f64x2 step along x.
//
// Both are bit-identical to their references: the same float64 operations, in the same order,
// per lane (the force's smooth kernel is a polynomial, no exp), and which faces a particle
// reaches is decided on the very d2 the reference computes; the line bounds below only skip
// faces the exact test would reject.
import { rf64 } from './common'

/** 1 / (2 pi)^(3/2), as the reference computes it (1 / Math.pow(2 * Math.PI, 1.5)). */
const INV_2PI_32: f64 = 0.06349363593424097

/**
 * Relative (and lattice-unit) margin of the ball bounds that narrow each line's loop: far
 * above float64 rounding, so no face the reference reaches is left out.
 */
const SLACK: f64 = 1e-9

/** The reference's selleKernel(0, r): the clamped Gaussian's peak, 1/m^3. */
@inline function sellePeak(r: f64): f64 {
  if (<f64>0 > r * r) return 0
  return (Math.exp(-0 / (2 * r * r)) * INV_2PI_32) / (r * r * r)
}

/**
 * f[at], f[at+1] (float32) += the two lanes of `add` where `mask` is set; other lanes
 * untouched. Per-lane scalar stores: in V8 (Node 20) a masked f64x2 read-modify-write
 * (load64_zero, promote, bitselect, demote, store64_lane) made the whole splat 2-3x slower.
 */
@inline function addPair32(f: usize, at: i32, add: v128, mask: v128): void {
  const p = f + (<usize>at << 2)
  if (i64x2.extract_lane(mask, 0) != 0) store<f32>(p, <f32>(<f64>load<f32>(p) + f64x2.extract_lane(add, 0)))
  if (i64x2.extract_lane(mask, 1) != 0) store<f32>(p + 4, <f32>(<f64>load<f32>(p + 4) + f64x2.extract_lane(add, 1)))
}

@inline function addOne32(f: usize, at: i32, add: f64): void {
  const p = f + (<usize>at << 2)
  store<f32>(p, <f32>(<f64>load<f32>(p) + add))
}

/**
 * particleForceSlab: adds dt * confinement xi_0 (1 - d^2/r^2)^2 ((x_p - x) x omega_p) of every
 * particle (the regularised Selle force, eps_p grad xi_p x omega_p) to the u, v, w faces of
 * cell planes [k0, k1) (w plane nz too when k1 = nz).
 */
export function particleForce(
  u: usize, v: usize, w: usize,
  px: usize, py: usize, pz: usize, wx: usize, wy: usize, wz: usize, pr: usize, count: i32,
  confinement: f64, dt: f64, nx: i32, ny: i32, nz: i32, dx: f64, ox: f64, oy: f64, oz: f64,
  k0: i32, k1: i32,
): void {
  const scale = confinement * dt
  if (scale == 0) return
  const lane = f64x2(0, 1)
  for (let p = 0; p < count; p++) {
    const r = rf64(pr, p)
    const X = (rf64(px, p) - ox) / dx
    const Y = (rf64(py, p) - oy) / dx
    const Z = (rf64(pz, p) - oz) / dx
    const R = r / dx
    const ax = rf64(wx, p)
    const ay = rf64(wy, p)
    const az = rf64(wz, p)
    const r2 = r * r
    const inv = 1 / r2
    const g = scale * (INV_2PI_32 / (r * r * r))
    const vr2 = f64x2.splat(r2)
    const vinv = f64x2.splat(inv)
    const vone = f64x2.splat(1)
    const vg = f64x2.splat(g)
    const vX = f64x2.splat(X)
    const vdx = f64x2.splat(dx)
    const vax = f64x2.splat(ax)
    const vay = f64x2.splat(ay)
    const vaz = f64x2.splat(az)
    for (let axis = 0; axis < 3; axis++) {
      const fx: f64 = axis == 0 ? 0 : 0.5
      const fy: f64 = axis == 1 ? 0 : 0.5
      const fz: f64 = axis == 2 ? 0 : 0.5
      const sx = axis == 0 ? nx + 1 : nx
      const sy = axis == 1 ? ny + 1 : ny
      const kTop = axis == 2 && k1 == nz ? nz + 1 : k1
      const f = axis == 0 ? u : axis == 1 ? v : w
      // Bounds in float64 first: NaN or infinite positions reach no face, as in the reference.
      const i0f = Math.max(0, Math.ceil(X - R - fx))
      const i1f = Math.min(<f64>(sx - 1), Math.floor(X + R - fx))
      const j0f = Math.max(0, Math.ceil(Y - R - fy))
      const j1f = Math.min(<f64>(sy - 1), Math.floor(Y + R - fy))
      const kaf = Math.max(<f64>k0, Math.ceil(Z - R - fz))
      const kbf = Math.min(<f64>(kTop - 1), Math.floor(Z + R - fz))
      if (!(i0f <= i1f && j0f <= j1f && kaf <= kbf)) continue
      const i0 = <i32>i0f, i1 = <i32>i1f, j0 = <i32>j0f, j1 = <i32>j1f, ka = <i32>kaf, kb = <i32>kbf
      const vfx = f64x2.splat(fx)
      for (let k = ka; k <= kb; k++) {
        const dz = (Z - (<f64>k + fz)) * dx // x_p - x
        const vdz = f64x2.splat(dz)
        // Only lines that meet the ball d2 < r^2, only the faces of a line inside it (with a
        // margin: the exact test below decides).
        const qz = r2 - dz * dz + SLACK * r2
        if (!(qz > 0)) continue
        const hz = Math.sqrt(qz) / dx + SLACK
        const jaf = Math.max(<f64>j0, Math.ceil(Y - fy - hz))
        const jbf = Math.min(<f64>j1, Math.floor(Y - fy + hz))
        if (!(jaf <= jbf)) continue
        for (let j = <i32>jaf; j <= <i32>jbf; j++) {
          const dy = (Y - (<f64>j + fy)) * dx
          const row = sx * (j + sy * k)
          const qy = r2 - dy * dy - dz * dz + SLACK * r2
          if (!(qy > 0)) continue
          const hy = Math.sqrt(qy) / dx + SLACK
          const iaf = Math.max(<f64>i0, Math.ceil(X - fx - hy))
          const ibf = Math.min(<f64>i1, Math.floor(X - fx + hy))
          if (!(iaf <= ibf)) continue
          const ib = <i32>ibf
          const vdy = f64x2.splat(dy)
          const vdy2 = f64x2.splat(dy * dy)
          const vdz2 = f64x2.splat(dz * dz)
          // Component 0 of (x_p - x) x omega_p does not depend on x.
          const c0 = f64x2.splat(dy * az - dz * ay)
          let i = <i32>iaf
          for (; i < ib; i += 2) {
            const ddx = f64x2.mul(f64x2.sub(vX, f64x2.add(f64x2.add(f64x2.splat(<f64>i), lane), vfx)), vdx)
            const d2 = f64x2.add(f64x2.add(f64x2.mul(ddx, ddx), vdy2), vdz2)
            const mask = f64x2.lt(d2, vr2)
            if (!v128.any_true(mask)) continue
            const t = f64x2.sub(vone, f64x2.mul(d2, vinv))
            const sc = f64x2.mul(f64x2.mul(vg, t), t)
            let c: v128
            if (axis == 0) c = c0
            else if (axis == 1) c = f64x2.sub(f64x2.mul(vdz, vax), f64x2.mul(ddx, vaz))
            else c = f64x2.sub(f64x2.mul(ddx, vay), f64x2.mul(vdy, vax))
            addPair32(f, row + i, f64x2.mul(sc, c), mask)
          }
          if (i == ib) {
            const ddx = (X - (<f64>i + fx)) * dx
            const d2 = ddx * ddx + dy * dy + dz * dz
            if (d2 < r2) {
              const t = 1 - d2 * inv
              const sc = g * t * t
              const c = axis == 0 ? dy * az - dz * ay : axis == 1 ? dz * ax - ddx * az : ddx * ay - dy * ax
              addOne32(f, row + i, sc * c)
            }
          }
        }
      }
    }
  }
}

/**
 * particleStrengthSlab: eps[c] += weight * sum_p max(0, 1 - |x_c - x_p| / r_p) xi_p(0) |omega_p|
 * over the cells of planes [k0, k1).
 */
export function particleStrength(
  eps: usize, px: usize, py: usize, pz: usize, wx: usize, wy: usize, wz: usize, pr: usize, count: i32,
  weight: f64, nx: i32, ny: i32, dx: f64, ox: f64, oy: f64, oz: f64, k0: i32, k1: i32,
): void {
  if (weight == 0) return
  const vzero = f64x2.splat(0)
  const vone = f64x2.splat(1)
  const lane = f64x2(0, 1)
  for (let p = 0; p < count; p++) {
    const r = rf64(pr, p)
    const ax = rf64(wx, p)
    const ay = rf64(wy, p)
    const az = rf64(wz, p)
    const peak = weight * sellePeak(r) * Math.sqrt(ax * ax + ay * ay + az * az)
    if (peak == 0) continue
    const X = (rf64(px, p) - ox) / dx - 0.5 // cell-centre lattice coordinates
    const Y = (rf64(py, p) - oy) / dx - 0.5
    const Z = (rf64(pz, p) - oz) / dx - 0.5
    const R = r / dx
    const i0f = Math.max(0, Math.ceil(X - R))
    const i1f = Math.min(<f64>(nx - 1), Math.floor(X + R))
    const j0f = Math.max(0, Math.ceil(Y - R))
    const j1f = Math.min(<f64>(ny - 1), Math.floor(Y + R))
    const kaf = Math.max(<f64>k0, Math.ceil(Z - R))
    const kbf = Math.min(<f64>(k1 - 1), Math.floor(Z + R))
    if (!(i0f <= i1f && j0f <= j1f && kaf <= kbf)) continue
    const i0 = <i32>i0f, i1 = <i32>i1f, j0 = <i32>j0f, j1 = <i32>j1f, ka = <i32>kaf, kb = <i32>kbf
    const vX = f64x2.splat(X)
    const vR = f64x2.splat(R)
    const vpeak = f64x2.splat(peak)
    const R2 = R * R
    for (let k = ka; k <= kb; k++) {
      const dz = <f64>k - Z
      // Only lines that meet the ball |x_c - x_p| < R, only their cells inside it (with a
      // margin: the exact test below decides).
      const qz = R2 - dz * dz + SLACK * R2
      if (!(qz > 0)) continue
      const hz = Math.sqrt(qz) + SLACK
      const jaf = Math.max(<f64>j0, Math.ceil(Y - hz))
      const jbf = Math.min(<f64>j1, Math.floor(Y + hz))
      if (!(jaf <= jbf)) continue
      for (let j = <i32>jaf; j <= <i32>jbf; j++) {
        const dy = <f64>j - Y
        const row = nx * (j + ny * k)
        const qy = R2 - dy * dy - dz * dz + SLACK * R2
        if (!(qy > 0)) continue
        const hy = Math.sqrt(qy) + SLACK
        const iaf = Math.max(<f64>i0, Math.ceil(X - hy))
        const ibf = Math.min(<f64>i1, Math.floor(X + hy))
        if (!(iaf <= ibf)) continue
        const ib = <i32>ibf
        const vdy2 = f64x2.splat(dy * dy)
        const vdz2 = f64x2.splat(dz * dz)
        let i = <i32>iaf
        for (; i < ib; i += 2) {
          const ddx = f64x2.sub(f64x2.add(f64x2.splat(<f64>i), lane), vX)
          const t = f64x2.sub(vone, f64x2.div(f64x2.sqrt(f64x2.add(f64x2.add(f64x2.mul(ddx, ddx), vdy2), vdz2)), vR))
          const mask = f64x2.gt(t, vzero)
          if (v128.any_true(mask)) addPair32(eps, row + i, f64x2.mul(vpeak, t), mask)
        }
        if (i == ib) {
          const ddx = <f64>i - X
          const t = 1 - Math.sqrt(ddx * ddx + dy * dy + dz * dz) / R
          if (t > 0) addOne32(eps, row + i, peak * t)
        }
      }
    }
  }
}
