// Twins of src-shared/sim/surface/surfaceAdvectKernels.ts: the surface flow's face velocities
// and their semi-Lagrangian advection within each patch (departures leaving it are flagged).
import { rf64, wf64 } from './common'
import { xFaceSample, yFaceSample } from './surfaceSamples'

@inline function inside(x1: f64, x2: f64): bool {
  return !(x1 < 0 || x1 > 1 || x2 < 0 || x2 > 1)
}

/** surfaceVelocitiesPatches over patches [p0, p1). */
export function surfaceVelocities(fx: usize, fy: usize, sx: usize, sy: usize, ux: usize, uy: usize, N: i32, p0: i32, p1: i32): void {
  const rowX = N + 3, rowY = N + 2
  for (let p = p0; p < p1; p++) {
    for (let j = 0; j < N; j++) {
      const f0 = p * rowX * (N + 2) + 1 + rowX * (j + 1)
      for (let f = f0; f <= f0 + N; f++) {
        const s = rf64(sx, f)
        wf64(ux, f, s > 0 ? rf64(fx, f) / s : 0)
      }
    }
    for (let j = 0; j <= N; j++) {
      const f0 = p * rowY * (N + 3) + 1 + rowY * (j + 1)
      for (let f = f0; f < f0 + N; f++) {
        const s = rf64(sy, f)
        wf64(uy, f, s > 0 ? rf64(fy, f) / s : 0)
      }
    }
  }
}

/** surfaceAdvectVelocityPatches over patches [p0, p1). */
export function surfaceAdvectVelocity(
  ux: usize, uy: usize, sx: usize, sy: usize, outX: usize, outY: usize, flagX: usize, flagY: usize,
  N: i32, dt: f64, h: f64, p0: i32, p1: i32,
): void {
  const rowX = N + 3, rowY = N + 2
  for (let p = p0; p < p1; p++) {
    for (let j = 0; j < N; j++) for (let i = 0; i <= N; i++) {
      const f = p * rowX * (N + 2) + i + 1 + rowX * (j + 1)
      const x1 = <f64>i * h, x2 = (<f64>j + 0.5) * h
      const v2 = yFaceSample(uy, N, p, x1, x2)
      const d1 = x1 - dt * rf64(ux, f), d2 = x2 - dt * v2
      if (!inside(d1, d2)) {
        store<u8>(flagX + <usize>f, 1)
        continue
      }
      store<u8>(flagX + <usize>f, 0)
      wf64(outX, f, rf64(sx, f) * (xFaceSample(ux, N, p, d1, d2) + 0 * yFaceSample(uy, N, p, d1, d2)))
    }
    for (let j = 0; j <= N; j++) for (let i = 0; i < N; i++) {
      const f = p * rowY * (N + 3) + i + 1 + rowY * (j + 1)
      const x1 = (<f64>i + 0.5) * h, x2 = <f64>j * h
      const v1 = xFaceSample(ux, N, p, x1, x2)
      const d1 = x1 - dt * v1, d2 = x2 - dt * rf64(uy, f)
      if (!inside(d1, d2)) {
        store<u8>(flagY + <usize>f, 1)
        continue
      }
      store<u8>(flagY + <usize>f, 0)
      wf64(outY, f, rf64(sy, f) * (0 * xFaceSample(ux, N, p, d1, d2) + yFaceSample(uy, N, p, d1, d2)))
    }
  }
}
