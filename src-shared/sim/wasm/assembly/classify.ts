// The cells' labels from the markers (reference: src-shared/sim/liquid/classifyKernel.ts
// classifySlab): counts per cell over planes [k0, k1), then AIR / LIQUID / SOLID and the
// liquid cells per plane. Integer counts, so the same on any thread split; a coordinate's
// cell is floor((x - o) / dx) in float64, as the reference, and NaN lands nowhere.
import { rf32 } from './common'

const AIR: u8 = 0
const LIQUID: u8 = 1
const SOLID: u8 = 2
const SOLID_CELL: f64 = 0.5

/** classifySlab over cell planes [k0, k1). */
export function classifyCells(
  px: usize, py: usize, pz: usize, solid: usize, count: usize, kind: usize, liquid: usize,
  markers: i32, nx: i32, ny: i32, nz: i32, dx: f64, ox: f64, oy: f64, oz: f64,
  k0: i32, k1: i32,
): void {
  const plane = nx * ny
  if (k1 > k0) memory.fill(count + (<usize>(k0 * plane) << 2), 0, <usize>((k1 - k0) * plane) << 2)
  const inv = 1 / dx
  const fk0 = <f64>k0, fk1 = <f64>k1, fnx = <f64>nx, fny = <f64>ny
  for (let q = 0; q < markers; q++) {
    const k = Math.floor((rf32(pz, q) - oz) * inv)
    if (!(k >= fk0 && k < fk1)) continue
    const i = Math.floor((rf32(px, q) - ox) * inv)
    const j = Math.floor((rf32(py, q) - oy) * inv)
    if (!(i >= 0 && j >= 0 && i < fnx && j < fny)) continue
    const at = count + (<usize>(<i32>i + nx * <i32>j + plane * <i32>k) << 2)
    store<i32>(at, load<i32>(at) + 1)
  }
  const kEnd = min(k1, nz)
  for (let k = k0; k < kEnd; k++) {
    let n = 0
    const end = (k + 1) * plane
    for (let c = k * plane; c < end; c++) {
      let label = AIR
      if (<f64>rf32(solid, c) >= SOLID_CELL) label = SOLID
      else if (load<i32>(count + (<usize>c << 2)) > 0) {
        label = LIQUID
        n++
      }
      store<u8>(kind + <usize>c, label)
    }
    store<i32>(liquid + (<usize>k << 2), n)
  }
}
