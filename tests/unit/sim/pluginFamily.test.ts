// A solver family plugs in by registration alone: the dye family of tests/fixtures (one file,
// nothing else edited) gets its parameter in the domain's specs, an entry in the Solver menu
// and the About list, an estimate, and bakes through the real runner into the cache, frame
// for frame the same as stepping its solver by hand.
import fs from 'node:fs'
import path from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { decodeFrame } from '../../../src-shared/formats/frameRecord'
import { specFor } from '../../../src-shared/scene/specs'
import { createBakeSolver, FAMILIES, registerFamily } from '../../../src-shared/sim/registry'
import { estimateBake } from '../../../src-main/bake/estimate'
import { runBake } from '../../../src-main/bake/runner'
import { ProjectStore } from '../../../src-main/store/projectStore'
import { dyeFamily } from '../../fixtures/dyeFamily'
import { frameHash } from '../../fixtures/frameHash'
import { tempDir } from '../bake/bakeFixtures'

registerFamily(dyeFamily)
const dir = tempDir('eddy-dye-')
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }))

describe('a family registered from outside src-shared', () => {
  it('joins the spec table, the Solver menu and the About list', () => {
    expect(specFor('domain', 'dyeDiffusion')).toMatchObject({ unit: 'm²/s', group: 'Dye' })
    expect(specFor('domain', 'solver')?.options).toEqual(['smoke', 'liquid', 'tetliquid', 'hybrid', 'dye'])
    expect(FAMILIES.map((f) => f.id)).toEqual(['smoke', 'liquid', 'surface', 'tetliquid', 'hybrid', 'dye'])
  })

  it('bakes through the runner into the cache, the same bits as stepping it by hand', async () => {
    const { doc, hostId } = dyeFamily.conformanceScene()
    const file = path.join(dir, 'dye.eddy')
    const store = ProjectStore.create(file, doc.meta)
    store.apply({ objects: doc.objects.map((o, ord) => ({ id: o.id, after: o, ord })) })
    store.close()
    const log: string[] = []
    const r = await runBake({ projectPath: file, domainId: hostId, mode: 'bake', precision: 'float32' }, { log: (l) => log.push(l) })
    expect(r).toMatchObject({ state: 'done', framesWritten: 6 })
    expect(log[0]).toMatch(/12x12x12 grid, float32 cache/)
    expect(estimateBake(doc, hostId, 6, 'float32', 10)).toMatchObject({ layout: '12x12x12 grid', cells: 12 ** 3, cacheBytes: 6 * 12 ** 3 * 4 })

    const byHand = createBakeSolver(doc, hostId)
    const expected = [frameHash(byHand.frame())]
    for (let f = 2; f <= 6; f++) {
      byHand.stepFrame(f - 1)
      expected.push(frameHash(byHand.frame()))
    }
    const back = ProjectStore.open(file)
    try {
      const got = back.cache.frames(hostId).map((row) => frameHash(decodeFrame(back.cache.readFrame(hostId, row.frame))))
      expect(got).toEqual(expected)
      // The dye spread: the last frame holds more than the first (the source keeps adding).
      const sum = (f: number) => decodeFrame(back.cache.readFrame(hostId, f)).volumes[0].data.reduce((a, b) => a + b, 0)
      expect(sum(6)).toBeGreaterThan(sum(2))
    } finally {
      back.close()
    }
  })
})
