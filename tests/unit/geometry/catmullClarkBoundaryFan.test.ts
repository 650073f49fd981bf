// Irregular boundary vertices (on the open boundary, 3 or more faces): Biermann et al. 2000's
// rules (which Stam 2003 uses) and the exact limit evaluation next to them.
import { describe, expect, it } from 'vitest'
import type { PolyMesh } from '../../../src-shared/geometry/catmullClark'
import { ringMatrix, tangentWeights } from '../../../src-shared/geometry/catmullClarkBoundaryFan'
import { realEigenvalues } from '../../../src-shared/geometry/catmullClarkEigen'
import { buildLimitSurface, evaluateLimit, type Vec3 } from '../../../src-shared/geometry/catmullClarkEval'
import { angle, dist, edgeJumps, finiteDifferenceError, size, subdivisionReference, vertexAt } from './limitSurfaceChecks'
const bump = (x: number, y: number) => 0.3 * Math.sin(1.3 * x + 0.7 * y) + 0.1 * x * y

/** Unit squares of a grid (i, j) for the cells listed, bumped in z; vertex (i, j) shared. */
function cells(list: [number, number][]): PolyMesh {
  const ids = new Map<string, number>()
  const positions: number[] = []
  const vid = (i: number, j: number) => {
    const k = `${i},${j}`
    let id = ids.get(k)
    if (id === undefined) { id = ids.size; ids.set(k, id); positions.push(i, j, bump(i, j)) }
    return id
  }
  const faces = list.map(([i, j]) => [vid(i, j), vid(i + 1, j), vid(i + 1, j + 1), vid(i, j + 1)])
  return { positions, faces }
}
/** An L of three quads (its inner corner has 3 faces). */
const lShape = () => cells([[0, 0], [1, 0], [0, 1]])
/** A plus of five quads (four inner corners with 3 faces each). */
const plus = () => cells([[1, 1], [0, 1], [2, 1], [1, 0], [1, 2]])
/** A 3 x 3 grid, each square split into two triangles (boundary vertices with 3 triangles). */
function triangulated(): PolyMesh {
  const positions: number[] = []
  for (let j = 0; j < 4; j++) for (let i = 0; i < 4; i++) positions.push(i, j, bump(i, j))
  const faces: number[][] = []
  for (let j = 0; j < 3; j++) for (let i = 0; i < 3; i++) {
    const a = i + 4 * j, b = a + 1, c = a + 5, d = a + 4
    faces.push([a, b, c], [a, c, d])
  }
  return { positions, faces }
}
/** A half disc of k quads round a boundary vertex, with a second ring of quads outside. */
function halfDisc(k: number): PolyMesh {
  const positions = [0, 0, 0.1]
  const ring = (r: number, n: number, z: number) => {
    const first = positions.length / 3
    for (let i = 0; i <= n; i++) {
      const t = (Math.PI * i) / n
      positions.push(r * Math.cos(t), r * Math.sin(t), z + 0.05 * Math.sin(3 * t))
    }
    return first
  }
  const r1 = ring(1, 2 * k, 0), r2 = ring(2, 2 * k, -0.2)
  const faces: number[][] = []
  for (let j = 0; j < k; j++) faces.push([0, r1 + 2 * j, r1 + 2 * j + 1, r1 + 2 * j + 2])
  for (let i = 0; i < 2 * k; i++) faces.push([r1 + i, r2 + i, r2 + i + 1, r1 + i + 1])
  return { positions, faces }
}

/** Faces around each boundary vertex with 3 or more faces of the base mesh: [face, corner]. */
function boundaryFans(S: ReturnType<typeof buildLimitSurface>): Map<number, [number, number][]> {
  const twin = new Set<string>()
  for (const q of S.faces) for (let c = 0; c < 4; c++) twin.add(`${q[c]},${q[(c + 1) % 4]}`)
  const onRim = new Set<number>()
  for (const q of S.faces) for (let c = 0; c < 4; c++) if (!twin.has(`${q[(c + 1) % 4]},${q[c]}`)) { onRim.add(q[c]); onRim.add(q[(c + 1) % 4]) }
  const fans = new Map<number, [number, number][]>()
  S.faces.forEach((q, f) => q.forEach((v, c) => {
    if (onRim.has(v) && S.valence[v] >= 3) { if (!fans.has(v)) fans.set(v, []); fans.get(v)!.push([f, c]) }
  }))
  return fans
}
const cornerUV = [[0, 0], [1, 0], [1, 1], [0, 1]] as const

describe('irregular boundary vertices (Biermann et al. 2000, as Stam 2003 uses them)', () => {
  it('the rule: the 1-ring subdivision matrix of a boundary vertex with k = 3..8 faces has eigenvalues 1, 1/2, 1/2, then below 1/2 (the standard edge rule gives 0.58-0.64 > 1/2)', () => {
    for (let k = 3; k <= 8; k++) {
      const ev = realEigenvalues(ringMatrix(k)).sort((a, b) => b - a)
      console.log(`k = ${k}: ${ev.slice(0, 5).map((x) => x.toFixed(4)).join(' ')}`)
      expect(ev[0]).toBeCloseTo(1, 10)
      expect(ev[1]).toBeCloseTo(0.5, 10)
      expect(ev[2]).toBeCloseTo(0.5, 10)
      expect(ev[3]).toBeLessThan(0.5 - 1e-3)
      // The two tangent weights are left eigenvectors (the eigenvalue is not defective).
      const M = ringMatrix(k)
      for (const l of tangentWeights(k)) {
        let r = 0
        for (let j = 0; j < M.length; j++) r = Math.max(r, Math.abs(M.reduce((s, row, i) => s + l[i] * row[j], 0) - 0.5 * l[j]))
        expect(r).toBeLessThan(1e-12)
      }
    }
  })

  const cages: [string, () => PolyMesh, number[]][] = [
    ['an L of three quads', lShape, [3]],
    ['a plus of five quads', plus, [3]],
    ['a triangulated 3 x 3 sheet', triangulated, [3]],
    ['a half disc of 5 quads', () => halfDisc(5), [5]],
    ['a half disc of 7 quads', () => halfDisc(7), [7]],
  ]
  for (const [name, make, ks] of cages) {
    it(`${name}: limit positions agree with 7 levels of subdivision (rim rule on the boundary, limit-point rule inside) within 1e-10 of the cage size`, () => {
      const cage = make()
      const S = buildLimitSurface(cage)
      const fans = boundaryFans(S)
      expect([...new Set([...fans.values()].map((f) => f.length))].sort()).toEqual(ks)
      const L = 7 - S.levelsSubdivided
      const { m, facesAt, rimNeighbours, limitOf } = subdivisionReference(S, L)
      // The limit-point rule assumes the standard rules around a vertex from now on: not so
      // for a vertex joined to an irregular boundary vertex, whose edge to it will be pulled.
      // Those are checked by continuity and against a finer level below instead.
      const pulled = new Set<number>()
      for (const q of m.faces) for (let c = 0; c < 4; c++) {
        const v = q[c]
        if (facesAt(v).length >= 3 && rimNeighbours(v).length === 2) { pulled.add(q[(c + 1) % 4]); pulled.add(q[(c + 3) % 4]) }
      }
      const t = 2 ** -L
      const params: [number, number][] = [[t, 0], [t, t], [0, 3 * t], [2 * t, t], [3 * t, 5 * t]]
      for (let i = 0; i <= 8; i++) for (let j = 0; j <= 8; j++) params.push([i / 8, j / 8])
      let err = 0, nearFan = 0
      for (let f = 0; f < S.faces.length; f++) for (const [u0, v0] of params) for (let rot = 0; rot < 4; rot++) {
        // the small offsets from each corner in turn, so every fan vertex gets them
        const u = rot === 1 || rot === 2 ? 1 - u0 : u0, v = rot >= 2 ? 1 - v0 : v0
        const ref = limitOf(vertexAt(f, u, v, L, m.faces))
        if (pulled.has(vertexAt(f, u, v, L, m.faces)) && ref.kind === 'inner') continue
        err = Math.max(err, dist(evaluateLimit(S, f, u, v).position, ref.at))
        if (S.faces[f].some((w) => fans.has(w))) nearFan++
      }
      expect(nearFan).toBeGreaterThan(0)
      console.log(`${name}: limit vs 7 levels, max relative ${(err / size(cage)).toExponential(2)}`)
      expect(err / size(cage)).toBeLessThan(1e-10)
    })

    it(`${name}: positions, tangents and normals are continuous across every inner patch edge (1e-9)`, () => {
      const { pe, te, ne, edges } = edgeJumps(buildLimitSurface(make()))
      expect(edges).toBeGreaterThan(0)
      console.log(`${name}: edge jumps: position ${pe.toExponential(2)}, tangent ${te.toExponential(2)}, normal ${ne.toExponential(2)} rad`)
      expect(pe).toBeLessThan(1e-9)
      expect(te).toBeLessThan(1e-9)
      expect(ne).toBeLessThan(1e-9)
    })

    it(`${name}: normals of every patch round a boundary vertex converge to its limit normal (the eigenvectors') at the rate of the fourth eigenvalue over 1/2`, () => {
      const S = buildLimitSurface(make())
      const fans = boundaryFans(S)
      for (const [, fan] of fans) {
        const k = fan.length
        const rate = realEigenvalues(ringMatrix(k)).sort((a, b) => b - a)[3] / 0.5
        const refs = fan.map(([f, c]) => evaluateLimit(S, f, ...(cornerUV[c] as unknown as [number, number])))
        // every patch of the fan gives the same position and normal at the vertex
        for (const r of refs) {
          expect(dist(r.position, refs[0].position)).toBeLessThan(1e-15 * size(S) + 1e-15)
          expect(angle(r.normal, refs[0].normal)).toBeLessThan(1e-12)
          expect(Number.isNaN(r.du[0])).toBe(true)
        }
        const spreads: number[] = []
        for (const n of [4, 8, 16, 24, 32]) {
          const e = 2 ** -n
          let spread = 0
          for (const [f, c] of fan) {
            const [cu, cv] = cornerUV[c]
            for (const [a, b] of [[e, e], [e, 0], [e / 3, e]]) {
              spread = Math.max(spread, angle(evaluateLimit(S, f, Math.abs(cu - a), Math.abs(cv - b)).normal, refs[0].normal))
            }
          }
          spreads.push(spread)
          // within 30 x the rate's prediction from the first sample, and falling
          if (n > 4) expect(spread).toBeLessThan(30 * spreads[0] * rate ** (n - 4) + 1e-9)
        }
        console.log(`k = ${k}: normal spread at 2^-4 .. 2^-32: ${spreads.map((x) => x.toExponential(1)).join(' ')} (rate ${rate.toFixed(3)} a level)`)
        expect(spreads[spreads.length - 1]).toBeLessThan(spreads[0] * 0.5)
      }
    })

    it(`${name}: derivatives match central finite differences of positions (rel 1e-6)`, () => {
      const err = finiteDifferenceError(buildLimitSurface(make()), [[0.3, 0.6], [0.02, 0.05], [0.001, 0.0007], [0.5, 0.5], [0.9, 0.1], [0.7, 0.97], [0.999, 0.998]])
      console.log(`${name}: max relative finite-difference error ${err.toExponential(2)}`)
      expect(err).toBeLessThan(1e-6)
    })
  }

  it('next to the vertex (where the 7-level check cannot use the limit-point rule) positions agree with 8 levels of subdivision, 4 edges away there, within 1e-14', () => {
    const cage = lShape()
    const S = buildLimitSurface(cage)
    const L = 8
    const { m, limitOf } = subdivisionReference(S, L)
    const [f, c] = boundaryFans(S).values().next().value![0]
    const [cu, cv] = cornerUV[c]
    let err = 0, count = 0
    for (let k = 1; k <= 6; k++) for (const [a, b] of [[1, 0], [0, 1], [1, 1], [0.5, 1], [1, 0.25]]) {
      const u = Math.abs(cu - a * 2 ** -k), v = Math.abs(cv - b * 2 ** -k)
      const ref = limitOf(vertexAt(f, u, v, L, m.faces))
      if (ref.kind !== 'inner') continue
      err = Math.max(err, dist(evaluateLimit(S, f, u, v).position, ref.at))
      count++
    }
    expect(count).toBeGreaterThan(20)
    expect(err / size(cage)).toBeLessThan(1e-14)
  })

  it('the boundary curve through an irregular vertex is the cubic B-spline of the boundary vertices: its limit there is (a + 4 V + b) / 6', () => {
    const cage = lShape()
    const S = buildLimitSurface(cage)
    // vertex (1, 1) of the L is cage vertex 3 (first use: (0,0) (1,0) (1,1)? no: found by position)
    let V = -1
    for (let i = 0; i < cage.positions.length / 3; i++) if (cage.positions[3 * i] === 1 && cage.positions[3 * i + 1] === 1) V = i
    const P = (x: number, y: number): Vec3 => [x, y, bump(x, y)]
    const want = [0, 1, 2].map((c) => (P(2, 1)[c] + 4 * P(1, 1)[c] + P(1, 2)[c]) / 6)
    const [f, c] = boundaryFans(S).get(V)![0]
    expect(dist(evaluateLimit(S, f, ...(cornerUV[c] as unknown as [number, number])).position, want)).toBeLessThan(1e-14)
  })

  it('refuses a vertex where two fans of faces touch (a bow tie) by naming the vertex', () => {
    // two quads sharing only vertex 2
    const positions = [0, 0, 0, 1, 0, 0, 1, 1, 0, 0, 1, 0, 2, 1, 0, 2, 2, 0, 1, 2, 0]
    const faces = [[0, 1, 2, 3], [2, 4, 5, 6]]
    expect(() => buildLimitSurface({ positions, faces })).toThrow(/vertex \d+ is where 2 separate fans of faces touch/)
  })
})
