// Values computed from a triangle mesh, remembered by the mesh's content: a scene holds copies
// of one mesh (the eight gears and three bunnies of gears-and-bunnies, each body its own scaled
// copy), and building a bake checked each copy's closedness three times and measured its mass
// twice more, each time from scratch. A hash of the arrays finds an entry; the arrays
// themselves decide (each entry keeps a copy of the mesh it was computed from), so a hash
// collision can never hand one mesh another's value. A few entries only, the most recent last.
import type { TriMesh } from './triMesh'

export class MeshMemo<T> {
  private readonly entries = new Map<string, { positions: Float32Array; indices: Uint32Array; value: T }>()

  /** size: entries kept (the least recently used goes first). */
  constructor(private readonly size: number) {}

  /**
   * compute()'s value for this mesh's content and `extra` (what else the value depends on, as
   * text), from an earlier call when one had the same; compute() runs otherwise, and when it
   * throws nothing is remembered.
   */
  get(mesh: TriMesh, extra: string, compute: () => T): T {
    const key = `${extra}:${mesh.positions.length}:${mesh.indices.length}:${contentHash(mesh.positions)}:${contentHash(mesh.indices)}`
    const hit = this.entries.get(key)
    if (hit && sameArray(hit.positions, mesh.positions) && sameArray(hit.indices, mesh.indices)) {
      this.entries.delete(key)
      this.entries.set(key, hit)
      return hit.value
    }
    const value = compute()
    this.entries.delete(key)
    this.entries.set(key, { positions: mesh.positions.slice(), indices: mesh.indices.slice(), value })
    if (this.entries.size > this.size) this.entries.delete(this.entries.keys().next().value as string)
    return value
  }
}

/** Same length and the same values, bit for bit (-0 and NaN told apart as stored). */
export function sameArray(a: Float32Array | Uint32Array, b: Float32Array | Uint32Array): boolean {
  if (a.length !== b.length) return false
  for (let i = 0; i < a.length; i++) if (!Object.is(a[i], b[i])) return false
  return true
}

/** 64-bit FNV-1a (as two 32-bit halves over alternate words) of an array's bytes, hex. */
export function contentHash(a: Float32Array | Uint32Array): string {
  const words = new Uint32Array(a.buffer, a.byteOffset, a.length)
  let h1 = 0x811c9dc5, h2 = 0x01000193 ^ a.length
  for (let i = 0; i < words.length; i++) {
    h1 = Math.imul(h1 ^ words[i], 0x01000193) >>> 0
    h2 = Math.imul(h2 ^ (words[i] + i), 0x01000193) >>> 0
  }
  return h1.toString(16) + h2.toString(16)
}
