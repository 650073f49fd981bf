// The viscosity's 'auto' preconditioner remembers a stalled cycle (viscosity.ts CYCLE_REST):
// for the next solves it goes to incomplete Cholesky directly. That memory decides which
// preconditioner runs and so the low bits of every later frame, so the liquid's checkpoint
// carries it: a bake resumed from a checkpoint taken while the cycle rests continues bit for bit.
// Scene: the toothpaste example (a 1000 m^2/s jet, full stress, sticky walls: the cycle stalls
// from its first frames on) at its default resolution, 32.
//
// Tolerance: none, bit for bit.
import { describe, expect, it } from 'vitest'
import '../../../src-shared/sim/registry'
import { createBakeSolver } from '../../../src-shared/sim/registry'
import { toothpasteScene } from '../../../src-shared/scene/examples/toothpaste'
import { meltingBunnyScene } from '../../../src-shared/scene/examples/meltingBunny'
import { STALL_CHECK } from '../../../src-shared/sim/liquid/viscosity'
import { readCheckpoint } from '../../../src-shared/sim/core/checkpoint'
import { LIQUID_CHECKPOINT_KIND } from '../../../src-shared/sim/liquid/liquidCheckpoint'
import type { FrameData } from '../../../src-shared/sim/frame'
import type { LiquidStepStats } from '../../../src-shared/sim/liquid/liquidSolver'
import { bakeKernels } from '../bakeKernels'

function solver() {
  const { doc } = toothpasteScene()
  return createBakeSolver(doc, 'domain', bakeKernels(doc, 'domain'))
}

function bits(a: ArrayBufferView): Uint8Array {
  return new Uint8Array(a.buffer, a.byteOffset, a.byteLength)
}

function expectSameFrame(a: FrameData, b: FrameData): void {
  expect(a.particles[0].count).toBe(b.particles[0].count)
  expect(bits(a.particles[0].positions)).toEqual(bits(b.particles[0].positions))
  expect(bits(a.particles[0].attributes.velocity.data)).toEqual(bits(b.particles[0].attributes.velocity.data))
  for (let v = 0; v < a.volumes.length; v++) expect(bits(a.volumes[v].data)).toEqual(bits(b.volumes[v].data))
}

describe("viscosity 'auto' after a stalled cycle", () => {
  it('a bake resumed from a checkpoint taken while the cycle rests continues bit for bit', () => {
    const a = solver()
    const its: number[] = []
    for (let f = 1; f <= 4; f++) its.push((a.stepFrame(f) as LiquidStepStats).viscosityIterations)
    const bytes = a.checkpoint()
    // The cycle ran past its budget in these frames, and rests at the checkpoint.
    const rest = readCheckpoint(LIQUID_CHECKPOINT_KIND, bytes).meta.viscousCycleRest
    expect(rest).toBeGreaterThan(0)
    for (let f = 5; f <= 7; f++) a.stepFrame(f)
    const endA = a.frame()
    const b = solver()
    b.restore(bytes)
    for (let f = 5; f <= 7; f++) b.stepFrame(f)
    expectSameFrame(endA, b.frame())
    console.log(`toothpaste at 32: viscosity iterations in frames 1-4 ${its.join(' / ')}, ${rest} solves of rest left at the checkpoint`)
  }, 120_000)

  // The melting bunny's first solve: the solid wax block (uniform viscosity, so the contrast
  // rule keeps the cycle) is where the per-component cycle stalls (residual 0.69 of its start
  // after 10 iterations, 0.48 after 20). 'auto' hands over at STALL_CHECK instead of running
  // out MULTIGRID_BUDGET (60): its first frame costs at most STALL_CHECK iterations more than
  // incomplete Cholesky from the start (50 more before, at 60 wasted cycle iterations).
  it(`the melting bunny's stalled first solve hands over to incomplete Cholesky after ${STALL_CHECK} cycle iterations`, () => {
    const iterations = (pre: 'auto' | 'ic') => {
      const { doc, meshes } = meltingBunnyScene()
      const domain = doc.objects.find((o) => o.kind === 'domain')!
      const s = createBakeSolver(doc, domain.id, { ...bakeKernels(doc, domain.id), viscousPreconditioner: pre, resolveMesh: (id) => meshes.find((m) => m.id === id) })
      return (s.stepFrame(1) as LiquidStepStats).viscosityIterations
    }
    const auto = iterations('auto'), ic = iterations('ic')
    console.log(`melting bunny, frame 1: viscosity iterations auto ${auto}, incomplete Cholesky alone ${ic}`)
    expect(auto).toBeGreaterThanOrEqual(ic)
    expect(auto - ic).toBeLessThanOrEqual(STALL_CHECK + 0.05 * ic)
  }, 120_000)
})
