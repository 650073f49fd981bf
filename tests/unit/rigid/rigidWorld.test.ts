// The rigid world's API for the fluid coupling: frame states, world signed distances,
// inertia tensors, point velocities, collision accelerations (Carlson 2004, eqs. 68-69),
// kinematic and wet bodies, the speed bound, checkpoints, and refusals.
import { describe, expect, it } from 'vitest'
import { RigidWorld, type RigidBodyDesc, type RigidEnvironment } from '../../../src-shared/sim/rigid/rigidWorld'
import { EddyError } from '../../../src-shared/api/errors'
import { cube } from '../geometry/meshes'
import { lPrism } from './meshes'
import { G, axisAngle, boxDesc } from '../../validation/rigid/scenes'

const room: RigidEnvironment = { gravity: [0, -G, 0], box: { min: [-3, 0, -3], max: [3, 4, 3] } }

function quatMatrix(q: number[]): number[] {
  const [x, y, z, w] = q
  return [
    1 - 2 * (y * y + z * z), 2 * (x * y - w * z), 2 * (x * z + w * y),
    2 * (x * y + w * z), 1 - 2 * (x * x + z * z), 2 * (y * z - w * x),
    2 * (x * z - w * y), 2 * (y * z + w * x), 1 - 2 * (x * x + y * y),
  ]
}

const mul = (a: number[], b: number[]) => [0, 1, 2].flatMap((r) => [0, 1, 2].map((c) => a[3 * r] * b[c] + a[3 * r + 1] * b[3 + c] + a[3 * r + 2] * b[6 + c]))
const transpose = (a: number[]) => [a[0], a[3], a[6], a[1], a[4], a[7], a[2], a[5], a[8]]

describe('bodies and frame states', () => {
  const q = axisAngle([1, 2, 3], 50)
  const s = 0.5
  const world = new RigidWorld([{ id: 'l', name: 'L', shape: 'mesh', mesh: lPrism(s), density: 800, position: [0.5, 1, -0.2], orientation: q, linearVelocity: [1, 0, 0], angularVelocity: [0, 2, 0], restitution: 0.3, friction: 0.5 }], room)
  const b = world.bodies[0]
  const R = quatMatrix(q)
  // L = [0,2]x[0,1] (area 2) + [0,1]x[1,3] (area 2), times s: centroid (0.75, 1.25, 0.5) s.
  const com = [0.75 * s, 1.25 * s, 0.5 * s]

  it('x is the centre of mass: origin + R com; originPosition() gives the origin back (1e-12)', () => {
    for (let k = 0; k < 3; k++) {
      const expected = [0.5, 1, -0.2][k] + R[3 * k] * com[0] + R[3 * k + 1] * com[1] + R[3 * k + 2] * com[2]
      expect(b.x[k]).toBeCloseTo(expected, 6)
    }
    const o = b.originPosition()
    expect(Math.hypot(o[0] - 0.5, o[1] - 1, o[2] + 0.2)).toBeLessThan(1e-12)
  })

  it('states(): COM position, orientation, velocities, and the COM-centred mesh, as copies', () => {
    const [st] = world.states()
    expect(st.id).toBe('l')
    expect(st.position).toEqual([b.x[0], b.x[1], b.x[2]])
    expect(st.orientation.map((v, i) => v - q[i]).every((d) => Math.abs(d) < 1e-12)).toBe(true)
    expect(st.linearVelocity).toEqual([1, 0, 0])
    expect(st.angularVelocity).toEqual([0, 2, 0])
    const m = lPrism(s)
    for (let i = 0; i < m.positions.length; i++) expect(st.mesh.positions[i]).toBeCloseTo(m.positions[i] - com[i % 3], 6)
    expect(st.mesh.indices).toEqual(m.indices)
    st.mesh.positions[0] = 99
    expect(world.states()[0].mesh.positions[0]).not.toBe(99)
  })

  it('phi(world point) is the body-frame distance at R^T (p - x): the object-space box faces map through the pose', () => {
    // Object point (0.5 s, 0.5 s, 0.1) is inside the L's foot, 0.1 m from its face z = 0.
    const local = [0.5 * s - com[0], 0.5 * s - com[1], 0.1 - com[2]]
    const p = [0, 1, 2].map((k) => b.x[k] + R[3 * k] * local[0] + R[3 * k + 1] * local[1] + R[3 * k + 2] * local[2])
    expect(b.phi(p[0], p[1], p[2])).toBeCloseTo(-0.1, 2)
    // A point 0.1 m beyond the end face x = 2 s along the object's x axis.
    const out = [2 * s + 0.1 - com[0], 0.5 * s - com[1], 0.5 * s - com[2]]
    const p2 = [0, 1, 2].map((k) => b.x[k] + R[3 * k] * out[0] + R[3 * k + 1] * out[1] + R[3 * k + 2] * out[2])
    expect(b.phi(p2[0], p2[1], p2[2])).toBeCloseTo(0.1, 2)
    expect(b.phi(b.x[0] + 10, b.x[1], b.x[2])).toBeGreaterThan(9)
  })

  it('worldInertia = R I R^T and worldInverseInertia is its inverse (1e-9)', () => {
    const Iw = Array.from(b.worldInertia(new Float64Array(9)))
    const expected = mul(mul(R, Array.from(b.inertiaBody)), transpose(R))
    for (let i = 0; i < 9; i++) expect(Math.abs(Iw[i] - expected[i])).toBeLessThan(1e-9 * Math.abs(expected[0]))
    const prod = mul(Iw, Array.from(b.worldInverseInertia(new Float64Array(9))))
    for (let i = 0; i < 9; i++) expect(Math.abs(prod[i] - (i % 4 === 0 ? 1 : 0))).toBeLessThan(1e-9)
  })

  it('velocityAt = v + w x (p - x)', () => {
    const out = b.velocityAt(b.x[0] + 1, b.x[1], b.x[2] + 2, new Float64Array(3))
    // w = (0, 2, 0), r = (1, 0, 2): w x r = (2*2 - 0, 0 - 0, 0 - 2*1) = (4, 0, -2).
    expect(Array.from(out)).toEqual([1 + 4, 0, -2])
  })

  it('maxSpeedBound = max |v| + |w| r', () => {
    expect(world.maxSpeedBound()).toBeCloseTo(1 + 2 * b.boundingRadius, 12)
  })
})

describe('collision accelerations, kinematic and wet bodies', () => {
  it('a box resting on the floor: collisionAccel averages -gravity (9.81 up) within 1%, sideways and angular ones near zero', () => {
    const dt = 1 / 120
    const world = new RigidWorld([boxDesc('box', [0.4, 0.4, 0.4], [0, 0.2, 0])], room)
    const b = world.bodies[0]
    let sum = 0
    const n = 120
    for (let s = 0; s < n; s++) {
      world.step(dt)
      sum += b.collisionAccel[1]
      expect(Math.abs(b.collisionAccel[0]) + Math.abs(b.collisionAccel[2])).toBeLessThan(0.005 * G)
      expect(Math.hypot(...b.collisionAngularAccel)).toBeLessThan(0.1)
    }
    expect(Math.abs(sum / n / G - 1)).toBeLessThan(0.01)
  })

  it('collisionAccel of a collision = J / (M dt) and collisionAngularAccel = I^-1 (r x J) / dt: the step\'s velocity change over dt', () => {
    const dt = 1 / 240
    const world = new RigidWorld(
      [{ id: 'ball', name: 'ball', shape: 'sphere', scale: [0.3, 0.3, 0.3], density: 1000, position: [0, 0.152, 0], orientation: [0, 0, 0, 1], linearVelocity: [1, -3, 0], restitution: 0.5, friction: 0.3 }],
      { ...room, gravity: [0, 0, 0] },
    )
    const b = world.bodies[0]
    const v0 = Array.from(b.v), w0 = Array.from(b.w)
    world.step(dt)
    // No gravity: the whole velocity change is the impulses'.
    for (let k = 0; k < 3; k++) {
      expect(b.collisionAccel[k]).toBeCloseTo((b.v[k] - v0[k]) / dt, 6)
      expect(b.collisionAngularAccel[k]).toBeCloseTo((b.w[k] - w0[k]) / dt, 6)
    }
    // It bounced (e = 0.5) and friction spun it.
    expect(b.v[1]).toBeCloseTo(1.5, 6)
    expect(Math.abs(b.w[2])).toBeGreaterThan(0.1)
  })

  it('a kinematic box moving at 1 m/s pushes a dynamic sphere and keeps its own motion (infinite mass)', () => {
    const dt = 1 / 240
    const world = new RigidWorld(
      [
        boxDesc('paddle', [0.2, 0.6, 0.6], [-1, 0.4, 0], { kinematic: true, linearVelocity: [1, 0, 0] }),
        { id: 'ball', name: 'ball', shape: 'sphere', scale: [0.3, 0.3, 0.3], density: 200, position: [0, 0.15, 0], orientation: [0, 0, 0, 1], restitution: 0, friction: 0 },
      ],
      room,
    )
    const [paddle, ball] = world.bodies
    expect(paddle.invMass).toBe(0)
    for (let s = 0; s < 240; s++) {
      world.setKinematicPose(0, [-1 + (s + 1) * dt, 0.4, 0], [0, 0, 0, 1], [1, 0, 0], [0, 0, 0])
      world.step(dt)
    }
    expect(paddle.v[0]).toBe(1)
    expect(paddle.collisionAccel[0]).toBe(0)
    // The ball (e = 0) is carried along in front of the paddle at its speed.
    expect(ball.v[0]).toBeGreaterThan(0.95)
    expect(ball.x[0] - paddle.x[0]).toBeGreaterThan(0.24)
    // Switching it to dynamic gives it its mass back.
    paddle.kinematic = false
    expect(paddle.invMass).toBeCloseTo(1 / paddle.mass, 12)
  })

  it('a wet body (noGravity = 1) keeps its velocity in free flight; a dry one accelerates by g', () => {
    const dt = 1 / 100
    const world = new RigidWorld([boxDesc('wet', [0.2, 0.2, 0.2], [-1, 2, 0]), boxDesc('dry', [0.2, 0.2, 0.2], [1, 2, 0])], room)
    const wet = Uint8Array.of(1, 0)
    for (let s = 0; s < 10; s++) world.step(dt, { noGravity: wet })
    expect(world.bodies[0].v[1]).toBe(0)
    expect(world.bodies[1].v[1]).toBeCloseTo(-G * 0.1, 12)
  })
})

describe('free motion', () => {
  it('a tumbling brick in zero gravity keeps its angular momentum I w (1e-9) and kinetic energy (1e-4) over 2 s, precessing', () => {
    // Torque-free rotation about a non-principal axis: w changes direction (the body
    // precesses), L = R I R^T w stays fixed in the world.
    const world = new RigidWorld([boxDesc('brick', [0.6, 0.3, 0.15], [0, 2, 0], { angularVelocity: [3, 1, 2], orientation: axisAngle([1, 0.2, 0.4], 25) })], { ...room, gravity: [0, 0, 0] })
    const b = world.bodies[0]
    const I = new Float64Array(9)
    const L = () => {
      b.worldInertia(I)
      return [0, 1, 2].map((r) => I[3 * r] * b.w[0] + I[3 * r + 1] * b.w[1] + I[3 * r + 2] * b.w[2])
    }
    const E = () => {
      const l = L()
      return 0.5 * (l[0] * b.w[0] + l[1] * b.w[1] + l[2] * b.w[2])
    }
    const L0 = L(), E0 = E(), w0 = Array.from(b.w)
    for (let s = 0; s < 240; s++) world.step(1 / 120)
    const L1 = L()
    expect(Math.hypot(L1[0] - L0[0], L1[1] - L0[1], L1[2] - L0[2])).toBeLessThan(1e-9 * Math.hypot(...L0))
    expect(Math.abs(E() / E0 - 1)).toBeLessThan(1e-4)
    expect(Math.hypot(b.w[0] - w0[0], b.w[1] - w0[1], b.w[2] - w0[2])).toBeGreaterThan(0.1)
    expect(Math.abs(Math.hypot(...b.q) - 1)).toBeLessThan(1e-12)
  })
})

describe('checkpoints', () => {
  const scene = (): RigidBodyDesc[] => [
    boxDesc('a', [0.5, 0.3, 0.4], [-0.5, 1, 0], { orientation: axisAngle([1, 1, 0], 30), angularVelocity: [2, 0, 1] }),
    boxDesc('b', [0.4, 0.4, 0.4], [-0.45, 0.2, 0.05]),
    { id: 'c', name: 'c', shape: 'sphere', scale: [0.3, 0.3, 0.3], density: 900, position: [0.8, 1.5, 0], orientation: [0, 0, 0, 1], linearVelocity: [-2, 0, 0.5], restitution: 0.6, friction: 0.4 },
    { id: 'd', name: 'd', shape: 'mesh', mesh: lPrism(0.25), density: 600, position: [0.5, 0.5, -0.8], orientation: axisAngle([0, 1, 1], 70), restitution: 0.2, friction: 0.7 },
  ]

  it('serialise / restore into a new world continues bit for bit', () => {
    const dt = 1 / 150
    const a = new RigidWorld(scene(), room)
    for (let s = 0; s < 100; s++) a.step(dt)
    const saved = a.serialise()
    for (let s = 0; s < 100; s++) a.step(dt)
    const b = new RigidWorld(scene(), room)
    b.restore(saved)
    for (let s = 0; s < 100; s++) b.step(dt)
    const ea = a.serialise(), eb = b.serialise()
    expect(eb.length).toBe(ea.length)
    for (let i = 0; i < ea.length; i++) expect(Object.is(ea[i], eb[i])).toBe(true)
    // And the scene did something in those steps (collisions happened).
    expect(Math.hypot(...a.bodies[2].collisionAccel) + Math.hypot(...a.bodies[0].collisionAccel)).toBeGreaterThan(0)
  })

  it('restore refuses a checkpoint of another world', () => {
    const a = new RigidWorld(scene(), room)
    const b = new RigidWorld(scene().slice(0, 2), room)
    expect(() => b.restore(a.serialise())).toThrow(/checkpoint has 4 bodies, the world 2/)
    expect(() => b.restore(new Float64Array(5))).toThrow(/not a rigid-body checkpoint/)
  })
})

describe('refusals', () => {
  const message = (f: () => unknown): string => {
    try {
      f()
    } catch (e) {
      if (e instanceof EddyError) return `${e.code}: ${e.message}`
      throw e
    }
    return 'no error'
  }

  it('refuses bad bodies by name', () => {
    expect(message(() => new RigidWorld([boxDesc('a', [1, 1, 1], [0, 1, 0], { restitution: 1.5 })], room))).toMatch(/^INVALID_PARAM: Rigid body "a": restitution must be between 0 and 1/)
    expect(message(() => new RigidWorld([boxDesc('a', [1, 1, 1], [0, 1, 0], { friction: -1 })], room))).toMatch(/"a": friction must be/)
    expect(message(() => new RigidWorld([boxDesc('a', [1, 1, 1], [0, 1, 0], { density: 0 })], room))).toMatch(/"a": density must be a positive/)
    expect(message(() => new RigidWorld([boxDesc('a', [1, 0, 1], [0, 1, 0])], room))).toMatch(/"a": scale must be positive/)
    expect(message(() => new RigidWorld([boxDesc('a', [1, 1, 1], [0, NaN, 0])], room))).toMatch(/"a": position must be 3 finite numbers/)
    expect(message(() => new RigidWorld([boxDesc('a', [1, 1, 1], [0, 1, 0], { orientation: [0, 0, 0, 0] })], room))).toMatch(/"a": orientation quaternion has zero length/)
    expect(message(() => new RigidWorld([{ ...boxDesc('m', [1, 1, 1], [0, 1, 0]), shape: 'mesh' }], room))).toMatch(/"m": shape is "mesh" but no mesh was given/)
    const open = { positions: cube(0.5).positions, indices: cube(0.5).indices.slice(0, 30) }
    expect(message(() => new RigidWorld([{ ...boxDesc('m', [1, 1, 1], [0, 1, 0]), shape: 'mesh', mesh: open }], room))).toMatch(/"m": its mesh is not closed/)
    expect(message(() => new RigidWorld([boxDesc('a', [1, 1, 1], [0, 1, 0]), boxDesc('a', [1, 1, 1], [2, 1, 0])], room))).toMatch(/id "a" is used by two bodies/)
  })

  it('refuses a bad environment and a bad time step', () => {
    expect(message(() => new RigidWorld([], { ...room, box: { min: [0, 0, 0], max: [1, 0, 1] } }))).toMatch(/box must have finite min < max/)
    expect(message(() => new RigidWorld([], { ...room, gravity: [0, NaN, 0] }))).toMatch(/gravity must be 3 finite numbers/)
    expect(message(() => new RigidWorld([], { ...room, open: [true] }))).toMatch(/open must have 6 flags/)
    const w = new RigidWorld([boxDesc('a', [1, 1, 1], [0, 1, 0])], room)
    expect(message(() => w.step(0))).toMatch(/dt must be a positive finite number/)
    expect(message(() => w.step(0.01, { noGravity: new Uint8Array(0) }))).toMatch(/noGravity has 0 entries for 1 bodies/)
  })

  it('an open side has no wall: a box falls out through an open floor', () => {
    const w = new RigidWorld([boxDesc('a', [0.4, 0.4, 0.4], [0, 0.5, 0])], { ...room, open: [false, false, true, false, false, false] })
    for (let s = 0; s < 60; s++) w.step(1 / 60)
    expect(w.bodies[0].x[1]).toBeLessThan(-2)
  })
})
