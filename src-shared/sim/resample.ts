// Regular grids for families whose native fields are unstructured (see the rule at the top of
// frame.ts): resampleToVolume turns any field that can be sampled at a point into the
// cell-centred Volume the raymarcher and the OpenVDB exporter read; requireRegularVolumes is
// the check that a family's frames obey the rule.
import { EddyError } from '../api/errors'
import type { Vec3 } from '../scene/types'
import type { FrameData, Volume } from './frame'

/** Far beyond a display grid; keeps a unit slip (mm for m) from allocating gigabytes. */
export const MAX_RESAMPLE_CELLS = 512 ** 3

export interface ResampleBox {
  /** World minimum corner, m: the grid's origin. */
  min: Vec3
  /** World maximum corner, m: the grid covers it (the last cell may reach past it). */
  max: Vec3
}

/**
 * A 1-component Volume covering `box` with cubic cells of `voxelSize`, each cell holding
 * sample(x, y, z) at its centre. The loop allocates nothing (the callback is given plain
 * numbers), so a family may call it every frame; what the callback does (a BVH lookup in a
 * tetrahedral mesh, an SPH kernel sum) is its own business. Non-finite samples are stored
 * as 0: the raymarcher and VDB writers treat NaN as garbage, while 0 is empty space.
 */
export function resampleToVolume(name: string, box: ResampleBox, voxelSize: number, sample: (x: number, y: number, z: number) => number): Volume {
  if (!(voxelSize > 0) || !Number.isFinite(voxelSize)) throw new EddyError('INVALID_PARAM', `Resampling '${name}' needs a positive voxel size, not ${voxelSize}`)
  const dims: [number, number, number] = [0, 0, 0]
  for (let a = 0; a < 3; a++) {
    const span = box.max[a] - box.min[a]
    if (!Number.isFinite(span) || span < 0) throw new EddyError('INVALID_PARAM', `Resampling '${name}': the box's max is below its min on axis ${'xyz'[a]}`)
    // Round before ceil so a span of exactly n cells (up to float noise) is n, not n + 1.
    dims[a] = Math.max(1, Math.ceil(Math.round((span / voxelSize) * 1e6) / 1e6))
  }
  const cells = dims[0] * dims[1] * dims[2]
  if (cells > MAX_RESAMPLE_CELLS) throw new EddyError('INVALID_PARAM', `Resampling '${name}' at ${voxelSize} m would make ${dims.join(' x ')} cells (at most ${MAX_RESAMPLE_CELLS})`)
  const [nx, ny, nz] = dims
  const data = new Float32Array(cells)
  const x0 = box.min[0] + 0.5 * voxelSize
  const y0 = box.min[1] + 0.5 * voxelSize
  const z0 = box.min[2] + 0.5 * voxelSize
  let n = 0
  for (let k = 0; k < nz; k++) {
    const z = z0 + k * voxelSize
    for (let j = 0; j < ny; j++) {
      const y = y0 + j * voxelSize
      for (let i = 0; i < nx; i++, n++) {
        const v = sample(x0 + i * voxelSize, y, z)
        data[n] = Number.isFinite(v) ? v : 0
      }
    }
  }
  return { name, components: 1, dims, voxelSize, origin: [box.min[0], box.min[1], box.min[2]], data }
}

/**
 * Throws INTERNAL unless the frame holds each named field as a regular Volume of consistent
 * size: the check an unstructured family's tests run on its frames (the rule in frame.ts).
 */
export function requireRegularVolumes(frame: FrameData, names: readonly string[], family: string): void {
  for (const name of names) {
    const v = frame.volumes.find((x) => x.name === name)
    if (!v) {
      throw new EddyError('INTERNAL', `${family} frame ${frame.frame} has no regular '${name}' volume: a family with unstructured fields must also hand out a resampled grid (see resampleToVolume)`)
    }
    const expected = v.dims[0] * v.dims[1] * v.dims[2] * v.components
    if (!v.dims.every((d) => Number.isInteger(d) && d > 0) || v.data.length !== expected || !(v.voxelSize > 0)) {
      throw new EddyError('INTERNAL', `${family} frame ${frame.frame}: volume '${name}' is not a regular grid (${v.data.length} values for dims ${v.dims.join(' x ')} x ${v.components})`)
    }
  }
}
