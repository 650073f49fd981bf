// The pseudo-normals' edge sums (geometry/pseudoNormals.ts) match half-edges by vertex pair
// with a counting sort by the lower vertex: every half-edge must get the sum of the faces on
// its edge that a sort of the half-edges by (lower, higher) vertex groups together, on
// manifold meshes, open ones and edges with one, three or four faces.
import { describe, expect, it } from 'vitest'
import { computePseudoNormals } from '../../../src-shared/geometry/pseudoNormals'
import type { TriMesh } from '../../../src-shared/geometry/triMesh'
import { bunnyMesh } from '../../fixtures/makeBunnyObj'
import { icosphere, randomSoup } from './meshes'

/** Edge sums by a stable sort of the half-edges on (lower, higher) vertex. */
function sortedEdgeSums(mesh: TriMesh, face: Float32Array): Float32Array {
  const idx = mesh.indices, m = idx.length
  const pair = (s: number) => {
    const i = idx[s], j = idx[3 * Math.floor(s / 3) + ((s % 3) + 1) % 3]
    return [Math.min(i, j), Math.max(i, j)]
  }
  const order = Array.from({ length: m }, (_, s) => s).sort((x, y) => {
    const [a, b] = pair(x), [c, d] = pair(y)
    return a - c || b - d
  })
  const edge = new Float32Array(3 * m)
  for (let g = 0; g < m; ) {
    let h = g
    const [a, b] = pair(order[g])
    const sum = [0, 0, 0]
    while (h < m && pair(order[h])[0] === a && pair(order[h])[1] === b) {
      const t = Math.floor(order[h] / 3)
      for (let k = 0; k < 3; k++) sum[k] += face[3 * t + k]
      h++
    }
    for (let q = g; q < h; q++) edge.set(sum, 3 * order[q])
    g = h
  }
  return edge
}

describe('pseudo-normal edge sums', () => {
  it('equal a stable sort by vertex pair, bit for bit, on closed, open and non-manifold meshes', () => {
    const soup = randomSoup(600, 9)
    // The same triangles twice over a welded sphere: every edge has four faces.
    const sphere = icosphere(2)
    const doubled = new Uint32Array(2 * sphere.indices.length)
    doubled.set(sphere.indices)
    doubled.set(sphere.indices, sphere.indices.length)
    // Three fans sharing one edge (0-1) with faces in both orientations.
    const fan: TriMesh = {
      positions: Float32Array.of(0, 0, 0, 1, 0, 0, 0.5, 1, 0, 0.5, -1, 0.2, 0.5, 0.3, 1),
      indices: Uint32Array.of(0, 1, 2, 1, 0, 3, 0, 1, 4),
    }
    for (const [name, mesh] of [['bunny', bunnyMesh()], ['soup', soup], ['doubled sphere', { positions: sphere.positions, indices: doubled }], ['fan', fan]] as const) {
      const pn = computePseudoNormals(mesh)
      const want = sortedEdgeSums(mesh, pn.face)
      expect(Array.from(pn.edge), name).toEqual(Array.from(want))
    }
  })
})
