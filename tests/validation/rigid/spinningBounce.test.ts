// A spinning ball strikes a wall (Carlson 2004 fig. 19: the lead ball at 1000 rpm). The answer
// from outside the code, Coulomb impact of a solid sphere (I = 2/5 m r^2) on a fixed wall with
// restitution e and friction mu: the normal speed u reverses to -e u; the contact point keeps
// sliding (its speed omega r is far above what friction can stop), so the tangential impulse is
// mu (1 + e) m u, which gives the ball mu (1 + e) u of sideways speed and takes
// mu (1 + e) u r m / I = 5 mu (1 + e) u / (2 r) off a spin about the wall's tangent axes; a spin
// about the wall's normal is untouched (its contact point does not move).
// At the steps the liquid family uses (1/240 s and finer), and in the three spin axes.
import { describe, expect, it } from 'vitest'
import { RigidWorld } from '../../../src-shared/sim/rigid/rigidWorld'

const r = 0.08, u = 1.76, w0 = 87, e = 0.3, mu = 0.3

function strike(axis: number, dt: number): { v: number[]; w: number[] } {
  const w: [number, number, number] = [0, 0, 0]
  w[axis] = w0
  const world = new RigidWorld(
    [{ id: 'b', name: 'Lead', shape: 'sphere', scale: [2 * r, 2 * r, 2 * r], density: 11000, position: [0.4, 0.3, 0], orientation: [0, 0, 0, 1], linearVelocity: [u, 0, 0], angularVelocity: w, restitution: e, friction: mu }],
    { gravity: [0, 0, 0], box: { min: [-0.5, 0, -0.25], max: [0.5, 2 / 3, 0.25] } },
  )
  for (let t = 0; t < 0.1; t += dt) world.step(dt)
  const b = world.bodies[0]
  return { v: Array.from(b.v), w: Array.from(b.w) }
}

describe('a spinning lead ball strikes a wall at 1.76 m/s (e = 0.3, mu = 0.3, 87 rad/s)', () => {
  const slide = mu * (1 + e) * u
  const spinLoss = (5 * mu * (1 + e) * u) / (2 * r)
  for (const dt of [1 / 240, 1 / 1000]) {
    it(`dt ${(1000 * dt).toFixed(2)} ms: rebounds at e u, slides off at mu (1 + e) u and loses 5 mu (1 + e) u / 2r of a tangent spin (${spinLoss.toFixed(1)} rad/s), within 1%`, () => {
      const about = (axis: number) => strike(axis, dt)
      const z = about(2), y = about(1), x = about(0)
      for (const s of [x, y, z]) expect(Math.abs(s.v[0] / (-e * u) - 1), `rebound ${s.v[0].toFixed(4)}`).toBeLessThan(0.01)
      // Spin about y: omega x r at the contact (r = +x r) is -z omega r, friction pushes +z.
      expect(Math.abs(y.v[2] / slide - 1), `sideways ${y.v[2].toFixed(4)}`).toBeLessThan(0.01)
      expect(Math.abs((w0 - y.w[1]) / spinLoss - 1), `spin ${y.w[1].toFixed(3)}`).toBeLessThan(0.01)
      // Spin about z: omega x r at the contact is +y omega r, friction pushes -y.
      expect(Math.abs(-z.v[1] / slide - 1), `sideways ${z.v[1].toFixed(4)}`).toBeLessThan(0.01)
      expect(Math.abs((w0 - z.w[2]) / spinLoss - 1), `spin ${z.w[2].toFixed(3)}`).toBeLessThan(0.01)
      // Spin about the wall's normal: untouched.
      expect(Math.abs(x.w[0] / w0 - 1)).toBeLessThan(0.01)
      expect(Math.hypot(x.v[1], x.v[2])).toBeLessThan(0.01 * slide)
    })
  }
})
