// Twins of src-shared/sim/surface/surfaceCellKernels.ts: padded cells to unknowns and back.
import { rf64, wf64 } from './common'

/** surfaceGatherPatches over patches [p0, p1). */
export function surfaceGather(s: usize, sqrtG: usize, rhs: usize, x: usize, N: i32, p0: i32, p1: i32): void {
  const rowC = N + 2
  for (let p = p0; p < p1; p++) {
    for (let j = 0; j < N; j++) {
      const c0 = p * rowC * rowC + 1 + rowC * (j + 1), u0 = p * N * N + N * j
      for (let i = 0; i < N; i++) {
        const v = rf64(s, c0 + i)
        wf64(rhs, u0 + i, rf64(sqrtG, c0 + i) * v)
        wf64(x, u0 + i, v)
      }
    }
  }
}

/** surfaceScatterPatches over patches [p0, p1). */
export function surfaceScatter(x: usize, s: usize, N: i32, p0: i32, p1: i32): void {
  const rowC = N + 2
  for (let p = p0; p < p1; p++) {
    for (let j = 0; j < N; j++) {
      const c0 = p * rowC * rowC + 1 + rowC * (j + 1), u0 = p * N * N + N * j
      memory.copy(s + (<usize>(c0) << 3), x + (<usize>(u0) << 3), <usize>N << 3)
    }
  }
}
