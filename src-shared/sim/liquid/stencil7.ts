// A symmetric 7-point matrix on a cell lattice with stored coefficients, and its modified
// incomplete Cholesky preconditioner (MIC(0), Bridson 2015 ch. 5; Carlson 2004 sec. 4.1.2
// suggests incomplete Cholesky when Jacobi converges too slowly). The core pressure solver
// derives its matrix from face weights alone; the free-surface pressure of ghostFluid.ts adds
// a per-cell diagonal term (Gibou et al. 2002), so it needs stored coefficients.
//
// Row c: diag[c] x_c + ax[c-1] x_{c-1} + ax[c] x_{c+1} + ay[c-nx] x_{c-nx} + ay[c] x_{c+nx}
//        + az[c-plane] x_{c-plane} + az[c] x_{c+plane}
// ax[c] couples c with c+1 (0 on the last column), likewise ay, az. A row with diag 0 is not
// an unknown: apply writes 0 there and the preconditioner leaves it at 0.
import { TS_KERNELS } from '../core/kernelBackend'
import type { KernelAllocator } from '../core/kernelTypes'
import type { LinearOperator, Preconditioner } from '../core/pcg'
import { stencil7Row } from './activeKernels'

export const MIC_TUNING = 0.97
export const MIC_SAFETY = 0.25

export class Stencil7Matrix implements LinearOperator {
  readonly nx: number
  readonly ny: number
  readonly nz: number
  readonly diag: Float64Array
  readonly ax: Float64Array
  readonly ay: Float64Array
  readonly az: Float64Array

  /** alloc: where the coefficients live (the active-cell kernels read them: activeKernels.ts). */
  constructor(nx: number, ny: number, nz: number, alloc: KernelAllocator = TS_KERNELS) {
    this.nx = nx
    this.ny = ny
    this.nz = nz
    const n = nx * ny * nz
    this.diag = alloc.f64(n)
    this.ax = alloc.f64(n)
    this.ay = alloc.f64(n)
    this.az = alloc.f64(n)
  }

  apply(x: Float64Array, out: Float64Array): void {
    const { nx, ny, nz, diag } = this
    const plane = nx * ny
    const n = plane * nz
    for (let c = 0; c < n; c++) out[c] = diag[c] === 0 ? 0 : stencil7Row(this, x, c, nx, plane, n)
  }
}

/** MIC(0) of a Stencil7Matrix (ax/ay/az must be 0 across the lattice's row/plane ends). */
export class Stencil7Mic0 implements Preconditioner {
  private readonly prec: Float64Array
  private m: Stencil7Matrix | null = null

  constructor(nx: number, ny: number, nz: number) {
    this.prec = new Float64Array(nx * ny * nz)
  }

  factor(m: Stencil7Matrix, tuning = MIC_TUNING, safety = MIC_SAFETY): void {
    this.m = m
    const { nx, ny, nz, diag, ax, ay, az } = m
    const plane = nx * ny
    const prec = this.prec
    const n = plane * nz
    for (let c = 0; c < n; c++) {
      const d = diag[c]
      if (d === 0) {
        prec[c] = 0
        continue
      }
      let e = d
      if (c >= 1) {
        const a = ax[c - 1], p = prec[c - 1]
        e -= (a * p) ** 2 + tuning * a * (ay[c - 1] + az[c - 1]) * p * p
      }
      if (c >= nx) {
        const a = ay[c - nx], p = prec[c - nx]
        e -= (a * p) ** 2 + tuning * a * (ax[c - nx] + az[c - nx]) * p * p
      }
      if (c >= plane) {
        const a = az[c - plane], p = prec[c - plane]
        e -= (a * p) ** 2 + tuning * a * (ax[c - plane] + ay[c - plane]) * p * p
      }
      if (e < safety * d) e = d
      prec[c] = 1 / Math.sqrt(e)
    }
  }

  /** z = (L L^T)^-1 r by forward then backward substitution. */
  apply(r: Float64Array, z: Float64Array): void {
    const m = this.m
    if (m === null) throw new Error('Stencil7Mic0.apply before factor')
    const { nx, ny, nz, ax, ay, az } = m
    const plane = nx * ny
    const n = plane * nz
    const prec = this.prec
    for (let c = 0; c < n; c++) {
      const p = prec[c]
      if (p === 0) {
        z[c] = 0
        continue
      }
      let t = r[c]
      if (c >= 1) t -= ax[c - 1] * prec[c - 1] * z[c - 1]
      if (c >= nx) t -= ay[c - nx] * prec[c - nx] * z[c - nx]
      if (c >= plane) t -= az[c - plane] * prec[c - plane] * z[c - plane]
      z[c] = t * p
    }
    for (let c = n - 1; c >= 0; c--) {
      const p = prec[c]
      if (p === 0) continue
      let t = z[c]
      if (c + 1 < n) t -= ax[c] * p * z[c + 1]
      if (c + nx < n) t -= ay[c] * p * z[c + nx]
      if (c + plane < n) t -= az[c] * p * z[c + plane]
      z[c] = t * p
    }
  }
}
