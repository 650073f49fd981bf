// A uniform hash grid over points for fixed-radius neighbour queries (the thickening particles'
// kernel sums). Built once per set of points by a counting sort; queries visit the 27 cells
// around a point and allocate nothing.
export class ParticleHash {
  private readonly origin: [number, number, number]
  private readonly dims: [number, number, number]
  private readonly inverseCell: number
  private readonly start: Int32Array
  readonly order: Int32Array

  /** positions: xyz per point; cell: the query radius the grid is sized for. */
  constructor(readonly positions: Float64Array, readonly cell: number) {
    const n = positions.length / 3
    const lo = [Infinity, Infinity, Infinity], hi = [-Infinity, -Infinity, -Infinity]
    for (let i = 0; i < n; i++) for (let a = 0; a < 3; a++) {
      lo[a] = Math.min(lo[a], positions[3 * i + a])
      hi[a] = Math.max(hi[a], positions[3 * i + a])
    }
    if (n === 0) lo.fill(0), hi.fill(0)
    this.origin = [lo[0], lo[1], lo[2]]
    this.inverseCell = 1 / cell
    this.dims = [0, 1, 2].map((a) => Math.min(1024, Math.floor((hi[a] - lo[a]) / cell) + 1)) as [number, number, number]
    const cells = this.dims[0] * this.dims[1] * this.dims[2]
    const start = new Int32Array(cells + 1)
    const cellOf = new Int32Array(n)
    for (let i = 0; i < n; i++) {
      cellOf[i] = this.cellIndex(positions[3 * i], positions[3 * i + 1], positions[3 * i + 2])
      start[cellOf[i] + 1]++
    }
    for (let c = 0; c < cells; c++) start[c + 1] += start[c]
    const fill = start.slice(0, cells)
    this.order = new Int32Array(n)
    for (let i = 0; i < n; i++) this.order[fill[cellOf[i]]++] = i
    this.start = start
  }

  private axis(x: number, a: number): number {
    const i = Math.floor((x - this.origin[a]) * this.inverseCell)
    return i < 0 ? 0 : i >= this.dims[a] ? this.dims[a] - 1 : i
  }

  /** [first, end) ranges of `order` that a query visits (rowRuns), two entries per grid row. */
  private runs = new Int32Array(64)

  /**
   * The points a query of `radius` at (x, y, z) must look at, as runs of `order`: one per grid
   * row of the cell box around it (the cells i0..i1 of a row are consecutive in `start`, so
   * their points are one run), rows in increasing j then k, i.e. the cells' index order.
   * Returns the number of runs; the ranges are in this.runs. Points beyond the grid's far
   * cells are filed in them, so the box is clamped to the grid, never cut.
   */
  private rowRuns(x: number, y: number, z: number, radius: number): number {
    const [nx, ny] = this.dims
    const i0 = this.axis(x - radius, 0), i1 = this.axis(x + radius, 0)
    const j0 = this.axis(y - radius, 1), j1 = this.axis(y + radius, 1)
    const k0 = this.axis(z - radius, 2), k1 = this.axis(z + radius, 2)
    const rows = (j1 - j0 + 1) * (k1 - k0 + 1)
    if (2 * rows > this.runs.length) this.runs = new Int32Array(4 * rows)
    const { runs, start } = this
    let n = 0
    for (let k = k0; k <= k1; k++) for (let j = j0; j <= j1; j++) {
      const row = nx * (j + ny * k)
      runs[2 * n] = start[row + i0]
      runs[2 * n + 1] = start[row + i1 + 1]
      n++
    }
    return n
  }

  private cellIndex(x: number, y: number, z: number): number {
    return this.axis(x, 0) + this.dims[0] * (this.axis(y, 1) + this.dims[1] * this.axis(z, 2))
  }

  /** Calls visit(i, squared distance) for every point within `radius` (at most the cell size) of (x, y, z); visit must not query this hash (the runs are shared). */
  forNear(x: number, y: number, z: number, radius: number, visit: (i: number, d2: number) => void): void {
    if (this.order.length === 0) return
    const r2 = radius * radius
    const { positions: p, order } = this
    const rows = this.rowRuns(x, y, z, radius)
    const runs = this.runs
    for (let r = 0; r < rows; r++) {
      for (let q = runs[2 * r]; q < runs[2 * r + 1]; q++) {
        const m = order[q]
        const dx = p[3 * m] - x, dy = p[3 * m + 1] - y, dz = p[3 * m + 2] - z
        const d2 = dx * dx + dy * dy + dz * dz
        if (d2 <= r2) visit(m, d2)
      }
    }
  }

  /**
   * The poly6-weighted mean of `values` over the points within `radius` (at most the cell
   * size) of (x, y, z), weights (radius^2 - d^2)^3 (the kernel's constant cancels), or NaN when
   * no point is that close. forNear's loop written out: a closure updating captured sums boxes
   * a number per visited point, and this runs for every node of the thickening grid.
   */
  poly6Mean(x: number, y: number, z: number, radius: number, values: Float64Array): number {
    if (this.order.length === 0) return NaN
    const r2 = radius * radius
    const { positions: p, order } = this
    const rows = this.rowRuns(x, y, z, radius)
    const runs = this.runs
    let num = 0, den = 0
    for (let r = 0; r < rows; r++) {
      for (let q = runs[2 * r]; q < runs[2 * r + 1]; q++) {
        const m = order[q]
        const dx = p[3 * m] - x, dy = p[3 * m + 1] - y, dz = p[3 * m + 2] - z
        const d2 = dx * dx + dy * dy + dz * dz
        if (!(d2 <= r2)) continue
        const w = (r2 - d2) ** 3
        num += w * values[m]
        den += w
      }
    }
    return den > 0 ? num / den : NaN
  }

  /**
   * Zhu and Bridson's particle surface at (x, y, z) (thickening.ts particleSurface): with
   * weights k = (1 - d^2 / radius^2)^3 over the points within `radius`, the distance to the
   * weighted mean position less the weighted mean of `radii`; +Infinity with no point that
   * close. The loop is written out for the reason poly6Mean gives.
   */
  zhuBridson(x: number, y: number, z: number, radius: number, radii: Float64Array): number {
    if (this.order.length === 0) return Infinity
    const s2 = radius * radius
    const { positions: p, order } = this
    const rows = this.rowRuns(x, y, z, radius)
    const runs = this.runs
    let w = 0, cx = 0, cy = 0, cz = 0, cr = 0
    for (let r = 0; r < rows; r++) {
      for (let q = runs[2 * r]; q < runs[2 * r + 1]; q++) {
        const m = order[q]
        const px = p[3 * m], py = p[3 * m + 1], pz = p[3 * m + 2]
        const dx = px - x, dy = py - y, dz = pz - z
        const d2 = dx * dx + dy * dy + dz * dz
        if (!(d2 <= s2)) continue
        const kw = (1 - d2 / s2) ** 3
        w += kw
        cx += kw * px; cy += kw * py; cz += kw * pz
        cr += kw * radii[m]
      }
    }
    if (!(w > 0)) return Infinity
    return Math.hypot(x - cx / w, y - cy / w, z - cz / w) - cr / w
  }
}
