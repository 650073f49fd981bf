// The surface flow's per-face passes (surfaceFluid.ts) as kernel rows over patches, so a bake
// runs them on its WebAssembly threads (twins: wasm/assembly/surfaceAdvect.ts):
//   - SURFACE_VELOCITIES: u^i = F^i / sqrt(g) on a patch's real faces (0 where sqrt(g) = 0);
//   - SURFACE_ADVECT_VELOCITY: the semi-Lagrangian advection of the face velocities (eqs.
//     19-20, sec. 4.3) for every face whose back-trace stays in its own patch: the bilinear
//     samples of surfaceSampling.ts evaluated in place, the same operations in the same order,
//     so the same bits. A departure outside the patch's parameter square must walk across
//     patches through the atlas's transitions (patchAtlas.ts locate); the row flags those faces
//     and the caller traces them with the sampler (a face within about a cell's travel of a
//     patch edge: at most a fifth of them at the bench's speeds).
import { f64, float, int, size, u8 } from '../core/kernelTable'
import { patchRow } from './patchRow'

/** Lower index and weight of a bilinear sample along one axis, clamped to [lo, hi] (SurfaceSampler.axis). */
function axisIndex(g: number, lo: number, hi: number): number {
  let i = Math.floor(g)
  if (i < lo) i = lo
  if (i > hi - 1) i = hi - 1
  return i
}
function axisWeight(g: number, i: number): number {
  const t = g - i
  return t < 0 ? 0 : t > 1 ? 1 : t
}

/** x-face field f of patch q at (x1, x2) (SurfaceSampler.xValue). */
export function xFaceSample(f: Float64Array, N: number, q: number, x1: number, x2: number): number {
  const gx = x1 * N, gy = x2 * N - 0.5
  const i = axisIndex(gx, -1, N + 1), j = axisIndex(gy, -1, N)
  const tx = axisWeight(gx, i), ty = axisWeight(gy, j)
  const row = N + 3
  const k = q * (N + 3) * (N + 2) + i + 1 + row * (j + 1)
  return (1 - ty) * ((1 - tx) * f[k] + tx * f[k + 1]) + ty * ((1 - tx) * f[k + row] + tx * f[k + row + 1])
}

/** y-face field f of patch q at (x1, x2) (SurfaceSampler.yValue). */
export function yFaceSample(f: Float64Array, N: number, q: number, x1: number, x2: number): number {
  const gx = x1 * N - 0.5, gy = x2 * N
  const i = axisIndex(gx, -1, N), j = axisIndex(gy, -1, N + 1)
  const tx = axisWeight(gx, i), ty = axisWeight(gy, j)
  const row = N + 2
  const k = q * (N + 2) * (N + 3) + i + 1 + row * (j + 1)
  return (1 - ty) * ((1 - tx) * f[k] + tx * f[k + 1]) + ty * ((1 - tx) * f[k + row] + tx * f[k + row + 1])
}

/** Cell field s (ghosts filled) of patch q at (x1, x2) (SurfaceSampler.cellValue). */
export function cellSample(s: Float64Array, N: number, q: number, x1: number, x2: number): number {
  const gx = x1 * N - 0.5, gy = x2 * N - 0.5
  const i = axisIndex(gx, -1, N), j = axisIndex(gy, -1, N)
  const tx = axisWeight(gx, i), ty = axisWeight(gy, j)
  const row = N + 2
  const k = q * (N + 2) * (N + 2) + i + 1 + row * (j + 1)
  return (1 - ty) * ((1 - tx) * s[k] + tx * s[k + 1]) + ty * ((1 - tx) * s[k + row] + tx * s[k + row + 1])
}

/** u = F / sqrt(g) (0 where sqrt(g) is 0) on the real faces of patches [p0, p1); ghosts untouched. */
export function surfaceVelocitiesPatches(fx: Float64Array, fy: Float64Array, sx: Float64Array, sy: Float64Array, ux: Float64Array, uy: Float64Array, N: number, p0: number, p1: number): void {
  const rowX = N + 3, rowY = N + 2
  for (let p = p0; p < p1; p++) {
    for (let j = 0; j < N; j++) {
      const f0 = p * rowX * (N + 2) + 1 + rowX * (j + 1)
      for (let f = f0; f <= f0 + N; f++) ux[f] = sx[f] > 0 ? fx[f] / sx[f] : 0
    }
    for (let j = 0; j <= N; j++) {
      const f0 = p * rowY * (N + 3) + 1 + rowY * (j + 1)
      for (let f = f0; f < f0 + N; f++) uy[f] = sy[f] > 0 ? fy[f] / sy[f] : 0
    }
  }
}

/** Whether (x1, x2) lies in the closed parameter square, where the sampler does not walk. */
function inside(x1: number, x2: number): boolean {
  return !(x1 < 0 || x1 > 1 || x2 < 0 || x2 > 1)
}

/**
 * For patches [p0, p1): each real x-face's new flux sqrt(g) u^1 at its departure point x - dt u
 * into outX, each y-face's into outY, where the departure stays in the patch (flag 0); flag 1
 * where it leaves (out untouched there). u: the face velocities with ghosts filled.
 */
export function surfaceAdvectVelocityPatches(
  ux: Float64Array, uy: Float64Array, sx: Float64Array, sy: Float64Array, outX: Float64Array, outY: Float64Array, flagX: Uint8Array, flagY: Uint8Array,
  N: number, dt: number, h: number, p0: number, p1: number,
): void {
  const rowX = N + 3, rowY = N + 2
  for (let p = p0; p < p1; p++) {
    for (let j = 0; j < N; j++) for (let i = 0; i <= N; i++) {
      const f = p * rowX * (N + 2) + i + 1 + rowX * (j + 1)
      const x1 = i * h, x2 = (j + 0.5) * h
      const v2 = yFaceSample(uy, N, p, x1, x2)
      const d1 = x1 - dt * ux[f], d2 = x2 - dt * v2
      if (!inside(d1, d2)) {
        flagX[f] = 1
        continue
      }
      flagX[f] = 0
      // sampleVector's identity transition: v^1 = 1 v1 + 0 v2 (0 v2 keeps a NaN's spread).
      outX[f] = sx[f] * (xFaceSample(ux, N, p, d1, d2) + 0 * yFaceSample(uy, N, p, d1, d2))
    }
    for (let j = 0; j <= N; j++) for (let i = 0; i < N; i++) {
      const f = p * rowY * (N + 3) + i + 1 + rowY * (j + 1)
      const x1 = (i + 0.5) * h, x2 = j * h
      const v1 = xFaceSample(ux, N, p, x1, x2)
      const d1 = x1 - dt * v1, d2 = x2 - dt * uy[f]
      if (!inside(d1, d2)) {
        flagY[f] = 1
        continue
      }
      flagY[f] = 0
      outY[f] = sy[f] * (0 * xFaceSample(ux, N, p, d1, d2) + yFaceSample(uy, N, p, d1, d2))
    }
  }
}

export const SURFACE_VELOCITIES = patchRow(
  'surfaceVelocities',
  [f64('fx'), f64('fy'), f64('sx'), f64('sy'), f64('ux'), f64('uy'), int('N'), size('patches')],
  2,
  surfaceVelocitiesPatches,
)

export const SURFACE_ADVECT_VELOCITY = patchRow(
  'surfaceAdvectVelocity',
  [f64('ux'), f64('uy'), f64('sx'), f64('sy'), f64('outX'), f64('outY'), u8('flagX'), u8('flagY'), int('N'), float('dt'), float('h'), size('patches')],
  8,
  surfaceAdvectVelocityPatches,
)
