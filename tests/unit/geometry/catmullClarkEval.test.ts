import { describe, expect, it } from 'vitest'
import type { PolyMesh } from '../../../src-shared/geometry/catmullClark'
import { valenceEigen } from '../../../src-shared/geometry/catmullClarkEigen'
import { buildLimitSurface, evaluateLimit, limitPointRule, type LimitSurface } from '../../../src-shared/geometry/catmullClarkEval'
import { angle, dist, edgeJumps, finiteDifferenceError, size, subdivisionReference, vertexAt } from './limitSurfaceChecks'

/** Deterministic jitter so the tests do not rely on symmetry. */
function jitter(p: number[], amount: number): number[] {
  let s = 12345
  return p.map((x) => {
    s = (s * 1103515245 + 12345) % 2147483648
    return x + amount * (s / 2147483648 - 0.5)
  })
}
function cube(): PolyMesh {
  const positions = jitter([-1, -1, -1, 1, -1, -1, 1, 1, -1, -1, 1, -1, -1, -1, 1, 1, -1, 1, 1, 1, 1, -1, 1, 1], 0.3)
  const faces = [[0, 3, 2, 1], [4, 5, 6, 7], [0, 1, 5, 4], [2, 3, 7, 6], [0, 4, 7, 3], [1, 2, 6, 5]]
  return { positions, faces }
}
/** n-gon prism: after subdivision the cap centres have valence n. */
function prism(n: number): PolyMesh {
  const p: number[] = []
  for (const z of [-0.8, 0.8]) for (let i = 0; i < n; i++) p.push(Math.cos((2 * Math.PI * i) / n), Math.sin((2 * Math.PI * i) / n), z)
  const faces: number[][] = [Array.from({ length: n }, (_, i) => n - 1 - i), Array.from({ length: n }, (_, i) => n + i)]
  for (let i = 0; i < n; i++) faces.push([i, (i + 1) % n, n + ((i + 1) % n), n + i])
  return { positions: jitter(p, 0.2), faces }
}
function checkAgainstSubdivision(cage: PolyMesh) {
  const S = buildLimitSurface(cage)
  const L = 7 - S.levelsSubdivided
  const { m, limitOf } = subdivisionReference(S, L)
  const params: [number, number][] = []
  for (let i = 0; i <= 8; i++) for (let j = 0; j <= 8; j++) params.push([i / 8, j / 8])
  const t = 2 ** -L
  params.push([t, 0], [t, t], [0, 3 * t], [2 * t, t], [1 - t, t], [1 - t, 1 - t])
  let err = 0, samples = 0
  for (let f = 0; f < S.faces.length; f++) for (const [u, v] of params) {
    err = Math.max(err, dist(evaluateLimit(S, f, u, v).position, limitOf(vertexAt(f, u, v, L, m.faces)).at))
    samples++
  }
  return { rel: err / size(cage), samples, S }
}

describe('Catmull-Clark exact limit evaluation (Stam 1998)', () => {
  it('eigen-decompositions of the extended matrix reconstruct A (residual < 1e-12) for valences 3..12', () => {
    for (let N = 3; N <= 12; N++) {
      const E = valenceEigen(N)
      expect(E.residual).toBeLessThan(1e-12)
      expect(E.inverseResidual).toBeLessThan(1e-12)
      expect(E.lambda[0]).toBeCloseTo(1, 12)
    }
    // the known subdominant eigenvalue for valence 3 and 5
    expect(valenceEigen(3).lambda[1]).toBeCloseTo(0.410097, 5)
    expect(valenceEigen(5).lambda[1]).toBeCloseTo(0.549988, 5)
  })

  const cages: [string, () => PolyMesh, number[]][] = [
    ['cube (valence 3)', cube, [3]],
    ['pentagonal prism (valence 3, 5)', () => prism(5), [3, 5]],
    ['hexagonal prism (valence 3, 6)', () => prism(6), [3, 6]],
    ['octagonal prism (valence 3, 8)', () => prism(8), [3, 8]],
  ]
  for (const [name, make, valences] of cages) {
    it(`${name}: limit positions agree with 7 levels of explicit subdivision within 1e-4 of the cage size`, () => {
      const { rel, S } = checkAgainstSubdivision(make())
      console.log(`${name}: max |eval - subdivision limit| / size = ${rel.toExponential(2)}`)
      expect(rel).toBeLessThan(1e-4)
      const seen = new Set(Array.from(S.valence).filter((n) => n !== 4))
      expect([...seen].sort()).toEqual(valences)
    })

    it(`${name}: limit position at each extraordinary vertex matches the limit-point rule within 1e-12`, () => {
      const S = buildLimitSurface(make())
      let err = 0, count = 0
      for (let f = 0; f < S.faces.length; f++) S.faces[f].forEach((v, c) => {
        if (S.valence[v] === 4) return
        const uv: [number, number][] = [[0, 0], [1, 0], [1, 1], [0, 1]]
        const p = evaluateLimit(S, f, uv[c][0], uv[c][1]).position
        err = Math.max(err, dist(p, limitPointRule(S.positions, S.faces, v)))
        // approaching the vertex converges to the same point
        const e = 2 ** -30
        const near = evaluateLimit(S, f, Math.abs(uv[c][0] - e), Math.abs(uv[c][1] - e)).position
        err = Math.max(err, dist(near, p) > 1e-6 ? 1 : 0)
        count++
      })
      expect(count).toBeGreaterThan(0)
      expect(err / size(S)).toBeLessThan(1e-12)
    })

    it(`${name}: positions, tangents and normals are continuous across every patch edge (1e-9)`, () => {
      const { pe, te, ne } = edgeJumps(buildLimitSurface(make()))
      console.log(`${name}: edge jumps: position ${pe.toExponential(2)}, tangent ${te.toExponential(2)}, normal ${ne.toExponential(2)} rad`)
      expect(pe).toBeLessThan(1e-9)
      expect(te).toBeLessThan(1e-9)
      expect(ne).toBeLessThan(1e-9)
    })

    it(`${name}: normals around each extraordinary vertex converge to one direction (monotone, spread < 1e-4 rad at 2^-40)`, () => {
      const S = buildLimitSurface(make())
      const fans = new Map<number, [number, number][]>()
      S.faces.forEach((q, f) => q.forEach((v, c) => {
        if (S.valence[v] !== 4) { if (!fans.has(v)) fans.set(v, []); fans.get(v)!.push([f, c]) }
      }))
      let finalSpread = 0
      for (const [, fan] of fans) {
        const spreads: number[] = []
        const ref = evaluateLimit(S, fan[0][0], ...([[0, 0], [1, 0], [1, 1], [0, 1]][fan[0][1]] as [number, number])).normal
        for (const k of [4, 10, 20, 40]) {
          const e = 2 ** -k
          let spread = 0
          for (const [f, c] of fan) {
            const corner = [[0, 0], [1, 0], [1, 1], [0, 1]][c]
            for (const [a, b] of [[e, e], [e, 0], [e / 3, e]]) {
              const u = Math.abs(corner[0] - a), v = Math.abs(corner[1] - b)
              spread = Math.max(spread, angle(evaluateLimit(S, f, u, v).normal, ref))
            }
          }
          spreads.push(spread)
        }
        for (let i = 1; i < spreads.length; i++) expect(spreads[i] < spreads[i - 1] || spreads[i] < 1e-7).toBe(true)
        finalSpread = Math.max(finalSpread, spreads[spreads.length - 1])
      }
      console.log(`${name}: normal spread at 2^-40 from the vertex: ${finalSpread.toExponential(2)} rad`)
      // slowest for high valence: the error decays like (lambda_3 / lambda_1)^n, 0.82^n for N = 8
      expect(finalSpread).toBeLessThan(1e-4)
    })

    it(`${name}: derivatives match central finite differences of positions (rel 1e-6)`, () => {
      const err = finiteDifferenceError(buildLimitSurface(make()), [[0.3, 0.6], [0.02, 0.05], [0.001, 0.0007], [0.5, 0.5], [0.9, 0.1], [0.7, 0.97]])
      console.log(`${name}: max relative finite-difference error ${err.toExponential(2)}`)
      expect(err).toBeLessThan(1e-6)
    })
  }

  // Open boundaries (cubic B-spline boundary rules, catmullClark.ts): a box without its top (the
  // rim's corners have 2 faces; valence-3 vertices at the bottom) and an open tube, against 7
  // levels of subdivision, whose boundary vertices go to (a + 4 P + b) / 6 along the rim.
  // A bumpy 3 x 3 sheet: four sheet corners (one face each), interpolated by the corner rule.
  const sheet = (): PolyMesh => {
    const positions: number[] = []
    for (let j = 0; j < 4; j++) for (let i = 0; i < 4; i++) positions.push(i, j, 0.3 * Math.sin(1.3 * i + 0.7 * j) + 0.1 * i * j)
    const faces: number[][] = []
    for (let j = 0; j < 3; j++) for (let i = 0; i < 3; i++) faces.push([i + 4 * j, i + 1 + 4 * j, i + 1 + 4 * (j + 1), i + 4 * (j + 1)])
    return { positions, faces }
  }
  for (const [name, make] of [['open box', () => { const m = cube(); return { positions: m.positions, faces: m.faces.filter((_, i) => i !== 1) } }], ['open hexagonal tube', () => { const m = prism(6); return { positions: m.positions, faces: m.faces.slice(2) } }], ['open sheet with four corners', sheet]] as const) {
    it(`${name}: limit positions agree with 7 levels of subdivision within 1e-4 of the cage size, boundary patches included`, () => {
      const cage = make()
      const S = buildLimitSurface(cage)
      const L = 7 - S.levelsSubdivided
      const { m, limitOf } = subdivisionReference(S, L)
      let err = 0, onRim = 0
      for (let f = 0; f < S.faces.length; f++) for (let i = 0; i <= 8; i++) for (let j = 0; j <= 8; j++) {
        const ref = limitOf(vertexAt(f, i / 8, j / 8, L, m.faces))
        if (ref.kind !== 'inner') onRim++
        err = Math.max(err, dist(evaluateLimit(S, f, i / 8, j / 8).position, ref.at))
      }
      expect(onRim).toBeGreaterThan(0)
      console.log(`${name}: limit vs 7 levels, max relative ${(err / size(cage)).toExponential(2)} (${onRim} samples on the rim)`)
      expect(err / size(cage), `relative error ${(err / size(cage)).toExponential(2)}`).toBeLessThan(1e-4)
    })
  }

  it('a single quad (four sheet corners) is the bilinear-looking bicubic patch through its corners', () => {
    const S = buildLimitSurface({ positions: [0, 0, 0, 1, 0, 0, 1, 1, 0, 0, 1, 0], faces: [[0, 1, 2, 3]] })
    // One subdivision step isolates nothing here (all corners are regular): the corners are interpolated.
    for (const [u, v, x, y] of [[0, 0, 0, 0], [1, 0, 1, 0], [1, 1, 1, 1], [0, 1, 0, 1]]) {
      const p = evaluateLimit(S, 0, u, v).position
      expect(Math.hypot(p[0] - x, p[1] - y, p[2])).toBeLessThan(1e-12)
    }
  })
})
