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
//     (patchAtlas.ts locate, restated here as walkTo over the atlas's arrays), its vector turned
//     back by the walk's Jacobian as SurfaceSampler.sampleVector does. (Those faces, within
//     about a cell's travel of a patch edge, were traced one at a time in TypeScript on the
//     calling thread: 9 ms a step for the 30,000 of them at 450 x 32^2.)
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

/** A crossing's point in the neighbour's parameters (walkTo's scratch). */
const walked = new Float64Array(2)

/**
 * Where the point (x1, x2) of patch p lands, and the Jacobian the walk accumulates, as
 * patchAtlas.ts locate (sec. 4.3's clip) computes them: at most 8 crossings, u first, then v;
 * past an open boundary or the eighth crossing the point is clamped onto the square. The result
 * goes to `at` (patch, x1, x2, m00, m01, m10, m11). neighbour, neighbourEdge: the atlas's arrays.
 */
export function walkTo(neighbour: Int32Array, neighbourEdge: Int32Array, p: number, x1: number, x2: number, at: Float64Array): void {
  let q = p, a = x1, b = x2, m0 = 1, m1 = 0, m2 = 0, m3 = 1
  let clamp = true
  for (let hops = 0; hops < 8; hops++) {
    let e = -1
    if (a < 0) e = 3
    else if (a > 1) e = 1
    else if (b < 0) e = 0
    else if (b > 1) e = 2
    if (e < 0) {
      clamp = false
      break
    }
    const nq = neighbour[4 * q + e]
    if (nq < 0) break
    const f = neighbourEdge[4 * q + e]
    // toEdge(e, a, b) -> (along, out); fromEdge(f, 1 - along, -out).
    let along: number, out: number
    if (e === 0) { along = a; out = -b } else if (e === 1) { along = b; out = a - 1 } else if (e === 2) { along = 1 - a; out = b - 1 } else { along = 1 - b; out = -a }
    const al = 1 - along, ou = -out
    if (f === 0) { walked[0] = al; walked[1] = -ou } else if (f === 1) { walked[0] = 1 + ou; walked[1] = al } else if (f === 2) { walked[0] = 1 - al; walked[1] = 1 + ou } else { walked[0] = -ou; walked[1] = 1 - al }
    q = nq
    a = walked[0]
    b = walked[1]
    // J = -(FROM_EDGE[f] TO_EDGE[e]) (entries 0 and +-1), then m = J m.
    const A0 = FROM_EDGE[4 * f], A1 = FROM_EDGE[4 * f + 1], A2 = FROM_EDGE[4 * f + 2], A3 = FROM_EDGE[4 * f + 3]
    const B0 = TO_EDGE[4 * e], B1 = TO_EDGE[4 * e + 1], B2 = TO_EDGE[4 * e + 2], B3 = TO_EDGE[4 * e + 3]
    const j00 = -(A0 * B0 + A1 * B2), j01 = -(A0 * B1 + A1 * B3)
    const j10 = -(A2 * B0 + A3 * B2), j11 = -(A2 * B1 + A3 * B3)
    const n00 = j00 * m0 + j01 * m2, n01 = j00 * m1 + j01 * m3
    const n10 = j10 * m0 + j11 * m2, n11 = j10 * m1 + j11 * m3
    m0 = n00; m1 = n01; m2 = n10; m3 = n11
  }
  if (clamp) {
    a = a < 0 ? 0 : a > 1 ? 1 : a
    b = b < 0 ? 0 : b > 1 ? 1 : b
  }
  at[0] = q; at[1] = a; at[2] = b; at[3] = m0; at[4] = m1; at[5] = m2; at[6] = m3
}

/** d(x1, x2)/d(along, out) of fromEdge and d(along, out)/d(x1, x2) of toEdge, row-major by edge (patchAtlas.ts FROM_EDGE, TO_EDGE). */
const FROM_EDGE = [1, 0, 0, -1, 0, 1, 1, 0, -1, 0, 0, 1, 0, -1, -1, 0]
const TO_EDGE = [1, 0, 0, -1, 0, 1, 1, 0, -1, 0, 0, 1, 0, -1, -1, 0]

const landing = new Float64Array(7)

/**
 * Component c (0: u^1, 1: u^2) at (x1, x2) of patch p, in p's frame, of the face velocities
 * (ux, uy, ghosts filled), the point outside p's square: walked into the patch holding it, both
 * components sampled there and turned back by the walk's Jacobian (SurfaceSampler.sampleVector).
 */
function walkedSample(ux: Float64Array, uy: Float64Array, N: number, neighbour: Int32Array, neighbourEdge: Int32Array, p: number, x1: number, x2: number, c: number): number {
  walkTo(neighbour, neighbourEdge, p, x1, x2, landing)
  const q = landing[0], a = landing[1], b = landing[2]
  const v1 = xFaceSample(ux, N, q, a, b), v2 = yFaceSample(uy, N, q, a, b)
  return c === 0 ? landing[3] * v1 + landing[5] * v2 : landing[4] * v1 + landing[6] * v2
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
