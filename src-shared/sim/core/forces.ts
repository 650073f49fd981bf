// Body forces on the MAC velocity, added with forward Euler (Carlson 2004, eq. 24's dt f).
//
// Buoyancy (Fedkiw, Stam, Jensen 2001, "Visual simulation of smoke", with their z-up
// written as Y up here):
//   f = (-alpha * rho_smoke + beta * (T - T_ambient)) * y_hat
// smoke density pulls down, heat lifts. It only has a y component, so it lives on v faces,
// each taking the mean of its two cells (a border face takes its one cell).
import { type BuoyancyParams } from './forceKernels'
import type { MacGrid } from './grid'
import { type KernelBackend, TS_KERNELS } from './kernelBackend'
import { ADD_UNIFORM_ACCELERATION } from './kernelRows'

export * from './forceKernels'

/** Buoyancy on the whole grid, by `kernels` (default TypeScript). */
export function addBuoyancy(
  vel: MacGrid,
  density: Float32Array | null,
  temperature: Float32Array | null,
  params: BuoyancyParams,
  dt: number,
  kernels: KernelBackend = TS_KERNELS,
): void {
  kernels.addBuoyancy(vel.v, density, temperature, params.alpha, params.beta, params.ambientTemperature, dt, vel.nx, vel.ny, vel.nz)
}

/**
 * vel += dt * (ax, ay, az) on every face (gravity on a liquid, a uniform wind), by `kernels`
 * (default TypeScript) split over cell planes.
 */
export function addUniformAcceleration(vel: MacGrid, ax: number, ay: number, az: number, dt: number, kernels: KernelBackend = TS_KERNELS): void {
  kernels.run(ADD_UNIFORM_ACCELERATION, vel.u, vel.v, vel.w, ax, ay, az, dt, vel.nx, vel.ny, vel.nz)
}
