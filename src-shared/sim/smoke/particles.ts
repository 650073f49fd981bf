// Vortex particles (Selle, Rasmussen, Fedkiw 2005, sec. 4), structure of arrays.
//
// Each particle carries a position, a vorticity vector omega_p and a kernel radius r_p. The
// particle's vorticity field is omega~_p(x) = xi_p(x - x_p) omega_p (Selle 2005, sec. 5) with a
// kernel of units 1/m^3 (particleKernel in vortexKernels.ts: a smooth compact kernel with the
// peak of the clamped Gaussian of sec. 6): omega_p is therefore a vortex *strength*
// (vorticity times volume, m^3/s), as in vortex methods generally, and omega~_p is a vorticity
// in 1/s. (The paper quotes omega_p in grid units, e.g. 2x10^3 with r = 4 cells, which gives a
// peak omega~ of about 2 per cell; metres make the same thing resolution free.)
//
// Storage grows by doubling (amortised, never per step in steady state). Float64 so the
// stretching step's magnitude rescale is exact to double rounding and positions do not drift.
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
