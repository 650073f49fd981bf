// The markers' density error as a wanted outflux (reference: src-shared/sim/liquid/
// densityCorrection.ts densityTargetSlab): the same tests and float64 arithmetic, rounded to
// float32 on store; partial[k] counts plane k's nonzero targets.
import { rf32, ri32, ru8, wf32 } from './common'

const AIR: i32 = 0
const LIQUID: i32 = 1
// densityCorrection.ts MAX_DENSITY_ERROR (wasmCellPasses.test.ts fails if they part).
const MAX_DENSITY_ERROR: f64 = 0.5

/** densityTargetSlab over cell planes [k0, k1). */
export function densityTarget(
  target: usize, count: usize, kind: usize, phi: usize, solid: usize, scale: f64, inv: f64, depth: f64,
  nx: i32, ny: i32, nz: i32, partial: usize, k0: i32, k1: i32,
): void {
  const plane = nx * ny
  memory.fill(target + (<usize>(k0 * plane) << 2), 0, <usize>((k1 - k0) * plane) << 2)
  for (let k = k0; k < k1; k++) {
    let n: i32 = 0
    for (let j = 0; j < ny; j++) {
      for (let i = 0; i < nx; i++) {
        const c = i + nx * (j + ny * k)
        if (ru8(kind, c) != LIQUID || rf32(solid, c) > 0 || !(rf32(phi, c) <= depth)) continue
        if ((i > 0 && ru8(kind, c - 1) == AIR) || (i < nx - 1 && ru8(kind, c + 1) == AIR) || (j > 0 && ru8(kind, c - nx) == AIR)) continue
        if ((j < ny - 1 && ru8(kind, c + nx) == AIR) || (k > 0 && ru8(kind, c - plane) == AIR) || (k < nz - 1 && ru8(kind, c + plane) == AIR)) continue
        let e = <f64>ri32(count, c) * inv - 1
        if (e == 0) continue
        e = e > MAX_DENSITY_ERROR ? MAX_DENSITY_ERROR : e < -MAX_DENSITY_ERROR ? -MAX_DENSITY_ERROR : e
        wf32(target, c, scale * e)
        n++
      }
    }
    store<f64>(partial + (<usize>k << 3), <f64>n)
  }
}
