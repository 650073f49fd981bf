// Warping (Labelle and Shewchuk 2007, section 3): a lattice vertex is "violated" when a cut
// point on one of its edges lies closer to it than alpha times the edge's length, with
// alpha_long on the long (black) BCC edges and alpha_short on the short (red) ones. A
// violated vertex is moved onto a violating cut point (the closest) and becomes an
// on-surface vertex (value zero); the cut points of the edges around it disappear, because
// those edges no longer join an inside and an outside vertex. Warping is what rules out the
// slivers that cutting an edge very near its end would make.
//
// Which violated vertices move. Warping v deletes the cut points around v, which can cure
// other vertices' violations, so the result depends on the order; two requirements pin it
// down:
//  (a) afterwards no surviving cut point violates a vertex (else stencils make slivers);
//  (b) a vertex warped along edge (v, w) has w stay put: if w moved too (along another edge)
//      the two displacements compound. Moving every violated vertex at once breaks (b), and
//      we measured 9.7 degrees that way with the parameters proven for 10.78.
// Draw an arc v -> w whenever the cut point of edge (v, w) violates v. Then the vertices that
// stay, U, must be a kernel of this digraph: no arc inside U (a staying vertex has no
// violating cut point left, so all its arc heads move) and an arc from every moving vertex
// into U (somewhere to go that stays, (b)). With cut points at the linear interpolation of f
// an arc always points to a larger |f|, so the digraph is acyclic and its kernel unique:
// it is what warping in order of decreasing |f| produces, and what retrograde analysis (as
// for game positions) computes: a vertex with an arc into U moves, a vertex whose arcs all
// go to moving vertices stays. Cut points found on the true f can in principle close a
// cycle; arcs join inside to outside vertices, so cycles are even and taking the undecided
// inside vertices as staying and the outside ones as moving completes a kernel (Richardson's
// theorem). The isostuffer implementation of the paper (C. Zheng, IsoStuffer.hpp) warps
// outside vertices first towards unviolated inside ones, then inside vertices, which agrees
// with this in simple cases but can leave violations behind.
import { EDGE_LONG, EDGE_SHORT, type CutPoints } from './cutPoints'
import type { LatticeVertices } from './latticeVertices'
import { IN, ON } from './stencils'

const UNDECIDED = 0, STAYS = 1, MOVES = 2

/**
 * Warps violated vertices of `lat` (label ON, value 0, position of the cut point). Edges of
 * kind EDGE_OTHER never warp their ends (the graded lattice keeps the surface in its uniform
 * BCC part, where every edge is long or short). Vertices flagged in `pinned` never move (the
 * hybrid mesh's vertices on the domain's walls, which must stay in the walls' planes). Returns
 * how many vertices moved.
 */
export function warpVertices(lat: LatticeVertices, cuts: CutPoints, alphaLong: number, alphaShort: number, pinned?: Uint8Array): number {
  const n = lat.count, nc = cuts.count
  const p = lat.pos, label = lat.label
  // Arcs, one per violating cut: tail (the violated end), head, length of the move.
  const tail = new Int32Array(nc), head = new Int32Array(nc), dist = new Float64Array(nc)
  let na = 0
  const outDeg = new Int32Array(n + 1), inDeg = new Int32Array(n + 1)
  for (let c = 0; c < nc; c++) {
    const kind = cuts.kind[c]
    if (kind !== EDGE_LONG && kind !== EDGE_SHORT) continue
    const alpha = kind === EDGE_LONG ? alphaLong : alphaShort
    const a = cuts.va[c], b = cuts.vb[c], t = cuts.t[c]
    let v: number, w: number, frac: number
    if (t < alpha) { v = a; w = b; frac = t } else if (1 - t < alpha) { v = b; w = a; frac = 1 - t } else continue
    if (pinned !== undefined && pinned[v]) continue
    const ex = p[3 * b] - p[3 * a], ey = p[3 * b + 1] - p[3 * a + 1], ez = p[3 * b + 2] - p[3 * a + 2]
    tail[na] = v; head[na] = w; dist[na] = frac * Math.sqrt(ex * ex + ey * ey + ez * ez)
    outDeg[v]++; inDeg[w]++
    na++
  }
  if (na === 0) return 0
  // CSR of out-arcs and in-arcs (arc indices).
  const outStart = new Int32Array(n + 1), inStart = new Int32Array(n + 1)
  for (let v = 0; v < n; v++) { outStart[v + 1] = outStart[v] + outDeg[v]; inStart[v + 1] = inStart[v] + inDeg[v] }
  const outArc = new Int32Array(na), inArc = new Int32Array(na)
  const fillO = outStart.slice(0, n), fillI = inStart.slice(0, n)
  for (let e = 0; e < na; e++) { outArc[fillO[tail[e]]++] = e; inArc[fillI[head[e]]++] = e }

  // Retrograde analysis. Vertices without arcs out (unviolated) stay.
  const state = new Uint8Array(n)
  const remaining = outDeg // out-arcs whose head is not known to move
  const queue = new Int32Array(n)
  let qh = 0, qt = 0
  for (let e = 0; e < na; e++) {
    const w = head[e]
    if (outDeg[w] === 0 && state[w] === UNDECIDED) { state[w] = STAYS; queue[qt++] = w }
  }
  while (qh < qt) {
    const x = queue[qh++]
    for (let k = inStart[x]; k < inStart[x + 1]; k++) {
      const v = tail[inArc[k]]
      if (state[v] !== UNDECIDED) continue
      if (state[x] === STAYS) { state[v] = MOVES; queue[qt++] = v } else if (--remaining[v] === 0) { state[v] = STAYS; queue[qt++] = v }
    }
  }
  // Undecided vertices lie on (even) cycles: inside ones stay, outside ones move.
  for (let e = 0; e < na; e++) {
    const v = tail[e]
    if (state[v] === UNDECIDED) state[v] = label[v] === IN ? STAYS : MOVES
  }
  let moved = 0
  for (let v = 0; v < n; v++) {
    if (state[v] !== MOVES) continue
    let best = -1
    for (let k = outStart[v]; k < outStart[v + 1]; k++) {
      const e = outArc[k]
      if (state[head[e]] !== MOVES && (best < 0 || dist[e] < dist[best])) best = e
    }
    if (best < 0) continue // cannot happen: a moving vertex has an arc into the staying set
    // The cut of arc `best`: find it again from its ends.
    const c = cuts.get(v, head[best])
    p[3 * v] = cuts.pos[3 * c]; p[3 * v + 1] = cuts.pos[3 * c + 1]; p[3 * v + 2] = cuts.pos[3 * c + 2]
    label[v] = ON
    lat.f[v] = 0
    moved++
  }
  return moved
}
