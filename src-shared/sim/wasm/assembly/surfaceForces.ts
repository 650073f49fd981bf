// Twin of src-shared/sim/surface/surfaceForceKernels.ts: gravity by density, Coriolis and
// vorticity confinement on a surface flow's real faces, patch by patch.
import { rf64, wf64 } from './common'
import { cellSample, xFaceSample, yFaceSample } from './surfaceSamples'

/** surfaceForceKernels.ts realFace: real face (i, j) of patch p among the x-faces (k = 1) or y-faces (k = 2). */
@inline function realFace(k: i32, p: i32, i: i32, j: i32, N: i32): i32 {
  return k == 1 ? p * (N + 3) * (N + 2) + i + 1 + (N + 3) * (j + 1) : p * (N + 2) * (N + 3) + i + 1 + (N + 2) * (j + 1)
}

/** surfaceForceKernels.ts raised: g^k1 c1 + g^k2 c2 at face f. */
@inline function raised(g11: usize, g12: usize, g22: usize, k: i32, f: i32, c1: f64, c2: f64): f64 {
  return k == 1 ? rf64(g11, f) * c1 + rf64(g12, f) * c2 : rf64(g12, f) * c1 + rf64(g22, f) * c2
}

/** surfaceForcesPatches over patches [p0, p1); X and Y: sqrtG, g11, g12, g22, du, dv of the x- and y-faces. */
export function surfaceForces(
  fx: usize, fy: usize, rho: usize, ux: usize, uy: usize, f1: usize, f2: usize,
  xs: usize, x11: usize, x12: usize, x22: usize, xdu: usize, xdv: usize,
  ys: usize, y11: usize, y12: usize, y22: usize, ydu: usize, ydv: usize,
  gx: f64, gy: f64, gz: f64, axx: f64, axy: f64, axz: f64, rate: f64, dt: f64, N: i32, h: f64, p0: i32, p1: i32,
): void {
  for (let p = p0; p < p1; p++) {
    for (let k = 1; k <= 2; k++) {
      const sG = k == 1 ? xs : ys, g11 = k == 1 ? x11 : y11, g12 = k == 1 ? x12 : y12, g22 = k == 1 ? x22 : y22
      const du = k == 1 ? xdu : ydu, dv = k == 1 ? xdv : ydv
      const F = k == 1 ? fx : fy
      const iEnd = k == 1 ? N : N - 1, jEnd = k == 1 ? N - 1 : N
      for (let j = 0; j <= jEnd; j++) for (let i = 0; i <= iEnd; i++) {
        const f = realFace(k, p, i, j, N)
        const x1 = k == 1 ? <f64>i * h : (<f64>i + 0.5) * h, x2 = k == 1 ? (<f64>j + 0.5) * h : <f64>j * h
        const o = 3 * f
        const du0 = rf64(du, o), du1 = rf64(du, o + 1), du2 = rf64(du, o + 2), dv0 = rf64(dv, o), dv1 = rf64(dv, o + 1), dv2 = rf64(dv, o + 2)
        let ax: f64 = 0, ay: f64 = 0, az: f64 = 0
        if (rho != 0) {
          const r = cellSample(rho, N, p, x1, x2)
          ax += gx * r; ay += gy * r; az += gz * r
        }
        if (ux != 0 && uy != 0) {
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
        let a = raised(g11, g12, g22, k, f, c1, c2)
        if (f1 != 0 && f2 != 0) a += cellSample(k == 1 ? f1 : f2, N, p, x1, x2)
        wf64(F, f, rf64(F, f) + dt * rf64(sG, f) * a)
      }
    }
  }
}

/** surfaceGravityCoefPatches over patches [p0, p1) (X and Y as surfaceForces'). */
export function surfaceGravityCoef(
  xs: usize, x11: usize, x12: usize, x22: usize, xdu: usize, xdv: usize,
  ys: usize, y11: usize, y12: usize, y22: usize, ydu: usize, ydv: usize,
  gx: f64, gy: f64, gz: f64, kx: usize, ky: usize, N: i32, p0: i32, p1: i32,
): void {
  for (let p = p0; p < p1; p++) {
    for (let k = 1; k <= 2; k++) {
      const sG = k == 1 ? xs : ys, g11 = k == 1 ? x11 : y11, g12 = k == 1 ? x12 : y12, g22 = k == 1 ? x22 : y22
      const du = k == 1 ? xdu : ydu, dv = k == 1 ? xdv : ydv
      const K = k == 1 ? kx : ky
      const iEnd = k == 1 ? N : N - 1, jEnd = k == 1 ? N - 1 : N
      for (let j = 0; j <= jEnd; j++) for (let i = 0; i <= iEnd; i++) {
        const f = realFace(k, p, i, j, N)
        const o = 3 * f
        const c1 = gx * rf64(du, o) + gy * rf64(du, o + 1) + gz * rf64(du, o + 2), c2 = gx * rf64(dv, o) + gy * rf64(dv, o + 1) + gz * rf64(dv, o + 2)
        wf64(K, f, rf64(sG, f) * raised(g11, g12, g22, k, f, c1, c2))
      }
    }
  }
}

/** surfaceGravityPatches over patches [p0, p1). */
export function surfaceGravity(fx: usize, fy: usize, rho: usize, kx: usize, ky: usize, dt: f64, N: i32, p0: i32, p1: i32): void {
  const rowX = N + 3, rowC = N + 2
  for (let p = p0; p < p1; p++) {
    for (let j = 0; j < N; j++) {
      const f0 = p * rowX * rowC + 1 + rowX * (j + 1), c0 = p * rowC * rowC + 1 + rowC * (j + 1)
      for (let i = 0; i <= N; i++) wf64(fx, f0 + i, rf64(fx, f0 + i) + dt * (0.5 * (rf64(rho, c0 + i - 1) + rf64(rho, c0 + i))) * rf64(kx, f0 + i))
    }
    for (let j = 0; j <= N; j++) {
      const f0 = p * rowC * rowX + 1 + rowC * (j + 1), c0 = p * rowC * rowC + 1 + rowC * (j + 1)
      for (let i = 0; i < N; i++) wf64(fy, f0 + i, rf64(fy, f0 + i) + dt * (0.5 * (rf64(rho, c0 + i - rowC) + rf64(rho, c0 + i))) * rf64(ky, f0 + i))
    }
  }
}
