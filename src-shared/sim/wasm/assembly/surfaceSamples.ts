// Bilinear samples of the surface flow's padded grids at a point of a patch (the twins of
// SurfaceSampler's cellValue, xValue and yValue; references in
// src-shared/sim/surface/surfaceAdvectKernels.ts), shared by the surface kernels.
import { rf64 } from './common'

/** Lower index of a bilinear sample along one axis, clamped to [lo, hi - 1] (a NaN takes lo: its weight is NaN anyway). */
@inline function axisIndex(g: f64, lo: i32, hi: i32): i32 {
  let i = Math.floor(g)
  if (!(i >= <f64>lo)) i = <f64>lo
  if (i > <f64>(hi - 1)) i = <f64>(hi - 1)
  return <i32>i
}

@inline function axisWeight(g: f64, i: i32): f64 {
  const t = g - <f64>i
  return t < 0 ? 0 : t > 1 ? 1 : t
}

@inline function bilinear(f: usize, k: i32, row: i32, tx: f64, ty: f64): f64 {
  return (1 - ty) * ((1 - tx) * rf64(f, k) + tx * rf64(f, k + 1)) + ty * ((1 - tx) * rf64(f, k + row) + tx * rf64(f, k + row + 1))
}

@inline export function xFaceSample(f: usize, N: i32, q: i32, x1: f64, x2: f64): f64 {
  const gx = x1 * <f64>N, gy = x2 * <f64>N - 0.5
  const i = axisIndex(gx, -1, N + 1), j = axisIndex(gy, -1, N)
  const row = N + 3
  return bilinear(f, q * (N + 3) * (N + 2) + i + 1 + row * (j + 1), row, axisWeight(gx, i), axisWeight(gy, j))
}

@inline export function yFaceSample(f: usize, N: i32, q: i32, x1: f64, x2: f64): f64 {
  const gx = x1 * <f64>N - 0.5, gy = x2 * <f64>N
  const i = axisIndex(gx, -1, N), j = axisIndex(gy, -1, N + 1)
  const row = N + 2
  return bilinear(f, q * (N + 2) * (N + 3) + i + 1 + row * (j + 1), row, axisWeight(gx, i), axisWeight(gy, j))
}

@inline export function cellSample(f: usize, N: i32, q: i32, x1: f64, x2: f64): f64 {
  const gx = x1 * <f64>N - 0.5, gy = x2 * <f64>N - 0.5
  const i = axisIndex(gx, -1, N), j = axisIndex(gy, -1, N)
  const row = N + 2
  return bilinear(f, q * (N + 2) * (N + 2) + i + 1 + row * (j + 1), row, axisWeight(gx, i), axisWeight(gy, j))
}
