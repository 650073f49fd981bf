// Catmull-Clark subdivision of a polygon cage (the 'ccCage' object): faces of any valence,
// open boundaries with the rules Stam 2003 uses, Biermann, Levin and Zorin 2000's ("Piecewise
// smooth subdivision surfaces with normal control"): the cubic B-spline curve rules along the
// boundary, a sheet corner (a boundary vertex with one face) kept in place as their convex
// corner, and their modified edge rule on interior edges at an irregular boundary vertex (one
// with 3 or more faces), which gives its k faces equal parameter angles theta_k = pi / k.
// Orientation is preserved.
//
// Internally faces are flat (start offsets + vertex list) so four levels of a big cage do not
// allocate millions of little arrays; the number[][] form exists only at the API edge.
import { EddyError } from '../api/errors'
import type { CageGeometry } from './cageGeometry'
import { MAX_TRIANGLES } from './triMesh'

export interface PolyMesh {
  positions: Float64Array | number[]
  faces: number[][]
}

export const MIN_LEVEL = 1
export const MAX_LEVEL = 4

interface FlatPoly {
  pos: Float64Array
  /** Face f owns corners start[f] .. start[f + 1] - 1 of `verts`. */
  start: Uint32Array
  verts: Uint32Array
}

/** One subdivision step; every output face is a quad. Throws INVALID_PARAM on a bad cage. */
export function subdivideOnce(mesh: PolyMesh): { positions: Float64Array; faces: number[][] } {
  const flat = toFlat(mesh.positions, mesh.faces)
  const { pos, quads } = step(flat)
  const faces: number[][] = new Array(quads.length / 4)
  for (let q = 0; q < faces.length; q++) faces[q] = [quads[4 * q], quads[4 * q + 1], quads[4 * q + 2], quads[4 * q + 3]]
  return { positions: pos, faces }
}

/**
 * `levels` steps of subdivision, ready for the GPU: float32 positions, the quads (4 indices
 * each) and the same quads split into 2 triangles each with the winding of the quad.
 */
export function subdivide(
  cage: CageGeometry,
  levels: number,
): { positions: Float32Array; quads: Uint32Array; triangles: Uint32Array } {
  if (!Number.isInteger(levels) || levels < MIN_LEVEL || levels > MAX_LEVEL) {
    throw new EddyError('INVALID_PARAM', `subdivision level must be a whole number from ${MIN_LEVEL} to ${MAX_LEVEL}, got ${levels}`)
  }
  // The first step makes one quad per face corner, each later step multiplies by 4:
  // refuse before spending any memory.
  let corners = 0
  for (const f of cage.faces) corners += Array.isArray(f) ? f.length : 0
  const quadCount = corners * 4 ** (levels - 1)
  if (quadCount * 2 > MAX_TRIANGLES) {
    throw new EddyError(
      'INVALID_PARAM',
      `subdividing this cage ${levels} times would make ${quadCount * 2} triangles (at most ${MAX_TRIANGLES}); use a lower level`,
    )
  }
  let flat = toFlat(cage.positions, cage.faces)
  let quads: Uint32Array = new Uint32Array(0)
  for (let l = 0; l < levels; l++) {
    const r = step(flat)
    quads = r.quads
    flat = { pos: r.pos, start: quadStarts(quads.length / 4), verts: quads }
  }
  // Split along the vertex-point/face-point diagonal (corners 0 and 2); both halves keep the
  // quad's winding, so outward quads give outward triangles.
  const triangles = new Uint32Array((quads.length / 4) * 6)
  for (let q = 0, t = 0; q < quads.length; q += 4, t += 6) {
    triangles[t] = quads[q]
    triangles[t + 1] = quads[q + 1]
    triangles[t + 2] = quads[q + 2]
    triangles[t + 3] = quads[q]
    triangles[t + 4] = quads[q + 2]
    triangles[t + 5] = quads[q + 3]
  }
  return { positions: Float32Array.from(flat.pos), quads, triangles }
}

function quadStarts(n: number): Uint32Array {
  const s = new Uint32Array(n + 1)
  for (let i = 0; i <= n; i++) s[i] = 4 * i
  return s
}

function invalid(message: string): never {
  throw new EddyError('INVALID_PARAM', `cage: ${message}`)
}

function toFlat(positions: ArrayLike<number>, faces: number[][]): FlatPoly {
  if (positions.length % 3 !== 0) invalid(`${positions.length} position values is not a whole number of xyz vertices`)
  const nV = positions.length / 3
  const pos = new Float64Array(positions.length)
  for (let i = 0; i < pos.length; i++) {
    const x = positions[i]
    if (!Number.isFinite(x)) invalid(`vertex ${(i / 3) | 0} has a non-finite coordinate`)
    pos[i] = x
  }
  if (faces.length === 0) invalid('has no faces')
  let corners = 0
  for (const f of faces) corners += f.length
  const start = new Uint32Array(faces.length + 1)
  const verts = new Uint32Array(corners)
  let c = 0
  for (let fi = 0; fi < faces.length; fi++) {
    const f = faces[fi]
    if (f.length < 3) invalid(`face ${fi} has ${f.length} vertices (at least 3 needed)`)
    start[fi] = c
    for (let k = 0; k < f.length; k++) {
      const v = f[k]
      if (!Number.isInteger(v) || v < 0 || v >= nV) invalid(`face ${fi} refers to vertex ${v}, which does not exist`)
      // A repeated vertex makes a zero-length edge (or an edge used twice by one face).
      for (let j = 0; j < k; j++) if (f[j] === v) invalid(`face ${fi} uses vertex ${v} twice`)
      verts[c++] = v
    }
  }
  start[faces.length] = c
  return { pos, start, verts }
}

/** One Catmull-Clark step. Output vertices: [vertex points | edge points | face points]. */
function step({ pos, start, verts }: FlatPoly): { pos: Float64Array; quads: Uint32Array } {
  const nV = pos.length / 3
  const nF = start.length - 1
  const nC = verts.length

  // Edges: keyed by the unordered vertex pair; a manifold edge has one or two faces.
  const edgeOf = new Map<number, number>()
  const cornerEdge = new Uint32Array(nC) // edge from corner c to the next corner of its face
  const ev0 = new Uint32Array(nC)
  const ev1 = new Uint32Array(nC)
  const ef0 = new Int32Array(nC).fill(-1)
  const ef1 = new Int32Array(nC).fill(-1)
  let nE = 0
  for (let f = 0; f < nF; f++) {
    const s = start[f], e = start[f + 1]
    for (let c = s; c < e; c++) {
      const a = verts[c], b = verts[c + 1 < e ? c + 1 : s]
      const key = a < b ? a * nV + b : b * nV + a
      let id = edgeOf.get(key)
      if (id === undefined) {
        id = nE++
        edgeOf.set(key, id)
        ev0[id] = a
        ev1[id] = b
        ef0[id] = f
      } else if (ef1[id] === -1) {
        ef1[id] = f
      } else {
        invalid(`the edge between vertices ${a} and ${b} is shared by more than two faces`)
      }
      cornerEdge[c] = id
    }
  }

  // Face points: centroids.
  const fp = new Float64Array(nF * 3)
  for (let f = 0; f < nF; f++) {
    const s = start[f], e = start[f + 1]
    let x = 0, y = 0, z = 0
    for (let c = s; c < e; c++) {
      const v = verts[c] * 3
      x += pos[v]; y += pos[v + 1]; z += pos[v + 2]
    }
    const k = e - s
    fp[3 * f] = x / k; fp[3 * f + 1] = y / k; fp[3 * f + 2] = z / k
  }

  // Vertex points need, per vertex: sum of adjacent face points, sum of adjacent edge
  // midpoints, and for boundary vertices the sum of their two boundary neighbours.
  const fSum = new Float64Array(nV * 3)
  const fCount = new Uint32Array(nV)
  const rSum = new Float64Array(nV * 3)
  const eCount = new Uint32Array(nV)
  const bSum = new Float64Array(nV * 3)
  const bCount = new Uint32Array(nV)
  for (let f = 0; f < nF; f++) {
    for (let c = start[f]; c < start[f + 1]; c++) {
      const v = verts[c]
      fSum[3 * v] += fp[3 * f]; fSum[3 * v + 1] += fp[3 * f + 1]; fSum[3 * v + 2] += fp[3 * f + 2]
      fCount[v]++
    }
  }
  for (let i = 0; i < nE; i++) {
    if (ef1[i] < 0) { bCount[ev0[i]]++; bCount[ev1[i]]++ }
  }
  // Biermann et al.'s edge rule at an irregular boundary vertex v with k >= 3 faces: the
  // interior edge (v, w) gets e = (3/4 - gamma) v + gamma w + (the usual face terms), with
  // gamma = 3/8 - cos(theta_k) / 4 and theta_k = pi / k; for quads that is the standard point
  // plus (cos(theta_k) / 4) (v - w), the form used here for faces of any size. (At k = 2,
  // a regular boundary vertex, cos(pi / 2) = 0 and the rule is the standard one.)
  const pull = new Float64Array(nV)
  for (let v = 0; v < nV; v++) if (bCount[v] === 2 && fCount[v] >= 3) pull[v] = Math.cos(Math.PI / fCount[v]) / 4

  // Edge points: average of both ends and both face points; a boundary edge stays at its
  // midpoint so the boundary curve depends on boundary vertices only.
  const ep = new Float64Array(nE * 3)
  for (let i = 0; i < nE; i++) {
    const a = ev0[i] * 3, b = ev1[i] * 3
    if (ef1[i] >= 0) {
      const f0 = ef0[i] * 3, f1 = ef1[i] * 3
      // Both pulls apply when both ends are irregular boundary vertices (only possible on
      // the cage itself: one step later no interior edge joins two of them).
      const pa = pull[ev0[i]], pb = pull[ev1[i]]
      for (let k = 0; k < 3; k++) {
        ep[3 * i + k] = (pos[a + k] + pos[b + k] + fp[f0 + k] + fp[f1 + k]) / 4 + (pa - pb) * (pos[a + k] - pos[b + k])
      }
    } else {
      for (let k = 0; k < 3; k++) ep[3 * i + k] = (pos[a + k] + pos[b + k]) / 2
    }
  }

  for (let i = 0; i < nE; i++) {
    const a = ev0[i], b = ev1[i]
    for (let k = 0; k < 3; k++) {
      const mid = (pos[3 * a + k] + pos[3 * b + k]) / 2
      rSum[3 * a + k] += mid
      rSum[3 * b + k] += mid
    }
    eCount[a]++
    eCount[b]++
    if (ef1[i] < 0) {
      for (let k = 0; k < 3; k++) {
        bSum[3 * a + k] += pos[3 * b + k]
        bSum[3 * b + k] += pos[3 * a + k]
      }
    }
  }

  const out = new Float64Array((nV + nE + nF) * 3)
  for (let v = 0; v < nV; v++) {
    const o = 3 * v
    if (fCount[v] === 0 || (bCount[v] > 0 && bCount[v] !== 2)) {
      // Unused vertex, or a boundary vertex where two fans touch (non-manifold): no rule
      // applies, so it stays put (acts as a corner).
      out[o] = pos[o]; out[o + 1] = pos[o + 1]; out[o + 2] = pos[o + 2]
    } else if (bCount[v] === 2 && fCount[v] === 1) {
      // A sheet corner (one face): Biermann et al. 2000's convex corner, interpolated.
      out[o] = pos[o]; out[o + 1] = pos[o + 1]; out[o + 2] = pos[o + 2]
    } else if (bCount[v] === 2) {
      // Boundary: cubic B-spline along the boundary polyline, (a + 6P + b) / 8.
      for (let k = 0; k < 3; k++) out[o + k] = (6 * pos[o + k] + bSum[o + k]) / 8
    } else {
      // Interior: (F + 2R + (n - 3)P) / n with n the valence.
      const n = eCount[v]
      for (let k = 0; k < 3; k++) {
        const F = fSum[o + k] / fCount[v]
        const R = rSum[o + k] / n
        out[o + k] = (F + 2 * R + (n - 3) * pos[o + k]) / n
      }
    }
  }
  out.set(ep, nV * 3)
  out.set(fp, (nV + nE) * 3)

  // Corner c of face f becomes the quad (vertex, edge to next, face point, edge from previous):
  // it walks the same way round as the face, so orientation is preserved.
  const quads = new Uint32Array(nC * 4)
  const fBase = nV + nE
  for (let f = 0; f < nF; f++) {
    const s = start[f], e = start[f + 1]
    for (let c = s; c < e; c++) {
      const prev = c > s ? c - 1 : e - 1
      const q = 4 * c
      quads[q] = verts[c]
      quads[q + 1] = nV + cornerEdge[c]
      quads[q + 2] = fBase + f
      quads[q + 3] = nV + cornerEdge[prev]
    }
  }
  return { pos: out, quads }
}
