// ObstacleField zeroes its velocity and solid fractions only when something wrote them since
// (an empty domain then never commits those grids' pages): a scene whose obstacles go away
// must still end with both all zero, however many rebuilds follow.
import { describe, expect, it } from 'vitest'
import type { DomainSides } from '../../../../src-shared/sim/core/boundaries'
import { MacGrid } from '../../../../src-shared/sim/core/grid'
import { ObstacleField } from '../../../../src-shared/sim/core/obstacleField'
import { closeSolidFaces } from '../../../../src-shared/sim/liquid/levelSet'
import type { ObstacleInput } from '../../../../src-shared/sim/solver'

const spec = { nx: 10, ny: 8, nz: 9, dx: 0.1, origin: [0, 0, 0] as [number, number, number] }
const sides: DomainSides = { xMin: 'closed', xMax: 'closed', yMin: 'closed', yMax: 'open', zMin: 'closed', zMax: 'closed' }

function spinningBall(x: number): ObstacleInput {
  const zero: [number, number, number] = [0, 0, 0]
  return { id: 'ball', name: 'Ball', shape: 'sphere', position: [x, 0.4, 0.45], rotation: zero, scale: [0.5, 0.5, 0.5], positionRate: [0.3, 0, 0], rotationRate: zero, scaleRate: zero, linearVelocity: [0.3, 0, 0], angularVelocity: [0, 0, 4], mesh: null, meshId: null }
}

const allZero = (a: Float32Array) => a.every((v) => v === 0)

describe('ObstacleField after its obstacles go away', () => {
  it('has zero velocity and solid fractions again, and keeps them through later rebuilds', () => {
    const f = new ObstacleField(spec, sides)
    f.update([], 0)
    expect(allZero(f.solid) && allZero(f.velocity.u) && allZero(f.velocity.v)).toBe(true)
    f.update([spinningBall(0.5)], 0)
    expect(f.moving).toBe(true)
    expect(allZero(f.solid)).toBe(false)
    expect(allZero(f.velocity.u) && allZero(f.velocity.v)).toBe(false)
    for (let round = 0; round < 2; round++) {
      f.update([], 0.1 * (round + 1))
      expect(f.hasObstacles).toBe(false)
      expect(allZero(f.solid), `round ${round}`).toBe(true)
      for (const a of [f.velocity.u, f.velocity.v, f.velocity.w]) expect(allZero(a)).toBe(true)
    }
    // And back: the ball's fields again, as the first time.
    const fresh = new ObstacleField(spec, sides)
    fresh.update([spinningBall(0.6)], 0)
    f.update([spinningBall(0.6)], 0)
    expect(Array.from(f.solid)).toEqual(Array.from(fresh.solid))
    expect(Array.from(f.velocity.u)).toEqual(Array.from(fresh.velocity.u))
  })

  it('closing its fractions around solid cells in place (as the liquid does) gives what a closed copy holds', () => {
    const f = new ObstacleField(spec, sides)
    f.update([spinningBall(0.5)], 0)
    const copy = new MacGrid(spec)
    closeSolidFaces(f.fractions, f.solid, copy)
    const open = [f.fractions.u, f.fractions.v, f.fractions.w].map((a) => a.filter((v) => v > 0).length)
    closeSolidFaces(f.fractions, f.solid, f.fractions)
    const after = [f.fractions.u, f.fractions.v, f.fractions.w].map((a) => a.filter((v) => v > 0).length)
    expect(after.some((n, a) => n < open[a])).toBe(true) // some faces of solid cells were open
    for (const a of ['u', 'v', 'w'] as const) expect(Array.from(f.fractions[a])).toEqual(Array.from(copy[a]))
  })
})
