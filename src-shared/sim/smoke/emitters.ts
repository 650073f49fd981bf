// Gas sources. An emitter's volume (its shape's SDF <= 0) is refilled `rate` times per
// second with fluid of its density, temperature and velocity: over a substep h every sample
// inside moves towards the emitter's value by a = 1 - exp(-rate h), the exact solution of
// d phi/dt = rate (phi_e - phi), so the result does not depend on how a frame is split into
// substeps and a = 1 (rate -> infinity) is Blender's inflow. Scalars are set at cell
// centres, the inflow velocity on the faces whose centres are inside. Only the cells of the
// shape's bounding box are visited. Solid cells (fraction >= 0.5) receive nothing.
import type { PrimitiveSdf } from '../../geometry/primitiveSdf'
import { SOLID_THRESHOLD } from '../core/advect'

/** Index box [i0, i1] x [j0, j1] x [k0, k1] (inclusive) into out, from a world AABB and sample offsets. */
export function sampleBox(
  min: ArrayLike<number>,
  max: ArrayLike<number>,
  sx: number,
  sy: number,
  sz: number,
  fx: number,
  fy: number,
  fz: number,
  dx: number,
  origin: ArrayLike<number>,
  out: Int32Array,
): boolean {
  out[0] = Math.max(0, Math.floor((min[0] - origin[0]) / dx - fx))
  out[1] = Math.min(sx - 1, Math.ceil((max[0] - origin[0]) / dx - fx))
  out[2] = Math.max(0, Math.floor((min[1] - origin[1]) / dx - fy))
  out[3] = Math.min(sy - 1, Math.ceil((max[1] - origin[1]) / dx - fy))
  out[4] = Math.max(0, Math.floor((min[2] - origin[2]) / dx - fz))
  out[5] = Math.min(sz - 1, Math.ceil((max[2] - origin[2]) / dx - fz))
  return out[0] <= out[1] && out[2] <= out[3] && out[4] <= out[5]
}

/**
 * density += a (rhoE - density), temperature += a (tE - temperature) in the cells of the
 * box whose centres are inside sdf. Returns how many cells were inside.
 */
export function emitScalars(
  density: Float32Array,
  temperature: Float32Array,
  solid: Float32Array | null,
  sdf: PrimitiveSdf,
  box: Int32Array,
  rhoE: number,
  tE: number,
  a: number,
  nx: number,
  ny: number,
  dx: number,
  origin: ArrayLike<number>,
): number {
  let n = 0
  for (let k = box[4]; k <= box[5]; k++) {
    const z = origin[2] + (k + 0.5) * dx
    for (let j = box[2]; j <= box[3]; j++) {
      const y = origin[1] + (j + 0.5) * dx
      for (let i = box[0]; i <= box[1]; i++) {
        const c = i + nx * (j + ny * k)
        if (solid !== null && solid[c] >= SOLID_THRESHOLD) continue
        if (sdf.distance(origin[0] + (i + 0.5) * dx, y, z) > 0) continue
        density[c] += a * (rhoE - density[c])
        temperature[c] += a * (tE - temperature[c])
        n++
      }
    }
  }
  return n
}

/** f += a (value - f) on the faces of lattice `axis` in the box whose centres are inside sdf. */
export function emitFaces(
  f: Float32Array,
  axis: 0 | 1 | 2,
  sdf: PrimitiveSdf,
  box: Int32Array,
  value: number,
  a: number,
  nx: number,
  ny: number,
  dx: number,
  origin: ArrayLike<number>,
): void {
  const sx = axis === 0 ? nx + 1 : nx
  const sy = axis === 1 ? ny + 1 : ny
  const fx = axis === 0 ? 0 : 0.5
  const fy = axis === 1 ? 0 : 0.5
  const fz = axis === 2 ? 0 : 0.5
  for (let k = box[4]; k <= box[5]; k++) {
    const z = origin[2] + (k + fz) * dx
    for (let j = box[2]; j <= box[3]; j++) {
      const y = origin[1] + (j + fy) * dx
      const row = sx * (j + sy * k)
      for (let i = box[0]; i <= box[1]; i++) {
        if (sdf.distance(origin[0] + (i + fx) * dx, y, z) > 0) continue
        f[row + i] += a * (value - f[row + i])
      }
    }
  }
}
