import { describe, it, expect } from 'vitest'
import { KIND_SPECS, specFor, kindLabel } from '../../../src-shared/scene/specs'
import { defaultParams, defaultCage, uniqueName } from '../../../src-shared/scene/defaults'
import { validateParam, validateParams, validateCage } from '../../../src-shared/scene/validate'
import { OBJECT_KINDS } from '../../../src-shared/scene/types'

const allSpecs = OBJECT_KINDS.flatMap((kind) => KIND_SPECS[kind].params.map((spec) => ({ kind, spec })))

describe('KIND_SPECS', () => {
  it('has a spec list for every object kind', () => {
    for (const kind of OBJECT_KINDS) {
      expect(KIND_SPECS[kind].kind).toBe(kind)
      expect(KIND_SPECS[kind].params.length).toBeGreaterThan(0)
      expect(kindLabel(kind)).not.toBe('')
    }
  })

  it('every default passes validateParam', () => {
    for (const { kind, spec } of allSpecs) {
      expect(validateParam(spec, spec.default), `${kind}.${spec.key}`).toBeNull()
    }
  })

  it('keys are unique within each kind', () => {
    for (const kind of OBJECT_KINDS) {
      const keys = KIND_SPECS[kind].params.map((p) => p.key)
      expect(new Set(keys).size).toBe(keys.length)
    }
  })

  it('vec3 defaults are 3 finite numbers', () => {
    for (const { spec } of allSpecs.filter(({ spec }) => spec.type === 'vec3')) {
      expect(Array.isArray(spec.default)).toBe(true)
      expect(spec.default as number[]).toHaveLength(3)
      for (const c of spec.default as number[]) expect(Number.isFinite(c)).toBe(true)
    }
  })

  it('every numeric parameter is keyframable (but a rigid body\'s physical constants); enums and bools are not', () => {
    // A rigid body's material and start-up values are read once, when the simulation takes it
    // over ('activeFrom'); only its transform is animated (until then).
    const RIGID_CONSTANTS = ['relativeDensity', 'initialVelocity', 'initialSpin', 'restitution', 'friction', 'activeFrom']
    for (const { kind, spec } of allSpecs) {
      const constant = kind === 'rigidBody' && RIGID_CONSTANTS.includes(spec.key)
      expect(spec.keyframable, `${kind}.${spec.key}`).toBe(['float', 'int', 'vec3'].includes(spec.type) && !constant)
    }
    expect(specFor('rigidBody', 'position')!.keyframable).toBe(true)
    expect(specFor('domain', 'solver')!.keyframable).toBe(false)
    expect(specFor('domain', 'resolution')!.keyframable).toBe(true)
    expect(specFor('vortexSeed', 'particleCount')!.keyframable).toBe(true)
    expect(specFor('emitter', 'rate')!.keyframable).toBe(true)
    expect(specFor('emitter', 'position')!.keyframable).toBe(true)
  })

  it('enum specs have options and matching labels; numeric specs have ranges; soft ranges lie inside hard ones', () => {
    for (const { spec } of allSpecs) {
      if (spec.type === 'enum') {
        expect(spec.options!.length).toBeGreaterThan(0)
        if (spec.optionLabels) expect(spec.optionLabels).toHaveLength(spec.options!.length)
      }
      if (spec.type === 'float' || spec.type === 'int' || spec.type === 'vec3') {
        expect(spec.min).toBeLessThan(spec.max!)
        if (spec.softMin !== undefined) expect(spec.softMin).toBeGreaterThanOrEqual(spec.min!)
        if (spec.softMax !== undefined) expect(spec.softMax).toBeLessThanOrEqual(spec.max!)
      }
    }
  })

  it('has the transform layout the brief asks for', () => {
    const keys = (kind: (typeof OBJECT_KINDS)[number]) => KIND_SPECS[kind].params.map((p) => p.key)
    for (const kind of ['obstacle', 'emitter', 'ccCage', 'rigidBody'] as const) expect(keys(kind).slice(0, 3)).toEqual(['position', 'rotation', 'scale'])
    expect(keys('rigidBody')).toEqual(['position', 'rotation', 'scale', 'shape', 'relativeDensity', 'initialVelocity', 'initialSpin', 'restitution', 'friction', 'activeFrom'])
    expect(specFor('rigidBody', 'shape')!.options).toEqual(['box', 'sphere', 'cylinder', 'mesh'])
    expect(keys('domain').slice(0, 8)).toEqual(['position', 'size', 'solver', 'resolution', 'cfl', 'minSubsteps', 'maxSubsteps', 'timeScale'])
    expect(keys('domain')).toContain('vorticity')
    expect(keys('vortexSeed')).toEqual(['position', 'radius', 'direction', 'strength', 'particleCount'])
    expect(keys('heatSource')).toEqual(['position', 'temperature', 'radius', 'rate'])
    expect(specFor('domain', 'position')!.default).toEqual([0, 1, 0])
    expect(specFor('domain', 'rotation')).toBeUndefined()
    expect(specFor('emitter', 'rotation')!.unit).toBe('deg')
    expect(specFor('domain', 'solver')!.options).toEqual(['smoke', 'liquid', 'tetliquid', 'hybrid'])
    expect(specFor('domain', 'resolution')).toMatchObject({ type: 'int', min: 8, max: 1024, default: 64, softMax: 256 })
    expect(specFor('emitter', 'nope')).toBeUndefined()
  })
})

describe('defaultParams', () => {
  it('gives valid, complete params for every kind', () => {
    for (const kind of OBJECT_KINDS) expect(validateParams(kind, defaultParams(kind))).toEqual([])
  })

  it('returns fresh vec3 arrays each call', () => {
    const a = defaultParams('emitter')
    const b = defaultParams('emitter')
    expect(a.position).not.toBe(b.position)
    ;(a.position as number[])[0] = 99
    expect(b.position).toEqual([0, 0, 0])
    expect(defaultParams('emitter').position).toEqual([0, 0, 0])
    expect(specFor('emitter', 'position')!.default).toEqual([0, 0, 0])
  })
})

describe('defaultCage', () => {
  it('is a valid closed unit cube centred at the origin', () => {
    const cage = defaultCage()
    expect(cage.positions).toHaveLength(24)
    expect(cage.faces).toHaveLength(6)
    expect(validateCage(cage)).toEqual([])
    for (const c of cage.positions) expect(Math.abs(c)).toBe(0.5)
  })

  it('winds every face counter-clockwise seen from outside (normal points away from centre)', () => {
    const { positions, faces } = defaultCage()
    const p = (i: number) => [positions[3 * i], positions[3 * i + 1], positions[3 * i + 2]]
    for (const face of faces) {
      const [a, b, c] = [p(face[0]), p(face[1]), p(face[2])]
      const u = [b[0] - a[0], b[1] - a[1], b[2] - a[2]]
      const v = [c[0] - a[0], c[1] - a[1], c[2] - a[2]]
      const n = [u[1] * v[2] - u[2] * v[1], u[2] * v[0] - u[0] * v[2], u[0] * v[1] - u[1] * v[0]]
      const centre = [0, 1, 2].map((k) => face.reduce((s, i) => s + p(i)[k], 0) / face.length)
      expect(n[0] * centre[0] + n[1] * centre[1] + n[2] * centre[2]).toBeGreaterThan(0)
    }
  })

  it('returns a fresh copy each call', () => {
    const a = defaultCage()
    a.positions[0] = 5
    a.faces[0][0] = 7
    expect(defaultCage().positions[0]).toBe(-0.5)
    expect(defaultCage().faces[0][0]).toBe(0)
  })
})

describe('uniqueName', () => {
  it('keeps a free name', () => {
    expect(uniqueName('Emitter', [])).toBe('Emitter')
    expect(uniqueName('Emitter', ['Domain'])).toBe('Emitter')
  })

  it('appends .001, .002 like Blender', () => {
    expect(uniqueName('Emitter', ['Emitter'])).toBe('Emitter.001')
    expect(uniqueName('Emitter', new Set(['Emitter', 'Emitter.001']))).toBe('Emitter.002')
  })

  it('fills the lowest gap and strips an existing numeric suffix', () => {
    expect(uniqueName('Emitter', ['Emitter', 'Emitter.002'])).toBe('Emitter.001')
    expect(uniqueName('Emitter.001', ['Emitter', 'Emitter.001'])).toBe('Emitter.002')
  })
})
