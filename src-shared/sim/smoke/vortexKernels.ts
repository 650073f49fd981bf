// Kernels of the vortex particle method (Selle, Rasmussen, Fedkiw 2005), over the flat
// arrays of VortexParticles and a MAC velocity (grid.ts layout). Grid kernels take cell
// planes [k0, k1) and loop over all particles, touching only that slab, so a worker split
// changes nothing: every face sums its particles in particle order. Particle kernels take a
// particle range [p0, p1).
import { lerp3, velocityAtGridCoord } from '../core/interpolate'
import { installKernelMethods } from '../core/kernelBackend'
import { defineKernel, f32, f64, float, GRID_PLACEMENT, int, type KernelArgs, ptr, size } from '../core/kernelTable'
import type { KernelBackend } from '../core/kernelTypes'
import { INV_2PI_32, selleKernel } from '../core/vortexParticles'

// The distribution kernels moved to core/vortexParticles.ts (shared with the hybrid gas);
// re-exported for existing importers.
export { PARTICLE_KERNEL_MASS, particleKernel, SELLE_KERNEL_MASS, selleKernel } from '../core/vortexParticles'

/**
 * Adds dt * F to the faces of cell planes [k0, k1) (w plane nz too when k1 = nz), the vortex
 * particles' confinement force (Selle 2005, sec. 5), regularised:
 *   F(x) = sum_p eps_p grad xi_p(x - x_p) x omega_p,   eps_p = confinement r_p^2 / 6 (m^2/s)
 *        = sum_p confinement xi_0 (1 - d^2/r_p^2)^2 ((x_p - x) x omega_p),   d = |x - x_p|.
 * Selle's force is F_p = eps (N_p x omega~_p) with N_p = grad|omega~_p| / |grad|omega~_p|| =
 * (x_p - x) / |x_p - x|; since grad xi_p = |grad xi_p| N_p for a radially decreasing kernel,
 * this is Selle's force (same direction everywhere) with eps = eps_p |grad xi_p| / xi_p =
 * confinement d / (1 - d^2/r^2): confinement times the distance near the particle (the old
 * eps = confinement * dx one cell away), and 0 at the centre, where N_p is undefined. So the
 * force is smooth in x and in x_p (no face sees a jump when the particle moves), and it is the
 * curl of eps_p xi_p omega_p: divergence free with zero net momentum, it spins the fluid about
 * omega_p without pushing it (a lone particle does not drive itself).
 * Amounts (continuum, for omega_p normal to the plane through x_p): curl F at x_p is
 * 2 confinement xi_0 omega_p, and the circulation F adds per second around the circle of
 * radius s is 2 pi s eps_p |xi_p'(s)| |omega_p|, largest (the core, where the added vorticity
 * changes sign) at s = r / sqrt 3: (8 pi / 27) confinement xi_0 |omega_p| r^2. None depends on the
 * grid. Each component is evaluated at its own face centre; confinement in 1/s.
 */
export function particleForceSlab(
  u: Float32Array,
  v: Float32Array,
  w: Float32Array,
  px: Float64Array,
  py: Float64Array,
  pz: Float64Array,
  wx: Float64Array,
  wy: Float64Array,
  wz: Float64Array,
  pr: Float64Array,
  count: number,
  confinement: number,
  dt: number,
  nx: number,
  ny: number,
  nz: number,
  dx: number,
  ox: number,
  oy: number,
  oz: number,
  k0: number,
  k1: number,
): void {
  const scale = confinement * dt
  if (scale === 0) return
  for (let p = 0; p < count; p++) {
    const r = pr[p]
    const X = (px[p] - ox) / dx
    const Y = (py[p] - oy) / dx
    const Z = (pz[p] - oz) / dx
    const R = r / dx
    const ax = wx[p]
    const ay = wy[p]
    const az = wz[p]
    const r2 = r * r
    const inv = 1 / r2
    // dt confinement xi_0: eps_p 6 xi_0 / r^2 with eps_p = confinement r^2 / 6.
    const g = scale * (INV_2PI_32 / (r * r * r))
    for (let axis = 0; axis < 3; axis++) {
      // Face lattice of this component: offsets of its samples from integer grid coordinates.
      const fx = axis === 0 ? 0 : 0.5
      const fy = axis === 1 ? 0 : 0.5
      const fz = axis === 2 ? 0 : 0.5
      const sx = axis === 0 ? nx + 1 : nx
      const sy = axis === 1 ? ny + 1 : ny
      const kTop = axis === 2 && k1 === nz ? nz + 1 : k1
      const f = axis === 0 ? u : axis === 1 ? v : w
      const i0 = Math.max(0, Math.ceil(X - R - fx))
      const i1 = Math.min(sx - 1, Math.floor(X + R - fx))
      const j0 = Math.max(0, Math.ceil(Y - R - fy))
      const j1 = Math.min(sy - 1, Math.floor(Y + R - fy))
      const ka = Math.max(k0, Math.ceil(Z - R - fz))
      const kb = Math.min(kTop - 1, Math.floor(Z + R - fz))
      for (let k = ka; k <= kb; k++) {
        const dz = (Z - (k + fz)) * dx // x_p - x
        for (let j = j0; j <= j1; j++) {
          const dy = (Y - (j + fy)) * dx
          const row = sx * (j + sy * k)
          for (let i = i0; i <= i1; i++) {
            const ddx = (X - (i + fx)) * dx
            const d2 = ddx * ddx + dy * dy + dz * dz
            if (!(d2 < r2)) continue
            const t = 1 - d2 * inv
            const s = g * t * t
            // Component `axis` of (x_p - x) x omega_p.
            const c = axis === 0 ? dy * az - dz * ay : axis === 1 ? dz * ax - ddx * az : ddx * ay - dy * ax
            f[row + i] += s * c
          }
        }
      }
    }
  }
}

/**
 * The paper's simpler coupling (Selle 2005, sec. 5): particle vorticity magnitudes, carried to
 * the grid with a tent kernel, set a spatially varying confinement strength. For cell planes
 * [k0, k1):
 *   eps[c] += weight * sum_p max(0, 1 - |x_c - x_p| / r_p) * |omega~_p(x_p)|
 * with |omega~_p(x_p)| = xi_p(0) |omega_p| the particle's peak vorticity (1/s) and `weight` in
 * seconds, so eps stays the confinement strength of Fedkiw's f = eps h (N x omega).
 */
export function particleStrengthSlab(
  eps: Float32Array,
  px: Float64Array,
  py: Float64Array,
  pz: Float64Array,
  wx: Float64Array,
  wy: Float64Array,
  wz: Float64Array,
  pr: Float64Array,
  count: number,
  weight: number,
  nx: number,
  ny: number,
  dx: number,
  ox: number,
  oy: number,
  oz: number,
  k0: number,
  k1: number,
): void {
  if (weight === 0) return
  for (let p = 0; p < count; p++) {
    const r = pr[p]
    const peak = weight * selleKernel(0, r) * Math.sqrt(wx[p] * wx[p] + wy[p] * wy[p] + wz[p] * wz[p])
    if (peak === 0) continue
    const X = (px[p] - ox) / dx - 0.5 // cell-centre lattice coordinates
    const Y = (py[p] - oy) / dx - 0.5
    const Z = (pz[p] - oz) / dx - 0.5
    const R = r / dx
    const i0 = Math.max(0, Math.ceil(X - R))
    const i1 = Math.min(nx - 1, Math.floor(X + R))
    const j0 = Math.max(0, Math.ceil(Y - R))
    const j1 = Math.min(ny - 1, Math.floor(Y + R))
    const ka = Math.max(k0, Math.ceil(Z - R))
    const kb = Math.min(k1 - 1, Math.floor(Z + R))
    for (let k = ka; k <= kb; k++) {
      const dz = k - Z
      for (let j = j0; j <= j1; j++) {
        const dy = j - Y
        const row = nx * (j + ny * k)
        for (let i = i0; i <= i1; i++) {
          const ddx = i - X
          const t = 1 - Math.sqrt(ddx * ddx + dy * dy + dz * dz) / R
          if (t > 0) eps[row + i] += peak * t
        }
      }
    }
  }
}

/** Cell-centred velocity components: the mean of the cell's two faces (Carlson 2004, eq. 6). */
function uMean(u: Float32Array, sx: number, ny: number, i: number, j: number, k: number): number {
  const f = i + sx * (j + ny * k)
  return 0.5 * (u[f] + u[f + 1])
}
function vMean(v: Float32Array, nx: number, vy: number, i: number, j: number, k: number): number {
  const f = i + nx * (j + vy * k)
  return 0.5 * (v[f] + v[f + nx])
}
function wMean(w: Float32Array, nx: number, plane: number, i: number, j: number, k: number): number {
  const f = i + nx * j + plane * k
  return 0.5 * (w[f] + w[f + plane])
}

/**
 * Velocity gradient at the centre of cell (i, j, k) by central differences into
 * g[o..o+8] = du/dx du/dy du/dz dv/dx dv/dy dv/dz dw/dx dw/dy dw/dz (1/s). A diagonal term is
 * the difference of the cell's own two faces (centred on the cell, width dx); an off-diagonal
 * one differences the cell-centred velocity (face mean) of the two neighbours, width 2 dx,
 * one-sided at the border like vorticitySlab.
 */
export function cellVelocityGradient(
  u: Float32Array,
  v: Float32Array,
  w: Float32Array,
  nx: number,
  ny: number,
  nz: number,
  dx: number,
  i: number,
  j: number,
  k: number,
  g: Float64Array,
  o: number,
): void {
  const sx = nx + 1
  const vy = ny + 1
  const plane = nx * ny
  const im = i > 0 ? i - 1 : 0
  const ip = i < nx - 1 ? i + 1 : nx - 1
  const jm = j > 0 ? j - 1 : 0
  const jp = j < ny - 1 ? j + 1 : ny - 1
  const km = k > 0 ? k - 1 : 0
  const kp = k < nz - 1 ? k + 1 : nz - 1
  const ix = ip > im ? 1 / ((ip - im) * dx) : 0
  const iy = jp > jm ? 1 / ((jp - jm) * dx) : 0
  const iz = kp > km ? 1 / ((kp - km) * dx) : 0
  const inv = 1 / dx
  g[o] = (u[i + 1 + sx * (j + ny * k)] - u[i + sx * (j + ny * k)]) * inv
  g[o + 1] = (uMean(u, sx, ny, i, jp, k) - uMean(u, sx, ny, i, jm, k)) * iy
  g[o + 2] = (uMean(u, sx, ny, i, j, kp) - uMean(u, sx, ny, i, j, km)) * iz
  g[o + 3] = (vMean(v, nx, vy, ip, j, k) - vMean(v, nx, vy, im, j, k)) * ix
  g[o + 4] = (v[i + nx * (j + 1 + vy * k)] - v[i + nx * (j + vy * k)]) * inv
  g[o + 5] = (vMean(v, nx, vy, i, j, kp) - vMean(v, nx, vy, i, j, km)) * iz
  g[o + 6] = (wMean(w, nx, plane, ip, j, k) - wMean(w, nx, plane, im, j, k)) * ix
  g[o + 7] = (wMean(w, nx, plane, i, jp, k) - wMean(w, nx, plane, i, jm, k)) * iy
  g[o + 8] = (w[i + nx * j + plane * (k + 1)] - w[i + nx * j + plane * k]) * inv
}

/** Scratch of turnRatePlanes (the reference runs on one thread). */
const turnScratch = new Float64Array(9)

/**
 * The largest rate (rad/s) at which the flow turns its own velocity, per cell plane:
 *   partial[k] = max over plane k's cell centres of |u x (u . grad) u| / |u|^2
 * (u cell-centred, grad u by cellVelocityGradient; 0 for none, NaN if one is NaN), for planes
 * [k0, k1). Over a substep h, advection carries each velocity along unchanged and the
 * projection then turns it towards the new flow direction (Selle 2005, eqs. 1-2 solved by
 * splitting): the part across the new direction, a fraction 1 - cos(rate h) ~ (rate h)^2 / 2
 * of the speed, is lost. In solid-body rotation at Omega the rate is Omega; in a shear flow
 * (u . grad) u = 0, so shear layers cost nothing. Cells with u = 0 are skipped (the limit there
 * is bounded by |grad u| anyway). A maximum does not depend on the order it is taken in, so
 * the largest partial (largestPartial) is the grid's whatever the split. Twin:
 * wasm/assembly/turnRate.ts.
 */
export function turnRatePlanes(
  u: Float32Array,
  v: Float32Array,
  w: Float32Array,
  nx: number,
  ny: number,
  nz: number,
  dx: number,
  partial: Float64Array,
  k0: number,
  k1: number,
): void {
  const g = turnScratch
  const sx = nx + 1
  const vy = ny + 1
  const plane = nx * ny
  for (let k = k0; k < k1; k++) {
    let best = 0
    scan: for (let j = 0; j < ny; j++) {
      for (let i = 0; i < nx; i++) {
        const a = uMean(u, sx, ny, i, j, k)
        const b = vMean(v, nx, vy, i, j, k)
        const c = wMean(w, nx, plane, i, j, k)
        const q = a * a + b * b + c * c
        if (!(q > 0)) continue
        cellVelocityGradient(u, v, w, nx, ny, nz, dx, i, j, k, g, 0)
        // acc = (u . grad) u: acc_r = sum_q u_q du_r/dx_q.
        const e0 = g[0] * a + g[1] * b + g[2] * c
        const e1 = g[3] * a + g[4] * b + g[5] * c
        const e2 = g[6] * a + g[7] * b + g[8] * c
        const cx = b * e2 - c * e1
        const cy = c * e0 - a * e2
        const cz = a * e1 - b * e0
        const rate = Math.sqrt(cx * cx + cy * cy + cz * cz) / q
        if (rate > best) best = rate
        else if (rate !== rate) {
          best = NaN
          break scan
        }
      }
    }
    partial[k] = best
  }
}

/** One axis of the trilinear stencil on cell centres: lower index and weight of the upper one. */
function axisStencil(g: number, n: number, out: Float64Array, o: number): void {
  let c = g > 0 ? g : 0 // clamps NaN to 0 as lerp3 does
  if (c > n - 1) c = n - 1
  let a = Math.floor(c)
  if (a > n - 2) a = n > 1 ? n - 2 : 0
  out[o] = a
  out[o + 1] = n > 1 ? c - a : 0
}

/**
 * Vortex stretching on particles [p0, p1), Selle 2005, sec. 4 (the (omega . grad) u term of
 * eq. 3): velocity derivatives by central differences on the grid, trilinearly interpolated
 * to the particle, then omega += dt (omega . grad) u, and omega rescaled to its old length.
 * Why the rescale (the paper's reasoning): in isolation the term is an ODE whose magnitude
 * grows exponentially wherever grad u has a positive eigenvalue; since the particles exist to
 * preserve vorticity concentration, and the grid already supplies the bulk flow, keeping
 * |omega| and letting the term only turn omega is stable and sufficient. `scratch` holds 8*9 +
 * 6 doubles.
 */
export function stretchParticles(
  px: Float64Array,
  py: Float64Array,
  pz: Float64Array,
  wx: Float64Array,
  wy: Float64Array,
  wz: Float64Array,
  u: Float32Array,
  v: Float32Array,
  w: Float32Array,
  nx: number,
  ny: number,
  nz: number,
  dx: number,
  ox: number,
  oy: number,
  oz: number,
  dt: number,
  scratch: Float64Array,
  p0: number,
  p1: number,
): void {
  const st = 72
  for (let p = p0; p < p1; p++) {
    axisStencil((px[p] - ox) / dx - 0.5, nx, scratch, st)
    axisStencil((py[p] - oy) / dx - 0.5, ny, scratch, st + 2)
    axisStencil((pz[p] - oz) / dx - 0.5, nz, scratch, st + 4)
    const i = scratch[st], tx = scratch[st + 1]
    const j = scratch[st + 2], ty = scratch[st + 3]
    const k = scratch[st + 4], tz = scratch[st + 5]
    const i1 = nx > 1 ? i + 1 : i, j1 = ny > 1 ? j + 1 : j, k1 = nz > 1 ? k + 1 : k
    cellVelocityGradient(u, v, w, nx, ny, nz, dx, i, j, k, scratch, 0)
    cellVelocityGradient(u, v, w, nx, ny, nz, dx, i1, j, k, scratch, 9)
    cellVelocityGradient(u, v, w, nx, ny, nz, dx, i, j1, k, scratch, 18)
    cellVelocityGradient(u, v, w, nx, ny, nz, dx, i1, j1, k, scratch, 27)
    cellVelocityGradient(u, v, w, nx, ny, nz, dx, i, j, k1, scratch, 36)
    cellVelocityGradient(u, v, w, nx, ny, nz, dx, i1, j, k1, scratch, 45)
    cellVelocityGradient(u, v, w, nx, ny, nz, dx, i, j1, k1, scratch, 54)
    cellVelocityGradient(u, v, w, nx, ny, nz, dx, i1, j1, k1, scratch, 63)
    const a = wx[p], b = wy[p], c = wz[p]
    const len = Math.sqrt(a * a + b * b + c * c)
    if (len === 0) continue
    // s_r = sum_q omega_q du_r/dx_q at the particle (trilinear blend of the 8 cell gradients).
    let s0 = 0, s1 = 0, s2 = 0
    for (let n = 0; n < 8; n++) {
      const wgt = (n & 1 ? tx : 1 - tx) * (n & 2 ? ty : 1 - ty) * (n & 4 ? tz : 1 - tz)
      const g = 9 * n
      s0 += wgt * (scratch[g] * a + scratch[g + 1] * b + scratch[g + 2] * c)
      s1 += wgt * (scratch[g + 3] * a + scratch[g + 4] * b + scratch[g + 5] * c)
      s2 += wgt * (scratch[g + 6] * a + scratch[g + 7] * b + scratch[g + 8] * c)
    }
    const na = a + dt * s0, nb = b + dt * s1, nc = c + dt * s2
    const nlen = Math.sqrt(na * na + nb * nb + nc * nc)
    if (!(nlen > 0) || !Number.isFinite(nlen)) continue
    const k2 = len / nlen
    wx[p] = na * k2
    wy[p] = nb * k2
    wz[p] = nc * k2
  }
}

/**
 * Smallest radius (cells) the particle velocity is averaged over: below ~1.5 cells the face
 * lattice is too sparse for a weighted mean to be a faithful interpolant (its weighted centre
 * sits up to 0.4 cell off the point at 1 cell, at most 0.011 cell at 2), and the grid resolves
 * no swirl smaller than that anyway.
 */
export const PARTICLE_VELOCITY_MIN_RADIUS = 2

/**
 * The velocity of a vortex particle's vorticity distribution omega~_p = xi_p(x - x_p) omega_p
 * (Selle 2005, sec. 5): the xi_p-weighted mean of the MAC velocity over the particle's support,
 *   U_p = sum_f xi_p(x_f - x_p) u_f / sum_f xi_p(x_f - x_p),
 * each component over its own face lattice, with the kernel shape of particleKernel,
 * (1 - d^2/R^2)^3, and R = max(r_p, PARTICLE_VELOCITY_MIN_RADIUS cells). Why not the velocity at
 * x_p (what sec. 4 interpolates): the advection term of Selle's eq. 3 carries the distribution
 * as a whole, and for a divergence-free u the centre of an advected distribution moves with
 * exactly this mean, d/dt int x xi dV = int u xi dV. The point value instead reads the
 * particle's own swirl: in the continuum it is 0 at x_p, but sampled on the staggered faces and
 * trilinearly interpolated back at an off-lattice x_p it is not (the swirl's cubic term is odd
 * about x_p, which trilinear weights do not cancel unless x_p sits on a lattice symmetry point):
 * 1.4% of the swirl's peak speed at r = 4 cells (0.05-0.1 cell/s at 10/s), and more once the
 * compact swirl's centrifugal instability stirs its core, so a lone particle in still air
 * walked off (0.13 cell in 1 s at 64^3, accelerating). In the mean the particle's own swirl,
 * eps_p grad xi_p x omega_p (particleForceSlab), cancels: int xi_p grad xi_p dV = int grad(xi_p^2 / 2)
 * dV = 0, and on the lattice to 5e-5 of its peak at r = 4 cells (the sum of a smooth compact odd
 * function over a lattice). Smooth in x_p (weights vanish with two derivatives at the support's
 * edge), and a linear flow is read at most 0.011 cell (R = 2), 0.001 cell (R = 4) off x_p.
 * Faces beyond the grid are left out (the mean is over the part of the support inside).
 * X, Y, Z, R in grid units (position / dx). Writes out[0..2] and returns true, or returns false
 * (out untouched) when some lattice has no face with positive weight (a NaN position, or a
 * support entirely outside the grid).
 */
export function kernelMeanVelocity(
  u: Float32Array,
  v: Float32Array,
  w: Float32Array,
  nx: number,
  ny: number,
  nz: number,
  X: number,
  Y: number,
  Z: number,
  R: number,
  out: Float64Array,
): boolean {
  const R2 = R * R
  const inv = 1 / R2
  let mu = 0, mv = 0
  for (let axis = 0; axis < 3; axis++) {
    const fx = axis === 0 ? 0 : 0.5
    const fy = axis === 1 ? 0 : 0.5
    const fz = axis === 2 ? 0 : 0.5
    const sx = axis === 0 ? nx + 1 : nx
    const sy = axis === 1 ? ny + 1 : ny
    const sz = axis === 2 ? nz + 1 : nz
    const f = axis === 0 ? u : axis === 1 ? v : w
    const ka = Math.max(0, Math.ceil(Z - R - fz))
    const kb = Math.min(sz - 1, Math.floor(Z + R - fz))
    let sw = 0, su = 0
    for (let k = ka; k <= kb; k++) {
      const dz = Z - (k + fz)
      const qz = R2 - dz * dz
      if (!(qz > 0)) continue
      // Only the lines and faces inside the ball (the exact test below decides).
      const hz = Math.sqrt(qz)
      const ja = Math.max(0, Math.ceil(Y - fy - hz))
      const jb = Math.min(sy - 1, Math.floor(Y - fy + hz))
      for (let j = ja; j <= jb; j++) {
        const dy = Y - (j + fy)
        const qy = qz - dy * dy
        if (!(qy > 0)) continue
        const hy = Math.sqrt(qy)
        const ia = Math.max(0, Math.ceil(X - fx - hy))
        const ib = Math.min(sx - 1, Math.floor(X - fx + hy))
        const row = sx * (j + sy * k)
        for (let i = ia; i <= ib; i++) {
          const ddx = X - (i + fx)
          const d2 = ddx * ddx + dy * dy + dz * dz
          if (!(d2 < R2)) continue
          const t = 1 - d2 * inv
          const wt = t * t * t
          sw += wt
          su += wt * f[row + i]
        }
      }
    }
    if (!(sw > 0)) return false
    if (axis === 0) mu = su / sw
    else if (axis === 1) mv = su / sw
    else {
      out[0] = mu
      out[1] = mv
      out[2] = su / sw
    }
  }
  return true
}

/**
 * Moves particles [p0, p1) with the grid velocity, RK2 midpoint in time (Selle 2005, sec. 4,
 * the (u . grad) omega term of eq. 3). With radii pr (m), the velocity is the mean over each
 * particle's kernel (kernelMeanVelocity: the velocity of its vorticity distribution, in which
 * its own swirl cancels, so a lone particle in still air stays put); without, or where that
 * mean has no faces, the trilinear interpolation at the particle. vel is a 3-double scratch.
 */
export function advectParticlesSlab(
  px: Float64Array,
  py: Float64Array,
  pz: Float64Array,
  u: Float32Array,
  v: Float32Array,
  w: Float32Array,
  nx: number,
  ny: number,
  nz: number,
  dx: number,
  ox: number,
  oy: number,
  oz: number,
  dt: number,
  vel: Float64Array,
  p0: number,
  p1: number,
  pr?: Float64Array,
): void {
  const c = dt / dx
  for (let p = p0; p < p1; p++) {
    const X = (px[p] - ox) / dx
    const Y = (py[p] - oy) / dx
    const Z = (pz[p] - oz) / dx
    if (pr === undefined) {
      velocityAtGridCoord(u, v, w, nx, ny, nz, X, Y, Z, vel)
      velocityAtGridCoord(u, v, w, nx, ny, nz, X + 0.5 * c * vel[0], Y + 0.5 * c * vel[1], Z + 0.5 * c * vel[2], vel)
    } else {
      const Rp = pr[p] / dx
      const R = Rp > PARTICLE_VELOCITY_MIN_RADIUS ? Rp : PARTICLE_VELOCITY_MIN_RADIUS // NaN -> the minimum
      if (!kernelMeanVelocity(u, v, w, nx, ny, nz, X, Y, Z, R, vel)) velocityAtGridCoord(u, v, w, nx, ny, nz, X, Y, Z, vel)
      const Xm = X + 0.5 * c * vel[0], Ym = Y + 0.5 * c * vel[1], Zm = Z + 0.5 * c * vel[2]
      if (!kernelMeanVelocity(u, v, w, nx, ny, nz, Xm, Ym, Zm, R, vel)) velocityAtGridCoord(u, v, w, nx, ny, nz, Xm, Ym, Zm, vel)
    }
    px[p] += dt * vel[0]
    py[p] += dt * vel[1]
    pz[p] += dt * vel[2]
  }
}

/**
 * Marks (dead[p] = 1) particles [p0, p1) that left the domain or are inside an obstacle,
 * where the trilinearly interpolated corner SDF phi ((nx+1)(ny+1)(nz+1), negative inside) is
 * below 0 (Selle 2005, sec. 4: particles that enter solid geometry are deleted). phi null =
 * no obstacles. Returns the number marked.
 */
export function markLostParticles(
  px: Float64Array,
  py: Float64Array,
  pz: Float64Array,
  dead: Uint8Array,
  phi: Float32Array | null,
  nx: number,
  ny: number,
  nz: number,
  dx: number,
  ox: number,
  oy: number,
  oz: number,
  p0: number,
  p1: number,
): number {
  let n = 0
  for (let p = p0; p < p1; p++) {
    const X = (px[p] - ox) / dx
    const Y = (py[p] - oy) / dx
    const Z = (pz[p] - oz) / dx
    // Written so that NaN positions also count as outside.
    let lost = !(X >= 0 && X <= nx && Y >= 0 && Y <= ny && Z >= 0 && Z <= nz)
    if (!lost && phi !== null) lost = lerp3(phi, nx + 1, ny + 1, nz + 1, X, Y, Z) < 0
    if (lost) {
      dead[p] = 1
      n++
    }
  }
  return n
}

// ---- Kernel-table rows of the grid splats (twins in wasm/assembly/vortex.ts) ----
//
// The particle arrays live in VortexParticles' ordinary, growable Float64Arrays: the rows stage
// them (a WebAssembly backend copies the first `count` into its memory per call, 7 doubles a
// particle, negligible next to the splat).

/**
 * Rough work of a particle splat for the pool's serial/parallel decision: faces (cells) in
 * each particle's support box, at most the grid.
 */
export function splatWork(pr: Float64Array, count: number, dx: number, cells: number, perFace: number): number {
  let work = 0
  for (let p = 0; p < count; p++) {
    const side = (2 * pr[p]) / dx + 1
    const box = side * side * side
    work += box < cells ? box : cells // NaN counts as the whole grid
  }
  return perFace * work
}

const num = (a: KernelArgs, i: number) => a[i] as number
/** The seven particle arrays (staged: their first `count` elements) and count, at argument `at`. */
function particleArgs(at: number) {
  const staged = (name: string) => ptr(name, 'f64', { stage: (a) => num(a, at + 7) })
  return [staged('px'), staged('py'), staged('pz'), staged('wx'), staged('wy'), staged('wz'), staged('pr'), int('count')] as const
}

/** particleForceSlab over every cell plane (Selle 2005, sec. 5, regularised). */
export const PARTICLE_FORCE = defineKernel({
  name: 'particleForce',
  args: [
    f32('u'),
    f32('v'),
    f32('w'),
    ...particleArgs(3),
    float('confinement'),
    float('dt'),
    ...GRID_PLACEMENT,
  ],
  split: 'planes',
  range: (a) => num(a, 15),
  // About 3x a stencil cell per face (three face lattices).
  work: (a) => splatWork(a[9] as Float64Array, num(a, 10), num(a, 16), num(a, 13) * num(a, 14) * num(a, 15), 4),
  ref: particleForceSlab,
})

/** particleStrengthSlab over every cell plane: tent-splatted particle |omega| added to eps. */
export const PARTICLE_STRENGTH = defineKernel({
  name: 'particleStrength',
  args: [f32('eps'), ...particleArgs(1), float('weight'), int('nx'), int('ny'), size('nz'), float('dx'), float('ox'), float('oy'), float('oz')],
  split: 'planes',
  range: (a) => num(a, 12),
  work: (a) => splatWork(a[7] as Float64Array, num(a, 8), num(a, 13), num(a, 10) * num(a, 11) * num(a, 12), 1),
  ref: particleStrengthSlab,
})

/**
 * turnRatePlanes over every cell plane: partial[k] per plane (largestPartial of them is the
 * grid's largest turn rate). Run once per substep by the smoke's turn limit, a full pass over the grid that
 * cost a tenth of a 64^3 smoke frame on the calling thread alone.
 */
export const TURN_RATE = defineKernel({
  name: 'turnRate',
  args: [f32('u'), f32('v'), f32('w'), int('nx'), int('ny'), int('nz'), float('dx'), f64('partial')],
  split: 'planes',
  range: (a) => num(a, 5),
  work: (a) => num(a, 3) * num(a, 4) * num(a, 5),
  ref: turnRatePlanes,
})

installKernelMethods({ particleForce: PARTICLE_FORCE, particleStrength: PARTICLE_STRENGTH })

/** The vortex-particle splats as named KernelBackend methods (installed above). */
declare module '../core/kernelTypes' {
  interface KernelBackend {
    /**
     * particleForceSlab over every plane: vortex-particle confinement forces (Selle 2005,
     * sec. 5, regularised; confinement in 1/s) added to the faces. Particle arrays may live
     * anywhere (a backend copies them).
     */
    particleForce(
      u: Float32Array,
      v: Float32Array,
      w: Float32Array,
      px: Float64Array,
      py: Float64Array,
      pz: Float64Array,
      wx: Float64Array,
      wy: Float64Array,
      wz: Float64Array,
      pr: Float64Array,
      count: number,
      confinement: number,
      dt: number,
      nx: number,
      ny: number,
      nz: number,
      dx: number,
      ox: number,
      oy: number,
      oz: number,
    ): void
    /** particleStrengthSlab over every plane: tent-splatted particle |omega| added to eps. */
    particleStrength(
      eps: Float32Array,
      px: Float64Array,
      py: Float64Array,
      pz: Float64Array,
      wx: Float64Array,
      wy: Float64Array,
      wz: Float64Array,
      pr: Float64Array,
      count: number,
      weight: number,
      nx: number,
      ny: number,
      nz: number,
      dx: number,
      ox: number,
      oy: number,
      oz: number,
    ): void
  }
}
declare module '../core/kernelBackend' {
  interface TableKernelBackend {
    particleForce: KernelBackend['particleForce']
    particleStrength: KernelBackend['particleStrength']
  }
}
