// The smoke's turn-rate limit per cell plane (reference: src-shared/sim/smoke/vortexKernels.ts
// turnRatePlanes, which calls cellVelocityGradient): the largest rate at which the flow turns
// its own velocity, max |u x (u . grad) u| / |u|^2 over the plane's cells. The same float64
// operations in the same order (float32 faces read as float64 before any arithmetic), so every
// plane's maximum is the reference's bits.
import { rf32, wf64 } from './common'

/** turnRatePlanes over planes [k0, k1): partial[k] = the plane's largest rate (NaN if one is NaN). */
export function turnRate(u: usize, v: usize, w: usize, nx: i32, ny: i32, nz: i32, dx: f64, partial: usize, k0: i32, k1: i32): void {
  const sx = nx + 1
  const vy = ny + 1
  const plane = nx * ny
  const inv = 1 / dx
  for (let k = k0; k < k1; k++) {
    let best: f64 = 0
    const km = k > 0 ? k - 1 : 0
    const kp = k < nz - 1 ? k + 1 : nz - 1
    const iz: f64 = kp > km ? 1 / (<f64>(kp - km) * dx) : 0
    for (let j = 0; j < ny; j++) {
      const jm = j > 0 ? j - 1 : 0
      const jp = j < ny - 1 ? j + 1 : ny - 1
      const iy: f64 = jp > jm ? 1 / (<f64>(jp - jm) * dx) : 0
      let i = 0
      for (; i < nx; i++) {
        const fu = i + sx * (j + ny * k)
        const fv = i + nx * (j + vy * k)
        const fw = i + nx * j + plane * k
        const a = 0.5 * (rf32(u, fu) + rf32(u, fu + 1))
        const b = 0.5 * (rf32(v, fv) + rf32(v, fv + nx))
        const c = 0.5 * (rf32(w, fw) + rf32(w, fw + plane))
        const q = a * a + b * b + c * c
        if (!(q > 0)) continue
        const im = i > 0 ? i - 1 : 0
        const ip = i < nx - 1 ? i + 1 : nx - 1
        const ix: f64 = ip > im ? 1 / (<f64>(ip - im) * dx) : 0
        // cellVelocityGradient's nine terms: du/dx du/dy du/dz dv/dx ... dw/dz.
        const g0 = (rf32(u, fu + 1) - rf32(u, fu)) * inv
        const g1 = (uMean(u, sx, ny, i, jp, k) - uMean(u, sx, ny, i, jm, k)) * iy
        const g2 = (uMean(u, sx, ny, i, j, kp) - uMean(u, sx, ny, i, j, km)) * iz
        const g3 = (vMean(v, nx, vy, ip, j, k) - vMean(v, nx, vy, im, j, k)) * ix
        const g4 = (rf32(v, fv + nx) - rf32(v, fv)) * inv
        const g5 = (vMean(v, nx, vy, i, j, kp) - vMean(v, nx, vy, i, j, km)) * iz
        const g6 = (wMean(w, nx, plane, ip, j, k) - wMean(w, nx, plane, im, j, k)) * ix
        const g7 = (wMean(w, nx, plane, i, jp, k) - wMean(w, nx, plane, i, jm, k)) * iy
        const g8 = (rf32(w, fw + plane) - rf32(w, fw)) * inv
        const e0 = g0 * a + g1 * b + g2 * c
        const e1 = g3 * a + g4 * b + g5 * c
        const e2 = g6 * a + g7 * b + g8 * c
        const cx = b * e2 - c * e1
        const cy = c * e0 - a * e2
        const cz = a * e1 - b * e0
        const rate = Math.sqrt(cx * cx + cy * cy + cz * cz) / q
        if (rate > best) best = rate
        else if (rate != rate) {
          best = NaN
          break
        }
      }
      if (i < nx) break
    }
    wf64(partial, k, best)
  }
}

@inline function uMean(u: usize, sx: i32, ny: i32, i: i32, j: i32, k: i32): f64 {
  const f = i + sx * (j + ny * k)
  return 0.5 * (rf32(u, f) + rf32(u, f + 1))
}

@inline function vMean(v: usize, nx: i32, vy: i32, i: i32, j: i32, k: i32): f64 {
  const f = i + nx * (j + vy * k)
  return 0.5 * (rf32(v, f) + rf32(v, f + nx))
}

@inline function wMean(w: usize, nx: i32, plane: i32, i: i32, j: i32, k: i32): f64 {
  const f = i + nx * j + plane * k
  return 0.5 * (rf32(w, f) + rf32(w, f + plane))
}
