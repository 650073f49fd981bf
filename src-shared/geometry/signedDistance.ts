// Signed distance to a triangle mesh, for voxelising mesh obstacles.
//
// Magnitude: the exact Euclidean distance to the nearest triangle (BVH closest-point query,
// Ericson's closest point on a triangle), so it is right whatever the mesh's topology.
// Sign: negative inside. By default inside means |w| > 0.5 for the generalized winding
// number w (Jacobson et al. 2013), evaluated hierarchically (Barill et al. 2018). This is
// what makes imperfect meshes usable:
//  - closed, outward-oriented mesh: w = 1 inside, 0 outside, so the sign is exact;
//  - holes / missing triangles: w drops smoothly towards 0.5 near a hole and stays close to
//    1 (inside) or 0 (outside) elsewhere, so points well away from the holes (farther than
//    about the hole's size) get the right sign, and the region near a hole is decided by
//    the side it mostly belongs to instead of leaking a whole ray or flood fill;
//  - non-manifold edges, duplicated or self-intersecting parts: w counts how many times the
//    surface wraps the point, and any nonzero count is inside (nested shells, overlapping
//    parts of a union are inside, as an artist means);
//  - inverted winding: a fully inverted mesh gives w = -1 inside, hence |w| rather than w.
//    A mesh where only SOME faces are flipped has w partly cancelled (e.g. half a sphere
//    flipped gives w ~ 0 inside): that mesh is wrong, not just imperfect, and the result
//    follows whichever orientation dominates the solid angle seen from each point.
// Optionally (sign: 'pseudonormal') the sign comes from angle-weighted pseudo-normals
// (Baerentzen & Aanaes 2005) at the closest point: exact for closed consistently oriented
// manifolds, wrong near any defect.
//
// Grid sampling (sampleSdfGrid) passes each sample's neighbour value as a hint: the SDF is
// 1-Lipschitz, so the closest-point search starts bounded by |neighbour| + dx, and on a
// closed surface the sign is carried from the neighbour whenever the surface cannot lie
// between them, so the winding number is evaluated only within about a cell of the
// surface. The result equals point-by-point evaluation. A narrow band (`band`) gives
// exact values where |d| < band and +-band beyond, with the correct sign.
import { EddyError } from '../api/errors'
import type { TriMesh } from './triMesh'
import { computeBounds } from './triMesh'
import type { Vec3 } from './vec3'
import { HIT_DISTANCE, HIT_REGION, HIT_SIZE, HIT_X, HIT_Y, HIT_Z, TriangleBvh } from './bvh'
import { FastWindingNumber } from './windingNumber'
import { isClosedSurface } from './closedSurface'
import { computePseudoNormals, pseudoNormalDot, type PseudoNormals } from './pseudoNormals'

/** Anything with a signed distance, negative inside (mesh or analytic primitive). */
export interface SignedDistanceField {
  distance(x: number, y: number, z: number): number
  /**
   * Optional faster variant: exact where |d| < band, otherwise +-band (sign still exact).
   * sampleSdfGrid clamps distance() itself when this is missing.
   */
  distanceBanded?(x: number, y: number, z: number, band: number): number
  /**
   * Optional: the same value as distanceBanded(x, y, z, band), given the value `prev` this
   * field returned for a point at most `step` away. SDFs are 1-Lipschitz, so the answer is
   * within |prev| + step, which lets grid sampling prune most of the search. side, when given:
   * this field's value (possibly rounded to float32) at another point at most `step` away, a
   * second source for the sign.
   */
  distanceFrom?(x: number, y: number, z: number, band: number, prev: number, step: number, side?: number): number
}

export type SdfSignMode = 'winding' | 'pseudonormal'

export interface MeshSdfOptions {
  /** 'winding' (default, robust) or 'pseudonormal' (fast, needs a closed oriented manifold). */
  sign?: SdfSignMode
  /** Fast winding number accuracy parameter beta (Barill 2018); default 2. */
  beta?: number
  /** Names the mesh in error messages. */
  name?: string
}

export class MeshSdf implements SignedDistanceField {
  readonly bvh: TriangleBvh
  readonly sign: SdfSignMode
  readonly bounds: { min: Vec3; max: Vec3 }
  private readonly pseudo: PseudoNormals | null
  private readonly mesh: TriMesh
  private readonly indices: Uint32Array
  private readonly beta: number
  // In the pseudo-normal mode, built at first use (from the mesh as it is then): only
  // windingNumber() and `closed` ask for them there, and the tetrahedral liquid builds a
  // pseudo-normal MeshSdf for its surface every substep.
  private windingCache: FastWindingNumber | null = null
  private closedCache: boolean | null = null
  private readonly hit = new Float64Array(HIT_SIZE)
  /** The triangle of the last distanceBanded query's closest point (-1: none within its band). */
  lastTriangle = -1

  /** Throws INVALID_PARAM for a mesh with no triangles, only zero-area triangles, non-finite coordinates or bad indices. */
  constructor(mesh: TriMesh, opts: MeshSdfOptions = {}) {
    const sign = opts.sign ?? 'winding'
    if (sign !== 'winding' && sign !== 'pseudonormal') {
      throw new EddyError('INVALID_PARAM', `MeshSdf: unknown sign mode "${String(sign)}"`)
    }
    this.bvh = new TriangleBvh(mesh, opts.name ?? 'mesh')
    this.beta = opts.beta ?? 2
    if (!(this.beta > 0)) throw new EddyError('INVALID_PARAM', `MeshSdf: the winding number's beta must be > 0, got ${this.beta}`)
    this.sign = sign
    this.pseudo = sign === 'pseudonormal' ? computePseudoNormals(mesh) : null
    this.mesh = mesh
    this.indices = mesh.indices
    this.bounds = computeBounds(mesh.positions)
    if (sign === 'winding') {
      this.windingCache = new FastWindingNumber(this.bvh, this.beta)
      this.closedCache = isClosedSurface(mesh)
    }
  }

  /** The angle-weighted pseudo-normals of the 'pseudonormal' sign mode (null in the winding mode). */
  get pseudoNormals(): PseudoNormals | null {
    return this.pseudo
  }

  /** The hierarchical winding number (Barill 2018) over the mesh. */
  get winding(): FastWindingNumber {
    return (this.windingCache ??= new FastWindingNumber(this.bvh, this.beta))
  }

  /**
   * The mesh is a closed surface (isClosedSurface): its winding number is then an integer,
   * constant off the surface, and distanceFrom carries the sign between nearby points.
   */
  get closed(): boolean {
    return (this.closedCache ??= isClosedSurface(this.mesh))
  }

  /** Signed distance, negative inside. */
  distance(x: number, y: number, z: number): number {
    return this.distanceBanded(x, y, z, Infinity)
  }

  /**
   * Exact signed distance where |d| < band; beyond, +-band (narrow band: the closest-point
   * search is cut off at `band`, which is what makes it cheaper; the sign is still exact).
   */
  distanceBanded(x: number, y: number, z: number, band: number): number {
    const hit = this.hit
    let tri = this.bvh.closestPoint(x, y, z, hit, band)
    this.lastTriangle = tri
    const d = hit[HIT_DISTANCE]
    if (d === 0) return 0
    let inside: boolean
    if (this.pseudo) {
      // The pseudo-normal needs the true closest point even when it is beyond the band.
      if (tri < 0) tri = this.bvh.closestPoint(x, y, z, hit)
      inside = this.pseudoInside(tri, x, y, z)
    } else {
      inside = this.isInsideByWinding(x, y, z)
    }
    return inside ? -d : d
  }

  /**
   * distanceBanded's value where a triangle lies within `bound` of the point (the closest point
   * is then the same one, so the same value, lastTriangle and lastHit), else NaN with no sign
   * computed: for callers that know the side of a far point some other way, which spares the
   * pseudo-normal mode its unbounded search for the true closest point.
   */
  distanceWithin(x: number, y: number, z: number, bound: number): number {
    const hit = this.hit
    const tri = this.bvh.closestPoint(x, y, z, hit, bound)
    this.lastTriangle = tri
    if (tri < 0) return Number.NaN
    const d = hit[HIT_DISTANCE]
    if (d === 0) return 0
    const inside = this.pseudo ? this.pseudoInside(tri, x, y, z) : this.isInsideByWinding(x, y, z)
    return inside ? -d : d
  }

  /** The pseudo-normal side test at the closest point in this.hit, on triangle tri. */
  private pseudoInside(tri: number, x: number, y: number, z: number): boolean {
    const hit = this.hit
    return pseudoNormalDot(this.pseudo!, this.indices, tri, hit[HIT_REGION], x, y, z, hit[HIT_X], hit[HIT_Y], hit[HIT_Z]) < 0
  }

  /** The winding-number side test (|w| > 0.5). */
  private isInsideByWinding(x: number, y: number, z: number): boolean {
    return Math.abs(this.winding.evaluate(x, y, z)) > 0.5
  }

  /** The last distanceBanded query's closest point (HIT_* layout), valid while lastTriangle >= 0. */
  get lastHit(): Float64Array {
    return this.hit
  }

  /**
   * Same value as distanceBanded(x, y, z, band), given prev = the value at a point at most
   * `step` away: the magnitude bit for bit; the sign is the true side, which the winding
   * number test also gives unless its hierarchical approximation were off by 0.5. The true distance is at most |prev| + step (1-Lipschitz), so
   * the closest-point search starts with that bound. On a closed surface, if |prev| > step
   * the segment between the points cannot touch the surface, so the sign is prev's and no
   * winding number is evaluated; so too when the point itself is farther than step from the
   * surface, or when |side| (another neighbour's value, float32 rounding allowed for) is. On
   * open meshes the winding number decides every sample, because there it is not constant off
   * the surface (that is what makes holes benign).
   */
  distanceFrom(x: number, y: number, z: number, band: number, prev: number, step: number, side = 0): number {
    const hit = this.hit
    const aprev = Math.abs(prev)
    // Slack covers rounding of prev, of step and of the distance computation itself.
    const bound = Math.min(band, (aprev + step) * (1 + 1e-9) + 1e-300)
    let tri = this.bvh.closestPoint(x, y, z, hit, bound)
    let d = hit[HIT_DISTANCE]
    if (tri < 0) {
      if (bound < band) {
        // Impossible for a true SDF; prev was not what this field returned nearby. Recover.
        tri = this.bvh.closestPoint(x, y, z, hit, band)
        d = hit[HIT_DISTANCE]
      } else d = band
    }
    if (d === 0) return 0
    let inside: boolean
    if (this.pseudo) {
      if (tri < 0) tri = this.bvh.closestPoint(x, y, z, hit)
      inside = this.pseudoInside(tri, x, y, z)
    } else if (this.closed && (aprev > step * (1 + 1e-9) || d > step * (1 + 1e-9)) && prev !== 0) {
      // The surface is farther than `step` from one of the two points, so the segment between
      // them cannot touch it.
      inside = prev < 0
    } else if (this.closed && Math.abs(side) > step * (1 + 1e-6)) {
      inside = side < 0
    } else {
      inside = this.isInsideByWinding(x, y, z)
    }
    return inside ? -d : d
  }

  /** Distance to the nearest triangle, no sign. */
  unsignedDistance(x: number, y: number, z: number): number {
    this.bvh.closestPoint(x, y, z, this.hit)
    return this.hit[HIT_DISTANCE]
  }

  /** Generalized winding number (hierarchical, Barill 2018). */
  windingNumber(x: number, y: number, z: number): number {
    return this.winding.evaluate(x, y, z)
  }

  /** Same inside test as distance() uses (|w| > 0.5, or the pseudo-normal in that mode). */
  isInside(x: number, y: number, z: number): boolean {
    if (this.pseudo) return this.distance(x, y, z) < 0
    return this.isInsideByWinding(x, y, z)
  }
}

/** A regular grid: nx * ny * nz cubic cells of edge dx, cell (0,0,0) spanning origin .. origin + dx. */
export interface SdfGridSpec {
  nx: number
  ny: number
  nz: number
  dx: number
  origin: ArrayLike<number>
}

export interface SampleSdfOptions {
  /**
   * 'centre' (default): nx*ny*nz samples at origin + (i + 1/2) dx.
   * 'corner': (nx+1)(ny+1)(nz+1) samples at origin + i dx (what solidFraction.ts reads).
   * Index i + sx * (j + sy * k) with (sx, sy) the sample counts per row and column.
   */
  at?: 'centre' | 'corner'
  /** Narrow band: exact where |d| < band, +-band beyond. Default Infinity (exact everywhere). */
  band?: number
  /** Sample only layers kBegin <= k < kEnd (so workers can split a grid into slabs). */
  kBegin?: number
  kEnd?: number
}

/** Number of samples sampleSdfGrid writes for `spec`. */
export function sdfGridSampleCount(spec: Pick<SdfGridSpec, 'nx' | 'ny' | 'nz'>, at: 'centre' | 'corner' = 'centre'): number {
  const e = at === 'corner' ? 1 : 0
  return (spec.nx + e) * (spec.ny + e) * (spec.nz + e)
}

/**
 * Samples `sdf` on the grid into `out` (length sdfGridSampleCount) and returns it: float32 for
 * fields kept on a grid, float64 where each value is compared with a threshold as computed.
 * Throws INVALID_PARAM for a malformed spec or a wrong-sized `out`.
 */
export function sampleSdfGrid<T extends Float32Array | Float64Array>(sdf: SignedDistanceField, spec: SdfGridSpec, out: T, opts: SampleSdfOptions = {}): T {
  const { nx, ny, nz, dx } = spec
  const at = opts.at ?? 'centre'
  const fail = (message: string): never => {
    throw new EddyError('INVALID_PARAM', `sampleSdfGrid: ${message}`)
  }
  for (const [key, v] of [['nx', nx], ['ny', ny], ['nz', nz]] as const) {
    if (!Number.isInteger(v) || v < 1) fail(`${key} must be a positive integer, got ${v}`)
  }
  if (!(dx > 0) || !Number.isFinite(dx)) fail(`dx must be a positive finite number, got ${dx}`)
  if (!spec.origin || spec.origin.length < 3) fail('origin must have 3 coordinates')
  const ox = spec.origin[0], oy = spec.origin[1], oz = spec.origin[2]
  if (!Number.isFinite(ox) || !Number.isFinite(oy) || !Number.isFinite(oz)) fail('origin must be finite')
  if (at !== 'centre' && at !== 'corner') fail(`unknown sample position "${String(at)}"`)
  const band = opts.band ?? Infinity
  if (!(band > 0)) fail(`band must be > 0, got ${band}`)
  const e = at === 'corner' ? 1 : 0
  const sx = nx + e, sy = ny + e, sz = nz + e
  if (out.length !== sx * sy * sz) fail(`out has ${out.length} values, the grid needs ${sx * sy * sz}`)
  const k0 = opts.kBegin ?? 0, k1 = opts.kEnd ?? sz
  if (!Number.isInteger(k0) || !Number.isInteger(k1) || k0 < 0 || k1 > sz || k0 > k1) fail(`layer range [${k0}, ${k1}) is outside 0..${sz}`)
  const shift = at === 'corner' ? 0 : 0.5
  const banded = band < Infinity && sdf.distanceBanded !== undefined
  const hinted = sdf.distanceFrom !== undefined
  // Neighbouring samples are dx apart; the hint is the previous sample in the row, or for a
  // row's first sample the first of the previous row (j - 1) or, at j = 0, of the previous
  // layer (k - 1). Hints are kept in double precision (`last`, `rowStart[j]`), not re-read
  // from the float32 output. For the sign alone, the samples at j - 1 and k - 1 are read back
  // (the larger in magnitude: a side the surface cannot lie between): near a surface the
  // previous sample in the row often cannot carry it where one of those can, which spares a
  // winding number (a fifth of them on the bunny's grid).
  const rowStart = hinted ? new Float64Array(sy) : null
  const layer = sx * sy
  for (let k = k0; k < k1; k++) {
    const z = oz + (k + shift) * dx
    for (let j = 0; j < sy; j++) {
      const y = oy + (j + shift) * dx
      let o = sx * (j + sy * k)
      let last = NaN
      for (let i = 0; i < sx; i++, o++) {
        const x = ox + (i + shift) * dx
        let d: number
        if (hinted) {
          let prev = last
          if (i === 0) prev = j > 0 ? rowStart![j - 1] : k > k0 ? rowStart![0] : NaN
          const below = j > 0 ? out[o - sx] : 0, behind = k > k0 ? out[o - layer] : 0
          const side = Math.abs(below) >= Math.abs(behind) ? below : behind
          d = Number.isNaN(prev) ? sdf.distanceBanded ? sdf.distanceBanded(x, y, z, band) : sdf.distance(x, y, z) : sdf.distanceFrom!(x, y, z, band, prev, dx, side)
          if (i === 0) rowStart![j] = d
          last = d
        } else if (banded) d = sdf.distanceBanded!(x, y, z, band)
        else d = sdf.distance(x, y, z)
        if (d > band) d = band
        else if (d < -band) d = -band
        out[o] = d
      }
    }
  }
  return out
}
