// Modified incomplete Cholesky, level 0 (Bridson 2015, ch. 5), for the
// weighted 7-point pressure matrix of poisson.ts: A ~ (F + E_diag) E_diag^-1 (F + E_diag)^T
// with E_diag from
//   e_c = A_cc - sum_{d in x,y,z} (A_{c-d,c} prec_{c-d})^2
//         - tau * sum_d A_{c-d,c} (A_{c-d,c-d+d'} + A_{c-d,c-d+d''}) prec_{c-d}^2
//   prec_c = 1 / sqrt(e_c), with e_c replaced by A_cc when e_c < sigma A_cc.
// tau = 0.97 (blend of MIC's row-sum matching and plain IC), safety sigma = 0.25.
//
// Both the factorisation and the two triangular solves run in lexicographic order and are
// inherently sequential: no slab split. This is why multigrid is the default preconditioner
// for large grids (it parallelises); MIC(0) stays as a robust, setup-free reference.
import { allocF64With, type AllocOptions } from './grid'
import type { Preconditioner } from './pcg'

export const MIC_TUNING = 0.97
export const MIC_SAFETY = 0.25

export class Mic0Preconditioner implements Preconditioner {
  readonly nx: number
  readonly ny: number
  readonly nz: number
  /** 1 / sqrt(e_c); 0 for cells that are not unknowns. */
  private readonly prec: Float64Array
  private fu: Float32Array | null = null
  private fv: Float32Array | null = null
  private fw: Float32Array | null = null

  constructor(nx: number, ny: number, nz: number, options: AllocOptions = {}) {
    this.nx = nx
    this.ny = ny
    this.nz = nz
    this.prec = allocF64With(nx * ny * nz, options)
  }

  /** Factorises the matrix whose face weights are fu/fv/fw (kept by reference for apply). */
  factor(fu: Float32Array, fv: Float32Array, fw: Float32Array, tuning = MIC_TUNING, safety = MIC_SAFETY): void {
    this.fu = fu
    this.fv = fv
    this.fw = fw
    const { nx, ny, nz, prec } = this
    const plane = nx * ny
    for (let k = 0; k < nz; k++) {
      for (let j = 0; j < ny; j++) {
        let c = nx * (j + ny * k)
        let fx = (nx + 1) * (j + ny * k)
        let fy = nx * (j + (ny + 1) * k)
        for (let i = 0; i < nx; i++, c++, fx++, fy++) {
          const diag = fu[fx] + fu[fx + 1] + fv[fy] + fv[fy + nx] + fw[c] + fw[c + plane]
          if (diag <= 0) {
            prec[c] = 0
            continue
          }
          let e = diag
          // Off-diagonal A(c - d, c) = -w of the face between them; interior faces only.
          if (i > 0) {
            const a = -fu[fx] // A(c-1, c)
            const p = prec[c - 1]
            // c-1's other "plus" neighbours: (c-1)+nx and (c-1)+plane.
            const ay = j < ny - 1 ? -fv[fy - 1 + nx] : 0
            const az = k < nz - 1 ? -fw[c - 1 + plane] : 0
            e -= (a * p) ** 2 + tuning * a * (ay + az) * p * p
          }
          if (j > 0) {
            const a = -fv[fy] // A(c-nx, c)
            const p = prec[c - nx]
            const ax = i < nx - 1 ? -fu[fx + 1 - (nx + 1)] : 0
            const az = k < nz - 1 ? -fw[c - nx + plane] : 0
            e -= (a * p) ** 2 + tuning * a * (ax + az) * p * p
          }
          if (k > 0) {
            const a = -fw[c] // A(c-plane, c)
            const p = prec[c - plane]
            const ax = i < nx - 1 ? -fu[fx + 1 - (nx + 1) * ny] : 0
            const ay = j < ny - 1 ? -fv[fy + nx - nx * (ny + 1)] : 0
            e -= (a * p) ** 2 + tuning * a * (ax + ay) * p * p
          }
          if (e < safety * diag) e = diag
          prec[c] = 1 / Math.sqrt(e)
        }
      }
    }
  }

  /** z = (L L^T)^-1 r: forward then backward substitution (Bridson 2015, ch. 5). */
  apply(r: Float64Array, z: Float64Array): void {
    const { fu, fv, fw } = this
    if (fu === null || fv === null || fw === null) throw new Error('Mic0Preconditioner.apply before factor')
    const { nx, ny, nz, prec } = this
    const plane = nx * ny
    // Solve L q = r; q is stored in z. L's off-diagonals are A(c-d, c) * prec(c-d).
    for (let k = 0; k < nz; k++) {
      for (let j = 0; j < ny; j++) {
        let c = nx * (j + ny * k)
        let fx = (nx + 1) * (j + ny * k)
        let fy = nx * (j + (ny + 1) * k)
        for (let i = 0; i < nx; i++, c++, fx++, fy++) {
          const p = prec[c]
          if (p === 0) {
            z[c] = 0
            continue
          }
          let t = r[c]
          if (i > 0) t += fu[fx] * prec[c - 1] * z[c - 1]
          if (j > 0) t += fv[fy] * prec[c - nx] * z[c - nx]
          if (k > 0) t += fw[c] * prec[c - plane] * z[c - plane]
          z[c] = t * p
        }
      }
    }
    // Solve L^T z = q backwards, in place.
    for (let k = nz - 1; k >= 0; k--) {
      for (let j = ny - 1; j >= 0; j--) {
        let c = nx * (j + ny * k) + nx - 1
        let fx = (nx + 1) * (j + ny * k) + nx - 1
        let fy = nx * (j + (ny + 1) * k) + nx - 1
        for (let i = nx - 1; i >= 0; i--, c--, fx--, fy--) {
          const p = prec[c]
          if (p === 0) continue
          let t = z[c]
          if (i < nx - 1) t += fu[fx + 1] * p * z[c + 1]
          if (j < ny - 1) t += fv[fy + nx] * p * z[c + nx]
          if (k < nz - 1) t += fw[c + plane] * p * z[c + plane]
          z[c] = t * p
        }
      }
    }
  }
}
