// The frame's marker arrays (liquidSolver.ts frame()): positions and velocities interleaved
// x, y, z per marker, as a frame's particle set carries them, from the markers' per-axis
// arrays. A million markers' 24 MB of writes were about 20 ms a frame on the calling thread
// while the kernels' other threads waited for the next substep; as a row over markers (each
// marker writes its own six values) the threads share it. Plain float32 copies: any split, and
// the twin, give the same bits.
import { defineKernel, f32, type KernelArgs, size } from '../core/kernelTable'

/** positions[3q + a] = (px, py, pz)[a][q] and velocity likewise from (vx, vy, vz), q in [q0, q1). */
export function interleaveMarkersSlab(
  px: Float32Array, py: Float32Array, pz: Float32Array, vx: Float32Array, vy: Float32Array, vz: Float32Array,
  positions: Float32Array, velocity: Float32Array, q0: number, q1: number,
): void {
  for (let q = q0; q < q1; q++) {
    positions[3 * q] = px[q]
    positions[3 * q + 1] = py[q]
    positions[3 * q + 2] = pz[q]
    velocity[3 * q] = vx[q]
    velocity[3 * q + 1] = vy[q]
    velocity[3 * q + 2] = vz[q]
  }
}

/** interleaveMarkersSlab over markers [0, count). */
export const INTERLEAVE_MARKERS = defineKernel({
  name: 'interleaveMarkers',
  args: [f32('px'), f32('py'), f32('pz'), f32('vx'), f32('vy'), f32('vz'), f32('positions'), f32('velocity'), size('count')],
  split: 'rows',
  range: (a: KernelArgs) => a[8] as number,
  // Six values a marker, streamed: a marker weighs about as much as a cell of a grid pass.
  work: (a: KernelArgs) => 6 * (a[8] as number),
  ref: interleaveMarkersSlab,
})
