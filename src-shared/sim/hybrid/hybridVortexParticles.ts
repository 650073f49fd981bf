// Vortex particles (Selle, Rasmussen, Fedkiw 2005) on the hybrid mesh: the smoke family's
// particle method (smoke/vortexKernels.ts) with the MAC lattice replaced by the mesh's cells.
// The particles themselves (storage, kernels) are the shared core/vortexParticles.ts.
//
// - Force (Selle 2005, sec. 5, regularised exactly as particleForceSlab):
//     F(x) = sum_p confinement xi_0 (1 - d^2/r_p^2)^2 ((x_p - x) x omega_p),  xi_0 = 1/(r^3 (2 pi)^(3/2)),
//   the curl of eps_p xi_p omega_p with eps_p = confinement r_p^2 / 6: divergence free, zero net
//   momentum, curl 2 confinement xi_0 omega_p at x_p. The grid evaluates it at each face centre;
//   here it is evaluated at cell centres into per-cell forces, which eq. 5 of seed 000 (section
//   3.2, addCellForcesToFaces in hybridForces.ts) volume-averages onto the faces. The cells are
//   found through a bin per grid cube of the cells whose centre lies in it (HybridCellBins), so
//   a particle touches only the cells of its support's bounding cubes, in a fixed order
//   (deterministic: each cell sums its particles in particle order).
// - Saturation (Selle 2005, sec. 5, "reduce the strength of the particle based force as the grid
//   based vorticity approaches the particle's vorticity"): SmokeSolver.particleSaturation, with
//   the vorticity of the particle's cell (hybridVorticity.ts) for the grid's trilinear one.
// - Advection (sec. 4, the (u . grad) omega term of eq. 3): RK2 midpoint with a velocity
//   callback (the mesh's interpolation, section 3.5). The grid smoke reads the kernel-weighted
//   mean velocity over the particle's support instead of the point value, so that a lone
//   particle does not read its own swirl (kernelMeanVelocity); kernelMeanCellVelocity is that
//   mean over the mesh's cells (volume-weighted: the cells differ in size), for a callback that
//   wants the same behaviour.
// - Stretching (sec. 4, the (omega . grad) u term): omega += dt (omega . grad) u with the
//   velocity gradient of the particle's cell, then rescaled to its old length (the paper's
//   reasoning, as stretchParticles: the term only turns omega).
import { EddyError } from '../../api/errors'
import { INV_2PI_32, selleKernel, type VortexParticles } from '../core/vortexParticles'
import type { HybridMesh } from './hybridMesh'

/** The cell containing a point, or -1 outside the fluid (beyond the domain or in an obstacle). */
export type CellAt = (x: number, y: number, z: number) => number
/** Velocity at a point into out[0..2] (m/s); p is the particle being moved. */
export type VelocityAt = (x: number, y: number, z: number, out: Float64Array, p: number) => void

/** Cells binned by the grid cube their centre lies in (CSR over nx ny nz cubes, x fastest). */
export class HybridCellBins {
  readonly start: Int32Array
  readonly cells: Int32Array
  /** Scratch: the cube box of the current query (i0, i1, j0, j1, k0, k1). */
  readonly box = new Int32Array(6)

  constructor(readonly mesh: HybridMesh) {
    const { nx, ny, nz } = mesh.grid
    const n = mesh.cellCount
    const cube = new Int32Array(n)
    const start = new Int32Array(nx * ny * nz + 1)
    for (let c = 0; c < n; c++) {
      cube[c] = this.cubeOf(mesh.cellCentre[3 * c], mesh.cellCentre[3 * c + 1], mesh.cellCentre[3 * c + 2])
      start[cube[c] + 1]++
    }
    for (let b = 0; b < nx * ny * nz; b++) start[b + 1] += start[b]
    const fill = start.slice(0, nx * ny * nz)
    const cells = new Int32Array(n)
    for (let c = 0; c < n; c++) cells[fill[cube[c]]++] = c // increasing within a bin
    this.start = start
    this.cells = cells
  }

  private cubeOf(x: number, y: number, z: number): number {
    const { nx, ny, nz, dx, origin } = this.mesh.grid
    const i = Math.min(Math.max(Math.floor((x - origin[0]) / dx), 0), nx - 1)
    const j = Math.min(Math.max(Math.floor((y - origin[1]) / dx), 0), ny - 1)
    const k = Math.min(Math.max(Math.floor((z - origin[2]) / dx), 0), nz - 1)
    return i + nx * (j + ny * k)
  }
}

/** Cube range [lo, hi] along one axis of the ball centre x, radius r (empty for NaN). */
function cubeRange(x: number, r: number, o: number, h: number, n: number, out: Int32Array, at: number): void {
  out[at] = Math.max(0, Math.floor((x - r - o) / h))
  out[at + 1] = Math.min(n - 1, Math.floor((x + r - o) / h))
  if (!(out[at] <= out[at + 1])) { out[at] = 0; out[at + 1] = -1 }
}

/**
 * Adds the particles' confinement force (m/s^2, see the file comment) at every cell centre
 * within r_p of a particle to fx, fy, fz (per cell). wx, wy, wz: the omega_p the force uses
 * (P.wx.. as they are, or P.fx.. after particleSaturation). confinement in 1/s.
 */
export function addParticleForcesToCells(
  bins: HybridCellBins,
  P: VortexParticles,
  wx: Float64Array,
  wy: Float64Array,
  wz: Float64Array,
  confinement: number,
  fx: Float64Array,
  fy: Float64Array,
  fz: Float64Array,
): void {
  if (!(Number.isFinite(confinement) && confinement >= 0)) throw new EddyError('INVALID_PARAM', `hybrid vortex particles: the confinement must be a finite number >= 0 per second (got ${confinement})`)
  const mesh = bins.mesh
  const n = mesh.cellCount
  if (fx.length < n || fy.length < n || fz.length < n) throw new EddyError('INVALID_PARAM', `hybrid vortex particles: the force arrays need ${n} cells`)
  if (wx.length < P.count || wy.length < P.count || wz.length < P.count) throw new EddyError('INVALID_PARAM', `hybrid vortex particles: the vorticity arrays need ${P.count} particles`)
  if (confinement === 0) return
  const { nx, ny, nz, dx: h, origin } = mesh.grid
  const { start, cells, box: range } = bins
  const centre = mesh.cellCentre
  for (let p = 0; p < P.count; p++) {
    const r = P.r[p]
    if (!(r > 0)) continue
    const X = P.px[p], Y = P.py[p], Z = P.pz[p]
    const ax = wx[p], ay = wy[p], az = wz[p]
    const r2 = r * r, inv = 1 / r2
    const g = (confinement * INV_2PI_32) / (r * r * r) // confinement xi_0
    cubeRange(X, r, origin[0], h, nx, range, 0)
    cubeRange(Y, r, origin[1], h, ny, range, 2)
    cubeRange(Z, r, origin[2], h, nz, range, 4)
    for (let k = range[4]; k <= range[5]; k++) for (let j = range[2]; j <= range[3]; j++) {
      const row = nx * (j + ny * k)
      for (let i = range[0]; i <= range[1]; i++) {
        for (let q = start[row + i]; q < start[row + i + 1]; q++) {
          const c = cells[q]
          const dX = X - centre[3 * c], dY = Y - centre[3 * c + 1], dZ = Z - centre[3 * c + 2] // x_p - x
          const d2 = dX * dX + dY * dY + dZ * dZ
          if (!(d2 < r2)) continue
          const t = 1 - d2 * inv
          const s = g * t * t
          fx[c] += s * (dY * az - dZ * ay)
          fy[c] += s * (dZ * ax - dX * az)
          fz[c] += s * (dX * ay - dY * ax)
        }
      }
    }
  }
}

/**
 * The velocity of a particle's vorticity distribution (smoke's kernelMeanVelocity on cells):
 *   U = sum_c V_c psi(|x_c - x|) u_c / sum_c V_c psi(|x_c - x|),   psi(d) = (1 - d^2/R^2)^3,
 * over the cells whose centre is within R of x (R in m; the smoke uses max(r_p, 2 dx)).
 * cellVelocity: xyz per cell. Writes out and returns true, or false (out untouched) when no cell
 * centre is within R.
 */
export function kernelMeanCellVelocity(bins: HybridCellBins, cellVelocity: Float64Array, x: number, y: number, z: number, R: number, out: Float64Array): boolean {
  const mesh = bins.mesh
  const { nx, ny, nz, dx: h, origin } = mesh.grid
  const { start, cells, box: range } = bins
  const centre = mesh.cellCentre, vol = mesh.cellVolume
  const R2 = R * R, inv = 1 / R2
  cubeRange(x, R, origin[0], h, nx, range, 0)
  cubeRange(y, R, origin[1], h, ny, range, 2)
  cubeRange(z, R, origin[2], h, nz, range, 4)
  let sw = 0, su = 0, sv = 0, sz = 0
  for (let k = range[4]; k <= range[5]; k++) for (let j = range[2]; j <= range[3]; j++) {
    const row = nx * (j + ny * k)
    for (let i = range[0]; i <= range[1]; i++) {
      for (let q = start[row + i]; q < start[row + i + 1]; q++) {
        const c = cells[q]
        const dX = x - centre[3 * c], dY = y - centre[3 * c + 1], dZ = z - centre[3 * c + 2]
        const d2 = dX * dX + dY * dY + dZ * dZ
        if (!(d2 < R2)) continue
        const t = 1 - d2 * inv
        const w = vol[c] * t * t * t
        sw += w
        su += w * cellVelocity[3 * c]
        sv += w * cellVelocity[3 * c + 1]
        sz += w * cellVelocity[3 * c + 2]
      }
    }
  }
  if (!(sw > 0)) return false
  out[0] = su / sw
  out[1] = sv / sw
  out[2] = sz / sw
  return true
}

/**
 * P.f = omega_p max(0, 1 - (omega_cell . omega^_p) / |omega~_p(x_p)|) (SmokeSolver.particleSaturation:
 * full force in still air, none once the fluid spins about omega_p as fast as the particle's
 * peak vorticity xi_0 |omega_p|). omega: vorticity per cell (xyz, HybridVorticity.omega). A
 * particle outside the fluid (cellAt -1) gets no force.
 */
export function particleSaturation(P: VortexParticles, omega: Float64Array, cellAt: CellAt): void {
  for (let p = 0; p < P.count; p++) {
    const a = P.wx[p], b = P.wy[p], c = P.wz[p]
    const len = Math.sqrt(a * a + b * b + c * c)
    const peak = selleKernel(0, P.r[p]) * len // |omega~_p(x_p)|, 1/s
    let f = 0
    const cell = cellAt(P.px[p], P.py[p], P.pz[p])
    if (peak > 0 && cell >= 0) {
      const along = (omega[3 * cell] * a + omega[3 * cell + 1] * b + omega[3 * cell + 2] * c) / len
      f = 1 - along / peak
      f = f > 1 ? 1 : f > 0 ? f : 0 // also NaN -> 0
    }
    P.fx[p] = f * a
    P.fy[p] = f * b
    P.fz[p] = f * c
  }
}

/** Moves particles [p0, p1) by RK2 midpoint with velocityAt (Selle 2005, sec. 4). vel: 3 doubles of scratch. */
export function advectHybridParticles(P: VortexParticles, dt: number, velocityAt: VelocityAt, vel: Float64Array, p0 = 0, p1 = P.count): void {
  if (!(Number.isFinite(dt) && dt >= 0)) throw new EddyError('INVALID_PARAM', `hybrid vortex particles: the time step must be a finite number of seconds >= 0 (got ${dt})`)
  for (let p = p0; p < p1; p++) {
    const x = P.px[p], y = P.py[p], z = P.pz[p]
    velocityAt(x, y, z, vel, p)
    velocityAt(x + 0.5 * dt * vel[0], y + 0.5 * dt * vel[1], z + 0.5 * dt * vel[2], vel, p)
    P.px[p] = x + dt * vel[0]
    P.py[p] = y + dt * vel[1]
    P.pz[p] = z + dt * vel[2]
  }
}

/**
 * Vortex stretching on particles [p0, p1) (Selle 2005, sec. 4): omega += dt (omega . grad) u
 * with the gradient (9 per cell, du_r/dx_q at 9c + 3r + q: HybridVorticity.gradient) of the
 * particle's cell, rescaled to the old |omega|. Particles outside the fluid are left alone.
 */
export function stretchHybridParticles(P: VortexParticles, dt: number, gradient: Float64Array, cellAt: CellAt, p0 = 0, p1 = P.count): void {
  for (let p = p0; p < p1; p++) {
    const a = P.wx[p], b = P.wy[p], c = P.wz[p]
    const len = Math.sqrt(a * a + b * b + c * c)
    if (len === 0) continue
    const cell = cellAt(P.px[p], P.py[p], P.pz[p])
    if (cell < 0) continue
    const g = 9 * cell
    const na = a + dt * (gradient[g] * a + gradient[g + 1] * b + gradient[g + 2] * c)
    const nb = b + dt * (gradient[g + 3] * a + gradient[g + 4] * b + gradient[g + 5] * c)
    const nc = c + dt * (gradient[g + 6] * a + gradient[g + 7] * b + gradient[g + 8] * c)
    const nlen = Math.sqrt(na * na + nb * nb + nc * nc)
    if (!(nlen > 0) || !Number.isFinite(nlen)) continue
    const k = len / nlen
    P.wx[p] = na * k
    P.wy[p] = nb * k
    P.wz[p] = nc * k
  }
}

/**
 * Marks (P.dead[p] = 1) particles [p0, p1) outside the fluid, beyond the domain or inside an
 * obstacle (cellAt -1; Selle 2005, sec. 4: particles that enter solid geometry are deleted).
 * Returns how many; P.compact() removes them.
 */
export function markLostHybridParticles(P: VortexParticles, cellAt: CellAt, p0 = 0, p1 = P.count): number {
  let n = 0
  for (let p = p0; p < p1; p++) {
    const x = P.px[p], y = P.py[p], z = P.pz[p]
    if (!(Number.isFinite(x) && Number.isFinite(y) && Number.isFinite(z)) || cellAt(x, y, z) < 0) {
      P.dead[p] = 1
      n++
    }
  }
  return n
}
