// Point location in a stuffed tetrahedral mesh: which tetrahedron holds a point (the
// semi-Lagrangian back-traces of the tetrahedral liquid ask this for every sample). Stuffed
// meshes come from a lattice, so a uniform grid of cells one finest lattice spacing wide is their
// natural index (the octree's finest leaves, flattened): each tetrahedron is filed under every
// cell its bounding box overlaps, so a query tests only the tetrahedra of the point's own cell.
// A finest tetrahedron overlaps at most eight cells; a graded interior tetrahedron 2^k times
// larger overlaps up to (2^k + 1)^3, but there are 8^k times fewer of them, so the index stays
// a small multiple of the finest cells the mesh covers. Allocation free per query.
import { EddyError } from '../../api/errors'
import { barycentricCoordinates, barycentricFrames, barycentricInFrame } from './tetBarycentric'

/** Steps locateFrom walks before it asks the index. */
export const WALK_STEPS = 8

/** Most index entries a locator may hold (2^28 Int32 = 1 GiB). */
const MAX_ENTRIES = 2 ** 28

export class TetLocator {
  private readonly origin: [number, number, number]
  private readonly dims: [number, number, number]
  private readonly inverseCell: number
  private readonly cellStart: Int32Array
  private readonly cellTets: Int32Array
  private readonly lambda = new Float64Array(4)
  /**
   * With `frames`: per tetrahedron its first vertex, the three cross products and the inverse
   * determinant barycentricCoordinates computes (13 float64), so a containment test is a few
   * products instead of rebuilding them: the same expressions, so the same bits. Worth its
   * memory where a mesh answers many queries (the hybrid gas keeps its mesh for a whole bake).
   */
  private readonly frames: Float64Array | null
  /** Each tetrahedron's bounding box, padded once the index is built (padBoxes). */
  private readonly boxes: Float64Array
  /** With `walk`: per tetrahedron the one across the face opposite each vertex (-1 on the mesh's boundary). */
  private readonly neighbours: Int32Array | null

  constructor(private readonly positions: Float64Array, private readonly tets: Int32Array, cellSize: number, options: { frames?: boolean; walk?: boolean } = {}) {
    if (!(cellSize > 0)) throw new EddyError('INVALID_PARAM', `tetrahedron locator: cell size must be positive, got ${cellSize}`)
    const nt = tets.length / 4
    const lo = [Infinity, Infinity, Infinity], hi = [-Infinity, -Infinity, -Infinity]
    for (let v = 0; v < positions.length / 3; v++) for (let a = 0; a < 3; a++) {
      const x = positions[3 * v + a]
      if (x < lo[a]) lo[a] = x
      if (x > hi[a]) hi[a] = x
    }
    if (nt === 0) lo.fill(0), hi.fill(0)
    this.origin = [lo[0], lo[1], lo[2]]
    this.inverseCell = 1 / cellSize
    this.dims = [0, 1, 2].map((a) => Math.max(1, Math.floor((hi[a] - lo[a]) / cellSize) + 1)) as [number, number, number]
    const [nx, ny] = this.dims
    const cells = this.dims[0] * this.dims[1] * this.dims[2]
    if (!(cells <= 2 ** 28)) throw new EddyError('INVALID_PARAM', `tetrahedron locator: ${this.dims.join(' x ')} cells is too many (cell size ${cellSize} against a mesh ${hi.map((h, a) => h - lo[a]).join(' x ')} across)`)
    this.boxes = tetBoxes(positions, tets)
    // Two passes over the tetrahedra's cell ranges: count, then fill (a counting sort by cell).
    // Each tetrahedron's range is worked out once, in the first pass, and kept for the second.
    const ranges = new Int32Array(6 * nt)
    const box = new Int32Array(6)
    const start = new Int32Array(cells + 1)
    for (let t = 0; t < nt; t++) {
      this.cellRange(t, box)
      ranges.set(box, 6 * t)
      for (let k = box[2]; k <= box[5]; k++) for (let j = box[1]; j <= box[4]; j++) {
        const row = nx * (j + ny * k) + 1
        for (let i = box[0]; i <= box[3]; i++) start[row + i]++
      }
    }
    for (let c = 0; c < cells; c++) start[c + 1] += start[c]
    if (start[cells] > MAX_ENTRIES) throw new EddyError('INVALID_PARAM', `tetrahedron locator: ${start[cells]} index entries is too many (cell size ${cellSize} is too small for these tetrahedra)`)
    const entries = new Int32Array(start[cells])
    const fill = start.slice(0, cells)
    for (let t = 0, o = 0; t < nt; t++, o += 6) {
      for (let k = ranges[o + 2]; k <= ranges[o + 5]; k++) for (let j = ranges[o + 1]; j <= ranges[o + 4]; j++) {
        const row = nx * (j + ny * k)
        for (let i = ranges[o]; i <= ranges[o + 3]; i++) entries[fill[row + i]++] = t
      }
    }
    this.cellStart = start
    this.cellTets = entries
    // Indexed by the exact boxes; tested with padded ones (tetBoxes).
    padBoxes(this.boxes)
    this.frames = options.frames ? barycentricFrames(positions, tets) : null
    this.neighbours = options.walk ? tetFaceNeighbours(tets, positions.length / 3) : null
  }

  /**
   * What a kernel needs to answer locateFrom() and locate() over flat arrays (the hybrid gas's
   * traces, sim/hybrid/fullTraceKernel.ts): the index grid's placement, its cells'
   * tetrahedra (CSR), the padded boxes, the frames and the face neighbours. Needs the `frames`
   * and `walk` options.
   */
  flatIndex(): { origin: readonly [number, number, number]; dims: readonly [number, number, number]; inverseCell: number; cellStart: Int32Array; cellTets: Int32Array; boxes: Float64Array; frames: Float64Array; neighbours: Int32Array } {
    if (this.frames === null || this.neighbours === null) throw new EddyError('INTERNAL', 'tetrahedron locator: flatIndex needs the frames and walk options')
    return { origin: this.origin, dims: this.dims, inverseCell: this.inverseCell, cellStart: this.cellStart, cellTets: this.cellTets, boxes: this.boxes, frames: this.frames, neighbours: this.neighbours }
  }

  /**
   * What a kernel needs to answer locate() over flat arrays without the frames (the tetrahedral
   * liquid's traces, sim/tetliquid/traceDistanceKernel.ts): the index grid's placement, its
   * cells' tetrahedra (CSR) and the padded boxes.
   */
  indexArrays(): { origin: readonly [number, number, number]; dims: readonly [number, number, number]; inverseCell: number; cellStart: Int32Array; cellTets: Int32Array; boxes: Float64Array } {
    return { origin: this.origin, dims: this.dims, inverseCell: this.inverseCell, cellStart: this.cellStart, cellTets: this.cellTets, boxes: this.boxes }
  }

  /** out = [i0, j0, k0, i1, j1, k1]: the cells tetrahedron t's bounding box overlaps (before the boxes are padded). */
  private cellRange(t: number, out: Int32Array): void {
    const B = this.boxes
    for (let a = 0; a < 3; a++) {
      out[a] = this.axis(B[6 * t + a], a)
      out[3 + a] = this.axis(B[6 * t + 3 + a], a)
    }
  }

  private axis(x: number, a: number): number {
    const i = Math.floor((x - this.origin[a]) * this.inverseCell)
    return i < 0 ? 0 : i >= this.dims[a] ? this.dims[a] - 1 : i
  }

  /** barycentricCoordinates of (x, y, z) in tetrahedron t into out (from the frames when kept: the same bits). */
  barycentric(t: number, x: number, y: number, z: number, out: Float64Array): void {
    if (this.frames !== null) barycentricInFrame(this.frames, t, x, y, z, out)
    else barycentricCoordinates(this.positions, this.tets, t, x, y, z, out)
  }

  /** Whether tetrahedron t holds (x, y, z), within `slack` in barycentric terms (false for a flat tetrahedron). */
  contains(t: number, x: number, y: number, z: number, slack = 1e-12): boolean {
    const l = this.lambda
    this.barycentric(t, x, y, z, l)
    return l[0] >= -slack && l[1] >= -slack && l[2] >= -slack && l[3] >= -slack
  }

  /**
   * The barycentric coordinates of the last point locate() found, in the tetrahedron it returned
   * (valid until the next call): a cell's tetrahedra are tested in increasing order and the
   * first hit is the answer, so no test follows it.
   */
  get weights(): Float64Array {
    return this.lambda
  }

  /** The tetrahedron the last locate() returned (-1: none). */
  private last = -1

  /**
   * locate(), starting from tetrahedron `from` (a hint: where a short trace began): a walk of at
   * most WALK_STEPS steps across the face of the most negative weight, which stops in a
   * tetrahedron holding the point well inside (every weight above 1e-9). By locate()'s argument
   * that tetrahedron is the only one holding the point, so it is locate()'s answer, with the
   * same weights; a walk that leaves the tetrahedra or does not arrive asks locate(). Needs the
   * `walk` option (the face neighbours).
   */
  locateFrom(from: number, x: number, y: number, z: number): number {
    const nb = this.neighbours
    if (nb === null) throw new EddyError('INTERNAL', 'tetrahedron locator: locateFrom needs the walk option')
    const l = this.lambda
    let t = from
    for (let step = 0; step < WALK_STEPS && t >= 0; step++) {
      this.barycentric(t, x, y, z, l)
      // locate()'s test, as it writes it (a NaN weight fails it).
      if (l[0] > 1e-9 && l[1] > 1e-9 && l[2] > 1e-9 && l[3] > 1e-9) return (this.last = t)
      if (!(l[0] === l[0] && l[1] === l[1] && l[2] === l[2] && l[3] === l[3])) break
      let k = 0
      for (let q = 1; q < 4; q++) if (l[q] < l[k]) k = q
      t = nb[4 * t + k]
    }
    return this.locate(x, y, z)
  }

  /** The tetrahedron holding (x, y, z) (the lowest index where faces are shared), or -1 outside the mesh. */
  locate(x: number, y: number, z: number): number {
    // Queries come in runs of nearby points (a back-trace's two stages, neighbouring nodes): a
    // point well inside the last answer (every weight above 1e-9) has that answer alone, with
    // the same weights. Its weight in a neighbour across a face is then below -1e-9 divided by
    // the ratio of the two tetrahedra's heights over that face (a few tens at most, in a
    // graded mesh), far outside the search's -1e-12 slack, so the search would have found no
    // other, lower-numbered tetrahedron either.
    const last = this.last
    if (last >= 0) {
      const l = this.lambda
      this.barycentric(last, x, y, z, l)
      if (l[0] > 1e-9 && l[1] > 1e-9 && l[2] > 1e-9 && l[3] > 1e-9) return last
    }
    return (this.last = this.search(x, y, z))
  }

  /** locate() through the cell index. */
  private search(x: number, y: number, z: number): number {
    const [nx, ny, nz] = this.dims
    const c = indexCellAt(x, y, z, this.origin[0], this.origin[1], this.origin[2], nx, ny, nz, this.inverseCell)
    if (c < 0) return -1
    // Filled in increasing tetrahedron order, so the first hit is the lowest index. A
    // tetrahedron whose box does not hold the point cannot hold it (the boxes are padded
    // beyond contains()' slack), and six comparisons are cheaper than its coordinates: a
    // cell's candidates mostly only overlap it, and 40% of a dam break's back-traces end
    // outside the mesh, where every candidate is tested.
    const B = this.boxes
    for (let q = this.cellStart[c]; q < this.cellStart[c + 1]; q++) {
      const t = this.cellTets[q]
      if (outsideBox(B, t, x, y, z)) continue
      if (this.contains(t, x, y, z)) return t
    }
    return -1
  }

}

/** Each tetrahedron's bounding box, [x0, y0, z0, x1, y1, z1] per tetrahedron. */
function tetBoxes(positions: Float64Array, tets: Int32Array): Float64Array {
  const nt = tets.length / 4
  const B = new Float64Array(6 * nt)
  for (let t = 0; t < nt; t++) {
    for (let a = 0; a < 3; a++) {
      let mn = Infinity, mx = -Infinity
      for (let k = 0; k < 4; k++) {
        const x = positions[3 * tets[4 * t + k] + a]
        if (x < mn) mn = x
        if (x > mx) mx = x
      }
      B[6 * t + a] = mn
      B[6 * t + 3 + a] = mx
    }
  }
  return B
}

/**
 * Pads each box by 1e-9 of its largest extent: contains() accepts points whose weights are
 * down to -1e-12, at most about 1e-11 of the tetrahedron's diameter outside it (and rounding
 * adds far less), so no point it accepts lies outside the padded box.
 */
function padBoxes(B: Float64Array): void {
  for (let o = 0; o < B.length; o += 6) {
    const pad = 1e-9 * Math.max(B[o + 3] - B[o], B[o + 4] - B[o + 1], B[o + 5] - B[o + 2])
    for (let a = 0; a < 3; a++) {
      B[o + a] -= pad
      B[o + 3 + a] += pad
    }
  }
}

/**
 * Per tetrahedron t and vertex k, the tetrahedron sharing the face opposite vertex k (the
 * other one among those around the face's three vertices), or -1 where none does.
 */
export function tetFaceNeighbours(tets: Int32Array, vertexCount: number): Int32Array {
  const nt = tets.length / 4
  const start = new Int32Array(vertexCount + 1)
  for (let i = 0; i < tets.length; i++) start[tets[i] + 1]++
  for (let v = 0; v < vertexCount; v++) start[v + 1] += start[v]
  const around = new Int32Array(tets.length)
  const fill = start.slice(0, vertexCount)
  for (let i = 0; i < tets.length; i++) around[fill[tets[i]]++] = i >> 2
  const has = (t: number, v: number) => tets[4 * t] === v || tets[4 * t + 1] === v || tets[4 * t + 2] === v || tets[4 * t + 3] === v
  const out = new Int32Array(4 * nt).fill(-1)
  for (let t = 0; t < nt; t++) {
    for (let k = 0; k < 4; k++) {
      const a = tets[4 * t + ((k + 1) & 3)], b = tets[4 * t + ((k + 2) & 3)], c = tets[4 * t + ((k + 3) & 3)]
      for (let i = start[a]; i < start[a + 1]; i++) {
        const u = around[i]
        if (u !== t && has(u, b) && has(u, c)) {
          out[4 * t + k] = u
          break
        }
      }
    }
  }
  return out
}

/**
 * The index cell of a locator's grid (origin, nx x ny x nz cells of 1 / inverseCell) holding
 * (x, y, z), or -1 outside it: a point on the grid's far bounding planes belongs to the last
 * cell. TetLocator.search's first step, and the kernel rows' that search its index.
 */
export function indexCellAt(x: number, y: number, z: number, ox: number, oy: number, oz: number, nx: number, ny: number, nz: number, inverseCell: number): number {
  if (!(x >= ox && y >= oy && z >= oz)) return -1
  const i = Math.floor((x - ox) * inverseCell), j = Math.floor((y - oy) * inverseCell), k = Math.floor((z - oz) * inverseCell)
  const ci = i === nx ? nx - 1 : i, cj = j === ny ? ny - 1 : j, ck = k === nz ? nz - 1 : k
  if (ci >= nx || cj >= ny || ck >= nz) return -1
  return ci + nx * (cj + ny * ck)
}

/** Whether (x, y, z) lies outside tetrahedron t's box in B (6 per tetrahedron: min xyz, max xyz). */
export function outsideBox(B: Float64Array, t: number, x: number, y: number, z: number): boolean {
  const o = 6 * t
  return x < B[o] || y < B[o + 1] || z < B[o + 2] || x > B[o + 3] || y > B[o + 4] || z > B[o + 5]
}
