// The atlas of a Catmull-Clark surface's patches (Stam 2003 sec. 2, eqs. 2-8, and sec. 4.3):
// which patch lies across each edge of each patch, how a point just outside one patch's
// parameter square maps into its neighbour's, and the Jacobian of that map, which carries
// vectors (contravariant components) from one parameter domain into the other.
//
// Patches are the faces of an all-quad mesh (catmullClarkEval.ts LimitSurface.faces): the
// parameter square of face [c0, c1, c2, c3] has u from c0 to c1 and v from c0 to c3. Edges are
// labelled counterclockwise as in the paper's Figure 5: 0: v = 0 (c0 -> c1), 1: u = 1
// (c1 -> c2), 2: v = 1 (c2 -> c3), 3: u = 0 (c3 -> c0). Across a shared edge the neighbour runs
// the edge the other way, so the map is a rotation of the square by a multiple of 90 degrees
// (one of the paper's four transition functions, eqs. 3-6, picked by eq. 2's
// (4 + e_q - e_p + 2) % 4) followed by a shift of one unit; its Jacobian (eqs. 7-8) is the
// rotation. Here each map is written as "along the edge, out of the patch" coordinates, which
// gives the same four cases without a table.
import { EddyError } from '../api/errors'

export interface PatchAtlas {
  readonly patchCount: number
  /** neighbour[4 p + e]: the patch across edge e of patch p; -1 on an open boundary. */
  readonly neighbour: Int32Array
  /** neighbourEdge[4 p + e]: the label of that shared edge in the neighbour's frame. */
  readonly neighbourEdge: Int8Array
  /** cornerValence[4 p + c]: faces around corner c of patch p (4 where the mesh is regular). */
  readonly cornerValence: Int32Array
}

/** Where a point ended up: its patch, its parameters there, and the accumulated Jacobian (row-major 2x2). */
export interface AtlasPoint {
  patch: number
  x1: number
  x2: number
  /** v_there = m v_here for a vector's contravariant components. */
  m: Float64Array
}

export function newAtlasPoint(): AtlasPoint {
  return { patch: 0, x1: 0, x2: 0, m: new Float64Array([1, 0, 0, 1]) }
}

/** Adjacency of an all-quad mesh; an edge used by more than two faces, or twice in one direction, is refused. */
export function buildPatchAtlas(faces: readonly (readonly number[])[]): PatchAtlas {
  const n = faces.length
  const neighbour = new Int32Array(4 * n).fill(-1)
  const neighbourEdge = new Int8Array(4 * n).fill(-1)
  const directed = new Map<string, number>()
  for (let p = 0; p < n; p++) {
    const q = faces[p]
    if (q.length !== 4) throw new EddyError('INVALID_PARAM', `surface atlas: patch ${p} has ${q.length} corners (patches are quads: subdivide the cage once)`)
    for (let e = 0; e < 4; e++) {
      const key = `${q[e]},${q[(e + 1) % 4]}`
      if (directed.has(key)) throw new EddyError('INVALID_PARAM', `surface atlas: the edge ${q[e]}-${q[(e + 1) % 4]} is used twice in the same direction (faces not consistently oriented, or more than two faces on an edge)`)
      directed.set(key, 4 * p + e)
    }
  }
  for (let p = 0; p < n; p++) {
    const q = faces[p]
    for (let e = 0; e < 4; e++) {
      const other = directed.get(`${q[(e + 1) % 4]},${q[e]}`)
      if (other === undefined) continue
      neighbour[4 * p + e] = other >> 2
      neighbourEdge[4 * p + e] = other & 3
    }
  }
  const around = new Map<number, number>()
  for (const q of faces) for (const v of q) around.set(v, (around.get(v) ?? 0) + 1)
  const cornerValence = new Int32Array(4 * n)
  for (let p = 0; p < n; p++) for (let c = 0; c < 4; c++) cornerValence[4 * p + c] = around.get(faces[p][c])!
  return { patchCount: n, neighbour, neighbourEdge, cornerValence }
}

/** Eq. 2: which of the four transition functions (0: shift only, 1-3: quarter turns) joins edge e of one patch to edge f of the next. */
export function transitionIndex(e: number, f: number): number {
  return (4 + ((f - e + 2) % 4)) % 4
}

/** (along, out) of (x1, x2) for edge e: along runs with the edge, out > 0 leaves the square. */
function toEdge(e: number, x1: number, x2: number, out: Float64Array): void {
  switch (e) {
    case 0: out[0] = x1; out[1] = -x2; break
    case 1: out[0] = x2; out[1] = x1 - 1; break
    case 2: out[0] = 1 - x1; out[1] = x2 - 1; break
    default: out[0] = 1 - x2; out[1] = -x1
  }
}

/** (x1, x2) of (along, out) for edge e (the inverse of toEdge). */
function fromEdge(e: number, along: number, outward: number, out: Float64Array): void {
  switch (e) {
    case 0: out[0] = along; out[1] = -outward; break
    case 1: out[0] = 1 + outward; out[1] = along; break
    case 2: out[0] = 1 - along; out[1] = 1 + outward; break
    default: out[0] = -outward; out[1] = 1 - along
  }
}

/** d(x1, x2)/d(along, out) of fromEdge, row-major. */
const FROM_EDGE: readonly (readonly number[])[] = [
  [1, 0, 0, -1],
  [0, 1, 1, 0],
  [-1, 0, 0, 1],
  [0, -1, -1, 0],
]
/** d(along, out)/d(x1, x2) of toEdge, row-major. */
const TO_EDGE: readonly (readonly number[])[] = [
  [1, 0, 0, -1],
  [0, 1, 1, 0],
  [-1, 0, 0, 1],
  [0, -1, -1, 0],
]

const scratch = new Float64Array(2)

/**
 * Carries pt (patch p, a point past edge e of p) across that edge into the neighbour: along
 * the shared edge the neighbour runs the other way (along' = 1 - along) and the point is as
 * far inside it as it was outside p (out' = -out). pt.m is multiplied by the Jacobian.
 * Returns false (pt unchanged) on an open boundary.
 */
export function crossEdge(atlas: PatchAtlas, pt: AtlasPoint, e: number): boolean {
  return crossEdgeOf(atlas.neighbour, atlas.neighbourEdge, pt, e)
}

/** crossEdge over the atlas's neighbour and neighbourEdge arrays (or copies of them, as the surface flow's kernel rows take). */
export function crossEdgeOf(neighbour: ArrayLike<number>, neighbourEdge: ArrayLike<number>, pt: AtlasPoint, e: number): boolean {
  const k = 4 * pt.patch + e
  const q = neighbour[k]
  if (q < 0) return false
  const f = neighbourEdge[k]
  toEdge(e, pt.x1, pt.x2, scratch)
  fromEdge(f, 1 - scratch[0], -scratch[1], scratch)
  pt.patch = q
  pt.x1 = scratch[0]
  pt.x2 = scratch[1]
  // J = FROM_EDGE[f] * diag(-1, -1) * TO_EDGE[e]; then m = J m.
  const A = FROM_EDGE[f], B = TO_EDGE[e]
  const j00 = -(A[0] * B[0] + A[1] * B[2]), j01 = -(A[0] * B[1] + A[1] * B[3])
  const j10 = -(A[2] * B[0] + A[3] * B[2]), j11 = -(A[2] * B[1] + A[3] * B[3])
  const m = pt.m
  const m00 = j00 * m[0] + j01 * m[2], m01 = j00 * m[1] + j01 * m[3]
  const m10 = j10 * m[0] + j11 * m[2], m11 = j10 * m[1] + j11 * m[3]
  m[0] = m00; m[1] = m01; m[2] = m10; m[3] = m11
  return true
}

/**
 * Sec. 4.3's clip: walks a point of patch pt.patch that lies outside [0,1]^2 into the patch
 * that holds it, one coordinate at a time (u first, then v), accumulating the Jacobians in
 * pt.m (set pt.m to the identity first). Past an open boundary the point is clamped onto it.
 * Near an extraordinary vertex the order of the crossings decides which of the patches around
 * it the point lands in (the paper notes the same); the walk stops after 8 crossings and clamps.
 */
export function locate(atlas: PatchAtlas, pt: AtlasPoint): void {
  locateOf(atlas.neighbour, atlas.neighbourEdge, pt)
}

/** locate over the atlas's neighbour and neighbourEdge arrays (or copies of them). */
export function locateOf(neighbour: ArrayLike<number>, neighbourEdge: ArrayLike<number>, pt: AtlasPoint): void {
  for (let hops = 0; hops < 8; hops++) {
    let e = -1
    if (pt.x1 < 0) e = 3
    else if (pt.x1 > 1) e = 1
    else if (pt.x2 < 0) e = 0
    else if (pt.x2 > 1) e = 2
    if (e < 0) return
    if (!crossEdgeOf(neighbour, neighbourEdge, pt, e)) break
  }
  pt.x1 = pt.x1 < 0 ? 0 : pt.x1 > 1 ? 1 : pt.x1
  pt.x2 = pt.x2 < 0 ? 0 : pt.x2 > 1 ? 1 : pt.x2
}
