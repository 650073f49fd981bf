// Several simulations at once: with fewer cores than bakes, the extra ones wait in a queue
// and start when a core frees; cancelling a queued bake never starts it.
import fs from 'node:fs'
import { afterAll, describe, expect, it } from 'vitest'
import { BakeManager, type BakeJobView } from '../../../src-main/bake/bakeManager'
import { BAKE_WORKER } from '../app/serviceHelpers'
import { makeSmokeProject, tempDir } from './bakeFixtures'

const dir = tempDir('eddy-queue-')
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }))

function until(m: BakeManager, id: string, phases: string[]): Promise<BakeJobView> {
  return new Promise((resolve, reject) => {
    const t0 = Date.now()
    const tick = (): void => {
      const j = m.job(id)
      if (j && phases.includes(j.phase)) resolve(j)
      else if (Date.now() - t0 > 60_000) reject(new Error(`${id} stuck in ${j?.phase}`))
      else setTimeout(tick, 20)
    }
    tick()
  })
}

describe('bake queue', () => {
  it('refuses a second bake of a simulation that is already baking', async () => {
    const a = makeSmokeProject(dir, { name: 'a', frames: 4 })
    const m = new BakeManager({ workerUrl: BAKE_WORKER, cores: 1 })
    expect(m.start({ projectPath: a, domainId: 'domain', mode: 'bake', kernels: 'ts' }, 1).phase).toBe('running')
    expect(() => m.start({ projectPath: a, domainId: 'domain', mode: 'bake' }, 1)).toThrow(/already baking/)
    expect((await until(m, 'domain', ['done', 'failed'])).phase).toBe('done')
  })

  it('queues bakes of different domains beyond the core count and cancels a queued one', async () => {
    const file = makeSmokeProject(dir, { name: 'two', frames: 5 })
    // A second domain in the same project: a copy of the first under another id.
    const { ProjectStore } = await import('../../../src-main/store/projectStore')
    const store = ProjectStore.open(file)
    const doc = store.readDocument()
    const d2 = { ...doc.objects.find((o) => o.id === 'domain')!, id: 'domain2', name: 'Domain 2' }
    const d3 = { ...d2, id: 'domain3', name: 'Domain 3' }
    store.apply({ objects: [{ id: d2.id, after: d2 }, { id: d3.id, after: d3 }] })
    store.close()
    const order: string[] = []
    const m = new BakeManager({
      workerUrl: BAKE_WORKER,
      cores: 1,
      onUpdate: (j) => {
        const tag = `${j.domainId}:${j.phase}`
        if (order.at(-1) !== tag) order.push(tag)
      },
    })
    m.start({ projectPath: file, domainId: 'domain', mode: 'bake', kernels: 'ts' }, 1)
    const q2 = m.start({ projectPath: file, domainId: 'domain2', mode: 'bake', kernels: 'ts' }, 1)
    const q3 = m.start({ projectPath: file, domainId: 'domain3', mode: 'bake', kernels: 'ts' }, 1)
    expect([q2.phase, q3.phase]).toEqual(['queued', 'queued'])
    expect(await m.cancel('domain3')).toBe(true)
    expect(m.job('domain3')?.phase).toBe('cancelled')
    await until(m, 'domain2', ['done', 'failed'])
    expect(m.job('domain')?.phase).toBe('done')
    expect(m.job('domain2')?.phase).toBe('done')
    // domain2 started only after domain finished; domain3 never ran.
    expect(order.indexOf('domain2:running')).toBeGreaterThan(order.indexOf('domain:done'))
    expect(order).not.toContain('domain3:running')
  })
})

describe('bake queue and memory', () => {
  it('starts a queued bake only when the running ones leave memory for it, and one alone whatever its size', async () => {
    const file = makeSmokeProject(dir, { name: 'mem', frames: 3 })
    const { ProjectStore } = await import('../../../src-main/store/projectStore')
    const store = ProjectStore.open(file)
    const doc = store.readDocument()
    const d = doc.objects.find((o) => o.id === 'domain')!
    store.apply({ objects: ['m2', 'm3'].map((id) => ({ id, after: { ...d, id, name: id } })) })
    store.close()
    // Two cores, 10 units of memory: bakes of 6 units run one at a time, 3-unit ones two at once.
    const m = new BakeManager({ workerUrl: BAKE_WORKER, cores: 2, memoryBudget: () => 10 })
    const req = (domainId: string) => ({ projectPath: file, domainId, mode: 'bake' as const, kernels: 'ts' as const })
    expect(m.start(req('domain'), 6).phase).toBe('running')
    expect(m.start(req('m2'), 6).phase).toBe('queued')
    expect(m.start(req('m3'), 3).phase).toBe('running')
    expect(m.reservedMemory()).toBe(9)
    await until(m, 'domain', ['done', 'failed'])
    await until(m, 'm3', ['done', 'failed'])
    expect((await until(m, 'm2', ['done', 'failed'])).phase).toBe('done')
    // A bake larger than the budget still runs when it is alone (Bake already refused it if it could not fit at all).
    expect(m.start(req('domain'), 50).phase).toBe('running')
    await until(m, 'domain', ['done', 'failed'])
  })
})
