// Static obstacles given as a signed distance field (here exact box SDFs, PrimitiveSdf):
// a box dropped on a block comes to rest on its top, and one dropped on a tilted block
// (a ramp steeper than nothing, shallower than its friction angle) rests on the ramp,
// aligned with it.
import { describe, expect, it } from 'vitest'
import { PrimitiveSdf } from '../../../src-shared/geometry/primitiveSdf'
import { RigidWorld } from '../../../src-shared/sim/rigid/rigidWorld'
import { G, boxDesc } from './scenes'

const room = { min: [-3, 0, -3], max: [3, 4, 3] }

describe('static obstacle SDF', () => {
  it('a 0.4 m box dropped on a block (top at y = 1) comes to rest on it: centre at 1.2 m within 1% of its size', () => {
    const dt = 1 / 240
    const block = new PrimitiveSdf('box', { position: [0, 0.5, 0], rotation: [0, 0, 0], scale: [2, 1, 2] })
    const world = new RigidWorld([boxDesc('box', [0.4, 0.4, 0.4], [0.3, 2, -0.2], { orientation: [0.1, 0, 0.05, 1] })], { gravity: [0, -G, 0], box: room, staticSdf: block })
    for (let s = 0; s < 3 / dt; s++) world.step(dt)
    const b = world.bodies[0]
    expect(Math.abs(b.x[1] - 1.2)).toBeLessThan(0.01 * 0.4)
    expect(Math.hypot(b.v[0], b.v[1], b.v[2])).toBeLessThan(1e-3)
    expect(Math.abs(b.x[0])).toBeLessThan(0.8)
  })

  it('a box on a block tilted 15 degrees (mu 0.8) rests on its slope, 0.2 m from it (within 1% of its size) and a face flat on it within 1 degree', () => {
    const dt = 1 / 240, deg = 15
    const ramp = new PrimitiveSdf('box', { position: [0, 0.5, 0], rotation: [0, 0, deg], scale: [3, 1, 2] })
    const world = new RigidWorld([boxDesc('box', [0.4, 0.4, 0.4], [0, 1.6, 0], { friction: 0.8 })], { gravity: [0, -G, 0], box: room, staticSdf: ramp })
    for (let s = 0; s < 3 / dt; s++) world.step(dt)
    const b = world.bodies[0]
    // Slope plane: normal n = (-sin, cos, 0) through the block's top centre (0, 0.5, 0) + 0.5 n.
    const a = (deg * Math.PI) / 180, n = [-Math.sin(a), Math.cos(a), 0]
    const dist = n[0] * b.x[0] + n[1] * (b.x[1] - 0.5) + n[2] * b.x[2] - 0.5
    expect(Math.abs(dist - 0.2)).toBeLessThan(0.01 * 0.4)
    // One of the cube's axes (columns of R) is the slope normal.
    const r = b.rotation()
    const cos = Math.max(...[0, 1, 2].map((k) => Math.abs(r[k] * n[0] + r[3 + k] * n[1] + r[6 + k] * n[2])))
    expect(Math.acos(Math.min(1, cos)) * (180 / Math.PI)).toBeLessThan(1)
    expect(Math.hypot(b.v[0], b.v[1], b.v[2])).toBeLessThan(1e-3)
  })
})
