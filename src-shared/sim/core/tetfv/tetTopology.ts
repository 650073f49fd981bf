// Topology of a tetrahedral mesh for the finite-volume core (seed 003 section 3.1, after
// Klingner et al. 2006 = seed 000 section 3.1): the unique triangular faces, each with its one
// (boundary) or two (interior) tets and a normal oriented from its first tet a to its second
// tet b (outwards on the boundary); per tet its four faces, the sign s that turns each face's
// normal outwards (the s_i of seed 003 eq. 8 / seed 000 eq. 3) and its neighbour across each;
// per vertex its incident tets and faces in CSR form.
//
// Input: positions (xyz per vertex) and tets (4 vertex indices per tet, positively oriented:
// det(p1 - p0, p2 - p0, p3 - p0) > 0, the isosurface-stuffing mesher's convention). Refused
// with EddyError('INVALID_PARAM'): non-finite positions, bad indices, inverted or flat tets, a
// face shared by three or more tets (non-manifold) and two tets on the same side of a face
// (overlapping).
//
// Faces are found without hashing: every (tet, local face) entry is bucketed by its smallest
// vertex (a counting sort), and matched within its bucket on the other two vertices. Faces are
// numbered in order of first appearance when scanning tets in order, so the numbering is a
// function of the input alone.
import { EddyError } from '../../../api/errors'
import { countingSortByKey } from '../../../countingSort'

/**
 * Local face k of a tet is opposite its local vertex k. LOCAL_FACE[3k .. 3k+2] lists the local
 * vertices of face k in the order whose right-handed normal (v1 - v0) x (v2 - v0) points out of
 * a positively oriented tet.
 */
export const LOCAL_FACE: readonly number[] = [1, 2, 3, 0, 3, 2, 0, 1, 3, 0, 2, 1]

export interface TetTopology {
  readonly vertexCount: number
  readonly tetCount: number
  readonly faceCount: number
  /** The input: 4 vertex indices per tet. */
  readonly tets: Int32Array
  /** 3 vertices per face, ordered so that (p1 - p0) x (p2 - p0) points from faceTets[2f] to faceTets[2f+1] (outwards on the boundary). */
  readonly faceVertices: Int32Array
  /** 2 tets per face: a (the normal points out of it) and b (into it), -1 for a boundary face. */
  readonly faceTets: Int32Array
  /** 4 faces per tet; local face k is opposite local vertex k. */
  readonly tetFaces: Int32Array
  /** 4 signs per tet: +1 where the face's normal points out of the tet (it is the face's tet a), -1 where it points in. */
  readonly tetFaceSigns: Int8Array
  /** 4 per tet: the tet across local face k, -1 on the boundary. */
  readonly tetNeighbours: Int32Array
  /** The faces with one tet, increasing. */
  readonly boundaryFaces: Int32Array
  /** Tets around vertex v: vertexTets[vertexTetStart[v] .. vertexTetStart[v+1]-1], increasing. */
  readonly vertexTetStart: Int32Array
  readonly vertexTets: Int32Array
  /** Faces around vertex v: vertexFaces[vertexFaceStart[v] .. vertexFaceStart[v+1]-1], increasing. */
  readonly vertexFaceStart: Int32Array
  readonly vertexFaces: Int32Array
  /** 1 for a vertex on a boundary face. */
  readonly boundaryVertex: Uint8Array
}

function invalid(message: string, details?: Record<string, unknown>): EddyError {
  return new EddyError('INVALID_PARAM', message, details)
}

/** det(p1 - p0, p2 - p0, p3 - p0) of tet t: six times its signed volume. */
export function tetDeterminant(positions: Float64Array, tets: Int32Array, t: number): number {
  const a = 3 * tets[4 * t], b = 3 * tets[4 * t + 1], c = 3 * tets[4 * t + 2], d = 3 * tets[4 * t + 3]
  const x0 = positions[a], y0 = positions[a + 1], z0 = positions[a + 2]
  const ux = positions[b] - x0, uy = positions[b + 1] - y0, uz = positions[b + 2] - z0
  const vx = positions[c] - x0, vy = positions[c + 1] - y0, vz = positions[c + 2] - z0
  const wx = positions[d] - x0, wy = positions[d + 1] - y0, wz = positions[d + 2] - z0
  return ux * (vy * wz - vz * wy) - uy * (vx * wz - vz * wx) + uz * (vx * wy - vy * wx)
}

/** Checks positions and tets (finite, in range, four distinct vertices, positively oriented); throws by name. */
export function validateTetMesh(positions: Float64Array, tets: Int32Array): void {
  if (positions.length % 3 !== 0) throw invalid(`Tet mesh positions must hold 3 numbers per vertex (got ${positions.length})`, { field: 'positions' })
  if (tets.length % 4 !== 0) throw invalid(`Tet mesh tets must hold 4 vertex indices per tet (got ${tets.length})`, { field: 'tets' })
  const nv = positions.length / 3
  const nt = tets.length / 4
  for (let i = 0; i < positions.length; i++) {
    if (!Number.isFinite(positions[i])) throw invalid(`Tet mesh vertex ${(i / 3) | 0} has a non-finite coordinate (${positions[i]})`, { field: 'positions', vertex: (i / 3) | 0 })
  }
  for (let t = 0; t < nt; t++) {
    for (let k = 0; k < 4; k++) {
      const v = tets[4 * t + k]
      if (!(v >= 0 && v < nv)) throw invalid(`Tet ${t} refers to vertex ${v}, outside 0..${nv - 1}`, { field: 'tets', tet: t })
      for (let j = 0; j < k; j++) if (tets[4 * t + j] === v) throw invalid(`Tet ${t} repeats vertex ${v}`, { field: 'tets', tet: t })
    }
    const det = tetDeterminant(positions, tets, t)
    if (!(det > 0)) {
      throw invalid(`Tet ${t} is ${det < 0 ? 'inverted' : 'flat'} (signed volume ${det / 6}); tets must be positively oriented`, { field: 'tets', tet: t, volume: det / 6 })
    }
  }
}

/** True when the oriented triples (a, b, c) and (x, y, z) of the same three vertices are the same cyclic order. */
function sameOrientation(a: number, b: number, c: number, x: number, y: number, z: number): boolean {
  return (a === x && b === y && c === z) || (a === y && b === z && c === x) || (a === z && b === x && c === y)
}

/** Builds the topology of a positively oriented tet mesh; throws EddyError('INVALID_PARAM') on bad input. */
export function buildTetTopology(positions: Float64Array, tets: Int32Array): TetTopology {
  validateTetMesh(positions, tets)
  const nv = positions.length / 3
  const nt = tets.length / 4
  const ne = 4 * nt
  // Each entry e = 4t + k (tet t, local face k) as its sorted vertex triple lo < mid < hi.
  const lo = new Int32Array(ne)
  const mid = new Int32Array(ne)
  const hi = new Int32Array(ne)
  for (let e = 0; e < ne; e++) {
    const t = e >> 2, k = e & 3
    let a = tets[4 * t + LOCAL_FACE[3 * k]], b = tets[4 * t + LOCAL_FACE[3 * k + 1]], c = tets[4 * t + LOCAL_FACE[3 * k + 2]]
    let s: number
    if (a > b) { s = a; a = b; b = s }
    if (b > c) { s = b; b = c; c = s }
    if (a > b) { s = a; a = b; b = s }
    lo[e] = a
    mid[e] = b
    hi[e] = c
  }
  // Bucket the entries by their smallest vertex (stable: increasing e within a bucket).
  const { start: bucketStart, order: bucket } = countingSortByKey(lo, nv)
  // The other two vertices as one key, in bucket order, so the matching below reads one array
  // in sequence instead of two by scattered entries (mid * nv + hi < 2^53 for any mesh that fits
  // in memory).
  const pairKey = new Float64Array(ne)
  for (let i = 0; i < ne; i++) {
    const e = bucket[i]
    pairKey[i] = mid[e] * nv + hi[e]
  }
  // rep[e]: the first entry (smallest e) with the same vertex triple; partner[e]: the other entry, or -1.
  const rep = new Int32Array(ne).fill(-1)
  const partner = new Int32Array(ne).fill(-1)
  for (let v = 0; v < nv; v++) {
    const end = bucketStart[v + 1]
    for (let i = bucketStart[v]; i < end; i++) {
      const e = bucket[i]
      if (rep[e] >= 0) continue
      rep[e] = e
      const m = mid[e], h = hi[e], key = pairKey[i]
      for (let j = i + 1; j < end; j++) {
        if (pairKey[j] !== key) continue
        const g = bucket[j]
        if (partner[e] >= 0) {
          const tets3 = [partner[e] >> 2, e >> 2, g >> 2].sort((x, y) => x - y)
          throw invalid(`Tet mesh face (${v}, ${m}, ${h}) is shared by 3 or more tets (${tets3.join(', ')}): the mesh is not manifold`, { field: 'tets', face: [v, m, h], tets: tets3 })
        }
        rep[g] = e
        partner[e] = g
        partner[g] = e
      }
    }
  }
  let nf = 0
  for (let e = 0; e < ne; e++) if (rep[e] === e) nf++
  const faceVertices = new Int32Array(3 * nf)
  const faceTets = new Int32Array(2 * nf)
  const tetFaces = new Int32Array(ne)
  const tetFaceSigns = new Int8Array(ne)
  const tetNeighbours = new Int32Array(ne).fill(-1)
  let f = 0
  let nb = 0
  for (let e = 0; e < ne; e++) {
    const t = e >> 2, k = e & 3
    if (rep[e] === e) {
      faceVertices[3 * f] = tets[4 * t + LOCAL_FACE[3 * k]]
      faceVertices[3 * f + 1] = tets[4 * t + LOCAL_FACE[3 * k + 1]]
      faceVertices[3 * f + 2] = tets[4 * t + LOCAL_FACE[3 * k + 2]]
      faceTets[2 * f] = t
      faceTets[2 * f + 1] = -1
      tetFaces[e] = f
      tetFaceSigns[e] = 1
      if (partner[e] < 0) nb++
      f++
    } else {
      const r = rep[e]
      const face = tetFaces[r]
      // The second tet must see the face with the opposite orientation, else both lie on one side.
      const a = tets[4 * t + LOCAL_FACE[3 * k]], b = tets[4 * t + LOCAL_FACE[3 * k + 1]], c = tets[4 * t + LOCAL_FACE[3 * k + 2]]
      if (sameOrientation(a, b, c, faceVertices[3 * face], faceVertices[3 * face + 1], faceVertices[3 * face + 2])) {
        throw invalid(`Tets ${r >> 2} and ${t} lie on the same side of their shared face (${lo[e]}, ${mid[e]}, ${hi[e]}): the mesh overlaps itself`, { field: 'tets', tets: [r >> 2, t] })
      }
      faceTets[2 * face + 1] = t
      tetFaces[e] = face
      tetFaceSigns[e] = -1
      tetNeighbours[e] = r >> 2
      tetNeighbours[r] = t
    }
  }
  const boundaryFaces = new Int32Array(nb)
  const boundaryVertex = new Uint8Array(nv)
  for (let g = 0, i = 0; g < nf; g++) {
    if (faceTets[2 * g + 1] < 0) {
      boundaryFaces[i++] = g
      boundaryVertex[faceVertices[3 * g]] = 1
      boundaryVertex[faceVertices[3 * g + 1]] = 1
      boundaryVertex[faceVertices[3 * g + 2]] = 1
    }
  }
  const [vertexTetStart, vertexTets] = incidence(nv, tets, 4, nt)
  const [vertexFaceStart, vertexFaces] = incidence(nv, faceVertices, 3, nf)
  return {
    vertexCount: nv,
    tetCount: nt,
    faceCount: nf,
    tets,
    faceVertices,
    faceTets,
    tetFaces,
    tetFaceSigns,
    tetNeighbours,
    boundaryFaces,
    vertexTetStart,
    vertexTets,
    vertexFaceStart,
    vertexFaces,
    boundaryVertex,
  }
}

/** Vertex -> element incidence in CSR form for elements of `arity` vertices (elements increasing per vertex). */
function incidence(nv: number, elements: Int32Array, arity: number, count: number): [Int32Array, Int32Array] {
  const start = new Int32Array(nv + 1)
  for (let i = 0; i < arity * count; i++) start[elements[i] + 1]++
  for (let v = 0; v < nv; v++) start[v + 1] += start[v]
  const next = start.slice(0, nv)
  const list = new Int32Array(arity * count)
  for (let e = 0; e < count; e++) for (let k = 0; k < arity; k++) list[next[elements[arity * e + k]]++] = e
  return [start, list]
}
