// The velocity field of one tetrahedral mesh M_t, as the step reads it (seed 003 section 3.1):
//   fast: vertex vectors by generalised barycentric interpolation over the dual cells
//     (tetfv/tetInterpolation.ts), then plain barycentric interpolation inside the tetrahedron
//     holding the point. "Using a smoothed version of the velocity field for integrating the
//     path does not produce objectionable artifacts", and it is what back-traces integrate.
//   accurate: the per-tetrahedron (Whitney, Elcott et al. 2007) field of the tetrahedron
//     holding the point, which carries exactly the faces' fluxes: what the end of a velocity
//     back-trace is evaluated with, so successive steps do not smooth the flow away ("if we
//     were to use standard barycentric interpolation for this evaluation, successive errors
//     would accumulate over time, manifesting as artificial damping"). Each component is
//     clamped to the range of the holding tetrahedron's four vertex vectors (the fast field's
//     values there), as bounded semi-Lagrangian schemes clamp a sharp interpolant to its
//     stencil's extremes (Selle et al. 2008). Unclamped, the per-tetrahedron field overshoots
//     where neighbouring tetrahedra disagree, and the next step's back-traces read the
//     overshoot again: a standing wave in a 2 m tank (a = 3 cm, 0.5 m deep) grew bumps across
//     the tank, which linear theory keeps flat, of 17 mm in 3 s and 40-48 mm in 5 s at the app's
//     defaults, 64-86 mm (more than a contouring cell) at resolution 32, CFL 1, and they grew
//     from a 3 mm wave as fast in proportion. Clamped, they stay within 6 mm over 4 s and the
//     wave keeps its amplitude and its period (+0.09% against linear theory at the defaults;
//     tests/validation/tetliquid/standingWave.test.ts). For a smooth flow the clamp rarely
//     acts: a linear field's value inside a tetrahedron lies within its vertices' values.
//     Reading the fast field instead (plain barycentric, the paper's warning) also keeps the
//     surface smooth, but damps the wave by 20% in two periods at resolution 32.
//   on the boundary: vertices on the mesh's boundary take the plain dual-cell-volume average
//     of their tetrahedra's vectors instead of the linear-precision fit, whose weights turn
//     negative there (every barycentre lies on one side of the vertex, so the fit
//     extrapolates): at a dam's front corner the fit gave 12 m/s where no tetrahedron moved
//     faster than 2, and the surface traced with it lost volume. Positive weights keep vertex
//     vectors within the range of their tetrahedra's, as Warren et al.'s coordinates are.
//   on solids: the vertex vectors of vertices on an obstacle or closed wall keep only their
//     tangential part relative to the solid (the no-through-flow condition the closed faces
//     hold exactly). Without it the affine fit that makes boundary vertex vectors extrapolates
//     the interior's fall into the floor, and the surface traced with it sinks into the solid,
//     where the obstacle cut removes it: a dam break lost 29% of its volume in six frames.
//   just outside M_t (within two finest edges): the field (fast or accurate) at the nearest
//     point of M_t's boundary, so the field S_t is traced with continues across M_t's surface.
//     S_t and M_t's boundary are two approximations of one surface (M_t's facets are chords
//     twice as long as S_t's), so much of S_t lies a little outside M_t; with the extrapolation
//     grid there (below), the accurate field's flux through a dam break's S_t was 26-44% of its
//     volume a second, where a divergence-free field has none; with the nearest boundary point,
//     about 0.1%.
//   further outside M_t (a path that leaves the liquid): both read an extrapolation grid at the
//     mesh's finest spacing, filled inside the mesh from the vertex vectors and outwards layer
//     by layer with the mean of the already known neighbours. This stands in for the paper's
//     octree extrapolation (Losasso et al. 2004), on a uniform grid instead of the octree.
import { HIT_SIZE, type TriangleBvh } from '../../geometry/bvh'
import type { TetLocator } from '../../geometry/tetmesh/tetLocator'
import { interpolateInTet, interpolateTetsToVertices, tetVelocityVectors, whitneyVelocityAt } from '../core/tetfv/tetInterpolation'
import type { TetGeometry } from '../core/tetfv/tetGeometry'
import type { TetTopology } from '../core/tetfv/tetTopology'
import type { ExtrapolationNodes, MeshLocation } from './meshLocation'

/** Grid of extrapolated vertex velocities: nodes every `h` from `origin`. */
export interface ExtrapolationGrid {
  origin: [number, number, number]
  h: number
  n: [number, number, number]
  v: Float64Array
}

export class MeshVelocity {
  readonly vertexVelocity: Float64Array
  readonly tetVelocity: Float64Array
  private readonly locator: TetLocator | null
  private readonly ext: ExtrapolationGrid
  private readonly tmp = new Float64Array(3)
  /** M_t's boundary faces (triangle i is boundary face boundaryFaces[i]), for the nearby extension. */
  private readonly boundary: TriangleBvh | null
  private readonly hit = new Float64Array(HIT_SIZE)
  /** How far outside M_t the boundary's own field is extended: two finest edges. */
  private readonly reach: number

  /**
   * u: one normal velocity per face of the mesh (along the topology's face normals); `location`:
   * the mesh's locator, boundary tree, dual-cell weights and extrapolation nodes (meshLocation.ts).
   */
  constructor(
    readonly topology: TetTopology,
    readonly geometry: TetGeometry,
    readonly positions: Float64Array,
    readonly u: Float64Array,
    location: MeshLocation,
    solid: { normals: Float64Array; velocities: Float64Array } | null = null,
  ) {
    const nt = topology.tetCount
    this.tetVelocity = new Float64Array(3 * nt)
    this.vertexVelocity = new Float64Array(3 * topology.vertexCount)
    if (nt > 0 && location.weights !== null) {
      tetVelocityVectors(topology, geometry, positions, u, this.tetVelocity)
      interpolateTetsToVertices(topology, location.weights, this.tetVelocity, this.vertexVelocity)
      if (solid) this.slipOnSolids(solid.normals, solid.velocities)
    }
    this.locator = location.locator
    this.boundary = location.boundary
    // Two finest edges (the extrapolation grid's spacing is the finest edge).
    this.reach = 2 * location.nodes.h
    this.ext = this.extrapolate(location.nodes)
  }

  /** Removes the normal velocity relative to the solid at vertices on it (see the file comment). */
  private slipOnSolids(normals: Float64Array, velocities: Float64Array): void {
    const v = this.vertexVelocity
    for (let i = 0; i < v.length; i += 3) {
      const nx = normals[i], ny = normals[i + 1], nz = normals[i + 2]
      if (nx === 0 && ny === 0 && nz === 0) continue
      const dn = (v[i] - velocities[i]) * nx + (v[i + 1] - velocities[i + 1]) * ny + (v[i + 2] - velocities[i + 2]) * nz
      v[i] -= dn * nx
      v[i + 1] -= dn * ny
      v[i + 2] -= dn * nz
    }
  }

  /** The tetrahedron holding the point, or -1. */
  locate(x: number, y: number, z: number): number {
    return this.locator === null ? -1 : this.locator.locate(x, y, z)
  }

  /** out[o..o+2] = the smoothed velocity (vertex vectors, barycentric) at the point. */
  fast(x: number, y: number, z: number, out: Float64Array, o: number): void {
    const t = this.locate(x, y, z)
    if (t >= 0) this.interpolateLocated(t, out, o)
    else {
      const f = this.nearestBoundary(x, y, z)
      if (f >= 0) interpolateInTet(this.positions, this.topology.tets, this.vertexVelocity, this.topology.faceTets[2 * f], this.hit[0], this.hit[1], this.hit[2], out, o)
      else this.extrapolated(x, y, z, out, o)
    }
  }

  /** The boundary face of M_t nearest a point outside it, within reach (its closest point in this.hit), or -1. */
  private nearestBoundary(x: number, y: number, z: number): number {
    if (this.boundary === null) return -1
    const i = this.boundary.closestPoint(x, y, z, this.hit, this.reach)
    return i < 0 ? -1 : this.topology.boundaryFaces[i]
  }

  /**
   * out[o..o+2] = the barycentric interpolation of the vertex vectors in tetrahedron t at the
   * point locate() just found in it, with the coordinates the locator computed (interpolateInTet
   * would compute the same ones again: this is on every back-trace).
   */
  private interpolateLocated(t: number, out: Float64Array, o: number): void {
    barycentricSum(this.topology.tets, this.vertexVelocity, t, (this.locator as TetLocator).weights, 0, out, o)
  }

  /**
   * out[o..o+2] = the accurate velocity (the holding tetrahedron's Whitney field) at the point,
   * clamped to the range of that tetrahedron's vertex vectors (see the file comment).
   */
  accurate(x: number, y: number, z: number, out: Float64Array, o: number): void {
    const t = this.locate(x, y, z)
    if (t >= 0) {
      whitneyVelocityAt(this.topology, this.geometry, this.positions, this.u, t, x, y, z, out, o)
      clampToTetVertices(this.topology.tets, this.vertexVelocity, t, out, o)
    } else {
      const f = this.nearestBoundary(x, y, z)
      if (f >= 0) {
        const tf = this.topology.faceTets[2 * f]
        whitneyVelocityAt(this.topology, this.geometry, this.positions, this.u, tf, this.hit[0], this.hit[1], this.hit[2], out, o)
        clampToTetVertices(this.topology.tets, this.vertexVelocity, tf, out, o)
      } else this.extrapolated(x, y, z, out, o)
    }
  }



  /**
   * out[o..o+2] = where the point came from `dt` seconds ago: a midpoint (second-order
   * Runge-Kutta) path back through the fast field.
   */
  backtrace(x: number, y: number, z: number, dt: number, out: Float64Array, o: number): void {
    const v = this.tmp
    this.fast(x, y, z, v, 0)
    const mx = x - 0.5 * dt * v[0], my = y - 0.5 * dt * v[1], mz = z - 0.5 * dt * v[2]
    this.fast(mx, my, mz, v, 0)
    out[o] = x - dt * v[0]
    out[o + 1] = y - dt * v[1]
    out[o + 2] = z - dt * v[2]
  }

  /** Largest vertex speed, m/s. */
  maxSpeed(): number {
    const v = this.vertexVelocity
    let m = 0
    for (let i = 0; i < v.length; i += 3) m = Math.max(m, v[i] * v[i] + v[i + 1] * v[i + 1] + v[i + 2] * v[i + 2])
    return Math.sqrt(m)
  }

  private extrapolated(x: number, y: number, z: number, out: Float64Array, o: number): void {
    extrapolatedAt(this.ext, x, y, z, out, o)
  }

  /**
   * The arrays the traces' kernel row reads (traceDistanceKernel.ts): the mesh, its vertex
   * vectors, the locator's index and M_t's boundary tree (null without tetrahedra), each
   * boundary triangle's tetrahedron, the extrapolation grid and the nearby extension's reach.
   */
  flatArrays(): { positions: Float64Array; tets: Int32Array; vertexVelocity: Float64Array; index: ReturnType<TetLocator['indexArrays']> | null; boundary: TriangleBvh | null; boundaryTet: Int32Array; ext: ExtrapolationGrid; reach: number } {
    const { boundaryFaces, faceTets } = this.topology
    const boundaryTet = new Int32Array(this.boundary === null ? 0 : boundaryFaces.length)
    for (let i = 0; i < boundaryTet.length; i++) boundaryTet[i] = faceTets[2 * boundaryFaces[i]]
    return { positions: this.positions, tets: this.topology.tets, vertexVelocity: this.vertexVelocity, index: this.locator?.indexArrays() ?? null, boundary: this.boundary, boundaryTet, ext: this.ext, reach: this.reach }
  }

  /** The extrapolation grid (see the file comment) over the nodes MeshLocation placed and located. */
  private extrapolate(nodes: ExtrapolationNodes): ExtrapolationGrid {
    const { origin, h, n, tetOf, weights } = nodes
    const count = n[0] * n[1] * n[2]
    const v = new Float64Array(3 * count)
    const known = new Uint8Array(count)
    // Two node queues (the current layer and the next), flat and allocated once.
    let frontier = new Int32Array(count), next = new Int32Array(count)
    let nf = 0
    const T = this.topology.tets, V = this.vertexVelocity
    for (let q = 0, w = 0; q < count; q++) {
      const t = tetOf[q]
      if (t < 0) continue
      // interpolateLocated with the weights the locator found for this node.
      barycentricSum(T, V, t, weights, w, v, 3 * q)
      w += 4
      known[q] = 1
      frontier[nf++] = q
    }
    // Layers outwards: each unknown node next to known ones takes their mean. Neighbours are
    // visited -x, +x, -y, +y, -z, +z.
    const nx = n[0], ny = n[1], nz = n[2], sy = nx, sz = nx * ny
    while (nf > 0) {
      let nn = 0
      for (let f = 0; f < nf; f++) {
        const q = frontier[f]
        const i = q % nx, j = Math.floor(q / nx) % ny, k = Math.floor(q / sz)
        if (i > 0 && known[q - 1] === 0) (known[q - 1] = 2), (next[nn++] = q - 1)
        if (i < nx - 1 && known[q + 1] === 0) (known[q + 1] = 2), (next[nn++] = q + 1)
        if (j > 0 && known[q - sy] === 0) (known[q - sy] = 2), (next[nn++] = q - sy)
        if (j < ny - 1 && known[q + sy] === 0) (known[q + sy] = 2), (next[nn++] = q + sy)
        if (k > 0 && known[q - sz] === 0) (known[q - sz] = 2), (next[nn++] = q - sz)
        if (k < nz - 1 && known[q + sz] === 0) (known[q + sz] = 2), (next[nn++] = q + sz)
      }
      for (let f = 0; f < nn; f++) {
        const r = next[f]
        const i = r % nx, j = Math.floor(r / nx) % ny, k = Math.floor(r / sz)
        let m = 0, vx = 0, vy = 0, vz = 0
        // The same order as the neighbours above, so the sums are the same whatever the layout.
        for (let e = 0; e < 6; e++) {
          const a = e >> 1, up = e & 1
          const c = a === 0 ? i : a === 1 ? j : k
          if (up ? c >= (a === 0 ? nx : a === 1 ? ny : nz) - 1 : c <= 0) continue
          const w = r + (up ? 1 : -1) * (a === 0 ? 1 : a === 1 ? sy : sz)
          if (known[w] !== 1) continue
          vx += v[3 * w]; vy += v[3 * w + 1]; vz += v[3 * w + 2]
          m++
        }
        v[3 * r] = vx / m; v[3 * r + 1] = vy / m; v[3 * r + 2] = vz / m
      }
      for (let f = 0; f < nn; f++) known[next[f]] = 1
      const swap = frontier
      frontier = next
      next = swap
      nf = nn
    }
    return { origin, h, n, v }
  }
}

/** Clamps each component of out[o..o+2] to the range of tetrahedron t's four vertex vectors V (see the file comment). */
export function clampToTetVertices(T: Int32Array, V: Float64Array, t: number, out: Float64Array, o: number): void {
  const a = 3 * T[4 * t], b = 3 * T[4 * t + 1], c = 3 * T[4 * t + 2], d = 3 * T[4 * t + 3]
  for (let q = 0; q < 3; q++) {
    const va = V[a + q], vb = V[b + q], vc = V[c + q], vd = V[d + q]
    const lo = Math.min(va, vb, vc, vd), hi = Math.max(va, vb, vc, vd)
    const x = out[o + q]
    out[o + q] = x < lo ? lo : x > hi ? hi : x
  }
}

/** The extrapolation grid trilinearly at a point clamped to it, into out[o..o+2]. */
export function extrapolatedAt(ext: ExtrapolationGrid, x: number, y: number, z: number, out: Float64Array, o: number): void {
  const { origin, h, n, v } = ext
  // Per axis: the cell's lower node and the fraction across it (clamped to the grid).
  const cx = Math.min(Math.max((x - origin[0]) / h, 0), n[0] - 1)
  const cy = Math.min(Math.max((y - origin[1]) / h, 0), n[1] - 1)
  const cz = Math.min(Math.max((z - origin[2]) / h, 0), n[2] - 1)
  const i0 = Math.min(Math.floor(cx), Math.max(n[0] - 2, 0)), j0 = Math.min(Math.floor(cy), Math.max(n[1] - 2, 0)), k0 = Math.min(Math.floor(cz), Math.max(n[2] - 2, 0))
  const tx = n[0] > 1 ? cx - i0 : 0, ty = n[1] > 1 ? cy - j0 : 0, tz = n[2] > 1 ? cz - k0 : 0
  out[o] = out[o + 1] = out[o + 2] = 0
  for (let c = 0; c < 8; c++) {
    const di = c & 1, dj = (c >> 1) & 1, dk = (c >> 2) & 1
    const i = Math.min(i0 + di, n[0] - 1), j = Math.min(j0 + dj, n[1] - 1), k = Math.min(k0 + dk, n[2] - 1)
    const w = (di ? tx : 1 - tx) * (dj ? ty : 1 - ty) * (dk ? tz : 1 - tz)
    const q = 3 * (i + n[0] * (j + n[1] * k))
    out[o] += w * v[q]
    out[o + 1] += w * v[q + 1]
    out[o + 2] += w * v[q + 2]
  }
}

/**
 * out[o..o+2] = sum over k of l[w + k] times V at tetrahedron t's vertex k: the vertex vectors
 * interpolated with barycentric weights found for the point (in this order: the classes' bits).
 */
function barycentricSum(T: Int32Array, V: Float64Array, t: number, l: Float64Array, w: number, out: Float64Array, o: number): void {
  let sx = 0, sy = 0, sz = 0
  for (let k = 0; k < 4; k++) {
    const v = 3 * T[4 * t + k]
    sx += l[w + k] * V[v]
    sy += l[w + k] * V[v + 1]
    sz += l[w + k] * V[v + 2]
  }
  out[o] = sx
  out[o + 1] = sy
  out[o + 2] = sz
}
