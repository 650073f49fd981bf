// A three-variant wedge through a real single-node Slurm cluster, end to end as a studio would
// use it: `eddy farm submit` (array job of bakes, per-variant export chunks after them),
// baked on the cluster, merged when the studio opens the project, exported; the farm's
// variant is bit-identical to the same variant baked in the studio. Then one task killed
// mid-bake (scancel) leaves the others done, and `eddy farm submit --resume` finishes it from
// its last checkpoint, again bit-identical. Needs root, slurm-wlm and munge (.ci/run installs
// them; scripts/slurm-cluster.sh starts the cluster) and the built CLI (out/main/cli.js).
import { execFile } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import { promisify } from 'node:util'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, describe, expect, it, type TestContext } from 'vitest'
import { ProjectStore } from '../../../src-main/store/projectStore'
import { openCacheFile } from '../../../src-main/store/cacheFile'
import { updateObjectEdit } from '../../../src-main/app/edits'
import { bakeKey } from '../../../src-shared/sim/wedge'
import type { Wedge } from '../../../src-shared/scene/types'
import { call, makeService } from '../app/serviceHelpers'
import { makeSmokeProject, tempDir } from '../bake/bakeFixtures'
import { startLocalCluster } from './localCluster'

const ROOT = fileURLToPath(new URL('../../..', import.meta.url))
const CLI = path.join(ROOT, 'out/main/cli.js')
const run = promisify(execFile)
const dir = tempDir('eddy-farm-')
let skipReason = ''

beforeAll(async () => {
  skipReason = await startLocalCluster()
  if (skipReason) console.log(`skipping the farm tests: ${skipReason}`)
}, 90_000)

afterAll(() => fs.rmSync(dir, { recursive: true, force: true }))

const need = (ctx: TestContext): void => {
  if (skipReason) ctx.skip(skipReason)
}

const rates: Wedge = { id: 'w1', name: 'rates', parameters: [{ objectId: 'source', path: 'rate', values: [0.5, 2, 4] }] }

function projectWithWedge(name: string, frames: number, res: number): string {
  const file = makeSmokeProject(dir, { name, frames, res })
  const store = ProjectStore.open(file)
  try {
    store.apply(updateObjectEdit(store.readDocument(), 'domain', { params: { checkpointEvery: 3 }, wedges: [rates] }).forward)
  } finally {
    store.close()
  }
  return file
}

async function eddy(args: string[]): Promise<string> {
  const { stdout } = await run(process.execPath, [CLI, ...args], { timeout: 120_000 })
  return stdout
}

interface Task {
  arrayId: string
  task: number
  state: string
  exitCode: number | null
  logTail: string
}

async function farmStatus(file: string): Promise<Task[]> {
  const out = await eddy(['farm', 'status', file])
  const line = out.split('\n').find((l) => l.startsWith('EDDY_FARM_STATUS '))!
  return (JSON.parse(line.slice('EDDY_FARM_STATUS '.length)) as { tasks: Task[] }).tasks
}

async function waitFor(what: string, check: () => Promise<boolean>, timeoutMs = 240_000): Promise<void> {
  const t0 = Date.now()
  while (!(await check())) {
    if (Date.now() - t0 > timeoutMs) throw new Error(`timed out waiting for ${what}`)
    await new Promise((r) => setTimeout(r, 500))
  }
}

function frames(file: string, key: string): Map<number, Buffer> {
  const store = ProjectStore.open(file)
  try {
    return new Map(store.cache.frames(key).map((r) => [r.frame, Buffer.from(store.cache.readFrame(key, r.frame))]))
  } finally {
    store.close()
  }
}

/** The same variant baked the studio's way: the service's Bake, in a worker thread. */
async function studioBake(file: string, key: string): Promise<Map<number, Buffer>> {
  const copy = file.replace(/\.eddy$/, '-studio.eddy')
  fs.copyFileSync(file, copy)
  const { service } = makeService()
  try {
    await call(service, 'project.open', { path: copy })
    await call(service, 'bake.start', { domainId: key, mode: 'bake' })
    await waitFor(`the studio bake of ${key}`, async () => ['done', 'failed'].includes(service.bakes.job(key)?.phase ?? ''))
    expect(service.bakes.job(key)?.phase).toBe('done')
  } finally {
    await service.close()
  }
  return frames(copy, key)
}

function expectSame(a: Map<number, Buffer>, b: Map<number, Buffer>): void {
  expect([...a.keys()]).toEqual([...b.keys()])
  for (const [f, bytes] of a) expect(bytes.equals(b.get(f)!), `frame ${f} differs`).toBe(true)
}

describe('a wedge on Slurm', () => {
  it('is submitted, baked on the cluster, merged when the studio opens it, and exported per variant', async (ctx) => {
    need(ctx)
    const file = projectWithWedge('farm', 6, 12)
    const out = path.join(dir, 'vdb')
    const submitted = await eddy(['farm', 'submit', file, '--sim', 'Domain', '--wedge', 'rates', '--engine', 'slurm', '--export', 'vdb', '--out', out, '--chunk', '4', '--partition', 'main'])
    expect(submitted).toMatch(/Submitted 3 variant\(s\) of wedge "rates" as slurm job \d+/)
    expect(submitted).toMatch(/2 chunk\(s\) of 4 frames per variant/)
    // The artist goes on editing: the farm bakes the scene as it was submitted.
    const asSubmitted = file.replace(/\.eddy$/, '-as-submitted.eddy')
    fs.copyFileSync(file, asSubmitted)
    const edit = ProjectStore.open(file)
    edit.apply(updateObjectEdit(edit.readDocument(), 'domain', { params: { buoyancyAlpha: 0.5 } }).forward)
    edit.close()
    // Three bake tasks and two export chunks per variant, all of them done.
    await waitFor('every task to finish', async () => (await farmStatus(file)).every((t) => t.state === 'done' || t.state === 'failed' || t.state === 'cancelled'))
    const tasks = await farmStatus(file)
    expect(tasks).toHaveLength(9)
    expect(tasks.filter((t) => t.state === 'done')).toHaveLength(9)
    expect(tasks.find((t) => t.task === 2)!.logTail).toMatch(/baked 6 frames/)
    // Nothing is in the project until the studio opens it; then all three variants are.
    expect(frames(file, bakeKey('domain', 'w1', 2)).size).toBe(0)
    const { service } = makeService()
    try {
      await call(service, 'project.open', { path: file })
      const status = await call(service, 'bake.status', {})
      // Merged, and stale from frame 1 (the edit after submitting changed the scene), as a bake of the old scene should be.
      for (const k of [1, 2, 3]) expect(status.caches.find((c) => c.domainId === bakeKey('domain', 'w1', k))).toMatchObject({ state: 'done', cached: [], stale: [[1, 6]] })
    } finally {
      await service.close()
    }
    // Each variant's files carry its tag; each chunk wrote its frames and a manifest of its own.
    for (const tag of ['rates_v1', 'rates_v2', 'rates_v3']) {
      const names = fs.readdirSync(path.join(out, tag))
      expect(names.filter((n) => n.endsWith('.vdb') && n.startsWith(`Domain_${tag}`))).toHaveLength(6)
      expect(names.filter((n) => n.endsWith('_manifest.json')).sort()).toEqual([`Domain_${tag}_frames1-4_vdb_manifest.json`, `Domain_${tag}_frames5-6_vdb_manifest.json`])
    }
    expectSame(frames(file, bakeKey('domain', 'w1', 2)), await studioBake(asSubmitted, bakeKey('domain', 'w1', 2)))
  }, 400_000)

  it('keeps the other variants when one task is killed, and resumes that one from its checkpoint', async (ctx) => {
    need(ctx)
    const file = projectWithWedge('killed', 40, 20)
    const submitted = await eddy(['farm', 'submit', file, '--sim', 'Domain', '--wedge', 'rates', '--engine', 'slurm'])
    const jobId = /slurm job (\d+)/.exec(submitted)![1]
    const dirOf = path.join(`${file}.farm`, fs.readdirSync(`${file}.farm`)[0])
    const cacheOf = (k: number) => path.join(dirOf, 'caches', `variant-${k}.eddycache`)
    const key1 = bakeKey('domain', 'w1', 1)
    // Variant 1 is killed once it has a checkpoint and a few frames past it.
    await waitFor('variant 1 to pass its first checkpoints', async () => {
      if (!fs.existsSync(cacheOf(1))) return false
      const f = openCacheFile(cacheOf(1), { create: false })
      try {
        return f.cache.frames(key1).length >= 8
      } finally {
        f.close()
      }
    })
    await run('scancel', [`${jobId}_1`])
    await waitFor('the other variants to finish', async () => {
      const t = await farmStatus(file)
      return t.every((x) => x.state !== 'pending' && x.state !== 'running')
    })
    const tasks = await farmStatus(file)
    expect(tasks.find((t) => t.task === 1)!.state).toBe('cancelled')
    expect(tasks.filter((t) => t.task !== 1).map((t) => t.state)).toEqual(['done', 'done'])
    const resumed = await eddy(['farm', 'submit', file, '--sim', 'Domain', '--wedge', 'rates', '--engine', 'slurm', '--resume'])
    expect(resumed).toMatch(/Submitted 1 variant\(s\) of wedge "rates" as slurm job \d+ \(tasks 1\)/)
    await waitFor('the resumed variant', async () => (await farmStatus(file)).filter((t) => t.task === 1).at(-1)!.state === 'done')
    expect(fs.readFileSync(path.join(dirOf, 'logs', 'bake-1.log'), 'utf8')).toMatch(/resuming frames \d+-40 from the checkpoint at frame \d+/)
    await eddy(['farm', 'merge', file])
    expectSame(frames(file, key1), await studioBake(file, key1))
  }, 600_000)
})

describe('the bake panel\'s farm requests', () => {
  it('submit a simulation without a wedge, report its task, and merge its frames into the open project once it is done', async (ctx) => {
    need(ctx)
    const file = projectWithWedge('panel', 4, 8)
    process.env.EDDY_CLI = CLI
    const { service } = makeService()
    const changes: string[] = []
    service.onProjectChanged = () => changes.push('project.changed')
    try {
      await call(service, 'project.open', { path: file })
      changes.length = 0
      // Asking changes nothing: the bake panel polls it, and a project.changed would poll again.
      expect((await call(service, 'farm.status', {})).engines).toEqual([{ name: 'slurm', problem: null }])
      expect(changes).toEqual([])
      const s = await call(service, 'farm.submit', { domainId: 'domain', engine: 'slurm' })
      expect(s).toMatchObject({ simName: 'Domain', wedgeName: null, variants: [1], problem: null })
      await waitFor('the farm bake', async () => (await call(service, 'farm.status', {})).submissions[0].tasks.every((t) => t.state === 'done'))
      const status = await call(service, 'farm.status', {})
      expect(status.submissions[0].tasks).toEqual([expect.objectContaining({ role: 'bake', variant: 1, task: 1, state: 'done', exitCode: 0 })])
      expect(status.submissions[0].tasks[0].logTail).toMatch(/baked 4 frames/)
      // The poll that saw the task done merged its frames into the open project (once).
      expect((await call(service, 'bake.status', {})).caches.find((c) => c.domainId === 'domain')).toMatchObject({ state: 'done', cached: [[1, 4]] })
      expect((await call(service, 'farm.status', {})).merged).toEqual([])
      await call(service, 'project.open', { path: file })
      expect((await call(service, 'bake.status', {})).caches.find((c) => c.domainId === 'domain')).toMatchObject({ state: 'done', cached: [[1, 4]] })
      expect(await call(service, 'farm.cancel', { submissionId: s.id })).toEqual({ cancelled: true })
    } finally {
      delete process.env.EDDY_CLI
      await service.close()
    }
  }, 180_000)
})

describe('farm submit refuses', () => {
  it('a project the cluster cannot read, a wedge too big, and a missing sbatch, each by name', async (ctx) => {
    need(ctx)
    const file = projectWithWedge('refused', 4, 8)
    const fail = async (args: string[], env: NodeJS.ProcessEnv = process.env): Promise<string> => {
      try {
        await run(process.execPath, [CLI, ...args], { timeout: 120_000, env })
      } catch (e) {
        return (e as { stderr: string }).stderr
      }
      throw new Error('eddy farm submit succeeded')
    }
    const emptyPath = fs.mkdtempSync(path.join(dir, 'path-'))
    const noSbatch = await fail(['farm', 'submit', file, '--sim', 'Domain', '--wedge', 'rates', '--engine', 'slurm'], { ...process.env, PATH: emptyPath })
    expect(noSbatch).toMatch(/sbatch is not on PATH/)
    expect(await fail(['farm', 'submit', file, '--sim', 'Domain', '--wedge', 'nope', '--engine', 'slurm'])).toMatch(/has no wedge named "nope"/)
    expect(await fail(['farm', 'submit', file, '--sim', 'Domain', '--engine', 'deadline'])).toMatch(/deadline engine is not implemented yet; only slurm is/)
    // A wedge of 300 variants written into the file behind the editor's back is still refused.
    const store = ProjectStore.open(file)
    const domain = store.readDocument().objects.find((o) => o.id === 'domain')!
    const huge: Wedge = { id: 'w2', name: 'huge', parameters: [{ objectId: 'source', path: 'rate', range: { start: 0, stop: 10, count: 20 } }, { objectId: 'domain', path: 'buoyancyAlpha', range: { start: 0, stop: 1, count: 15 } }] }
    store.apply({ objects: [{ id: 'domain', after: { ...domain, wedges: [rates, huge] } }] })
    store.close()
    expect(await fail(['farm', 'submit', file, '--sim', 'Domain', '--wedge', 'huge', '--engine', 'slurm'])).toMatch(/Wedge "huge" makes 300 variants; at most 256/)
    // A project on storage only this process sees (a tmpfs in a mount namespace of its own):
    // the probe task on the cluster cannot read it, and nothing is submitted.
    const hidden = fs.mkdtempSync(path.join(dir, 'hidden-'))
    const script = `mount -t tmpfs tmpfs '${hidden}' && cp '${file}' '${hidden}/p.eddy' && exec '${process.execPath}' '${CLI}' farm submit '${hidden}/p.eddy' --sim Domain --wedge rates --engine slurm --probe-timeout 60`
    let stderr = ''
    try {
      await run('unshare', ['-m', '--propagation', 'private', 'sh', '-c', script], { timeout: 120_000 })
    } catch (e) {
      stderr = (e as { stderr: string }).stderr
    }
    expect(stderr).toMatch(/The probe task \d+ ended without answering: .*It must be on storage the cluster's nodes share/)
  }, 180_000)
})
