// The estimate reads every setting exactly where the family's solver reads it, so a bake that
// would not fit cannot pass: a keyed resolution that jumps between frame 1 and the timeline's
// first frame gives the estimate the same grid the bake builds.
import { describe, expect, it } from 'vitest'
import { estimateBake } from '../../../src-main/bake/estimate'
import { damBreakScene } from '../../../src-shared/scene/examples/damBreak'
import { blenderSmokeScene } from '../../../src-shared/sim/smoke/benchScene'
import { createBakeSolver } from '../../../src-shared/sim/registry'
import type { SceneDocument } from '../../../src-shared/scene/types'

function keyResolution(doc: SceneDocument, hostId: string, at1: number, atStart: number, start: number): SceneDocument {
  return {
    ...doc,
    meta: { ...doc.meta, frameStart: start, frameEnd: start + 4 },
    tracks: [{ objectId: hostId, path: 'resolution', keys: [{ frame: 1, value: at1, interp: 'constant' }, { frame: start, value: atStart, interp: 'constant' }] }],
  }
}

describe('the estimate reads settings where the solver does', () => {
  it('liquid: at the timeline first frame (compileLiquidScene), not frame 1', () => {
    const base = damBreakScene({ resolution: 12 }).doc
    const host = base.objects.find((o) => o.kind === 'domain')!.id
    const doc = keyResolution(base, host, 12, 20, 10)
    const solver = createBakeSolver(doc, host)
    const e = estimateBake(doc, host, 5, 'float16', 10)
    expect(e.layout).toBe(solver.layout)
    expect(e.lower.value).toBe(20)
  })

  it('smoke: at frame 1 (compileSmokeScene)', () => {
    const base = blenderSmokeScene(12)
    const doc = keyResolution(base, 'domain', 12, 20, 10)
    const solver = createBakeSolver(doc, 'domain')
    expect(estimateBake(doc, 'domain', 5, 'float16', 10).layout).toBe(solver.layout)
  })
})
