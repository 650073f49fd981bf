// The hybrid solver measures the cells' speed (a pass over every cell's plain velocity) once
// between two substeps: the next substep's size reuses what the guard after the last one
// measured on the same fields, also across a frame's end, and measures afresh after a restore.
// The frames are the bits of a solver that measures every time.
import { afterEach, describe, expect, it, vi } from 'vitest'
import { rampJetScene } from '../../../../src-shared/scene/examples/hybridGases'
import { HybridFields } from '../../../../src-shared/sim/hybrid/hybridFields'
import { createBakeSolver } from '../../../../src-shared/sim/registry'

/** The ramp jet on a small mesh, its CFL number lowered so that frames take several substeps. */
function scene() {
  const { doc } = rampJetScene({ resolution: 14, mode: 'hybrid', frames: 6 })
  doc.objects.find((o) => o.kind === 'domain')!.params.cfl = 0.5
  return doc
}

afterEach(() => {
  vi.restoreAllMocks()
})

describe('the hybrid solver\'s substep speed', () => {
  it('is measured once a substep (by its guard) after the first, the same bits as measuring every time, and afresh after a restore', () => {
    const fresh = createBakeSolver(scene(), 'domain')
    const freshFrames: Buffer[] = []
    // The reference: every speed measured anew (the reuse switched off by making each cached
    // value belong to no fields: maxSpeed called without the cells' part).
    const real = HybridFields.prototype.maxSpeed
    const measureAlways = vi.spyOn(HybridFields.prototype, 'maxSpeed').mockImplementation(function (this: HybridFields, input) {
      return real.call(this, input)
    })
    for (let f = 1; f <= 4; f++) {
      fresh.stepFrame(f)
      freshFrames.push(Buffer.from(fresh.checkpoint()))
    }
    measureAlways.mockRestore()
    const cellSpeed = vi.spyOn(HybridFields.prototype, 'cellSpeed')
    const reuse = createBakeSolver(scene(), 'domain')
    let substeps = 0
    for (let f = 1; f <= 4; f++) {
      substeps += reuse.stepFrame(f).substeps
      expect(Buffer.from(reuse.checkpoint()).equals(freshFrames[f - 1]), `frame ${f}`).toBe(true)
    }
    expect(substeps).toBeGreaterThan(4)
    // One guard a substep, and the very first substep's size.
    expect(cellSpeed).toHaveBeenCalledTimes(substeps + 1)
    // A restored solver has new fields: its first substep measures again.
    const restored = createBakeSolver(scene(), 'domain')
    restored.restore(reuse.checkpoint())
    cellSpeed.mockClear()
    const st = restored.stepFrame(5)
    expect(cellSpeed).toHaveBeenCalledTimes(st.substeps + 1)
  }, 120000)
})
