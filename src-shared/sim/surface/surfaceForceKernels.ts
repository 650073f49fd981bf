// The surface flow's body forces (surfaceFluid.ts addForces, sec. 5) as a kernel row over
// patches (twin: wasm/assembly/surfaceForces.ts). At every real face, the world acceleration
//   gravity G times the summed density there (paint runs down), plus Coriolis
//   -2 Omega (axis . n)(n x u) for a surface turning about an axis,
// is made tangent, a^i = g^ij (a . d y / d x_j), the vorticity confinement (already
// contravariant, at the cells) added, and F^i += dt sqrt(g) a^i. Every sample point is a face
// of the patch itself, so no sample walks the atlas. The normal's length is sqrt(nx^2 + ny^2 +
// nz^2): JavaScript's three-argument Math.hypot has no bit-for-bit twin in WebAssembly.
import { f64, float, int, size, struct } from '../core/kernelTable'
import { patchRow } from './patchRow'
import { cellSample, xFaceSample, yFaceSample } from './surfaceAdvectKernels'

/** The face samples of the metric one axis needs (surfaceMetric.ts MetricSamples). */
export interface FaceMetric {
  sqrtG: Float64Array
  g11: Float64Array
  g12: Float64Array
  g22: Float64Array
  du: Float64Array
  dv: Float64Array
}

/**
 * Real face (i, j) of patch p among the x-faces (k = 1: i in 0..N, j in 0..N-1) or the y-faces
 * (k = 2: i in 0..N-1, j in 0..N): surfaceGrid.ts xFace and yFace written out for the rows.
 */
function realFace(k: number, p: number, i: number, j: number, N: number): number {
  return k === 1 ? p * (N + 3) * (N + 2) + i + 1 + (N + 3) * (j + 1) : p * (N + 2) * (N + 3) + i + 1 + (N + 2) * (j + 1)
}

/** The component along axis k of the covector (c1, c2) at face f raised by the metric: g^k1 c1 + g^k2 c2. */
function raised(S: FaceMetric, k: number, f: number, c1: number, c2: number): number {
  return k === 1 ? S.g11[f] * c1 + S.g12[f] * c2 : S.g12[f] * c1 + S.g22[f] * c2
}

/**
 * The forces on the real faces of patches [p0, p1). rho: summed density (cells, ghosts
 * filled), null without gravity; ux, uy: the face velocities (ghosts filled), null without
 * Coriolis; f1, f2: the confinement force (cells), null without it.
 */
export function surfaceForcesPatches(
  fx: Float64Array, fy: Float64Array, rho: Float64Array | null, ux: Float64Array | null, uy: Float64Array | null, f1: Float64Array | null, f2: Float64Array | null,
  X: FaceMetric, Y: FaceMetric, gx: number, gy: number, gz: number, axx: number, axy: number, axz: number, rate: number, dt: number, N: number, h: number, p0: number, p1: number,
): void {
  for (let p = p0; p < p1; p++) {
    for (let k = 1; k <= 2; k++) {
      const S = k === 1 ? X : Y
      const F = k === 1 ? fx : fy
      const iEnd = k === 1 ? N : N - 1, jEnd = k === 1 ? N - 1 : N
      for (let j = 0; j <= jEnd; j++) for (let i = 0; i <= iEnd; i++) {
        const f = realFace(k, p, i, j, N)
        const x1 = k === 1 ? i * h : (i + 0.5) * h, x2 = k === 1 ? (j + 0.5) * h : j * h
        const o = 3 * f
        const du0 = S.du[o], du1 = S.du[o + 1], du2 = S.du[o + 2], dv0 = S.dv[o], dv1 = S.dv[o + 1], dv2 = S.dv[o + 2]
        let ax = 0, ay = 0, az = 0
        if (rho !== null) {
          const r = cellSample(rho, N, p, x1, x2)
          ax += gx * r; ay += gy * r; az += gz * r
        }
        if (ux !== null && uy !== null) {
          // The sampler's vector at a point of the patch itself: the identity transition.
          const a1 = xFaceSample(ux, N, p, x1, x2), a2 = yFaceSample(uy, N, p, x1, x2)
          const v0 = 1 * a1 + 0 * a2, v1 = 0 * a1 + 1 * a2
          const wx = v0 * du0 + v1 * dv0, wy = v0 * du1 + v1 * dv1, wz = v0 * du2 + v1 * dv2
          let nx = du1 * dv2 - du2 * dv1, ny = du2 * dv0 - du0 * dv2, nz = du0 * dv1 - du1 * dv0
          const len = Math.sqrt(nx * nx + ny * ny + nz * nz)
          if (len > 0) {
            nx /= len; ny /= len; nz /= len
            const s = -2 * rate * (axx * nx + axy * ny + axz * nz)
            ax += s * (ny * wz - nz * wy); ay += s * (nz * wx - nx * wz); az += s * (nx * wy - ny * wx)
          }
        }
        const c1 = ax * du0 + ay * du1 + az * du2, c2 = ax * dv0 + ay * dv1 + az * dv2
        let a = raised(S, k, f, c1, c2)
        if (f1 !== null && f2 !== null) a += cellSample(k === 1 ? f1 : f2, N, p, x1, x2)
        F[f] += dt * S.sqrtG[f] * a
      }
    }
  }
}

/**
 * Gravity alone, in two rows (SurfaceFluid takes them when neither Coriolis nor the confinement
 * is on). A face's tangent acceleration per unit density, k^i = sqrt(g) g^ij (G . d y / d x_j),
 * depends on the metric and G only, so it is formed once per G into kx (x-faces) and ky
 * (y-faces); a step then reads the summed density at the face, k and F instead of the face's
 * ten metric numbers: F^i += dt rho k^i. The same forces as surfaceForcesPatches to rounding
 * (its product r G is dotted with the tangents where this dots G and scales by r).
 */
export function surfaceGravityCoefPatches(X: FaceMetric, Y: FaceMetric, gx: number, gy: number, gz: number, kx: Float64Array, ky: Float64Array, N: number, p0: number, p1: number): void {
  for (let p = p0; p < p1; p++) {
    for (let k = 1; k <= 2; k++) {
      const S = k === 1 ? X : Y
      const K = k === 1 ? kx : ky
      const iEnd = k === 1 ? N : N - 1, jEnd = k === 1 ? N - 1 : N
      for (let j = 0; j <= jEnd; j++) for (let i = 0; i <= iEnd; i++) {
        const f = realFace(k, p, i, j, N)
        const o = 3 * f
        const c1 = gx * S.du[o] + gy * S.du[o + 1] + gz * S.du[o + 2], c2 = gx * S.dv[o] + gy * S.dv[o + 1] + gz * S.dv[o + 2]
        K[f] = S.sqrtG[f] * raised(S, k, f, c1, c2)
      }
    }
  }
}

/**
 * F^i += dt rho k^i on the real faces of patches [p0, p1), rho the summed density at the face:
 * the mean of the two cells beside it (ghosts filled), 0.5 (a + b), the bilinear sample there
 * (surfaceSampling.ts cellValue, whose weights 1/2, 1/2, 0, 0 come out of x = i h rounded, so
 * it agrees to rounding) without the other two cells' loads.
 */
export function surfaceGravityPatches(fx: Float64Array, fy: Float64Array, rho: Float64Array, kx: Float64Array, ky: Float64Array, dt: number, N: number, p0: number, p1: number): void {
  const rowX = N + 3, rowC = N + 2
  for (let p = p0; p < p1; p++) {
    for (let j = 0; j < N; j++) {
      // x-face i lies between cells i - 1 and i of row j.
      const f0 = p * rowX * rowC + 1 + rowX * (j + 1), c0 = p * rowC * rowC + 1 + rowC * (j + 1)
      for (let i = 0; i <= N; i++) fx[f0 + i] += dt * (0.5 * (rho[c0 + i - 1] + rho[c0 + i])) * kx[f0 + i]
    }
    for (let j = 0; j <= N; j++) {
      // y-face j lies between cells j - 1 and j of column i.
      const f0 = p * rowC * rowX + 1 + rowC * (j + 1), c0 = p * rowC * rowC + 1 + rowC * (j + 1)
      for (let i = 0; i < N; i++) fy[f0 + i] += dt * (0.5 * (rho[c0 + i - rowC] + rho[c0 + i])) * ky[f0 + i]
    }
  }
}

const faceMetric = { sqrtG: 'f64', g11: 'f64', g12: 'f64', g22: 'f64', du: 'f64', dv: 'f64' } as const

export const SURFACE_FORCES = patchRow('surfaceForces', [
    f64('fx'), f64('fy'), f64('rho', true), f64('ux', true), f64('uy', true), f64('f1', true), f64('f2', true),
    struct('X', faceMetric), struct('Y', faceMetric),
    float('gx'), float('gy'), float('gz'), float('axx'), float('axy'), float('axz'), float('rate'), float('dt'), int('N'), float('h'), size('patches'),
  ], 2, surfaceForcesPatches)

export const SURFACE_GRAVITY_COEF = patchRow('surfaceGravityCoef', [
    struct('X', faceMetric), struct('Y', faceMetric), float('gx'), float('gy'), float('gz'), f64('kx'), f64('ky'), int('N'), size('patches'),
  ], 2, surfaceGravityCoefPatches)

export const SURFACE_GRAVITY = patchRow('surfaceGravity', [
    f64('fx'), f64('fy'), f64('rho'), f64('kx'), f64('ky'), float('dt'), int('N'), size('patches'),
  ], 2, surfaceGravityPatches)
