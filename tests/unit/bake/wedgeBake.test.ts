// Wedges end to end below the UI: the variant model, each variant baked under its own key
// (stale per variant), a variant baked into a cache file of its own (a farm task) and merged
// into the project bit-identical to the same variant baked in the project, and promotion.
import { execFileSync } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, describe, expect, it } from 'vitest'
import '../../../src-shared/sim/registry'
import { runBake } from '../../../src-main/bake/runner'
import { cacheStatus } from '../../../src-main/bake/status'
import { updateObjectEdit } from '../../../src-main/app/edits'
import { promoteVariantEdit } from '../../../src-main/app/wedgeEdits'
import { openCacheFile } from '../../../src-main/store/cacheFile'
import { ProjectStore } from '../../../src-main/store/projectStore'
import type { SceneDocument, Wedge } from '../../../src-shared/scene/types'
import { applyVariant, bakeKey, parameterValues, parseBakeKey, productSize, variantLabel, variantNumbers, variantTag, variantValues, wedgeProblem } from '../../../src-shared/sim/wedge'
import { makeSmokeProject, tempDir } from './bakeFixtures'
import { availableParallelism } from 'node:os'
import { call, makeService } from '../app/serviceHelpers'

const dir = tempDir('eddy-wedge-')
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }))

const rates: Wedge = { id: 'w1', name: 'rates', parameters: [{ objectId: 'source', path: 'rate', values: [0.5, 2, 4] }] }

function withWedges(file: string, wedges: Wedge[]): void {
  const store = ProjectStore.open(file)
  try {
    store.apply(updateObjectEdit(store.readDocument(), 'domain', { wedges }).forward)
  } finally {
    store.close()
  }
}

function frames(store: ProjectStore, key: string, cache = store.cache): Map<number, Buffer> {
  const out = new Map<number, Buffer>()
  for (const r of cache.frames(key)) out.set(r.frame, Buffer.from(cache.readFrame(key, r.frame)))
  return out
}

describe('the wedge model', () => {
  const file = makeSmokeProject(dir, { name: 'model' })
  const store = ProjectStore.open(file)
  const doc: SceneDocument = store.readDocument()
  store.close()

  it('numbers the product of the value lists with the last parameter fastest, ranges evenly spaced', () => {
    const w: Wedge = {
      id: 'w2',
      name: 'grid',
      parameters: [
        { objectId: 'source', path: 'rate', values: [1, 2] },
        { objectId: 'domain', path: 'buoyancyAlpha', range: { start: 0, stop: 0.3, count: 4 } },
      ],
    }
    expect(parameterValues(w.parameters[1])).toEqual([0, 0.1, 0.2, 0.3])
    expect(productSize(w)).toBe(8)
    expect(variantValues(w, 1)).toEqual([1, 0])
    expect(variantValues(w, 4)).toEqual([1, 0.3])
    expect(variantValues(w, 5)).toEqual([2, 0])
    expect(variantNumbers({ ...w, subset: [7, 2, 7] })).toEqual([2, 7])
    expect(variantTag(w, 3)).toBe('grid_v3')
    expect(variantLabel(doc, w, 6)).toBe('Rate 2, Density weight 0.1')
    expect(parseBakeKey(bakeKey('domain', 'w2', 6))).toEqual({ hostId: 'domain', variant: { wedgeId: 'w2', k: 6 } })
    expect(wedgeProblem(doc, 'domain', w)).toBeNull()
  })

  it('applies a variant as constant values and sets the wedged channel\'s keys aside', () => {
    const animated: SceneDocument = { ...doc, tracks: [{ objectId: 'source', path: 'rate', keys: [{ frame: 1, value: 9, interp: 'linear' }] }] }
    const v = applyVariant(animated, 'domain', rates, 2)
    expect(v.objects.find((o) => o.id === 'source')!.params.rate).toBe(2)
    expect(v.tracks).toEqual([])
    expect(animated.objects.find((o) => o.id === 'source')!.params.rate).not.toBe(2)
  })

  it('names what cannot be wedged', () => {
    const p = (parameters: Wedge['parameters'], extra: Partial<Wedge> = {}) => wedgeProblem(doc, 'domain', { id: 'x', name: 'x', parameters, ...extra })
    expect(p([{ objectId: 'domain', path: 'solver', values: [1] }])).toMatch(/Solver of "Domain" is a menu, not a number: it cannot be wedged/)
    expect(p([{ objectId: 'source', path: 'rate', values: [] }])).toMatch(/Rate of "Source" has an empty list of values/)
    expect(p([{ objectId: 'domain', path: 'position', values: [1] }])).toMatch(/is a vector: wedge one component/)
    expect(p([{ objectId: 'source', path: 'rate', values: [-1] }])).toMatch(/-1 is outside 0 to 1000/)
    expect(p([{ objectId: 'gone', path: 'rate', values: [1] }])).toMatch(/no longer in the scene/)
    const many = Array.from({ length: 17 }, (_, i) => i / 10)
    expect(p([{ objectId: 'source', path: 'rate', values: many }, { objectId: 'domain', path: 'buoyancyAlpha', values: many }])).toMatch(/makes 289 variants; at most 256/)
    expect(p([{ objectId: 'source', path: 'rate', values: [1, 2] }], { subset: [3] })).toMatch(/has no variant 3 \(its variants are 1-2\)/)
  })

  it('refuses a bad wedge edit with its sentence and keeps the document', () => {
    expect(() => updateObjectEdit(doc, 'domain', { wedges: [{ id: 'w', name: 'w', parameters: [{ objectId: 'source', path: 'shape', values: [1] }] }] })).toThrow(/Shape of "Source" is a menu/)
    expect(() => updateObjectEdit(doc, 'source', { wedges: [rates] })).toThrow(/hosts no simulation, so it cannot have wedges/)
    expect(() => updateObjectEdit(doc, 'domain', { wedges: [rates, { ...rates, id: 'w9' }] })).toThrow(/Two wedges are named "rates"/)
  })
})

describe('variant bakes', () => {
  const file = makeSmokeProject(dir, { name: 'variants', frames: 4 })
  withWedges(file, [rates])
  const base = { projectPath: file, kernels: 'ts' as const, threads: 1, checkpointEvery: 2, mode: 'bake' as const }

  it('bakes each variant under its own key, with its own values, valid until its wedge changes', async () => {
    for (const k of [1, 3]) await runBake({ ...base, domainId: bakeKey('domain', 'w1', k) })
    const store = ProjectStore.open(file)
    try {
      const doc = store.readDocument()
      const s1 = cacheStatus(doc, store.cache, bakeKey('domain', 'w1', 1))
      expect(s1).toMatchObject({ state: 'done', cached: [[1, 4]], stale: [] })
      // More emission makes more smoke: the two variants differ, and neither is the main bake.
      const a = frames(store, bakeKey('domain', 'w1', 1)).get(4)!
      const b = frames(store, bakeKey('domain', 'w1', 3)).get(4)!
      expect(a.equals(b)).toBe(false)
      expect(cacheStatus(doc, store.cache, 'domain').state).toBe('none')
      // Changing variant 3's value (4 -> 5) makes only variant 3 stale.
      const changed = { ...rates, parameters: [{ ...rates.parameters[0], values: [0.5, 2, 5] }] }
      const next = { ...doc, objects: doc.objects.map((o) => (o.id === 'domain' ? { ...o, wedges: [changed] } : o)) }
      expect(cacheStatus(next, store.cache, bakeKey('domain', 'w1', 1)).stale).toEqual([])
      expect(cacheStatus(next, store.cache, bakeKey('domain', 'w1', 3))).toMatchObject({ cached: [], stale: [[1, 4]] })
      // A variant baked with the value the scene holds is the same bake as the main one.
      const main = applyVariant(doc, 'domain', rates, 1)
      expect(cacheStatus(main, store.cache, bakeKey('domain', 'w1', 1)).cached).toEqual([[1, 4]])
    } finally {
      store.close()
    }
  })

  it('bakes a variant into a cache file of its own, bit-identical, and merges it into the project once', async () => {
    const farmFile = path.join(dir, 'variant-2.eddycache')
    const key = bakeKey('domain', 'w1', 2)
    await runBake({ ...base, domainId: key, cacheFile: farmFile })
    const copy = path.join(dir, 'studio.eddy')
    fs.copyFileSync(file, copy)
    await runBake({ ...base, projectPath: copy, domainId: key })
    const studio = ProjectStore.open(copy)
    const project = ProjectStore.open(file)
    const cf = openCacheFile(farmFile, { create: false })
    try {
      expect(project.cache.bake(key)).toBeNull()
      const fromFarm = frames(project, key, cf.cache)
      const fromStudio = frames(studio, key)
      expect([...fromFarm.keys()]).toEqual([1, 2, 3, 4])
      for (const [f, bytes] of fromStudio) expect(fromFarm.get(f)!.equals(bytes), `frame ${f}`).toBe(true)
      const merged = project.mergeCacheFile(farmFile)
      expect(merged).toEqual([{ key, frames: 4, skipped: null }])
      expect(project.mergeCacheFile(farmFile)).toEqual([{ key, frames: 0, skipped: 'already merged' }])
      const s = cacheStatus(project.readDocument(), project.cache, key)
      expect(s).toMatchObject({ state: 'done', cached: [[1, 4]], stale: [], checkpoints: [2, 4] })
      for (const [f, bytes] of fromStudio) expect(Buffer.from(project.cache.readFrame(key, f)).equals(bytes)).toBe(true)
    } finally {
      cf.close()
      studio.close()
      project.close()
    }
  })

  it('leaves out a bake still at baking (a killed task) when merging', () => {
    const file2 = path.join(dir, 'killed.eddycache')
    const cf = openCacheFile(file2, { create: true })
    cf.cache.setBake(bakeKey('domain', 'w1', 3), { frameStart: 1, frameEnd: 4, checkpointEvery: 2, precision: 'float16', solver: 'smoke' }, 'baking')
    cf.close()
    const project = ProjectStore.open(file)
    try {
      expect(project.mergeCacheFile(file2)[0].skipped).toMatch(/still baking/)
    } finally {
      project.close()
    }
  })

  it('promotes a variant: its value becomes the scene\'s and its frames the main cache, valid at once', () => {
    const store = ProjectStore.open(file)
    try {
      const doc = store.readDocument()
      const edit = promoteVariantEdit(doc, 'domain', 'w1', 3)
      expect(edit.label).toBe('Promote rates_v3 (Rate 4)')
      store.apply(edit.forward)
      store.cache.copyBake(bakeKey('domain', 'w1', 3), 'domain')
      const after = store.readDocument()
      expect(after.objects.find((o) => o.id === 'source')!.params.rate).toBe(4)
      expect(cacheStatus(after, store.cache, 'domain')).toMatchObject({ state: 'done', cached: [[1, 4]], stale: [] })
      store.apply(edit.backward)
      const undone = store.readDocument()
      expect(undone.objects.find((o) => o.id === 'source')!.params.rate).toBe(doc.objects.find((o) => o.id === 'source')!.params.rate)
      expect(cacheStatus(undone, store.cache, 'domain').stale).toEqual([[1, 4]])
    } finally {
      store.close()
    }
  })
})

describe('eddy bake --wedge and eddy export --variant', () => {
  const CLI = fileURLToPath(new URL('../../../out/main/cli.js', import.meta.url))
  const file = makeSmokeProject(dir, { name: 'cli', frames: 3, res: 8 })
  withWedges(file, [rates])
  const eddy = (...args: string[]) => execFileSync(process.execPath, [CLI, ...args], { encoding: 'utf8', timeout: 120_000 })

  it('bakes every variant of a wedge, then exports one with the variant in every file name', () => {
    const out = eddy('bake', file, '--sim', 'Domain', '--wedge', 'rates', '--threads', '1')
    const results = out.split('\n').filter((l) => l.startsWith('EDDY_BAKE ')).map((l) => JSON.parse(l.slice(10)) as { domainId: string; state: string })
    expect(results).toEqual([1, 2, 3].map((k) => expect.objectContaining({ domainId: bakeKey('domain', 'w1', k), state: 'done' })))
    const vdb = path.join(dir, 'cli-vdb')
    eddy('export', file, '--sim', 'Domain', '--wedge', 'rates', '--variant', '2', '--format', 'vdb', '--out', vdb)
    expect(fs.readdirSync(vdb).sort()).toEqual(['Domain_rates_v2_0001.vdb', 'Domain_rates_v2_0002.vdb', 'Domain_rates_v2_0003.vdb', 'Domain_rates_v2_vdb_manifest.json'])
    expect(() => eddy('bake', file, '--sim', 'Domain', '--wedge', 'rates', '--variant', '4')).toThrow(/Wedge "rates" has no variant 4 \(it bakes 1-3\)/)
    expect(() => eddy('export', file, '--sim', 'Domain', '--wedge', 'rates', '--format', 'vdb', '--out', vdb)).toThrow(/exports one variant: give --variant K with --wedge/)
  }, 180_000)
})

describe('the studio\'s bake queue', () => {
  it('runs a wedge\'s variants side by side up to the core count, the rest queued', async () => {
    const file = makeSmokeProject(dir, { name: 'queue', frames: 3, res: 8 })
    withWedges(file, [{ ...rates, parameters: [{ objectId: 'source', path: 'rate', values: [0.5, 1, 2, 3, 4] }] }])
    const { service } = makeService()
    try {
      await call(service, 'project.open', { path: file })
      const keys = [1, 2, 3, 4, 5].map((k) => bakeKey('domain', 'w1', k))
      for (const key of keys) await call(service, 'bake.start', { domainId: key, mode: 'bake' })
      const running = Math.min(keys.length, availableParallelism())
      expect(keys.map((k) => service.bakes.job(k)!.phase)).toEqual([...Array(running).fill('running'), ...Array(keys.length - running).fill('queued')])
      const t0 = Date.now()
      while (keys.some((k) => !['done', 'failed'].includes(service.bakes.job(k)!.phase)) && Date.now() - t0 < 120_000) await new Promise((r) => setTimeout(r, 50))
      expect(keys.map((k) => service.bakes.job(k)!.phase)).toEqual(Array(keys.length).fill('done'))
      const caches = (await call(service, 'bake.status', {})).caches
      for (const key of keys) expect(caches.find((c) => c.domainId === key)).toMatchObject({ state: 'done', cached: [[1, 3]], stale: [] })
      // Two values fewer, then the wedge deleted: the variants no wedge bakes any more keep their
      // frames while an undo could bring them back, and go when the project is opened again.
      await call(service, 'object.update', { id: 'domain', patch: { wedges: [rates] } })
      await call(service, 'project.open', { path: file })
      expect((await call(service, 'bake.status', {})).caches.map((c) => c.domainId)).toEqual(['domain', ...keys.slice(0, 3)])
      await call(service, 'object.update', { id: 'domain', patch: { wedges: [] } })
      expect((await call(service, 'bake.status', {})).caches).toHaveLength(4)
      await call(service, 'project.open', { path: file })
      expect((await call(service, 'bake.status', {})).caches.map((c) => c.domainId)).toEqual(['domain'])
    } finally {
      await service.close()
    }
  }, 180_000)
})

describe('the scene copy a farm submission bakes', () => {
  it('is the scene without frames, in rollback-journal mode, and tasks read it without writing a byte', async () => {
    const file = makeSmokeProject(dir, { name: 'copied', frames: 3, res: 8 })
    withWedges(file, [rates])
    await runBake({ projectPath: file, domainId: 'domain', mode: 'bake', kernels: 'ts', threads: 1 })
    const copy = path.join(dir, 'copied-scene.eddy')
    const store = ProjectStore.open(file)
    try {
      store.writeSceneCopy(copy)
      expect(() => store.writeSceneCopy(copy)).toThrow(/already exists/)
    } finally {
      store.close()
    }
    const before = fs.readFileSync(copy)
    const scene = ProjectStore.openReadOnly(copy)
    try {
      expect(scene.readDocument().objects.find((o) => o.id === 'domain')!.wedges).toEqual([rates])
      expect(scene.cache.bakes()).toEqual([])
    } finally {
      scene.close()
    }
    const key = bakeKey('domain', 'w1', 3)
    await runBake({ projectPath: copy, domainId: key, mode: 'bake', kernels: 'ts', threads: 1, cacheFile: path.join(dir, 'copied-v3.eddycache') })
    // Nothing beside it either: no -wal or -shm file that a network file system could not share.
    expect(fs.readFileSync(copy).equals(before)).toBe(true)
    expect(fs.readdirSync(dir).filter((f) => f.startsWith('copied-scene.eddy'))).toEqual(['copied-scene.eddy'])
    // The task's own cache file is written through a rollback journal too, and holds the variant.
    expect(fs.readdirSync(dir).filter((f) => f.startsWith('copied-v3.eddycache'))).toEqual(['copied-v3.eddycache'])
    const header = fs.readFileSync(path.join(dir, 'copied-v3.eddycache')).subarray(18, 20)
    expect([...header]).toEqual([1, 1])
    const cf = openCacheFile(path.join(dir, 'copied-v3.eddycache'), { create: false })
    try {
      expect(cf.cache.frames(key).map((r) => r.frame)).toEqual([1, 2, 3])
    } finally {
      cf.close()
    }
  })
})
