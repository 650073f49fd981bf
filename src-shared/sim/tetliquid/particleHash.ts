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

  private cellIndex(x: number, y: number, z: number): number {
    return this.axis(x, 0) + this.dims[0] * (this.axis(y, 1) + this.dims[1] * this.axis(z, 2))
  }

  /** Calls visit(i, squared distance) for every point within `radius` (at most the cell size) of (x, y, z). */
  forNear(x: number, y: number, z: number, radius: number, visit: (i: number, d2: number) => void): void {
    if (this.order.length === 0) return
    const r2 = radius * radius
    const p = this.positions
    const [nx, ny, nz] = this.dims
    // Points beyond the grid's far cells are filed in them: widen the search there.
    const i0 = this.axis(x - radius, 0), i1 = this.axis(x + radius, 0)
    const j0 = this.axis(y - radius, 1), j1 = this.axis(y + radius, 1)
    const k0 = this.axis(z - radius, 2), k1 = this.axis(z + radius, 2)
    for (let k = k0; k <= k1 && k < nz; k++) for (let j = j0; j <= j1 && j < ny; j++) for (let i = i0; i <= i1 && i < nx; i++) {
      const c = i + nx * (j + ny * k)
      for (let q = this.start[c]; q < this.start[c + 1]; q++) {
        const m = this.order[q]
        const dx = p[3 * m] - x, dy = p[3 * m + 1] - y, dz = p[3 * m + 2] - z
        const d2 = dx * dx + dy * dy + dz * dz
        if (d2 <= r2) visit(m, d2)
      }
    }
  }

  /**
   * The poly6-weighted mean of `values` over the points within `radius` (at most the cell
   * size) of (x, y, z), weights (radius^2 - d^2)^3 (the kernel's constant cancels), or NaN when
   * no point is that close.
   */
  poly6Mean(x: number, y: number, z: number, radius: number, values: Float64Array): number {
    const r2 = radius * radius
    let num = 0, den = 0
    this.forNear(x, y, z, radius, (m, d2) => {
      const w = (r2 - d2) ** 3
      num += w * values[m]
      den += w
    })
    return den > 0 ? num / den : NaN
  }
}
