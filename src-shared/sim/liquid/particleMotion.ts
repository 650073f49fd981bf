// Moving the marker particles (Carlson 2004 sec. 3.2.3.2) and keeping them out of walls.
//
// Eq. 21, second-order Runge-Kutta (Heun / modified Euler) in the trilinearly interpolated
// grid velocity:
//   x' = x + h u(x),   x_new = x + h/2 (u(x) + u(x'))
// The thesis skips the second stage when x' lands in an empty cell because no reliable
// velocity exists there; here the velocity has been extrapolated into the air band
// (extrapolate.ts), so both stages are always taken. Markers that start beyond that band
// (spray, reach = 0) move with their own ballistic velocity instead.
//
// Afterwards a particle that ended up inside an obstacle (its signed distance below a small
// margin) is moved out along the distance gradient, and one beyond a closed domain side is
// put back inside; particles that leave through an open side, or sit deep inside a solid
// where the (banded) distance has no gradient, are removed.
import type { GridSpec, MacGrid } from '../core/grid'
import type { MarkerParticles } from './markers'
import * as sample from './sample'
import * as transfer from './transfer'
import type { ParticleTransfer } from './transfer'

// Imported values used in per-cell / per-marker loops are copied into module constants: an
// imported binding can cost a property load (or a getter call, under vitest's module runner)
// on every use in a hot loop.
const lerp3 = sample.lerpLattice
const velocityAtGridCoord = sample.macVelocity
const cellOf = transfer.cellOf

/** What a fused substep's grid -> particle transfer needs (transfer.ts toParticles). */
export interface GridToParticles {
  transfer: ParticleTransfer
  velOld: MacGrid
  temp: Float32Array
  tempOld: Float32Array
  flip: number
  gx: number
  gy: number
  gz: number
}

export class ParticleMover {
  private readonly spec: GridSpec
  private readonly v0 = new Float64Array(3)
  private readonly v1 = new Float64Array(3)
  private readonly stencil: sample.MacStencil
  /** Upper domain corner, m (per-call constant of moveTo). */
  private readonly hi = new Float64Array(3)

  constructor(spec: GridSpec) {
    this.spec = spec
    const { nx, ny, nz, dx, origin } = spec
    this.stencil = new sample.MacStencil(nx, ny, nz)
    this.hi[0] = origin[0] + nx * dx
    this.hi[1] = origin[1] + ny * dx
    this.hi[2] = origin[2] + nz * dx
  }

  /**
   * Advects every particle by h in vel, then applies the obstacle and domain constraints.
   * obstaclePhi: union obstacle distance at the (nx+1)(ny+1)(nz+1) cell corners (m), or null.
   * open = openFlags(sides); reach: per cell, 0 where the grid velocity was not extended.
   * With `g2p`, each particle first takes its velocity and temperature from the grid as
   * ParticleTransfer.toParticles would (same bits): one pass over the particles instead of
   * two, and the RK2 first stage reuses the velocity just sampled at the particle (it is the
   * same grid at the same point). drift: a velocity the markers within reach also move with
   * but do not take into their own velocity (the density correction's, densityCorrection.ts);
   * null = none (the same bits as before it existed). Returns the number of particles removed.
   */
  advect(p: MarkerParticles, vel: MacGrid, h: number, obstaclePhi: Float32Array | null, open: Uint8Array, reach: Uint8Array, g2p: GridToParticles | null = null, drift: MacGrid | null = null): number {
    const { nx, ny, nz, dx, origin } = this.spec
    const inv = 1 / dx
    const { v0, v1, stencil: st } = this
    const o0 = origin[0], o1 = origin[1], o2 = origin[2]
    let removed = 0
    // Backwards, so the particle swapped into a removed slot has already been moved (and,
    // fused, already transferred: a particle's transfer reads only itself and the grid).
    for (let q = p.count - 1; q >= 0; q--) {
      const x = p.px[q], y = p.py[q], z = p.pz[q]
      let nxp: number, nyp: number, nzp: number
      const X = (x - o0) * inv, Y = (y - o1) * inv, Z = (z - o2) * inv
      if (reach[cellOf(X, Y, Z, nx, ny, nz)] === 0) {
        // A marker beyond the band the grid velocity was extended into (spray) has no grid
        // velocity: it flies ballistically under gravity (toParticles) with its own velocity.
        if (g2p !== null) {
          p.vx[q] += h * g2p.gx
          p.vy[q] += h * g2p.gy
          p.vz[q] += h * g2p.gz
        }
        nxp = x + h * p.vx[q]
        nyp = y + h * p.vy[q]
        nzp = z + h * p.vz[q]
      } else {
        if (g2p !== null) g2p.transfer.toParticle(p, q, X, Y, Z, vel, g2p.velOld, g2p.temp, g2p.tempOld, g2p.flip, v0)
        else velocityAtGridCoord(vel.u, vel.v, vel.w, nx, ny, nz, X, Y, Z, v0)
        if (drift !== null) {
          st.at(X, Y, Z)
          v0[0] += st.u(drift.u)
          v0[1] += st.v(drift.v)
          v0[2] += st.w(drift.w)
        }
        const x1 = x + h * v0[0], y1 = y + h * v0[1], z1 = z + h * v0[2]
        // macVelocity at x1, with one stencil set-up for the three components.
        st.at((x1 - o0) * inv, (y1 - o1) * inv, (z1 - o2) * inv)
        v1[0] = st.u(vel.u)
        v1[1] = st.v(vel.v)
        v1[2] = st.w(vel.w)
        if (drift !== null) {
          v1[0] += st.u(drift.u)
          v1[1] += st.v(drift.v)
          v1[2] += st.w(drift.w)
        }
        nxp = x + 0.5 * h * (v0[0] + v1[0])
        nyp = y + 0.5 * h * (v0[1] + v1[1])
        nzp = z + 0.5 * h * (v0[2] + v1[2])
      }
      if (this.place(p, q, nxp, nyp, nzp, obstaclePhi, open)) continue
      removed++
    }
    return removed
  }

  /**
   * Moves particle q to (x, y, z) after pushing it out of obstacles and back inside closed
   * sides; false when it was removed instead (left through an open side, or deep in a solid).
   */
  private place(p: MarkerParticles, q: number, nxp: number, nyp: number, nzp: number, obstaclePhi: Float32Array | null, open: Uint8Array): boolean {
    const { nx, ny, nz, dx, origin } = this.spec
    const inv = 1 / dx
    const margin = 0.05 * dx
    const wallEps = 1e-4 * dx
    const hi = this.hi
    if (obstaclePhi !== null) {
      const X = (nxp - origin[0]) * inv, Y = (nyp - origin[1]) * inv, Z = (nzp - origin[2]) * inv
      const d = lerp3(obstaclePhi, nx + 1, ny + 1, nz + 1, X, Y, Z)
      if (d < margin) {
        const gx = lerp3(obstaclePhi, nx + 1, ny + 1, nz + 1, X + 0.5, Y, Z) - lerp3(obstaclePhi, nx + 1, ny + 1, nz + 1, X - 0.5, Y, Z)
        const gy = lerp3(obstaclePhi, nx + 1, ny + 1, nz + 1, X, Y + 0.5, Z) - lerp3(obstaclePhi, nx + 1, ny + 1, nz + 1, X, Y - 0.5, Z)
        const gz = lerp3(obstaclePhi, nx + 1, ny + 1, nz + 1, X, Y, Z + 0.5) - lerp3(obstaclePhi, nx + 1, ny + 1, nz + 1, X, Y, Z - 0.5)
        const g = Math.sqrt(gx * gx + gy * gy + gz * gz)
        if (!(g > 1e-6 * dx)) {
          p.remove(q)
          return false
        }
        const s = (margin - d) / g
        nxp += s * gx
        nyp += s * gy
        nzp += s * gz
        // No velocity into the obstacle (matters for spray, which keeps its own velocity).
        const vn = (p.vx[q] * gx + p.vy[q] * gy + p.vz[q] * gz) / g
        if (vn < 0) {
          p.vx[q] -= (vn * gx) / g
          p.vy[q] -= (vn * gy) / g
          p.vz[q] -= (vn * gz) / g
        }
      }
    }
    // Domain sides: xMin, xMax, yMin, yMax, zMin, zMax.
    // A marker put back on a closed side also loses its velocity into that side.
    let out = false
    if (nxp < origin[0] + wallEps) open[0] ? (out = true) : ((nxp = origin[0] + wallEps), (p.vx[q] = Math.max(p.vx[q], 0)))
    else if (nxp > hi[0] - wallEps) open[1] ? (out = true) : ((nxp = hi[0] - wallEps), (p.vx[q] = Math.min(p.vx[q], 0)))
    if (nyp < origin[1] + wallEps) open[2] ? (out = true) : ((nyp = origin[1] + wallEps), (p.vy[q] = Math.max(p.vy[q], 0)))
    else if (nyp > hi[1] - wallEps) open[3] ? (out = true) : ((nyp = hi[1] - wallEps), (p.vy[q] = Math.min(p.vy[q], 0)))
    if (nzp < origin[2] + wallEps) open[4] ? (out = true) : ((nzp = origin[2] + wallEps), (p.vz[q] = Math.max(p.vz[q], 0)))
    else if (nzp > hi[2] - wallEps) open[5] ? (out = true) : ((nzp = hi[2] - wallEps), (p.vz[q] = Math.min(p.vz[q], 0)))
    // NaN positions are left to the solver's stability guard, which sees the velocity.
    if (out) {
      p.remove(q)
      return false
    }
    p.px[q] = nxp
    p.py[q] = nyp
    p.pz[q] = nzp
    return true
  }
}

/**
 * A copy of the obstacle distance at the (nx+1)(ny+1)(nz+1) cell corners for pushing markers
 * out, with obstacles that touch a closed domain side continued through it: on a closed
 * side's corner layer, phi takes the next layer's value where that is inside an obstacle.
 * Without this, a box standing on the floor has its bottom face on the floor, a marker that
 * strays into the box near the floor is closest to that face, and pushing it "out" drives it
 * into the floor, where it stays inside the box.
 */
export function extendThroughClosedSides(phi: Float32Array, out: Float32Array, nx: number, ny: number, nz: number, closed: Uint8Array): void {
  out.set(phi)
  const sx = nx + 1, sy = ny + 1, sz = nz + 1
  const at = (i: number, j: number, k: number) => i + sx * (j + sy * k)
  const take = (b: number, inner: number) => {
    if (phi[inner] < 0 && out[b] > phi[inner]) out[b] = phi[inner]
  }
  for (let k = 0; k < sz; k++) {
    for (let j = 0; j < sy; j++) {
      if (closed[0]) take(at(0, j, k), at(1, j, k))
      if (closed[1]) take(at(nx, j, k), at(nx - 1, j, k))
    }
  }
  for (let k = 0; k < sz; k++) {
    for (let i = 0; i < sx; i++) {
      if (closed[2]) take(at(i, 0, k), at(i, 1, k))
      if (closed[3]) take(at(i, ny, k), at(i, ny - 1, k))
    }
  }
  for (let j = 0; j < sy; j++) {
    for (let i = 0; i < sx; i++) {
      if (closed[4]) take(at(i, j, 0), at(i, j, 1))
      if (closed[5]) take(at(i, j, nz), at(i, j, nz - 1))
    }
  }
}
