// S's signed distance as semi-Lagrangian contouring reads it (ContouredSurface.distance,
// sim/tetliquid/contourGrid.ts) takes two shortcuts: the closest point is searched within the
// grid's estimate plus a spacing before the whole reach, and a point with no triangle within
// reach takes the grid's sign instead of its true closest point's pseudo-normal. Both must give
// what the plain search gives: the same value, bit for bit, here checked against that search
// (the implementation before the shortcuts, written out below) at points near S, in the band,
// beyond it, and where the grid underestimates the distance as the tracker's far nodes do
// (band - k reach after k substeps).
import { describe, expect, it } from 'vitest'
import { MeshSdf } from '../../../../src-shared/geometry/signedDistance'
import { Prng } from '../../../../src-shared/sim/core/prng'
import { ContouredSurface, contourNodeGrid, phongLift } from '../../../../src-shared/sim/tetliquid/contourGrid'
import { initialSurface } from '../../../../src-shared/sim/tetliquid/surfaceTracking'

const BOX = { min: [0, 0, 0] as [number, number, number], max: [1, 1, 1] as [number, number, number] }

/** The distance with one search within the whole reach and the pseudo-normal sign everywhere. */
function plainDistance(s: ContouredSurface, x: number, y: number, z: number): number {
  const e = s.estimate(x, y, z)
  const sdf = (s as unknown as { sdf: MeshSdf }).sdf
  if (Math.abs(e) >= s.band) return e
  const reach = s.band + s.grid.h
  let d = sdf.distanceBanded(x, y, z, reach)
  if (Math.abs(d) < reach && sdf.lastTriangle >= 0) d -= phongLift(s.positions, s.normals, s.indices, sdf.lastTriangle, sdf.lastHit)
  return d > s.band ? s.band : d < -s.band ? -s.band : d
}

describe("semi-Lagrangian contouring's distance to S", () => {
  for (const underestimate of [false, true]) {
    it(`equals the plain closest-point search bit for bit, near S, in the band and beyond it${underestimate ? ', with the far nodes underestimated' : ''}`, () => {
      const res = 32
      const g = contourNodeGrid(BOX, 1 / res)
      const band = 6 / res
      const ball = (x: number, y: number, z: number) => Math.hypot(x - 0.45, y - 0.5, z - 0.8) - 0.12
      // Deep enough that its middle is more than the reach (7 spacings) from S: far points on both sides.
      const slab = (x: number, y: number, z: number) => z - 0.7
      const field = { distance: (x: number, y: number, z: number) => Math.min(ball(x, y, z), slab(x, y, z)) }
      const phi = initialSurface(g, band, [{ name: 'water', field, velocity: [0, 0, 0] }])
      // The tracker's far nodes: each substep moves them `reach` towards 0 (surfaceTracking.ts).
      if (underestimate) for (let n = 0; n < phi.length; n++) if (Math.abs(phi[n]) >= band) phi[n] *= 0.5
      const s = ContouredSurface.contour(phi, g, band)
      const rng = new Prng(3)
      let near = 0, inBand = 0, beyondOut = 0, beyondIn = 0
      for (let q = 0; q < 20000; q++) {
        const x = rng.range(-0.05, 1.05), y = rng.range(-0.05, 1.05), z = rng.range(-0.05, 1.05)
        const want = plainDistance(s, x, y, z)
        const got = s.distance(x, y, z)
        if (!Object.is(got, want)) expect(got, `at ${x}, ${y}, ${z}`).toBe(want)
        const a = Math.abs(want)
        if (a < g.h) near++
        else if (a < band) inBand++
        else if (want > 0) beyondOut++
        else beyondIn++
      }
      // The three kinds of query each came up often.
      expect(near).toBeGreaterThan(500)
      expect(inBand).toBeGreaterThan(2000)
      expect(beyondOut).toBeGreaterThan(1000)
      expect(beyondIn).toBeGreaterThan(1000)
    })
  }
})
