// The arrays of a transient frame (solver.ts FrameOptions.transient): one Float32Array per name,
// kept from frame to frame and grown with headroom, so a frame's copies write pages touched
// before instead of faulting in fresh ones (about 3 ms a MB on the CI machine: a million markers'
// positions, velocities, temperatures and ids are 32 MB a frame).

export class FrameBuffers {
  private readonly arrays = new Map<string, Float32Array>()

  /**
   * allocate: where the arrays live, when not in the JavaScript heap (the kernels' memory, so
   * kernel rows can fill them: liquid/frameArrayKernel.ts). That memory cannot free a block, so
   * an array there grows twice as large when too short, as the markers' own arrays do.
   */
  constructor(private readonly allocate: ((length: number) => Float32Array) | null = null) {}

  /**
   * An array of `length` floats for `name` (its old contents, not zeroed): a view of the kept
   * array, reallocated 1.25x larger (2x with `allocate`) when it is too short, so markers added
   * by emitters grow it a few times rather than every frame.
   */
  f32(name: string, length: number): Float32Array {
    let a = this.arrays.get(name)
    if (!a || a.length < length) {
      const grown = a ? Math.ceil(length * (this.allocate ? 2 : 1.25)) : length
      a = this.allocate ? this.allocate(grown) : new Float32Array(grown)
      this.arrays.set(name, a)
    }
    return a.length === length ? a : a.subarray(0, length)
  }

  /** src's values in the array for `name` (f32). */
  copy(name: string, src: Float32Array): Float32Array {
    const a = this.f32(name, src.length)
    a.set(src)
    return a
  }
}

/** `length` floats: `kept`'s array for `name` when the frame is transient (old contents), else a fresh zeroed one. */
export function frameArray(kept: FrameBuffers | null, name: string, length: number): Float32Array {
  return kept ? kept.f32(name, length) : new Float32Array(length)
}

/** A copy of src: in `kept`'s array for `name` when the frame is transient, else a fresh one. */
export function frameCopy(kept: FrameBuffers | null, name: string, src: Float32Array): Float32Array {
  return kept ? kept.copy(name, src) : src.slice()
}
