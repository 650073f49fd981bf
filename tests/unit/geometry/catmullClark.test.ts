import { describe, expect, it } from 'vitest'
import { subdivide, subdivideOnce } from '../../../src-shared/geometry/catmullClark'
import type { CageGeometry } from '../../../src-shared/scene/types'

/** Axis-aligned box centred at the origin, faces counter-clockwise seen from outside. */
function box(hx: number, hy: number, hz: number): CageGeometry {
  // prettier-ignore
  const positions = [
    -hx, -hy, -hz,  hx, -hy, -hz,  hx, hy, -hz,  -hx, hy, -hz,
    -hx, -hy,  hz,  hx, -hy,  hz,  hx, hy,  hz,  -hx, hy,  hz,
  ]
  const faces = [
    [0, 3, 2, 1], // z = -hz
    [4, 5, 6, 7], // z = +hz
    [0, 1, 5, 4], // y = -hy
    [2, 3, 7, 6], // y = +hy
    [0, 4, 7, 3], // x = -hx
    [1, 2, 6, 5], // x = +hx
  ]
  return { positions, faces }
}

function vertex(pos: ArrayLike<number>, i: number): number[] {
  return [pos[3 * i], pos[3 * i + 1], pos[3 * i + 2]]
}

/** Signed volume of a closed triangle mesh (positive when the triangles face outward). */
function signedVolume(pos: ArrayLike<number>, tri: ArrayLike<number>): number {
  let v = 0
  for (let t = 0; t < tri.length; t += 3) {
    const [ax, ay, az] = vertex(pos, tri[t])
    const [bx, by, bz] = vertex(pos, tri[t + 1])
    const [cx, cy, cz] = vertex(pos, tri[t + 2])
    v += ax * (by * cz - bz * cy) - ay * (bx * cz - bz * cx) + az * (bx * cy - by * cx)
  }
  return v / 6
}

/** Max |coordinate| per axis over the vertices the faces actually use. */
function extent(pos: ArrayLike<number>, idx: ArrayLike<number>): number[] {
  const e = [0, 0, 0]
  for (let i = 0; i < idx.length; i++) {
    for (let k = 0; k < 3; k++) e[k] = Math.max(e[k], Math.abs(pos[3 * idx[i] + k]))
  }
  return e
}

describe('Catmull-Clark subdivision', () => {
  it('turns a cube into 24 quads on 26 vertices, then 96 quads on 98', () => {
    const one = subdivideOnce(box(1, 1, 1))
    expect(one.faces).toHaveLength(24)
    expect(one.positions.length / 3).toBe(26) // 8 vertex + 12 edge + 6 face points
    expect(one.faces.every((f) => f.length === 4)).toBe(true)

    const two = subdivide(box(1, 1, 1), 2)
    expect(two.quads.length / 4).toBe(96)
    expect(two.positions.length / 3).toBe(98) // 26 + 48 edges + 24 faces
    expect(two.triangles.length / 3).toBe(192)
  })

  it('moves points to the textbook positions on a 2x2x2 cube', () => {
    // Corner P = (1,1,1), valence n = 3. Its face points are (1,0,0), (0,1,0), (0,0,1), so
    // F = (1/3,1/3,1/3); its edge midpoints are (0,1,1), (1,0,1), (1,1,0), so R = (2/3,2/3,2/3).
    // (F + 2R + (n-3)P)/n = ((1/3 + 4/3) + 0)/3 = 5/9 in every coordinate.
    const { positions } = subdivideOnce(box(1, 1, 1))
    const corner = vertex(positions, 6) // vertex points keep the cage's vertex numbering
    for (const c of corner) expect(c).toBeCloseTo(5 / 9, 14)
    const minus = vertex(positions, 0)
    for (const c of minus) expect(c).toBeCloseTo(-5 / 9, 14)

    // Edge (1,1,1)-(-1,1,1): ends + face points (0,1,0) and (0,0,1), averaged -> (0, 3/4, 3/4).
    const all = Array.from({ length: positions.length / 3 }, (_, i) => vertex(positions, i))
    expect(all.some(([x, y, z]) => Math.abs(x) < 1e-15 && Math.abs(y - 0.75) < 1e-15 && Math.abs(z - 0.75) < 1e-15)).toBe(true)
    // Face points are the face centroids, e.g. (1,0,0).
    expect(all.some(([x, y, z]) => x === 1 && y === 0 && z === 0)).toBe(true)
  })

  it('keeps a symmetric cage symmetric', () => {
    const { positions } = subdivide(box(2, 1, 0.5), 3)
    const n = positions.length / 3
    // float32 output: compare with a float32-sized tolerance; the float64 step is checked below.
    const mirrored = (p: ArrayLike<number>, count: number, axis: number, tol: number) => {
      for (let i = 0; i < count; i++) {
        const v = vertex(p, i)
        v[axis] = -v[axis]
        let found = false
        for (let j = 0; j < count && !found; j++) {
          const w = vertex(p, j)
          found = Math.abs(v[0] - w[0]) <= tol && Math.abs(v[1] - w[1]) <= tol && Math.abs(v[2] - w[2]) <= tol
        }
        if (!found) return false
      }
      return true
    }
    for (let axis = 0; axis < 3; axis++) expect(mirrored(positions, n, axis, 1e-6)).toBe(true)

    let cage: { positions: Float64Array | number[]; faces: number[][] } = box(2, 1, 0.5)
    for (let l = 0; l < 2; l++) cage = subdivideOnce(cage)
    for (let axis = 0; axis < 3; axis++) expect(mirrored(cage.positions, cage.positions.length / 3, axis, 1e-12)).toBe(true)
  })

  it('shrinks the cube towards its limit surface monotonically', () => {
    const extents = [1, 2, 3, 4].map((l) => {
      const s = subdivide(box(1, 1, 1), l)
      return extent(s.positions, s.quads)
    })
    for (let l = 1; l < extents.length; l++) {
      for (let k = 0; k < 3; k++) expect(extents[l][k]).toBeLessThanOrEqual(extents[l - 1][k])
    }
    // Level 1 still has the face points on the cube faces; from level 2 on they move inward.
    expect(extents[0][0]).toBe(1)
    expect(extents[1][0]).toBeLessThan(1)
    expect(extents[3][0]).toBeLessThan(extents[1][0])
    // The limit surface of the cube is well inside it but far from a sphere of radius 5/9.
    expect(extents[3][0]).toBeGreaterThan(0.75)
  })

  it('produces outward triangles for an outward cube (orientation preserved)', () => {
    for (const level of [1, 2, 3]) {
      const s = subdivide(box(1, 1, 1), level)
      expect(signedVolume(s.positions, s.triangles)).toBeGreaterThan(0)
      // Every triangle of this convex, origin-centred shape faces away from the origin.
      for (let t = 0; t < s.triangles.length; t += 3) {
        const a = vertex(s.positions, s.triangles[t])
        const b = vertex(s.positions, s.triangles[t + 1])
        const c = vertex(s.positions, s.triangles[t + 2])
        const u = [b[0] - a[0], b[1] - a[1], b[2] - a[2]]
        const v = [c[0] - a[0], c[1] - a[1], c[2] - a[2]]
        const nrm = [u[1] * v[2] - u[2] * v[1], u[2] * v[0] - u[0] * v[2], u[0] * v[1] - u[1] * v[0]]
        const centre = [(a[0] + b[0] + c[0]) / 3, (a[1] + b[1] + c[1]) / 3, (a[2] + b[2] + c[2]) / 3]
        expect(nrm[0] * centre[0] + nrm[1] * centre[1] + nrm[2] * centre[2]).toBeGreaterThan(0)
      }
    }
    // Reversed faces give an inward surface: the orientation really comes from the cage.
    const inward = box(1, 1, 1)
    inward.faces = inward.faces.map((f) => [...f].reverse())
    const s = subdivide(inward, 2)
    expect(signedVolume(s.positions, s.triangles)).toBeLessThan(0)
  })

  it('handles triangles and other valences, giving all quads', () => {
    // Tetrahedron, outward.
    const tet: CageGeometry = {
      positions: [1, 1, 1, -1, -1, 1, -1, 1, -1, 1, -1, -1],
      faces: [
        [0, 1, 3],
        [0, 2, 1],
        [0, 3, 2],
        [1, 2, 3],
      ],
    }
    const one = subdivideOnce(tet)
    expect(one.faces).toHaveLength(12)
    expect(one.positions.length / 3).toBe(14)
    const s = subdivide(tet, 3)
    expect(s.quads.length / 4).toBe(12 * 16)
    expect(signedVolume(s.positions, s.triangles)).toBeGreaterThan(0)

    // A pentagonal prism mixes 5-gons and quads.
    const ring = Array.from({ length: 5 }, (_, i) => [Math.cos((2 * Math.PI * i) / 5), Math.sin((2 * Math.PI * i) / 5)])
    const prism: CageGeometry = {
      positions: [...ring.flatMap(([x, y]) => [x, y, -1]), ...ring.flatMap(([x, y]) => [x, y, 1])],
      faces: [[4, 3, 2, 1, 0], [5, 6, 7, 8, 9], ...ring.map((_, i) => [i, (i + 1) % 5, 5 + ((i + 1) % 5), 5 + i])],
    }
    const p = subdivide(prism, 2)
    expect(p.quads.length / 4).toBe((5 + 5 + 5 * 4) * 4)
    expect(signedVolume(p.positions, p.triangles)).toBeGreaterThan(0)
  })

  it('keeps an open grid boundary on the boundary plane (boundary rules)', () => {
    // 3x3 quads on a 4x4 vertex grid in z = 0, with the four interior vertices lifted to z = 1.
    const positions: number[] = []
    for (let j = 0; j < 4; j++) {
      for (let i = 0; i < 4; i++) positions.push(i, j, i > 0 && i < 3 && j > 0 && j < 3 ? 1 : 0)
    }
    const faces: number[][] = []
    for (let j = 0; j < 3; j++) for (let i = 0; i < 3; i++) faces.push([j * 4 + i, j * 4 + i + 1, (j + 1) * 4 + i + 1, (j + 1) * 4 + i])
    const s = subdivide({ positions, faces }, 2)

    // Boundary edges of the result: used by exactly one quad.
    const uses = new Map<string, number>()
    for (let q = 0; q < s.quads.length; q += 4) {
      for (let k = 0; k < 4; k++) {
        const a = s.quads[q + k], b = s.quads[q + ((k + 1) % 4)]
        const key = a < b ? `${a},${b}` : `${b},${a}`
        uses.set(key, (uses.get(key) ?? 0) + 1)
      }
    }
    const boundary = new Set<number>()
    for (const [key, n] of uses) if (n === 1) for (const v of key.split(',')) boundary.add(Number(v))
    expect(boundary.size).toBe(4 * 12) // 12 boundary segments per side after 2 levels
    for (const v of boundary) {
      const [x, y, z] = vertex(s.positions, v)
      expect(z).toBe(0)
      expect(x).toBeGreaterThanOrEqual(0)
      expect(x).toBeLessThanOrEqual(3)
      expect(y).toBeGreaterThanOrEqual(0)
      expect(y).toBeLessThanOrEqual(3)
    }
    // Mid-side boundary points stay on the straight boundary edge (the 1D B-spline of
    // collinear points is the line); the grid corner is rounded off by the (a+6P+b)/8 rule.
    const onEdge = [...boundary].filter((v) => {
      const [x, y] = vertex(s.positions, v)
      return y === 0 && x > 0.5 && x < 2.5
    })
    expect(onEdge.length).toBeGreaterThan(0)
    // The interior bulge survives smoothing.
    let maxZ = 0
    for (let i = 0; i < s.positions.length; i += 3) maxZ = Math.max(maxZ, s.positions[i + 2])
    expect(maxZ).toBeGreaterThan(0.5)
    expect(maxZ).toBeLessThan(1)
    // Open surfaces are oriented too: the grid is counter-clockwise seen from +z.
    const t = s.triangles
    let up = 0
    for (let k = 0; k < t.length; k += 3) {
      const a = vertex(s.positions, t[k]), b = vertex(s.positions, t[k + 1]), c = vertex(s.positions, t[k + 2])
      up += (b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0])
    }
    expect(up).toBeGreaterThan(0)
  })

  it('rejects invalid levels and cages with INVALID_PARAM', () => {
    for (const level of [0, 5, 1.5, Number.NaN, -1]) {
      expect(() => subdivide(box(1, 1, 1), level)).toThrow(expect.objectContaining({ code: 'INVALID_PARAM' }))
    }
    const bad = (cage: CageGeometry) => expect(() => subdivide(cage, 1)).toThrow(expect.objectContaining({ code: 'INVALID_PARAM' }))
    bad({ positions: [0, 0, 0, 1, 0, 0, 0, 1, 0], faces: [[0, 1]] })
    bad({ positions: [0, 0, 0, 1, 0, 0, 0, 1, 0], faces: [[0, 1, 3]] })
    bad({ positions: [0, 0, 0, 1, 0, 0, 0, 1, 0], faces: [[0, 1, 1]] })
    bad({ positions: [0, 0, 0, 1, 0, 0, 0, 1], faces: [[0, 1, 2]] })
    bad({ positions: [0, 0, 0, 1, 0, 0, 0, 1, Number.NaN], faces: [[0, 1, 2]] })
    bad({ positions: [], faces: [] })
    // Three faces on one edge: non-manifold.
    bad({
      positions: [0, 0, 0, 1, 0, 0, 0, 1, 0, 0, -1, 0, 0, 0, 1],
      faces: [
        [0, 1, 2],
        [1, 0, 3],
        [0, 1, 4],
      ],
    })
  })

  it('refuses output beyond the triangle budget', () => {
    // 90k cage quads at level 4 would be 90k * 4 * 64 * 2 = 46M triangles.
    const faces: number[][] = []
    const positions: number[] = []
    const n = 300
    for (let j = 0; j <= n; j++) for (let i = 0; i <= n; i++) positions.push(i, j, 0)
    for (let j = 0; j < n; j++) for (let i = 0; i < n; i++) faces.push([j * (n + 1) + i, j * (n + 1) + i + 1, (j + 1) * (n + 1) + i + 1, (j + 1) * (n + 1) + i])
    expect(() => subdivide({ positions, faces }, 4)).toThrow(/lower level/)
  })
})
