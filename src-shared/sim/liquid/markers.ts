// Marker particles of the MAC method (Carlson 2004, sec. 3.2.3): they mark which cells hold
// liquid and carry velocity and temperature (sec. 4.2, last paragraph) into cells the liquid
// enters. With affine transfers (APIC, Jiang et al. 2015) each also carries its velocity
// gradient C_p (`c`, 9 floats a marker; transfer.ts). Structure of arrays over Float32Arrays that double when full, so adding particles
// allocates O(log n) times over a bake, never per particle. Removal swaps the last particle
// in, which keeps the order (and so every sum over particles) a deterministic function of the
// state.
//
// The arrays come from a kernel allocator (core/kernelTypes.ts): the WebAssembly backend's
// puts them in the kernels' shared memory, where the marker move runs (markerKernels.ts).
import { TS_KERNELS } from '../core/kernelBackend'
import type { KernelAllocator } from '../core/kernelTypes'

export class MarkerParticles {
  private n = 0
  /** Largest count allowed; add() refuses beyond it. */
  readonly maxCount: number
  px: Float32Array
  py: Float32Array
  pz: Float32Array
  vx: Float32Array
  vy: Float32Array
  vz: Float32Array
  /** Temperature, K. */
  temp: Float32Array
  /** Stable id, for exporters that track particles across frames. */
  id: Uint32Array
  /**
   * Affine velocity C_p of APIC (Jiang et al. 2015), 9 per marker, row major:
   * c[9q + 3a + b] = d v_a / d x_b (1/s). Empty (length 0) unless constructed with affine.
   */
  c: Float32Array
  /**
   * Per marker, scratch for one pass at a time, written before it is read: the move's removal
   * marks (markerKernels.ts) and the surface correction's escape candidates (surfaceCorrectKernel.ts).
   */
  flag: Uint8Array
  /** Whether the markers carry C_p (c holds 9 * capacity floats). */
  readonly affine: boolean
  private readonly alloc: KernelAllocator
  /** Id the next added particle gets. */
  nextId = 0
  /**
   * Slots from here on have held no marker since their arrays were made, so every value there is
   * still the allocator's zero: add() writes none of those zeros (see add).
   */
  private cleanFrom = 0

  /** alloc: where the arrays live (default plain arrays). */
  constructor(maxCount: number, initialCapacity = 1024, affine = false, alloc: KernelAllocator = TS_KERNELS) {
    this.maxCount = maxCount
    this.affine = affine
    this.alloc = alloc
    const c = Math.max(1, Math.min(initialCapacity, maxCount))
    this.px = alloc.f32(c)
    this.py = alloc.f32(c)
    this.pz = alloc.f32(c)
    this.vx = alloc.f32(c)
    this.vy = alloc.f32(c)
    this.vz = alloc.f32(c)
    this.temp = alloc.f32(c)
    this.id = new Uint32Array(c)
    this.c = alloc.f32(affine ? 9 * c : 0)
    this.flag = alloc.u8(c)
  }

  /** Markers held: slots [0, count) of every array. */
  get count(): number {
    return this.n
  }

  set count(n: number) {
    this.n = n
    if (n > this.cleanFrom) this.cleanFrom = n
  }

  get capacity(): number {
    return this.px.length
  }

  /**
   * Makes room for at least n particles: capacity doubles (capped at maxCount), or becomes
   * exactly n when `exact` (a caller that knows how many are coming).
   */
  reserve(n: number, exact = false): void {
    if (n <= this.capacity) return
    let c = this.capacity
    while (c < n) c *= 2
    if (exact) c = n
    c = Math.min(c, Math.max(n, this.maxCount))
    const grow = <T extends Float32Array | Uint32Array>(a: T, make: (n: number) => T): T => {
      const b = make(c)
      b.set(a.subarray(0, this.count))
      return b
    }
    const f32 = (m: number) => this.alloc.f32(m)
    this.px = grow(this.px, f32)
    this.py = grow(this.py, f32)
    this.pz = grow(this.pz, f32)
    this.vx = grow(this.vx, f32)
    this.vy = grow(this.vy, f32)
    this.vz = grow(this.vz, f32)
    this.temp = grow(this.temp, f32)
    this.id = grow(this.id, (m) => new Uint32Array(m))
    if (this.affine) {
      const b = this.alloc.f32(9 * c)
      b.set(this.c.subarray(0, 9 * this.count))
      this.c = b
    }
    this.flag = this.alloc.u8(c)
    // The new arrays hold the markers' values and zeros beyond them.
    this.cleanFrom = this.count
  }

  /** Adds one particle; false (and nothing added) at maxCount. */
  add(x: number, y: number, z: number, vx: number, vy: number, vz: number, t: number): boolean {
    if (this.count >= this.maxCount) return false
    if (this.count === this.capacity) this.reserve(this.count + 1)
    const i = this.n
    // A slot never used since its arrays were made still holds zeros: writing a zero there
    // (+0 only: -0 has other bits) would make the operating system commit the page now, on
    // this thread, at about 12 us a page (slabPool.ts "Committing ahead"): seeding a million
    // still markers spent most of its time so. The kernel pool's idle workers commit those
    // pages instead, and a used slot (a removed marker's) is written as ever.
    const dirty = i < this.cleanFrom
    this.count = i + 1
    this.px[i] = x
    this.py[i] = y
    this.pz[i] = z
    if (dirty || vx !== 0 || 1 / vx < 0) this.vx[i] = vx
    if (dirty || vy !== 0 || 1 / vy < 0) this.vy[i] = vy
    if (dirty || vz !== 0 || 1 / vz < 0) this.vz[i] = vz
    this.temp[i] = t
    this.id[i] = this.nextId >>> 0
    // A new marker moves uniformly (C_p = 0). (Stores, not fill(): a builtin call per marker
    // cost about 17 ns, a tenth of seeding a million.)
    if (this.affine && dirty) {
      const c = this.c
      for (let e = 9 * i, end = e + 9; e < end; e++) c[e] = 0
    }
    this.nextId = (this.nextId + 1) % 4294967296
    return true
  }

  /** Removes particle i by moving the last one into its slot. */
  remove(i: number): void {
    const last = --this.count
    if (i === last) return
    this.px[i] = this.px[last]
    this.py[i] = this.py[last]
    this.pz[i] = this.pz[last]
    this.vx[i] = this.vx[last]
    this.vy[i] = this.vy[last]
    this.vz[i] = this.vz[last]
    this.temp[i] = this.temp[last]
    this.id[i] = this.id[last]
    if (this.affine) this.c.copyWithin(9 * i, 9 * last, 9 * last + 9)
  }
}
