// The bake API end to end in one process: the service, the BakeManager and real worker
// threads running out/main/bakeWorker.js (built by npm test before the tests run).
import fs from 'node:fs'
import { afterAll, describe, expect, it } from 'vitest'
import { decodeFrame } from '../../../src-shared/formats/frameRecord'
import { events as eventSchemas, type EventEnvelope } from '../../../src-shared/api/contract'
import { ProjectStore } from '../../../src-main/store/projectStore'
import { call, callError, makeService } from '../app/serviceHelpers'
import { makeSmokeProject, tempDir } from './bakeFixtures'

const dir = tempDir('eddy-bakesvc-')
const { service } = makeService()
const events: EventEnvelope[] = []
service.onEvent = (ev) => events.push(ev)
afterAll(async () => {
  await service.close()
  fs.rmSync(dir, { recursive: true, force: true })
})

type Job = Awaited<ReturnType<typeof call<'bake.start'>>>

function waitFor(domainId: string, phases: string[], timeoutMs = 120_000): Promise<Job> {
  return new Promise((resolve, reject) => {
    const t0 = Date.now()
    const tick = (): void => {
      const job = service.bakes.job(domainId)
      if (job && phases.includes(job.phase)) resolve(job as Job)
      else if (Date.now() - t0 > timeoutMs) reject(new Error(`bake of ${domainId} did not reach ${phases.join('/')}: ${JSON.stringify(job?.phase)}`))
      else setTimeout(tick, 20)
    }
    tick()
  })
}

async function setResolution(file: string, res: number): Promise<void> {
  await call(service, 'object.update', { id: 'domain', patch: { params: { resolution: res } } })
  void file
}

describe('bake service', () => {
  it('bakes in a worker with progress events, then serves frames as binary records', async () => {
    const file = makeSmokeProject(dir, { name: 'svc', frames: 5 })
    await call(service, 'project.open', { path: file })
    const est = await call(service, 'bake.estimate', { domainId: 'domain' })
    expect(est).toMatchObject({ layout: '12x12x12 grid', frames: 5, problem: null })
    expect(est.memoryBytes).toBeGreaterThan(12 ** 3 * 100)
    const job = await call(service, 'bake.start', { domainId: 'domain', mode: 'bake' })
    expect(['queued', 'running']).toContain(job.phase)
    const done = await waitFor('domain', ['done', 'failed'])
    expect(done.error).toBeNull()
    expect(done.phase).toBe('done')
    expect(done.progress).toMatchObject({ frame: 5, done: 5, total: 5 })
    expect(done.log.join('\n')).toMatch(/baked 5 frames/)
    // Whole updates when it is queued, starts and ends; coalesced increments in between.
    const updates = events.filter((e) => e.event === 'bake.update').map((e) => eventSchemas['bake.update'].parse(e.payload))
    expect(updates.filter((u) => u.kind === 'full').map((u) => u.job.phase)).toEqual(['queued', 'running', 'running', 'done'])
    expect(updates.map((u) => u.job.seq)).toEqual(updates.map((_, i) => i + 1))
    const last = updates.at(-1)!
    expect(last.kind === 'full' && last.status).toMatchObject({ state: 'done', cached: [[1, 5]], stale: [] })
    expect(last.kind === 'full' && last.status && last.status.timings.map((t) => t.frame)).toEqual([1, 2, 3, 4, 5])
    const status = await call(service, 'bake.status', {})
    expect(status.caches[0]).toMatchObject({ domainId: 'domain', state: 'done', cached: [[1, 5]], stale: [] })
    const rec = await call(service, 'cache.frame', { domainId: 'domain', frame: 3 })
    expect(rec).toBeInstanceOf(Uint8Array)
    expect(decodeFrame(rec).frame).toBe(3)
    expect((await callError(service, 'cache.frame', { domainId: 'domain', frame: 9 })).message).toBe('Frame 9 is not in the cache')
    // An edit marks frames stale; the event path is project.changed, status is re-read.
    await call(service, 'object.update', { id: 'source', patch: { params: { temperature: 700 } } })
    expect((await call(service, 'bake.status', {})).caches[0]).toMatchObject({ cached: [], stale: [[1, 5]] })
    // Clear removes the cache.
    expect(await call(service, 'bake.clear', { domainId: 'domain' })).toMatchObject({ state: 'none', cached: [] })
  })

  it('refuses a bake that cannot fit in memory, before starting anything', async () => {
    await setResolution('', 1024)
    const est = await call(service, 'bake.estimate', { domainId: 'domain' })
    expect(est.problem).toMatch(/needs about .* GiB of memory .*Lower the resolution to \d+ or less/)
    // It says where the ceiling comes from: this machine (beyond 3.5 GiB the kernels run in
    // TypeScript, whose grids are not held to WebAssembly's 4 GiB: bigGrid.test.ts).
    expect(est.problem).toMatch(/more than the .* available for bakes on this machine/)
    const err = await callError(service, 'bake.start', { domainId: 'domain', mode: 'bake' })
    expect(err.code).toBe('RESOURCE_LIMIT')
    expect(service.bakes.isBaking('domain')).toBe(false)
    await setResolution('', 12)
  })

  it('resume without a bake and a second bake of the same domain are refused', async () => {
    expect((await callError(service, 'bake.start', { domainId: 'domain', mode: 'resume' })).message).toMatch(/not been baked yet/)
    await call(service, 'bake.start', { domainId: 'domain', mode: 'bake' })
    expect((await callError(service, 'bake.start', { domainId: 'domain', mode: 'bake' })).message).toMatch(/already baking/)
    await waitFor('domain', ['done', 'failed'])
  })

  it('cancels a 128^3 bake within one substep and prints the latency', async () => {
    const file = makeSmokeProject(dir, { name: 'big', res: 128, frames: 40 })
    await call(service, 'project.open', { path: file })
    await call(service, 'bake.start', { domainId: 'domain', mode: 'bake' })
    // Wait for the first frame so the cancel lands mid-frame, inside the solver.
    const t0 = Date.now()
    // Frame 1 is the initial state; frame 2 is the first stepped one.
    while ((service.bakes.job('domain')?.progress?.frame ?? 0) < 2 && Date.now() - t0 < 120_000) await new Promise((r) => setTimeout(r, 50))
    const first = service.bakes.job('domain')!.progress!
    await new Promise((r) => setTimeout(r, first.msFrame * 0.4))
    const r = await call(service, 'bake.cancel', { domainId: 'domain' })
    expect(r.cancelled).toBe(true)
    expect(r.job?.phase).toBe('cancelled')
    const latency = r.job!.cancelLatencyMs!
    const perSubstep = first.msFrame / first.stats.substeps
    console.log(`cancel latency at 128^3: ${latency.toFixed(0)} ms (frame ${first.msFrame.toFixed(0)} ms, ${first.stats.substeps} substeps, ${perSubstep.toFixed(0)} ms/substep)`)
    // Within one substep (plus the worker's exit), far below a frame.
    expect(latency).toBeLessThan(perSubstep * 1.5 + 500)
    const store = ProjectStore.open(file)
    expect(store.cache.frames('domain').length).toBeGreaterThanOrEqual(1)
    expect(store.integrityCheck()).toBe('ok')
    store.close()
  }, 240_000)
})
