import { describe, expect, it } from 'vitest'
import {
  MAX_TRIANGLES,
  computeBounds,
  computeVertexNormals,
  dropDegenerateTriangles,
  validateTriMesh,
  type TriMesh,
} from '../../../src-shared/geometry/triMesh'

const quad = (): TriMesh => ({
  // unit square in z = 0 split into two counter-clockwise triangles, plus a lone vertex
  positions: new Float32Array([0, 0, 0, 1, 0, 0, 1, 1, 0, 0, 1, 0, 5, 5, 5]),
  indices: new Uint32Array([0, 1, 2, 0, 2, 3]),
})

function expectMeshError(mesh: TriMesh, pattern: RegExp) {
  let caught: unknown
  try {
    validateTriMesh(mesh, '"m.obj"')
  } catch (e) {
    caught = e
  }
  expect(caught).toMatchObject({ code: 'MESH_PARSE' })
  expect((caught as Error).message).toMatch(pattern)
}

describe('triMesh', () => {
  it('computes bounds (zero for no vertices)', () => {
    expect(computeBounds(quad().positions)).toEqual({ min: [0, 0, 0], max: [5, 5, 5] })
    expect(computeBounds(new Float32Array(0))).toEqual({ min: [0, 0, 0], max: [0, 0, 0] })
  })

  it('computes area-weighted unit normals', () => {
    const n = computeVertexNormals(quad())
    expect(Array.from(n.subarray(0, 12))).toEqual([0, 0, 1, 0, 0, 1, 0, 0, 1, 0, 0, 1])
    expect(Array.from(n.subarray(12))).toEqual([0, 0, 0]) // unused vertex: zero, not NaN
    // A fold: the big face dominates the shared vertex's normal.
    const fold: TriMesh = {
      positions: new Float32Array([0, 0, 0, 10, 0, 0, 0, 10, 0, 0, 0, 1]),
      indices: new Uint32Array([0, 1, 2, 0, 1, 3]), // +z (area 50) and -y (area 5)
    }
    const f = computeVertexNormals(fold)
    const expected = [0, -5, 50].map((c) => c / Math.hypot(5, 50))
    for (let k = 0; k < 3; k++) expect(f[k]).toBeCloseTo(expected[k], 6)
  })

  it('drops triangles that repeat a vertex, returning the same mesh when there are none', () => {
    const m = quad()
    expect(dropDegenerateTriangles(m)).toBe(m)
    const d = dropDegenerateTriangles({ positions: m.positions, indices: new Uint32Array([0, 1, 2, 1, 1, 2, 3, 0, 3, 0, 2, 3]) })
    expect(Array.from(d.indices)).toEqual([0, 1, 2, 0, 2, 3])
  })

  it('accepts a good mesh and names what is wrong with a bad one', () => {
    expect(() => validateTriMesh(quad(), 'quad')).not.toThrow()
    expectMeshError({ positions: new Float32Array(0), indices: new Uint32Array(0) }, /^"m\.obj": has no triangles$/)
    expectMeshError({ positions: new Float32Array(4), indices: new Uint32Array(3) }, /not a whole number of xyz vertices/)
    expectMeshError({ positions: new Float32Array(9), indices: new Uint32Array(4) }, /not a whole number of triangles/)
    const nan = quad()
    nan.positions[7] = Number.NaN
    expectMeshError(nan, /vertex 3 has a non-finite coordinate \(y = NaN\)/)
    const inf = quad()
    inf.positions[2] = Number.NEGATIVE_INFINITY
    expectMeshError(inf, /vertex 1 has a non-finite coordinate \(z = -Infinity\)/)
    const out = quad()
    out.indices[4] = 9
    expectMeshError(out, /triangle 2 refers to vertex 10 but there are only 5 vertices/)
  })

  it('refuses meshes beyond the size limits', () => {
    // Sizes are checked before contents, so zero-filled arrays of the right length suffice.
    expectMeshError({ positions: new Float32Array(9), indices: new Uint32Array((MAX_TRIANGLES + 1) * 3) }, /too large: 5000001 triangles/)
    expectMeshError({ positions: new Float32Array((10_000_000 + 1) * 3), indices: new Uint32Array(3) }, /too large: 10000001 vertices/)
  })
})
