// Two bodies colliding: impulses are equal and opposite, so linear momentum is conserved;
// with e = 1 and no friction kinetic energy is too, and the velocities after a head-on
// impact are Newton's: v1' = (m1 u1 + m2 u2 + m2 e (u2 - u1)) / (m1 + m2), and symmetrically.
import { describe, expect, it } from 'vitest'
import { RigidWorld, type RigidBodyDesc } from '../../../src-shared/sim/rigid/rigidWorld'
import { axisAngle, boxDesc, kineticEnergy } from './scenes'

const space = { min: [-4, -4, -4], max: [4, 4, 4] }

function run(bodies: RigidBodyDesc[], seconds: number, dt = 1 / 240) {
  const world = new RigidWorld(bodies, { gravity: [0, 0, 0], box: space })
  const [a, b] = world.bodies
  const p0 = [0, 1, 2].map((k) => a.mass * a.v[k] + b.mass * b.v[k])
  const e0 = kineticEnergy(world.bodies)
  for (let s = 0; s < seconds / dt; s++) world.step(dt)
  const p1 = [0, 1, 2].map((k) => a.mass * a.v[k] + b.mass * b.v[k])
  return { world, a, b, momentumError: Math.hypot(p1[0] - p0[0], p1[1] - p0[1], p1[2] - p0[2]) / Math.hypot(...p0), energyRatio: kineticEnergy(world.bodies) / e0 }
}

const newton = (m1: number, m2: number, u1: number, u2: number, e: number) => [
  (m1 * u1 + m2 * u2 + m2 * e * (u2 - u1)) / (m1 + m2),
  (m1 * u1 + m2 * u2 + m1 * e * (u1 - u2)) / (m1 + m2),
]

const sphere = (id: string, x: number, v: number, density: number, e: number, mu = 0): RigidBodyDesc => ({
  id, name: id, shape: 'sphere', scale: [0.4, 0.4, 0.4], density, position: [x, 0, 0], orientation: [0, 0, 0, 1], linearVelocity: [v, 0, 0], restitution: e, friction: mu,
})

describe('two bodies colliding head-on', () => {
  it('spheres 1:3 in mass, e = 1: momentum within 1%, kinetic energy within 2%, velocities Newton\'s within 1%', () => {
    const r = run([sphere('a', -1, 2, 1000, 1), sphere('b', 1, -1, 3000, 1)], 1.5)
    expect(r.momentumError).toBeLessThan(0.01)
    expect(Math.abs(r.energyRatio - 1)).toBeLessThan(0.02)
    const [va, vb] = newton(r.a.mass, r.b.mass, 2, -1, 1)
    expect(Math.abs(r.a.v[0] - va)).toBeLessThan(0.01 * Math.abs(va))
    expect(Math.abs(r.b.v[0] - vb)).toBeLessThan(0.01 * Math.abs(vb))
  })

  it('spheres, e = 0.5: momentum within 1%, velocities Newton\'s within 1%', () => {
    const r = run([sphere('a', -1, 2, 1000, 0.5), sphere('b', 1, -1, 3000, 0.5)], 1.5)
    expect(r.momentumError).toBeLessThan(0.01)
    const [va, vb] = newton(r.a.mass, r.b.mass, 2, -1, 0.5)
    expect(Math.abs(r.a.v[0] - va)).toBeLessThan(0.01 * Math.abs(va))
    expect(Math.abs(r.b.v[0] - vb)).toBeLessThan(0.01 * Math.abs(vb))
  })

  it('boxes meeting face to face, e = 1, 1:2 in mass: momentum within 1%, kinetic energy within 2%, velocities Newton\'s within 1%, no spin', () => {
    const r = run([
      boxDesc('a', [0.4, 0.4, 0.4], [-1, 0, 0], { density: 500, restitution: 1, friction: 0.4, linearVelocity: [1.5, 0, 0] }),
      boxDesc('b', [0.4, 0.4, 0.4], [1, 0, 0], { density: 1000, restitution: 1, friction: 0.4, linearVelocity: [-1.5, 0, 0] }),
    ], 1.5)
    expect(r.momentumError).toBeLessThan(0.01)
    expect(Math.abs(r.energyRatio - 1)).toBeLessThan(0.02)
    const [va, vb] = newton(r.a.mass, r.b.mass, 1.5, -1.5, 1)
    expect(Math.abs(r.a.v[0] - va)).toBeLessThan(0.01 * Math.abs(va))
    expect(Math.abs(r.b.v[0] - vb)).toBeLessThan(0.01 * Math.abs(vb))
    expect(Math.hypot(...r.a.w) + Math.hypot(...r.b.w)).toBeLessThan(0.01)
  })

  it('boxes meeting off-centre (faces overlapping in part), e = 1: momentum within 1%, kinetic energy within 2%', () => {
    // The contact patch is off both centres of mass, so the bodies may leave spinning
    // (the split between spin and translation depends on the impulse distribution over
    // the patch); energy and momentum do not.
    const r = run([
      boxDesc('a', [0.4, 0.4, 0.4], [-1, 0, 0], { density: 500, restitution: 1, friction: 0.4, linearVelocity: [1.5, 0, 0] }),
      boxDesc('b', [0.4, 0.4, 0.4], [1, 0.05, 0.03], { density: 1000, restitution: 1, friction: 0.4, linearVelocity: [-1.5, 0, 0] }),
    ], 1.5)
    expect(r.momentumError).toBeLessThan(0.01)
    expect(Math.abs(r.energyRatio - 1)).toBeLessThan(0.02)
    expect(r.b.v[0]).toBeGreaterThan(0)
  })

  it('off-centre impact of a tumbling box on a sphere with friction: momentum within 1%, kinetic energy does not grow', () => {
    const r = run([
      boxDesc('a', [0.5, 0.3, 0.4], [-1, 0.15, 0], { density: 800, restitution: 0.7, friction: 0.5, linearVelocity: [2, 0, 0.2], angularVelocity: [1, 2, 3], orientation: axisAngle([1, 2, 0.5], 40) }),
      sphere('b', 1, -1, 600, 0.7, 0.5),
    ], 1.5)
    expect(r.momentumError).toBeLessThan(0.01)
    expect(r.energyRatio).toBeLessThan(1.0001)
    // They did collide.
    expect(r.b.v[0]).toBeGreaterThan(-0.5)
  })
})
