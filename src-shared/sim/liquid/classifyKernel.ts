// The cells' labels from the markers (levelSet.ts classifyCells) as a kernel-table row: the
// markers per cell, then AIR / LIQUID / SOLID per cell. It runs as this TypeScript reference
// on the TypeScript backend and as its AssemblyScript twin (wasm/assembly/classify.ts) split
// over z-planes of cells on the WebAssembly backend's threads.
//
// A call covers cell planes [k0, k1): it zeroes their counts, goes over every marker and counts
// those in its planes (integer counts: the same on any split), then labels its planes' cells
// and writes each plane's number of liquid cells. A marker outside the grid (or at a NaN
// position) is counted nowhere.
import { defineKernel, f32, GRID_PLACEMENT, i32, int, type KernelArgs, size, struct, u8 } from '../core/kernelTable'
import type { MarkerParticles } from './markers'
import { AIR, LIQUID, SOLID } from './viscosity'

/**
 * Solid fraction at or above which a cell is solid (no liquid there, no unknowns, its faces
 * closed). Half, not ~1: a cell that is mostly obstacle but holds no marker would otherwise be
 * air, a p = 0 sink the liquid next to it drains into. (Obstacle faces lying exactly on grid
 * nodes make this common: corners with phi = 0 count as outside, so a cell fully inside a box
 * standing on the floor can read 0.54.)
 */
export const SOLID_CELL = 0.5

export type ClassifyMarkers = Pick<MarkerParticles, 'px' | 'py' | 'pz'>

/** Counts and labels over cell planes [k0, k1); liquid[k]: the liquid cells of plane k. */
export function classifySlab(P: ClassifyMarkers, solid: Float32Array, count: Int32Array, kind: Uint8Array, liquid: Int32Array, markers: number, nx: number, ny: number, nz: number, dx: number, ox: number, oy: number, oz: number, k0: number, k1: number): void {
  const plane = nx * ny
  count.fill(0, k0 * plane, k1 * plane)
  const inv = 1 / dx
  const { px, py, pz } = P
  for (let q = 0; q < markers; q++) {
    const k = Math.floor((pz[q] - oz) * inv)
    if (!(k >= k0 && k < k1)) continue
    const i = Math.floor((px[q] - ox) * inv)
    const j = Math.floor((py[q] - oy) * inv)
    if (!(i >= 0 && j >= 0 && i < nx && j < ny)) continue
    count[i + nx * j + plane * k]++
  }
  for (let k = k0; k < Math.min(k1, nz); k++) {
    let n = 0
    const end = (k + 1) * plane
    for (let c = k * plane; c < end; c++) {
      if (solid[c] >= SOLID_CELL) kind[c] = SOLID
      else if (count[c] > 0) {
        kind[c] = LIQUID
        n++
      } else kind[c] = AIR
    }
    liquid[k] = n
  }
}

const num = (a: KernelArgs, i: number) => a[i] as number

/** classifySlab over planes [0, nz). */
export const CLASSIFY_CELLS = defineKernel({
  name: 'classifyCells',
  args: [
    struct('P', { px: 'f32', py: 'f32', pz: 'f32' }),
    f32('solid'),
    i32('count'),
    u8('kind'),
    i32('liquid'),
    int('markers'),
    ...GRID_PLACEMENT,
    size('balance'),
  ],
  split: 'planes',
  range: (a) => num(a, 8),
  // Each thread reads every marker's z; the labels are one pass over the cells.
  work: (a) => num(a, 5) + num(a, 6) * num(a, 7) * num(a, 8),
  balance: (a) => a[13] as Float64Array | null,
  ref: classifySlab,
})
