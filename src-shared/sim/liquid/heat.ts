// Heat in the liquid (Carlson 2004 sec. 4.2): t_t = k lap t - (u . grad) t (eq. 50), split.
// Convection is done by the marker particles, which carry temperature (sec. 4.2, last
// paragraph); this file does the rest on the cell-centred grid temperature of liquid cells:
//
// - diffusion by the locally one-dimensional (LOD) method, eqs. 51-55: three implicit solves
//   H^x t^{n+1/3} = t^n, H^y t^{n+2/3} = t^{n+1/3}, H^z t^{n+1} = t^{n+2/3}, each a set of
//   independent tridiagonal systems H = 1 - (k h / dx^2) tridiag(1, -2, 1) along the runs of
//   consecutive liquid cells of one grid line, solved by the symmetric LDL^T solver of table 5.
//   The ends of a run (air or solid next) are insulated (zero flux), so diffusion alone keeps
//   the total heat; each H is symmetric, positive definite and diagonally dominant, so the step
//   is stable for any h (backward Euler per direction).
// - Newtonian cooling to the ambient temperature, t -= rate (t - ambient), integrated exactly.
// - heat sources: liquid cells whose centre is within a source's radius relax to its
//   temperature at its rate, again integrated exactly (1 - exp(-rate h)).
import type { GridSpec } from '../core/grid'
import type { HeatSourceInput } from './liquidInput'
import * as kinds from './viscosity'

// Imported values used in per-cell / per-marker loops are copied into module constants: an
// imported binding can cost a property load (or a getter call, under vitest's module runner)
// on every use in a hot loop.
const LIQUID = kinds.LIQUID

/**
 * Solves the symmetric tridiagonal system (diagonal d[0..n-1], super-diagonal e[0..n-2]) in
 * place: b becomes the solution; d and e are overwritten. Carlson 2004, table 5.
 */
export function solveSymmetricTridiagonal(d: Float64Array, e: Float64Array, b: Float64Array, n: number): void {
  for (let k = 1; k < n; k++) {
    const t = e[k - 1]
    e[k - 1] = t / d[k - 1]
    d[k] -= t * e[k - 1]
  }
  for (let k = 1; k < n; k++) b[k] -= e[k - 1] * b[k - 1]
  b[n - 1] /= d[n - 1]
  for (let k = n - 2; k >= 0; k--) b[k] = b[k] / d[k] - e[k] * b[k + 1]
}

export class HeatSolver {
  readonly spec: GridSpec
  private readonly d: Float64Array
  private readonly e: Float64Array
  private readonly b: Float64Array

  constructor(spec: GridSpec) {
    this.spec = spec
    const m = Math.max(spec.nx, spec.ny, spec.nz)
    this.d = new Float64Array(m)
    this.e = new Float64Array(m)
    this.b = new Float64Array(m)
  }

  /** One LOD diffusion step of length h with diffusion constant k (m^2/s), eqs. 53-55. */
  diffuse(t: Float32Array, kind: Uint8Array, k: number, h: number): void {
    if (!(k > 0) || !(h > 0)) return
    const { nx, ny, nz, dx } = this.spec
    const r = (k * h) / (dx * dx)
    // x lines, then y, then z: stride between neighbours and the lattice walk for each.
    for (let kk = 0; kk < nz; kk++) for (let j = 0; j < ny; j++) this.line(t, kind, r, nx * (j + ny * kk), 1, nx)
    for (let kk = 0; kk < nz; kk++) for (let i = 0; i < nx; i++) this.line(t, kind, r, i + nx * ny * kk, nx, ny)
    for (let j = 0; j < ny; j++) for (let i = 0; i < nx; i++) this.line(t, kind, r, i + nx * j, nx * ny, nz)
  }

  /** Implicit 1D diffusion on every run of liquid cells of one line (start, stride, length). */
  private line(t: Float32Array, kind: Uint8Array, r: number, start: number, stride: number, len: number): void {
    const { d, e, b } = this
    let q = 0
    while (q < len) {
      if (kind[start + q * stride] !== LIQUID) {
        q++
        continue
      }
      let end = q
      while (end + 1 < len && kind[start + (end + 1) * stride] === LIQUID) end++
      const n = end - q + 1
      if (n > 1) {
        for (let m = 0; m < n; m++) {
          // Insulated run ends: a cell with one liquid neighbour has one flux term (eq. 51's BC).
          d[m] = 1 + r * (m === 0 || m === n - 1 ? 1 : 2)
          if (m < n - 1) e[m] = -r
          b[m] = t[start + (q + m) * stride]
        }
        solveSymmetricTridiagonal(d, e, b, n)
        for (let m = 0; m < n; m++) t[start + (q + m) * stride] = b[m]
      }
      q = end + 1
    }
  }

  /** Newtonian cooling of liquid cells towards ambient over h (exact exponential). */
  cool(t: Float32Array, kind: Uint8Array, ambient: number, rate: number, h: number): void {
    if (!(rate > 0)) return
    const f = Math.exp(-rate * h)
    for (let c = 0; c < t.length; c++) if (kind[c] === LIQUID) t[c] = ambient + (t[c] - ambient) * f
  }

  /** Liquid cells whose centre lies within a source's ball relax to its temperature over h. */
  applySources(t: Float32Array, kind: Uint8Array, sources: readonly HeatSourceInput[], h: number): void {
    const { nx, ny, nz, dx, origin } = this.spec
    for (const s of sources) {
      if (!(s.rate > 0)) continue
      const blend = 1 - Math.exp(-s.rate * h)
      const [sx, sy, sz] = s.position
      const r2 = s.radius * s.radius
      // Only the cells of the ball's bounding box.
      const i0 = Math.max(0, Math.floor((sx - s.radius - origin[0]) / dx)), i1 = Math.min(nx - 1, Math.floor((sx + s.radius - origin[0]) / dx))
      const j0 = Math.max(0, Math.floor((sy - s.radius - origin[1]) / dx)), j1 = Math.min(ny - 1, Math.floor((sy + s.radius - origin[1]) / dx))
      const k0 = Math.max(0, Math.floor((sz - s.radius - origin[2]) / dx)), k1 = Math.min(nz - 1, Math.floor((sz + s.radius - origin[2]) / dx))
      for (let k = k0; k <= k1; k++) {
        const z = origin[2] + (k + 0.5) * dx - sz
        for (let j = j0; j <= j1; j++) {
          const y = origin[1] + (j + 0.5) * dx - sy
          for (let i = i0; i <= i1; i++) {
            const x = origin[0] + (i + 0.5) * dx - sx
            const c = i + nx * (j + ny * k)
            if (kind[c] === LIQUID && x * x + y * y + z * z <= r2) t[c] += (s.temperature - t[c]) * blend
          }
        }
      }
    }
  }
}
