// The contouring grid of semi-Lagrangian contouring (seed 003 section 3.2, after Bargteil et
// al. 2006): a regular grid of nodes over the domain, twice as fine as the tetrahedral mesh's
// finest leaves ("the resolution of M_t is chosen so its boundary edges generally have twice
// the length of the edges of S_t"), holding the liquid's signed distance f (negative inside,
// this repository's convention; the paper's f is positive inside). Marching cubes over it
// gives the surface triangulation S_t, and S_t's own signed distance, exact near the surface
// (closest points on its triangles, a BVH query) and the grid's value further away, is what
// the next step's back-traces read. Beyond the domain on every side are two layers of nodes: a
// mirror layer (surfaceTracking.ts) and a padding layer kept outside (f = +band), so S_t is
// always closed, as a signed distance needs.
//
// S_t is piecewise flat: marching cubes puts its vertices on the surface and its faces are
// chords inside a convex part (outside a concave one) by up to e^2 / 8R for edges e and radius
// R. Read back as S_t's distance and contoured again, every step inscribes a new polyhedron in
// the last one: a sphere of 7 cells radius carried once round by an exact rotation lost 40% of
// its volume. The distance is therefore measured to S_t's Phong tessellation (Boubekeur and
// Alexa 2008) rather than its flat triangles: the closest point p on triangle (a, b, c), with
// barycentric weights w, is lifted to p* = p + alpha (sum_i w_i pi_i(p) - p), pi_i the
// projection on vertex i's tangent plane, and the distance corrected by (p* - p) . n of the
// face. alpha = 1/2: on a sphere the full lift (alpha = 1) overshoots an edge's midpoint by
// exactly the chord's sagitta (R theta^2 / 8 outside against R theta^2 / 8 inside), so half
// of it cancels the error to second order (Boubekeur and Alexa suggest 3/4 for looks).
//
// Marching cubes places a vertex where the linear interpolation of the two node values on its
// edge crosses 0; the signed distance of a curved surface is not linear along an edge (convex
// across a sphere), so the vertex lands inside it by another O(e^2 / R). Where the function
// contoured can be evaluated anywhere (f+ can: a back-trace and a distance), each vertex is
// moved by one regula falsi step along its edge. With both corrections the exact rotation
// above keeps its sphere's volume (tests/unit/sim/tetliquid/contouring.test.ts).
//
// Far from the surface the grid holds a clamped distance: exactly +-band beyond it, as the
// narrow-band level sets of Bargteil et al.; only its sign matters there (the mesher meshes
// f < 0, and a back-trace that lands that far from S_t cannot produce a zero crossing). The
// graded mesher reads the distance further out from the far field (farField.ts: fast sweeping
// from the band on a grid twice as coarse).
import { MarchingCubes, MeshBuffers, type NodeGrid } from '../../geometry/marchingCubes'
import { FarField } from './farField'
import { HIT_WA, HIT_WB, HIT_WC, type TriangleBvh } from '../../geometry/bvh'
import type { PseudoNormals } from '../../geometry/pseudoNormals'
import { MeshSdf } from '../../geometry/signedDistance'
import { areaWeightedNormals } from '../../geometry/triMesh'
import type { Vec3 } from '../../scene/types'

export interface ContourBox {
  min: Vec3
  max: Vec3
}

/**
 * The node grid covering `box` at spacing about `spacing` (exactly box / cells), with two
 * nodes beyond it each side: the mirror layer and the padding layer (surfaceTracking.ts).
 */
export function contourNodeGrid(box: ContourBox, spacing: number): NodeGrid {
  const n = [0, 1, 2].map((a) => Math.max(1, Math.round((box.max[a] - box.min[a]) / spacing)))
  // Cubic cells: the spacing that fits the longest side exactly.
  const longest = [0, 1, 2].reduce((m, a) => ((box.max[a] - box.min[a]) / n[a] > (box.max[m] - box.min[m]) / n[m] ? a : m), 0)
  const h = (box.max[longest] - box.min[longest]) / n[longest]
  return {
    origin: [box.min[0] - 2 * h, box.min[1] - 2 * h, box.min[2] - 2 * h],
    h,
    nx: Math.ceil((box.max[0] - box.min[0]) / h - 1e-9) + 5,
    ny: Math.ceil((box.max[1] - box.min[1]) / h - 1e-9) + 5,
    nz: Math.ceil((box.max[2] - box.min[2]) / h - 1e-9) + 5,
  }
}

/** Trilinear interpolation of node values, clamped to the grid. */
export function sampleNodes(phi: Float32Array, g: NodeGrid, x: number, y: number, z: number): number {
  const { nx, ny, nz, h } = g
  let fx = (x - g.origin[0]) / h, fy = (y - g.origin[1]) / h, fz = (z - g.origin[2]) / h
  fx = fx < 0 ? 0 : fx > nx - 1 ? nx - 1 : fx
  fy = fy < 0 ? 0 : fy > ny - 1 ? ny - 1 : fy
  fz = fz < 0 ? 0 : fz > nz - 1 ? nz - 1 : fz
  let i = Math.floor(fx), j = Math.floor(fy), k = Math.floor(fz)
  if (i > nx - 2) i = nx - 2
  if (j > ny - 2) j = ny - 2
  if (k > nz - 2) k = nz - 2
  const tx = fx - i, ty = fy - j, tz = fz - k
  const sx = nx, sxy = nx * ny
  const n = i + sx * j + sxy * k
  const c00 = phi[n] + tx * (phi[n + 1] - phi[n])
  const c10 = phi[n + sx] + tx * (phi[n + sx + 1] - phi[n + sx])
  const c01 = phi[n + sxy] + tx * (phi[n + sxy + 1] - phi[n + sxy])
  const c11 = phi[n + sx + sxy] + tx * (phi[n + sx + sxy + 1] - phi[n + sx + sxy])
  const c0 = c00 + ty * (c10 - c00), c1 = c01 + ty * (c11 - c01)
  return c0 + tz * (c1 - c0)
}

/**
 * A field evaluated at n points at once (xyz in points[0..3n)): one batch for a kernel row.
 * `meanwhile`, when given, is run on this thread while the batch is computed (on the kernels'
 * other threads when they take it); it must not touch the batch's points or values.
 */
export interface FieldBatch {
  at(points: Float64Array, n: number, meanwhile?: () => void): ArrayLike<number>
}

/** A field at one point, or in batches. */
export type ExactField = ((x: number, y: number, z: number) => number) | FieldBatch

/**
 * Vertex v's grid edge read back from its position (two of its coordinates lie on grid lines),
 * into idx (the edge's lower node) and frac (the position along it); the edge's axis, or -1
 * when the vertex sits on a node.
 */
function vertexEdge(positions: Float32Array, v: number, g: NodeGrid, idx: number[], frac: number[]): number {
  let axis = -1
  for (let a = 0; a < 3; a++) {
    const u = (positions[v + a] - g.origin[a]) / g.h
    const r = Math.round(u)
    if (Math.abs(u - r) < 1e-4) {
      idx[a] = r
      frac[a] = 0
    } else {
      axis = a
      idx[a] = Math.floor(u)
      frac[a] = u - idx[a]
    }
  }
  return axis
}

/**
 * Moves each marching-cubes vertex along its grid edge by one regula falsi step on `exact`
 * (see the file comment). The vertices to move are gathered first and `exact` is asked for all
 * of them at once (a batch goes to the traces' kernel row).
 */
function refineVertices(positions: Float32Array, phi: Float32Array, g: NodeGrid, exact: ExactField, meanwhile: () => void): void {
  const { nx, ny, h } = g
  const idx = [0, 0, 0]
  const frac = [0, 0, 0]
  // Per vertex to move: its offset in positions, its edge's axis, lower node, lower index along
  // the axis and the vertex's place along it; and the vertex itself, for `exact`.
  const nv = positions.length / 3
  const moved = new Int32Array(nv), axes = new Int8Array(nv), lower = new Int32Array(nv), base = new Int32Array(nv), along = new Float64Array(nv)
  const points = new Float64Array(positions.length)
  let count = 0
  for (let v = 0; v < positions.length; v += 3) {
    const axis = vertexEdge(positions, v, g, idx, frac)
    if (axis < 0) continue
    // Edges reaching the mirror or padding layers beyond the box hold copies, not f: left alone.
    const hi = idx[axis] + 1
    if (idx[0] <= 1 || idx[1] <= 1 || idx[2] <= 1 || idx[0] >= g.nx - 2 || idx[1] >= g.ny - 2 || idx[2] >= g.nz - 2 || hi >= (axis === 0 ? g.nx : axis === 1 ? g.ny : g.nz) - 2) continue
    const step = axis === 0 ? 1 : axis === 1 ? nx : nx * ny
    const n0 = idx[0] + nx * (idx[1] + ny * idx[2])
    if (!(phi[n0] < 0 !== phi[n0 + step] < 0)) continue
    moved[count] = v
    axes[count] = axis
    lower[count] = n0
    base[count] = idx[axis]
    along[count] = frac[axis]
    points[3 * count] = positions[v]
    points[3 * count + 1] = positions[v + 1]
    points[3 * count + 2] = positions[v + 2]
    count++
  }
  let values: ArrayLike<number>
  if (typeof exact === 'function') {
    meanwhile()
    const out = new Float64Array(count)
    for (let i = 0; i < count; i++) out[i] = exact(points[3 * i], points[3 * i + 1], points[3 * i + 2])
    values = out
  } else values = exact.at(points, count, meanwhile)
  for (let i = 0; i < count; i++) {
    const ft = values[i]
    if (!Number.isFinite(ft) || ft === 0) continue
    const axis = axes[i], n0 = lower[i], t = along[i]
    const f0 = phi[n0], f1 = phi[n0 + (axis === 0 ? 1 : axis === 1 ? nx : nx * ny)]
    // The bracket that still changes sign, then the secant root inside it.
    let tn: number
    if (ft < 0 === f0 < 0) tn = t + (1 - t) * (ft / (ft - f1))
    else tn = t * (f0 / (f0 - ft))
    // Marching cubes keeps vertices off the nodes; so does the refinement.
    tn = Math.min(Math.max(tn, 1e-3), 1 - 1e-3)
    positions[moved[i] + axis] = g.origin[axis] + (base[i] + tn) * h
  }
}

/** The Phong tessellation's shape factor (see the file comment). */
const PHONG_ALPHA = 0.5

/** One time step's surface: the grid values f, their triangulation S and S's signed distance. */
export class ContouredSurface {
  readonly positions: Float32Array
  readonly indices: Uint32Array
  /** Unit area-weighted vertex normals, outwards. */
  readonly normals: Float32Array
  private readonly sdf: MeshSdf | null

  /**
   * S for phi (which the caller keeps unchanged while this object is used): its triangles,
   * whose vertices marching cubes placed (contour()) or a checkpoint kept. `band` is the clamp
   * distance of the grid (a few grid spacings).
   */
  constructor(readonly phi: Float32Array, readonly grid: NodeGrid, readonly band: number, positions: Float32Array, indices: Uint32Array) {
    this.positions = positions
    this.indices = indices
    // Pseudo-normal signs: marching cubes' meshes are closed, oriented manifolds, so the sign is
    // exact and costs one closest-point query (no winding numbers).
    this.sdf = indices.length > 0 ? new MeshSdf({ positions, indices }, { sign: 'pseudonormal', name: 'liquid surface' }) : null
    const nv = positions.length / 3
    this.normals = new Float32Array(3 * nv)
    areaWeightedNormals(positions, nv, indices, indices.length / 3, this.normals, new Float64Array(3 * nv))
  }

  /**
   * Contours phi at 0. `exact`, when given, is the function phi samples, evaluated anywhere:
   * each vertex is refined along its edge with it (see the file comment). `farFieldNow`: build
   * the far field at once, while that batch is computed, for a caller that will read it.
   */
  static contour(phi: Float32Array, grid: NodeGrid, band: number, exact: ExactField | null = null, farFieldNow = false): ContouredSurface {
    const buffers = new MeshBuffers()
    new MarchingCubes().run(phi, grid, buffers)
    const positions = buffers.positions.slice(0, 3 * buffers.vertexCount)
    // The far field reads phi alone, so it need not wait for the refined vertices.
    let far: FarField | null = null
    const buildFar = () => {
      if (farFieldNow) far = new FarField(phi, grid, band)
    }
    if (exact !== null) refineVertices(positions, phi, grid, exact, buildFar)
    else buildFar()
    const surface = new ContouredSurface(phi, grid, band, positions, buffers.indices.slice(0, 3 * buffers.triangleCount))
    surface.farField = far
    return surface
  }

  /** The tree and pseudo-normals of S's signed distance, for the traces' kernel row (traceDistanceKernel.ts); null when S is empty. */
  get distanceArrays(): { bvh: TriangleBvh; pseudo: PseudoNormals } | null {
    return this.sdf === null ? null : { bvh: this.sdf.bvh, pseudo: this.sdf.pseudoNormals as PseudoNormals }
  }

  get triangleCount(): number {
    return this.indices.length / 3
  }

  /** The grid's value at a point (trilinear), the far-field estimate. */
  estimate(x: number, y: number, z: number): number {
    return sampleNodes(this.phi, this.grid, x, y, z)
  }

  private farField: FarField | null = null

  /**
   * S's signed distance approximated everywhere: the grid's value within the band, beyond it
   * the fast-sweeping far field with the value's sign (farField.ts): the grid only holds +-band
   * or less away from S, and the graded mesher needs more to coarsen inside.
   */
  estimateFar(x: number, y: number, z: number): number {
    const e = sampleNodes(this.phi, this.grid, x, y, z)
    if (e < this.band && e > -this.band) return e
    this.farField ??= new FarField(this.phi, this.grid, this.band)
    const f = this.farField.at(x, y, z)
    return e > 0 ? (f > e ? f : e) : -f < e ? -f : e
  }

  /**
   * S's signed distance at a point: exact (to S's triangles) where the grid says the point is
   * within the band, the grid's clamped value elsewhere.
   */
  distance(x: number, y: number, z: number): number {
    const e = this.estimate(x, y, z)
    if (this.sdf === null || Math.abs(e) >= this.band) return e
    const h = this.grid.h
    const reach = this.band + h
    const sdf = this.sdf
    // The closest point is searched within |e| + h first: on a dam break 85% of the queries'
    // distances are within that of the grid's estimate, and a search cut off nearer visits
    // fewer boxes. One that finds a triangle finds the one the search within reach would
    // (the same boxes in the same order, fewer of them pruned away), so the same value.
    const near = Math.abs(e) + h
    let d = near < reach ? sdf.distanceWithin(x, y, z, near) : Number.NaN
    if (d !== d) d = sdf.distanceWithin(x, y, z, reach)
    if (d !== d) {
      // S is farther than the band: the value is +-band, on the side the grid's sign gives. That
      // is S's side: no triangle of S is within a cell diagonal, so marching cubes put none in
      // the point's cell, whose eight nodes therefore have one sign, S's side of them, and e,
      // their trilinear blend, has it too. (Far nodes hold underestimates, band - k * reach
      // after k substeps, so about 40% of a dam break's queries end here; the pseudo-normal
      // sign needed the true closest point, an unbounded search, for each.) e = 0 cannot
      // happen there; it is given the search's sign all the same.
      if (e !== 0) return e > 0 ? this.band : -this.band
      d = sdf.distanceBanded(x, y, z, reach)
    }
    if (Math.abs(d) < reach && sdf.lastTriangle >= 0) d -= phongLift(this.positions, this.normals, this.indices, sdf.lastTriangle, sdf.lastHit)
    return d > this.band ? this.band : d < -this.band ? -this.band : d
  }
}

/**
 * (p* - p) . n at p, the closest point of S (on triangle `tri`, in `hit`: HIT_* layout) to a
 * query point: how far the Phong surface lies outside the flat one there. P, N and I are S's
 * positions, unit vertex normals and indices.
 */
export function phongLift(P: Float32Array, N: Float32Array, I: Uint32Array | Int32Array, tri: number, hit: Float64Array): number {
  const px = hit[0], py = hit[1], pz = hit[2]
  let lx = 0, ly = 0, lz = 0
  for (let k = 0; k < 3; k++) {
    const v = 3 * I[3 * tri + k]
    const w = hit[k === 0 ? HIT_WA : k === 1 ? HIT_WB : HIT_WC]
    const nx = N[v], ny = N[v + 1], nz = N[v + 2]
    const h = (px - P[v]) * nx + (py - P[v + 1]) * ny + (pz - P[v + 2]) * nz
    lx -= w * h * nx
    ly -= w * h * ny
    lz -= w * h * nz
  }
  const a = 3 * I[3 * tri], b = 3 * I[3 * tri + 1], c = 3 * I[3 * tri + 2]
  const ux = P[b] - P[a], uy = P[b + 1] - P[a + 1], uz = P[b + 2] - P[a + 2]
  const vx = P[c] - P[a], vy = P[c + 1] - P[a + 1], vz = P[c + 2] - P[a + 2]
  const fx = uy * vz - uz * vy, fy = uz * vx - ux * vz, fz = ux * vy - uy * vx
  const len = Math.hypot(fx, fy, fz)
  return len > 0 ? (PHONG_ALPHA * (lx * fx + ly * fy + lz * fz)) / len : 0
}
