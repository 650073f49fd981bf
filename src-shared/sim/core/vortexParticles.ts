// Vortex particles (Selle, Rasmussen, Fedkiw 2005, sec. 4), structure of arrays.
//
// Each particle carries a position, a vorticity vector omega_p and a kernel radius r_p. The
// particle's vorticity field is omega~_p(x) = xi_p(x - x_p) omega_p (Selle 2005, sec. 5) with a
// kernel of units 1/m^3 (particleKernel below: a smooth compact kernel with the
// peak of the clamped Gaussian of sec. 6): omega_p is therefore a vortex *strength*
// (vorticity times volume, m^3/s), as in vortex methods generally, and omega~_p is a vorticity
// in 1/s. (The paper quotes omega_p in grid units, e.g. 2x10^3 with r = 4 cells, which gives a
// peak omega~ of about 2 per cell; metres make the same thing resolution free.)
//
// Storage grows by doubling (amortised, never per step in steady state). Float64 so the
// stretching step's magnitude rescale is exact to double rounding and positions do not drift.
//
// Shared by the method folders that carry vortex particles (smoke on the MAC grid, the hybrid
// gas on its mesh): the storage and the distribution kernels live here, the per-method splats
// next to their velocity layouts (smoke/vortexKernels.ts, hybrid/hybridVortexParticles.ts).

/** 1 / (2 pi)^(3/2), the Gaussian's normalisation. */
export const INV_2PI_32 = 1 / Math.pow(2 * Math.PI, 1.5)

/**
 * The clamped Gaussian distribution kernel, Selle 2005, sec. 6:
 *   xi_p(x - x_p) = exp(-|x - x_p|^2 / 2r^2) / (r^3 (2 pi)^(3/2))   for |x - x_p| <= r, else 0.
 * d2 = |x - x_p|^2 (m^2), r in m; 1/m^3.
 */
export function selleKernel(d2: number, r: number): number {
  if (d2 > r * r) return 0
  return (Math.exp(-d2 / (2 * r * r)) * INV_2PI_32) / (r * r * r)
}

/**
 * Fraction of omega_p that the clamped kernel carries, integral of xi_p over |x| <= r:
 * P(chi_3 <= 1) = erf(1/sqrt 2) - sqrt(2/pi) e^(-1/2) ~ 0.19875.
 */
export const SELLE_KERNEL_MASS = 0.198748043098799

/**
 * The particle's smooth distribution kernel, used for its vorticity field omega~_p(x) =
 * xi_p(x - x_p) omega_p (Selle 2005, sec. 5) and its force:
 *   xi_p(d) = xi_0 (1 - d^2/r^2)^3   for d = |x - x_p| < r, else 0,   xi_0 = 1 / (r^3 (2 pi)^(3/2)).
 * Rotationally symmetric and strictly decreasing, as sec. 5 asks, with the same peak xi_0 as
 * the clamped Gaussian of sec. 6 (so omega_p still means peak vorticity / xi_0), but twice
 * continuously differentiable at d = r: its gradient, and so the force, goes smoothly to 0 at
 * the edge instead of jumping (the clamped Gaussian drops from 0.61 xi_0 to 0 there).
 * d2 = d^2 (m^2), r in m; 1/m^3.
 */
export function particleKernel(d2: number, r: number): number {
  if (!(d2 < r * r)) return 0
  const t = 1 - d2 / (r * r)
  return selleKernel(0, r) * t * t * t
}

/**
 * Integral of particleKernel over space, in units of omega_p: 4 pi xi_0 r^3 int_0^1 s^2 (1 - s^2)^3 ds
 * = 64 pi / (315 (2 pi)^(3/2)).
 */
export const PARTICLE_KERNEL_MASS = (64 * Math.PI) / (315 * Math.pow(2 * Math.PI, 1.5))

/** The particles, structure of arrays (see the file comment). */
export class VortexParticles {
  count = 0
  capacity = 0
  /** Next id to hand out; ids are never reused, so exporters can track particles. */
  nextId = 0
  readonly maxCount: number
  px = new Float64Array(0)
  py = new Float64Array(0)
  pz = new Float64Array(0)
  wx = new Float64Array(0)
  wy = new Float64Array(0)
  wz = new Float64Array(0)
  /**
   * Kernel radius, m: of the particle's vorticity distribution and force, and of the ball its
   * velocity is averaged over (advectParticlesSlab), so it does not read its own swirl.
   */
  r = new Float64Array(0)
  id = new Float64Array(0)
  /** Deletion marks for compact(). */
  dead = new Uint8Array(0)
  /**
   * Scratch, not state: omega_p times the force's saturation factor of the current substep
   * (SmokeSolver.particleForce); rewritten before every use, so never checkpointed.
   */
  fx = new Float64Array(0)
  fy = new Float64Array(0)
  fz = new Float64Array(0)

  constructor(maxCount: number, initialCapacity = 256) {
    this.maxCount = maxCount
    this.reserve(Math.min(initialCapacity, maxCount))
  }

  reserve(capacity: number): void {
    if (capacity <= this.capacity) return
    const grow = <T extends Float64Array | Uint8Array>(a: T, make: (n: number) => T): T => {
      const b = make(capacity)
      b.set(a.subarray(0, this.count))
      return b
    }
    const f64 = (n: number) => new Float64Array(n)
    this.px = grow(this.px, f64)
    this.py = grow(this.py, f64)
    this.pz = grow(this.pz, f64)
    this.wx = grow(this.wx, f64)
    this.wy = grow(this.wy, f64)
    this.wz = grow(this.wz, f64)
    this.r = grow(this.r, f64)
    this.id = grow(this.id, f64)
    this.dead = grow(this.dead, (n) => new Uint8Array(n))
    this.fx = new Float64Array(capacity)
    this.fy = new Float64Array(capacity)
    this.fz = new Float64Array(capacity)
    this.capacity = capacity
  }

  /** Appends a particle; false (nothing added) when maxCount is reached. */
  add(x: number, y: number, z: number, wx: number, wy: number, wz: number, r: number): boolean {
    if (this.count >= this.maxCount) return false
    if (this.count === this.capacity) this.reserve(Math.min(this.maxCount, Math.max(16, 2 * this.capacity)))
    const i = this.count++
    this.px[i] = x
    this.py[i] = y
    this.pz[i] = z
    this.wx[i] = wx
    this.wy[i] = wy
    this.wz[i] = wz
    this.r[i] = r
    this.id[i] = this.nextId++
    this.dead[i] = 0
    return true
  }

  /** Removes the particles marked in `dead`, keeping the order of the others; returns how many went. */
  compact(): number {
    const { dead } = this
    let o = 0
    for (let i = 0; i < this.count; i++) {
      if (dead[i]) continue
      if (o !== i) {
        this.px[o] = this.px[i]
        this.py[o] = this.py[i]
        this.pz[o] = this.pz[i]
        this.wx[o] = this.wx[i]
        this.wy[o] = this.wy[i]
        this.wz[o] = this.wz[i]
        this.r[o] = this.r[i]
        this.id[o] = this.id[i]
      }
      dead[o] = 0
      o++
    }
    const removed = this.count - o
    this.count = o
    return removed
  }

  clear(): void {
    this.count = 0
  }
}
