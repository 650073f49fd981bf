// Reference slab kernels of the geometric multigrid (multigrid.ts): red-black and run-list
// Gauss-Seidel, damped Jacobi, restriction P^T / 2 and prolongation P, separable per axis.
import type { AxisTransfer } from './kernelTypes'

export type { AxisTransfer } from './kernelTypes'

/**
 * One Gauss-Seidel update of cell c (at i, j, k; its -x face fx, its -y face fy): x_c from
 * its neighbours with the face weights. Cells with no open face are left alone.
 */
function relaxCell(
  x: Float64Array,
  b: Float64Array,
  fu: Float32Array,
  fv: Float32Array,
  fw: Float32Array,
  nx: number,
  ny: number,
  nz: number,
  i: number,
  j: number,
  k: number,
  c: number,
  fx: number,
  fy: number,
): void {
  const plane = nx * ny
  const wl = fu[fx]
  const wr = fu[fx + 1]
  const wd = fv[fy]
  const wu = fv[fy + nx]
  const wb = fw[c]
  const wf = fw[c + plane]
  const d = wl + wr + wd + wu + wb + wf
  if (d <= 0) return
  let s = b[c]
  if (i > 0) s += wl * x[c - 1]
  if (i < nx - 1) s += wr * x[c + 1]
  if (j > 0) s += wd * x[c - nx]
  if (j < ny - 1) s += wu * x[c + nx]
  if (k > 0) s += wb * x[c - plane]
  if (k < nz - 1) s += wf * x[c + plane]
  x[c] = s / d
}

/**
 * Gauss-Seidel relaxation x_c = (b_c + sum w x_neighbour) / sum w over runs [r0, r1) of a run
 * list: run t is the cells runs[2t], runs[2t] + 2, ... (runs[2t + 1] of them, one row, one
 * colour). All runs of one call hold cells of one colour, which read only the other colour,
 * so the order of the runs and of their cells does not matter. (multigrid.ts keeps the
 * boundary band as runs rather than single cells: the band along the y and z sides is whole
 * rows, which the twin relaxes two cells at a time.)
 */
export function relaxRuns(
  x: Float64Array,
  b: Float64Array,
  fu: Float32Array,
  fv: Float32Array,
  fw: Float32Array,
  nx: number,
  ny: number,
  nz: number,
  runs: Int32Array,
  r0: number,
  r1: number,
): void {
  const plane = nx * ny
  for (let t = r0; t < r1; t++) {
    const c = runs[2 * t], n = runs[2 * t + 1]
    const i = c % nx
    const j = ((c - i) / nx) % ny
    const k = (c - i - nx * j) / plane
    const fx = i + (nx + 1) * (j + ny * k), fy = i + nx * (j + (ny + 1) * k)
    for (let q = 0; q < 2 * n; q += 2) relaxCell(x, b, fu, fv, fw, nx, ny, nz, i + q, j, k, c + q, fx + q, fy + q)
  }
}

/**
 * One red-black Gauss-Seidel half sweep over cells of `color` ((i + j + k) & 1) in planes
 * [k0, k1): x_c = (b_c + sum w x_neighbour) / sum w. A colour's cells only read the other
 * colour, so slabs of one half sweep run in parallel.
 */
export function gaussSeidelColorSlab(
  x: Float64Array,
  b: Float64Array,
  fu: Float32Array,
  fv: Float32Array,
  fw: Float32Array,
  nx: number,
  ny: number,
  nz: number,
  color: number,
  k0: number,
  k1: number,
): void {
  const plane = nx * ny
  for (let k = k0; k < k1; k++) {
    for (let j = 0; j < ny; j++) {
      const i0 = (color + j + k) & 1
      let c = nx * (j + ny * k) + i0
      let fx = (nx + 1) * (j + ny * k) + i0
      let fy = nx * (j + (ny + 1) * k) + i0
      for (let i = i0; i < nx; i += 2, c += 2, fx += 2, fy += 2) {
        relaxCell(x, b, fu, fv, fw, nx, ny, nz, i, j, k, c, fx, fy)
      }
    }
  }
}

/** Damped Jacobi: out = x + omega (b - A x) / diag for planes [k0, k1); out must not alias x. */
export function jacobiSlab(
  out: Float64Array,
  x: Float64Array,
  b: Float64Array,
  fu: Float32Array,
  fv: Float32Array,
  fw: Float32Array,
  nx: number,
  ny: number,
  nz: number,
  omega: number,
  k0: number,
  k1: number,
): void {
  const plane = nx * ny
  for (let k = k0; k < k1; k++) {
    for (let j = 0; j < ny; j++) {
      let c = nx * (j + ny * k)
      let fx = (nx + 1) * (j + ny * k)
      let fy = nx * (j + (ny + 1) * k)
      for (let i = 0; i < nx; i++, c++, fx++, fy++) {
        const wl = fu[fx]
        const wr = fu[fx + 1]
        const wd = fv[fy]
        const wu = fv[fy + nx]
        const wb = fw[c]
        const wf = fw[c + plane]
        const d = wl + wr + wd + wu + wb + wf
        if (d <= 0) {
          out[c] = 0
          continue
        }
        let s = b[c] - d * x[c]
        if (i > 0) s += wl * x[c - 1]
        if (i < nx - 1) s += wr * x[c + 1]
        if (j > 0) s += wd * x[c - nx]
        if (j < ny - 1) s += wu * x[c + nx]
        if (k > 0) s += wb * x[c - plane]
        if (k < nz - 1) s += wf * x[c + plane]
        out[c] = x[c] + (omega * s) / d
      }
    }
  }
}

/** Scratch length restrictSlab needs for a fine level of ny rows and a coarse level cx by cy. */
export function restrictScratchLength(ny: number, cx: number, cy: number): number {
  return 4 * ny * cx + 4 * cy * cx
}

/**
 * bc = P^T rf / 2 (= 4 R rf, see the header) for coarse planes [K0, K1), separably: per coarse
 * plane, the 4 fine planes it draws on are restricted along x, then y, then combined along z
 * (about 5 reads per fine cell instead of 64 per coarse cell). scratch: restrictScratchLength.
 */
export function restrictSlab(
  bc: Float64Array,
  rf: Float64Array,
  nx: number,
  ny: number,
  nz: number,
  cx: number,
  cy: number,
  tx: AxisTransfer,
  ty: AxisTransfer,
  tz: AxisTransfer,
  scratch: Float64Array,
  K0: number,
  K1: number,
): void {
  const plane = nx * ny
  const xr = 0 // 4 planes of ny rows of cx values
  const yr = 4 * ny * cx // 4 planes of cy rows of cx values
  const rx = tx.rw
  const ry = ty.rw
  const rz = tz.rw
  for (let K = K0; K < K1; K++) {
    for (let c3 = 0; c3 < 4; c3++) {
      const k = 2 * K - 1 + c3
      const used = k >= 0 && k < nz && rz[4 * K + c3] !== 0
      for (let j = 0; j < ny; j++) {
        const o = xr + cx * (j + ny * c3)
        if (!used) continue
        const row = nx * j + plane * k
        for (let I = 0; I < cx; I++) {
          let s = 0
          const i0 = 2 * I - 1
          if (i0 >= 0 && i0 + 3 < nx) {
            s = rx[4 * I] * rf[row + i0] + rx[4 * I + 1] * rf[row + i0 + 1] + rx[4 * I + 2] * rf[row + i0 + 2] + rx[4 * I + 3] * rf[row + i0 + 3]
          } else {
            for (let a3 = 0; a3 < 4; a3++) {
              const i = i0 + a3
              if (i >= 0 && i < nx) s += rx[4 * I + a3] * rf[row + i]
            }
          }
          scratch[o + I] = s
        }
      }
      for (let J = 0; J < cy; J++) {
        const o = yr + cx * (J + cy * c3)
        if (!used) {
          for (let I = 0; I < cx; I++) scratch[o + I] = 0
          continue
        }
        for (let I = 0; I < cx; I++) scratch[o + I] = 0
        for (let b3 = 0; b3 < 4; b3++) {
          const j = 2 * J - 1 + b3
          const wy = ry[4 * J + b3]
          if (wy === 0 || j < 0 || j >= ny) continue
          const src = xr + cx * (j + ny * c3)
          for (let I = 0; I < cx; I++) scratch[o + I] += wy * scratch[src + I]
        }
      }
    }
    for (let J = 0; J < cy; J++) {
      const out = cx * (J + cy * K)
      for (let I = 0; I < cx; I++) {
        let s = 0
        for (let c3 = 0; c3 < 4; c3++) s += rz[4 * K + c3] * scratch[yr + cx * (J + cy * c3) + I]
        bc[out + I] = 0.5 * s
      }
    }
  }
}

/** xf += P xc on active fine cells, fine planes [k0, k1). */
export function prolongAddSlab(
  xf: Float64Array,
  xc: Float64Array,
  active: Uint8Array,
  nx: number,
  ny: number,
  cx: number,
  cy: number,
  tx: AxisTransfer,
  ty: AxisTransfer,
  tz: AxisTransfer,
  k0: number,
  k1: number,
): void {
  const cplane = cx * cy
  for (let k = k0; k < k1; k++) {
    const za = cplane * tz.pa[k]
    const zb = cplane * tz.pb[k]
    const wza = tz.wa[k]
    const wzb = tz.wb[k]
    for (let j = 0; j < ny; j++) {
      const ya = cx * ty.pa[j]
      const yb = cx * ty.pb[j]
      const wya = ty.wa[j]
      const wyb = ty.wb[j]
      let c = nx * (j + ny * k)
      for (let i = 0; i < nx; i++, c++) {
        if (active[c] === 0) continue
        const xa = tx.pa[i]
        const xb = tx.pb[i]
        const wxa = tx.wa[i]
        const wxb = tx.wb[i]
        const aa = wxa * xc[za + ya + xa] + wxb * xc[za + ya + xb]
        const ab = wxa * xc[za + yb + xa] + wxb * xc[za + yb + xb]
        const ba = wxa * xc[zb + ya + xa] + wxb * xc[zb + ya + xb]
        const bb = wxa * xc[zb + yb + xa] + wxb * xc[zb + yb + xb]
        xf[c] += wza * (wya * aa + wyb * ab) + wzb * (wya * ba + wyb * bb)
      }
    }
  }
}
