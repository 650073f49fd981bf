// The markers' fastest velocity component (the time step's CFL speed and the instability
// guard, liquidSolver.ts) as a kernel-table row: each block of SPEED_BLOCK markers writes its
// own largest |v_x|, |v_y|, |v_z| (NaN if any is NaN) and the caller takes the largest block
// (core/vectorOps.ts largestPartial).
// A maximum does not depend on the order it is taken in, so any split gives the same value
// as one pass. Twin: wasm/assembly/speed.ts.
import { defineKernel, f64, int, type KernelArgs, struct } from '../core/kernelTable'
import type { MarkerParticles } from './markers'

/** Markers per block. */
export const SPEED_BLOCK = 16384

export type SpeedMarkers = Pick<MarkerParticles, 'vx' | 'vy' | 'vz'>

/** partial[b] for blocks [b0, b1): the largest component, 0 for none, NaN if one is NaN. */
export function markerSpeedSlab(P: SpeedMarkers, partial: Float64Array, count: number, b0: number, b1: number): void {
  const { vx, vy, vz } = P
  for (let b = b0; b < b1; b++) {
    const end = Math.min(count, (b + 1) * SPEED_BLOCK)
    let m = 0
    for (let q = b * SPEED_BLOCK; q < end; q++) {
      const s = Math.max(Math.abs(vx[q]), Math.abs(vy[q]), Math.abs(vz[q]))
      if (s > m) m = s
      else if (s !== s) {
        m = NaN
        break
      }
    }
    partial[b] = m
  }
}

const num = (a: KernelArgs, i: number) => a[i] as number

/** markerSpeedSlab over blocks [0, ceil(count / SPEED_BLOCK)). */
export const MARKER_SPEED = defineKernel({
  name: 'markerSpeed',
  args: [struct('P', { vx: 'f32', vy: 'f32', vz: 'f32' }), f64('partial'), int('count')],
  split: 'blocks',
  range: (a) => Math.ceil(num(a, 2) / SPEED_BLOCK),
  work: (a) => num(a, 2),
  ref: markerSpeedSlab,
})
