// Massless tracker particles (seed 000 section 3: "for rendering purposes we advect a large
// number of massless tracker particles"; the desk toy of Figure 6), structure of arrays in
// Float64 so positions do not drift, grown by doubling. Ids are never reused, so an export can
// follow a particle from frame to frame.
import { EddyError } from '../../api/errors'
import type { ParsedCheckpoint } from '../core/checkpoint'

export class TrackerParticles {
  count = 0
  nextId = 0
  x = new Float64Array(0)
  y = new Float64Array(0)
  z = new Float64Array(0)
  id = new Float64Array(0)

  constructor(readonly maxCount: number) {}

  /** Adds a particle; false when the cap is reached. */
  add(x: number, y: number, z: number): boolean {
    if (this.count >= this.maxCount) return false
    if (this.count === this.x.length) this.reserve(Math.max(1024, 2 * this.count))
    const i = this.count++
    this.x[i] = x; this.y[i] = y; this.z[i] = z
    this.id[i] = this.nextId++
    return true
  }

  reserve(n: number): void {
    if (n <= this.x.length) return
    const grow = (a: Float64Array) => { const b = new Float64Array(n); b.set(a.subarray(0, this.count)); return b }
    this.x = grow(this.x); this.y = grow(this.y); this.z = grow(this.z); this.id = grow(this.id)
  }

  /** Drops the particles flagged in `lost` (1 = drop), keeping the others' order. */
  compact(lost: Uint8Array): void {
    let w = 0
    for (let i = 0; i < this.count; i++) {
      if (lost[i]) continue
      this.x[w] = this.x[i]; this.y[w] = this.y[i]; this.z[w] = this.z[i]; this.id[w] = this.id[i]
      w++
    }
    this.count = w
  }

  clear(): void {
    this.count = 0
    this.nextId = 0
  }

  positionsF32(): Float32Array {
    const out = new Float32Array(3 * this.count)
    for (let i = 0; i < this.count; i++) { out[3 * i] = this.x[i]; out[3 * i + 1] = this.y[i]; out[3 * i + 2] = this.z[i] }
    return out
  }

  idsF32(): Float32Array {
    return Float32Array.from(this.id.subarray(0, this.count))
  }

  sections(): [string, Float64Array][] {
    const c = this.count
    return [['tx', this.x.subarray(0, c)], ['ty', this.y.subarray(0, c)], ['tz', this.z.subarray(0, c)], ['tid', this.id.subarray(0, c)]]
  }

  restore(ck: ParsedCheckpoint, count: number, nextId: number): void {
    if (!Number.isInteger(count) || count < 0 || count > this.maxCount) {
      throw new EddyError('INVALID_PARAM', `Checkpoint holds ${count} tracker particles, more than the ${this.maxCount} allowed`, { field: 'checkpoint' })
    }
    this.count = 0
    this.reserve(count)
    ck.read('tx', this.x.subarray(0, count))
    ck.read('ty', this.y.subarray(0, count))
    ck.read('tz', this.z.subarray(0, count))
    ck.read('tid', this.id.subarray(0, count))
    this.count = count
    this.nextId = nextId
  }
}
