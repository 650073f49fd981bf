// The tracked surface's semi-Lagrangian step (surfaceTracker.ts advect; Carlson 2004 sec.
// 6.2.3, eq. 91) as a kernel-table row split by z-planes: each plane's cells trace back
// through the cell-centre velocity (the mean of each axis's two faces) and read phi anywhere,
// writing only their own samples of `out`, so any split gives the same bits. The WebAssembly
// twin (wasm/assembly/phiAdvect.ts) evaluates the same float64 expressions in the same order.
import { defineKernel, f32, float, int, type KernelArgs } from '../core/kernelTable'
import { lerpLattice } from './sample'

/**
 * out(x) = phi(x - h u(x)) for the cells of planes [k0, k1) (s = h / dx); cells whose
 * cell-centre velocity is exactly 0 copy phi. Samples outside the grid clamp (lerpLattice).
 */
export function advectPhiSlab(out: Float32Array, phi: Float32Array, u: Float32Array, v: Float32Array, w: Float32Array, nx: number, ny: number, nz: number, s: number, k0: number, k1: number): void {
  const sx = nx + 1, sy = ny + 1
  for (let k = k0; k < k1; k++) {
    for (let j = 0; j < ny; j++) {
      let c = nx * (j + ny * k)
      for (let i = 0; i < nx; i++, c++) {
        const fu = i + sx * (j + ny * k)
        const fv = i + nx * (j + sy * k)
        const uc = 0.5 * (u[fu] + u[fu + 1])
        const vc = 0.5 * (v[fv] + v[fv + nx])
        const wc = 0.5 * (w[c] + w[c + nx * ny])
        if (uc === 0 && vc === 0 && wc === 0) {
          out[c] = phi[c]
          continue
        }
        out[c] = lerpLattice(phi, nx, ny, nz, i - s * uc, j - s * vc, k - s * wc)
      }
    }
  }
}

const num = (a: KernelArgs, i: number) => a[i] as number

export const ADVECT_PHI = defineKernel({
  name: 'advectPhi',
  args: [f32('out'), f32('phi'), f32('u'), f32('v'), f32('w'), int('nx'), int('ny'), int('nz'), float('s')],
  split: 'planes',
  range: (a) => num(a, 7),
  work: (a) => num(a, 5) * num(a, 6) * num(a, 7),
  ref: advectPhiSlab,
})
