// Whether every marker holds one temperature (liquidSolver.ts isothermalMarkers) as a
// kernel-table row: each block of SPEED_BLOCK markers counts its markers whose temperature is
// not t0, and the caller adds the blocks' counts (integers: any split gives the same sum).
// Twin: wasm/assembly/markerTemperature.ts.
import { defineKernel, f32, f64, float, int, type KernelArgs } from '../core/kernelTable'
import { SPEED_BLOCK } from './speedKernel'

/** partial[b] for blocks [b0, b1) of `count` markers: how many hold a temperature !== t0. */
export function markersOffTemperatureSlab(temp: Float32Array, t0: number, count: number, partial: Float64Array, b0: number, b1: number): void {
  for (let b = b0; b < b1; b++) {
    const end = Math.min(count, (b + 1) * SPEED_BLOCK)
    let n = 0
    for (let q = b * SPEED_BLOCK; q < end; q++) if (temp[q] !== t0) n++
    partial[b] = n
  }
}

const num = (a: KernelArgs, i: number) => a[i] as number

export const MARKERS_OFF_TEMPERATURE = defineKernel({
  name: 'markersOffTemperature',
  args: [f32('temp'), float('t0'), int('count'), f64('partial')],
  split: 'blocks',
  range: (a) => Math.ceil(num(a, 2) / SPEED_BLOCK),
  work: (a) => num(a, 2),
  partials: 'partial',
  ref: markersOffTemperatureSlab,
})
