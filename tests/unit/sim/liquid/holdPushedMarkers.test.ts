// The cells a wet rigid body moves into keep their markers in the pressure solve
// (rigidFluid.ts holdPushedMarkers): a ball of radius 0.12 m in a 1 m box of 20 cells (5 cm),
// wetted by a shell of marker cells around it, labels exactly the cells of at least MIN_COUNT
// markers within a cell of its surface (where the rigid step left it) that it moves into by
// more than a quarter cell over the substep; too slowly, or at rest, it labels none; a cell of
// one marker never joins.
import { describe, expect, it } from 'vitest'
import { liquidFamily } from '../../../../src-shared/sim/liquid/family'
import { RigidFluid } from '../../../../src-shared/sim/liquid/rigidFluid'
import { AIR, LIQUID } from '../../../../src-shared/sim/liquid/viscosity'
import { tankScene } from '../../../validation/rigidfluid/scenes'

const H = 1 / 24

function labelled(velocity: [number, number, number], markers: number): { joined: number[]; expected: number[]; phi: Float32Array } {
  const doc = tankScene({ resolution: 20, size: [1, 1, 1], waterLevel: 0, gravity: [0, 0, 0], bodies: [{ id: 'b', shape: 'sphere', position: [0, 0.5, 0], scale: [0.24, 0.24, 0.24], relativeDensity: 0.5, params: { initialVelocity: velocity } }] })
  const { setup } = liquidFamily.compileSetup(doc, 'domain', {})
  const { grid } = setup
  const { nx, ny, nz, dx, origin } = grid
  const rigid = new RigidFluid(setup.rigidBodies!, grid, setup.sides, setup.gravity, new Float32Array(nx * ny * nz).fill(1))
  const kind = new Uint8Array(nx * ny * nz).fill(AIR)
  const count = new Int32Array(nx * ny * nz)
  const phi = new Float32Array(nx * ny * nz).fill(dx)
  const centre = (c: number): [number, number, number] => [origin[0] + ((c % nx) + 0.5) * dx, origin[1] + ((Math.floor(c / nx) % ny) + 0.5) * dx, origin[2] + (Math.floor(c / (nx * ny)) + 0.5) * dx]
  // Markers in every cell whose centre lies within two cells outside the ball (it is wet by them).
  for (let c = 0; c < count.length; c++) {
    const [x, y, z] = centre(c)
    const d = Math.hypot(x, y - 0.5, z) - 0.12
    if (d >= -dx && d < 2 * dx) count[c] = markers
  }
  rigid.advance(H, 0, 1, [], kind, count)
  // Where the rigid step left the ball (it moves on by v h).
  const at = rigid.states()[0].position
  const expected: number[] = []
  for (let c = 0; c < count.length; c++) {
    if (count[c] < 2) continue
    const [x, y, z] = centre(c)
    const r = Math.hypot(x - at[0], y - at[1], z - at[2])
    const d = r - 0.12
    const into = ((x - at[0]) * velocity[0] + (y - at[1]) * velocity[1] + (z - at[2]) * velocity[2]) / r
    if (d >= 0 && d < dx && into * H > 0.25 * dx) expected.push(c)
  }
  rigid.holdPushedMarkers(kind, count, phi, H)
  const joined: number[] = []
  for (let c = 0; c < kind.length; c++) if (kind[c] === LIQUID) joined.push(c)
  return { joined, expected, phi }
}

describe('cells a wet body pushes into keep their markers in the solve', () => {
  it('a ball at 1 m/s along +x: exactly the marker cells ahead of it by more than a quarter cell per substep, their phi just inside', () => {
    const { joined, expected, phi } = labelled([1, 0, 0], 3)
    expect(expected.length).toBeGreaterThan(10)
    expect(joined).toEqual(expected)
    for (const c of joined) expect(phi[c]).toBeLessThan(0)
    // All on the ball's leading side (it sits at x = 0.042 m, in column 10).
    for (const c of joined) expect(c % 20).toBeGreaterThanOrEqual(10)
  })

  it('none when the ball is too slow (0.2 m/s: 0.17 cell a substep), when a cell holds one marker, or when nothing moves', () => {
    expect(labelled([0.2, 0, 0], 3).joined).toEqual([])
    expect(labelled([1, 0, 0], 1).joined).toEqual([])
    expect(labelled([0, 0, 0], 3).joined).toEqual([])
  })
})
