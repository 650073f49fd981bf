// The volume budget of the tetrahedral liquid (volumeControl.ts) counts what emitters add and
// what leaves through open sides, so the volume control must neither eat an inflow nor keep
// liquid that has left. Answers known from outside the code:
// - a spherical inflow emitter of radius r, its liquid leaving at speed v into an empty tank
//   without gravity, adds v pi r^2 a second (the flux out through its downstream half), on top
//   of the sphere it fills at once;
// - a slab of water moving at speed v towards an open side of the tank, without gravity,
//   leaves through it at v times the slab's cross-section a second.
// Both at resolution 48 (contouring cells 4.2 cm), with the volume control on; the volume the
// surface holds is compared with those budgets within 10%.
import { describe, expect, it } from 'vitest'
import { sceneObject } from '../../../src-shared/scene/examples/build'
import type { SceneDocument } from '../../../src-shared/scene/types'
import { createBakeSolver } from '../../../src-shared/sim/registry'
import { bakeKernels } from '../bakeKernels'

const FPS = 24

function bake(doc: SceneDocument, frames: number): { start: number; end: number } {
  const solver = createBakeSolver(doc, 'domain', bakeKernels(doc, 'domain'))
  const start = solver.frame().stats.volume
  for (let f = 1; f <= frames; f++) solver.stepFrame(f)
  return { start, end: solver.frame().stats.volume }
}

function tank(params: Record<string, unknown>, objects: SceneDocument['objects']): SceneDocument {
  return {
    meta: { name: 'Budget', fps: FPS, frameStart: 1, frameEnd: 48 },
    objects: [sceneObject('domain', 'domain', 'Tank', { solver: 'tetliquid', position: [0, 1, 0], size: [2, 2, 2], resolution: 48, cfl: 2, maxSubsteps: 8, gravity: [0, 0, 0], ...params }), ...objects],
    tracks: [],
    meshes: [],
  }
}

describe('the tetrahedral liquid\'s volume budget', () => {
  it('an inflow emitter adds v pi r^2 a second (within 10%)', () => {
    const r = 0.15, v = 1.5, frames = 12
    const doc = tank({}, [
      sceneObject('jet', 'emitter', 'Jet', { shape: 'sphere', fluid: 'liquid', behavior: 'inflow', position: [-0.6, 1, 0], scale: [2 * r, 2 * r, 2 * r], velocity: [v, 0, 0], rate: 1 }),
    ])
    const { end } = bake(doc, frames)
    const expected = (4 / 3) * Math.PI * r ** 3 + v * Math.PI * r * r * (frames / FPS)
    console.log(`inflow: ${end.toFixed(4)} m^3 after ${frames} frames, budget ${expected.toFixed(4)} m^3 (${(100 * (end / expected - 1)).toFixed(1)}%)`)
    expect(Math.abs(end / expected - 1)).toBeLessThan(0.1)
  }, 300_000)

  it('liquid leaving through an open side leaves the budget (within 10%)', () => {
    const v = 1, frames = 12
    // A slab 0.6 m long across the whole tank's section, 0.4 m from the open +x side.
    const doc = tank({ openXMax: true }, [
      sceneObject('slab', 'emitter', 'Slab', { shape: 'box', fluid: 'liquid', behavior: 'geometry', position: [0.3, 1, 0], scale: [0.6, 0.6, 0.6], velocity: [v, 0, 0] }),
    ])
    const { start, end } = bake(doc, frames)
    // The slab's front reaches the side after 0.4 s; from then on it leaves at v x 0.36 m^2.
    const left = Math.max(0, frames / FPS - 0.4) * v * 0.36
    const expected = start - left
    console.log(`outflow: ${end.toFixed(4)} m^3 after ${frames} frames from ${start.toFixed(4)}, budget ${expected.toFixed(4)} m^3 (${(100 * (end / expected - 1)).toFixed(1)}%)`)
    expect(Math.abs(end / expected - 1)).toBeLessThan(0.1)
  }, 300_000)
})
