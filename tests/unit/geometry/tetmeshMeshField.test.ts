// Isosurface stuffing of a mesh given as its MeshSdf object rather than a function: the lattice
// is then filled by hinted queries (geometry/tetmesh/evaluateLattice.ts: the closest-point
// search bounded by the previous vertex's value, the sign carried over on a closed mesh where
// the surface cannot lie between two vertices). The mesh must be the very same, bit for bit,
// in the uniform and the graded modes, on a closed mesh (the bunny) and an open one (the bunny
// without a few triangles, where every sign is the winding number's), and the hints must
// actually save winding numbers on the closed one: the lattice's are nearly all saved, the cut
// points' root finding (whose points lie next to the surface) still needs its own.
import { describe, expect, it } from 'vitest'
import { MeshSdf } from '../../../src-shared/geometry/signedDistance'
import { stuffIsosurface, type StuffedMesh } from '../../../src-shared/geometry/tetmesh'
import { bunnyExampleMesh } from '../../../src-shared/scene/examples/bunnyMesh'

function same(a: StuffedMesh, b: StuffedMesh): void {
  expect(a.tetCount).toBeGreaterThan(1000)
  expect(b.tetCount).toBe(a.tetCount)
  expect(b.vertexCount).toBe(a.vertexCount)
  expect(Buffer.from(b.tets.buffer, b.tets.byteOffset, b.tets.byteLength).equals(Buffer.from(a.tets.buffer, a.tets.byteOffset, a.tets.byteLength))).toBe(true)
  expect(Buffer.from(b.positions.buffer, b.positions.byteOffset, b.positions.byteLength).equals(Buffer.from(a.positions.buffer, a.positions.byteOffset, a.positions.byteLength))).toBe(true)
}

/** Counts the winding-number evaluations a MeshSdf makes. */
function counting(sdf: MeshSdf): { calls: number } {
  const counter = { calls: 0 }
  const winding = (sdf as unknown as { winding: { evaluate(x: number, y: number, z: number): number } }).winding
  const evaluate = winding.evaluate.bind(winding)
  winding.evaluate = (x, y, z) => {
    counter.calls++
    return evaluate(x, y, z)
  }
  return counter
}

describe('stuffing a MeshSdf object', () => {
  const bunny = bunnyExampleMesh()

  for (const mode of ['uniform', 'graded'] as const) {
    it(`gives the same mesh, bit for bit, as its distance function (closed bunny, ${mode}), with at most 60% of the winding numbers (the rest are the cut points' root finding)`, () => {
      const viaFunction = new MeshSdf(bunny), viaField = new MeshSdf(bunny)
      const opts = { spacing: 0.3, bounds: viaField.bounds, mode }
      const calls = [counting(viaFunction), counting(viaField)]
      const a = stuffIsosurface((x, y, z) => viaFunction.distance(x, y, z), opts)
      const b = stuffIsosurface(viaField, opts)
      same(a, b)
      console.log(`bunny ${mode} at 0.3: ${a.tetCount} tetrahedra; winding numbers ${calls[0].calls} through the function, ${calls[1].calls} through the field`)
      expect(calls[1].calls).toBeLessThan(0.6 * calls[0].calls)
    })
  }

  it('gives the same mesh, bit for bit, on an open mesh (the bunny less ten triangles: every sign a winding number)', () => {
    const open = { ...bunny, indices: bunny.indices.slice(30) }
    const viaFunction = new MeshSdf(open), viaField = new MeshSdf(open)
    const opts = { spacing: 0.35, bounds: viaField.bounds }
    same(stuffIsosurface((x, y, z) => viaFunction.distance(x, y, z), opts), stuffIsosurface(viaField, opts))
  })
})
