// The contouring grid's far field for the graded mesher (sim/tetliquid/farBound.ts): the grid
// holds +-band (three finest spacings) or decaying lower bounds away from S, which made the
// graded octree refine everything to the finest level. The block bound must never exceed the
// distance to S (the mesher's octree and its coarse tetrahedra rely on it), and with it the
// graded mesh of a large ball must coarsen inside.
import { describe, expect, it } from 'vitest'
import type { NodeGrid } from '../../../../src-shared/geometry/marchingCubes'
import { stuffIsosurface } from '../../../../src-shared/geometry/tetmesh'
import { ContouredSurface, contourNodeGrid } from '../../../../src-shared/sim/tetliquid/contourGrid'
import { initialSurface } from '../../../../src-shared/sim/tetliquid/surfaceTracking'

const BOX = { min: [0, 0, 0] as [number, number, number], max: [1, 1, 1] as [number, number, number] }
const R = 0.4, C = [0.5, 0.5, 0.5]
const ball = (x: number, y: number, z: number) => Math.hypot(x - C[0], y - C[1], z - C[2]) - R

/** The contoured ball of radius R at contouring spacing 1/res, with band = three finest spacings (six cells). */
function contouredBall(res: number): ContouredSurface {
  const g: NodeGrid = contourNodeGrid(BOX, 1 / res)
  const band = 6 * g.h
  const phi = initialSurface(g, band, [{ name: 'ball', field: { distance: ball }, velocity: [0, 0, 0] }])
  return ContouredSurface.contour(phi, g, band, ball)
}

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

describe('the contouring grid\'s far-field bound', () => {
  it('never exceeds the distance to S, keeps the sign, and reaches past the band deep inside', () => {
    const S = contouredBall(64)
    let s = 12345
    const rnd = () => ((s = (s * 16807) % 2147483647) / 2147483647)
    let deepest = 0
    for (let n = 0; n < 150; n++) {
      const x = rnd(), y = rnd(), z = rnd()
      const f = S.estimateFar(x, y, z), d = distanceToS(S, x, y, z)
      expect(Math.abs(f)).toBeLessThanOrEqual(Math.max(d, S.band) + 1e-9)
      if (Math.abs(ball(x, y, z)) > 0.05) expect(Math.sign(f)).toBe(Math.sign(ball(x, y, z)))
      deepest = Math.max(deepest, -f)
    }
    // The centre is 0.4 from S; the band is 6 / 64 = 0.094.
    console.log(`ball r = 0.4, band ${S.band}: bound at the centre ${(-S.estimateFar(0.5, 0.5, 0.5)).toFixed(3)}, deepest sampled ${deepest.toFixed(3)}`)
    expect(-S.estimateFar(0.5, 0.5, 0.5)).toBeGreaterThan(2 * S.band)
    expect(-S.estimateFar(0.5, 0.5, 0.5)).toBeLessThanOrEqual(distanceToS(S, 0.5, 0.5, 0.5))
    expect(deepest).toBeGreaterThan(S.band)
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
    console.log(`ball r = 0.4 at spacing 1/32: uniform ${uniform.tetCount} tetrahedra, graded on the clamped grid ${clamped.tetCount} (leaves per level ${clamped.stats.leavesPerLevel}), graded with the far bound ${far.tetCount} (${far.stats.leavesPerLevel})`)
    expect(coarse(clamped)).toBe(0)
    expect(coarse(far)).toBeGreaterThan(0)
    expect(far.stats.leavesPerLevel![0]).toBeLessThan(0.5 * clamped.stats.leavesPerLevel![0])
    expect(far.tetCount).toBeLessThanOrEqual(uniform.tetCount)
    expect(Math.abs(volume(far) / volume(uniform) - 1)).toBeLessThan(1e-9)
  })
})
