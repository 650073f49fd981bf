// The indexed triangle mesh every importer produces and every consumer (viewport, voxeliser,
// project store) accepts: flat typed arrays so a million-triangle scan stays two allocations.
import { EddyError } from '../api/errors'
import type { Vec3 } from './vec3'

export interface TriMesh {
  /** xyz per vertex. */
  positions: Float32Array
  /** Three vertex indices per triangle, counter-clockwise seen from outside. */
  indices: Uint32Array
}

// Limits keep an accidental 80 GB-in-RAM import from taking the host down; they are far above
// what a fluid obstacle needs (the voxeliser resamples anyway).
export const MAX_TRIANGLES = 5_000_000
export const MAX_VERTICES = 10_000_000

/** Axis-aligned bounds of xyz triples. An empty list gives zero bounds (not ±Infinity) so it stays JSON-safe. */
export function computeBounds(positions: ArrayLike<number>): { min: Vec3; max: Vec3 } {
  const n = positions.length - (positions.length % 3)
  if (n === 0) return { min: [0, 0, 0], max: [0, 0, 0] }
  let x0 = Infinity, y0 = Infinity, z0 = Infinity
  let x1 = -Infinity, y1 = -Infinity, z1 = -Infinity
  for (let i = 0; i < n; i += 3) {
    const x = positions[i], y = positions[i + 1], z = positions[i + 2]
    if (x < x0) x0 = x
    if (x > x1) x1 = x
    if (y < y0) y0 = y
    if (y > y1) y1 = y
    if (z < z0) z0 = z
    if (z > z1) z1 = z
  }
  return { min: [x0, y0, z0], max: [x1, y1, z1] }
}

/**
 * Area-weighted vertex normals: the unnormalised face cross product (length = 2 × area) is
 * summed into each corner, so big faces dominate and slivers barely count. Vertices with no
 * (non-degenerate) face get a zero normal rather than NaN.
 */
export function computeVertexNormals(mesh: TriMesh): Float32Array {
  const n = mesh.positions.length / 3
  const out = new Float32Array(3 * n)
  areaWeightedNormals(mesh.positions, n, mesh.indices, Math.floor(mesh.indices.length / 3), out, new Float64Array(3 * n))
  return out
}

/**
 * computeVertexNormals without allocation, for callers that keep scratch across frames (the
 * liquid surface, every frame): unit normals of vertices 0..vertexCount-1 into `out`. `acc` is
 * float64 scratch of at least 3 * vertexCount (a vertex shared by hundreds of faces would lose
 * bits in float32). A vertex with no non-degenerate face gets a zero normal, never NaN.
 */
export function areaWeightedNormals(
  positions: Float32Array,
  vertexCount: number,
  indices: Uint32Array,
  triangleCount: number,
  out: Float32Array,
  acc: Float64Array,
): void {
  accumulateFaceNormals(positions, indices, triangleCount, acc, vertexCount)
  normalizeVertexNormals(acc, out, 0, vertexCount)
}

/** areaWeightedNormals' first half: acc = the sum of each vertex's faces' cross products (in face order). */
export function accumulateFaceNormals(positions: Float32Array, indices: Uint32Array, triangleCount: number, acc: Float64Array, vertexCount: number): void {
  const p = positions
  acc.fill(0, 0, 3 * vertexCount)
  for (let t = 0; t < 3 * triangleCount; t += 3) {
    const a = 3 * indices[t], b = 3 * indices[t + 1], c = 3 * indices[t + 2]
    const ux = p[b] - p[a], uy = p[b + 1] - p[a + 1], uz = p[b + 2] - p[a + 2]
    const vx = p[c] - p[a], vy = p[c + 1] - p[a + 1], vz = p[c + 2] - p[a + 2]
    const nx = uy * vz - uz * vy, ny = uz * vx - ux * vz, nz = ux * vy - uy * vx
    acc[a] += nx; acc[a + 1] += ny; acc[a + 2] += nz
    acc[b] += nx; acc[b + 1] += ny; acc[b + 2] += nz
    acc[c] += nx; acc[c + 1] += ny; acc[c + 2] += nz
  }
}

/** areaWeightedNormals' second half: unit normals of vertices [v0, v1) from acc (zero where acc's length is 0 or not finite). */
export function normalizeVertexNormals(acc: Float64Array, out: Float32Array, v0: number, v1: number): void {
  for (let i = 3 * v0; i < 3 * v1; i += 3) {
    const len = Math.sqrt(acc[i] * acc[i] + acc[i + 1] * acc[i + 1] + acc[i + 2] * acc[i + 2])
    // A non-finite length (overflowing coordinates) also gives the zero normal.
    const s = len > 0 && len < Infinity ? 1 / len : 0
    out[i] = acc[i] * s
    out[i + 1] = acc[i + 1] * s
    out[i + 2] = acc[i + 2] * s
  }
}

/**
 * Triangles that repeat a vertex index have no area and no orientation; scanners and welded
 * STL files are full of them, so they are removed quietly instead of failing the import.
 * Returns the same object when nothing was dropped.
 */
export function dropDegenerateTriangles(mesh: TriMesh): TriMesh {
  const idx = mesh.indices
  let keep = 0
  for (let t = 0; t + 2 < idx.length; t += 3) {
    if (idx[t] !== idx[t + 1] && idx[t + 1] !== idx[t + 2] && idx[t] !== idx[t + 2]) keep++
  }
  if (keep * 3 === idx.length) return mesh
  const out = new Uint32Array(keep * 3)
  let o = 0
  for (let t = 0; t + 2 < idx.length; t += 3) {
    const a = idx[t], b = idx[t + 1], c = idx[t + 2]
    if (a !== b && b !== c && a !== c) {
      out[o++] = a
      out[o++] = b
      out[o++] = c
    }
  }
  return { positions: mesh.positions, indices: out }
}

/**
 * Throws MESH_PARSE (naming `what`, usually the file name) unless the mesh is usable.
 * Vertex and triangle numbers in messages count from 1, as a person (and OBJ) does;
 * `details` carries the 0-based index for programs.
 */
export function validateTriMesh(mesh: TriMesh, what: string): void {
  const { positions: p, indices: idx } = mesh
  const fail = (message: string, details?: Record<string, unknown>): never => {
    throw new EddyError('MESH_PARSE', `${what}: ${message}`, details)
  }
  if (p.length % 3 !== 0) fail(`${p.length} position values is not a whole number of xyz vertices`)
  if (idx.length % 3 !== 0) fail(`${idx.length} indices is not a whole number of triangles`)
  const vertexCount = p.length / 3
  const triangleCount = idx.length / 3
  if (triangleCount > MAX_TRIANGLES) {
    fail(`is too large: ${triangleCount} triangles (Eddy imports at most ${MAX_TRIANGLES})`, { triangleCount })
  }
  if (vertexCount > MAX_VERTICES) {
    fail(`is too large: ${vertexCount} vertices (Eddy imports at most ${MAX_VERTICES})`, { vertexCount })
  }
  if (triangleCount === 0) fail('has no triangles')
  for (let i = 0; i < p.length; i++) {
    if (!Number.isFinite(p[i])) {
      const v = (i / 3) | 0
      fail(`vertex ${v + 1} has a non-finite coordinate (${'xyz'[i % 3]} = ${p[i]})`, { vertex: v })
    }
  }
  for (let i = 0; i < idx.length; i++) {
    if (idx[i] >= vertexCount) {
      const t = (i / 3) | 0
      fail(`triangle ${t + 1} refers to vertex ${idx[i] + 1} but there are only ${vertexCount} vertices`, { triangle: t })
    }
  }
  if (!hasArea(mesh)) fail(`has no surface: all ${triangleCount} triangles have zero area (their corners coincide or lie on a line)`, { triangleCount })
}

/**
 * Whether some triangle has an area above round-off: twice its area |(b - a) x (c - a)| above
 * 1e-12 of the squared extent of the mesh (a mesh of points or lines has no inside or outside).
 */
function hasArea(mesh: TriMesh): boolean {
  const { positions: p, indices: idx } = mesh
  const b = computeBounds(p)
  const extent = Math.max(b.max[0] - b.min[0], b.max[1] - b.min[1], b.max[2] - b.min[2])
  const floor = 1e-12 * extent * extent
  if (!(extent > 0)) return false
  for (let t = 0; t < idx.length; t += 3) {
    const a = 3 * idx[t], c1 = 3 * idx[t + 1], c2 = 3 * idx[t + 2]
    const ux = p[c1] - p[a], uy = p[c1 + 1] - p[a + 1], uz = p[c1 + 2] - p[a + 2]
    const vx = p[c2] - p[a], vy = p[c2 + 1] - p[a + 1], vz = p[c2 + 2] - p[a + 2]
    const cx = uy * vz - uz * vy, cy = uz * vx - ux * vz, cz = ux * vy - uy * vx
    if (Math.sqrt(cx * cx + cy * cy + cz * cz) > floor) return true
  }
  return false
}
