import { describe, expect, it } from 'vitest'
import { subdivideOnce, type PolyMesh } from '../../../src-shared/geometry/catmullClark'
import { valenceEigen } from '../../../src-shared/geometry/catmullClarkEigen'
import {
  buildLimitSurface, evaluateLimit, limitPointRule, type LimitSurface, type Vec3,
} from '../../../src-shared/geometry/catmullClarkEval'

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
function size(m: PolyMesh): number {
  const lo = [Infinity, Infinity, Infinity], hi = [-Infinity, -Infinity, -Infinity]
  for (let i = 0; i < m.positions.length; i++) {
    lo[i % 3] = Math.min(lo[i % 3], m.positions[i]); hi[i % 3] = Math.max(hi[i % 3], m.positions[i])
  }
  return Math.hypot(hi[0] - lo[0], hi[1] - lo[1], hi[2] - lo[2])
}
const dist = (a: Vec3, b: ArrayLike<number>) => Math.hypot(a[0] - b[0], a[1] - b[1], a[2] - b[2])
/** Angle between unit vectors from the chord (acos has a 2e-8 floor near 1). */
const angle = (a: Vec3, b: Vec3) => 2 * Math.asin(Math.min(1, dist(a, b) / 2))

/** Vertex of the L-times subdivided base mesh at dyadic (u, v) of base face f. */
function vertexAt(f: number, u: number, v: number, L: number, levelFaces: number[][]): number {
  let q = f
  for (let l = 0; l < L; l++) {
    let k: number, a: number, b: number
    if (u <= 0.5 && v <= 0.5) { k = 0; a = 2 * u; b = 2 * v }
    else if (u >= 0.5 && v <= 0.5) { k = 1; a = 2 * v; b = 2 * (1 - u) }
    else if (u >= 0.5 && v >= 0.5) { k = 2; a = 2 * (1 - u); b = 2 * (1 - v) }
    else { k = 3; a = 2 * (1 - v); b = 2 * u }
    q = 4 * q + k; u = a; v = b
  }
  const corner = u === 0 ? (v === 0 ? 0 : 3) : v === 0 ? 1 : 2
  if ((u !== 0 && u !== 1) || (v !== 0 && v !== 1)) throw new Error('not a vertex at this level')
  return levelFaces[q][corner]
}

function checkAgainstSubdivision(cage: PolyMesh) {
  const S = buildLimitSurface(cage)
  const L = 7 - S.levelsSubdivided
  let m: PolyMesh = { positions: S.positions, faces: S.faces }
  for (let l = 0; l < L; l++) m = subdivideOnce(m)
  const samples: [number, number, number, number][] = [] // face, u, v, vertex
  const params: [number, number][] = []
  for (let i = 0; i <= 8; i++) for (let j = 0; j <= 8; j++) params.push([i / 8, j / 8])
  const t = 2 ** -L
  params.push([t, 0], [t, t], [0, 3 * t], [2 * t, t], [1 - t, t], [1 - t, 1 - t])
  for (let f = 0; f < S.faces.length; f++) for (const [u, v] of params) samples.push([f, u, v, vertexAt(f, u, v, L, m.faces)])
  // incidence only for the sampled vertices
  const want = new Set(samples.map((s) => s[3]))
  const inc = new Map<number, number[][]>()
  for (const q of m.faces) for (const v of q) if (want.has(v)) { if (!inc.has(v)) inc.set(v, []); inc.get(v)!.push(q) }
  let err = 0
  for (const [f, u, v, vert] of samples) {
    const ref = limitPointRule(m.positions, inc.get(vert)!, vert)
    err = Math.max(err, dist(evaluateLimit(S, f, u, v).position, ref))
  }
  return { rel: err / size(cage), samples: samples.length, S }
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
      const S = buildLimitSurface(make())
      const he = new Map<string, [number, number]>()
      S.faces.forEach((q, f) => q.forEach((v, c) => he.set(`${v},${q[(c + 1) % 4]}`, [f, c])))
      const at = (c: number, s: number): [number, number] => [[s, 0], [1, s], [1 - s, 1], [0, 1 - s]][c] as [number, number]
      const along = (c: number, d: { du: Vec3; dv: Vec3 }): Vec3 => {
        const sg = c >= 2 ? -1 : 1, w = c % 2 === 0 ? d.du : d.dv
        return [sg * w[0], sg * w[1], sg * w[2]]
      }
      const inward = (c: number, d: { du: Vec3; dv: Vec3 }): Vec3 => along((c + 1) % 4, d)
      let pe = 0, te = 0, ne = 0
      const sz = size(S)
      for (let f = 0; f < S.faces.length; f++) for (let c = 0; c < 4; c++) {
        const q = S.faces[f]
        const [g, j] = he.get(`${q[(c + 1) % 4]},${q[c]}`)!
        for (const t of [2 ** -30, 2 ** -10, 0.1, 0.37, 0.5, 0.93, 1 - 2 ** -20]) {
          const A = evaluateLimit(S, f, ...at(c, t)), B = evaluateLimit(S, g, ...at(j, 1 - t))
          pe = Math.max(pe, dist(A.position, B.position) / sz)
          const ta = along(c, A), tb = along(j, B), ia = inward(c, A), ib = inward(j, B)
          const scale = Math.hypot(...ta) + Math.hypot(...ia)
          te = Math.max(te, (dist(ta, [-tb[0], -tb[1], -tb[2]]) + dist(ia, [-ib[0], -ib[1], -ib[2]])) / scale)
          ne = Math.max(ne, angle(A.normal, B.normal))
        }
      }
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
      const S = buildLimitSurface(make())
      const h = 1e-6
      let err = 0
      const pts = [[0.3, 0.6], [0.02, 0.05], [0.001, 0.0007], [0.5, 0.5], [0.9, 0.1], [0.7, 0.97]]
      for (let f = 0; f < S.faces.length; f++) for (const [u, v] of pts) {
        const s = evaluateLimit(S, f, u, v)
        const hh = Math.min(h, u / 4, v / 4, (1 - u) / 4, (1 - v) / 4)
        const pu = evaluateLimit(S, f, u + hh, v).position, mu = evaluateLimit(S, f, u - hh, v).position
        const pv = evaluateLimit(S, f, u, v + hh).position, mv = evaluateLimit(S, f, u, v - hh).position
        const fu: Vec3 = [0, 1, 2].map((k) => (pu[k] - mu[k]) / (2 * hh)) as Vec3
        const fv: Vec3 = [0, 1, 2].map((k) => (pv[k] - mv[k]) / (2 * hh)) as Vec3
        err = Math.max(err, dist(s.du, fu) / Math.hypot(...s.du), dist(s.dv, fv) / Math.hypot(...s.dv))
      }
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
      let m: PolyMesh = { positions: S.positions, faces: S.faces }
      for (let l = 0; l < L; l++) m = subdivideOnce(m)
      const twin = new Set<string>()
      for (const q of m.faces) for (let c = 0; c < 4; c++) twin.add(`${q[c]},${q[(c + 1) % 4]}`)
      const inc = new Map<number, number[][]>()
      for (const q of m.faces) for (const v of q) { if (!inc.has(v)) inc.set(v, []); inc.get(v)!.push(q) }
      // Boundary neighbours of a vertex: the other ends of its edges that have no twin.
      const rimNeighbours = (v: number): number[] => {
        const out: number[] = []
        for (const q of inc.get(v)!) for (let c = 0; c < 4; c++) {
          const a = q[c], b = q[(c + 1) % 4]
          if (a === v && !twin.has(`${b},${a}`)) out.push(b)
          if (b === v && !twin.has(`${b},${a}`)) out.push(a)
        }
        return out
      }
      let err = 0, onRim = 0
      for (let f = 0; f < S.faces.length; f++) for (let i = 0; i <= 8; i++) for (let j = 0; j <= 8; j++) {
        const vert = vertexAt(f, i / 8, j / 8, L, m.faces)
        const rim = rimNeighbours(vert)
        let ref: ArrayLike<number>
        if (inc.get(vert)!.length === 1) {
          // A sheet corner stays put at every level: its limit is itself.
          onRim++
          ref = [0, 1, 2].map((k) => m.positions[3 * vert + k])
        } else if (rim.length === 2) {
          onRim++
          ref = [0, 1, 2].map((k) => (m.positions[3 * rim[0] + k] + 4 * m.positions[3 * vert + k] + m.positions[3 * rim[1] + k]) / 6)
        } else ref = limitPointRule(m.positions, inc.get(vert)!, vert)
        err = Math.max(err, dist(evaluateLimit(S, f, i / 8, j / 8).position, ref))
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
