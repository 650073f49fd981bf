// ParticleHash's kernel sums (the thickening's mesh offset and Zhu and Bridson's particle
// surface) against the same sums over every point, at random query points inside, at the edge
// of and outside the cloud, and for an empty cloud.
import { describe, expect, it } from 'vitest'
import { ParticleHash } from '../../../../src-shared/sim/tetliquid/particleHash'

function cloud(n: number, seed: number): Float64Array {
  let s = seed
  const rand = () => ((s = (s * 1103515245 + 12345) % 2147483648) / 2147483648)
  const p = new Float64Array(3 * n)
  for (let i = 0; i < 3 * n; i++) p[i] = rand()
  return p
}

function bruteForce(p: Float64Array, values: Float64Array, x: number, y: number, z: number, radius: number) {
  const r2 = radius * radius
  let num = 0, den = 0, w = 0, cx = 0, cy = 0, cz = 0, cr = 0
  for (let m = 0; m < p.length / 3; m++) {
    const d2 = (p[3 * m] - x) ** 2 + (p[3 * m + 1] - y) ** 2 + (p[3 * m + 2] - z) ** 2
    if (d2 > r2) continue
    num += (r2 - d2) ** 3 * values[m]
    den += (r2 - d2) ** 3
    const k = (1 - d2 / r2) ** 3
    w += k
    cx += k * p[3 * m]; cy += k * p[3 * m + 1]; cz += k * p[3 * m + 2]
    cr += k * values[m]
  }
  return {
    mean: den > 0 ? num / den : NaN,
    surface: w > 0 ? Math.hypot(x - cx / w, y - cy / w, z - cz / w) - cr / w : Infinity,
  }
}

describe('ParticleHash kernel sums', () => {
  it('match the sums over every point to 1e-12 (2000 points, 500 queries, radii 0.05-0.2)', () => {
    const p = cloud(2000, 7)
    const values = cloud(667, 11).subarray(0, 2000)
    const queries = cloud(500, 3)
    for (const radius of [0.05, 0.1, 0.2]) {
      const hash = new ParticleHash(p, radius)
      let found = 0
      for (let q = 0; q < 500; q++) {
        // Spread the queries to [-0.2, 1.2]^3: some beyond the cloud, some with no point near.
        const x = 1.4 * queries[3 * q] - 0.2, y = 1.4 * queries[3 * q + 1] - 0.2, z = 1.4 * queries[3 * q + 2] - 0.2
        const want = bruteForce(p, values, x, y, z, radius)
        const mean = hash.poly6Mean(x, y, z, radius, values)
        const surface = hash.zhuBridson(x, y, z, radius, values)
        if (Number.isNaN(want.mean)) {
          expect(mean).toBeNaN()
          expect(surface).toBe(Infinity)
          continue
        }
        found++
        expect(Math.abs(mean - want.mean)).toBeLessThan(1e-12)
        expect(Math.abs(surface - want.surface)).toBeLessThan(1e-12)
      }
      expect(found).toBeGreaterThan(100)
    }
  })

  it('an empty cloud has no mean and no surface', () => {
    const hash = new ParticleHash(new Float64Array(0), 0.1)
    expect(hash.poly6Mean(0, 0, 0, 0.1, new Float64Array(0))).toBeNaN()
    expect(hash.zhuBridson(0, 0, 0, 0.1, new Float64Array(0))).toBe(Infinity)
  })
})
