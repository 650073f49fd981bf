// Same input, same bits: a cache of baked frames must not depend on when or how often a bake
// ran, and a bake resumed from a checkpoint must continue exactly as if never stopped.
import { describe, expect, it } from 'vitest'
import { compileSmokeScene as compileScene } from '../../../src-shared/sim/smoke/compileSmoke'
import { SmokeSolver } from '../../../src-shared/sim/smoke/smokeSolver'
import type { Track } from '../../../src-shared/scene/types'
import { boxScene, framesIdentical, obj, runFrames } from './scenes'

// Everything that draws random numbers or carries state: emitter-seeded and object-seeded
// vortex particles, a moving obstacle, MacCormack, warm-started multigrid PCG.
const tracks: Track[] = [
  { objectId: 'post', path: 'position.2', keys: [{ frame: 1, value: -0.2, interp: 'bezier' }, { frame: 12, value: 0.2, interp: 'bezier' }] },
  { objectId: 'post', path: 'rotation.1', keys: [{ frame: 1, value: 0, interp: 'linear' }, { frame: 12, value: 90, interp: 'linear' }] },
]
const doc = boxScene(
  24,
  { vorticity: 0.2, vortexConfinement: 4 },
  [
    obj('src', 'emitter', { shape: 'sphere', position: [0, 0.2, 0], scale: [0.25, 0.25, 0.25], velocity: [0, 0.8, 0], rate: 20, vortexRate: 120, vortexStrength: 15, vortexDirection: 'random' }),
    obj('post', 'obstacle', { shape: 'cylinder', position: [0.1, 0.6, -0.2], scale: [0.15, 0.3, 0.15] }),
    obj('seed', 'vortexSeed', { position: [-0.1, 0.45, 0], radius: 0.12, direction: [0, 0, 1], strength: 10, particleCount: 30 }),
  ],
  tracks,
)

describe('smoke determinism', () => {
  it('two runs of 10 frames at 24^3 are bitwise identical; a checkpoint restored into a new solver continues identically', () => {
    const a = runFrames(doc, 10)
    const b = runFrames(doc, 10)
    expect(a.frames[9].particles[0].count).toBeGreaterThan(30)
    for (let f = 0; f < 10; f++) expect(framesIdentical(a.frames[f], b.frames[f]), `frame ${f + 1}`).toBe(true)
    // The frames do change (a frozen solver would pass the above trivially).
    expect(framesIdentical(a.frames[8], a.frames[9])).toBe(false)

    const first = runFrames(doc, 5)
    const bytes = first.solver.checkpoint()
    // Continuing the checkpointed solver itself must not be disturbed by taking the checkpoint.
    const resumed = new SmokeSolver(compileScene(doc, 'domain'))
    resumed.restore(bytes)
    expect(resumed.time).toBe(first.solver.time)
    const rest = runFrames(doc, 5, {}, resumed, 5)
    for (let f = 0; f < 5; f++) expect(framesIdentical(rest.frames[f], a.frames[5 + f]), `restored frame ${f + 6}`).toBe(true)
    expect(rest.frames[4].frame).toBe(a.frames[9].frame)
  })

  it('rejects a checkpoint of another grid', () => {
    const small = runFrames(boxScene(16, {}), 1)
    const other = new SmokeSolver(compileScene(doc, 'domain'))
    expect(() => other.restore(small.solver.checkpoint())).toThrow(/does not match/)
    expect(() => other.restore(new Uint8Array(64))).toThrow(/not an Eddy checkpoint/)
  })
})
