// Point location in stuffed meshes (geometry/tetmesh/tetLocator.ts): against brute force over
// every tetrahedron, for random points inside and around a ball and a torus, uniform and graded;
// points outside the mesh give -1.
import { describe, expect, it } from 'vitest'
import { stuffIsosurface } from '../../../src-shared/geometry/tetmesh/stuffing'
import { barycentricCoordinates } from '../../../src-shared/geometry/tetmesh/tetBarycentric'
import { TetLocator } from '../../../src-shared/geometry/tetmesh/tetLocator'
import { Prng } from '../../../src-shared/sim/core/prng'

const shapes: [string, (x: number, y: number, z: number) => number][] = [
  ['ball', (x, y, z) => Math.hypot(x, y, z) - 0.8],
  ['torus', (x, y, z) => Math.hypot(Math.hypot(x, z) - 0.6, y) - 0.25],
]

describe('tetrahedron location in stuffed meshes (exactly the brute-force answer)', () => {
  for (const mode of ['uniform', 'graded'] as const) {
    for (const [name, sdf] of shapes) {
      it(`${name}, ${mode}: 2000 random points located as brute force finds them, -1 outside`, () => {
        const h = 0.1
        const m = stuffIsosurface(sdf, { spacing: h, bounds: { min: [-1, -1, -1], max: [1, 1, 1] }, mode })
        const loc = new TetLocator(m.positions, m.tets, h)
        const rng = new Prng(5)
        let inside = 0, outside = 0
        for (let s = 0; s < 2000; s++) {
          const x = rng.range(-1, 1), y = rng.range(-1, 1), z = rng.range(-1, 1)
          let brute = -1
          for (let t = 0; t < m.tetCount && brute < 0; t++) if (loc.contains(t, x, y, z)) brute = t
          const got = loc.locate(x, y, z)
          expect(got, `point ${x}, ${y}, ${z}`).toBe(brute)
          if (got >= 0) inside++
          else outside++
        }
        console.log(`${name} ${mode}: ${m.tetCount} tets; ${inside} points inside, ${outside} outside`)
        expect(inside).toBeGreaterThan(100)
        expect(outside).toBeGreaterThan(100)
      })
    }
  }

  it('with precomputed frames: the same tetrahedra and the same barycentric coordinates, bit for bit', () => {
    const h = 0.1
    const m = stuffIsosurface(shapes[1][1], { spacing: h, bounds: { min: [-1, -1, -1], max: [1, 1, 1] }, mode: 'graded' })
    const plain = new TetLocator(m.positions, m.tets, h), framed = new TetLocator(m.positions, m.tets, h, { frames: true })
    const rng = new Prng(12)
    const l = new Float64Array(4)
    let found = 0
    for (let s = 0; s < 3000; s++) {
      const x = rng.range(-1, 1), y = rng.range(-1, 1), z = rng.range(-1, 1)
      const t = framed.locate(x, y, z)
      expect(t).toBe(plain.locate(x, y, z))
      if (t < 0) continue
      found++
      barycentricCoordinates(m.positions, m.tets, t, x, y, z, l)
      for (let k = 0; k < 4; k++) expect(Object.is(framed.weights[k], l[k])).toBe(true)
    }
    expect(found).toBeGreaterThan(200)
  })
})
