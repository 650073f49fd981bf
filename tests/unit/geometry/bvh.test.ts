import { createHash } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { HIT_DISTANCE, HIT_REGION, HIT_SIZE, TriangleBvh } from '../../../src-shared/geometry/bvh'
import { closestPointOnTriangle } from '../../../src-shared/geometry/closestPoint'
import { EddyError } from '../../../src-shared/api/errors'
import type { TriMesh } from '../../../src-shared/geometry/triMesh'
import { computeBounds } from '../../../src-shared/geometry/triMesh'
import { bunnyMesh } from '../../fixtures/makeBunnyObj'
import { randomSoup, rng } from './meshes'

// Node count, depth and a hash of the trees the single-axis binned SAH build gives (2026-12-02;
// binning all three axes gave '4225 14 0eee25a541c804f7' and '5651 15 04db011be311c147').
const BUNNY_TREE = '4319 14 24577816a7e0fb62'
const SOUP_TREE = '5591 15 6989b18842a88be5'

/** Brute force over all triangles with the same kernel; first minimum wins on ties. */
function bruteForce(mesh: TriMesh, x: number, y: number, z: number, s: Float64Array) {
  const p = mesh.positions, idx = mesh.indices
  let best = Infinity, bestTri = -1
  for (let t = 0; t < idx.length / 3; t++) {
    const a = 3 * idx[3 * t], b = 3 * idx[3 * t + 1], c = 3 * idx[3 * t + 2]
    closestPointOnTriangle(x, y, z, p[a], p[a + 1], p[a + 2], p[b], p[b + 1], p[b + 2], p[c], p[c + 1], p[c + 2], s)
    const d2 = (s[0] - x) ** 2 + (s[1] - y) ** 2 + (s[2] - z) ** 2
    if (d2 < best) {
      best = d2
      bestTri = t
    }
  }
  return { distance: Math.sqrt(best), tri: bestTri }
}

/** Distance (and the kernel's output) from (x,y,z) to triangle t alone. */
function toTriangle(mesh: TriMesh, t: number, x: number, y: number, z: number, s: Float64Array) {
  const p = mesh.positions, idx = mesh.indices
  const a = 3 * idx[3 * t], b = 3 * idx[3 * t + 1], c = 3 * idx[3 * t + 2]
  const region = closestPointOnTriangle(x, y, z, p[a], p[a + 1], p[a + 2], p[b], p[b + 1], p[b + 2], p[c], p[c + 1], p[c + 2], s)
  return { region, distance: Math.sqrt((s[0] - x) ** 2 + (s[1] - y) ** 2 + (s[2] - z) ** 2) }
}

/** Query points: random in the padded bounds, far away, and exactly on the surface. */
function queryPoints(mesh: TriMesh, n: number, seed: number): number[][] {
  const rand = rng(seed)
  const { min, max } = computeBounds(mesh.positions)
  const pts: number[][] = []
  for (let i = 0; i < n; i++) {
    const pad = i % 5 === 0 ? 3 : 0.2
    pts.push([0, 1, 2].map((k) => {
      const ext = max[k] - min[k]
      return min[k] - pad * ext + rand() * (1 + 2 * pad) * ext
    }))
  }
  // Vertices and triangle centroids (distance 0, many ties).
  const p = mesh.positions, idx = mesh.indices
  for (let i = 0; i < 50; i++) {
    const v = Math.floor(rand() * (p.length / 3))
    pts.push([p[3 * v], p[3 * v + 1], p[3 * v + 2]])
    const t = Math.floor(rand() * (idx.length / 3))
    pts.push([0, 1, 2].map((k) => (p[3 * idx[3 * t] + k] + p[3 * idx[3 * t + 1] + k] + p[3 * idx[3 * t + 2] + k]) / 3))
  }
  return pts
}

function agreesWithBruteForce(mesh: TriMesh, n: number, seed: number) {
  const bvh = new TriangleBvh(mesh)
  const out = new Float64Array(HIT_SIZE)
  const s = new Float64Array(6)
  let checked = 0
  for (const [x, y, z] of queryPoints(mesh, n, seed)) {
    const tri = bvh.closestPoint(x, y, z, out)
    const ref = bruteForce(mesh, x, y, z, s)
    // Same distance to the last bit, and the same triangle: an exact tie goes to the lowest
    // index, as in the loop, so the tree's shape does not change the answer.
    expect(out[HIT_DISTANCE]).toBe(ref.distance)
    expect(tri).toBe(ref.tri)
    const own = toTriangle(mesh, tri, x, y, z, s)
    expect(own.distance).toBe(ref.distance)
    // Point, barycentrics and region are the kernel's for that triangle.
    expect(out[HIT_REGION]).toBe(own.region)
    for (let k = 0; k < 6; k++) expect(out[k]).toBe(s[k])
    checked++
  }
  return { bvh, checked }
}

describe('TriangleBvh', () => {
  it('finds exactly the brute-force closest point on the bunny', () => {
    const { bvh, checked } = agreesWithBruteForce(bunnyMesh(), 1500, 7)
    expect(checked).toBe(1600)
    expect(bvh.triangleCount).toBe(3674)
  })

  it('finds exactly the brute-force closest point on a random soup with degenerate triangles', () => {
    const { checked } = agreesWithBruteForce(randomSoup(2000, 99), 1500, 8)
    expect(checked).toBe(1600)
  })

  it('honours maxDistance: -1 when nothing is closer, the same hit otherwise', () => {
    const mesh = bunnyMesh()
    const bvh = new TriangleBvh(mesh)
    const out = new Float64Array(HIT_SIZE)
    const s = new Float64Array(6)
    const rand = rng(3)
    let misses = 0, hits = 0
    for (let i = 0; i < 400; i++) {
      const x = -8 + 16 * rand(), y = -4 + 16 * rand(), z = -8 + 16 * rand()
      const ref = bruteForce(mesh, x, y, z, s).distance
      const tri = bvh.closestPoint(x, y, z, out, 1)
      if (ref < 1) {
        expect(tri).toBeGreaterThanOrEqual(0)
        expect(out[HIT_DISTANCE]).toBe(ref)
        hits++
      } else {
        expect(tri).toBe(-1)
        expect(out[HIT_DISTANCE]).toBe(1)
        misses++
      }
    }
    expect(hits).toBeGreaterThan(20)
    expect(misses).toBeGreaterThan(20)
  })

  it('answers a NaN point as a loop over the triangles does: no triangle, the bound as its distance', () => {
    const mesh = bunnyMesh()
    const bvh = new TriangleBvh(mesh)
    const out = new Float64Array(HIT_SIZE)
    const s = new Float64Array(6)
    for (const [x, y, z] of [[Number.NaN, 0, 0], [0, Number.NaN, 0], [0, 0, Number.NaN]]) {
      expect(bruteForce(mesh, x, y, z, s).tri).toBe(-1)
      expect(bvh.closestPoint(x, y, z, out, 0.5)).toBe(-1)
      expect(out[HIT_DISTANCE]).toBe(0.5)
      expect(bvh.closestPoint(x, y, z, out)).toBe(-1)
      expect(out[HIT_DISTANCE]).toBe(Number.POSITIVE_INFINITY)
    }
  })

  it('is a valid tree: a permutation, nested boxes, small leaves, shallow', () => {
    const mesh = randomSoup(5000, 5)
    const bvh = new TriangleBvh(mesh)
    const { nodeBounds: b, nodeInfo: info, triOrder, triVerts } = bvh
    const seen = new Uint8Array(bvh.triangleCount)
    for (const t of triOrder) seen[t]++
    expect(seen.every((c) => c === 1)).toBe(true)
    // Violations counted and asserted once (an expect per value would dominate the run).
    let bad = 0, leafTris = 0, bigLeaves = 0
    for (let n = 0; n < bvh.nodeCount; n++) {
      const left = info[3 * n], first = info[3 * n + 1], count = info[3 * n + 2]
      if (!(count > 0)) bad++
      if (left >= 0) {
        if (!(left > n)) bad++
        for (const ch of [left, left + 1]) {
          for (let k = 0; k < 3; k++) {
            if (b[6 * ch + k] < b[6 * n + k] || b[6 * ch + 3 + k] > b[6 * n + 3 + k]) bad++
          }
        }
        if (info[3 * left + 1] !== first || info[3 * left + 2] + info[3 * left + 5] !== count || info[3 * left + 4] !== first + info[3 * left + 2]) bad++
      } else {
        if (count > 8) bigLeaves++
        leafTris += count
        for (let s = first; s < first + count; s++) {
          for (let c = 0; c < 3; c++) {
            for (let k = 0; k < 3; k++) {
              const v = triVerts[9 * s + 3 * c + k]
              if (v !== mesh.positions[3 * mesh.indices[3 * triOrder[s] + c] + k]) bad++
              if (v < b[6 * n + k] || v > b[6 * n + 3 + k]) bad++
            }
          }
        }
      }
    }
    expect(bad).toBe(0)
    expect(bigLeaves).toBe(0)
    expect(leafTris).toBe(5000)
    // log2(5000 / 8) ~ 9.3; SAH trees are deeper than balanced ones but not by much here.
    expect(bvh.maxDepth).toBeLessThan(40)
  })

  it('builds the same tree as the single-axis binned SAH builder of 2026-12 (node boxes, children, leaf order): a change of tree changes the speed of queries', () => {
    const hash = (m: TriMesh) => {
      const b = new TriangleBvh(m)
      const h = createHash('sha256')
      for (const a of [b.nodeBounds, b.nodeInfo, b.triOrder, b.triVerts]) h.update(new Uint8Array(a.buffer, a.byteOffset, a.byteLength))
      return `${b.nodeCount} ${b.maxDepth} ${h.digest('hex').slice(0, 16)}`
    }
    expect(hash(bunnyMesh())).toBe(BUNNY_TREE)
    expect(hash(randomSoup(3000, 11))).toBe(SOUP_TREE)
  })

  it('builds large meshes in O(n log n) time', () => {
    const small = randomSoup(10000, 1), large = randomSoup(80000, 2)
    // Best of 3, so a busy machine (other jobs) does not decide the ratio.
    const time = (m: TriMesh) => {
      let best = Infinity
      for (let r = 0; r < 3; r++) {
        const t0 = performance.now()
        new TriangleBvh(m)
        best = Math.min(best, performance.now() - t0)
      }
      return best
    }
    const tSmall = time(small)
    const tLarge = time(large)
    const bvh = new TriangleBvh(large)
    console.log(`BVH build (best of 3): 10k triangles ${tSmall.toFixed(1)} ms, 80k triangles ${tLarge.toFixed(1)} ms (${bvh.nodeCount} nodes, depth ${bvh.maxDepth})`)
    // 8x the triangles: n log n predicts ~9x; O(n^2) would be 64x.
    expect(tLarge).toBeLessThan(30 * Math.max(tSmall, 2))
  })

  it('rejects meshes that cannot define a distance (INVALID_PARAM)', () => {
    const expectInvalid = (mesh: TriMesh, pattern: RegExp) => {
      try {
        new TriangleBvh(mesh, 'obstacle.obj')
        expect.unreachable()
      } catch (e) {
        expect(e).toBeInstanceOf(EddyError)
        expect((e as EddyError).code).toBe('INVALID_PARAM')
        expect((e as EddyError).message).toMatch(pattern)
      }
    }
    const tri = Float32Array.from([0, 0, 0, 1, 0, 0, 0, 1, 0])
    expectInvalid({ positions: tri, indices: new Uint32Array(0) }, /obstacle\.obj: has no triangles/)
    expectInvalid({ positions: Float32Array.from([0, 0, 0, NaN, 0, 0, 0, 1, 0]), indices: Uint32Array.from([0, 1, 2]) }, /non-finite/)
    expectInvalid({ positions: Float32Array.from([0, 0, 0, Infinity, 0, 0, 0, 1, 0]), indices: Uint32Array.from([0, 1, 2]) }, /non-finite/)
    expectInvalid({ positions: tri, indices: Uint32Array.from([0, 1, 3]) }, /beyond the 3 vertices/)
    expectInvalid({ positions: tri, indices: Uint32Array.from([0, 1, 1, 2, 2, 2]) }, /all triangles are degenerate/)
    expectInvalid({ positions: Float32Array.from([0, 0, 0, 1, 1, 1, 2, 2, 2]), indices: Uint32Array.from([0, 1, 2]) }, /degenerate/)
    // One good triangle among degenerate ones is fine.
    expect(() => new TriangleBvh({ positions: tri, indices: Uint32Array.from([0, 0, 1, 0, 1, 2]) })).not.toThrow()
  })
})
