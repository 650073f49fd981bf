// Exact evaluation of the Catmull-Clark limit surface next to an irregular boundary vertex V
// (a vertex on the open boundary with k >= 3 faces; Biermann et al. 2000's rules, which
// Stam 2003 uses there, see catmullClark.ts). As in Stam 1998, a point (a, b) of a patch with V
// at its corner (0,0) lies, after n = the number of halvings that bring max(a, b) into
// [1/2, 1], in one of the three sub-patches of the n-times subdivided patch that do not hold
// V: the diagonal one is a bicubic B-spline patch; the two along V's edges become bicubic one
// step later (see `patches`), so their four children are used. Stam reaches level n in one
// jump through the eigen-decomposition of the subdivision matrix; here the steps are taken
// explicitly on a small neighbourhood of V (the faces within four rings of it, which subdivide
// into what the next level needs correctly: see `nextLevel`) and kept, so each level costs one
// small subdivision once per vertex, shared by its k patches, and a sample one bicubic patch.
// The limit position at V itself is the boundary curve's, (a + 4 V + b) / 6, where a and b are
// its boundary neighbours: boundary points follow the cubic B-spline rule whatever the inside.
// Its tangent plane is spanned by the left eigenvectors of eigenvalue 1/2 (double with
// Biermann's rule: 1, 1/2, 1/2, then less) of the subdivision matrix of V's 1-ring, computed
// for each k at first use from catmullClark.ts's own step, like Stam's eigen-decompositions.
// The faces just beyond V's inner neighbours are not bicubic either for one step
// (collarControlPoints); catmullClarkEval.ts splits them once.
import { subdivideOnce } from './catmullClark'
import { nullSpace } from './catmullClarkEigen'
import {
  evalBSplinePatch, invalidLimit, quadTopology, regularControlPoints, type QuadTopology, type Vec3,
} from './catmullClarkPatches'

/** Faces within this many rings of V are kept at each level (see `nextLevel` for why 4). */
const RINGS = 4
/** Below 2^-MAX_LEVELS of the patch from V a point is taken to be V (about 1e-14 of the patch). */
export const MAX_LEVELS = 46

interface FanLevel {
  pos: Float64Array
  faces: number[][]
  /** Per patch j around V: the local face holding V (V at corner `corner[j]`). */
  face: Int32Array
  corner: Uint8Array
  /**
   * Per patch j, from level 1: the local faces of the previous level's sub-patches 1 and 3
   * (side[2 j] and side[2 j + 1]), kept to be subdivided once more.
   */
  side: Int32Array | null
}

interface Subdivided { positions: Float64Array; faces: number[][]; topo: QuadTopology }

/** A level's neighbourhood subdivided once, with its topology. */
function subdivided(L: FanLevel): Subdivided {
  const s = subdivideOnce({ positions: L.pos, faces: L.faces })
  return { positions: s.positions, faces: s.faces, topo: quadTopology(s.positions.length / 3, s.faces) as QuadTopology }
}

/** The subdivision levels around one irregular boundary vertex, shared by its k patches. */
export class BoundaryFan {
  /** Limit position of V. */
  readonly limit: Vec3
  /** A normal of the tangent plane at V (unit; its sign is not fixed: compare with a nearby normal). */
  readonly limitNormal: Vec3
  /** k, the number of faces (patches) around V. */
  readonly k: number
  private readonly levels: FanLevel[] = []
  /**
   * patches[j][n]: 9 x 48 control points for patch j at level n (V at (0,0), the level-n
   * patch [0,1]^2): sub-patch 2 (the one holding the patch's corner (1,1)) after one more
   * step, then the four children (corners 0..3) of sub-patch 1 (holding (1,0)) and the four of
   * sub-patch 3 (holding (0,1)) after two. Sub-patches 1 and 3 are not bicubic themselves:
   * their nets' next step contains the edge points that Biermann's rule pulls towards V (on
   * the edges at V); their children's nets never do again, nor does sub-patch 2's.
   */
  private readonly patches: Float64Array[][]

  /**
   * @param fan base-mesh faces around V in order, with the corner at which each holds V
   * @param incident faces of the base mesh around each of its vertices
   * @param boundaryNeighbours V's neighbours along the open boundary
   */
  constructor(pos: Float64Array, faces: number[][], incident: number[][], v: number, fan: { face: number; corner: number }[], boundaryNeighbours: [number, number]) {
    this.k = fan.length
    const [a, b] = boundaryNeighbours
    this.limit = [0, 1, 2].map((c) => (pos[3 * a + c] + 4 * pos[3 * v + c] + pos[3 * b + c]) / 6) as Vec3
    // The 1-ring in the order of ringMatrix: V, spokes e_0 .. e_k, far corners f_0 .. f_(k-1).
    const ring = [v]
    for (const f of fan) ring.push(faces[f.face][(f.corner + 1) % 4])
    ring.push(b)
    for (const f of fan) ring.push(faces[f.face][(f.corner + 2) % 4])
    const [l1, l2] = tangentWeights(this.k)
    const t1: Vec3 = [0, 0, 0], t2: Vec3 = [0, 0, 0]
    ring.forEach((w, i) => {
      for (let c = 0; c < 3; c++) { t1[c] += l1[i] * pos[3 * w + c]; t2[c] += l2[i] * pos[3 * w + c] }
    })
    const nrm: Vec3 = [t1[1] * t2[2] - t1[2] * t2[1], t1[2] * t2[0] - t1[0] * t2[2], t1[0] * t2[1] - t1[1] * t2[0]]
    const len = Math.hypot(...nrm)
    this.limitNormal = [nrm[0] / len, nrm[1] / len, nrm[2] / len]
    const local = neighbourhood(pos, faces, incident, v, fan.map((f) => f.face))
    // Levels are kept relative to V's limit: near V the points are small numbers, so their
    // differences (the derivatives, 2^n times them) keep full precision however deep.
    for (let i = 0; i < local.pos.length; i++) local.pos[i] -= this.limit[i % 3]
    this.levels.push({ pos: local.pos, faces: local.faces, face: local.tracked, corner: Uint8Array.from(fan, (f) => f.corner), side: null })
    this.baseFaces = local.keep
    this.patches = fan.map(() => [])
  }

  /** Base-mesh face -> its index in the level-0 neighbourhood. */
  private readonly baseFaces: Map<number, number>
  /** The level-0 neighbourhood subdivided once (nextLevel's first step and the collar's children). */
  private level1: Subdivided | null = null
  /** patches[j][n] is complete for n below this (its last part is filled one level later). */
  private complete = 0

  private subdividedLevel0(): Subdivided {
    this.level1 ??= subdivided(this.levels[0])
    return this.level1
  }

  /**
   * The four children (corners 0..3, 48 numbers each) of a base face in V's collar: a face
   * that does not hold V but holds one of its inner neighbours. Such a face is not bicubic
   * (its children's nets hold the edge points Biermann's rule pulls towards V), but its
   * children are: the pulled points of later levels are nearer V than their nets reach.
   */
  collarControlPoints(baseFace: number): Float64Array {
    const f = this.baseFaces.get(baseFace)
    if (f === undefined) invalidLimit(`internal: face ${baseFace} is not near the boundary vertex`)
    const { positions: pos, faces, topo } = this.subdividedLevel0()
    const out = new Float64Array(4 * 48)
    for (let c = 0; c < 4; c++) out.set(regularControlPoints(pos, faces, topo, 4 * f + c, 0), 48 * c)
    for (let i = 0; i < out.length; i++) out[i] += this.limit[i % 3]
    return out
  }

  /** The 9 x 48 control points of patch j at level n (see `patches`), relative to `limit`. */
  controlPoints(j: number, n: number): Float64Array {
    while (this.complete <= n) this.nextLevel()
    return this.patches[j][n]
  }

  /**
   * Subdivides the newest level once. From the subdivided neighbourhood it gathers each
   * patch's sub-patch 2 at this level and the children of the previous level's sub-patches 1
   * and 3, then keeps the faces within RINGS rings of V as the next level. Why that is exact:
   * a new point within r rings of V is computed from old points within r / 2 + 1 rings, and
   * is right when those old points' own stencils lie in the neighbourhood and their rules are
   * the real ones (the cut around the neighbourhood looks like an open boundary, and a vertex
   * on it with 3 faces there would pull its edges). With 4 rings, every new point within 6
   * rings is right; the nets used reach 5 rings (the children of sub-patches 1 and 3) and the
   * next level takes 4.
   */
  private nextLevel(): void {
    const n = this.levels.length - 1
    const L = this.levels[n]
    const s = n === 0 ? this.subdividedLevel0() : subdivided(L)
    const topo = s.topo
    // subdivideOnce turns corner c of quad f into quad 4 f + c, whose corner 0 is the old
    // corner c: the child at V's corner keeps V at its corner 0 in the parent's orientation.
    const cps = (f: number) => regularControlPoints(s.positions, s.faces, topo, f, 0)
    const track: number[] = []
    for (let j = 0; j < this.k; j++) {
      const f = L.face[j], c = L.corner[j]
      const here = (this.patches[j][n] = new Float64Array(9 * 48))
      here.set(cps(4 * f + ((c + 2) % 4)), 0)
      if (L.side) {
        const prev = this.patches[j][n - 1]
        for (let side = 0; side < 2; side++) for (let q = 0; q < 4; q++) {
          prev.set(cps(4 * L.side[2 * j + side] + q), 48 * (1 + 4 * side + q))
        }
      }
      track.push(4 * f + c, 4 * f + ((c + 1) % 4), 4 * f + ((c + 3) % 4))
    }
    const incident = incidence(s.positions.length / 3, s.faces)
    const local = neighbourhood(s.positions, s.faces, incident, 0, track)
    const face = new Int32Array(this.k), side = new Int32Array(2 * this.k)
    for (let j = 0; j < this.k; j++) {
      face[j] = local.tracked[3 * j]
      side[2 * j] = local.tracked[3 * j + 1]
      side[2 * j + 1] = local.tracked[3 * j + 2]
    }
    this.levels.push({ pos: local.pos, faces: local.faces, face, corner: new Uint8Array(this.k), side })
    if (L.side) this.complete = n
    // Only the newest levels are needed again.
    if (n >= 2) { this.levels[n - 1].pos = new Float64Array(0); this.levels[n - 1].faces = [] }
  }
}

/**
 * One subdivision step of the 1-ring of a boundary vertex V with k faces, as a (2k+2)^2 matrix
 * over [V, e_0 .. e_k, f_0 .. f_(k-1)] (face j = V, e_j, f_j, e_(j+1); e_0 and e_k on the
 * boundary): the ring subdivides into itself. Built by running catmullClark.ts's step on a
 * lone fan with one unit coordinate at a time, so it is that step's rule, whatever it is.
 */
export function ringMatrix(k: number): number[][] {
  const n = 2 * k + 2
  const faces: number[][] = []
  for (let j = 0; j < k; j++) faces.push([0, 1 + j, k + 2 + j, 2 + j])
  const M: number[][] = Array.from({ length: n }, () => new Array<number>(n).fill(0))
  for (let col = 0; col < n; col++) {
    const pos = new Float64Array(3 * n)
    pos[3 * col] = 1
    const s = subdivideOnce({ positions: pos, faces })
    M[0][col] = s.positions[0]
    for (let j = 0; j < k; j++) {
      // Child of face j at V: [V, edge point of (V, e_j), face point j, edge point of (e_(j+1), V)].
      const q = s.faces[4 * j]
      M[1 + j][col] = s.positions[3 * q[1]]
      M[2 + j][col] = s.positions[3 * q[3]]
      M[k + 2 + j][col] = s.positions[3 * q[2]]
    }
  }
  return M
}

const tangentCache = new Map<number, [number[], number[]]>()

/** Two left eigenvectors of ringMatrix(k) for eigenvalue 1/2: their products with the ring span the tangent plane. */
export function tangentWeights(k: number): [number[], number[]] {
  let w = tangentCache.get(k)
  if (!w) {
    const M = ringMatrix(k)
    const B = M.map((_, i) => M.map((row, j) => row[i] - (i === j ? 0.5 : 0)))
    const [l1, l2] = nullSpace(B, 2)
    w = [l1, l2]
    tangentCache.set(k, w)
  }
  return w
}

/** Faces around each vertex. */
export function incidence(nV: number, faces: number[][]): number[][] {
  const out: number[][] = Array.from({ length: nV }, () => [])
  for (let f = 0; f < faces.length; f++) for (const v of faces[f]) out[v].push(f)
  return out
}

/**
 * The faces within RINGS rings of v (ring 1: the faces at v; ring r + 1: the faces sharing a
 * vertex with ring r), renumbered in order of first use with v as local vertex 0 (which
 * subdivideOnce keeps: vertex points come first); `tracked` gives the local index of each
 * face in `track`.
 */
function neighbourhood(pos: Float64Array, faces: number[][], incident: number[][], v: number, track: number[]): { pos: Float64Array; faces: number[][]; tracked: Int32Array; keep: Map<number, number> } {
  const keep = new Map<number, number>() // global face -> local face
  let frontier = incident[v].slice()
  for (const f of frontier) keep.set(f, keep.size)
  for (let r = 1; r < RINGS; r++) {
    const next: number[] = []
    for (const f of frontier) for (const w of faces[f]) for (const g of incident[w]) {
      if (!keep.has(g)) { keep.set(g, keep.size); next.push(g) }
    }
    frontier = next
  }
  const vmap = new Map<number, number>()
  vmap.set(v, 0)
  const local: number[][] = []
  for (const f of keep.keys()) {
    local.push(faces[f].map((w) => {
      let id = vmap.get(w)
      if (id === undefined) { id = vmap.size; vmap.set(w, id) }
      return id
    }))
  }
  const p = new Float64Array(3 * vmap.size)
  for (const [w, id] of vmap) for (let c = 0; c < 3; c++) p[3 * id + c] = pos[3 * w + c]
  const tracked = Int32Array.from(track, (f) => {
    const id = keep.get(f)
    if (id === undefined) invalidLimit('internal: a patch around a boundary vertex left its neighbourhood')
    return id
  })
  return { pos: p, faces: local, tracked, keep }
}

// d1 = Q_(c+1) - Q_c and d3 = Q_(c-1) - Q_c per corner c: unit axis vectors.
const D1X = [1, 0, -1, 0], D1Y = [0, 1, 0, -1], D3X = [0, -1, 0, 1], D3Y = [1, 0, -1, 0]
/** quadrant()'s outputs for the two levels of evalBoundaryFan (evaluation is single-threaded). */
const Q1 = new Float64Array(7), Q2 = new Float64Array(7)

/**
 * The quadrant of [0,1]^2 that holds (x, y), as the child quad subdivideOnce makes there: the
 * child at corner c has its corner 0 at Q_c (Q = (0,0), (1,0), (1,1), (0,1)), its s towards
 * Q_(c+1) and t towards Q_(c-1), at half scale. Writes (c, s, t, ds/dx, dt/dx, ds/dy, dt/dy).
 */
export function quadrant(x: number, y: number, out: Float64Array): void {
  const hx = x >= 0.5, hy = y >= 0.5
  const c = hx ? (hy ? 2 : 1) : hy ? 3 : 0
  const qx = c === 1 || c === 2 ? 1 : 0, qy = c >= 2 ? 1 : 0
  const d1x = D1X[c], d1y = D1Y[c], d3x = D3X[c], d3y = D3Y[c]
  const wx = x - qx, wy = y - qy
  out[0] = c
  out[1] = 2 * (wx * d1x + wy * d1y)
  out[2] = 2 * (wx * d3x + wy * d3y)
  out[3] = 2 * d1x; out[4] = 2 * d3x; out[5] = 2 * d1y; out[6] = 2 * d3y
}

/** Derivatives by x and y from derivatives by the quadrant's s and t. */
export function chain(q: Float64Array, ds: Vec3, dt: Vec3): [Vec3, Vec3] {
  const dx: Vec3 = [0, 0, 0], dy: Vec3 = [0, 0, 0]
  for (let c = 0; c < 3; c++) {
    dx[c] = q[3] * ds[c] + q[4] * dt[c]
    dy[c] = q[5] * ds[c] + q[6] * dt[c]
  }
  return [dx, dy]
}

/**
 * Position and derivatives at (a, b) in the frame of patch j around the fan's vertex (V at
 * (0,0), a along the edge to the face's next corner), 0 < max(a, b) <= 1.
 */
export function evalBoundaryFan(fan: BoundaryFan, j: number, a: number, b: number): { p: Vec3; ds: Vec3; dt: Vec3 } {
  let n = 0
  let A = a, B = b
  while (Math.max(A, B) < 0.5) { A *= 2; B *= 2; n++ }
  const cp = fan.controlPoints(j, n)
  const q1 = Q1, q2 = Q2
  quadrant(A, B, q1)
  const m = q1[0]
  let p: Vec3, dA: Vec3, dB: Vec3
  if (m === 2) {
    const r = evalBSplinePatch(cp, q1[1], q1[2], 0)
    p = r.p
    ;[dA, dB] = chain(q1, r.ds, r.dt)
  } else {
    quadrant(q1[1], q1[2], q2)
    const r = evalBSplinePatch(cp, q2[1], q2[2], 48 * (1 + (m === 1 ? 0 : 4) + q2[0]))
    p = r.p
    const [ds, dt] = chain(q2, r.ds, r.dt)
    ;[dA, dB] = chain(q1, ds, dt)
  }
  const g = 2 ** n
  for (let c = 0; c < 3; c++) p[c] += fan.limit[c]
  return { p, ds: [g * dA[0], g * dA[1], g * dA[2]], dt: [g * dB[0], g * dB[1], g * dB[2]] }
}
