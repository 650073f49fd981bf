// SolverFamily.reads is what a bake's signature covers (src-main/bake/signature.ts): an object
// of a kind not listed must not change what the solver computes, or a stale cache would pass
// for valid. Every family bakes its conformance scene as it is and with one object of each kind
// it does not read (and a second host) placed over its host; the frames must be the same bits.
import { describe, expect, it } from 'vitest'
import { evaluateObject } from '../../../src-shared/scene/keyframes'
import { sceneObject } from '../../../src-shared/scene/examples/build'
import { OBJECT_KINDS, type ObjectKind, type SceneObject, type Vec3 } from '../../../src-shared/scene/types'
import type { ConformanceScene, SolverFamily } from '../../../src-shared/sim/family'
import { createBakeSolver, FAMILIES } from '../../../src-shared/sim/registry'
import { frameHash } from '../../fixtures/frameHash'

const FRAMES = 3

function hashes(scene: ConformanceScene): string[] {
  const solver = createBakeSolver(scene.doc, scene.hostId, { resolveMesh: (id) => scene.meshes.find((m) => m.id === id) })
  const out = [frameHash(solver.frame())]
  for (let f = 2; f <= FRAMES; f++) {
    solver.stepFrame(f - 1)
    out.push(frameHash(solver.frame()))
  }
  return out
}

/** The scene with an object of `kind` added, centred on the host, `size` metres across. */
function withObject(scene: ConformanceScene, kind: ObjectKind, size = 0.35): ConformanceScene {
  const host = scene.doc.objects.find((o) => o.id === scene.hostId)!
  const at = evaluateObject(host, scene.doc.tracks, 1).position as Vec3
  const extra: SceneObject = sceneObject(`extra-${kind}`, kind, `Extra ${kind}`, { position: [...at] as Vec3, ...(kind === 'domain' ? {} : kind === 'vortexSeed' || kind === 'heatSource' ? { radius: size } : { scale: [size, size, size] }) })
  return { ...scene, doc: { ...scene.doc, objects: [...scene.doc.objects, extra] } }
}

describe.each(FAMILIES.map((f) => [f.id, f] as const))('what %s reads', (_id, family: SolverFamily) => {
  const scene = family.conformanceScene()
  const reference = hashes(scene)

  it.each(OBJECT_KINDS.filter((k) => !family.reads.includes(k)))('an added %s changes none of its frames', (kind) => {
    expect(hashes(withObject(scene, kind))).toEqual(reference)
  })

  // Big enough to reach a surface host's cage as well as fill part of a domain.
  it(`an added ${family.reads[0]} over the host does change them (the check sees a change)`, () => {
    expect(hashes(withObject(scene, family.reads[0], 0.9))).not.toEqual(reference)
  })
})
