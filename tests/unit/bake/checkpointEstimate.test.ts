// The bake estimate's checkpoint bytes, which the disk check adds to the frames' (checkFits),
// against what the runner writes: each family's scene stepped a few frames, its state
// checkpointed and deflated as the runner deflates it (src-main/bake/checkpointDeflate.ts),
// compared with the estimate's bytes per checkpoint. The estimate may be generous (a bake's
// state grows as it goes) but within 2x either way of the state a few frames in.
import { describe, expect, it } from 'vitest'
import { deflateCheckpoint } from '../../../src-main/bake/checkpointDeflate'
import { estimateBake } from '../../../src-main/bake/estimate'
import { checkpointCount } from '../../../src-shared/sim/bakeCost'
import { damBreakScene } from '../../../src-shared/scene/examples/damBreak'
import { rampJetScene } from '../../../src-shared/scene/examples/hybridGases'
import { paintedTorusScene } from '../../../src-shared/scene/examples/paintedTorus'
import { tetDamBreakScene } from '../../../src-shared/scene/examples/tetLiquids'
import type { SceneDocument } from '../../../src-shared/scene/types'
import { createBakeSolver } from '../../../src-shared/sim/registry'
import { blenderSmokeScene } from '../../../src-shared/sim/smoke/benchScene'
import { bakeKernels } from '../../validation/bakeKernels'

const hostOf = (doc: SceneDocument): string => doc.objects.find((o) => o.kind === 'domain' || o.kind === 'ccCage')!.id

const CASES: [string, () => SceneDocument, number][] = [
  ['smoke (the Blender peer scene at 32^3)', () => blenderSmokeScene(32), 12],
  ['grid liquid (the dam break at 32)', () => damBreakScene({ resolution: 32 }).doc, 10],
  ['hybrid gas (the ramp jet at 20)', () => rampJetScene({ resolution: 20 }).doc, 6],
  ['tetrahedral liquid (the dam break at 24)', () => tetDamBreakScene({ resolution: 24 }).doc, 4],
  ['surface flow (the painted torus, 16 cells a patch)', () => paintedTorusScene().doc, 6],
]

describe('the estimate of a checkpoint', () => {
  for (const [label, scene, frames] of CASES) {
    it(`${label}: within 2x of the deflated state after ${frames} frames`, () => {
      const doc = scene()
      const host = hostOf(doc)
      const every = 10
      const e = estimateBake(doc, host, 100, 'float16', every)
      const estimated = e.checkpointBytes / checkpointCount(100, every)
      const solver = createBakeSolver(doc, host, bakeKernels(doc, host))
      for (let f = 1; f <= frames; f++) solver.stepFrame(f)
      const raw = solver.checkpoint()
      const written = deflateCheckpoint(raw).length
      console.log(`${label}: estimated ${(estimated / 2 ** 20).toFixed(2)} MiB a checkpoint; written ${(written / 2 ** 20).toFixed(2)} MiB (raw ${(raw.length / 2 ** 20).toFixed(2)} MiB); ratio ${(estimated / written).toFixed(2)}`)
      expect(estimated / written).toBeGreaterThan(0.5)
      expect(estimated / written).toBeLessThan(2)
    }, 120_000)
  }
})
