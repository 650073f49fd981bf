// The contouring grid's far field for the graded mesher (sim/tetliquid/farField.ts): the grid
// holds +-band (three finest spacings) or decaying lower bounds away from S, which made the
// graded octree refine everything to the finest level. Fast sweeping from the band gives the
// distance beyond it, compared here with the exact distance to S's triangles (brute force):
// first order (O(h log h) where characteristics meet, as at a ball's centre), a little above
// the distance where the front is curved and below it where fronts meet, and well within the
// octree's margin of three finest spacings. With it the graded mesh of a large ball coarsens inside.
import { describe, expect, it } from 'vitest'
import type { NodeGrid } from '../../../../src-shared/geometry/marchingCubes'
import { stuffIsosurface } from '../../../../src-shared/geometry/tetmesh'
import { ContouredSurface, contourNodeGrid } from '../../../../src-shared/sim/tetliquid/contourGrid'
import { initialSurface } from '../../../../src-shared/sim/tetliquid/surfaceTracking'

const BOX = { min: [0, 0, 0] as [number, number, number], max: [1, 1, 1] as [number, number, number] }
const R = 0.4, C = [0.5, 0.5, 0.5]
const ball = (x: number, y: number, z: number) => Math.hypot(x - C[0], y - C[1], z - C[2]) - R

/** A pool 0.35 deep over the box's floor (the grid mirrors the walls: its surface is the plane). */
const pool = (_x: number, y: number, _z: number) => y - 0.35

/** S for `field` at contouring spacing 1/res, with band = three finest spacings (six cells). */
function contoured(field: (x: number, y: number, z: number) => number, res: number): ContouredSurface {
  const g: NodeGrid = contourNodeGrid(BOX, 1 / res)
  const band = 6 * g.h
  const phi = initialSurface(g, band, [{ name: 'liquid', field: { distance: field }, velocity: [0, 0, 0] }])
  return ContouredSurface.contour(phi, g, band, field)
}
const contouredBall = (res: number) => contoured(ball, res)

/** Distance from p to the triangles of S (brute force). */
function distanceToS(S: ContouredSurface, x: number, y: number, z: number): number {
  const P = S.positions, I = S.indices
  let best = Infinity
  const a = [0, 0, 0], b = [0, 0, 0], c = [0, 0, 0]
  for (let t = 0; t < I.length; t += 3) {
    for (let k = 0; k < 3; k++) { a[k] = P[3 * I[t] + k]; b[k] = P[3 * I[t + 1] + k]; c[k] = P[3 * I[t + 2] + k] }
    best = Math.min(best, pointTriangle([x, y, z], a, b, c))
  }
  return best
}

/** Euclidean distance from p to triangle abc (Ericson, Real-Time Collision Detection 5.1.5). */
function pointTriangle(p: number[], a: number[], b: number[], c: number[]): number {
  const sub = (u: number[], v: number[]) => [u[0] - v[0], u[1] - v[1], u[2] - v[2]]
  const dot = (u: number[], v: number[]) => u[0] * v[0] + u[1] * v[1] + u[2] * v[2]
  const ab = sub(b, a), ac = sub(c, a), ap = sub(p, a)
  const d1 = dot(ab, ap), d2 = dot(ac, ap)
  const at = (s: number, t: number) => Math.hypot(...sub(p, [a[0] + s * ab[0] + t * ac[0], a[1] + s * ab[1] + t * ac[1], a[2] + s * ab[2] + t * ac[2]]))
  if (d1 <= 0 && d2 <= 0) return at(0, 0)
  const bp = sub(p, b), d3 = dot(ab, bp), d4 = dot(ac, bp)
  if (d3 >= 0 && d4 <= d3) return at(1, 0)
  const vc = d1 * d4 - d3 * d2
  if (vc <= 0 && d1 >= 0 && d3 <= 0) return at(d1 / (d1 - d3), 0)
  const cp = sub(p, c), d5 = dot(ab, cp), d6 = dot(ac, cp)
  if (d6 >= 0 && d5 <= d6) return at(0, 1)
  const vb = d5 * d2 - d1 * d6
  if (vb <= 0 && d2 >= 0 && d6 <= 0) return at(0, d2 / (d2 - d6))
  const va = d3 * d6 - d5 * d4
  if (va <= 0 && d4 - d3 >= 0 && d5 - d6 >= 0) { const w = (d4 - d3) / (d4 - d3 + (d5 - d6)); return at(1 - w, w) }
  const den = 1 / (va + vb + vc)
  return at(vb * den, vc * den)
}

describe('the contouring grid\'s far field', () => {
  // Contouring resolutions 64, 96 and 128 on the unit box are the tetrahedral resolutions 32,
  // 48 and 64: the last is the app's default.
  for (const res of [64, 96, 128]) {
    it(`is the distance to S beyond the band within 0.7 finest spacings (at most 0.45 over) and the centre's within 1.6, keeps the sign: a ball, contouring resolution ${res}`, () => {
      const S = contouredBall(res)
      const finest = 2 * S.grid.h
      let s = 12345
      const rnd = () => ((s = (s * 16807) % 2147483647) / 2147483647)
      let over = 0, under = 0, n = 0
      while (n < 120) {
        const x = rnd(), y = rnd(), z = rnd()
        const f = S.estimateFar(x, y, z), d = distanceToS(S, x, y, z)
        if (d < S.band) continue
        n++
        expect(Math.sign(f)).toBe(Math.sign(ball(x, y, z)))
        over = Math.max(over, Math.abs(f) - d)
        under = Math.max(under, d - Math.abs(f))
      }
      const centre = -S.estimateFar(0.5, 0.5, 0.5), exact = distanceToS(S, 0.5, 0.5, 0.5)
      console.log(`ball r = 0.4, contouring 1/${res}, band ${S.band.toFixed(4)}: beyond the band at most ${(over / finest).toFixed(3)} finest spacings over, ${(under / finest).toFixed(3)} under; centre ${centre.toFixed(4)} against ${exact.toFixed(4)}`)
      expect(over).toBeLessThan(0.45 * finest)
      expect(under).toBeLessThan(0.7 * finest)
      expect(Math.abs(centre - exact)).toBeLessThan(1.6 * finest)
    })
  }

  it('is the depth below a flat pool\'s surface to 1e-4 finest spacings (a linear distance is exact)', () => {
    const S = contoured(pool, 64)
    const finest = 2 * S.grid.h
    let worst = 0
    for (const y of [0.02, 0.05, 0.1, 0.2]) for (const x of [0.1, 0.5, 0.9]) for (const z of [0.1, 0.5]) {
      const f = S.estimateFar(x, y, z)
      expect(f).toBeLessThan(0)
      worst = Math.max(worst, Math.abs(-f - (0.35 - y)))
    }
    console.log(`pool 0.35 deep, contouring 1/64: worst depth error ${(worst / finest).toExponential(2)} finest spacings`)
    expect(worst).toBeLessThan(1e-4 * finest)
  })

  it('lets the graded octree coarsen: outside the ball a third of the finest leaves, coarse leaves inside, no more tetrahedra than uniform, the same volume (1e-9)', () => {
    const S = contouredBall(64)
    const spacing = 2 / 64 // the finest tetrahedron edge is two contouring cells
    const opts = { spacing, bounds: { min: [-0.05, -0.05, -0.05], max: [1.05, 1.05, 1.05] } }
    const clamped = stuffIsosurface((x, y, z) => S.estimate(x, y, z), { ...opts, mode: 'graded' })
    const far = stuffIsosurface((x, y, z) => S.estimateFar(x, y, z), { ...opts, mode: 'graded' })
    const uniform = stuffIsosurface((x, y, z) => S.estimate(x, y, z), { ...opts, mode: 'uniform' })
    const coarse = (m: typeof far) => m.stats.leavesPerLevel!.slice(1).reduce((a, b) => a + b, 0)
    const volume = (m: typeof far) => {
      let v = 0
      for (let t = 0; t < m.tetCount; t++) {
        const p = [0, 1, 2, 3].map((k) => 3 * m.tets[4 * t + k]), q = m.positions
        const u = [0, 1, 2].map((c) => q[p[1] + c] - q[p[0] + c]), w = [0, 1, 2].map((c) => q[p[2] + c] - q[p[0] + c]), r = [0, 1, 2].map((c) => q[p[3] + c] - q[p[0] + c])
        v += (u[0] * (w[1] * r[2] - w[2] * r[1]) - u[1] * (w[0] * r[2] - w[2] * r[0]) + u[2] * (w[0] * r[1] - w[1] * r[0])) / 6
      }
      return v
    }
    console.log(`ball r = 0.4 at spacing 1/32: uniform ${uniform.tetCount} tetrahedra, graded on the clamped grid ${clamped.tetCount} (leaves per level ${clamped.stats.leavesPerLevel}), graded with the far field ${far.tetCount} (${far.stats.leavesPerLevel})`)
    expect(coarse(clamped)).toBe(0)
    expect(coarse(far)).toBeGreaterThan(0)
    expect(far.stats.leavesPerLevel![0]).toBeLessThan(0.5 * clamped.stats.leavesPerLevel![0])
    expect(far.tetCount).toBeLessThanOrEqual(uniform.tetCount)
    expect(Math.abs(volume(far) / volume(uniform) - 1)).toBeLessThan(1e-9)
  })
})
