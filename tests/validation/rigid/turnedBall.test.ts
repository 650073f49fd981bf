// A ball that has turned (any orientation but the one it started with) must still meet the
// walls at its lowest point. Balls touch planes only at their support point (rigidShape.ts
// supportPoint); the direction handed to it once came from R's column instead of its row,
// so a turned ball's "lowest point" was somewhere on its side and it fell through the floor
// (found by a lead ball sinking in the liquid, whose spin the liquid sets).
import { describe, expect, it } from 'vitest'
import { RigidWorld } from '../../../src-shared/sim/rigid/rigidWorld'
import { axisAngle, G } from './scenes'

describe('a turned, spinning ball on the floor', () => {
  for (const deg of [0, 37, 90, 151]) {
    it(`turned ${deg} degrees and spinning at 5 rad/s, dropped at 2 m/s: never more than 1% of its radius below the floor, and comes to rest on it`, () => {
      const r = 0.1
      const w = new RigidWorld(
        [{ id: 'b', name: 'ball', shape: 'sphere', scale: [2 * r, 2 * r, 2 * r], density: 11000, position: [0, 0.3, 0], orientation: axisAngle([1, 0.3, 0.5], deg), linearVelocity: [0.2, -2, 0.1], angularVelocity: [5, 1, -3], restitution: 0.3, friction: 0.5 }],
        { gravity: [0, -G, 0], box: { min: [-1, 0, -1], max: [1, 2, 1] } },
      )
      const b = w.bodies[0]
      let lowest = Infinity
      for (let s = 0; s < 480; s++) {
        w.step(1 / 96)
        lowest = Math.min(lowest, b.x[1] - r)
      }
      expect(lowest).toBeGreaterThan(-0.01 * r)
      expect(Math.abs(b.x[1] - r)).toBeLessThan(0.01 * r)
      expect(Math.abs(b.v[1])).toBeLessThan(0.01)
    })
  }
})
