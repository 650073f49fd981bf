// Point location in a stuffed tetrahedral mesh: which tetrahedron holds a point (the
// semi-Lagrangian back-traces of the tetrahedral liquid ask this for every sample). Stuffed
// meshes come from a lattice, so a uniform grid of cells one lattice spacing wide is their
// natural index: each tetrahedron is filed under the cell holding its centroid, and a query
// tests the tetrahedra filed within reach of the point's cell, reach being the largest distance
// from any tetrahedron's centroid to its corners (a tetrahedron holding the point has its
// centroid that close). In a uniform mesh that is one ring of cells; graded interiors reach
// further, where few tetrahedra are filed. Allocation free per query.
import { EddyError } from '../../api/errors'
import { barycentricCoordinates } from './tetBarycentric'

export class TetLocator {
  private readonly origin: [number, number, number]
  private readonly dims: [number, number, number]
  private readonly inverseCell: number
  private readonly cellStart: Int32Array
  private readonly cellTets: Int32Array
  /** Rings of cells a query searches. */
  readonly reach: number
  private readonly lambda = new Float64Array(4)

  constructor(private readonly positions: Float64Array, private readonly tets: Int32Array, cellSize: number) {
    if (!(cellSize > 0)) throw new EddyError('INVALID_PARAM', `tetrahedron locator: cell size must be positive, got ${cellSize}`)
    const nt = tets.length / 4
    const lo = [Infinity, Infinity, Infinity], hi = [-Infinity, -Infinity, -Infinity]
    for (let v = 0; v < positions.length / 3; v++) for (let a = 0; a < 3; a++) {
      const x = positions[3 * v + a]
      if (x < lo[a]) lo[a] = x
      if (x > hi[a]) hi[a] = x
    }
    this.origin = [lo[0], lo[1], lo[2]]
    this.inverseCell = 1 / cellSize
    this.dims = [0, 1, 2].map((a) => Math.max(1, Math.floor((hi[a] - lo[a]) / cellSize) + 1)) as [number, number, number]
    const cells = this.dims[0] * this.dims[1] * this.dims[2]
    if (!(cells <= 2 ** 28)) throw new EddyError('INVALID_PARAM', `tetrahedron locator: ${this.dims.join(' x ')} cells is too many (cell size ${cellSize} against a mesh ${hi.map((h, a) => h - lo[a]).join(' x ')} across)`)
    const cellOf = new Int32Array(nt)
    const count = new Int32Array(cells + 1)
    let reach2 = 0
    for (let t = 0; t < nt; t++) {
      let cx = 0, cy = 0, cz = 0
      for (let k = 0; k < 4; k++) {
        const v = tets[4 * t + k]
        cx += positions[3 * v]; cy += positions[3 * v + 1]; cz += positions[3 * v + 2]
      }
      cx /= 4; cy /= 4; cz /= 4
      for (let k = 0; k < 4; k++) {
        const v = tets[4 * t + k]
        const d2 = (positions[3 * v] - cx) ** 2 + (positions[3 * v + 1] - cy) ** 2 + (positions[3 * v + 2] - cz) ** 2
        if (d2 > reach2) reach2 = d2
      }
      const c = this.cellIndex(cx, cy, cz)
      cellOf[t] = c
      count[c + 1]++
    }
    for (let c = 0; c < cells; c++) count[c + 1] += count[c]
    this.cellStart = count
    this.cellTets = new Int32Array(nt)
    const fill = count.slice(0, cells)
    for (let t = 0; t < nt; t++) this.cellTets[fill[cellOf[t]]++] = t
    this.reach = Math.ceil(Math.sqrt(reach2) * this.inverseCell)
  }

  private axis(x: number, a: number): number {
    const i = Math.floor((x - this.origin[a]) * this.inverseCell)
    return i < 0 ? 0 : i >= this.dims[a] ? this.dims[a] - 1 : i
  }

  private cellIndex(x: number, y: number, z: number): number {
    return this.axis(x, 0) + this.dims[0] * (this.axis(y, 1) + this.dims[1] * this.axis(z, 2))
  }

  /** Whether tetrahedron t holds (x, y, z), within `slack` in barycentric terms (false for a flat tetrahedron). */
  contains(t: number, x: number, y: number, z: number, slack = 1e-12): boolean {
    const l = this.lambda
    barycentricCoordinates(this.positions, this.tets, t, x, y, z, l)
    return l[0] >= -slack && l[1] >= -slack && l[2] >= -slack && l[3] >= -slack
  }

  /** The tetrahedron holding (x, y, z) (the lowest index where faces are shared), or -1 outside the mesh. */
  locate(x: number, y: number, z: number): number {
    const i0 = this.axis(x, 0), j0 = this.axis(y, 1), k0 = this.axis(z, 2)
    const [nx, ny, nz] = this.dims
    const R = this.reach
    let best = -1
    for (let k = Math.max(0, k0 - R); k <= Math.min(nz - 1, k0 + R); k++) {
      for (let j = Math.max(0, j0 - R); j <= Math.min(ny - 1, j0 + R); j++) {
        for (let i = Math.max(0, i0 - R); i <= Math.min(nx - 1, i0 + R); i++) {
          const c = i + nx * (j + ny * k)
          for (let q = this.cellStart[c]; q < this.cellStart[c + 1]; q++) {
            const t = this.cellTets[q]
            if ((best < 0 || t < best) && this.contains(t, x, y, z)) best = t
          }
        }
      }
    }
    return best
  }
}
