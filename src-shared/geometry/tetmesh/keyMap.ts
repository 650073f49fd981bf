// Open-addressing hash map from non-negative integer keys (below 2^53, so lattice
// coordinates or vertex pairs packed into one double) to int32 values, on flat typed arrays:
// no per-entry objects, so lattices of millions of vertices and edges stay cheap to hash.
// Linear probing, load factor at most 1/2, grows by doubling.

const EMPTY = -1

export class KeyMap {
  private keys: Float64Array
  private vals: Int32Array
  private mask: number
  size = 0

  constructor(expected = 16) {
    let cap = 16
    while (cap < 2 * expected) cap *= 2
    this.keys = new Float64Array(cap).fill(EMPTY)
    this.vals = new Int32Array(cap)
    this.mask = cap - 1
  }

  /** Slot of `key` or of the empty slot where it would go. */
  private find(key: number): number {
    // Mix both 32-bit halves (keys are up to 2^53) with multiplicative hashing.
    const lo = key >>> 0, hi = (key / 4294967296) >>> 0
    let h = Math.imul(lo ^ Math.imul(hi, 0x85ebca6b), 0x9e3779b1)
    h ^= h >>> 15
    const keys = this.keys, mask = this.mask
    let i = h & mask
    for (;;) {
      const k = keys[i]
      if (k === key || k === EMPTY) return i
      i = (i + 1) & mask
    }
  }

  /** The value of `key`, or -1 if absent. */
  get(key: number): number {
    const i = this.find(key)
    return this.keys[i] === key ? this.vals[i] : -1
  }

  /** Sets `key` to `value` (>= 0). */
  set(key: number, value: number): void {
    let i = this.find(key)
    if (this.keys[i] !== key) {
      if (2 * (this.size + 1) > this.keys.length) {
        this.grow()
        i = this.find(key)
      }
      this.keys[i] = key
      this.size++
    }
    this.vals[i] = value
  }

  private grow(): void {
    const oldK = this.keys, oldV = this.vals
    const cap = oldK.length * 2
    this.keys = new Float64Array(cap).fill(EMPTY)
    this.vals = new Int32Array(cap)
    this.mask = cap - 1
    for (let j = 0; j < oldK.length; j++) {
      const k = oldK[j]
      if (k === EMPTY) continue
      const i = this.find(k)
      this.keys[i] = k
      this.vals[i] = oldV[j]
    }
  }
}
