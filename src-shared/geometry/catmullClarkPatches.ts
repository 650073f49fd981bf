// The pieces of Catmull-Clark limit evaluation that every patch kind shares: the topology of
// an all-quad base mesh (half-edges, valences, open-boundary vertices), the 4x4 control grid
// around a face gathered through its neighbours, and the bicubic uniform B-spline patch of a
// face whose corners are all regular, with the control rows missing beyond an open boundary
// reflected (p = 2 b - i), which is what the cubic B-spline boundary rules of catmullClark.ts
// make the limit surface there.
import { EddyError } from '../api/errors'

export type Vec3 = [number, number, number]

export function invalidLimit(message: string): never {
  throw new EddyError('INVALID_PARAM', `limit surface: ${message}`)
}

export interface QuadTopology {
  valence: Uint32Array
  /** Half-edge a -> b (key a * nV + b) to 4 * face + corner of a. */
  he: Map<number, number>
  nV: number
  /** 1 for vertices on an open boundary. */
  boundary: Uint8Array
}

/** Half-edges, valences and boundary flags of an all-quad mesh; null if a face is not a quad. */
export function quadTopology(nV: number, faces: number[][]): QuadTopology | null {
  const he = new Map<number, number>()
  const valence = new Uint32Array(nV)
  for (let f = 0; f < faces.length; f++) {
    const q = faces[f]
    if (q.length !== 4) return null
    for (let c = 0; c < 4; c++) {
      he.set(q[c] * nV + q[(c + 1) % 4], 4 * f + c)
      valence[q[c]]++
    }
  }
  const boundary = new Uint8Array(nV)
  const openOut = new Uint32Array(nV)
  for (const key of he.keys()) {
    const a = Math.floor(key / nV), b = key % nV
    if (!he.has(b * nV + a)) { boundary[a] = boundary[b] = 1; openOut[a]++ }
  }
  for (let v = 0; v < nV; v++) {
    // Two fans of faces touching at one vertex: no subdivision rule gives it a surface.
    if (openOut[v] > 1) invalidLimit(`vertex ${v} is where ${openOut[v]} separate fans of faces touch (a non-manifold vertex); split it or join the fans`)
  }
  return { valence, he, nV, boundary }
}

/**
 * A vertex the bicubic patch rules cover: 4 faces inside, 2 on an open boundary, 1 at a sheet
 * corner. The others are extraordinary: interior vertices of other valences, and boundary
 * vertices with 3 or more faces.
 */
export function regularVertex(topo: QuadTopology, v: number): boolean {
  return topo.boundary[v] ? topo.valence[v] <= 2 : topo.valence[v] === 4
}

/** Key of control-grid point (x, y), x and y in -1..6. */
export const gridKey = (x: number, y: number): number => (x + 1) * 8 + (y + 1)

/**
 * The 4x4 control grid of face f drawn with corner `rot` at grid (1,1), corner rot + 1 at
 * (2,1), rot + 3 at (1,2): vertex indices by gridKey, walking across the face's edges into its
 * neighbours. `full` also walks across the two edges at corner `rot` (a regular corner);
 * without it the points around that corner are left out (an extraordinary vertex's fan is
 * gathered by its own walk). Nothing is found across an open edge.
 */
export function controlGrid(faces: number[][], topo: QuadTopology, f: number, rot: number, full: boolean): Map<number, number> {
  const { he, nV } = topo
  const q = faces[f]
  const grid = new Map<number, number>()
  const set = (x: number, y: number, v: number) => {
    const k = gridKey(x, y), old = grid.get(k)
    if (old !== undefined && old !== v) invalidLimit(`face ${f}: inconsistent neighbourhood (non-manifold vertex?)`)
    grid.set(k, v)
  }
  set(1, 1, q[rot]); set(2, 1, q[(rot + 1) % 4]); set(2, 2, q[(rot + 2) % 4]); set(1, 2, q[(rot + 3) % 4])
  // Quad across the (counter-clockwise) edge P -> Q: its corners are Q, P, P + perp, Q + perp.
  // Nothing across an open edge (or from a corner that is not known).
  const across = (px: number, py: number, qx: number, qy: number) => {
    const a = grid.get(gridKey(qx, qy)), b = grid.get(gridKey(px, py))
    if (a === undefined || b === undefined) return
    const h = he.get(a * nV + b)
    if (h === undefined) return
    const gq = faces[h >> 2], j = h & 3
    const dx = qy - py, dy = -(qx - px)
    set(px + dx, py + dy, gq[(j + 2) % 4])
    set(qx + dx, qy + dy, gq[(j + 3) % 4])
  }
  across(2, 1, 2, 2)
  across(2, 2, 1, 2)
  across(2, 1, 3, 1)
  across(3, 2, 2, 2)
  across(1, 3, 1, 2)
  if (full) {
    across(1, 1, 2, 1)
    across(1, 2, 1, 1)
    across(1, 1, 1, 0)
  }
  return grid
}

/**
 * The 16 control points (index x + 4y, xyz) of face f, whose corners are all regular, in the
 * frame with corner `rot` at the patch's (0,0); points beyond an open boundary reflected.
 */
export function regularControlPoints(pos: ArrayLike<number>, faces: number[][], topo: QuadTopology, f: number, rot = 0): Float64Array {
  const grid = controlGrid(faces, topo, f, rot, true)
  const cp = new Float64Array(48)
  const known = new Uint8Array(16)
  for (let y = 0; y < 4; y++) for (let x = 0; x < 4; x++) {
    const v = grid.get(gridKey(x, y))
    if (v === undefined) continue
    known[x + 4 * y] = 1
    for (let k = 0; k < 3; k++) cp[3 * (x + 4 * y) + k] = pos[3 * v + k]
  }
  reflectMissing(cp, known, f)
  return cp
}

/**
 * Fills the control points of a boundary patch that lie beyond the open edge by reflection,
 * p = 2 b - i along the row or column (rows first, then columns, so a point beyond two open
 * edges is reflected twice). Regular corners guarantee one of the two reflections applies.
 */
function reflectMissing(cp: Float64Array, known: Uint8Array, f: number): void {
  const fill = (t: number, b: number, i: number): boolean => {
    if (known[t] || !known[b] || !known[i]) return false
    for (let k = 0; k < 3; k++) cp[3 * t + k] = 2 * cp[3 * b + k] - cp[3 * i + k]
    known[t] = 1
    return true
  }
  for (let pass = 0; pass < 2; pass++) {
    for (let y = 0; y < 4; y++) {
      fill(0 + 4 * y, 1 + 4 * y, 2 + 4 * y)
      fill(3 + 4 * y, 2 + 4 * y, 1 + 4 * y)
    }
    for (let x = 0; x < 4; x++) {
      fill(x, x + 4, x + 8)
      fill(x + 12, x + 8, x + 4)
    }
  }
  if (known.some((k) => !k)) invalidLimit(`face ${f}: its neighbourhood on the open boundary is not a regular grid`)
}

/** Uniform cubic B-spline basis and derivative at t in [0,1]. */
export function bspline(t: number, b: number[], d: number[]): void {
  const s = 1 - t
  b[0] = (s * s * s) / 6
  b[1] = (3 * t * t * t - 6 * t * t + 4) / 6
  b[2] = (-3 * t * t * t + 3 * t * t + 3 * t + 1) / 6
  b[3] = (t * t * t) / 6
  d[0] = -(s * s) / 2
  d[1] = (3 * t * t - 4 * t) / 2
  d[2] = (-3 * t * t + 2 * t + 1) / 2
  d[3] = (t * t) / 2
}

/** Bicubic B-spline patch over 16 control points (index x + 4y) from `offset` in cp. */
export function evalBSplinePatch(cp: ArrayLike<number>, s: number, t: number, offset = 0): { p: Vec3; ds: Vec3; dt: Vec3 } {
  const bs = [0, 0, 0, 0], dbs = [0, 0, 0, 0], bt = [0, 0, 0, 0], dbt = [0, 0, 0, 0]
  bspline(s, bs, dbs)
  bspline(t, bt, dbt)
  const p: Vec3 = [0, 0, 0], ds: Vec3 = [0, 0, 0], dt: Vec3 = [0, 0, 0]
  for (let y = 0; y < 4; y++) for (let x = 0; x < 4; x++) {
    const w = bs[x] * bt[y], wu = dbs[x] * bt[y], wv = bs[x] * dbt[y]
    const o = offset + 3 * (x + 4 * y)
    for (let k = 0; k < 3; k++) { p[k] += w * cp[o + k]; ds[k] += wu * cp[o + k]; dt[k] += wv * cp[o + k] }
  }
  return { p, ds, dt }
}
