// Marching cubes (Lorensen & Cline 1987) over a node grid, with shared vertices: one vertex
// per crossed grid edge, found through edge-index maps, so neighbouring cubes reference the
// same vertex and the mesh is watertight and manifold (every edge bounds exactly two
// triangles, each direction once). The case tables (mcTables.ts) resolve ambiguous faces by
// one rule that depends only on the face, which is what makes neighbours agree.
//
// Inside is phi < 0; phi == 0 counts as outside (as if nudged to a tiny positive value), and
// a vertex is kept at least T_MIN of the edge away from either node, so two vertices on edges
// meeting at a node never coincide even when phi there is 0 or tiny.
//
// The grid is swept one z-slab at a time: edge maps cover two node slices (x and y edges) and
// one slab (z edges), so scratch is O(nx * ny), not O(nodes); and phi may arrive a window of
// slices at a time (begin, addPlanes), so the caller need not hold it all either.
import type { Vec3 } from '../scene/types'
import { CASE_START, CASE_TRIS, EDGE_AXIS, EDGE_CORNERS } from './mcTables'

/** A regular grid of nodes (phi samples) that marching cubes contours. */
export interface NodeGrid {
  /** World position of node (0, 0, 0). */
  origin: Vec3
  /** Node spacing, m. */
  h: number
  nx: number
  ny: number
  nz: number
}

const T_MIN = 1e-3
/** Row kinds (classifyNodeRows): every node outside (phi >= 0), every node inside. */
const ROW_OUT = 1
const ROW_IN = 2

/**
 * rows[r + j] = ROW_OUT, ROW_IN or 0 (mixed) for node row j of the slice whose node (0, 0) is
 * phi[at]. Most of a liquid's grid is far outside or deep inside: the sweeps skip the rows,
 * slabs and cube rows whose nodes are all on one side, where no edge is crossed.
 */
export function classifyNodeRows(phi: Float32Array, at: number, nx: number, ny: number, rows: Uint8Array | Int32Array, r: number): void {
  for (let j = 0; j < ny; j++) {
    const row = at + nx * j
    const inside = phi[row] < 0
    let kind = inside ? ROW_IN : ROW_OUT
    for (let i = 1; i < nx; i++) {
      if (phi[row + i] < 0 !== inside) {
        kind = 0
        break
      }
    }
    rows[r + j] = kind
  }
}

/** Whether cube row j of a slab lies wholly on one side: its two node rows in both slices (kinds at lo + j, hi + j). */
export function oneSidedCubeRow(rows: Uint8Array | Int32Array, lo: number, hi: number, j: number): boolean {
  const side = rows[lo + j]
  return side !== 0 && rows[lo + j + 1] === side && rows[hi + j] === side && rows[hi + j + 1] === side
}

/** Inside bits (phi < 0) of the four nodes n, n + nx, n + plane, n + plane + nx: bits 0, 2, 4, 6 of a case index. */
export function cornerBits(phi: Float32Array, n: number, nx: number, plane: number): number {
  return (phi[n] < 0 ? 1 : 0) | (phi[n + nx] < 0 ? 4 : 0) | (phi[n + plane] < 0 ? 16 : 0) | (phi[n + plane + nx] < 0 ? 64 : 0)
}

/** A growable triangle mesh in reusable buffers; valid up to vertexCount / triangleCount. */
export class MeshBuffers {
  positions: Float32Array = new Float32Array(3 * 1024)
  indices: Uint32Array = new Uint32Array(3 * 2048)
  vertexCount = 0
  triangleCount = 0

  reset(): void {
    this.vertexCount = 0
    this.triangleCount = 0
  }

  addVertex(x: number, y: number, z: number): number {
    const v = this.vertexCount
    if (3 * v + 3 > this.positions.length) {
      const grown = new Float32Array(2 * this.positions.length)
      grown.set(this.positions)
      this.positions = grown
    }
    this.positions[3 * v] = x
    this.positions[3 * v + 1] = y
    this.positions[3 * v + 2] = z
    this.vertexCount = v + 1
    return v
  }

  addTriangle(a: number, b: number, c: number): void {
    const t = this.triangleCount
    if (3 * t + 3 > this.indices.length) {
      const grown = new Uint32Array(2 * this.indices.length)
      grown.set(this.indices)
      this.indices = grown
    }
    this.indices[3 * t] = a
    this.indices[3 * t + 1] = b
    this.indices[3 * t + 2] = c
    this.triangleCount = t + 1
  }
}

/** Keeps its edge maps between frames. */
export class MarchingCubes {
  // [slice parity][i + nx * j]: vertex on the x (resp. y) edge leaving node (i, j, k), or -1
  private xEdge = [new Int32Array(0), new Int32Array(0)]
  private yEdge = [new Int32Array(0), new Int32Array(0)]
  // [i + nx * j]: vertex on the z edge from (i, j, k) to (i, j, k + 1) for the current slab
  private zEdge = new Int32Array(0)
  // [slice parity][j]: row j of the slice is all outside (ROW_OUT), all inside (ROW_IN) or mixed (0)
  private rows = [new Uint8Array(0), new Uint8Array(0)]
  private edgeSlot = new Int32Array(12) // per cube edge: offset i + nx * j of its base corner
  private edgeCorner = new Int32Array(12) // per cube edge: node offset of its base corner in phi
  private tri = new Int32Array(3) // one triangle's vertices while it is looked up

  // The sweep in progress: its grid, where it writes, and the next node slice it needs.
  private grid: NodeGrid | null = null
  private out: MeshBuffers | null = null
  private nextSlice = 0

  /** Appends the isosurface phi = 0 of the whole node grid to `out` (after out.reset() if a fresh mesh is wanted). */
  run(phi: Float32Array, g: NodeGrid, out: MeshBuffers): void {
    this.begin(g, out)
    this.addPlanes(phi, 0, g.nz)
  }

  /** Starts a sweep over g's node slices, appending to `out`; addPlanes() feeds it. */
  begin(g: NodeGrid, out: MeshBuffers): void {
    const { nx, ny } = g
    const plane = nx * ny
    if (this.zEdge.length < plane) {
      this.xEdge = [new Int32Array(plane), new Int32Array(plane)]
      this.yEdge = [new Int32Array(plane), new Int32Array(plane)]
      this.zEdge = new Int32Array(plane)
    }
    if (this.rows[0].length < ny) this.rows = [new Uint8Array(ny), new Uint8Array(ny)]
    for (let e = 0; e < 12; e++) {
      const c = EDGE_CORNERS[2 * e]
      this.edgeSlot[e] = (c & 1) + nx * ((c >> 1) & 1)
      this.edgeCorner[e] = (c & 1) + nx * ((c >> 1) & 1) + plane * ((c >> 2) & 1)
    }
    this.grid = g
    this.out = out
    this.nextSlice = 0
  }

  /**
   * Meshes the cubes up to node slice kEnd - 1, with phi holding slices from `base` (index
   * i + nx * (j + ny * (k - base))) through kEnd - 1, and the last slice of the previous call
   * among them. Calls in increasing kEnd give the same vertices and triangles, in the same
   * order, as one call over the whole grid.
   */
  addPlanes(phi: Float32Array, base: number, kEnd: number): void {
    const g = this.grid as NodeGrid, out = this.out as MeshBuffers
    const { nx, ny, h } = g
    const [ox, oy, oz] = g.origin
    const plane = nx * ny
    // phi seen from slice 0: phi[n - shift] for grid node n.
    const shift = base * plane
    if (this.nextSlice === 0 && kEnd > 0) {
      this.classifyRows(phi, shift, nx, ny, 0)
      this.sliceVertices(phi, shift, g, 0, out)
      this.nextSlice = 1
    }
    for (let k = this.nextSlice - 1; k + 1 < kEnd; k++) {
      this.classifyRows(phi, shift, nx, ny, k + 1)
      this.sliceVertices(phi, shift, g, k + 1, out)
      // z-edge vertices of slab k (none along a row on one side in both slices)
      const z = this.zEdge
      const lo = this.rows[k & 1], hi = this.rows[(k + 1) & 1]
      for (let j = 0; j < ny; j++) {
        if (lo[j] !== 0 && lo[j] === hi[j]) continue
        for (let i = 0; i < nx; i++) {
          const n = i + nx * (j + ny * k) - shift
          const a = phi[n], b = phi[n + plane]
          z[i + nx * j] = a < 0 !== b < 0 ? out.addVertex(ox + i * h, oy + j * h, oz + (k + lerpT(a, b)) * h) : -1
        }
      }
      this.slabTriangles(phi, shift, nx, ny, k, out)
      this.nextSlice = k + 2
    }
  }

  /**
   * Which rows of node slice k lie wholly on one side (rows of parity k & 1). Most of a liquid's
   * grid is far outside or deep inside: the sweeps skip the rows, slabs and cube rows whose
   * nodes are all on one side, where no edge is crossed. A crossed edge is always visited, and
   * vertices and triangles come in the same order (the maps' other entries are never read: a
   * cube's triangles use its crossed edges only).
   */
  private classifyRows(phi: Float32Array, shift: number, nx: number, ny: number, k: number): void {
    classifyNodeRows(phi, nx * ny * k - shift, nx, ny, this.rows[k & 1], 0)
  }


  /** Vertices on the x and y edges of node slice k, into the maps of parity k & 1. */
  private sliceVertices(phi: Float32Array, shift: number, g: NodeGrid, k: number, out: MeshBuffers): void {
    const { nx, ny, h } = g
    const [ox, oy, oz] = g.origin
    const xm = this.xEdge[k & 1], ym = this.yEdge[k & 1]
    const rows = this.rows[k & 1]
    const z = oz + k * h
    for (let j = 0; j < ny; j++) {
      // A one-sided row crosses no x edge, nor a y edge to a next row on the same side.
      if (rows[j] !== 0 && (j + 1 === ny || rows[j + 1] === rows[j])) continue
      const y = oy + j * h
      for (let i = 0; i < nx; i++) {
        const n = i + nx * (j + ny * k) - shift, a = phi[n], m = i + nx * j
        xm[m] = -1
        ym[m] = -1
        if (i + 1 < nx) {
          const b = phi[n + 1]
          if (a < 0 !== b < 0) xm[m] = out.addVertex(ox + (i + lerpT(a, b)) * h, y, z)
        }
        if (j + 1 < ny) {
          const b = phi[n + nx]
          if (a < 0 !== b < 0) ym[m] = out.addVertex(ox + i * h, y + lerpT(a, b) * h, z)
        }
      }
    }
  }

  private slabTriangles(phi: Float32Array, shift: number, nx: number, ny: number, k: number, out: MeshBuffers): void {
    const plane = nx * ny
    const corner = this.edgeCorner, slot = this.edgeSlot
    const xLo = this.xEdge[k & 1], xHi = this.xEdge[(k + 1) & 1]
    const yLo = this.yEdge[k & 1], yHi = this.yEdge[(k + 1) & 1]
    const zm = this.zEdge
    const tri = this.tri
    const lo = this.rows[k & 1], hi = this.rows[(k + 1) & 1]
    for (let j = 0; j + 1 < ny; j++) {
      if (lo[j] !== 0 && lo[j + 1] === lo[j] && hi[j] === lo[j] && hi[j + 1] === lo[j]) continue
      // Corner c = x + 2y + 4z, bit c set when inside. Walking along x, the x = 1 corners of
      // one cube are the x = 0 corners of the next, so each node is read once per row.
      const row = nx * (j + ny * k) - shift
      let left = cornerBits(phi, row, nx, plane)
      for (let i = 0; i + 1 < nx; i++) {
        const right = cornerBits(phi, row + i + 1, nx, plane)
        const cube = left | (right << 1)
        left = right
        if (cube === 0 || cube === 255) continue
        const m = i + nx * j
        for (let t = CASE_START[cube]; t < CASE_START[cube + 1]; t += 3) {
          for (let q = 0; q < 3; q++) {
            const e = CASE_TRIS[t + q], s = m + slot[e]
            const upper = corner[e] >= plane // base corner on slice k + 1
            const axis = EDGE_AXIS[e]
            tri[q] = axis === 0 ? (upper ? xHi[s] : xLo[s]) : axis === 1 ? (upper ? yHi[s] : yLo[s]) : zm[s]
          }
          out.addTriangle(tri[0], tri[1], tri[2])
        }
      }
    }
  }
}

/** Where phi = 0 on an edge from a to b (opposite signs), kept T_MIN away from both ends. */
export function lerpT(a: number, b: number): number {
  const t = a / (a - b)
  return t < T_MIN ? T_MIN : t > 1 - T_MIN ? 1 - T_MIN : t
}
