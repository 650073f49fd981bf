// Point location in the hybrid mesh (seed 000 sections 3.1 and 3.3): which cell holds a point,
// for the semi-Lagrangian back-traces and the tracker particles. Hexahedra are perfect boxes of
// the domain's grid (hybridMesh.ts), so a point in a hexahedral cube is in that cube's
// hexahedron with one floor per axis; a point in a band cube is in one of the tetrahedra
// stuffed there (TetLocator over the mesh's tetrahedra, tetrahedron t being cell hexCount + t)
// or, when none holds it, inside an obstacle. Solid cubes and everything outside the domain
// are not fluid (-1).
//
// A trace that leaves the fluid (through a wall or into an obstacle) stops at the last point
// inside along its segment (section 3.3 leaves this to the implementation; Stam 1999 clamps):
// lastInside() bisects between a known inside point and the outside end. The inside set along
// a segment need not be an interval (a trace may clip an obstacle's corner and come out
// again); bisection then settles on some crossing, always the same one for the same input.
// Allocation free per query.
import { EddyError } from '../../api/errors'
import { TetLocator } from '../../geometry/tetmesh/tetLocator'
import { CUBE_BAND, CUBE_HEX, type HybridMesh } from './hybridMesh'

/** Bisection steps of lastInside: the stop point is within 2^-24 of the segment's length of the crossing. */
export const LAST_INSIDE_STEPS = 24
/** How close (in cube edges) to a band cube's face a point may be to count as on the hexahedron beyond when no tetrahedron holds it. */
export const FACE_SNAP = 1e-9

/**
 * The grid cube (x fastest) holding (x, y, z) on a grid of nx x ny x nz cubes at (ox, oy, oz)
 * with 1 / edge invH, a point on the far side in the last cube; -1 outside the grid or for NaN.
 */
export function gridCubeAt(x: number, y: number, z: number, nx: number, ny: number, nz: number, ox: number, oy: number, oz: number, invH: number): number {
  const fx = (x - ox) * invH, fy = (y - oy) * invH, fz = (z - oz) * invH
  // Written so that NaN fails too.
  if (!(fx >= 0 && fy >= 0 && fz >= 0 && fx <= nx && fy <= ny && fz <= nz)) return -1
  let i = Math.floor(fx), j = Math.floor(fy), k = Math.floor(fz)
  if (i === nx) i--
  if (j === ny) j--
  if (k === nz) k--
  return i + nx * (j + ny * k)
}

export class HybridLocator {
  private readonly tetLocator: TetLocator | null
  private readonly nx: number
  private readonly ny: number
  private readonly nz: number
  private readonly ox: number
  private readonly oy: number
  private readonly oz: number
  private readonly invH: number
  /**
   * The cell of the last cellAt() when a tetrahedron search found it (else -1): then `weights`
   * holds the point's barycentric coordinates in it, as barycentricCoordinates gives them.
   */
  lastTetCell = -1
  private readonly lambda = new Float64Array(4)

  constructor(readonly mesh: HybridMesh) {
    const { grid, cubeRole, cubeHex, tetCount } = mesh
    if (cubeRole.length !== grid.nx * grid.ny * grid.nz || cubeHex.length !== cubeRole.length) {
      throw new EddyError('INVALID_PARAM', `hybrid locator: ${cubeRole.length} cube roles for a ${grid.nx} x ${grid.ny} x ${grid.nz} grid`)
    }
    this.nx = grid.nx; this.ny = grid.ny; this.nz = grid.nz
    this.ox = grid.origin[0]; this.oy = grid.origin[1]; this.oz = grid.origin[2]
    this.invH = 1 / grid.dx
    // Half a cube per index cell, as the tetrahedral liquid's locator uses for stuffed meshes.
    this.tetLocator = tetCount > 0 ? new TetLocator(mesh.positions, mesh.tets, 0.5 * grid.dx, { frames: true, walk: true }) : null
  }

  /**
   * The cell holding (x, y, z), or -1 outside the fluid (outside the domain, in a solid cube,
   * inside an obstacle). `near`: a cell the point is likely in or beside (a short trace's
   * start); a tetrahedron there starts the band's search by walking from it (the same answer).
   */
  cellAt(x: number, y: number, z: number, near = -1): number {
    this.lastTetCell = -1
    const { nx, ny, nz } = this
    const cube = gridCubeAt(x, y, z, nx, ny, nz, this.ox, this.oy, this.oz, this.invH)
    if (cube < 0) return -1
    const role = this.mesh.cubeRole[cube]
    if (role === CUBE_HEX) return this.mesh.cubeHex[cube]
    if (role !== CUBE_BAND) return -1
    const t = near >= this.mesh.hexCount ? this.tetLocator!.locateFrom(near - this.mesh.hexCount, x, y, z) : this.tetLocator!.locate(x, y, z)
    if (t >= 0) return (this.lastTetCell = this.mesh.hexCount + t)
    // The point's place in its cube (the expressions gridCubeAt used).
    const i = cube % nx, r = (cube - i) / nx, j = r % ny, k = (r - j) / ny
    return this.snapToHex((x - this.ox) * this.invH - i, (y - this.oy) * this.invH - j, (z - this.oz) * this.invH - k, i, j, k)
  }

  /** The tetrahedra's locator (null on a mesh without tetrahedra). */
  get tetrahedra(): TetLocator | null {
    return this.tetLocator
  }

  /** The barycentric coordinates of the last cellAt() point in lastTetCell's tetrahedron. */
  get weights(): Float64Array {
    return this.tetLocator!.weights
  }

  /**
   * The barycentric coordinates of (x, y, z) in tetrahedral cell `cell` (from the locator's
   * kept terms: the bits of barycentricCoordinates), valid until the next call.
   */
  barycentricIn(cell: number, x: number, y: number, z: number): Float64Array {
    this.tetLocator!.barycentric(cell - this.mesh.hexCount, x, y, z, this.lambda)
    return this.lambda
  }

  /**
   * A point of a band cube that no tetrahedron holds is inside an obstacle, unless rounding put
   * it a hair outside the tetrahedra on the cube's face towards a hexahedron: then it is that
   * hexahedron's (the face is shared exactly, so the point is on it to rounding).
   */
  private snapToHex(u: number, v: number, w: number, i: number, j: number, k: number): number {
    const di = u < FACE_SNAP ? -1 : u > 1 - FACE_SNAP ? 1 : 0
    const dj = v < FACE_SNAP ? -1 : v > 1 - FACE_SNAP ? 1 : 0
    const dk = w < FACE_SNAP ? -1 : w > 1 - FACE_SNAP ? 1 : 0
    let e = di !== 0 ? this.hexAt(i + di, j, k) : -1
    if (e < 0 && dj !== 0) e = this.hexAt(i, j + dj, k)
    if (e < 0 && dk !== 0) e = this.hexAt(i, j, k + dk)
    return e
  }

  /** The hexahedron of cube (i, j, k), or -1 (not a hexahedron, or outside the grid). */
  private hexAt(i: number, j: number, k: number): number {
    const { nx, ny, nz } = this
    if (i < 0 || j < 0 || k < 0 || i >= nx || j >= ny || k >= nz) return -1
    return this.mesh.cubeHex[i + nx * (j + ny * k)]
  }

  /**
   * The last point inside the fluid on the segment from a = (ax, ay, az), inside in cell ca,
   * to b = (bx, by, bz): b itself when b is inside, else the bisection's last inside point
   * (LAST_INSIDE_STEPS halvings; a itself when every probe was outside). Writes it to
   * out[o .. o+2] and returns its cell.
   */
  lastInside(ax: number, ay: number, az: number, ca: number, bx: number, by: number, bz: number, out: Float64Array, o = 0): number {
    const cb = this.cellAt(bx, by, bz)
    if (cb >= 0) {
      out[o] = bx; out[o + 1] = by; out[o + 2] = bz
      return cb
    }
    const dx = bx - ax, dy = by - ay, dz = bz - az
    let lo = 0, hi = 1, cell = ca
    for (let s = 0; s < LAST_INSIDE_STEPS; s++) {
      const mid = 0.5 * (lo + hi)
      const c = this.cellAt(ax + mid * dx, ay + mid * dy, az + mid * dz)
      if (c >= 0) {
        lo = mid
        cell = c
      } else hi = mid
    }
    out[o] = ax + lo * dx; out[o + 1] = ay + lo * dy; out[o + 2] = az + lo * dz
    return cell
  }
}
