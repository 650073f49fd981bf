// What a vortex particle's force must add, derived from its law (not from the solver), and
// the grid measurement to compare it with.
//
// The force (Selle 2005, sec. 5, regularised; vortexKernels.ts particleForceSlab) is
//   F = eps_p grad xi_p x omega_p,  eps_p = c r^2 / 6,  xi_p(d) = xi_0 (1 - d^2/r^2)^3,
// c the confinement (1/s), xi_0 |omega_p| = Omega the particle's peak vorticity. In the plane
// through the particle normal to omega_p, F is a swirl of speed eps_p |xi_p'(s)| |omega_p| at
// distance s, so one step h adds around the circle of radius s the circulation
//   Gamma(s) = h 2 pi s eps_p |xi_p'(s)| |omega_p| = h pi c Omega r^2 q (1 - q)^2,  q = s^2 / r^2.
// Its largest value, at q = 1/3 where the added vorticity changes sign (the core), is
//   Gamma* = h (4 pi / 27) 2 c Omega r^2 = h (8 pi / 27) c Omega r^2,
// which equals the positive part of the added vorticity's flux through that plane.
import type { SmokeSolver } from '../../../src-shared/sim/smoke/smokeSolver'

export function expectedCoreCirculation(h: number, confinement: number, peak: number, r: number): number {
  return ((h * 8 * Math.PI) / 27) * confinement * peak * r * r
}

/**
 * Flux of max(0, sign * omega_a) through the cell-centre plane (normal to axis a) that
 * contains `coord`, with omega_a the MAC grid's discrete curl on the edges of that plane: the
 * circulation around the particle's core when the particle lies in the plane, spin along
 * sign * e_a. m^2/s.
 */
export function coreCirculation(solver: SmokeSolver, a: number, coord: number, sign: 1 | -1): number {
  const { nx, ny, nz, dx, origin } = solver.setup.grid
  const vel = solver.velocity
  const { u, v, w } = vel
  const plane = Math.floor((coord - origin[a]) / dx)
  let sum = 0
  const add = (curl: number) => {
    const c = (sign * curl) / dx
    if (c > 0) sum += c * dx * dx
  }
  if (a === 2) {
    const k = plane
    for (let j = 1; j < ny; j++) for (let i = 1; i < nx; i++) add(v[vel.vIndex(i, j, k)] - v[vel.vIndex(i - 1, j, k)] - (u[vel.uIndex(i, j, k)] - u[vel.uIndex(i, j - 1, k)]))
  } else if (a === 0) {
    const i = plane
    for (let k = 1; k < nz; k++) for (let j = 1; j < ny; j++) add(w[vel.wIndex(i, j, k)] - w[vel.wIndex(i, j - 1, k)] - (v[vel.vIndex(i, j, k)] - v[vel.vIndex(i, j, k - 1)]))
  } else {
    const j = plane
    for (let k = 1; k < nz; k++) for (let i = 1; i < nx; i++) add(u[vel.uIndex(i, j, k)] - u[vel.uIndex(i, j, k - 1)] - (w[vel.wIndex(i, j, k)] - w[vel.wIndex(i - 1, j, k)]))
  }
  return sum
}
