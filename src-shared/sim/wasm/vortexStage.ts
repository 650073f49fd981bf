// Memory the vortex-particle kernels (assembly/vortex.ts) need besides the grid: the particle
// arrays (VortexParticles keeps them in ordinary, growable Float64Arrays, so they are copied
// into the kernels' memory per call; 7 doubles a particle, negligible next to the splat) and
// per-thread scratch for the force kernel's per-line exp factors.
import type { WasmArena } from './kernels'

/** Byte offsets of the seven particle arrays in the kernels' memory. */
export interface StagedParticles {
  px: number
  py: number
  pz: number
  wx: number
  wy: number
  wz: number
  pr: number
}

export class VortexStage {
  private block = 0
  private capacity = 0
  private scratchBase = 0
  private scratchBytes = 0
  private scratchStride = 0

  constructor(private readonly arena: WasmArena) {}

  /** The particle arrays as pointers: in place when the arena owns them all, else copied. */
  particles(px: Float64Array, py: Float64Array, pz: Float64Array, wx: Float64Array, wy: Float64Array, wz: Float64Array, pr: Float64Array, count: number): StagedParticles {
    const arrays = [px, py, pz, wx, wy, wz, pr]
    if (arrays.every((a) => this.arena.owns(a))) {
      return { px: px.byteOffset, py: py.byteOffset, pz: pz.byteOffset, wx: wx.byteOffset, wy: wy.byteOffset, wz: wz.byteOffset, pr: pr.byteOffset }
    }
    if (count > this.capacity) {
      // Grows by doubling; the bump arena cannot free the old block (bounded waste).
      const cap = Math.max(256, 2 * this.capacity, count)
      this.block = this.arena.alloc(7 * 8 * cap, 64)
      this.capacity = cap
    }
    const cap = this.capacity
    const buf = this.arena.buffer()
    const at = (n: number) => this.block + n * 8 * cap
    for (let n = 0; n < 7; n++) new Float64Array(buf, at(n), count).set(arrays[n].subarray(0, count))
    return { px: at(0), py: at(1), pz: at(2), wx: at(3), wy: at(4), wz: at(5), pr: at(6) }
  }

  /** [base, stride] of per-thread force scratch for an nx x ny grid on `threads` threads. */
  scratch(nx: number, ny: number, threads: number): [number, number] {
    const stride = Math.ceil((8 * (nx + ny + 2)) / 64) * 64
    if (stride * threads > this.scratchBytes) {
      this.scratchBytes = stride * threads
      this.scratchBase = this.arena.alloc(this.scratchBytes, 64)
    }
    this.scratchStride = stride
    return [this.scratchBase, this.scratchStride]
  }
}

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
