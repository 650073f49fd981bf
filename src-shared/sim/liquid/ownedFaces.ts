// The faces each coupled body owns (rigidCoupling.ts: faceOwner[a][f] = b), listed once per
// rasterise with their torque arms. A substep visits a body's faces six times (its walls and
// their velocity, the solve's rows, its weight, the markers' exchange and blend); each visit
// scanned the body's box along all three axes for the faces it owns, and each evaluated the
// arm again, whose normal is the gradient of a distance grid at a rotated point: about 60 ms a
// frame of the gears and bunnies on the calling thread while the kernels' workers waited. The
// bodies do not move between rasterise and the end of the substep (only their velocities
// change), so the arms computed here are the ones those visits computed, to the bit.
//
// The arrays come from the kernels' allocator: the coupling's face passes are kernel rows
// (rigidFaceKernels.ts). Its memory cannot free a block, so the list grows by doubling.

import { TS_KERNELS } from '../core/kernelBackend'
import type { KernelAllocator } from '../core/kernelTypes'

/** Int32 values an entry holds in `face`: axis, face index, i, j, k, closed side, body. */
export const FACE_STRIDE = 7
/** The entry's slot of its body's index. */
export const FACE_BODY = 6

export class OwnedFaces {
  /** Body b's entries are start[b] .. start[b + 1] (in axis, k, j, i order). */
  start: Int32Array
  /** Per entry (FACE_STRIDE): axis a, face index f, the face's lattice indices i, j, k, its closed side (-1, 0, +1: rigidCoupling.ts closedSide) and its body. */
  face: Int32Array
  /** Per entry: the torque arm of the face (rigidCoupling.ts faceArm, the bias included), 3 float64. */
  arm: Float64Array
  count = 0

  constructor(private readonly alloc: KernelAllocator = TS_KERNELS) {
    this.start = alloc.i32(1)
    this.face = alloc.i32(FACE_STRIDE * 256)
    this.arm = alloc.f64(3 * 256)
  }

  /** Empties the list for nb bodies; then begin(b) and push() for b = 0 .. nb - 1 in order. */
  reset(nb: number): void {
    if (this.start.length < nb + 1) this.start = this.alloc.i32(nb + 1)
    this.start.fill(0, 0, nb + 1)
    this.count = 0
  }

  /** Starts body b's entries (every body, listed or not, in order). */
  begin(b: number): void {
    this.start[b] = this.count
    this.start[b + 1] = this.count
  }

  /** Appends a face to the body begun last; returns the entry's index. */
  push(a: number, f: number, i: number, j: number, k: number, side: number, b: number): number {
    const t = this.count
    if (t === this.face.length / FACE_STRIDE) {
      const face = this.alloc.i32(2 * this.face.length)
      face.set(this.face)
      this.face = face
      const arm = this.alloc.f64(2 * this.arm.length)
      arm.set(this.arm)
      this.arm = arm
    }
    const o = FACE_STRIDE * t
    const F = this.face
    F[o] = a
    F[o + 1] = f
    F[o + 2] = i
    F[o + 3] = j
    F[o + 4] = k
    F[o + 5] = side
    F[o + 6] = b
    this.count = t + 1
    this.start[b + 1] = t + 1
    return t
  }
}
