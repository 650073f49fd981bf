// What a bake's checkpoint costs: the 64^3 smoke (the Blender peer scene), the grid liquid's
// 64^3 dam break and the hybrid gas's ramp jet, each stepped a few frames on its default kernels
// and checkpointed; their states deflated at level 1 with zlib's default strategy and with the
// run-length strategy the bake runner uses (src-main/bake/checkpointDeflate.ts), beside a frame's
// step time. Best of 3; prints figures, never fails on time.
//   npx vitest run --config tests/bench/vitest.config.ts checkpoint
import { constants, deflateRawSync, type ZlibOptions } from 'node:zlib'
import { inflateSync } from 'fflate'
import { expect, it } from 'vitest'
import { CHECKPOINT_DEFLATE } from '../../src-main/bake/checkpointDeflate'
import { damBreakScene } from '../../src-shared/scene/examples/damBreak'
import { rampJetScene } from '../../src-shared/scene/examples/hybridGases'
import type { SceneDocument } from '../../src-shared/scene/types'
import { createBakeSolver } from '../../src-shared/sim/registry'
import { blenderSmokeScene } from '../../src-shared/sim/smoke/benchScene'
import { bakeKernels } from '../validation/bakeKernels'

const STRATEGIES: [string, ZlibOptions][] = [
  ['level 1, default strategy', { level: 1, strategy: constants.Z_DEFAULT_STRATEGY }],
  ['level 1, run-length (the runner)', CHECKPOINT_DEFLATE],
]

function best(f: () => void): number {
  let t = Infinity
  for (let r = 0; r < 3; r++) {
    const t0 = performance.now()
    f()
    t = Math.min(t, performance.now() - t0)
  }
  return t
}

function measure(label: string, doc: SceneDocument, hostId: string, frames: number): void {
  const solver = createBakeSolver(doc, hostId, bakeKernels(doc, hostId))
  const t0 = performance.now()
  for (let f = 1; f <= frames; f++) solver.stepFrame(f)
  const stepMs = (performance.now() - t0) / frames
  const raw = solver.checkpoint()
  const lines = [`${label}: ${frames} frames at ${stepMs.toFixed(0)} ms a frame; checkpoint ${(raw.length / 2 ** 20).toFixed(1)} MiB raw`]
  for (const [name, opts] of STRATEGIES) {
    let packed = new Uint8Array(0)
    const ms = best(() => (packed = deflateRawSync(raw, opts)))
    // The runner restores with fflate: the stream must give the state back bit for bit.
    expect(Buffer.from(inflateSync(packed)).equals(Buffer.from(raw))).toBe(true)
    lines.push(`  ${name}: ${ms.toFixed(0)} ms (${((raw.length / 2 ** 20) / (ms / 1000)).toFixed(0)} MiB/s), ${(packed.length / 2 ** 20).toFixed(2)} MiB (${((100 * packed.length) / raw.length).toFixed(0)}% of raw); every tenth frame: ${((100 * ms) / (10 * stepMs)).toFixed(1)}% of the bake's step time`)
  }
  console.log(lines.join('\n'))
}

it('checkpoint compression: smoke, grid liquid, hybrid gas', () => {
  measure('smoke 64^3 (Blender peer scene)', blenderSmokeScene(64), 'domain', 12)
  measure('grid liquid, dam break 64^3', damBreakScene({ resolution: 64 }).doc, 'domain', 10)
  const jet = rampJetScene({ frames: 4 }).doc
  measure('hybrid gas, ramp jet', jet, jet.objects.find((o) => o.kind === 'domain')!.id, 4)
})
