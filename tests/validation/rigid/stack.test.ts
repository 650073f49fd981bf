// A stack of five boxes must rest for 10 s with no box drifting more than 1% of a box size,
// at the time steps a fluid bake uses. This is what shock propagation (Guendelman et al.
// 2003, section 6) is for: without it, the contact iterations leave the upper boxes sinking
// into the lower ones.
import { describe, expect, it } from 'vitest'
import { RigidWorld, type RigidBodyDesc } from '../../../src-shared/sim/rigid/rigidWorld'
import { G, boxDesc, corners, maxDisplacement, worldPoints } from './scenes'

/** Largest displacement of any corner of any box over `seconds`, as a fraction of the box size. */
function stackDrift(dt: number, seconds: number): number {
  const size = 0.5
  const bodies: RigidBodyDesc[] = []
  // Slightly staggered, as an artist stacks them: alternate 4 cm offsets in x and z.
  for (let i = 0; i < 5; i++) {
    const o = i % 2 === 0 ? 0.02 : -0.02
    bodies.push(boxDesc(`box${i}`, [size, size, size], [o, size / 2 + size * i, -o], { density: 400 + 100 * i }))
  }
  const world = new RigidWorld(bodies, { gravity: [0, -G, 0], box: { min: [-3, 0, -3], max: [3, 4, 3] } })
  const c = corners([size / 2, size / 2, size / 2])
  const start = world.bodies.map((b) => worldPoints(b, c))
  let drift = 0
  for (let s = 0; s < Math.round(seconds / dt); s++) {
    world.step(dt)
    for (let i = 0; i < 5; i++) drift = Math.max(drift, maxDisplacement(worldPoints(world.bodies[i], c), start[i]))
  }
  return drift / size
}

describe('stack of five boxes', () => {
  for (const hz of [96, 240]) {
    it(`rests for 10 s at dt = 1/${hz} s: no corner of any box moves more than 1% of the box size`, () => {
      expect(stackDrift(1 / hz, 10)).toBeLessThan(0.01)
    })
  }
})
