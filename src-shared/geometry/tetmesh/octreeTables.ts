// The graded lattice's two look-up tables (gradedLattice.ts): every octree cell by (level, i,
// j, k), and every leaf corner's vertex id by its integer coordinates. Both are asked millions
// of times a mesh (the 2:1 balance looks at 26 neighbours a leaf, each walking up the levels;
// a leaf's eight corners and its faces' midpoints), and both live in a box known up front: the
// top grid's n cells a side at level D, so n << (D - l) at level l, and the finest corners'
// (n << D) + 1. Each entry therefore has a position in that box, and where the box is small
// enough the table is a flat array indexed by it; hashing every look-up (keyMap.ts) was most of
// the build: the liquid's dam break at resolution 96 builds a 64^3 octree of some 186,000
// leaves every frame. Beyond the limit (a huge domain or a fine spacing) the same positions are
// hashed (below 2^53: at most 32768 finest cells a side). Either gives the same answers, so the
// lattice is the same whichever is used.
import { KeyMap } from './keyMap'

/** Entries above which a table hashes instead of indexing a flat array (16M: 64 MB of int32). */
export const DENSE_TABLE_LIMIT = 1 << 24

/** Int32 values (>= 0) by position in a box of `total` entries, -1 where none was set. */
class PositionTable {
  private readonly dense: Int32Array | null
  private readonly hashed: KeyMap | null

  /** `expected` entries for the hashed form. */
  constructor(total: number, expected: number, limit: number) {
    this.dense = total <= limit ? new Int32Array(total).fill(-1) : null
    this.hashed = this.dense === null ? new KeyMap(expected) : null
  }

  get(position: number): number {
    const d = this.dense
    return d !== null ? d[position] : this.hashed!.get(position)
  }

  set(position: number, value: number): void {
    const d = this.dense
    if (d !== null) d[position] = value
    else this.hashed!.set(position, value)
  }
}

/** Int32 values (>= 0) of the octree's cells, -1 for a cell never set. */
export class OctreeCells {
  private readonly table: PositionTable
  /** Per level: where its cells start (level D's, the top grid's, last), and its cells along x and y. */
  private readonly start: Float64Array
  private readonly nx: Int32Array
  private readonly ny: Int32Array

  /** A top grid of n[0] x n[1] x n[2] cells at level D; `expected` cells for the hashed form. */
  constructor(n: ArrayLike<number>, D: number, expected: number, limit = DENSE_TABLE_LIMIT) {
    this.start = new Float64Array(D + 1)
    this.nx = new Int32Array(D + 1)
    this.ny = new Int32Array(D + 1)
    let total = 0
    for (let l = 0; l <= D; l++) {
      const s = D - l
      this.start[l] = total
      this.nx[l] = n[0] << s
      this.ny[l] = n[1] << s
      total += (n[0] << s) * (n[1] << s) * (n[2] << s)
    }
    this.table = new PositionTable(total, expected, limit)
  }

  /** The value of cell (l, i, j, k), which must lie in level l's grid; -1 if never set. */
  get(l: number, i: number, j: number, k: number): number {
    return this.table.get(this.start[l] + i + this.nx[l] * (j + this.ny[l] * k))
  }

  set(l: number, i: number, j: number, k: number, value: number): void {
    this.table.set(this.start[l] + i + this.nx[l] * (j + this.ny[l] * k), value)
  }
}

/**
 * Vertex ids (>= 0) of the lattice's leaf corners by integer coordinates (half finest spacings:
 * corners are even, 0 .. 2 N along an axis of N finest cells), -1 where none was set.
 */
export class CornerIds {
  private readonly table: PositionTable
  private readonly sx: number
  private readonly sy: number

  /** N[a] finest cells along axis a; `expected` corners for the hashed form. */
  constructor(N: ArrayLike<number>, expected: number, limit = DENSE_TABLE_LIMIT) {
    this.sx = N[0] + 1
    this.sy = N[1] + 1
    this.table = new PositionTable((N[0] + 1) * (N[1] + 1) * (N[2] + 1), expected, limit)
  }

  /** The id at even coordinates (x, y, z) inside the grid, or -1. */
  get(x: number, y: number, z: number): number {
    return this.table.get((x >> 1) + this.sx * ((y >> 1) + this.sy * (z >> 1)))
  }

  set(x: number, y: number, z: number, id: number): void {
    this.table.set((x >> 1) + this.sx * ((y >> 1) + this.sy * (z >> 1)), id)
  }
}
