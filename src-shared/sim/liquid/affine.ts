// Velocity gradients at a marker for the affine particle-in-cell transfer (APIC: Jiang,
// Schroeder, Selle, Teran, Stomakhin 2015, "The affine particle-in-cell method", ACM TOG
// 34(4)), in the per-component form for a staggered MAC grid (sec. 5.3; Bridson's notes):
// each velocity component a lives on its own face lattice, and the marker keeps one vector
// c_a per component, c_a = sum_i u_ai grad w_ai(x_p). For multilinear weights this equals
// the APIC form B_p D_p^-1 (Jiang 2015, sec. 5.1: D_p^-1 (x_i - x_p) w_ip = grad w_ip), so it is
// the gradient of the trilinear interpolant the marker reads its velocity from.
//
// The three functions read a sample.ts MacStencil already set up at the marker (the same
// lower corners and fractions toParticle's velocity samples used) and write d u_a / d x_b for
// b = x, y, z into out[o], out[o + 1], out[o + 2], in 1/s (inv = 1 / dx). Where the stencil
// clamped a coordinate at the domain's edge the fraction is 0 or 1 and the difference of the
// edge samples is still taken: the velocity's slope there, not the clamped interpolant's 0.
import type { MacStencil } from './sample'

// Each also returns the component's value at the marker, the same bits as MacStencil.u / v / w
// (sample.ts lerpAt's expressions on the same eight samples): toParticle reads value and
// gradient in one pass over the samples instead of two.

/** grad of u (x faces, lattice (nx + 1) x ny x nz); returns u there (MacStencil.u). */
export function gradU(st: MacStencil, f: Float32Array, inv: number, out: Float32Array, o: number): number {
  return gradAt(f, st.nx + 1, st.ny, st.xf, st.yc, st.zc, st.xft, st.yct, st.zct, inv, out, o)
}

/** grad of v (y faces, lattice nx x (ny + 1) x nz); returns v there (MacStencil.v). */
export function gradV(st: MacStencil, f: Float32Array, inv: number, out: Float32Array, o: number): number {
  return gradAt(f, st.nx, st.ny + 1, st.xc, st.yf, st.zc, st.xct, st.yft, st.zct, inv, out, o)
}

/** grad of w (z faces, lattice nx x ny x (nz + 1)); returns w there (MacStencil.w). */
export function gradW(st: MacStencil, f: Float32Array, inv: number, out: Float32Array, o: number): number {
  return gradAt(f, st.nx, st.ny, st.xc, st.yc, st.zf, st.xct, st.yct, st.zft, inv, out, o)
}

/**
 * Gradient of the trilinear interpolant of lattice f (row sx, plane sx * sy) in cell (i, j, k)
 * at fractions (tx, ty, tz) into out[o .. o + 2]; returns the interpolant's value there.
 */
function gradAt(f: Float32Array, sx: number, sy: number, i: number, j: number, k: number, tx: number, ty: number, tz: number, inv: number, out: Float32Array, o: number): number {
  const dk = sx * sy
  const a = i + sx * (j + sy * k)
  const f000 = f[a], f100 = f[a + 1], f010 = f[a + sx], f110 = f[a + sx + 1]
  const f001 = f[a + dk], f101 = f[a + dk + 1], f011 = f[a + dk + sx], f111 = f[a + dk + sx + 1]
  const ux = 1 - tx, uy = 1 - ty, uz = 1 - tz
  // d/dX: the x differences of the four rows, bilinear in (ty, tz); likewise for Y and Z.
  out[o] = inv * (uz * (uy * (f100 - f000) + ty * (f110 - f010)) + tz * (uy * (f101 - f001) + ty * (f111 - f011)))
  out[o + 1] = inv * (uz * (ux * (f010 - f000) + tx * (f110 - f100)) + tz * (ux * (f011 - f001) + tx * (f111 - f101)))
  out[o + 2] = inv * (uy * (ux * (f001 - f000) + tx * (f101 - f100)) + ty * (ux * (f011 - f010) + tx * (f111 - f110)))
  // sample.ts lerpAt, term for term.
  const c00 = f000 + tx * (f100 - f000)
  const c10 = f010 + tx * (f110 - f010)
  const c01 = f001 + tx * (f101 - f001)
  const c11 = f011 + tx * (f111 - f011)
  const c0 = c00 + ty * (c10 - c00)
  const c1 = c01 + ty * (c11 - c01)
  return c0 + tz * (c1 - c0)
}
