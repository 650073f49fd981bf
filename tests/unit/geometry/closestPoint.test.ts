import { describe, expect, it } from 'vitest'
import {
  closestPointOnTriangle,
  REGION_EDGE_AB, REGION_EDGE_BC, REGION_EDGE_CA, REGION_FACE, REGION_VERTEX_A, REGION_VERTEX_B, REGION_VERTEX_C,
} from '../../../src-shared/geometry/closestPoint'

type V = [number, number, number]
const sub = (a: V, b: V): V => [a[0] - b[0], a[1] - b[1], a[2] - b[2]]
const dot = (a: V, b: V) => a[0] * b[0] + a[1] * b[1] + a[2] * b[2]
const cross = (a: V, b: V): V => [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]]
const dist = (a: V, b: V) => Math.hypot(a[0] - b[0], a[1] - b[1], a[2] - b[2])

function query(p: V, a: V, b: V, c: V) {
  const out = new Float64Array(6)
  const region = closestPointOnTriangle(...p, ...a, ...b, ...c, out)
  return { region, point: [out[0], out[1], out[2]] as V, bary: [out[3], out[4], out[5]] as V }
}

/** Independent reference: plane projection if it falls inside, else the nearest of the 3 segments. */
function reference(p: V, a: V, b: V, c: V): number {
  const n = cross(sub(b, a), sub(c, a))
  const n2 = dot(n, n)
  let best = Infinity
  if (n2 > 0) {
    const t = dot(sub(p, a), n) / n2
    const q: V = [p[0] - t * n[0], p[1] - t * n[1], p[2] - t * n[2]]
    // Barycentrics of q by signed sub-areas.
    const wa = dot(cross(sub(b, q), sub(c, q)), n) / n2
    const wb = dot(cross(sub(c, q), sub(a, q)), n) / n2
    const wc = 1 - wa - wb
    if (wa >= 0 && wb >= 0 && wc >= 0) best = dist(p, q)
  }
  for (const [u, v] of [[a, b], [b, c], [c, a]] as [V, V][]) {
    const e = sub(v, u)
    const e2 = dot(e, e)
    const t = e2 > 0 ? Math.min(1, Math.max(0, dot(sub(p, u), e) / e2)) : 0
    best = Math.min(best, dist(p, [u[0] + t * e[0], u[1] + t * e[1], u[2] + t * e[2]]))
  }
  return best
}

/** Deterministic PRNG (mulberry32) so failures reproduce. */
function rng(seed: number) {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed)
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

describe('closestPointOnTriangle (Ericson 5.1.5)', () => {
  const a: V = [0, 0, 0], b: V = [1, 0, 0], c: V = [0, 1, 0]

  it('classifies the seven Voronoi regions with the textbook answers', () => {
    const cases: [V, number, V, V][] = [
      [[-1, -1, 5], REGION_VERTEX_A, [0, 0, 0], [1, 0, 0]],
      [[2, -0.5, 1], REGION_VERTEX_B, [1, 0, 0], [0, 1, 0]],
      [[-0.5, 2, 0], REGION_VERTEX_C, [0, 1, 0], [0, 0, 1]],
      [[0.5, -1, 3], REGION_EDGE_AB, [0.5, 0, 0], [0.5, 0.5, 0]],
      [[1, 1, -2], REGION_EDGE_BC, [0.5, 0.5, 0], [0, 0.5, 0.5]],
      [[-2, 0.25, 0], REGION_EDGE_CA, [0, 0.25, 0], [0.75, 0, 0.25]],
      [[0.2, 0.3, -4], REGION_FACE, [0.2, 0.3, 0], [0.5, 0.2, 0.3]],
    ]
    for (const [p, region, point, bary] of cases) {
      const r = query(p, a, b, c)
      expect(r.region).toBe(region)
      for (let k = 0; k < 3; k++) {
        expect(r.point[k]).toBeCloseTo(point[k], 14)
        expect(r.bary[k]).toBeCloseTo(bary[k], 14)
      }
    }
  })

  it('is right near an obtuse corner, where projecting and clamping is wrong', () => {
    // Obtuse at c: the projection of p clamped to the box of barycentrics would pick a
    // point on edge ab; the true answer is vertex c.
    const A: V = [0, 0, 0], B: V = [4, 0, 0], C: V = [2, 0.5, 0]
    const r = query([2, 3, 0.5], A, B, C)
    expect(r.region).toBe(REGION_VERTEX_C)
    expect(dist(r.point, C)).toBe(0)
  })

  it('matches an independent reference on 20 000 random triangles and points', () => {
    const rand = rng(12345)
    const r3 = (s: number): V => [(rand() - 0.5) * s, (rand() - 0.5) * s, (rand() - 0.5) * s]
    // Worst errors over all cases, asserted once (expect() per case would dominate the run).
    let distErr = 0, sumErr = 0, recErr = 0, minW = Infinity, maxW = -Infinity, regionMismatch = 0
    const regionsSeen = new Set<number>()
    for (let n = 0; n < 20000; n++) {
      const A = r3(2), B = r3(2), C = r3(2), P = r3(4)
      const r = query(P, A, B, C)
      regionsSeen.add(r.region)
      distErr = Math.max(distErr, Math.abs(dist(P, r.point) - reference(P, A, B, C)))
      // Barycentrics reproduce the point, sum to 1, lie in [0, 1], and agree with the region.
      const [wa, wb, wc] = r.bary
      sumErr = Math.max(sumErr, Math.abs(wa + wb + wc - 1))
      minW = Math.min(minW, wa, wb, wc)
      maxW = Math.max(maxW, wa, wb, wc)
      for (let k = 0; k < 3; k++) recErr = Math.max(recErr, Math.abs(wa * A[k] + wb * B[k] + wc * C[k] - r.point[k]))
      const ok =
        (r.region === REGION_VERTEX_A && wa === 1) ||
        (r.region === REGION_VERTEX_B && wb === 1) ||
        (r.region === REGION_VERTEX_C && wc === 1) ||
        (r.region === REGION_EDGE_AB && wc === 0) ||
        (r.region === REGION_EDGE_BC && wa === 0) ||
        (r.region === REGION_EDGE_CA && wb === 0) ||
        (r.region === REGION_FACE && Math.min(wa, wb, wc) >= 0)
      if (!ok) regionMismatch++
    }
    expect(regionsSeen.size).toBe(7)
    expect(distErr).toBeLessThan(1e-12)
    expect(sumErr).toBeLessThan(1e-14)
    expect(recErr).toBeLessThan(1e-12)
    expect(minW).toBeGreaterThanOrEqual(-1e-15)
    expect(maxW).toBeLessThanOrEqual(1 + 1e-15)
    expect(regionMismatch).toBe(0)
  })

  it('treats degenerate triangles as segments or points (always finite)', () => {
    // Repeated corner: the segment a-c.
    let r = query([0.5, 2, 1], [0, 0, 0], [0, 0, 0], [1, 0, 0])
    expect(dist(r.point, [0.5, 0, 0])).toBeLessThan(1e-15)
    expect(r.bary.every(Number.isFinite)).toBe(true)
    // Collinear corners: the segment from 0 to 3 on x.
    r = query([1.7, -1, 0], [0, 0, 0], [3, 0, 0], [1, 0, 0])
    expect(dist(r.point, [1.7, 0, 0])).toBeLessThan(1e-15)
    r = query([5, 1, 0], [0, 0, 0], [3, 0, 0], [1, 0, 0])
    expect(dist(r.point, [3, 0, 0])).toBe(0)
    // All three corners equal: a point.
    r = query([1, 2, 2], [1, 1, 1], [1, 1, 1], [1, 1, 1])
    expect(r.point).toEqual([1, 1, 1])
    expect(r.bary[0] + r.bary[1] + r.bary[2]).toBe(1)
  })

  it('returns the point itself (distance 0) for points on the triangle', () => {
    const r = query([0.25, 0.25, 0], a, b, c)
    expect(r.region).toBe(REGION_FACE)
    expect(dist(r.point, [0.25, 0.25, 0])).toBe(0)
    expect(query([1, 0, 0], a, b, c).region).toBe(REGION_VERTEX_B)
  })
})
