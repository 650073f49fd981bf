// Moving the marker particles (Carlson 2004 sec. 3.2.3.2) and keeping them out of walls.
//
// Eq. 21, second-order Runge-Kutta (Heun / modified Euler) in the trilinearly interpolated
// grid velocity:
//   x' = x + h u(x),   x_new = x + h/2 (u(x) + u(x'))
// The thesis skips the second stage when x' lands in an empty cell because no reliable
// velocity exists there; here the velocity has been extrapolated into the air band
// (core/extrapolate.ts), so both stages are always taken. Markers that start beyond that band
// (spray, reach = 0) move with their own ballistic velocity instead.
//
// Afterwards a particle that ended up inside an obstacle (its signed distance below a small
// margin) is moved out along the distance gradient, and one beyond a closed domain side is
// put back inside; particles that leave through an open side, or sit deep inside a solid
// where the (banded) distance has no gradient, are removed.
//
// The per-marker work is a kernel-table row (markerKernels.ts), so it runs in WebAssembly over
// the kernel threads when the solver has WebAssembly kernels; removal stays here, on one thread.
import type { GridSpec, MacGrid } from '../core/grid'
import { type KernelBackend, TS_KERNELS } from '../core/kernelBackend'
import { MOVE_MARKERS, MOVE_PRM, MOVE_PRM_LENGTH } from './markerKernels'
import type { MarkerParticles } from './markers'
import type { ParticleTransfer } from './transfer'

/** What a fused substep's grid -> particle transfer needs (transfer.ts toParticles). */
export interface GridToParticles {
  transfer: ParticleTransfer
  velOld: MacGrid
  /**
   * The grid temperature after and before the heat step; null when the step left it unchanged
   * (an isothermal liquid: temp equals tempOld everywhere), so markers keep theirs without
   * sampling either (the same bits: each would add t - told = 0).
   */
  temp: Float32Array | null
  tempOld: Float32Array
  flip: number
  gx: number
  gy: number
  gz: number
}

export class ParticleMover {
  private readonly spec: GridSpec
  private readonly kernels: KernelBackend
  /** The move's parameter block (markerKernels.ts MOVE_PRM), in the kernels' memory. */
  private readonly prm: Float64Array

  /** kernels: where the move runs (markerKernels.ts MOVE_MARKERS); the arrays should come from its allocator. */
  constructor(spec: GridSpec, kernels: KernelBackend = TS_KERNELS) {
    this.spec = spec
    this.kernels = kernels
    this.prm = kernels.f64(MOVE_PRM_LENGTH)
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
    const prm = this.prm
    prm[MOVE_PRM.h] = h
    prm[MOVE_PRM.dx] = dx
    prm[MOVE_PRM.ox] = origin[0]
    prm[MOVE_PRM.oy] = origin[1]
    prm[MOVE_PRM.oz] = origin[2]
    prm[MOVE_PRM.fused] = g2p !== null ? 1 : 0
    prm[MOVE_PRM.flip] = g2p?.flip ?? 0
    prm[MOVE_PRM.gx] = g2p?.gx ?? 0
    prm[MOVE_PRM.gy] = g2p?.gy ?? 0
    prm[MOVE_PRM.gz] = g2p?.gz ?? 0
    prm[MOVE_PRM.relax] = g2p?.transfer.tempRelax ?? 0
    prm[MOVE_PRM.apic] = g2p?.transfer.apic ? 1 : 0
    const count = p.count
    this.kernels.run(
      MOVE_MARKERS,
      p,
      vel,
      g2p?.velOld ?? vel,
      g2p?.temp ?? null,
      g2p && g2p.temp ? g2p.tempOld : null,
      g2p && g2p.transfer.tempRelax !== 0 ? g2p.transfer.tempResid : null,
      drift?.u ?? null,
      drift?.v ?? null,
      drift?.w ?? null,
      obstaclePhi,
      reach,
      open,
      prm,
      nx,
      ny,
      nz,
      count,
    )
    return removeFlagged(p, count)
  }
}

/**
 * Removes the markers among [0, count) whose flag is set, from the last to the first: the
 * marker swapped into a freed slot is a survivor already moved, as in a one-pass backwards
 * loop. Nearly every flag is 0, so they are read four to a 32-bit word where the array's
 * offset allows (a byte a marker was about 2 ms a substep for a million markers, on the
 * calling thread while the kernels' other threads waited); the same markers go in the same
 * order. Returns how many were removed.
 */
export function removeFlagged(p: MarkerParticles, count: number): number {
  const flag = p.flag
  let removed = 0
  const whole = (flag.byteOffset & 3) === 0 ? count >> 2 : 0
  for (let q = count - 1; q >= 4 * whole; q--) {
    if (flag[q] === 0) continue
    p.remove(q)
    removed++
  }
  if (whole === 0) return removed
  const words = new Int32Array(flag.buffer, flag.byteOffset, whole)
  for (let w = whole - 1; w >= 0; w--) {
    if (words[w] === 0) continue
    for (let q = 4 * w + 3; q >= 4 * w; q--) {
      if (flag[q] === 0) continue
      p.remove(q)
      removed++
    }
  }
  return removed
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
