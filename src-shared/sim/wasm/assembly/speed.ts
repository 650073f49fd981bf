// The markers' fastest velocity component per block (reference: src-shared/sim/liquid/
// speedKernel.ts markerSpeedSlab). f64.max and f64.abs agree with Math.max and Math.abs,
// NaN included.
import { rf32 } from './common'

const SPEED_BLOCK: i32 = 16384

/** markerSpeedSlab over blocks [b0, b1). */
export function markerSpeed(vx: usize, vy: usize, vz: usize, partial: usize, count: i32, b0: i32, b1: i32): void {
  for (let b = b0; b < b1; b++) {
    const end = min(count, (b + 1) * SPEED_BLOCK)
    let m: f64 = 0
    for (let q = b * SPEED_BLOCK; q < end; q++) {
      const s = max(max(abs(rf32(vx, q)), abs(rf32(vy, q))), abs(rf32(vz, q)))
      if (s > m) m = s
      else if (s != s) {
        m = NaN
        break
      }
    }
    store<f64>(partial + (<usize>b << 3), m)
  }
}
