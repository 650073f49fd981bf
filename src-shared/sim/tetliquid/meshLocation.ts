// What MeshVelocity (meshVelocity.ts) needs of a tetrahedral mesh M that M's face velocities
// do not change: the point locator, the tree over M's boundary faces, the vertices' dual-cell
// weights (boundary vertices' replaced by their tetrahedra's volume shares) and, for each node
// of the extrapolation grid that lies in M, its tetrahedron and barycentric weights. Kept apart
// so a substep can build it for the new mesh while the kernels' worker threads trace the new
// mesh's faces back through the old one (TetLiquidSolver.remesh): on the bake thread alone it
// was a third of a substep's MeshVelocity, which came after the traces. The values are the
// ones MeshVelocity computed in place before, in the same order: the same bits.
import { TriangleBvh } from '../../geometry/bvh'
import { TetLocator } from '../../geometry/tetmesh/tetLocator'
import { type DualCellWeights, dualCellVertexWeights } from '../core/tetfv/tetInterpolation'
import type { TetGeometry } from '../core/tetfv/tetGeometry'
import type { TetTopology } from '../core/tetfv/tetTopology'
import type { ContourBox } from './contourGrid'

/** The extrapolation grid's placement and the nodes of it inside M. */
export interface ExtrapolationNodes {
  origin: [number, number, number]
  h: number
  n: [number, number, number]
  /** Per node (x fastest), the tetrahedron holding it, or -1. */
  tetOf: Int32Array
  /** The located nodes' barycentric weights (4 each), in node order. */
  weights: Float64Array
}

/** The weights with every boundary vertex's replaced by its tetrahedra's volume shares. */
function boundaryAveraged(topology: TetTopology, geometry: TetGeometry, w: DualCellWeights): DualCellWeights {
  const { vertexTetStart, vertexTets, boundaryVertex } = topology
  const weights = w.weights
  for (let v = 0; v < topology.vertexCount; v++) {
    if (!boundaryVertex[v]) continue
    let total = 0
    for (let i = vertexTetStart[v]; i < vertexTetStart[v + 1]; i++) total += geometry.volumes[vertexTets[i]]
    for (let i = vertexTetStart[v]; i < vertexTetStart[v + 1]; i++) weights[i] = geometry.volumes[vertexTets[i]] / total
  }
  return w
}

/** A BVH over the boundary faces of a tetrahedral mesh (triangle i = boundaryFaces[i]). */
function boundaryBvh(topology: TetTopology, positions: Float64Array): TriangleBvh | null {
  const { boundaryFaces, faceVertices } = topology
  if (boundaryFaces.length === 0) return null
  const indices = new Uint32Array(3 * boundaryFaces.length)
  for (let i = 0; i < boundaryFaces.length; i++) {
    const f = boundaryFaces[i]
    indices[3 * i] = faceVertices[3 * f]
    indices[3 * i + 1] = faceVertices[3 * f + 1]
    indices[3 * i + 2] = faceVertices[3 * f + 2]
  }
  return new TriangleBvh({ positions: Float32Array.from(positions), indices }, 'tetrahedral mesh boundary')
}

/** The extrapolation grid over `box` (one node beyond it, nodes every h) and where its nodes lie in M. */
function locateNodes(locator: TetLocator | null, h: number, box: ContourBox): ExtrapolationNodes {
  const origin: [number, number, number] = [box.min[0] - h, box.min[1] - h, box.min[2] - h]
  const n = [0, 1, 2].map((a) => Math.ceil((box.max[a] - box.min[a]) / h) + 3) as [number, number, number]
  const count = n[0] * n[1] * n[2]
  const tetOf = new Int32Array(count).fill(-1)
  let weights = new Float64Array(0)
  if (locator === null) return { origin, h, n, tetOf, weights }
  weights = new Float64Array(4 * Math.max(64, count >> 3))
  let located = 0
  for (let k = 0, q = 0; k < n[2]; k++) for (let j = 0; j < n[1]; j++) for (let i = 0; i < n[0]; i++, q++) {
    const t = locator.locate(origin[0] + i * h, origin[1] + j * h, origin[2] + k * h)
    if (t < 0) continue
    tetOf[q] = t
    if (4 * located === weights.length) {
      const grown = new Float64Array(2 * weights.length)
      grown.set(weights)
      weights = grown
    }
    weights.set(locator.weights, 4 * located++)
  }
  return { origin, h, n, tetOf, weights }
}

export class MeshLocation {
  /** Cells half the finest edge (see the constructor); null without tetrahedra. */
  readonly locator: TetLocator | null
  /** The tree over M's boundary faces; null without any. */
  readonly boundary: TriangleBvh | null
  /** The dual-cell weights, boundary vertices averaged (meshVelocity.ts's file comment says why). */
  readonly weights: DualCellWeights | null
  readonly nodes: ExtrapolationNodes

  constructor(topology: TetTopology, geometry: TetGeometry, positions: Float64Array, spacing: number, box: ContourBox) {
    if (topology.tetCount > 0) {
      this.weights = boundaryAveraged(topology, geometry, dualCellVertexWeights(topology, geometry, positions))
      // Cells half the finest edge: about 8 tetrahedra tested a query instead of 30-50 at a full
      // edge (the dam break's frame 1.07 -> 0.97 s), for 27 index entries a finest tetrahedron.
      this.locator = new TetLocator(positions, topology.tets, 0.5 * spacing)
      this.boundary = boundaryBvh(topology, positions)
    } else {
      this.weights = null
      this.locator = null
      this.boundary = null
    }
    this.nodes = locateNodes(this.locator, spacing, box)
  }
}
