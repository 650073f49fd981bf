import fs from 'node:fs'
import { availableParallelism } from 'node:os'
import path from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { decodeFrame } from '../../../src-shared/formats/frameRecord'
import { runBake } from '../../../src-main/bake/runner'
import { cacheStatus } from '../../../src-main/bake/status'
import { ProjectStore } from '../../../src-main/store/projectStore'
import { makeSmokeProject, tempDir } from './bakeFixtures'
import { sceneObject } from '../../../src-shared/scene/examples/build'

const dir = tempDir('eddy-bake-')
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }))

function records(file: string): Map<number, Buffer> {
  const store = ProjectStore.open(file)
  const out = new Map<number, Buffer>()
  for (const r of store.cache.frames('domain')) out.set(r.frame, Buffer.from(store.cache.readFrame('domain', r.frame)))
  store.close()
  return out
}

function status(file: string) {
  const store = ProjectStore.open(file)
  try {
    return cacheStatus(store.readDocument(), store.cache, 'domain')
  } finally {
    store.close()
  }
}

const base = { domainId: 'domain', kernels: 'ts' as const, checkpointEvery: 2 }

describe('bake runner', () => {
  const reference = makeSmokeProject(dir, { name: 'reference' })
  let full: Map<number, Buffer>

  it('bakes every frame into the cache with checkpoints, figures and a log', async () => {
    const lines: string[] = []
    const progress: number[] = []
    const r = await runBake({ ...base, projectPath: reference, mode: 'bake' }, { log: (l) => lines.push(l), progress: (p) => progress.push(p.frame) })
    expect(r).toMatchObject({ state: 'done', framesWritten: 6, firstFrame: 1, lastFrame: 6 })
    expect(progress).toEqual([1, 2, 3, 4, 5, 6])
    expect(lines[0]).toMatch(/baking frames 1-6; \d+x\d+x\d+ grid, float16 cache, checkpoint every 2 frames/)
    expect(lines.at(-1)).toMatch(/baked 6 frames in/)
    const s = status(reference)
    expect(s).toMatchObject({ state: 'done', cached: [[1, 6]], stale: [], checkpoints: [2, 4, 6] })
    expect(s.timings.map((t) => t.frame)).toEqual([1, 2, 3, 4, 5, 6])
    // Frame 1 is the initial state (no step); every later frame took at least one substep.
    expect(s.timings[0]).toMatchObject({ frame: 1, substeps: 0 })
    expect(s.timings.slice(1).every((t) => t.substeps >= 1 && t.pressureIterations > 0 && t.bytes > 0)).toBe(true)
    full = records(reference)
    const f6 = decodeFrame(new Uint8Array(full.get(6)!))
    expect(f6.volumes.map((v) => v.name).sort()).toEqual(['density', 'temperature', 'velocity'])
    expect(f6.particles[0].count).toBeGreaterThan(0)
    expect(Math.max(...f6.volumes.find((v) => v.name === 'density')!.data)).toBeGreaterThan(0.1)
  })

  it('resume after losing frames reproduces the uninterrupted bake byte for byte', async () => {
    const file = path.join(dir, 'resume.eddy')
    fs.copyFileSync(reference, file)
    // Lose frames 4-6 and the checkpoint at 6, as a crash after frame 3 would.
    const store = ProjectStore.open(file)
    ;(store as unknown as { db: import('better-sqlite3').Database }).db.exec(`DELETE FROM frames WHERE frame > 3; DELETE FROM checkpoints WHERE frame > 3`)
    store.close()
    const r = await runBake({ ...base, projectPath: file, mode: 'resume' })
    // Frame 3 has no checkpoint: it restarts from 2 and rewrites 3 too.
    expect(r).toMatchObject({ state: 'done', firstFrame: 3, lastFrame: 6, framesWritten: 4 })
    const again = records(file)
    for (let f = 1; f <= 6; f++) expect(again.get(f)!.equals(full.get(f)!), `frame ${f}`).toBe(true)
  })

  it('cancel stops between substeps and keeps the finished frames', async () => {
    const file = makeSmokeProject(dir, { name: 'cancel' })
    let calls = 0
    let framesDone = 0
    const r = await runBake(
      { ...base, projectPath: file, mode: 'bake' },
      { progress: (p) => (framesDone = p.done), shouldStop: () => framesDone >= 2 && ++calls > 1 },
    )
    expect(r.state).toBe('cancelled')
    const s = status(file)
    expect(s.state).toBe('cancelled')
    expect(s.cached).toEqual([[1, 2]])
    expect(s.message).toBe('Cancelled at frame 3')
  })

  it('a changed key marks the frames from that key on stale, and a range re-bake clears them', async () => {
    const file = path.join(dir, 'stale.eddy')
    fs.copyFileSync(reference, file)
    const store = ProjectStore.open(file)
    store.apply({ tracks: [{ objectId: 'source', path: 'temperature', after: { objectId: 'source', path: 'temperature', keys: [{ frame: 4, value: 900, interp: 'constant' }] } }] })
    store.close()
    // A key at 4 holds its value before 4 too (constant extrapolation): everything changes.
    expect(status(file).stale).toEqual([[1, 6]])
    const store2 = ProjectStore.open(file)
    store2.apply({
      tracks: [
        {
          objectId: 'source',
          path: 'temperature',
          after: { objectId: 'source', path: 'temperature', keys: [{ frame: 3, value: 600, interp: 'constant' }, { frame: 5, value: 900, interp: 'constant' }] },
        },
      ],
    })
    store2.close()
    // 600 up to frame 4 matches the bake; frame 4's input reads frame 5 (transform rates) too.
    expect(status(file)).toMatchObject({ cached: [[1, 3]], stale: [[4, 6]], checkpoints: [2] })
    const r = await runBake({ ...base, projectPath: file, mode: 'range', from: 4, to: 5 })
    expect(r).toMatchObject({ state: 'done', firstFrame: 3, lastFrame: 5 })
    expect(status(file)).toMatchObject({ cached: [[1, 5]], stale: [[6, 6]] })
  })

  it('refuses a resume with nothing baked, and a range outside the bake', async () => {
    const file = makeSmokeProject(dir, { name: 'empty' })
    await expect(runBake({ ...base, projectPath: file, mode: 'resume' })).rejects.toThrow(/has not been baked yet/)
    await expect(runBake({ ...base, projectPath: reference, mode: 'range', from: 0, to: 3 })).rejects.toThrow(/from must be a whole frame from 1 to 6/)
  })

  it('an unstable simulation fails with a clear message and keeps earlier frames', async () => {
    const file = makeSmokeProject(dir, { name: 'unstable' })
    // From frame 4 the heat lift is 10 m/(s^2 K) at 10,000 K: no substep count can follow.
    const store = ProjectStore.open(file)
    const key = (objectId: string, p: string, v: number) => ({
      objectId,
      path: p,
      after: { objectId, path: p, keys: [{ frame: 3, value: p === 'temperature' ? 600 : 0.03, interp: 'constant' as const }, { frame: 4, value: v, interp: 'constant' as const }] },
    })
    store.apply({ tracks: [key('source', 'temperature', 10000), key('domain', 'buoyancyBeta', 10)] })
    store.close()
    const err = await runBake({ ...base, projectPath: file, mode: 'bake' }).catch((e: unknown) => e)
    expect(err).toMatchObject({ code: 'SIM_UNSTABLE' })
    expect(String((err as Error).message)).toMatch(/^Frame \d/)
    const s = status(file)
    expect(s.state).toBe('failed')
    expect(s.message).toMatch(/unstable/)
    // Frame 5 is the first stepped under the frame-4 keys.
    expect(s.cached).toEqual([[1, 4]])
  })

  it('objects the solver never reads leave the cache valid; one it reads makes it stale', async () => {
    const file = path.join(dir, 'unread.eddy')
    fs.copyFileSync(reference, file)
    const store = ProjectStore.open(file)
    // A smoke bake reads obstacles, emitters and vortex seeds: not cages, heat sources or rigid bodies.
    const cage = sceneObject('cage', 'ccCage', 'Cage', { position: [0, 1, 0] })
    const heat = sceneObject('heat', 'heatSource', 'Lamp', { position: [0, 1, 0] })
    const body = sceneObject('body', 'rigidBody', 'Crate', { position: [0, 1, 0], scale: [0.3, 0.3, 0.3] })
    store.apply({ objects: [cage, heat, body].map((o) => ({ id: o.id, after: o })) })
    store.close()
    expect(status(file)).toMatchObject({ cached: [[1, 6]], stale: [] })
    const again = ProjectStore.open(file)
    const wall = sceneObject('wall', 'obstacle', 'Wall', { shape: 'box', position: [0, 1, 0], scale: [0.2, 0.2, 0.2] })
    again.apply({ objects: [{ id: wall.id, after: wall }] })
    again.close()
    expect(status(file)).toMatchObject({ cached: [], stale: [[1, 6]] })
  })

  it('takes checkpoint spacing and volume precision from the domain; changing them leaves the cache valid', async () => {
    const file = makeSmokeProject(dir, { name: 'settings' })
    const store = ProjectStore.open(file)
    const d = store.readDocument().objects.find((o) => o.id === 'domain')!
    store.apply({ objects: [{ id: 'domain', after: { ...d, params: { ...d.params, checkpointEvery: 3, cachePrecision: 'uint8' } } }] })
    store.close()
    await runBake({ projectPath: file, domainId: 'domain', mode: 'bake', kernels: 'ts' })
    const s1 = status(file)
    expect(s1.checkpoints).toEqual([3, 6])
    const again = ProjectStore.open(file)
    expect(again.cache.bake('domain')?.settings.precision).toBe('uint8')
    again.apply({ objects: [{ id: 'domain', after: { ...d, params: { ...d.params, checkpointEvery: 5, cachePrecision: 'float32' } } }] })
    again.close()
    expect(status(file)).toMatchObject({ cached: [[1, 6]], stale: [] })
  })
})

describe('bake runner threads', () => {
  it('caps kernel threads at the core count and says so', async () => {
    const file = makeSmokeProject(dir, { name: 'threads', frames: 2 })
    const lines: string[] = []
    const r = await runBake({ domainId: 'domain', kernels: 'wasm', projectPath: file, mode: 'bake', threads: 256 }, { log: (l) => lines.push(l) })
    expect(r.state).toBe('done')
    expect(lines.join('\n')).toMatch(new RegExp(`256 threads requested; using ${availableParallelism()}, the cores of this machine`))
  })
})
