import { describe, it, expect } from 'vitest'
import { specFor } from '../../../src-shared/scene/specs'
import { defaultCage, defaultParams } from '../../../src-shared/scene/defaults'
import {
  normalizeParams,
  validateCage,
  validateChannel,
  validateMeta,
  validateParam,
  validateParams,
} from '../../../src-shared/scene/validate'
import type { CageGeometry, ProjectMeta } from '../../../src-shared/scene/types'

const spec = (kind: Parameters<typeof specFor>[0], key: string) => {
  const s = specFor(kind, key)
  if (!s) throw new Error(`no spec ${kind}.${key}`)
  return s
}

describe('validateParam', () => {
  it('accepts in-range values including the bounds', () => {
    expect(validateParam(spec('emitter', 'rate'), 0)).toBeNull()
    expect(validateParam(spec('emitter', 'rate'), 1000)).toBeNull()
    expect(validateParam(spec('domain', 'resolution'), 8)).toBeNull()
    expect(validateParam(spec('domain', 'solver'), 'liquid')).toBeNull()
    expect(validateParam(spec('emitter', 'velocity'), [1, -2, 3.5])).toBeNull()
  })

  it('rejects NaN and Infinity with the label', () => {
    expect(validateParam(spec('emitter', 'rate'), NaN)).toBe('Rate must be a finite number (got NaN)')
    expect(validateParam(spec('emitter', 'rate'), Infinity)).toBe('Rate must be a finite number (got Infinity)')
    expect(validateParam(spec('emitter', 'temperature'), -Infinity)).toMatch(/^Temperature must be a finite number/)
  })

  it('rejects out of range values naming the range, unit and value', () => {
    expect(validateParam(spec('domain', 'resolution'), 5000)).toBe('Resolution must be between 8 and 1024 cells (got 5000)')
    expect(validateParam(spec('emitter', 'rate'), -0.5)).toBe('Rate must be between 0 and 1000 1/s (got -0.5)')
    expect(validateParam(spec('emitter', 'rate'), 1000.5)).toMatch(/^Rate must be between 0 and 1000 1\/s \(got 1000.5\)$/)
  })

  it('rejects non-integer ints and non-numbers', () => {
    expect(validateParam(spec('domain', 'resolution'), 64.5)).toBe('Resolution must be a whole number (got 64.5)')
    expect(validateParam(spec('emitter', 'rate'), '3')).toBe('Rate must be a number (got "3")')
    expect(validateParam(spec('emitter', 'rate'), undefined)).toMatch(/^Rate must be a number/)
  })

  it('rejects bad enum values and lists the options', () => {
    const msg = validateParam(spec('domain', 'solver'), 'plasma')
    expect(msg).toBe('Solver must be one of smoke, liquid, tetliquid, hybrid (got "plasma")')
    expect(validateParam(spec('emitter', 'shape'), 'torus')).toMatch(/^Shape must be one of box, sphere, cylinder/)
    expect(validateParam(spec('emitter', 'fluid'), 3)).toMatch(/^Fluid must be one of gas, liquid/)
  })

  it('checks each vec3 component and the length', () => {
    expect(validateParam(spec('emitter', 'position'), [0, NaN, 0])).toBe('Position y must be a finite number (got NaN)')
    expect(validateParam(spec('emitter', 'scale'), [1, 1, 0])).toBe('Scale z must be between 0.001 and 1000 (got 0)')
    expect(validateParam(spec('emitter', 'rotation'), [36001, 0, 0])).toBe('Rotation x must be between -36000 and 36000 deg (got 36001)')
    expect(validateParam(spec('emitter', 'position'), [0, 0])).toMatch(/^Position must be a list of 3 numbers/)
    expect(validateParam(spec('emitter', 'position'), 0)).toMatch(/^Position must be a list of 3 numbers/)
  })
})

describe('validateParams', () => {
  it('passes complete default params', () => {
    expect(validateParams('domain', defaultParams('domain'))).toEqual([])
  })

  it('reports unknown keys by name', () => {
    const issues = validateParams('emitter', { ...defaultParams('emitter'), viscosity: 3 })
    expect(issues).toHaveLength(1)
    expect(issues[0].path).toBe('viscosity')
    expect(issues[0].message).toContain('"viscosity"')
    expect(issues[0].message).toContain('Emitter')
  })

  it('reports missing keys unless partial', () => {
    const { rate: _, ...rest } = defaultParams('emitter')
    const issues = validateParams('emitter', rest)
    expect(issues).toEqual([{ path: 'rate', message: expect.stringContaining('Rate') }])
    expect(validateParams('emitter', rest, { partial: true })).toEqual([])
    expect(validateParams('emitter', { rate: 5 }, { partial: true })).toEqual([])
    expect(validateParams('emitter', { rate: NaN }, { partial: true })).toEqual([{ path: 'rate', message: 'Rate must be a finite number (got NaN)' }])
  })

  it('reports every bad value with its key as path', () => {
    const params = { ...defaultParams('domain'), resolution: 5000, solver: 'x', cfl: Infinity }
    const paths = validateParams('domain', params).map((i) => i.path).sort()
    expect(paths).toEqual(['cfl', 'resolution', 'solver'])
  })

  it('rejects minSubsteps > maxSubsteps', () => {
    const issues = validateParams('domain', { ...defaultParams('domain'), minSubsteps: 5, maxSubsteps: 2 })
    expect(issues).toHaveLength(1)
    expect(issues[0].path).toBe('minSubsteps')
    expect(issues[0].message).toMatch(/Min substeps \(5\).*Max substeps \(2\)/)
    expect(validateParams('domain', { ...defaultParams('domain'), minSubsteps: 3, maxSubsteps: 3 })).toEqual([])
    expect(validateParams('domain', { minSubsteps: 5, maxSubsteps: 2 }, { partial: true })).toHaveLength(1)
    expect(validateParams('domain', { minSubsteps: 5 }, { partial: true })).toEqual([])
  })

  it('rejects a zero vortex direction', () => {
    const issues = validateParams('vortexSeed', { ...defaultParams('vortexSeed'), direction: [0, 0, 0] })
    expect(issues).toHaveLength(1)
    expect(issues[0].path).toBe('direction')
    expect(issues[0].message).toMatch(/^Direction must not be the zero vector/)
    expect(validateParams('vortexSeed', { ...defaultParams('vortexSeed'), direction: [0, 0, -0.5] })).toEqual([])
  })

  it('does not treat inherited object properties as present', () => {
    const issues = validateParams('heatSource', { position: [0, 0, 0], temperature: 300 })
    expect(issues.map((i) => i.path)).toEqual(['radius', 'rate'])
  })
})

describe('normalizeParams', () => {
  it('fills missing keys from defaults and keeps given ones', () => {
    const out = normalizeParams('emitter', { rate: 7, extra: 'kept' })
    expect(out.rate).toBe(7)
    expect(out.extra).toBe('kept')
    expect(out.velocity).toEqual([0, 1, 0])
    expect(out.shape).toBe('sphere')
    expect(validateParams('emitter', { ...out, extra: undefined }).map((i) => i.path)).toEqual(['extra'])
  })
})

describe('validateCage', () => {
  const cube = defaultCage

  it('accepts the default cube and an open single quad', () => {
    expect(validateCage(cube())).toEqual([])
    expect(validateCage({ positions: [0, 0, 0, 1, 0, 0, 1, 1, 0, 0, 1, 0], faces: [[0, 1, 2, 3]] })).toEqual([])
  })

  it('rejects an out-of-range vertex index naming the face and index', () => {
    const cage = cube()
    cage.faces[3] = [3, 7, 6, 12]
    const issues = validateCage(cage)
    expect(issues).toHaveLength(1)
    expect(issues[0].path).toBe('faces[3]')
    expect(issues[0].message).toContain('face 3')
    expect(issues[0].message).toContain('12')
    expect(issues[0].message).toContain('8 vertices')
  })

  it('rejects degenerate faces (repeated vertex, too few vertices)', () => {
    const cage = cube()
    cage.faces[1] = [4, 5, 5, 7]
    const issues = validateCage(cage)
    expect(issues.map((i) => i.path)).toEqual(['faces[1]'])
    expect(issues[0].message).toMatch(/face 1 is degenerate.*vertex 5/)

    const small: CageGeometry = { positions: cube().positions, faces: [[0, 1]] }
    expect(validateCage(small)[0]).toEqual({ path: 'faces[0]', message: expect.stringContaining('at least 3') })
  })

  it('rejects a non-manifold edge', () => {
    const cage = cube()
    // A third face on edge 0-1 (already shared by the -z and -y faces).
    cage.faces.push([0, 1, 6])
    const issues = validateCage(cage)
    expect(issues).toHaveLength(1)
    expect(issues[0].message).toMatch(/edge 0-1 is shared by 3 faces \(0, 2, 6\)/)
    expect(issues[0].path).toBe('faces[6]')
  })

  it('rejects duplicate faces regardless of winding or start vertex', () => {
    const cage = cube()
    cage.faces.push([1, 0, 3, 2])
    const issues = validateCage(cage)
    expect(issues.some((i) => i.path === 'faces[6]' && /duplicates face 0/.test(i.message))).toBe(true)
  })

  it('rejects bad positions: length, non-finite, too few vertices, no faces', () => {
    expect(validateCage({ positions: [...cube().positions, 1], faces: cube().faces }).map((i) => i.path)).toContain('positions')
    const nan = cube()
    nan.positions[4] = NaN
    expect(validateCage(nan)).toEqual([{ path: 'positions[4]', message: expect.stringMatching(/vertex 1 y must be a finite number/) }])
    const tiny = validateCage({ positions: [0, 0, 0, 1, 0, 0, 0, 1, 0], faces: [[0, 1, 2]] })
    expect(tiny.map((i) => i.message)).toEqual(['A cage needs at least 4 vertices (got 3)'])
    expect(validateCage({ positions: cube().positions, faces: [] }).map((i) => i.path)).toEqual(['faces'])
  })
})

describe('validateMeta', () => {
  const ok: ProjectMeta = { name: 'Shot 1', fps: 24, frameStart: 1, frameEnd: 250 }

  it('accepts sensible settings', () => {
    expect(validateMeta(ok)).toEqual([])
    expect(validateMeta({ ...ok, frameStart: 10, frameEnd: 10 })).toEqual([])
  })

  it('checks name, fps, frame range', () => {
    expect(validateMeta({ ...ok, name: '  ' }).map((i) => i.path)).toEqual(['name'])
    expect(validateMeta({ ...ok, fps: 0 })).toEqual([{ path: 'fps', message: 'Frame rate must be between 1 and 1000 fps (got 0)' }])
    expect(validateMeta({ ...ok, fps: NaN }).map((i) => i.path)).toEqual(['fps'])
    expect(validateMeta({ ...ok, frameStart: 300 })).toEqual([{ path: 'frameStart', message: 'Start frame (300) must not be after End frame (250)' }])
    expect(validateMeta({ ...ok, frameEnd: 2_000_000 }).map((i) => i.path)).toEqual(['frameEnd'])
    expect(validateMeta({ ...ok, frameStart: -200_000 }).map((i) => i.path)).toEqual(['frameStart'])
    expect(validateMeta({ ...ok, frameStart: 1.5 })[0].message).toMatch(/Start frame must be a whole number/)
  })
})

describe('validateChannel', () => {
  it('accepts keyframable scalar and vec3 component channels in range', () => {
    expect(validateChannel('emitter', 'rate', 5)).toBeNull()
    expect(validateChannel('emitter', 'position.1', -3)).toBeNull()
    expect(validateChannel('domain', 'size.2', 4)).toBeNull()
  })

  it('rejects unknown, non-keyframable and wrongly addressed channels', () => {
    expect(validateChannel('emitter', 'viscosity', 1)).toMatch(/"viscosity"/)
    expect(validateChannel('domain', 'solver', 0)).toMatch(/cannot be animated/)
    expect(validateChannel('emitter', 'shape', 0)).toMatch(/cannot be animated/)
    expect(validateChannel('emitter', 'position', 1)).toMatch(/^Position is a vector/)
    expect(validateChannel('emitter', 'rate.1', 1)).toMatch(/^Rate is not a vector/)
  })

  it('checks the value against the range', () => {
    expect(validateChannel('emitter', 'rate', 2000)).toBe('Rate must be between 0 and 1000 1/s (got 2000)')
    expect(validateChannel('emitter', 'scale.0', 0)).toBe('Scale x must be between 0.001 and 1000 (got 0)')
    expect(validateChannel('emitter', 'rate', NaN)).toBe('Rate must be a finite number (got NaN)')
  })
})
