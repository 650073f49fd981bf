// Bad scenes fail early with typed errors that name the field; a configuration the solver
// cannot follow fails with the instability error instead of caching NaN frames.
import { describe, expect, it } from 'vitest'
import { compileSmokeInput as compileInput, compileSmokeScene as compileScene } from '../../../src-shared/sim/smoke/compileSmoke'
import { SmokeSolver } from '../../../src-shared/sim/smoke/smokeSolver'
import type { TriMesh } from '../../../src-shared/geometry/triMesh'
import type { SceneDocument } from '../../../src-shared/scene/types'
import { boxScene, FPS, obj, runFrames } from './scenes'
import { errorOf } from '../../fixtures/errorOf'


/** Sets params of object `id` in a copy of doc. */
function withParams(doc: SceneDocument, id: string, params: Record<string, unknown>): SceneDocument {
  return { ...doc, objects: doc.objects.map((o) => (o.id === id ? { ...o, params: { ...o.params, ...(params as object) } } : o)) }
}

const base = boxScene(16, {}, [
  obj('src', 'emitter', { shape: 'sphere', position: [0, 0.2, 0], scale: [0.2, 0.2, 0.2] }),
  obj('wall', 'obstacle', { shape: 'box', position: [0, 0.7, 0], scale: [0.3, 0.1, 0.3] }),
  obj('seed', 'vortexSeed', { position: [0, 0.5, 0] }),
])

describe('smoke input validation', () => {
  it.each([
    ['domain', 'cfl', NaN],
    ['domain', 'vorticity', Infinity],
    ['domain', 'buoyancyBeta', -Infinity],
    ['domain', 'size', [1, NaN, 1]],
    ['domain', 'timeScale', -1],
    ['emitter', 'rate', NaN],
    ['emitter', 'velocity', [0, Infinity, 0]],
    ['emitter', 'temperature', NaN],
    ['obstacle', 'position', [NaN, 0, 0]],
    ['obstacle', 'scale', [0, 1, 1]],
    ['vortexSeed', 'strength', Infinity],
    ['vortexSeed', 'direction', [0, 0, 0]],
  ])('%s %s = %s is an INVALID_PARAM naming the field', (kind, field, value) => {
    const id = { domain: 'domain', emitter: 'src', obstacle: 'wall', vortexSeed: 'seed' }[kind]!
    const doc = withParams(base, id, { [field]: value })
    const e = errorOf(() => compileScene(doc, 'domain'))
    expect(e.code).toBe('INVALID_PARAM')
    expect(e.details?.field).toBe(field)
    expect(e.details?.objectId).toBe(id)
    // compileInput checks the same at every time.
    expect(errorOf(() => compileInput(doc, 'domain', 0.5, FPS)).details?.field).toBe(field)
  })

  it('rejects resolutions outside the spec and grids too big for memory', () => {
    for (const resolution of [4, 2000, 10.5]) {
      const e = errorOf(() => compileScene(withParams(base, 'domain', { resolution }), 'domain'))
      expect(e.code).toBe('INVALID_PARAM')
      expect(e.details?.field).toBe('resolution')
    }
    const e = errorOf(() => compileScene(withParams(base, 'domain', { resolution: 1024 }), 'domain', { maxBytes: 1e9 }))
    expect(e.details?.field).toBe('resolution')
    expect(e.message).toMatch(/memory/)
  })

  it('rejects a missing domain, another kind of object and another solver', () => {
    expect(errorOf(() => compileScene(base, 'nope')).code).toBe('NOT_FOUND')
    expect(errorOf(() => compileScene(base, 'src')).details?.field).toBe('domainId')
    expect(errorOf(() => compileScene(withParams(base, 'domain', { solver: 'liquid' }), 'domain')).details?.field).toBe('solver')
    expect(errorOf(() => compileScene(withParams(base, 'domain', { minSubsteps: 5, maxSubsteps: 2 }), 'domain')).details?.field).toBe('minSubsteps')
    expect(errorOf(() => compileInput(base, 'domain', NaN, FPS)).details?.field).toBe('time')
    expect(errorOf(() => compileInput(base, 'domain', 0, 0)).details?.field).toBe('fps')
  })

  it('rejects a degenerate obstacle mesh (all triangles of zero area) and a missing mesh', () => {
    const flat: TriMesh = { positions: Float32Array.of(0, 0, 0, 1, 0, 0, 2, 0, 0, 0, 0, 0), indices: Uint32Array.of(0, 1, 2, 0, 3, 1) }
    const doc: SceneDocument = { ...base, objects: [...base.objects, obj('bunny', 'obstacle', { shape: 'mesh' }, { meshId: 'm1' })] }
    const e = errorOf(() => compileScene(doc, 'domain', { resolveMesh: (id) => (id === 'm1' ? flat : undefined) }))
    expect(e.code).toBe('INVALID_PARAM')
    expect(e.details?.field).toBe('meshId')
    expect(e.details?.objectId).toBe('bunny')
    expect(e.message).toMatch(/degenerate/)
    const missing = errorOf(() => compileScene(doc, 'domain', { resolveMesh: () => undefined }))
    expect(missing.code).toBe('NOT_FOUND')
    expect(missing.details?.field).toBe('meshId')
  })

  it('rejects a bad time step', () => {
    const setup = compileScene(base, 'domain')
    const solver = new SmokeSolver(setup)
    const input = compileInput(base, 'domain', 0, FPS)
    for (const dt of [NaN, -0.1, Infinity]) expect(errorOf(() => solver.step(dt, input)).details?.field).toBe('dt')
  })

  it('an absurd emitter velocity with one substep ends in the instability error, not NaN frames', () => {
    const doc = withParams(withParams(base, 'domain', { maxSubsteps: 1, minSubsteps: 1 }), 'src', { velocity: [0, 1000, 0], rate: 1000 })
    const e = errorOf(() => runFrames(doc, 3))
    expect(e.code).toBe('SIM_UNSTABLE')
    expect(e.message).toMatch(/^Simulation became unstable at t=/)
    expect(e.message).toMatch(/lower the time step \/ raise max substeps/)
    expect(typeof e.details?.time).toBe('number')
    expect(typeof e.details?.reason).toBe('string')
  })
})
