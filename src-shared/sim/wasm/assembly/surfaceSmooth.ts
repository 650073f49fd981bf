// One smoothing pass of the liquid surface mesher's level set (reference: src-shared/sim/liquid/
// surface/surfaceSmoothKernels.ts surfaceSmoothSlab): window planes [k0, k1) of dst copied from
// src, and on planes [ka, kb) the interior nodes with phi < 0 moved halfway to the mean of their
// 6 neighbours. float64 arithmetic on the float32 values, rounded once on the store, as the
// reference's Float32Array stores.
import { rf32, wf32 } from './common'

export function surfaceSmooth(src: usize, dst: usize, nx: i32, ny: i32, ka: i32, kb: i32, k0: i32, k1: i32): void {
  const sy = nx, sz = nx * ny
  if (k1 > k0) memory.copy(dst + (<usize>(k0 * sz) << 2), src + (<usize>(k0 * sz) << 2), <usize>((k1 - k0) * sz) << 2)
  const kA = max(k0, ka), kB = min(k1, kb)
  for (let k = kA; k < kB; k++) for (let j = 1; j < ny - 1; j++) {
    const row = nx * (j + ny * k)
    for (let i = 1; i < nx - 1; i++) {
      const n = row + i
      const v = rf32(src, n)
      if (v >= 0) continue
      const mean = (rf32(src, n - 1) + rf32(src, n + 1) + rf32(src, n - sy) + rf32(src, n + sy) + rf32(src, n - sz) + rf32(src, n + sz)) / 6
      wf32(dst, n, v + 0.5 * (mean - v))
    }
  }
}
