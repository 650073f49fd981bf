// The solver conformance suite: every registered family runs it on its own conformance scene
// (SolverFamily.conformanceScene), through the same createBakeSolver the bake runner uses.
//   - checkpoint, then restore into a fresh solver: the next frames are the same bits;
//   - the same bits on 1, 2 and 3 kernel threads (families whose kernels are TypeScript run
//     on the bake thread whatever the count: the check then holds trivially, and says so);
//   - Cancel stops a step between substeps with a CANCELLED error;
//   - frame() is accepted by the record writer and reads back equal at float32;
//   - a parameter out of its range is refused with a typed INVALID_PARAM naming the field.
import { describe, expect, it } from 'vitest'
import { isEddyError } from '../../../src-shared/api/errors'
import { decodeFrame, encodeFrame } from '../../../src-shared/formats/frameRecord'
import type { ConformanceScene, SolverFamily } from '../../../src-shared/sim/family'
import { createBakeSolver, FAMILIES, registerFamily } from '../../../src-shared/sim/registry'
import type { KernelBackend } from '../../../src-shared/sim/core/kernelBackend'
import { createKernelBackend } from '../../../src-main/sim/workerPool'
import { dyeFamily } from '../../fixtures/dyeFamily'
import { frameHash } from '../../fixtures/frameHash'

// The suite also holds a family registered from outside (the README's example), so it is known
// to run any family, not just the two it was written beside.
registerFamily(dyeFamily)

const FRAMES = 5

function solverFor(family: SolverFamily, scene: ConformanceScene, kernels?: KernelBackend) {
  return createBakeSolver(scene.doc, scene.hostId, {
    resolveMesh: (id) => scene.meshes.find((m) => m.id === id),
    ...(kernels ? { kernels, shared: kernels.kind === 'wasm' } : {}),
  })
}

/** Frame hashes of frames 1..FRAMES (frame 1 is the initial state), as a bake steps them. */
async function bakeHashes(family: SolverFamily, scene: ConformanceScene, threads: number): Promise<string[]> {
  const kernels = createKernelBackend(family.kernels, { threads })
  try {
    const solver = solverFor(family, scene, kernels)
    const out = [frameHash(solver.frame())]
    for (let f = 2; f <= FRAMES; f++) {
      solver.stepFrame(f - 1)
      out.push(frameHash(solver.frame()))
    }
    return out
  } finally {
    await (kernels as { dispose?: () => Promise<void> }).dispose?.()
  }
}

describe.each(FAMILIES.map((f) => [f.id, f] as const))('solver conformance: %s', (_id, family) => {
  it('checkpoint then restore continues bit for bit', () => {
    const scene = family.conformanceScene()
    const a = solverFor(family, scene)
    for (let f = 1; f <= 2; f++) a.stepFrame(f)
    const bytes = a.checkpoint()
    const expected: string[] = []
    for (let f = 3; f <= 4; f++) {
      a.stepFrame(f)
      expected.push(frameHash(a.frame()))
    }
    const b = solverFor(family, scene)
    b.restore(bytes)
    const got: string[] = []
    for (let f = 3; f <= 4; f++) {
      b.stepFrame(f)
      got.push(frameHash(b.frame()))
    }
    expect(got).toEqual(expected)
    // And the state moved: a restore that silently kept the initial state would not match.
    expect(new Set(expected).size).toBe(2)
  }, 60_000)

  it(`the same bits on 1, 2 and 3 threads (kernels: ${family.kernels})`, async () => {
    const scene = family.conformanceScene()
    const one = await bakeHashes(family, scene, 1)
    expect(new Set(one).size, 'every frame differs from the one before').toBe(FRAMES)
    expect(await bakeHashes(family, scene, 2)).toEqual(one)
    expect(await bakeHashes(family, scene, 3)).toEqual(one)
  }, 120_000)

  it('Cancel stops a step between substeps', () => {
    const scene = family.conformanceScene()
    // At least two substeps a frame, so there is a "between".
    scene.doc.objects.find((o) => o.id === scene.hostId)!.params.minSubsteps = 2
    const solver = solverFor(family, scene)
    let polls = 0
    let error: unknown = null
    try {
      solver.stepFrame(1, { shouldStop: () => ++polls > 1 })
    } catch (e) {
      error = e
    }
    expect(isEddyError(error) && error.code).toBe('CANCELLED')
    // Stopped at the first poll that answered true (between substeps, or between the phases of one).
    expect(polls).toBe(2)
  }, 60_000)

  it('frame() is accepted by the record writer and reads back equal', () => {
    const scene = family.conformanceScene()
    const solver = solverFor(family, scene)
    for (let f = 1; f <= 2; f++) solver.stepFrame(f)
    const frame = solver.frame()
    const back = decodeFrame(encodeFrame({ ...frame, frame: 3, stats: {} }, { precision: 'float32' }))
    expect(frameHash(back)).toBe(frameHash(frame))
    expect(back.volumes.length + back.particles.length + back.meshes.length).toBeGreaterThan(0)
  }, 60_000)

  it('a parameter out of its range is refused with a typed error naming it', () => {
    const scene = family.conformanceScene()
    const host = scene.doc.objects.find((o) => o.id === scene.hostId)!
    host.params[scene.badParam.key] = scene.badParam.value
    let error: unknown = null
    try {
      solverFor(family, scene)
    } catch (e) {
      error = e
    }
    expect(isEddyError(error) && { code: error.code, field: error.details?.field }).toEqual({ code: 'INVALID_PARAM', field: scene.badParam.key })
  })
})
