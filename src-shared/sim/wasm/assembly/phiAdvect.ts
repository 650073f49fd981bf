// The tracked surface's semi-Lagrangian step (reference: src-shared/sim/liquid/phiAdvectKernel.ts
// advectPhiSlab, with sample.ts lerpLattice): the same float64 expressions in the same order.
import { rf32, wf32 } from './common'

/** sample.ts lerpLattice. */
@inline function lerpLattice(f: usize, sx: i32, sy: i32, sz: i32, gx: f64, gy: f64, gz: f64): f64 {
  // Clamp to [0, s - 1]; NaN -> 0.
  gx = gx > 0 ? (gx < <f64>(sx - 1) ? gx : <f64>(sx - 1)) : 0
  gy = gy > 0 ? (gy < <f64>(sy - 1) ? gy : <f64>(sy - 1)) : 0
  gz = gz > 0 ? (gz < <f64>(sz - 1) ? gz : <f64>(sz - 1)) : 0
  let i = <i32>gx
  let j = <i32>gy
  let k = <i32>gz
  if (i > sx - 2) i = sx - 2
  if (j > sy - 2) j = sy - 2
  if (k > sz - 2) k = sz - 2
  const tx = gx - <f64>i
  const ty = gy - <f64>j
  const tz = gz - <f64>k
  const dk = sx * sy
  const o = i + sx * (j + sy * k)
  const f0 = rf32(f, o)
  const c00 = f0 + tx * (rf32(f, o + 1) - f0)
  const f1 = rf32(f, o + sx)
  const c10 = f1 + tx * (rf32(f, o + sx + 1) - f1)
  const f2 = rf32(f, o + dk)
  const c01 = f2 + tx * (rf32(f, o + dk + 1) - f2)
  const f3 = rf32(f, o + dk + sx)
  const c11 = f3 + tx * (rf32(f, o + dk + sx + 1) - f3)
  const c0 = c00 + ty * (c10 - c00)
  const c1 = c01 + ty * (c11 - c01)
  return c0 + tz * (c1 - c0)
}

/** advectPhiSlab over planes [k0, k1). */
export function advectPhi(out: usize, phi: usize, u: usize, v: usize, w: usize, nx: i32, ny: i32, nz: i32, s: f64, k0: i32, k1: i32): void {
  const sx = nx + 1, sy = ny + 1
  for (let k = k0; k < k1; k++) {
    for (let j = 0; j < ny; j++) {
      let c = nx * (j + ny * k)
      for (let i = 0; i < nx; i++, c++) {
        const fu = i + sx * (j + ny * k)
        const fv = i + nx * (j + sy * k)
        const uc = 0.5 * (rf32(u, fu) + rf32(u, fu + 1))
        const vc = 0.5 * (rf32(v, fv) + rf32(v, fv + nx))
        const wc = 0.5 * (rf32(w, c) + rf32(w, c + nx * ny))
        if (uc == 0 && vc == 0 && wc == 0) {
          wf32(out, c, rf32(phi, c))
          continue
        }
        wf32(out, c, lerpLattice(phi, nx, ny, nz, <f64>i - s * uc, <f64>j - s * vc, <f64>k - s * wc))
      }
    }
  }
}
