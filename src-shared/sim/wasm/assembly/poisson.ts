// The weighted 7-point pressure operator (reference: src-shared/sim/core/poisson.ts).
// Rows away from the domain border run two cells per f64x2 step; border rows, the first and
// last cell of a row and odd tails run the scalar form, which keeps the reference's skipped
// terms. Each lane does the reference's operations in the reference's order, so the result
// is bit-identical to applyPoissonSlab / residualSlab.
import { rf32, rf64, wf32, wf64, v64, st64, w32x2 } from './common'

/** (A x)_c for one cell, with the reference's border tests. */
@inline function poissonCell(
  x: usize, fu: usize, fv: usize, fw: usize, nx: i32, ny: i32, nz: i32, plane: i32,
  i: i32, j: i32, k: i32, c: i32, fx: i32, fy: i32,
): f64 {
  const xc = rf64(x, c)
  const wl = rf32(fu, fx)
  const wr = rf32(fu, fx + 1)
  const wd = rf32(fv, fy)
  const wu = rf32(fv, fy + nx)
  const wb = rf32(fw, c)
  const wf = rf32(fw, c + plane)
  let s = (wl + wr + wd + wu + wb + wf) * xc
  if (i > 0) s -= wl * rf64(x, c - 1)
  if (i < nx - 1) s -= wr * rf64(x, c + 1)
  if (j > 0) s -= wd * rf64(x, c - nx)
  if (j < ny - 1) s -= wu * rf64(x, c + nx)
  if (k > 0) s -= wb * rf64(x, c - plane)
  if (k < nz - 1) s -= wf * rf64(x, c + plane)
  return s
}

/** out = A x (b = 0) or out = b - A x, cell planes [k0, k1). */
@inline function poissonRows(
  out: usize, b: usize, x: usize, fu: usize, fv: usize, fw: usize,
  nx: i32, ny: i32, nz: i32, k0: i32, k1: i32, resid: bool,
): void {
  const plane = nx * ny
  for (let k = k0; k < k1; k++) {
    for (let j = 0; j < ny; j++) {
      const c0 = nx * (j + ny * k)
      const fx0 = (nx + 1) * (j + ny * k)
      const fy0 = nx * (j + (ny + 1) * k)
      const inner = j > 0 && j < ny - 1 && k > 0 && k < nz - 1
      let i = 0
      if (inner) {
        // Cell 0 scalar, cells 1 .. nx-2 in pairs, the rest scalar below.
        let s = poissonCell(x, fu, fv, fw, nx, ny, nz, plane, 0, j, k, c0, fx0, fy0)
        wf64(out, c0, resid ? rf64(b, c0) - s : s)
        i = 1
        for (; i + 1 < nx - 1; i += 2) {
          const c = c0 + i
          const fx = fx0 + i
          const fy = fy0 + i
          const wl = w32x2(fu, fx)
          const wr = w32x2(fu, fx + 1)
          const wd = w32x2(fv, fy)
          const wu = w32x2(fv, fy + nx)
          const wb = w32x2(fw, c)
          const wf = w32x2(fw, c + plane)
          const d = f64x2.add(f64x2.add(f64x2.add(f64x2.add(f64x2.add(wl, wr), wd), wu), wb), wf)
          let v = f64x2.mul(d, v64(x, c))
          v = f64x2.sub(v, f64x2.mul(wl, v64(x, c - 1)))
          v = f64x2.sub(v, f64x2.mul(wr, v64(x, c + 1)))
          v = f64x2.sub(v, f64x2.mul(wd, v64(x, c - nx)))
          v = f64x2.sub(v, f64x2.mul(wu, v64(x, c + nx)))
          v = f64x2.sub(v, f64x2.mul(wb, v64(x, c - plane)))
          v = f64x2.sub(v, f64x2.mul(wf, v64(x, c + plane)))
          st64(out, c, resid ? f64x2.sub(v64(b, c), v) : v)
        }
      }
      for (; i < nx; i++) {
        const c = c0 + i
        const s = poissonCell(x, fu, fv, fw, nx, ny, nz, plane, i, j, k, c, fx0 + i, fy0 + i)
        wf64(out, c, resid ? rf64(b, c) - s : s)
      }
    }
  }
}

/** applyPoissonSlab: out_c = (A x)_c for cell planes [k0, k1). */
export function applyPoisson(out: usize, x: usize, fu: usize, fv: usize, fw: usize, nx: i32, ny: i32, nz: i32, k0: i32, k1: i32): void {
  poissonRows(out, 0, x, fu, fv, fw, nx, ny, nz, k0, k1, false)
}

/** residualSlab: r = b - A x for cell planes [k0, k1) (r may alias b). */
export function residual(r: usize, b: usize, x: usize, fu: usize, fv: usize, fw: usize, nx: i32, ny: i32, nz: i32, k0: i32, k1: i32): void {
  poissonRows(r, b, x, fu, fv, fw, nx, ny, nz, k0, k1, true)
}

/**
 * netOutfluxSlab: net weighted outflux per cell for planes [k0, k1); su/sv/sw = 0 for static
 * obstacles; out is float64 when out64 == 2, else float32 (the row's type tag: 1 f32, 2 f64).
 */
export function netOutflux(
  out: usize, out64: i32, u: usize, v: usize, w: usize, fu: usize, fv: usize, fw: usize,
  su: usize, sv: usize, sw: usize, nx: i32, ny: i32, k0: i32, k1: i32,
): void {
  const plane = nx * ny
  for (let k = k0; k < k1; k++) {
    for (let j = 0; j < ny; j++) {
      let c = nx * (j + ny * k)
      let fx = (nx + 1) * (j + ny * k)
      let fy = nx * (j + (ny + 1) * k)
      for (let i = 0; i < nx; i++, c++, fx++, fy++) {
        const ct = c + plane
        const fyt = fy + nx
        let s =
          rf32(fu, fx + 1) * rf32(u, fx + 1) -
          rf32(fu, fx) * rf32(u, fx) +
          rf32(fv, fyt) * rf32(v, fyt) -
          rf32(fv, fy) * rf32(v, fy) +
          rf32(fw, ct) * rf32(w, ct) -
          rf32(fw, c) * rf32(w, c)
        if (su != 0) s += (1 - rf32(fu, fx + 1)) * rf32(su, fx + 1) - (1 - rf32(fu, fx)) * rf32(su, fx)
        if (sv != 0) s += (1 - rf32(fv, fyt)) * rf32(sv, fyt) - (1 - rf32(fv, fy)) * rf32(sv, fy)
        if (sw != 0) s += (1 - rf32(fw, ct)) * rf32(sw, ct) - (1 - rf32(fw, c)) * rf32(sw, c)
        if (out64 == 2) wf64(out, c, s)
        else wf32(out, c, s)
      }
    }
  }
}

/** subtractGradientSlab: u_face -= phi_b - phi_a on open faces, cell planes [k0, k1). */
export function subtractGradient(
  u: usize, v: usize, w: usize, phi: usize, fu: usize, fv: usize, fw: usize,
  nx: i32, ny: i32, nz: i32, k0: i32, k1: i32,
): void {
  const plane = nx * ny
  for (let k = k0; k < k1; k++) {
    for (let j = 0; j < ny; j++) {
      const row = nx * (j + ny * k)
      const fx = (nx + 1) * (j + ny * k)
      for (let i = 0; i <= nx; i++) {
        if (rf32(fu, fx + i) > 0) {
          const a = i > 0 ? rf64(phi, row + i - 1) : 0
          const b = i < nx ? rf64(phi, row + i) : 0
          wf32(u, fx + i, rf32(u, fx + i) - (b - a))
        }
      }
    }
    for (let j = 0; j <= ny; j++) {
      const fy = nx * (j + (ny + 1) * k)
      const row = nx * (j + ny * k)
      for (let i = 0; i < nx; i++) {
        if (rf32(fv, fy + i) > 0) {
          const a = j > 0 ? rf64(phi, row + i - nx) : 0
          const b = j < ny ? rf64(phi, row + i) : 0
          wf32(v, fy + i, rf32(v, fy + i) - (b - a))
        }
      }
    }
  }
  const kEnd = k1 == nz ? nz + 1 : k1
  for (let k = k0; k < kEnd; k++) {
    const row = plane * k
    for (let c = row; c < row + plane; c++) {
      if (rf32(fw, c) > 0) {
        const a = k > 0 ? rf64(phi, c - plane) : 0
        const b = k < nz ? rf64(phi, c) : 0
        wf32(w, c, rf32(w, c) - (b - a))
      }
    }
  }
}
