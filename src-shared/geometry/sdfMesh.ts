// Signed distance function -> closed triangle mesh, by marching cubes (marchingCubes.ts) over a
// regular node grid. Procedural obstacles (a glass shell, a corkscrew) are easiest to state as
// distance functions, while projects carry obstacles as triangle meshes; this turns the one
// into the other.
//
// The result is a closed, consistently oriented surface (every edge used once in each
// direction, triangles counter-clockwise seen from outside, as TriMesh promises): marching
// cubes with shared edge vertices is watertight inside its grid, and the grid's outermost
// node layer is forced outside, so the surface cannot run off the grid's sides and leave a
// hole even where the shape reaches the requested bounds.
import type { Vec3 } from '../scene/types'
import { MarchingCubes, MeshBuffers } from './marchingCubes'
import type { TriMesh } from './triMesh'

/** Signed distance (or any function with the same sign): negative inside, positive outside. */
export type SdfFunction = (x: number, y: number, z: number) => number

export interface SdfMeshOptions {
  /** Box the shape lies in; the grid covers it plus one cell of margin on every side. */
  min: Vec3
  max: Vec3
  /** Node spacing, m: triangles are about this size (count grows as area / cellSize²). */
  cellSize: number
}

/** Most grid nodes sampled (about 64 MB of phi): a guard against a cell size typed in the wrong unit. */
const MAX_NODES = 16_000_000

/**
 * The surface sdf = 0 of the region sdf < 0 inside [min, max], as a closed triangle mesh with
 * outward (counter-clockwise from outside) triangles. Deterministic: same input, same mesh.
 */
export function sdfMesh(sdf: SdfFunction, opts: SdfMeshOptions): TriMesh {
  const { min, max, cellSize: h } = opts
  if (!(h > 0)) throw new Error(`sdfMesh: cell size must be positive, got ${h}`)
  // One margin cell each side beyond the box, plus the forced-outside layer.
  const origin: Vec3 = [min[0] - 2 * h, min[1] - 2 * h, min[2] - 2 * h]
  const count = (a: number) => Math.ceil((max[a] - min[a]) / h) + 5
  const nx = count(0), ny = count(1), nz = count(2)
  if (nx * ny * nz > MAX_NODES) throw new Error(`sdfMesh: ${nx}x${ny}x${nz} nodes is more than ${MAX_NODES}; use a larger cell size`)
  const phi = sampleNodes(sdf, origin, h, nx, ny, nz)
  const out = new MeshBuffers()
  new MarchingCubes().run(phi, { origin, h, nx, ny, nz }, out)
  return outwardMesh(out)
}

/** sdf at every node (x fastest), the outermost layer forced outside so the surface closes. */
function sampleNodes(sdf: SdfFunction, origin: Vec3, h: number, nx: number, ny: number, nz: number): Float32Array {
  const phi = new Float32Array(nx * ny * nz)
  let n = 0
  for (let k = 0; k < nz; k++) {
    for (let j = 0; j < ny; j++) {
      for (let i = 0; i < nx; i++, n++) {
        const d = sdf(origin[0] + i * h, origin[1] + j * h, origin[2] + k * h)
        const border = i === 0 || j === 0 || k === 0 || i === nx - 1 || j === ny - 1 || k === nz - 1
        // A border node is put a cell outside: no crossed edge can lead off the grid.
        phi[n] = border ? Math.max(h, d) : d
      }
    }
  }
  return phi
}

/**
 * The buffers' mesh in exact-size arrays, wound counter-clockwise seen from outside. The
 * case tables' winding is one fixed convention; the enclosed volume's sign tells which, so
 * the mesh is flipped when it comes out inward rather than relying on the table's order.
 */
function outwardMesh(out: MeshBuffers): TriMesh {
  const positions = out.positions.slice(0, 3 * out.vertexCount)
  const indices = out.indices.slice(0, 3 * out.triangleCount)
  if (signedVolume(positions, indices) < 0) {
    for (let t = 0; t < indices.length; t += 3) {
      const b = indices[t + 1]
      indices[t + 1] = indices[t + 2]
      indices[t + 2] = b
    }
  }
  return { positions, indices }
}

/** Enclosed volume of a closed mesh (divergence theorem): positive when triangles face outward. */
export function signedVolume(positions: ArrayLike<number>, indices: ArrayLike<number>): number {
  let v = 0
  for (let t = 0; t < indices.length; t += 3) {
    const a = 3 * indices[t], b = 3 * indices[t + 1], c = 3 * indices[t + 2]
    const ax = positions[a], ay = positions[a + 1], az = positions[a + 2]
    const bx = positions[b], by = positions[b + 1], bz = positions[b + 2]
    const cx = positions[c], cy = positions[c + 1], cz = positions[c + 2]
    v += ax * (by * cz - bz * cy) - ay * (bx * cz - bz * cx) + az * (bx * cy - by * cx)
  }
  return v / 6
}
