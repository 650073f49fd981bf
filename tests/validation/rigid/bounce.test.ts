// A ball dropped on the floor rebounds to e^2 of its drop height: with restitution e the
// speed after impact is e times the speed before, and v^2 = 2 g h on the way down and up.
import { describe, expect, it } from 'vitest'
import { RigidWorld } from '../../../src-shared/sim/rigid/rigidWorld'
import { G } from './scenes'

/** Height of the ball's bottom at the top of its first rebound, dropped from rest at height h. */
function reboundHeight(e: number, h: number, dt: number): number {
  const r = 0.1
  const world = new RigidWorld(
    [{ id: 'ball', name: 'Ball', shape: 'sphere', scale: [2 * r, 2 * r, 2 * r], density: 1000, position: [0, h + r, 0], orientation: [0, 0, 0, 1], restitution: e, friction: 0.5 }],
    { gravity: [0, -G, 0], box: { min: [-2, 0, -2], max: [2, 4, 2] } },
  )
  const b = world.bodies[0]
  let rising = false, apex = 0
  for (let s = 0; s < 3 / dt; s++) {
    world.step(dt)
    if (b.v[1] > 0) rising = true
    if (rising) apex = Math.max(apex, b.x[1] - r)
    if (rising && b.v[1] < 0) return apex
  }
  throw new Error('the ball did not rebound')
}

describe('ball dropped on the floor', () => {
  for (const e of [0.5, 0.8]) {
    it(`restitution ${e}: rebounds to e^2 = ${e * e} of a 1 m drop within 5% (dt 1 ms)`, () => {
      const ratio = reboundHeight(e, 1, 1 / 1000) / (e * e)
      expect(Math.abs(ratio - 1)).toBeLessThan(0.05)
    })
  }
})
