// Scene -> solver input: the grid of a domain, frame/time mapping, keyframed transform
// velocities (linear and angular, in simulated seconds), defaults of the smoke parameters.
import { describe, expect, it } from 'vitest'
import { domainGrid } from '../../../src-shared/sim/compile'
import { compileSmokeInput as compileInput, compileSmokeScene as compileScene } from '../../../src-shared/sim/smoke/compileSmoke'
import { blenderSmokeScene } from '../../../src-shared/sim/smoke/benchScene'
import { SMOKE_DOMAIN_PARAMS, SMOKE_EMITTER_PARAMS } from '../../../src-shared/sim/smoke/params'
import { rotationVector } from '../../../src-shared/sim/transformRates'
import { eulerXYZDegToMatrix } from '../../../src-shared/geometry/primitiveSdf'
import { validateParam } from '../../../src-shared/scene/validate'
import type { Track } from '../../../src-shared/scene/types'
import { boxScene, FPS, obj } from './scenes'

describe('compileScene', () => {
  it('puts `resolution` cells along the longest side, rounds the others, keeps the centre', () => {
    const g = domainGrid([1, 2, 3], [2, 1, 0.3], 32)
    expect(g.dx).toBe(2 / 32)
    expect([g.nx, g.ny, g.nz]).toEqual([32, 16, 5])
    expect(g.origin[0] + 0.5 * g.nx * g.dx).toBeCloseTo(1, 12)
    expect(g.origin[1] + 0.5 * g.ny * g.dx).toBeCloseTo(2, 12)
    expect(g.origin[2] + 0.5 * g.nz * g.dx).toBeCloseTo(3, 12)
  })

  it('compiles the Blender peer scene: 2 m closed box on the ground, source and obstacle in Y-up', () => {
    const doc = blenderSmokeScene(32)
    const setup = compileScene(doc, 'domain')
    expect([setup.grid.nx, setup.grid.ny, setup.grid.nz]).toEqual([32, 32, 32])
    expect(setup.grid.origin).toEqual([-1, 0, -1])
    expect(Object.values(setup.sides).every((s) => s === 'closed')).toBe(true)
    const input = compileInput(doc, 'domain', 0, 24)
    expect(input.family.vorticity).toBe(0.1)
    expect(input.emitters[0].position).toEqual([0, 0.3, 0])
    expect(input.emitters[0].scale).toEqual([0.3, 0.3, 0.3])
    expect(input.obstacles[0].position).toEqual([0.1, 1.2, 0])
    expect(input.obstacles[0].scale).toEqual([0.4, 0.4, 0.4])
    expect(input.frameDt).toBeCloseTo(1 / 24, 15)
  })

  it('reads the smoke parameters with their defaults, and the defaults are valid values', () => {
    for (const spec of [...SMOKE_DOMAIN_PARAMS, ...SMOKE_EMITTER_PARAMS]) expect(validateParam(spec, spec.default)).toBeNull()
    const input = compileInput(boxScene(16, {}), 'domain', 0, FPS)
    expect(input.family.vorticity).toBe(0.1)
    expect(input.family.buoyancy.ambientTemperature).toBe(293.15)
    expect(input.family.vortexParticles).toEqual({ mode: 'force', confinement: 4, strengthWeight: 0.02, radiusCells: 4 })
  })
})

describe('compileInput', () => {
  it('evaluates keys at frame 1 + t fps and differentiates transforms over one frame in simulated time', () => {
    const tracks: Track[] = [
      // 0.48 m per second along x, a quarter turn per second about y, both linear.
      { objectId: 'o', path: 'position.0', keys: [{ frame: 1, value: 0, interp: 'linear' }, { frame: 25, value: 0.48, interp: 'linear' }] },
      { objectId: 'o', path: 'rotation.1', keys: [{ frame: 1, value: 0, interp: 'linear' }, { frame: 25, value: 90, interp: 'linear' }] },
      { objectId: 'domain', path: 'vorticity', keys: [{ frame: 1, value: 0, interp: 'linear' }, { frame: 25, value: 1, interp: 'linear' }] },
    ]
    const doc = boxScene(16, { vorticity: 0 }, [obj('o', 'obstacle', { shape: 'box', scale: [0.2, 0.2, 0.2] })], tracks)
    const input = compileInput(doc, 'domain', 0.5, FPS)
    expect(input.frame).toBe(13)
    expect(input.family.vorticity).toBeCloseTo(0.5, 12)
    const o = input.obstacles[0]
    expect(o.position[0]).toBeCloseTo(0.24, 12)
    expect(o.linearVelocity[0]).toBeCloseTo(0.48, 9)
    expect(o.angularVelocity[1]).toBeCloseTo(Math.PI / 2, 9)
    expect(Math.abs(o.angularVelocity[0]) + Math.abs(o.angularVelocity[2])).toBeLessThan(1e-12)
    // Slow motion: the same keyed motion happens in half the simulated time.
    const slow = compileInput(boxScene(16, { vorticity: 0, timeScale: 0.5 }, doc.objects.slice(1), tracks), 'domain', 0.5, FPS)
    expect(slow.frameDt).toBeCloseTo(0.5 / FPS, 15)
    expect(slow.obstacles[0].linearVelocity[0]).toBeCloseTo(0.96, 9)
  })

  it('recovers rotation vectors of any angle, including half turns', () => {
    for (const [deg, axis] of [
      [[30, 0, 0], [1, 0, 0]],
      [[0, 0, -75], [0, 0, -1]],
      [[0, 180, 0], [0, 1, 0]],
      [[1e-9, 0, 0], [1, 0, 0]],
    ] as const) {
      const w = rotationVector(eulerXYZDegToMatrix(deg))
      const angle = (Math.abs(deg[0] + deg[1] + deg[2]) * Math.PI) / 180
      expect(Math.hypot(w[0], w[1], w[2])).toBeCloseTo(angle, 9)
      const s = angle > 0 ? 1 / angle : 0
      expect(Math.abs(w[0] * s * axis[0] + w[1] * s * axis[1] + w[2] * s * axis[2])).toBeCloseTo(1, 9)
    }
  })
})
