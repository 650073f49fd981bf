// Added mass (Lamb 1932, sec. 92): a sphere accelerating through still liquid drags the liquid
// around it along, as if it carried half its displaced volume of liquid with it, so released
// from rest it starts at a = (rho_r - 1) g / (rho_r + 1/2), not (rho_r - 1) g / rho_r. A stone of
// relative density 2 starts at -g / 2.5 = -3.92 m/s^2 (without added mass, -4.91). The coupled
// solve (coupledWalls.ts) and the markers' exchange with the body (rigidCoupling.ts
// imposeWithReaction) give it its added mass: the acceleration over its first frame, after it
// is released from its keys at frame 12 in a still pool, within 6%.
// (A body lighter than the liquid is not held to this: a relative density 0.2 ball starts up
// at 3.7-5.1 m/s^2 where 11.2 is the answer; README, physics checks.)
import { describe, expect, it } from 'vitest'
import { type BodySpec, bodyIn, runTank, tankScene } from './scenes'

describe('added mass: a relative density 2 ball released in still water (0.2 m across, 0.45 m deep in a 0.9 m pool)', () => {
  for (const resolution of [24, 48]) {
    it(`${resolution} cells across 1 m: starts at (rho_r - 1) g / (rho_r + 1/2) = -3.92 m/s^2 within 6% over its first frame`, () => {
      const spec: BodySpec = { id: 'b', shape: 'sphere', position: [0, 0.45, 0], scale: [0.2, 0.2, 0.2], relativeDensity: 2, params: { activeFrom: 12 } }
      const run = runTank(tankScene({ resolution, size: [1, 1, 1], waterLevel: 0.9, bodies: [spec] }), 12)
      const expected = (-9.81 * (2 - 1)) / (2 + 0.5)
      // Keyed (at rest) through frame 12, released at its start: frames[12] is frame 13.
      expect(bodyIn(run.frames[11], 'b').linearVelocity[1]).toBe(0)
      const a = bodyIn(run.frames[12], 'b').linearVelocity[1] * 24
      console.log(`added mass, ${resolution} cells: first frame ${a.toFixed(3)} m/s^2 against ${expected.toFixed(3)} (${((a / expected - 1) * 100).toFixed(1)}%)`)
      expect(Math.abs(a / expected - 1), `${a.toFixed(3)} m/s^2`).toBeLessThan(0.06)
    }, 120_000)
  }
})
