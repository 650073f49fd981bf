// Drafting (Carlson 2004 fig. 20; the "drafting, kissing and tumbling" of Fortes, Joseph and
// Lundgren 1987): two spheres sinking one above the other, the trailing one in the leader's
// wake feels less drag, catches up and touches it. Stones of relative density 5.7, 16.5 cm
// across (the thesis's), 1.6 diameters apart centre to centre, in a 2 m tall tank at the app's
// defaults; the gap must close to contact (<= 1.1 diameters) before the leader lands, while
// the trailing stone falls faster than the leader on the way.
import { describe, expect, it } from 'vitest'
import { bodyIn, runTank, tankScene } from './scenes'

describe('drafting (Carlson 2004 fig. 20)', () => {
  it('the trailing stone catches up: gap from 1.6 to <= 1.1 diameters before the leader reaches the floor', () => {
    const d = 0.165
    const doc = tankScene({
      resolution: 64,
      size: [0.5, 2.0, 0.5],
      waterLevel: 1.95,
      bodies: [
        { id: 'lead', shape: 'sphere', position: [0, 1.55, 0], scale: [d, d, d], relativeDensity: 5.7 },
        { id: 'trail', shape: 'sphere', position: [0.01, 1.55 + 1.6 * d, 0], scale: [d, d, d], relativeDensity: 5.7 },
      ],
    })
    let closest = Infinity
    let faster = 0
    runTank(doc, 21, (_f, b) => {
      const a = bodyIn(b, 'lead'), t = bodyIn(b, 'trail')
      // Only while the leader is still well above the floor.
      if (a.position[1] < d) return
      closest = Math.min(closest, Math.hypot(t.position[0] - a.position[0], t.position[1] - a.position[1], t.position[2] - a.position[2]) / d)
      if (t.linearVelocity[1] < a.linearVelocity[1] - 0.1) faster++
    })
    expect(closest, `closest approach ${closest.toFixed(3)} diameters`).toBeLessThan(1.1)
    expect(faster).toBeGreaterThan(2)
  }, 300_000)
})
