// The surface flow's per-face passes (surfaceFluid.ts) as kernel rows over patches, so a bake
// runs them on its WebAssembly threads (twins: wasm/assembly/surfaceAdvect.ts):
//   - SURFACE_VELOCITIES: u^i = F^i / sqrt(g) on a patch's real faces (0 where sqrt(g) = 0);
//   - SURFACE_ADVECT_VELOCITY: the semi-Lagrangian advection of the face velocities (eqs.
//     19-20, sec. 4.3) for every face: the other velocity component at the face is the mean of
//     the four faces around it (faceMean), the departure's the bilinear samples of
//     surfaceSampling.ts evaluated in place, the same operations in the same order, so the same
//     bits; inside the patch only the component the face needs is sampled (the sampler's
//     1 v1 + 0 v2 differs only by the sign of an exact zero, or by a NaN in v2, which the step's
//     guard finds on that component's own face). A departure outside the
//     patch's parameter square walks across patches through the atlas's transitions first
//     (patchAtlas.ts locateOf, over copies of the atlas's arrays), its vector turned
//     back by the walk's Jacobian as SurfaceSampler.sampleVector does. (Those faces, within
//     about a cell's travel of a patch edge, were traced one at a time in TypeScript on the
//     calling thread: 9 ms a step for the 30,000 of them at 450 x 32^2.)
import { locateOf, newAtlasPoint } from '../../geometry/patchAtlas'
import { f64, float, i32, int, size } from '../core/kernelTable'
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

/** walkedSample's point, walked (patchAtlas.ts locateOf: position and Jacobian). */
const landing = newAtlasPoint()

/**
 * Component c (0: u^1, 1: u^2) at (x1, x2) of patch p, in p's frame, of the face velocities
 * (ux, uy, ghosts filled), the point outside p's square: walked into the patch holding it, both
 * components sampled there and turned back by the walk's Jacobian (SurfaceSampler.sampleVector).
 */
function walkedSample(ux: Float64Array, uy: Float64Array, N: number, neighbour: Int32Array, neighbourEdge: Int32Array, p: number, x1: number, x2: number, c: number): number {
  const pt = landing, m = pt.m
  pt.patch = p
  pt.x1 = x1
  pt.x2 = x2
  m[0] = 1; m[1] = 0; m[2] = 0; m[3] = 1
  locateOf(neighbour, neighbourEdge, pt)
  const v1 = xFaceSample(ux, N, pt.patch, pt.x1, pt.x2), v2 = yFaceSample(uy, N, pt.patch, pt.x1, pt.x2)
  return c === 0 ? m[0] * v1 + m[2] * v2 : m[1] * v1 + m[3] * v2
}

/**
 * The other component at a face: the mean of the four faces of the other kind around it (k the
 * lower left one, row their row length), 0.25 ((a + b) + (c + d)), which is the bilinear sample
 * there (SurfaceSampler.xValue / yValue: weights 1/2 each way, out of x = i h rounded, so it
 * agrees to rounding) without its index and weight arithmetic.
 */
export function faceMean(u: Float64Array, k: number, row: number): number {
  return 0.25 * ((u[k] + u[k + 1]) + (u[k + row] + u[k + row + 1]))
}

/**
 * For patches [p0, p1): each real x-face's new flux sqrt(g) u^1 at its departure point x - dt u
 * into outX, each y-face's into outY. u: the face velocities with ghosts filled; neighbour,
 * neighbourEdge: the atlas's (for departures outside the patch).
 */
export function surfaceAdvectVelocityPatches(
  ux: Float64Array, uy: Float64Array, sx: Float64Array, sy: Float64Array, outX: Float64Array, outY: Float64Array, neighbour: Int32Array, neighbourEdge: Int32Array,
  N: number, dt: number, h: number, p0: number, p1: number,
): void {
  const rowX = N + 3, rowY = N + 2
  for (let p = p0; p < p1; p++) {
    const bx = p * rowX * (N + 2), by = p * rowY * (N + 3)
    for (let j = 0; j < N; j++) for (let i = 0; i <= N; i++) {
      const f = bx + i + 1 + rowX * (j + 1)
      const x1 = i * h, x2 = (j + 0.5) * h
      const v2 = faceMean(uy, by + i + rowY * (j + 1), rowY)
      const d1 = x1 - dt * ux[f], d2 = x2 - dt * v2
      outX[f] = sx[f] * (inside(d1, d2) ? xFaceSample(ux, N, p, d1, d2) : walkedSample(ux, uy, N, neighbour, neighbourEdge, p, d1, d2, 0))
    }
    for (let j = 0; j <= N; j++) for (let i = 0; i < N; i++) {
      const f = by + i + 1 + rowY * (j + 1)
      const x1 = (i + 0.5) * h, x2 = j * h
      const v1 = faceMean(ux, bx + i + 1 + rowX * j, rowX)
      const d1 = x1 - dt * v1, d2 = x2 - dt * uy[f]
      outY[f] = sy[f] * (inside(d1, d2) ? yFaceSample(uy, N, p, d1, d2) : walkedSample(ux, uy, N, neighbour, neighbourEdge, p, d1, d2, 1))
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
  [f64('ux'), f64('uy'), f64('sx'), f64('sy'), f64('outX'), f64('outY'), i32('neighbour'), i32('neighbourEdge'), int('N'), float('dt'), float('h'), size('patches')],
  8,
  surfaceAdvectVelocityPatches,
)
