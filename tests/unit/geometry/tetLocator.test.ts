// Point location in stuffed meshes (geometry/tetmesh/tetLocator.ts): against brute force over
// every tetrahedron, for random points inside and around a ball and a torus, uniform and graded;
// points outside the mesh give -1; a walk from a nearby tetrahedron (locateFrom) finds what
// locate() finds, with the same weights.
import { describe, expect, it } from 'vitest'
import { stuffIsosurface } from '../../../src-shared/geometry/tetmesh/stuffing'
import { barycentricCoordinates } from '../../../src-shared/geometry/tetmesh/tetBarycentric'
import { TetLocator, tetFaceNeighbours } from '../../../src-shared/geometry/tetmesh/tetLocator'
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

  for (const mode of ['uniform', 'graded'] as const) {
    it(`runs of nearby points and points on shared faces (${mode} ball): the brute-force answer, the lowest index on a face, whatever was located just before`, () => {
      const h = 0.1
      const m = stuffIsosurface(shapes[0][1], { spacing: h, bounds: { min: [-1, -1, -1], max: [1, 1, 1] }, mode })
      const loc = new TetLocator(m.positions, m.tets, h)
      const brute = (x: number, y: number, z: number) => {
        for (let t = 0; t < m.tetCount; t++) if (loc.contains(t, x, y, z)) return t
        return -1
      }
      const rng = new Prng(11)
      let checked = 0
      // Short walks in steps of a hundredth of a spacing: most points lie in the last answer.
      for (let w = 0; w < 20; w++) {
        let x = rng.range(-0.6, 0.6), y = rng.range(-0.6, 0.6), z = rng.range(-0.6, 0.6)
        for (let s = 0; s < 60; s++, checked++) {
          x += 0.001; y += 0.0007; z -= 0.0004
          expect(loc.locate(x, y, z), `walk ${w} step ${s}`).toBe(brute(x, y, z))
        }
      }
      // A face's centroid, asked right after a point well inside the higher-numbered of its two
      // tetrahedra: the answer is still the lower-numbered one, as the search gives.
      const P = m.positions, T = m.tets
      const faces = new Map<string, number[]>()
      for (let t = 0; t < m.tetCount && faces.size < 4000; t++) {
        for (let f = 0; f < 4; f++) {
          const v = [0, 1, 2, 3].filter((k) => k !== f).map((k) => T[4 * t + k]).sort((a, b) => a - b)
          const key = v.join(',')
          faces.set(key, [...(faces.get(key) ?? []), t])
        }
      }
      let shared = 0
      for (const [key, ts] of faces) {
        if (ts.length !== 2 || shared >= 200) continue
        const [lo, hi] = [Math.min(...ts), Math.max(...ts)]
        const v = key.split(',').map(Number)
        const c = [0, 1, 2].map((a) => (P[3 * v[0] + a] + P[3 * v[1] + a] + P[3 * v[2] + a]) / 3)
        const g = [0, 1, 2].map((a) => (P[3 * T[4 * hi] + a] + P[3 * T[4 * hi + 1] + a] + P[3 * T[4 * hi + 2] + a] + P[3 * T[4 * hi + 3] + a]) / 4)
        expect(loc.locate(g[0], g[1], g[2])).toBe(hi)
        const expected = brute(c[0], c[1], c[2])
        expect(expected).toBeLessThanOrEqual(lo)
        expect(loc.locate(c[0], c[1], c[2]), `face ${key}`).toBe(expected)
        shared++
      }
      console.log(`${mode}: ${checked} walk points and ${shared} shared faces located as brute force`)
      expect(shared).toBe(200)
    })
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

  it('face neighbours: each pair shares the face opposite the vertex, both ways; the boundary faces have none', () => {
    const m = stuffIsosurface(shapes[0][1], { spacing: 0.1, bounds: { min: [-1, -1, -1], max: [1, 1, 1] }, mode: 'graded' })
    const nb = tetFaceNeighbours(m.tets, m.positions.length / 3)
    const T = m.tets
    let inner = 0, boundary = 0
    for (let t = 0; t < m.tetCount; t++) {
      for (let k = 0; k < 4; k++) {
        const u = nb[4 * t + k]
        if (u < 0) { boundary++; continue }
        inner++
        const face = [1, 2, 3].map((d) => T[4 * t + ((k + d) & 3)])
        for (const v of face) expect([0, 1, 2, 3].some((q) => T[4 * u + q] === v)).toBe(true)
        expect([0, 1, 2, 3].some((q) => nb[4 * u + q] === t)).toBe(true)
      }
    }
    expect(inner).toBeGreaterThan(10 * boundary)
    expect(boundary).toBeGreaterThan(100)
  })

  for (const mode of ['uniform', 'graded'] as const) {
    it(`locateFrom a nearby tetrahedron (${mode} torus): locate()'s answer and weights, bit for bit, for points near and far, outside and NaN`, () => {
      const h = 0.1
      const m = stuffIsosurface(shapes[1][1], { spacing: h, bounds: { min: [-1, -1, -1], max: [1, 1, 1] }, mode })
      const walker = new TetLocator(m.positions, m.tets, h, { frames: true, walk: true }), plain = new TetLocator(m.positions, m.tets, h, { frames: true })
      const rng = new Prng(21)
      const P = m.positions, T = m.tets
      let walkedHits = 0
      for (let s = 0; s < 4000; s++) {
        const from = Math.floor(rng.next() * m.tetCount)
        // A point around the start's centroid: within a fraction of a spacing, or a few away.
        const reach = s % 4 === 0 ? 4 * h : 0.6 * h
        const g = [0, 1, 2].map((a) => (P[3 * T[4 * from] + a] + P[3 * T[4 * from + 1] + a] + P[3 * T[4 * from + 2] + a] + P[3 * T[4 * from + 3] + a]) / 4 + rng.range(-reach, reach))
        if (s === 7) g[1] = Number.NaN
        const want = plain.locate(g[0], g[1], g[2])
        const got = walker.locateFrom(from, g[0], g[1], g[2])
        expect(got, `point ${s}`).toBe(want)
        if (got < 0) continue
        for (let k = 0; k < 4; k++) expect(Object.is(walker.weights[k], plain.weights[k]), `point ${s} weight ${k}`).toBe(true)
        if (got !== from) walkedHits++
      }
      expect(walkedHits).toBeGreaterThan(1000)
      expect(() => plain.locateFrom(0, 0, 0, 0)).toThrow(/walk/)
    })
  }
})
