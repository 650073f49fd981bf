// The stencil table of isosurface stuffing (F. Labelle and J. R. Shewchuk, "Isosurface
// stuffing: fast tetrahedral meshes with good dihedral angles", ACM Trans. Graph. 26(3),
// SIGGRAPH 2007, section 3 and figure 3): how a background tetrahedron whose vertices are
// inside (IN), on (ON) or outside (OUT) the isosurface is filled with output tetrahedra.
//
// Local numbering. A background BCC tetrahedron is (v0, v1, v2, v3), positively oriented,
// with its two long ("black") edges v0-v1 and v2-v3 (in the BCC lattice v0, v1 are two cube
// centres and v2, v3 two cube corners); the four other edges are short ("red"). Slots 0..3
// name the vertices and slots 4..9 the cut points on the edges in EDGE_A/EDGE_B order
// (v0v1, v0v2, v0v3, v1v2, v1v3, v2v3). A pattern is code = l0 + 3 l1 + 9 l2 + 27 l3 with
// l = OUT 0, ON 1, IN 2.
//
// The part of a background tetrahedron inside the surface is a tetrahedron, a pyramid or a
// triangular prism (the paper's stencils). Pyramids and prisms have quadrilateral faces; a
// quadrilateral that lies in a face of the background tetrahedron is shared with the
// neighbouring tetrahedron, so its diagonal must be chosen by a rule both sides agree on:
//  - the quadrilateral's face has its long edge between the inside vertex B and the outside
//    vertex N (A-B short): the diagonal joins the cut point on that long edge to A;
//  - the long edge joins the two inside vertices A and B: the paper's parity rule, which we
//    evaluate from the lattice coordinates of A, B and N (see parityFromA). Those faces get
//    one "variant" bit each (bit k for N = the k-th vertex of the other long edge).
// Given the quadrilaterals' diagonals the tetrahedralisation of a pyramid or a prism is
// unique (the free diagonal of the prism's quadrilateral cut face is the one that leaves
// the prism tetrahedralisable), so the table below is generated rather than typed: for each
// pattern and variant we build the inside polytope in barycentric terms, pick a vertex that
// every quadrilateral through it has a diagonal at, and cone from it over the other faces.
// Orientations are fixed from the signed volumes, so every output tetrahedron is positive
// whenever the background tetrahedron is; a self-check evaluates every stencil at random
// cut positions and throws if a tetrahedron degenerates or changes sign.

export const OUT = 0
export const ON = 1
export const IN = 2

/** Edge e of a tetrahedron joins local vertices EDGE_A[e] and EDGE_B[e]; cut slot 4 + e. */
export const EDGE_A = Uint8Array.from([0, 0, 0, 1, 1, 2])
export const EDGE_B = Uint8Array.from([1, 2, 3, 2, 3, 3])

/** Pattern code of the all-ON tetrahedron (kept only if its centroid is inside). */
export const CODE_ALL_ON = 1 + 3 + 9 + 27
/** Pattern code of the all-IN tetrahedron. */
export const CODE_ALL_IN = 80

/**
 * Which parity bits a pattern needs: 0 none; 1 when v0-v1 is an IN-IN long edge and some of
 * v2, v3 is OUT; 2 when v2-v3 is IN-IN and some of v0, v1 is OUT.
 */
export const PARITY_PAIR = new Uint8Array(81)

/** Output tetrahedra of (code, variant): slots STENCIL_SLOTS[4 t .. 4 t + 3] for t in [STENCIL_START[i], STENCIL_START[i + 1]), i = 4 code + variant. */
export let STENCIL_START: Int32Array
export let STENCIL_SLOTS: Uint8Array

// Canonical BCC tetrahedron used only to decide faces and orientations (everything here is
// affine, so any positively oriented tetrahedron would do).
const CANON = [
  [0, 0, 0],
  [2, 0, 0],
  [1, -1, -1],
  [1, 1, -1],
]

function edgeIndex(i: number, j: number): number {
  const a = Math.min(i, j), b = Math.max(i, j)
  for (let e = 0; e < 6; e++) if (EDGE_A[e] === a && EDGE_B[e] === b) return e
  throw new Error('stencils: not an edge')
}

const isLong = (i: number, j: number): boolean => (i >> 1) === (j >> 1)

function slotPoint(slot: number, t: Float64Array): number[] {
  if (slot < 4) return CANON[slot]
  const e = slot - 4, a = CANON[EDGE_A[e]], b = CANON[EDGE_B[e]], s = t[e]
  return [a[0] + s * (b[0] - a[0]), a[1] + s * (b[1] - a[1]), a[2] + s * (b[2] - a[2])]
}

function signedVolume(q: number[], t: Float64Array): number {
  const a = slotPoint(q[0], t), b = slotPoint(q[1], t), c = slotPoint(q[2], t), d = slotPoint(q[3], t)
  const ux = b[0] - a[0], uy = b[1] - a[1], uz = b[2] - a[2]
  const vx = c[0] - a[0], vy = c[1] - a[1], vz = c[2] - a[2]
  const wx = d[0] - a[0], wy = d[1] - a[1], wz = d[2] - a[2]
  return (ux * (vy * wz - vz * wy) - uy * (vx * wz - vz * wx) + uz * (vx * wy - vy * wx)) / 6
}

interface Face {
  pts: number[] // slots in cyclic order
  /** For quadrilaterals: index 0 or 1 of the diagonal (q0-q2 or q1-q3); -1 = free (cut face). */
  diag: number
}

/** Cut slot of the edge between local vertices i and j, oriented from the IN end. */
const cutSlot = (i: number, j: number): number => 4 + edgeIndex(i, j)

/**
 * Tetrahedra filling the inside part of a background tetrahedron with these labels, for the
 * parity bits `bits` (see the file comment). Labels with no OUT vertex give the whole
 * tetrahedron, labels with no IN vertex nothing.
 */
function buildStencil(l: number[], bits: number): number[][] {
  const nIn = l.filter((x) => x === IN).length, nOut = l.filter((x) => x === OUT).length
  if (nIn === 0) return l.every((x) => x === ON) ? [[0, 1, 2, 3]] : []
  if (nOut === 0) return [[0, 1, 2, 3]]
  const faces: Face[] = []
  // Faces of the background tetrahedron, clipped: walk the triangle, keep non-OUT vertices and
  // insert the cut point of every IN-OUT edge.
  for (let o = 0; o < 4; o++) {
    const tri = [0, 1, 2, 3].filter((v) => v !== o)
    const pts: number[] = []
    for (let k = 0; k < 3; k++) {
      const v = tri[k], w = tri[(k + 1) % 3]
      if (l[v] !== OUT) pts.push(v)
      if ((l[v] === IN && l[w] === OUT) || (l[v] === OUT && l[w] === IN)) pts.push(cutSlot(v, w))
    }
    if (pts.length < 3) continue
    let diag = -1
    if (pts.length === 4) {
      // Two IN vertices A, B and one OUT vertex N.
      const ins = tri.filter((v) => l[v] === IN)
      const n = tri.find((v) => l[v] === OUT)!
      const [a, b] = ins
      let from: number, to: number // diagonal from vertex `from` to cut point `to`
      if (isLong(a, b)) {
        // Parity rule, bit k for N = the k-th vertex of the other long edge.
        const bit = (bits >> (n & 1)) & 1
        if (bit === 0) { from = a; to = cutSlot(b, n) } else { from = b; to = cutSlot(a, n) }
      } else if (isLong(a, n)) { from = b; to = cutSlot(a, n) } else { from = a; to = cutSlot(b, n) }
      const i = pts.indexOf(from), j = pts.indexOf(to)
      if (i < 0 || j < 0 || Math.abs(i - j) !== 2) throw new Error('stencils: diagonal is not a diagonal')
      diag = i % 2
    }
    faces.push({ pts, diag })
  }
  // The cut face: ON vertices and cut points (coplanar in the linearised picture with every
  // cut at its edge's midpoint), ordered by angle around their centroid.
  const half = new Float64Array(6).fill(0.5)
  const cut: number[] = []
  for (let v = 0; v < 4; v++) if (l[v] === ON) cut.push(v)
  for (let e = 0; e < 6; e++) {
    const a = l[EDGE_A[e]], b = l[EDGE_B[e]]
    if ((a === IN && b === OUT) || (a === OUT && b === IN)) cut.push(4 + e)
  }
  let cutFace: Face | null = null
  if (cut.length >= 3) {
    const p = cut.map((s) => slotPoint(s, half))
    const g = [0, 1, 2].map((k) => p.reduce((s, q) => s + q[k], 0) / p.length)
    const sub = (x: number[], y: number[]) => [x[0] - y[0], x[1] - y[1], x[2] - y[2]]
    const cross = (x: number[], y: number[]) => [x[1] * y[2] - x[2] * y[1], x[2] * y[0] - x[0] * y[2], x[0] * y[1] - x[1] * y[0]]
    const dot = (x: number[], y: number[]) => x[0] * y[0] + x[1] * y[1] + x[2] * y[2]
    const nrm = cross(sub(p[1], p[0]), sub(p[2], p[0]))
    if (dot(nrm, nrm) > 1e-12) {
      const u = sub(p[0], g), w = cross(nrm, u)
      const order = cut.map((s, k) => ({ s, a: Math.atan2(dot(sub(p[k], g), w), dot(sub(p[k], g), u)) })).sort((x, y) => x.a - y.a)
      cutFace = { pts: order.map((x) => x.s), diag: -1 }
    }
  }
  const verts = new Set<number>()
  for (const f of faces) for (const s of f.pts) verts.add(s)
  if (cutFace) for (const s of cutFace.pts) verts.add(s)
  const diagOf = (f: Face): [number, number] => (f.diag === 0 ? [f.pts[0], f.pts[2]] : [f.pts[1], f.pts[3]])
  const freeChoices = cutFace && cutFace.pts.length === 4 ? [0, 1] : [-1]
  for (const choice of freeChoices) {
    const all = cutFace ? [...faces, { pts: cutFace.pts, diag: choice }] : faces
    for (const v of verts) {
      let ok = true
      for (const f of all) {
        if (f.pts.length === 4 && f.pts.includes(v) && !diagOf(f).includes(v)) { ok = false; break }
      }
      if (!ok) continue
      const tets: number[][] = []
      for (const f of all) {
        if (f.pts.includes(v)) continue
        if (f.pts.length === 3) tets.push([v, ...f.pts])
        else {
          const q = f.pts
          if (f.diag === 0) { tets.push([v, q[0], q[1], q[2]], [v, q[0], q[2], q[3]]) } else { tets.push([v, q[1], q[2], q[3]], [v, q[1], q[3], q[0]]) }
        }
      }
      return tets.map((q) => (signedVolume(q, half) < 0 ? [q[0], q[1], q[3], q[2]] : q))
    }
  }
  throw new Error(`stencils: no tetrahedralisation for labels ${l.join('')} bits ${bits}`)
}

/**
 * Parity rule for a quadrilateral in the background face (A, B, N) whose long edge A-B joins
 * the two inside vertices (N outside): true if its diagonal runs from A to the cut point on
 * B-N, false if from B to the cut point on A-N. Arguments are lattice coordinates in units
 * of half the lattice spacing (corners even, centres odd), `cornerEdge` says whether A-B
 * joins two cube corners (else two cube centres).
 *
 * Why it is consistent: the rule depends on the face alone (not on which tetrahedron asks),
 * and swapping A and B flips exactly one sign among 2A - B - N (the component along A-B;
 * the two others are those of A - N, which N's offset from the edge makes non-zero), so
 * exactly one of A, B qualifies and both tetrahedra sharing the face pick the same diagonal.
 * The diagonal goes from the black-edge vertex to the opposite red-edge cut point with the
 * parity of the number of positive components of that vector, as in the paper's parity
 * rule (the two diagonals are mirror images in a BCC face, so either convention keeps the
 * paper's angle bounds; what matters is that neighbours agree and that the two
 * quadrilaterals of a ++-- prism are split crosswise, which this rule does).
 */
export function parityFromA(ax: number, ay: number, az: number, bx: number, by: number, bz: number, nx: number, ny: number, nz: number, cornerEdge: number): boolean {
  const c = (2 * ax - bx - nx > 0 ? 1 : 0) + (2 * ay - by - ny > 0 ? 1 : 0) + (2 * az - bz - nz > 0 ? 1 : 0)
  return ((c + cornerEdge) & 1) === 1
}

function buildTable(): void {
  const start: number[] = [0]
  const slots: number[] = []
  const rand = mulberry(12345)
  const t = new Float64Array(6)
  for (let code = 0; code < 81; code++) {
    const l = [code % 3, Math.floor(code / 3) % 3, Math.floor(code / 9) % 3, Math.floor(code / 27) % 3]
    if (l[0] === IN && l[1] === IN && (l[2] === OUT || l[3] === OUT)) PARITY_PAIR[code] = 1
    else if (l[2] === IN && l[3] === IN && (l[0] === OUT || l[1] === OUT)) PARITY_PAIR[code] = 2
    for (let bits = 0; bits < 4; bits++) {
      const tets = buildStencil(l, bits)
      // Self-check: every tetrahedron positive for random cut positions in (0.02, 0.98).
      for (let trial = 0; trial < 20; trial++) {
        for (let e = 0; e < 6; e++) t[e] = 0.02 + 0.96 * rand()
        for (const q of tets) {
          if (!(signedVolume(q, t) > 1e-6)) throw new Error(`stencils: degenerate tetrahedron for labels ${l.join('')}`)
        }
      }
      for (const q of tets) slots.push(...q)
      start.push(slots.length / 4)
    }
  }
  STENCIL_START = Int32Array.from(start)
  STENCIL_SLOTS = Uint8Array.from(slots)
}

function mulberry(seed: number): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0
    let r = Math.imul(seed ^ (seed >>> 15), 1 | seed)
    r = (r + Math.imul(r ^ (r >>> 7), 61 | r)) ^ r
    return ((r ^ (r >>> 14)) >>> 0) / 4294967296
  }
}

buildTable()
