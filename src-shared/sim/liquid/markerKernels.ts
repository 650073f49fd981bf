// The marker move as a kernel-table row (core/kernelTable.ts), so it runs as this TypeScript
// reference on the TypeScript backend and as its AssemblyScript twin (wasm/assembly/markers.ts)
// split over particle blocks on the WebAssembly backend's threads.
//
// One call moves markers [q0, q1): grid -> particle transfer (transfer.ts toParticle, fused),
// eq. 21's second-order Runge-Kutta step in the trilinear grid velocity (Carlson 2004 sec.
// 3.2.3.2, see particleMotion.ts), the push out of obstacles and the domain's closed sides.
// Each marker reads only itself and the grids and writes only itself, so any split of the
// range gives the same bits. A marker that has to go (it left through an open side, or sits
// deep in a solid) is not removed here, which would move another marker into its slot: it
// gets flag 1, and ParticleMover.advect removes the flagged markers afterwards on one thread,
// from the last to the first, which leaves the particles in the order the one-pass loop did.
import type { MarkerParticles } from './markers'
import type { MacGrid } from '../core/grid'
import { defineKernel, f32, int, type KernelArgs, ptr, size, struct, u8 } from '../core/kernelTable'
import * as affine from './affine'
import * as sample from './sample'

// Imported values used in per-marker loops are copied into module constants: an imported
// binding can cost a property load (or a getter call, under vitest's module runner) on every
// use in a hot loop.
const lerp3 = sample.lerpLattice
const gradU = affine.gradU
const gradV = affine.gradV
const gradW = affine.gradW
const cellOf = sample.cellOf

/** Slots of the move's float64 parameter block (prm). */
export const MOVE_PRM = {
  /** Substep, s. */
  h: 0,
  dx: 1,
  ox: 2,
  oy: 3,
  oz: 4,
  /** 1: take the velocity (and temperature) from the grid first (the fused transfer); 0: the markers keep theirs. */
  fused: 5,
  /** FLIP share of the PIC/FLIP blend (0: PIC or APIC). */
  flip: 6,
  gx: 7,
  gy: 8,
  gz: 9,
  /** Share of the unresolved temperature relaxed this substep (transfer.ts tempRelax). */
  relax: 10,
  /** 1: APIC (markers carry C_p). */
  apic: 11,
} as const
export const MOVE_PRM_LENGTH = 12

/** The markers' arrays the move reads and writes (MarkerParticles' fields of these names). */
export type MarkerArrays = Pick<MarkerParticles, 'px' | 'py' | 'pz' | 'vx' | 'vy' | 'vz' | 'temp' | 'c' | 'flag'>

/** A MAC velocity's three face arrays. */
type FaceArrays = Pick<MacGrid, 'u' | 'v' | 'w'>

/**
 * Moves markers [q0, q1) by prm[h] in vel (see the file comment); flag[q] = 1 for a marker
 * that has to be removed, else 0. velOld, temp, tempOld, tempResid: the fused transfer's
 * (transfer.ts toParticle; tempResid read only when prm[relax] != 0). du, dv, dw: the density
 * drift (all three or none). obstaclePhi: the obstacles' distance at the (nx+1)(ny+1)(nz+1)
 * cell corners, or null. reach: per cell, 0 where the grid velocity was not extended (spray
 * flies ballistically there). open: the six sides' open flags (xMin, xMax, ... zMax).
 */
export function moveMarkersSlab(
  P: MarkerArrays,
  vel: FaceArrays,
  velOld: FaceArrays,
  temp: Float32Array | null,
  tempOld: Float32Array | null,
  tempResid: Float32Array | null,
  du: Float32Array | null,
  dv: Float32Array | null,
  dw: Float32Array | null,
  obstaclePhi: Float32Array | null,
  reach: Uint8Array,
  open: Uint8Array,
  prm: Float64Array,
  nx: number,
  ny: number,
  nz: number,
  q0: number,
  q1: number,
): void {
  const h = prm[MOVE_PRM.h], dx = prm[MOVE_PRM.dx]
  const o0 = prm[MOVE_PRM.ox], o1 = prm[MOVE_PRM.oy], o2 = prm[MOVE_PRM.oz]
  const fused = prm[MOVE_PRM.fused] !== 0
  const flip = prm[MOVE_PRM.flip]
  const gx = prm[MOVE_PRM.gx], gy = prm[MOVE_PRM.gy], gz = prm[MOVE_PRM.gz]
  const relax = prm[MOVE_PRM.relax]
  const apic = prm[MOVE_PRM.apic] !== 0
  const inv = 1 / dx
  const margin = 0.05 * dx
  const wallEps = 1e-4 * dx
  const hi0 = o0 + nx * dx, hi1 = o1 + ny * dx, hi2 = o2 + nz * dx
  const sx = nx + 1, sy = ny + 1, sz = nz + 1
  const { px, py, pz, vx, vy, vz, c: C, flag } = P
  const T = P.temp
  // One stencil per call (not per marker): its fields are this call's scratch.
  const st = new sample.MacStencil(nx, ny, nz)
  for (let q = q0; q < q1; q++) {
    const x = px[q], y = py[q], z = pz[q]
    let nxp: number, nyp: number, nzp: number
    const X = (x - o0) * inv, Y = (y - o1) * inv, Z = (z - o2) * inv
    if (reach[cellOf(X, Y, Z, nx, ny, nz)] === 0) {
      // A marker beyond the band the grid velocity was extended into (spray) has no grid
      // velocity: it flies ballistically under gravity with its own velocity.
      if (fused) {
        vx[q] += h * gx
        vy[q] += h * gy
        vz[q] += h * gz
      }
      nxp = x + h * vx[q]
      nyp = y + h * vy[q]
      nzp = z + h * vz[q]
    } else {
      st.at(X, Y, Z)
      let u0: number, v0: number, w0: number
      if (fused) {
        // transfer.ts toParticle, expression for expression.
        if (apic) {
          const o = 9 * q
          u0 = gradU(st, vel.u, inv, C, o)
          v0 = gradV(st, vel.v, inv, C, o + 3)
          w0 = gradW(st, vel.w, inv, C, o + 6)
        } else {
          u0 = st.u(vel.u)
          v0 = st.v(vel.v)
          w0 = st.w(vel.w)
        }
        // No temperature field: it did not change (particleMotion.ts GridToParticles.temp).
        if (temp !== null) {
          const t = st.cell(temp)
          const told = st.cell(tempOld!)
          const dt = t - told
          // Increment, less the decay of the unresolved part (transfer.ts temperatureResidual).
          if (relax !== 0) T[q] += dt - relax * (T[q] - told - st.cell(tempResid!))
          else if (dt !== 0) T[q] += dt
        }
        if (flip === 0) {
          vx[q] = u0
          vy[q] = v0
          vz[q] = w0
        } else {
          const pic = 1 - flip
          const ddu = u0 - st.u(velOld.u)
          const ddv = v0 - st.v(velOld.v)
          const ddw = w0 - st.w(velOld.w)
          vx[q] = pic * u0 + flip * (vx[q] + ddu)
          vy[q] = pic * v0 + flip * (vy[q] + ddv)
          vz[q] = pic * w0 + flip * (vz[q] + ddw)
        }
      } else {
        u0 = st.u(vel.u)
        v0 = st.v(vel.v)
        w0 = st.w(vel.w)
      }
      if (du !== null) {
        u0 += st.u(du)
        v0 += st.v(dv!)
        w0 += st.w(dw!)
      }
      // Eq. 21: x' = x + h u(x), x_new = x + h/2 (u(x) + u(x')).
      const x1 = x + h * u0, y1 = y + h * v0, z1 = z + h * w0
      st.at((x1 - o0) * inv, (y1 - o1) * inv, (z1 - o2) * inv)
      let u1 = st.u(vel.u)
      let v1 = st.v(vel.v)
      let w1 = st.w(vel.w)
      if (du !== null) {
        u1 += st.u(du)
        v1 += st.v(dv!)
        w1 += st.w(dw!)
      }
      nxp = x + 0.5 * h * (u0 + u1)
      nyp = y + 0.5 * h * (v0 + v1)
      nzp = z + 0.5 * h * (w0 + w1)
    }
    // Out of obstacles: along the distance's gradient to `margin` outside.
    if (obstaclePhi !== null) {
      const PX = (nxp - o0) * inv, PY = (nyp - o1) * inv, PZ = (nzp - o2) * inv
      const d = lerp3(obstaclePhi, sx, sy, sz, PX, PY, PZ)
      if (d < margin) {
        const ggx = lerp3(obstaclePhi, sx, sy, sz, PX + 0.5, PY, PZ) - lerp3(obstaclePhi, sx, sy, sz, PX - 0.5, PY, PZ)
        const ggy = lerp3(obstaclePhi, sx, sy, sz, PX, PY + 0.5, PZ) - lerp3(obstaclePhi, sx, sy, sz, PX, PY - 0.5, PZ)
        const ggz = lerp3(obstaclePhi, sx, sy, sz, PX, PY, PZ + 0.5) - lerp3(obstaclePhi, sx, sy, sz, PX, PY, PZ - 0.5)
        const g = Math.sqrt(ggx * ggx + ggy * ggy + ggz * ggz)
        if (!(g > 1e-6 * dx)) {
          // Deep inside a solid, where the (banded) distance has no gradient.
          flag[q] = 1
          continue
        }
        const s = (margin - d) / g
        nxp += s * ggx
        nyp += s * ggy
        nzp += s * ggz
        // No velocity into the obstacle (matters for spray, which keeps its own velocity).
        const vn = (vx[q] * ggx + vy[q] * ggy + vz[q] * ggz) / g
        if (vn < 0) {
          vx[q] -= (vn * ggx) / g
          vy[q] -= (vn * ggy) / g
          vz[q] -= (vn * ggz) / g
        }
      }
    }
    // Domain sides: put back inside a closed side (losing the velocity into it), gone through
    // an open one. NaN positions are left to the solver's stability guard, which sees the velocity.
    let out = false
    if (nxp < o0 + wallEps) open[0] ? (out = true) : ((nxp = o0 + wallEps), (vx[q] = Math.max(vx[q], 0)))
    else if (nxp > hi0 - wallEps) open[1] ? (out = true) : ((nxp = hi0 - wallEps), (vx[q] = Math.min(vx[q], 0)))
    if (nyp < o1 + wallEps) open[2] ? (out = true) : ((nyp = o1 + wallEps), (vy[q] = Math.max(vy[q], 0)))
    else if (nyp > hi1 - wallEps) open[3] ? (out = true) : ((nyp = hi1 - wallEps), (vy[q] = Math.min(vy[q], 0)))
    if (nzp < o2 + wallEps) open[4] ? (out = true) : ((nzp = o2 + wallEps), (vz[q] = Math.max(vz[q], 0)))
    else if (nzp > hi2 - wallEps) open[5] ? (out = true) : ((nzp = hi2 - wallEps), (vz[q] = Math.min(vz[q], 0)))
    if (out) {
      flag[q] = 1
      continue
    }
    px[q] = nxp
    py[q] = nyp
    pz[q] = nzp
    flag[q] = 0
  }
}

const num = (a: KernelArgs, i: number) => a[i] as number
const faces = { u: 'f32', v: 'f32', w: 'f32' } as const

/** moveMarkersSlab over markers [0, count). */
export const MOVE_MARKERS = defineKernel({
  name: 'moveMarkers',
  args: [
    struct('P', { px: 'f32', py: 'f32', pz: 'f32', vx: 'f32', vy: 'f32', vz: 'f32', temp: 'f32', c: 'f32', flag: 'u8' }),
    struct('vel', faces),
    struct('velOld', faces),
    f32('temp', true),
    f32('tempOld', true),
    f32('tempResid', true),
    f32('du', true),
    f32('dv', true),
    f32('dw', true),
    f32('obstaclePhi', true),
    u8('reach'),
    // Small per-call inputs: copied into the kernels' memory when they live elsewhere.
    ptr('open', 'u8', { stage: () => 6 }),
    ptr('prm', 'f64', { stage: () => MOVE_PRM_LENGTH }),
    int('nx'),
    int('ny'),
    int('nz'),
    size('count'),
  ],
  split: 'blocks',
  range: (a) => num(a, 16),
  // About 25 lattice samples a marker (two stencils, APIC's gradients, temperatures).
  work: (a) => 25 * num(a, 16),
  // Spray markers move ballistically and markers at obstacles take extra samples, so equal
  // counts are unequal work: pieces go to whichever thread is free.
  piecesPerThread: 8,
  ref: moveMarkersSlab,
})
