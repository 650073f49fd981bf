// The vertices of a background lattice (uniform BCC or graded), in flat typed arrays indexed
// by vertex id: position (moved when the vertex is warped onto the surface), integer lattice
// coordinates (units of half the finest lattice spacing, so cube corners are even and the
// finest cube centres odd; the parity rule reads them), signed distance value and label.
import { EddyError } from '../../api/errors'

/** Most lattice vertices a mesh may have: edge keys pack two ids as lo * 2^26 + hi below 2^53. */
export const MAX_LATTICE_VERTICES = 2 ** 26

export class LatticeVertices {
  count = 0
  pos: Float64Array
  ic: Int32Array
  f: Float64Array
  /** OUT 0, ON 1, IN 2 (stencils.ts). */
  label: Uint8Array

  constructor(capacity: number) {
    const cap = Math.max(16, capacity)
    this.pos = new Float64Array(3 * cap)
    this.ic = new Int32Array(3 * cap)
    this.f = new Float64Array(cap)
    this.label = new Uint8Array(cap)
  }

  /** Appends a vertex (value and label are set later) and returns its id. */
  add(ix: number, iy: number, iz: number, x: number, y: number, z: number): number {
    const id = this.count
    if (id === this.f.length) this.grow()
    if (id >= MAX_LATTICE_VERTICES) {
      throw new EddyError('RESOURCE_LIMIT', `isosurface stuffing: more than ${MAX_LATTICE_VERTICES} lattice vertices; use a coarser spacing or the graded mode`)
    }
    const o = 3 * id
    this.pos[o] = x; this.pos[o + 1] = y; this.pos[o + 2] = z
    this.ic[o] = ix; this.ic[o + 1] = iy; this.ic[o + 2] = iz
    this.count = id + 1
    return id
  }

  private grow(): void {
    const cap = 2 * this.f.length
    const pos = new Float64Array(3 * cap); pos.set(this.pos); this.pos = pos
    const ic = new Int32Array(3 * cap); ic.set(this.ic); this.ic = ic
    const f = new Float64Array(cap); f.set(this.f); this.f = f
    const label = new Uint8Array(cap); label.set(this.label); this.label = label
  }
}
