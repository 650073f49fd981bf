// Particle <-> grid transfers of the marker-and-cell liquid (Carlson 2004 sec. 3.2.3.3: the
// markers set the velocity of cells the liquid enters), done every substep for every face as
// in PIC/FLIP (Zhu & Bridson 2005): particles splat velocity (and temperature) to the grid
// with trilinear weights, the grid is solved, and particles read back either the new grid
// value (PIC, the thesis's behaviour: flip = 0) or their own value plus the grid's change
// (FLIP), blended by `flip`.
//
// Sums are Float64 and run in particle order, so the result is a deterministic function of
// the particle arrays.
import type { MacGrid } from '../core/grid'
import type { MarkerParticles } from './markers'
import * as sample from './sample'

/** Cell index of grid coordinates (X, Y, Z) = (x - origin) / dx, clamped into the grid. */
export function cellOf(X: number, Y: number, Z: number, nx: number, ny: number, nz: number): number {
  let i = Math.floor(X), j = Math.floor(Y), k = Math.floor(Z)
  i = i < 0 ? 0 : i >= nx ? nx - 1 : i
  j = j < 0 ? 0 : j >= ny ? ny - 1 : j
  k = k < 0 ? 0 : k >= nz ? nz - 1 : k
  return i + nx * (j + ny * k)
}

/**
 * Accumulators for one sample lattice: sum of w * value at 2c and sum of w at 2c + 1, side by
 * side so a splat touches one cache line per sample rather than two.
 */
class Splat {
  readonly sw: Float64Array
  constructor(n: number) {
    this.sw = new Float64Array(2 * n)
  }
}

export class ParticleTransfer {
  readonly nx: number
  readonly ny: number
  readonly nz: number
  readonly dx: number
  readonly origin: readonly [number, number, number]
  private readonly faces: [Splat, Splat, Splat]
  private readonly cells: Splat
  private readonly uvw = new Float64Array(3)
  private readonly stencil: sample.MacStencil

  constructor(spec: { nx: number; ny: number; nz: number; dx: number; origin: [number, number, number] }) {
    const { nx, ny, nz } = spec
    this.nx = nx
    this.ny = ny
    this.nz = nz
    this.dx = spec.dx
    this.origin = spec.origin
    this.faces = [new Splat((nx + 1) * ny * nz), new Splat(nx * (ny + 1) * nz), new Splat(nx * ny * (nz + 1))]
    this.cells = new Splat(nx * ny * nz)
    this.stencil = new sample.MacStencil(nx, ny, nz)
  }

  /** Trilinear splat of values into lattice sx*sy*sz at index coordinates (gx, gy, gz). */
  private static splat(s: Splat, sx: number, sy: number, sz: number, gx: number, gy: number, gz: number, value: number): void {
    const sw = s.sw
    const i0 = Math.floor(gx), j0 = Math.floor(gy), k0 = Math.floor(gz)
    const tx = gx - i0, ty = gy - j0, tz = gz - k0
    if (i0 >= 0 && j0 >= 0 && k0 >= 0 && i0 < sx - 1 && j0 < sy - 1 && k0 < sz - 1) {
      // All eight samples inside (nearly every marker): unrolled, same weights and products
      // as the general loop below (w = wx * (wy * wz)), zero weights skipped likewise.
      const ux = 1 - tx, uy = 1 - ty, uz = 1 - tz
      const a = 2 * (i0 + sx * (j0 + sy * k0))
      const y1 = 2 * sx, z1 = 2 * sx * sy
      let wyz = uy * uz
      let w = ux * wyz
      if (w !== 0) (sw[a] += w * value), (sw[a + 1] += w)
      w = tx * wyz
      if (w !== 0) (sw[a + 2] += w * value), (sw[a + 3] += w)
      wyz = ty * uz
      w = ux * wyz
      if (w !== 0) (sw[a + y1] += w * value), (sw[a + y1 + 1] += w)
      w = tx * wyz
      if (w !== 0) (sw[a + y1 + 2] += w * value), (sw[a + y1 + 3] += w)
      wyz = uy * tz
      w = ux * wyz
      if (w !== 0) (sw[a + z1] += w * value), (sw[a + z1 + 1] += w)
      w = tx * wyz
      if (w !== 0) (sw[a + z1 + 2] += w * value), (sw[a + z1 + 3] += w)
      wyz = ty * tz
      w = ux * wyz
      if (w !== 0) (sw[a + z1 + y1] += w * value), (sw[a + z1 + y1 + 1] += w)
      w = tx * wyz
      if (w !== 0) (sw[a + z1 + y1 + 2] += w * value), (sw[a + z1 + y1 + 3] += w)
      return
    }
    for (let dk = 0; dk < 2; dk++) {
      const k = k0 + dk
      if (k < 0 || k >= sz) continue
      const wz = dk ? tz : 1 - tz
      for (let dj = 0; dj < 2; dj++) {
        const j = j0 + dj
        if (j < 0 || j >= sy) continue
        const wyz = (dj ? ty : 1 - ty) * wz
        for (let di = 0; di < 2; di++) {
          const i = i0 + di
          if (i < 0 || i >= sx) continue
          const w = (di ? tx : 1 - tx) * wyz
          if (w === 0) continue
          const c = 2 * (i + sx * (j + sy * k))
          sw[c] += w * value
          sw[c + 1] += w
        }
      }
    }
  }

  /**
   * Particle velocities onto the faces of vel (weighted means) and temperatures onto the cell
   * centres of temp. Samples no particle reaches get mark 0 (else 1) and value 0.
   */
  toGrid(p: MarkerParticles, vel: MacGrid, temp: Float32Array, markU: Uint8Array, markV: Uint8Array, markW: Uint8Array, markT: Uint8Array): void {
    const { nx, ny, nz, dx, origin, faces, cells } = this
    for (const s of faces) s.sw.fill(0)
    cells.sw.fill(0)
    const inv = 1 / dx
    for (let q = 0; q < p.count; q++) {
      const X = (p.px[q] - origin[0]) * inv
      const Y = (p.py[q] - origin[1]) * inv
      const Z = (p.pz[q] - origin[2]) * inv
      ParticleTransfer.splat(faces[0], nx + 1, ny, nz, X, Y - 0.5, Z - 0.5, p.vx[q])
      ParticleTransfer.splat(faces[1], nx, ny + 1, nz, X - 0.5, Y, Z - 0.5, p.vy[q])
      ParticleTransfer.splat(faces[2], nx, ny, nz + 1, X - 0.5, Y - 0.5, Z, p.vz[q])
      ParticleTransfer.splat(cells, nx, ny, nz, X - 0.5, Y - 0.5, Z - 0.5, p.temp[q])
    }
    ParticleTransfer.resolve(faces[0], vel.u, markU)
    ParticleTransfer.resolve(faces[1], vel.v, markV)
    ParticleTransfer.resolve(faces[2], vel.w, markW)
    ParticleTransfer.resolve(cells, temp, markT)
  }

  private static resolve(s: Splat, out: Float32Array, mark: Uint8Array): void {
    const sw = s.sw
    for (let c = 0; c < out.length; c++) {
      const weight = sw[2 * c + 1]
      // A weight this small is a particle on the far corner of the stencil: too noisy to trust.
      if (weight > 1e-6) {
        out[c] = sw[2 * c] / weight
        mark[c] = 1
      } else {
        out[c] = 0
        mark[c] = 0
      }
    }
  }

  /**
   * Grid back to particles: v_p = (1 - flip) u(x_p) + flip (v_p + u(x_p) - u_old(x_p)), the same
   * for temperature with the cell grids (PIC/FLIP blend, Zhu & Bridson 2005). Markers in
   * cells with reach 0 (not within the extension band of the liquid) only gain h g.
   */
  toParticles(p: MarkerParticles, vel: MacGrid, velOld: MacGrid, temp: Float32Array, tempOld: Float32Array, flip: number, reach: Uint8Array, gx: number, gy: number, gz: number, h: number): void {
    const { nx, ny, nz, dx, origin } = this
    const inv = 1 / dx
    const uvw = this.uvw
    for (let q = 0; q < p.count; q++) {
      const X = (p.px[q] - origin[0]) * inv
      const Y = (p.py[q] - origin[1]) * inv
      const Z = (p.pz[q] - origin[2]) * inv
      if (reach[cellOf(X, Y, Z, nx, ny, nz)] === 0) {
        // A marker beyond the band the grid velocity was extended into (spray) has no grid
        // velocity: it flies ballistically under gravity until it lands near liquid again.
        p.vx[q] += h * gx
        p.vy[q] += h * gy
        p.vz[q] += h * gz
        continue
      }
      this.toParticle(p, q, X, Y, Z, vel, velOld, temp, tempOld, flip, uvw)
    }
  }

  /**
   * toParticles for one marker within reach, at grid coordinates (X, Y, Z) = (x - origin) / dx;
   * also writes the new grid velocity there, u(x_p), into out[0..2].
   */
  toParticle(p: MarkerParticles, q: number, X: number, Y: number, Z: number, vel: MacGrid, velOld: MacGrid, temp: Float32Array, tempOld: Float32Array, flip: number, out: Float64Array): void {
    // One stencil set-up for the four lattices (and the old grids): sample.ts MacStencil.
    const st = this.stencil
    st.at(X, Y, Z)
    const u = st.u(vel.u)
    const v = st.v(vel.v)
    const w = st.w(vel.w)
    const t = st.cell(temp)
    out[0] = u
    out[1] = v
    out[2] = w
    if (flip === 0) {
      p.vx[q] = u
      p.vy[q] = v
      p.vz[q] = w
      p.temp[q] = t
      return
    }
    const pic = 1 - flip
    const du = u - st.u(velOld.u)
    const dv = v - st.v(velOld.v)
    const dw = w - st.w(velOld.w)
    const dt = t - st.cell(tempOld)
    p.vx[q] = pic * u + flip * (p.vx[q] + du)
    p.vy[q] = pic * v + flip * (p.vy[q] + dv)
    p.vz[q] = pic * w + flip * (p.vz[q] + dw)
    p.temp[q] = pic * t + flip * (p.temp[q] + dt)
  }
}
