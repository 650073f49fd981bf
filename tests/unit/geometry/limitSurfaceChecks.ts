// Checks shared by the Catmull-Clark limit-evaluation tests: the explicit-subdivision
// reference, continuity across patch edges, and derivatives against finite differences.
import { subdivideOnce, type PolyMesh } from '../../../src-shared/geometry/catmullClark'
import { evaluateLimit, limitPointRule, type LimitSurface, type Vec3 } from '../../../src-shared/geometry/catmullClarkEval'

export const dist = (a: ArrayLike<number>, b: ArrayLike<number>) => Math.hypot(a[0] - b[0], a[1] - b[1], a[2] - b[2])
/** Angle between unit vectors from the chord (acos has a 2e-8 floor near 1). */
export const angle = (a: Vec3, b: Vec3) => 2 * Math.asin(Math.min(1, dist(a, b) / 2))

/** Diagonal of the bounding box. */
export function size(m: PolyMesh): number {
  const lo = [Infinity, Infinity, Infinity], hi = [-Infinity, -Infinity, -Infinity]
  for (let i = 0; i < m.positions.length; i++) {
    lo[i % 3] = Math.min(lo[i % 3], m.positions[i]); hi[i % 3] = Math.max(hi[i % 3], m.positions[i])
  }
  return Math.hypot(hi[0] - lo[0], hi[1] - lo[1], hi[2] - lo[2])
}

/** Vertex of the L-times subdivided base mesh at dyadic (u, v) of base face f. */
export function vertexAt(f: number, u: number, v: number, L: number, levelFaces: number[][]): number {
  let q = f
  for (let l = 0; l < L; l++) {
    let k: number, a: number, b: number
    if (u <= 0.5 && v <= 0.5) { k = 0; a = 2 * u; b = 2 * v }
    else if (u >= 0.5 && v <= 0.5) { k = 1; a = 2 * v; b = 2 * (1 - u) }
    else if (u >= 0.5 && v >= 0.5) { k = 2; a = 2 * (1 - u); b = 2 * (1 - v) }
    else { k = 3; a = 2 * (1 - v); b = 2 * u }
    q = 4 * q + k; u = a; v = b
  }
  const corner = u === 0 ? (v === 0 ? 0 : 3) : v === 0 ? 1 : 2
  if ((u !== 0 && u !== 1) || (v !== 0 && v !== 1)) throw new Error('not a vertex at this level')
  return levelFaces[q][corner]
}

/**
 * The base mesh of S subdivided L times, with each vertex's known limit: a sheet corner stays
 * put, a rim vertex goes to (a + 4 P + b) / 6 of its boundary neighbours, an inner vertex to the
 * limit-point rule (which assumes the standard rules around it from then on).
 */
export function subdivisionReference(S: LimitSurface, L: number) {
  let m: PolyMesh = { positions: S.positions, faces: S.faces }
  for (let l = 0; l < L; l++) m = subdivideOnce(m)
  const nV = m.positions.length / 3
  const twin = new Set<number>()
  for (const q of m.faces) for (let c = 0; c < 4; c++) twin.add(q[c] * nV + q[(c + 1) % 4])
  // Faces around each vertex, as offsets into one array (a level-7 mesh has 10^5-10^6 faces).
  const start = new Int32Array(nV + 1)
  for (const q of m.faces) for (const v of q) start[v + 1]++
  for (let v = 0; v < nV; v++) start[v + 1] += start[v]
  const fill = start.slice(0, nV), around = new Int32Array(start[nV])
  m.faces.forEach((q, f) => { for (const v of q) around[fill[v]++] = f })
  const facesAt = (v: number): number[][] => Array.from(around.subarray(start[v], start[v + 1]), (f) => m.faces[f])
  /** Boundary neighbours of a vertex: the other ends of its edges that have no twin. */
  const rimNeighbours = (v: number): number[] => {
    const out: number[] = []
    for (const q of facesAt(v)) for (let c = 0; c < 4; c++) {
      const a = q[c], b = q[(c + 1) % 4]
      if (a === v && !twin.has(b * nV + a)) out.push(b)
      if (b === v && !twin.has(b * nV + a)) out.push(a)
    }
    return out
  }
  const P = m.positions
  const limitOf = (vert: number): { kind: 'corner' | 'rim' | 'inner'; at: ArrayLike<number> } => {
    const fan = facesAt(vert)
    if (fan.length === 1) return { kind: 'corner', at: [0, 1, 2].map((k) => P[3 * vert + k]) }
    const rim = rimNeighbours(vert)
    if (rim.length === 2) return { kind: 'rim', at: [0, 1, 2].map((k) => (P[3 * rim[0] + k] + 4 * P[3 * vert + k] + P[3 * rim[1] + k]) / 6) }
    return { kind: 'inner', at: limitPointRule(P, fan, vert) }
  }
  return { m, facesAt, rimNeighbours, limitOf }
}

/**
 * Largest jumps of position (over the size), tangents (relative) and normals (rad) across the
 * patch edges S shares between two patches, sampled along each; `edges` counts the edges seen.
 */
export function edgeJumps(S: LimitSurface): { pe: number; te: number; ne: number; edges: number } {
  const he = new Map<string, [number, number]>()
  S.faces.forEach((q, f) => q.forEach((v, c) => he.set(`${v},${q[(c + 1) % 4]}`, [f, c])))
  const at = (c: number, s: number): [number, number] => [[s, 0], [1, s], [1 - s, 1], [0, 1 - s]][c] as [number, number]
  const along = (c: number, d: { du: Vec3; dv: Vec3 }): Vec3 => {
    const sg = c >= 2 ? -1 : 1, w = c % 2 === 0 ? d.du : d.dv
    return [sg * w[0], sg * w[1], sg * w[2]]
  }
  const inward = (c: number, d: { du: Vec3; dv: Vec3 }): Vec3 => along((c + 1) % 4, d)
  let pe = 0, te = 0, ne = 0, edges = 0
  const sz = size(S)
  for (let f = 0; f < S.faces.length; f++) for (let c = 0; c < 4; c++) {
    const q = S.faces[f]
    const other = he.get(`${q[(c + 1) % 4]},${q[c]}`)
    if (!other) continue
    edges++
    const [g, j] = other
    for (const t of [2 ** -30, 2 ** -10, 0.1, 0.37, 0.5, 0.93, 1 - 2 ** -20]) {
      const A = evaluateLimit(S, f, ...at(c, t)), B = evaluateLimit(S, g, ...at(j, 1 - t))
      pe = Math.max(pe, dist(A.position, B.position) / sz)
      const ta = along(c, A), tb = along(j, B), ia = inward(c, A), ib = inward(j, B)
      const scale = Math.hypot(...ta) + Math.hypot(...ia)
      te = Math.max(te, (dist(ta, [-tb[0], -tb[1], -tb[2]]) + dist(ia, [-ib[0], -ib[1], -ib[2]])) / scale)
      ne = Math.max(ne, angle(A.normal, B.normal))
    }
  }
  return { pe, te, ne, edges }
}

/** Largest relative error of du and dv against central differences of positions, over every patch at `pts`. */
export function finiteDifferenceError(S: LimitSurface, pts: readonly (readonly [number, number])[]): number {
  let err = 0
  for (let f = 0; f < S.faces.length; f++) for (const [u, v] of pts) {
    const s = evaluateLimit(S, f, u, v)
    const hh = Math.min(1e-6, u / 4, v / 4, (1 - u) / 4, (1 - v) / 4)
    const pu = evaluateLimit(S, f, u + hh, v).position, mu = evaluateLimit(S, f, u - hh, v).position
    const pv = evaluateLimit(S, f, u, v + hh).position, mv = evaluateLimit(S, f, u, v - hh).position
    const fu = [0, 1, 2].map((k) => (pu[k] - mu[k]) / (2 * hh))
    const fv = [0, 1, 2].map((k) => (pv[k] - mv[k]) / (2 * hh))
    err = Math.max(err, dist(s.du, fu) / Math.hypot(...s.du), dist(s.dv, fv) / Math.hypot(...s.dv))
  }
  return err
}
