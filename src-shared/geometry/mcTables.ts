// Marching cubes case tables (Lorensen & Cline 1987), generated once at load instead of typed
// out. The classic 256-case table leaves cracks where two cubes resolve an ambiguous face
// (two inside corners on one diagonal, two outside on the other) differently. Here every face
// is cut by one fixed rule that looks only at that face's four corner signs, so the two cubes
// sharing a face always draw the same segments on it, in opposite directions; the surface is
// then closed and consistently oriented by construction, not by trusting a transcribed table.
//
// Per case: on each of the 6 faces, segments join the crossed edges (ambiguous faces: each
// segment cuts off one INSIDE corner, i.e. liquid touching only diagonally across a face is
// kept apart). Each segment is directed so that the outside (phi > 0) lies to the right when
// seen from outside the cube, so the segments chain into loops that run counter-clockwise
// seen from the outside of the liquid. Each loop is triangulated without using a diagonal
// between two crossing points on one cube face: such a pair also belongs to the neighbouring
// cube, which could triangulate the same pair, and that edge would then bound four triangles.
//
// Conventions: corner c has offset (c & 1, (c >> 1) & 1, (c >> 2) & 1); bit c of the case
// index is set when corner c is inside (phi < 0). Edge e = 4 * axis + m runs along `axis`
// from corner EDGE_CORNERS[2e] to EDGE_CORNERS[2e + 1].

/** Two corners per cube edge, edges ordered x (0-3), y (4-7), z (8-11). */
export const EDGE_CORNERS = new Int8Array(24)
/** Axis (0 x, 1 y, 2 z) of each cube edge. */
export const EDGE_AXIS = new Int8Array(12)

const cornerEdge = new Int8Array(64).fill(-1) // (a * 8 + b) -> edge joining corners a, b

function bit(c: number, axis: number): number {
  return (c >> axis) & 1
}

function buildEdges(): void {
  let e = 0
  for (let axis = 0; axis < 3; axis++) {
    for (let c = 0; c < 8; c++) {
      if (bit(c, axis) !== 0) continue
      const d = c | (1 << axis)
      EDGE_CORNERS[2 * e] = c
      EDGE_CORNERS[2 * e + 1] = d
      EDGE_AXIS[e] = axis
      cornerEdge[c * 8 + d] = e
      cornerEdge[d * 8 + c] = e
      e++
    }
  }
}

// Face f = 2 * axis + side, corners in cyclic order (u, w) = (0,0), (1,0), (1,1), (0,1).
function faceCorners(f: number): number[] {
  const axis = f >> 1, side = f & 1
  const u = (axis + 1) % 3, w = (axis + 2) % 3
  const uw = [[0, 0], [1, 0], [1, 1], [0, 1]]
  return uw.map(([a, b]) => (side << axis) | (a << u) | (b << w))
}

/** The two faces an edge lies on, as a bit mask over faces. */
function edgeFaces(e: number): number {
  const axis = EDGE_AXIS[e], c = EDGE_CORNERS[2 * e]
  let mask = 0
  for (let a = 0; a < 3; a++) if (a !== axis) mask |= 1 << (2 * a + bit(c, a))
  return mask
}

function edgeMid(e: number): [number, number, number] {
  const a = EDGE_CORNERS[2 * e], b = EDGE_CORNERS[2 * e + 1]
  return [0.5 * (bit(a, 0) + bit(b, 0)), 0.5 * (bit(a, 1) + bit(b, 1)), 0.5 * (bit(a, 2) + bit(b, 2))]
}

/** Directed segments (from-edge, to-edge) on every face for one case. */
function faceSegments(cube: number): Array<[number, number]> {
  const segs: Array<[number, number]> = []
  for (let f = 0; f < 6; f++) {
    const corners = faceCorners(f)
    const inside = corners.map((c) => bit(cube, c) === 1)
    const normal = [0, 0, 0]
    normal[f >> 1] = (f & 1) === 1 ? 1 : -1
    const crossed: number[] = [] // crossed[q]: the edge after corner q, or -1
    for (let q = 0; q < 4; q++) crossed.push(inside[q] !== inside[(q + 1) % 4] ? cornerEdge[corners[q] * 8 + corners[(q + 1) % 4]] : -1)
    const n = crossed.filter((e) => e >= 0).length
    if (n === 0) continue
    // Each segment with the corner(s) it cuts off and whether those are inside.
    const pieces: Array<{ a: number; b: number; cut: number[] }> = []
    if (n === 4) {
      for (let q = 0; q < 4; q++) if (inside[q]) pieces.push({ a: crossed[(q + 3) % 4], b: crossed[q], cut: [q] })
    } else {
      const ends = [0, 1, 2, 3].filter((q) => crossed[q] >= 0)
      pieces.push({ a: crossed[ends[0]], b: crossed[ends[1]], cut: [0, 1, 2, 3].filter((q) => inside[q]) })
    }
    for (const { a, b, cut } of pieces) {
      // toward the outside, in the face plane: from the inside corners' centroid to the segment
      const ma = edgeMid(a), mb = edgeMid(b)
      const g = [0, 0, 0]
      for (let x = 0; x < 3; x++) {
        let cx = 0
        for (const q of cut) cx += bit(corners[q], x)
        g[x] = 0.5 * (ma[x] + mb[x]) - cx / cut.length
      }
      // d = g x n: walking along d, the outside is to the right seen from outside the cube
      const d = [g[1] * normal[2] - g[2] * normal[1], g[2] * normal[0] - g[0] * normal[2], g[0] * normal[1] - g[1] * normal[0]]
      const dot = (mb[0] - ma[0]) * d[0] + (mb[1] - ma[1]) * d[1] + (mb[2] - ma[2]) * d[2]
      if (dot === 0) throw new Error(`mcTables: undirected segment in case ${cube}`)
      segs.push(dot > 0 ? [a, b] : [b, a])
    }
  }
  return segs
}

/** Triangles (as loop positions) of a polygon, with no diagonal joining two edges of one face. */
function triangulate(loop: number[]): number[] | null {
  const faces = loop.map(edgeFaces)
  const adjacent = (i: number, j: number): boolean => Math.abs(i - j) === 1 || Math.abs(i - j) === loop.length - 1
  const ok = (i: number, j: number): boolean => adjacent(i, j) || (faces[i] & faces[j]) === 0
  // Triangulations of the sub-polygon i..j (loop positions): the edge (i, j) takes an apex k.
  const solve = (i: number, j: number): number[] | null => {
    if (j - i < 2) return []
    for (let k = i + 1; k < j; k++) {
      if (!ok(i, k) || !ok(k, j)) continue
      const left = solve(i, k), right = solve(k, j)
      if (left && right) return [...left, i, k, j, ...right]
    }
    return null
  }
  return solve(0, loop.length - 1)
}

function buildCases(): { start: Int32Array; tris: Int8Array } {
  const start = new Int32Array(257)
  const tris: number[] = []
  for (let cube = 0; cube < 256; cube++) {
    start[cube] = tris.length
    const next = new Int8Array(12).fill(-1)
    for (const [a, b] of faceSegments(cube)) {
      if (next[a] !== -1) throw new Error(`mcTables: edge ${a} leaves twice in case ${cube}`)
      next[a] = b
    }
    const seen = new Uint8Array(12)
    for (let s = 0; s < 12; s++) {
      if (next[s] === -1 || seen[s]) continue
      const loop: number[] = []
      let e = s
      do {
        if (next[e] === -1 || seen[e]) throw new Error(`mcTables: open loop in case ${cube}`)
        seen[e] = 1
        loop.push(e)
        e = next[e]
      } while (e !== s)
      const t = triangulate(loop)
      if (!t) throw new Error(`mcTables: no crack-free triangulation in case ${cube}`)
      for (const q of t) tris.push(loop[q])
    }
  }
  start[256] = tris.length
  return { start, tris: Int8Array.from(tris) }
}

buildEdges()
const built = buildCases()
/** Case c's triangles are CASE_TRIS[CASE_START[c] .. CASE_START[c + 1]), three cube edges each. */
export const CASE_START: Int32Array = built.start
export const CASE_TRIS: Int8Array = built.tris
