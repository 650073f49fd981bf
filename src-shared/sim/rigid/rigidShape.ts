// A rigid body's geometry in body coordinates: the object's local axes, origin moved to the
// centre of mass. Three parts, as in Guendelman, Bridson and Fedkiw 2003 ("a
// triangulated surface and a signed distance function"):
//  - a triangle mesh, drawn by the viewport and whose vertices are the collision sample points;
//  - a signed distance (negative inside) with its gradient, the outward normal used for the
//    contact normal: exact formulas for the primitives (src-shared/geometry/primitiveSdf.ts),
//    and for meshes, which may be concave, a grid of exact mesh distances (MeshSdf) sampled
//    once and read back trilinearly, as Carlson 2004 (section 5.5) does for the bunnies and
//    gears ("distance fields were used to represent them allowing for constant time
//    inside/outside tests");
//  - a bounding radius about the centre of mass, for broad-phase culling and the time step
//    limit.
import { EddyError } from '../../api/errors'
import { boxSdf, cylinderSdf, ellipseSdf, ellipsoidSdf, type PrimitiveShape } from '../../geometry/primitiveSdf'
import { MeshSdf, sampleSdfGrid, sdfGridSampleCount } from '../../geometry/signedDistance'
import { MeshMemo } from '../../geometry/meshMemo'
import { computeVertexNormals, type TriMesh } from '../../geometry/triMesh'
import { meshMassProperties, primitiveMassProperties, type MassObjectRef, type MassProperties } from './massProperties'
import { boxMesh, boxSegments, cylinderMesh, ellipsoidMesh, uniquePositions } from './tessellate'

export type RigidShapeKind = PrimitiveShape | 'mesh'

const KIND_BOX = 0, KIND_SPHERE = 1, KIND_CYLINDER = 2, KIND_MESH = 3

export interface RigidShapeOptions {
  /** Mesh bodies: grid cells across the largest extent of the distance grid (default 48). */
  sdfResolution?: number
  /** Mesh bodies: extra sample points along edges longer than this fraction of the largest extent (default 1/16). */
  edgeSampleSpacing?: number
}

/** Trilinear grid of signed distances at cell corners, body coordinates. */
export interface SdfGrid {
  nx: number
  ny: number
  nz: number
  dx: number
  ox: number
  oy: number
  oz: number
  /** Values were clamped to +-band beyond it, so only |phi| < band carries a gradient. */
  band: number
  data: Float32Array
}

export class RigidShape {
  readonly kind: RigidShapeKind
  /** Mass properties of the object (centre of mass in object coordinates). */
  readonly massProperties: MassProperties
  /** Object-local position of the centre of mass: object = body + comOffset. */
  readonly comOffset: Float64Array
  /** Display mesh, body coordinates (centred on the centre of mass), with vertex normals. */
  readonly positions: Float32Array
  readonly indices: Uint32Array
  readonly normals: Float32Array
  /** Collision sample points, body coordinates, xyz. */
  readonly samples: Float64Array
  readonly sampleCount: number
  /** Largest distance from the centre of mass to the surface, m. */
  readonly boundingRadius: number
  /** Half extents of a body-axes box about the centre of mass containing the shape. */
  readonly halfExtents: Float64Array
  private readonly k: number
  // Half extents (box), semi-axes (ellipsoid), radii + half height (cylinder).
  private readonly hx: number
  private readonly hy: number
  private readonly hz: number
  private readonly uniform: boolean
  private readonly grid: SdfGrid | null

  /**
   * Primitive (`scale` per axis) or closed mesh (object coordinates, already scaled).
   * Throws INVALID_PARAM naming `obj` for a bad scale, density or mesh (see massProperties.ts).
   */
  constructor(kind: RigidShapeKind, scale: ArrayLike<number> | null, mesh: TriMesh | null, density: number, obj: MassObjectRef, opts: RigidShapeOptions = {}) {
    this.kind = kind
    if (kind === 'mesh') {
      if (!mesh) throw new EddyError('INVALID_PARAM', `Rigid body "${obj.name}": shape is "mesh" but no mesh was given`, { objectId: obj.id, field: 'mesh' })
      this.k = KIND_MESH
      this.massProperties = meshMassProperties(mesh, density, obj)
    } else {
      this.k = kind === 'box' ? KIND_BOX : kind === 'sphere' ? KIND_SPHERE : kind === 'cylinder' ? KIND_CYLINDER : -1
      if (this.k < 0) {
        throw new EddyError('INVALID_PARAM', `Rigid body "${obj.name}": unknown shape "${String(kind)}" (box, sphere, cylinder or mesh)`, { objectId: obj.id, field: 'shape', value: kind })
      }
      if (!scale || scale.length < 3) throw new EddyError('INVALID_PARAM', `Rigid body "${obj.name}": a ${kind} needs a scale of 3 numbers`, { objectId: obj.id, field: 'scale' })
      this.massProperties = primitiveMassProperties(kind, scale, density, obj)
    }
    this.comOffset = Float64Array.from(this.massProperties.centerOfMass)
    if (this.k === KIND_MESH) {
      const m = mesh!
      const c = this.comOffset
      const pos = new Float32Array(m.positions.length)
      for (let i = 0; i < pos.length; i += 3) {
        pos[i] = m.positions[i] - c[0]
        pos[i + 1] = m.positions[i + 1] - c[1]
        pos[i + 2] = m.positions[i + 2] - c[2]
      }
      const local: TriMesh = { positions: pos, indices: Uint32Array.from(m.indices) }
      this.positions = pos
      this.indices = local.indices
      let x0 = Infinity, y0 = Infinity, z0 = Infinity, x1 = -Infinity, y1 = -Infinity, z1 = -Infinity
      let r2 = 0
      for (let i = 0; i < pos.length; i += 3) {
        const x = pos[i], y = pos[i + 1], z = pos[i + 2]
        x0 = Math.min(x0, x); x1 = Math.max(x1, x)
        y0 = Math.min(y0, y); y1 = Math.max(y1, y)
        z0 = Math.min(z0, z); z1 = Math.max(z1, z)
        r2 = Math.max(r2, x * x + y * y + z * z)
      }
      this.boundingRadius = Math.sqrt(r2)
      this.halfExtents = Float64Array.of(Math.max(-x0, x1), Math.max(-y0, y1), Math.max(-z0, z1))
      const extent = Math.max(x1 - x0, y1 - y0, z1 - z0)
      const spacing = extent * (opts.edgeSampleSpacing ?? 1 / 16), resolution = opts.sdfResolution ?? 48
      const shared = BODY_MESHES.get(local, `${spacing}:${resolution}`, () => ({
        normals: computeVertexNormals(local),
        samples: meshSamples(local, spacing),
        grid: buildGrid(local, [x0, y0, z0], [x1, y1, z1], resolution, obj.name),
      }))
      // Each body its own normals and samples; the grid is read-only and shared.
      this.normals = shared.normals.slice()
      this.samples = shared.samples.slice()
      this.grid = shared.grid
      this.hx = this.hy = this.hz = 0
      this.uniform = false
    } else {
      const s = scale!
      this.hx = 0.5 * s[0]
      this.hy = 0.5 * s[1]
      this.hz = 0.5 * s[2]
      this.grid = null
      let t
      if (this.k === KIND_BOX) {
        t = boxMesh(this.hx, this.hy, this.hz, boxSegments(s[0], s[1], s[2]))
        this.uniform = true
        this.boundingRadius = Math.sqrt(this.hx * this.hx + this.hy * this.hy + this.hz * this.hz)
      } else if (this.k === KIND_SPHERE) {
        t = ellipsoidMesh(this.hx, this.hy, this.hz, 3)
        this.uniform = this.hx === this.hy && this.hy === this.hz
        this.boundingRadius = Math.max(this.hx, this.hy, this.hz)
      } else {
        t = cylinderMesh(this.hx, this.hz, this.hy)
        this.uniform = this.hx === this.hz
        const r = Math.max(this.hx, this.hz)
        this.boundingRadius = Math.sqrt(r * r + this.hy * this.hy)
      }
      this.positions = t.positions
      this.indices = t.indices
      this.normals = t.normals
      this.samples = uniquePositions(t.positions)
      this.halfExtents = Float64Array.of(this.hx, this.hy, this.hz)
    }
    this.sampleCount = this.samples.length / 3
  }

  /** Strictly convex (the ellipsoid): against a plane, its support point is its only contact. */
  /** A mesh's distance grid (null for primitives): what the coupling's kernel row samples. */
  get meshGrid(): SdfGrid | null {
    return this.k === KIND_MESH ? this.grid : null
  }

  get supportOnlyOnPlanes(): boolean {
    return this.k === KIND_SPHERE
  }

  /** Whether supportPoint() applies: smooth convex shapes, whose lowest point against a plane need not be a vertex. */
  get hasSupport(): boolean {
    return this.k === KIND_SPHERE || this.k === KIND_CYLINDER
  }

  /**
   * The shape's farthest point in body direction (dx, dy, dz) (its support point), into
   * out[0..2]: exact for the ellipsoid, (a^2 d_x, b^2 d_y, c^2 d_z) / sqrt(a^2 d_x^2 + ...), and for
   * the cylinder the rim point of the cap facing d. A rolling ball touches a floor between
   * its sample points, so contacts with planes use this point too. Returns false for shapes
   * without one (boxes, whose corners are samples, and meshes).
   */
  supportPoint(dx: number, dy: number, dz: number, out: Float64Array): boolean {
    const a = this.hx, b = this.hy, c = this.hz
    if (this.k === KIND_SPHERE) {
      const l = Math.sqrt(a * a * dx * dx + b * b * dy * dy + c * c * dz * dz)
      if (!(l > 0)) return false
      out[0] = (a * a * dx) / l
      out[1] = (b * b * dy) / l
      out[2] = (c * c * dz) / l
      return true
    }
    if (this.k === KIND_CYLINDER) {
      const l = Math.sqrt(a * a * dx * dx + c * c * dz * dz)
      out[0] = l > 0 ? (a * a * dx) / l : 0
      out[2] = l > 0 ? (c * c * dz) / l : 0
      out[1] = dy >= 0 ? b : -b
      return true
    }
    return false
  }

  /** Signed distance at a body-coordinates point, negative inside. */
  phi(x: number, y: number, z: number): number {
    switch (this.k) {
      case KIND_BOX:
        return boxSdf(x, y, z, this.hx, this.hy, this.hz)
      case KIND_SPHERE:
        return this.uniform ? Math.sqrt(x * x + y * y + z * z) - this.hx : ellipsoidSdf(x, y, z, this.hx, this.hy, this.hz)
      case KIND_CYLINDER:
        return cylinderSdf(x, y, z, this.hx, this.hz, this.hy)
      default:
        return gridPhi(this.grid!, x, y, z, null, 0)
    }
  }

  /**
   * Signed distance at a body-coordinates point and its unit gradient (the outward normal of
   * the nearest surface) into g[o..o+2]. Primitives: exact distance; the gradient is exact
   * for boxes, spheres and circular cylinders, and for ellipsoids and elliptic cylinders the
   * normal of the implicit surface at the point moved by -phi along that normal (an
   * estimate of the closest surface point; exact on the surface, where contacts are, and
   * off by O(phi^2) curvature terms near it). Meshes: trilinear interpolation of the grid and the
   * gradient of that interpolant. Where the gradient vanishes (the centre of a sphere, deep
   * inside a mesh beyond the grid's band) the direction from the centre of mass is used.
   */
  phiGrad(x: number, y: number, z: number, g: Float64Array, o: number): number {
    let d: number
    switch (this.k) {
      case KIND_BOX:
        d = boxPhiGrad(x, y, z, this.hx, this.hy, this.hz, g, o)
        break
      case KIND_SPHERE:
        if (this.uniform) {
          const r = Math.sqrt(x * x + y * y + z * z)
          d = r - this.hx
          g[o] = x; g[o + 1] = y; g[o + 2] = z
        } else {
          d = ellipsoidSdf(x, y, z, this.hx, this.hy, this.hz)
          ellipsoidNormal(x, y, z, d, this.hx, this.hy, this.hz, g, o)
        }
        break
      case KIND_CYLINDER:
        d = cylinderPhiGrad(x, y, z, this.hx, this.hz, this.hy, this.uniform, g, o)
        break
      default:
        d = gridPhi(this.grid!, x, y, z, g, o)
    }
    let gx = g[o], gy = g[o + 1], gz = g[o + 2]
    let l = Math.sqrt(gx * gx + gy * gy + gz * gz)
    if (!(l > 1e-12)) {
      gx = x; gy = y; gz = z
      l = Math.sqrt(gx * gx + gy * gy + gz * gz)
      if (!(l > 0)) {
        gx = 0; gy = 1; gz = 0; l = 1
      }
    }
    g[o] = gx / l
    g[o + 1] = gy / l
    g[o + 2] = gz / l
    return d
  }
}

/** Box SDF (as boxSdf) and its gradient: outside, from the nearest box point; inside, the nearest face's normal. */
function boxPhiGrad(x: number, y: number, z: number, hx: number, hy: number, hz: number, g: Float64Array, o: number): number {
  const sx = x < 0 ? -1 : 1, sy = y < 0 ? -1 : 1, sz = z < 0 ? -1 : 1
  const qx = Math.abs(x) - hx, qy = Math.abs(y) - hy, qz = Math.abs(z) - hz
  if (qx > 0 || qy > 0 || qz > 0) {
    const ox = qx > 0 ? qx : 0, oy = qy > 0 ? qy : 0, oz = qz > 0 ? qz : 0
    const d = Math.sqrt(ox * ox + oy * oy + oz * oz)
    g[o] = sx * ox; g[o + 1] = sy * oy; g[o + 2] = sz * oz
    return d
  }
  g[o] = 0; g[o + 1] = 0; g[o + 2] = 0
  if (qx >= qy && qx >= qz) {
    g[o] = sx
    return qx
  }
  if (qy >= qz) {
    g[o + 1] = sy
    return qy
  }
  g[o + 2] = sz
  return qz
}

/**
 * Unit normal for the ellipsoid of semi-axes (a, b, c) at a point at signed distance d:
 * the implicit surface's normal (x/a^2, y/b^2, z/c^2) taken at p - d n0, n0 that normal at
 * p. The true gradient is the normal at the closest surface point; one such step brings
 * the estimate from O(d) to O(d^2) of it.
 */
function ellipsoidNormal(x: number, y: number, z: number, d: number, a: number, b: number, c: number, g: Float64Array, o: number): void {
  let nx = x / (a * a), ny = y / (b * b), nz = z / (c * c)
  let l = Math.sqrt(nx * nx + ny * ny + nz * nz)
  if (!(l > 0)) {
    g[o] = 0; g[o + 1] = 0; g[o + 2] = 0
    return
  }
  const qx = x - (d * nx) / l, qy = y - (d * ny) / l, qz = z - (d * nz) / l
  nx = qx / (a * a); ny = qy / (b * b); nz = qz / (c * c)
  l = Math.sqrt(nx * nx + ny * ny + nz * nz)
  g[o] = nx / l; g[o + 1] = ny / l; g[o + 2] = nz / l
}

/** Same for the ellipse (x/a)^2 + (z/c)^2 = 1 in the xz plane: writes the unit normal into g[o], g[o + 2]. */
function ellipseNormal(x: number, z: number, d: number, a: number, c: number, g: Float64Array, o: number): void {
  let nx = x / (a * a), nz = z / (c * c)
  let l = Math.sqrt(nx * nx + nz * nz)
  if (!(l > 0)) {
    g[o] = 1; g[o + 2] = 0
    return
  }
  const qx = x - (d * nx) / l, qz = z - (d * nz) / l
  nx = qx / (a * a); nz = qz / (c * c)
  l = Math.sqrt(nx * nx + nz * nz)
  g[o] = nx / l; g[o + 2] = nz / l
}

/** Cylinder SDF (as cylinderSdf: radii a (x), c (z), half height h along y) and its gradient. */
function cylinderPhiGrad(x: number, y: number, z: number, a: number, c: number, h: number, uniform: boolean, g: Float64Array, o: number): number {
  let dr: number, rx: number, rz: number
  if (uniform) {
    const r = Math.sqrt(x * x + z * z)
    dr = r - a
    rx = r > 0 ? x / r : 1
    rz = r > 0 ? z / r : 0
  } else {
    dr = ellipseSdf(x, z, a, c)
    ellipseNormal(x, z, dr, a, c, g, o)
    rx = g[o]
    rz = g[o + 2]
  }
  const dy = Math.abs(y) - h
  const sy = y < 0 ? -1 : 1
  if (dr > 0 || dy > 0) {
    const ox = dr > 0 ? dr : 0, oy = dy > 0 ? dy : 0
    g[o] = ox * rx; g[o + 1] = oy * sy; g[o + 2] = ox * rz
    return Math.sqrt(ox * ox + oy * oy)
  }
  if (dr > dy) {
    g[o] = rx; g[o + 1] = 0; g[o + 2] = rz
    return dr
  }
  g[o] = 0; g[o + 1] = sy; g[o + 2] = 0
  return dy
}

/** The grid's trilinear value at (x, y, z), and if g is given its gradient (sdfGridValue). */
function gridPhi(grid: SdfGrid, x: number, y: number, z: number, g: Float64Array | null, o: number): number {
  return sdfGridValue(grid.data, grid.nx, grid.ny, grid.nz, grid.dx, grid.ox, grid.oy, grid.oz, x, y, z, g, o)
}

/**
 * Trilinear value at (x, y, z) of a distance grid given by flat arguments (corner values,
 * cell counts, spacing, origin), and if g is given the gradient of the trilinear interpolant
 * into g[o..]. Outside the grid, the value at the nearest grid point plus the distance to it:
 * an upper bound of the distance, positive (the grid extends past the mesh by more than the
 * band), which is all collision detection needs there. The value is what the coupling's
 * kernel rows (liquid/meshBodyKernels.ts) and their WebAssembly twins evaluate, the same
 * float64 expressions in the same order.
 */
export function sdfGridValue(data: Float32Array, nx: number, ny: number, nz: number, dx: number, ox: number, oy: number, oz: number, x: number, y: number, z: number, g: Float64Array | null = null, o = 0): number {
  const inv = 1 / dx
  let fx = (x - ox) * inv, fy = (y - oy) * inv, fz = (z - oz) * inv
  let ex = 0, ey = 0, ez = 0
  if (fx < 0) { ex = fx; fx = 0 } else if (fx > nx) { ex = fx - nx; fx = nx }
  if (fy < 0) { ey = fy; fy = 0 } else if (fy > ny) { ey = fy - ny; fy = ny }
  if (fz < 0) { ez = fz; fz = 0 } else if (fz > nz) { ez = fz - nz; fz = nz }
  let i = Math.floor(fx), j = Math.floor(fy), k = Math.floor(fz)
  if (i >= nx) i = nx - 1
  if (j >= ny) j = ny - 1
  if (k >= nz) k = nz - 1
  const tx = fx - i, ty = fy - j, tz = fz - k
  const sx = nx + 1, sxy = sx * (ny + 1)
  const b = i + sx * j + sxy * k
  const c000 = data[b], c100 = data[b + 1], c010 = data[b + sx], c110 = data[b + sx + 1]
  const c001 = data[b + sxy], c101 = data[b + sxy + 1], c011 = data[b + sxy + sx], c111 = data[b + sxy + sx + 1]
  const c00 = c000 + tx * (c100 - c000), c10 = c010 + tx * (c110 - c010)
  const c01 = c001 + tx * (c101 - c001), c11 = c011 + tx * (c111 - c011)
  const c0 = c00 + ty * (c10 - c00), c1 = c01 + ty * (c11 - c01)
  let d = c0 + tz * (c1 - c0)
  const outside = ex !== 0 || ey !== 0 || ez !== 0
  if (outside) d += dx * Math.sqrt(ex * ex + ey * ey + ez * ez)
  if (g) {
    if (outside) {
      g[o] = ex; g[o + 1] = ey; g[o + 2] = ez
    } else {
      // Partial derivatives of the trilinear interpolant, per unit length.
      const ux = (1 - ty) * (1 - tz) * (c100 - c000) + ty * (1 - tz) * (c110 - c010) + (1 - ty) * tz * (c101 - c001) + ty * tz * (c111 - c011)
      const uy = (1 - tx) * (1 - tz) * (c010 - c000) + tx * (1 - tz) * (c110 - c100) + (1 - tx) * tz * (c011 - c001) + tx * tz * (c111 - c101)
      const uz = (1 - tx) * (1 - ty) * (c001 - c000) + tx * (1 - ty) * (c101 - c100) + (1 - tx) * ty * (c011 - c010) + tx * ty * (c111 - c110)
      g[o] = ux * inv; g[o + 1] = uy * inv; g[o + 2] = uz * inv
    }
  }
  return d
}

/**
 * Distance grid of a (COM-centred) mesh: cubic cells of edge dx = largest extent /
 * resolution, covering the mesh's bounds plus the band and one cell on every side, exact
 * mesh distances (MeshSdf, generalized winding number sign, so a concave mesh is signed
 * right) at the corners within a band of 4 cells of the surface and +-band beyond. The band
 * is what contacts need (penetrations are a fraction of a cell per step; the time step
 * limits motion to about a fluid cell) and keeps the sampling cheap.
 */
/**
 * What a mesh body derives from its centred mesh, by content (meshMemo.ts): a scene's copies of
 * one mesh (the eight gears of gears-and-bunnies) share one distance grid, which is read-only,
 * instead of each sampling the same exact distances again (2.5 s of that scene's 2.8 s setup),
 * and their vertex normals and collision samples. A few meshes only (a grid is a few hundred kB).
 */
const BODY_MESHES = new MeshMemo<{ normals: Float32Array; samples: Float64Array; grid: SdfGrid }>(8)

function buildGrid(mesh: TriMesh, lo: number[], hi: number[], resolution: number, name: string): SdfGrid {
  if (!Number.isInteger(resolution) || resolution < 4 || resolution > 512) {
    throw new EddyError('INVALID_PARAM', `Rigid body "${name}": sdfResolution must be an integer in 4..512, got ${resolution}`)
  }
  const extent = Math.max(hi[0] - lo[0], hi[1] - lo[1], hi[2] - lo[2])
  const dx = extent / resolution
  const band = 4 * dx
  const pad = band + dx
  const ox = lo[0] - pad, oy = lo[1] - pad, oz = lo[2] - pad
  const nx = Math.ceil((hi[0] - lo[0] + 2 * pad) / dx)
  const ny = Math.ceil((hi[1] - lo[1] + 2 * pad) / dx)
  const nz = Math.ceil((hi[2] - lo[2] + 2 * pad) / dx)
  const spec = { nx, ny, nz, dx, origin: [ox, oy, oz] }
  const data = new Float32Array(sdfGridSampleCount(spec, 'corner'))
  sampleSdfGrid(new MeshSdf(mesh, { name }), spec, data, { at: 'corner', band })
  return { nx, ny, nz, dx, ox, oy, oz, band, data }
}

/**
 * Collision samples of a mesh: its distinct vertices, plus points along edges longer than
 * `spacing` (a long edge of a coarse mesh, say the rim of an L-shaped block, would otherwise
 * pass through another body between its two end points).
 */
function meshSamples(mesh: TriMesh, spacing: number): Float64Array {
  const p = mesh.positions, idx = mesh.indices
  const base = uniquePositions(p)
  const extra: number[] = []
  // Vertices are told apart by position (seams of duplicated vertices share their edges): one
  // id per distinct position, whose "x,y,z" text orders an edge's ends as it always has. A
  // text key per edge end (two a triangle side, three sides a triangle) was most of this
  // function's time on the bunny.
  const nv = p.length / 3
  const idOf = new Map<string, number>()
  const keys: string[] = []
  const vertexId = new Int32Array(nv)
  for (let i = 0; i < nv; i++) {
    const key = `${p[3 * i]},${p[3 * i + 1]},${p[3 * i + 2]}`
    let id = idOf.get(key)
    if (id === undefined) {
      id = keys.length
      idOf.set(key, id)
      keys.push(key)
    }
    vertexId[i] = id
  }
  const ids = keys.length
  const seen = new Set<number>()
  for (let t = 0; t + 2 < idx.length; t += 3) {
    for (let e = 0; e < 3; e++) {
      const a = idx[t + e], b = idx[t + ((e + 1) % 3)]
      const ia = vertexId[a], ib = vertexId[b]
      const edge = ia < ib ? ia * ids + ib : ib * ids + ia
      if (seen.has(edge)) continue
      seen.add(edge)
      const ex = p[3 * b] - p[3 * a], ey = p[3 * b + 1] - p[3 * a + 1], ez = p[3 * b + 2] - p[3 * a + 2]
      const len = Math.sqrt(ex * ex + ey * ey + ez * ez)
      const n = Math.ceil(len / spacing - 1e-9)
      if (n <= 1) continue
      // Points at fractions s/n from the end whose key is lower, so both triangles of an edge
      // (if ever visited twice) would give the same points.
      const forward = keys[ia] < keys[ib]
      const s0 = forward ? a : b, sx = forward ? ex : -ex, sy = forward ? ey : -ey, sz = forward ? ez : -ez
      for (let s = 1; s < n; s++) {
        const f = s / n
        extra.push(p[3 * s0] + f * sx, p[3 * s0 + 1] + f * sy, p[3 * s0 + 2] + f * sz)
      }
    }
  }
  if (extra.length === 0) return base
  const out = new Float64Array(base.length + extra.length)
  out.set(base)
  out.set(extra, base.length)
  return out
}
