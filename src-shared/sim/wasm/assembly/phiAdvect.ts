// The tracked surface's semi-Lagrangian step (reference: src-shared/sim/liquid/phiAdvectKernel.ts
// advectPhiSlab, with sample.ts lerpLattice): the same float64 expressions in the same order.
import { rf32, wf32 } from './common'
import { lerpLattice } from './stencil'

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
