// Reference slab kernels of the geometric multigrid's float32 cycle (multigrid.ts, precision
// 'float32'): red-black and run-list Gauss-Seidel, the residual, restriction P^T / 2 and
// prolongation P, each the float64 kernel's operations (multigridKernels.ts, poisson.ts) in
// the same order with every result rounded to float32 (Math.fround), which is what their
// AssemblyScript twin (wasm/assembly/multigrid32.ts) computes natively in f32 lanes: a sum,
// product or quotient of two float32 values formed in float64 and rounded once is the
// correctly rounded float32 result, so the two agree bit for bit.
//
// Why float32: PCG's vectors, its product and its residual stay float64 (pressure.ts), so the
// solve still converges to its float64 tolerance; only the preconditioner, an approximate
// inverse, is rounded. Its levels then stream half the bytes and its SIMD lanes hold four
// cells instead of two. The cycle stays symmetric to float32 rounding, which PCG does not
// notice (the surface flow's multigrid made the same trade, surface/patchStencil32.ts).
import type { AxisTransfer32 } from './kernelTypes'

const fr = Math.fround

/** One Gauss-Seidel update of cell c in float32 (relaxCell's order); cells with no open face are left alone. */
function relaxCell32(x: Float32Array, b: Float32Array, fu: Float32Array, fv: Float32Array, fw: Float32Array, nx: number, ny: number, nz: number, i: number, j: number, k: number, c: number, fx: number, fy: number): void {
  const plane = nx * ny
  const wl = fu[fx], wr = fu[fx + 1], wd = fv[fy], wu = fv[fy + nx], wb = fw[c], wf = fw[c + plane]
  const d = fr(fr(fr(fr(fr(wl + wr) + wd) + wu) + wb) + wf)
  if (d <= 0) return
  let s = b[c]
  if (i > 0) s = fr(s + fr(wl * x[c - 1]))
  if (i < nx - 1) s = fr(s + fr(wr * x[c + 1]))
  if (j > 0) s = fr(s + fr(wd * x[c - nx]))
  if (j < ny - 1) s = fr(s + fr(wu * x[c + nx]))
  if (k > 0) s = fr(s + fr(wb * x[c - plane]))
  if (k < nz - 1) s = fr(s + fr(wf * x[c + plane]))
  x[c] = s / d
}

/** relaxRuns (multigridKernels.ts) in float32: Gauss-Seidel over runs [r0, r1) of one colour. */
export function relaxRuns32(x: Float32Array, b: Float32Array, fu: Float32Array, fv: Float32Array, fw: Float32Array, nx: number, ny: number, nz: number, runs: Int32Array, r0: number, r1: number): void {
  const plane = nx * ny
  for (let t = r0; t < r1; t++) {
    const c = runs[2 * t], n = runs[2 * t + 1]
    const i = c % nx
    const j = ((c - i) / nx) % ny
    const k = (c - i - nx * j) / plane
    const fx = i + (nx + 1) * (j + ny * k), fy = i + nx * (j + (ny + 1) * k)
    for (let q = 0; q < 2 * n; q += 2) relaxCell32(x, b, fu, fv, fw, nx, ny, nz, i + q, j, k, c + q, fx + q, fy + q)
  }
}

/** gaussSeidelColorSlab in float32: one red-black half sweep over cells of `color` in planes [k0, k1). */
export function gaussSeidelColorSlab32(x: Float32Array, b: Float32Array, fu: Float32Array, fv: Float32Array, fw: Float32Array, nx: number, ny: number, nz: number, color: number, k0: number, k1: number): void {
  for (let k = k0; k < k1; k++) {
    for (let j = 0; j < ny; j++) {
      const i0 = (color + j + k) & 1
      let c = nx * (j + ny * k) + i0
      let fx = (nx + 1) * (j + ny * k) + i0
      let fy = nx * (j + (ny + 1) * k) + i0
      for (let i = i0; i < nx; i += 2, c += 2, fx += 2, fy += 2) relaxCell32(x, b, fu, fv, fw, nx, ny, nz, i, j, k, c, fx, fy)
    }
  }
}

/** residualSlab in float32: r = b - A x for cell planes [k0, k1) (applyPoissonSlab's order, then the difference). */
export function residualSlab32(r: Float32Array, b: Float32Array, x: Float32Array, fu: Float32Array, fv: Float32Array, fw: Float32Array, nx: number, ny: number, nz: number, k0: number, k1: number): void {
  const plane = nx * ny
  for (let k = k0; k < k1; k++) {
    for (let j = 0; j < ny; j++) {
      let c = nx * (j + ny * k)
      let fx = (nx + 1) * (j + ny * k)
      let fy = nx * (j + (ny + 1) * k)
      for (let i = 0; i < nx; i++, c++, fx++, fy++) {
        const wl = fu[fx], wr = fu[fx + 1], wd = fv[fy], wu = fv[fy + nx], wb = fw[c], wf = fw[c + plane]
        let s = fr(fr(fr(fr(fr(fr(wl + wr) + wd) + wu) + wb) + wf) * x[c])
        if (i > 0) s = fr(s - fr(wl * x[c - 1]))
        if (i < nx - 1) s = fr(s - fr(wr * x[c + 1]))
        if (j > 0) s = fr(s - fr(wd * x[c - nx]))
        if (j < ny - 1) s = fr(s - fr(wu * x[c + nx]))
        if (k > 0) s = fr(s - fr(wb * x[c - plane]))
        if (k < nz - 1) s = fr(s - fr(wf * x[c + plane]))
        r[c] = b[c] - s
      }
    }
  }
}

/**
 * restrictSlab in float32: bc = P^T rf / 2 for coarse planes [K0, K1), along x, then y, then z,
 * in its order. scratch: restrictScratchLength (multigridKernels.ts) float32.
 */
export function restrictSlab32(bc: Float32Array, rf: Float32Array, nx: number, ny: number, nz: number, cx: number, cy: number, tx: AxisTransfer32, ty: AxisTransfer32, tz: AxisTransfer32, scratch: Float32Array, K0: number, K1: number): void {
  const plane = nx * ny
  const yr = 4 * ny * cx
  const rx = tx.rw, ry = ty.rw, rz = tz.rw
  for (let K = K0; K < K1; K++) {
    for (let c3 = 0; c3 < 4; c3++) {
      const k = 2 * K - 1 + c3
      const used = k >= 0 && k < nz && rz[4 * K + c3] !== 0
      if (used) {
        for (let j = 0; j < ny; j++) {
          const o = cx * (j + ny * c3)
          const row = nx * j + plane * k
          for (let I = 0; I < cx; I++) {
            const i0 = 2 * I - 1
            let s = 0
            if (i0 >= 0 && i0 + 3 < nx) {
              s = fr(fr(fr(fr(rx[4 * I] * rf[row + i0]) + fr(rx[4 * I + 1] * rf[row + i0 + 1])) + fr(rx[4 * I + 2] * rf[row + i0 + 2])) + fr(rx[4 * I + 3] * rf[row + i0 + 3]))
            } else {
              for (let a3 = 0; a3 < 4; a3++) {
                const i = i0 + a3
                if (i >= 0 && i < nx) s = fr(s + fr(rx[4 * I + a3] * rf[row + i]))
              }
            }
            scratch[o + I] = s
          }
        }
      }
      for (let J = 0; J < cy; J++) {
        const o = yr + cx * (J + cy * c3)
        for (let I = 0; I < cx; I++) scratch[o + I] = 0
        if (!used) continue
        for (let b3 = 0; b3 < 4; b3++) {
          const j = 2 * J - 1 + b3
          const wy = ry[4 * J + b3]
          if (wy === 0 || j < 0 || j >= ny) continue
          const src = cx * (j + ny * c3)
          for (let I = 0; I < cx; I++) scratch[o + I] = fr(scratch[o + I] + fr(wy * scratch[src + I]))
        }
      }
    }
    for (let J = 0; J < cy; J++) {
      const out = cx * (J + cy * K)
      for (let I = 0; I < cx; I++) {
        let s = 0
        for (let c3 = 0; c3 < 4; c3++) s = fr(s + fr(rz[4 * K + c3] * scratch[yr + cx * (J + cy * c3) + I]))
        bc[out + I] = 0.5 * s
      }
    }
  }
}

/** prolongAddSlab in float32: xf += P xc on active fine cells, fine planes [k0, k1), in its order. */
export function prolongAddSlab32(xf: Float32Array, xc: Float32Array, active: Uint8Array, nx: number, ny: number, cx: number, cy: number, tx: AxisTransfer32, ty: AxisTransfer32, tz: AxisTransfer32, k0: number, k1: number): void {
  const cplane = cx * cy
  for (let k = k0; k < k1; k++) {
    const za = cplane * tz.pa[k], zb = cplane * tz.pb[k]
    const wza = tz.wa[k], wzb = tz.wb[k]
    for (let j = 0; j < ny; j++) {
      const ya = cx * ty.pa[j], yb = cx * ty.pb[j]
      const wya = ty.wa[j], wyb = ty.wb[j]
      let c = nx * (j + ny * k)
      for (let i = 0; i < nx; i++, c++) {
        if (active[c] === 0) continue
        const xa = tx.pa[i], xb = tx.pb[i]
        const wxa = tx.wa[i], wxb = tx.wb[i]
        const aa = fr(fr(wxa * xc[za + ya + xa]) + fr(wxb * xc[za + ya + xb]))
        const ab = fr(fr(wxa * xc[za + yb + xa]) + fr(wxb * xc[za + yb + xb]))
        const ba = fr(fr(wxa * xc[zb + ya + xa]) + fr(wxb * xc[zb + ya + xb]))
        const bb = fr(fr(wxa * xc[zb + yb + xa]) + fr(wxb * xc[zb + yb + xb]))
        const p = fr(fr(wza * fr(fr(wya * aa) + fr(wyb * ab))) + fr(wzb * fr(fr(wya * ba) + fr(wyb * bb))))
        xf[c] = xf[c] + p
      }
    }
  }
}

/** The float32 cycle's start on planes [k0, k1) of `plane` cells: b = r rounded to float32, x = 0. */
export function startCycle32Slab(b: Float32Array, x: Float32Array, r: Float64Array, plane: number, k0: number, k1: number): void {
  for (let c = plane * k0, e = plane * k1; c < e; c++) {
    b[c] = r[c]
    x[c] = 0
  }
}

/** The float32 cycle's end on planes [k0, k1): z = x, widened to float64. */
export function widenSlab(z: Float64Array, x: Float32Array, plane: number, k0: number, k1: number): void {
  for (let c = plane * k0, e = plane * k1; c < e; c++) z[c] = x[c]
}
