// A small deterministic random number generator whose whole state is one uint32, so a
// checkpoint stores it and a restored bake draws the same numbers (Math.random cannot be
// seeded or saved). Mulberry32 (Tommy Ettinger, public domain): period 2^32, passes
// PractRand to 2^32 outputs, plenty for placing vortex particles.
export class Prng {
  state: number

  constructor(seed: number) {
    this.state = seed >>> 0
  }

  nextU32(): number {
    const s = (this.state = (this.state + 0x6d2b79f5) >>> 0)
    let t = Math.imul(s ^ (s >>> 15), s | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return (t ^ (t >>> 14)) >>> 0
  }

  /** Uniform in [0, 1). */
  next(): number {
    return this.nextU32() / 4294967296
  }

  /** Uniform in [a, b). */
  range(a: number, b: number): number {
    return a + (b - a) * this.next()
  }

  /** A uniformly distributed unit vector into out[o..o+2] (Marsaglia 1972: z uniform, angle uniform). */
  unitVector(out: Float64Array, o = 0): void {
    const z = 2 * this.next() - 1
    const phi = 2 * Math.PI * this.next()
    const r = Math.sqrt(Math.max(0, 1 - z * z))
    out[o] = r * Math.cos(phi)
    out[o + 1] = r * Math.sin(phi)
    out[o + 2] = z
  }
}
