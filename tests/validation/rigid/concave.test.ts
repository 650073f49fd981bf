// A concave body: a U-shaped block (a closed mesh, its distance field a sampled grid) rests
// on the floor, and a cube dropped into its cavity comes to rest on the cavity's floor, not
// on the posts: what a convex approximation would get wrong.
import { describe, expect, it } from 'vitest'
import { RigidWorld } from '../../../src-shared/sim/rigid/rigidWorld'
import { G, boxDesc } from './scenes'
import { lPrism, uPrism } from '../../unit/rigid/meshes'

const room = { min: [-2, 0, -2], max: [2, 3, 2] }

describe('concave bodies', () => {
  it('a U block rests on the floor and holds a cube at the bottom of its cavity (heights within 1% of the cube size, dt 1/240 s)', () => {
    const s = 0.4, dt = 1 / 240
    const world = new RigidWorld(
      [
        { id: 'u', name: 'U block', shape: 'mesh', mesh: uPrism(s), density: 700, position: [-0.6, 0.05, 0], orientation: [0, 0, 0, 1], restitution: 0.2, friction: 0.6 },
        // Cavity: x in [1, 2] s, y in [1, 2] s of the U's coordinates; the cube is 0.25 m.
        boxDesc('cube', [0.25, 0.25, 0.25], [-0.6 + 1.5 * s, s + 0.35, 0.5 * s], { density: 700, restitution: 0.2, friction: 0.6 }),
      ],
      { gravity: [0, -G, 0], box: room },
    )
    for (let k = 0; k < 3 / dt; k++) world.step(dt)
    const [u, cube] = world.bodies
    const origin = u.originPosition()
    // The U stands on the floor where it was put, upright.
    expect(Math.abs(origin[1])).toBeLessThan(0.01 * 0.25)
    expect(Math.hypot(origin[0] + 0.6, origin[2])).toBeLessThan(0.01)
    expect(Math.hypot(u.q[0], u.q[1], u.q[2])).toBeLessThan(0.002)
    // The cube sits on the cavity floor (y = s) with its centre half its size above it.
    expect(Math.abs(cube.x[1] - (s + 0.125))).toBeLessThan(0.01 * 0.25)
    for (const b of world.bodies) expect(Math.hypot(b.v[0], b.v[1], b.v[2])).toBeLessThan(1e-3)
  })

  it('an L block dropped on its foot settles upright with its foot on the floor (within 1% of its size)', () => {
    const s = 0.3, dt = 1 / 240
    const world = new RigidWorld(
      [{ id: 'l', name: 'L block', shape: 'mesh', mesh: lPrism(s), density: 500, position: [0, 0.1, 0], orientation: [0, 0, 0, 1], restitution: 0.3, friction: 0.5 }],
      { gravity: [0, -G, 0], box: room },
    )
    for (let k = 0; k < 2 / dt; k++) world.step(dt)
    const l = world.bodies[0]
    expect(Math.abs(l.originPosition()[1])).toBeLessThan(0.01 * 3 * s)
    expect(Math.hypot(l.q[0], l.q[1], l.q[2])).toBeLessThan(0.002)
    expect(Math.hypot(l.v[0], l.v[1], l.v[2])).toBeLessThan(1e-3)
  })
})
