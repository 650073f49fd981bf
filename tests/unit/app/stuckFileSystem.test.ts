// Issue 11: one stuck file-system call must not freeze the API. An export whose mkdir never
// settles stays cancellable: export.cancel answers at once, other requests keep flowing,
// closing the project and the service do not wait for the stuck call.
import fs from 'node:fs'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { EddyService } from '../../../src-main/app/service'
import { nodeExportFs, type ExportFs } from '../../../src-main/export/atomicFile'
import { runBake } from '../../../src-main/bake/runner'
import { makeSmokeProject, tempDir } from '../bake/bakeFixtures'
import { BAKE_WORKER, call } from './serviceHelpers'

const dir = tempDir('eddy-stuck-svc-')
let file = ''
const mkdirCalls: string[] = []
const stuckFs: ExportFs = {
  ...nodeExportFs,
  mkdirp: (d) => {
    mkdirCalls.push(d)
    return new Promise<void>(() => undefined) // never settles, like mkdir on a dead share
  },
}

beforeAll(async () => {
  file = makeSmokeProject(dir, { name: 'stuck', frames: 2 })
  await runBake({ projectPath: file, domainId: 'domain', mode: 'bake', kernels: 'ts' })
})
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }))

function service(): EddyService {
  const dataDir = path.join(dir, `data-${Math.random().toString(36).slice(2)}`)
  fs.mkdirSync(dataDir)
  return new EddyService({ mode: 'headless', version: 'test', dataDir, projectsDir: path.join(dir, 'projects'), bakeWorker: BAKE_WORKER, exportFs: stuckFs })
}

const timed = async <T>(p: Promise<T>): Promise<{ value: T; ms: number }> => {
  const t0 = performance.now()
  const value = await p
  return { value, ms: performance.now() - t0 }
}

describe('an export stuck in mkdir', () => {
  it('export.cancel answers at once and other requests keep flowing', async () => {
    const s = service()
    await call(s, 'project.open', { path: file })
    const started = await call(s, 'export.start', { domainId: 'domain', format: 'vdb', outDir: path.join(dir, 'never') })
    expect(started.phase).toBe('running')
    while (mkdirCalls.length === 0) await new Promise((r) => setTimeout(r, 5))

    // Unrelated requests answer while the export is stuck.
    expect((await timed(call(s, 'app.info', {}))).ms).toBeLessThan(500)
    expect((await call(s, 'project.get', {}))?.path).toBe(file)
    await call(s, 'project.list', { dir })

    const cancel = await timed(call(s, 'export.cancel', { domainId: 'domain' }))
    expect(cancel.ms).toBeLessThan(500)
    expect(cancel.value.cancelled).toBe(true)
    expect(cancel.value.job?.phase).toBe('cancelled')
    // And after it, the queue still moves.
    await call(s, 'object.update', { id: 'source', patch: { name: 'Still editing' } })
    await s.close()
  })

  it('closing the project and the service do not wait for the stuck call', async () => {
    const s = service()
    await call(s, 'project.open', { path: file })
    await call(s, 'export.start', { domainId: 'domain', format: 'vdb', outDir: path.join(dir, 'never2') })
    const closed = await timed(call(s, 'project.close', {}))
    expect(closed.ms).toBeLessThan(1500)
    expect(closed.value.closed).toBe(true)

    await call(s, 'project.open', { path: file })
    await call(s, 'export.start', { domainId: 'domain', format: 'vdb', outDir: path.join(dir, 'never3') })
    expect((await timed(s.close())).ms).toBeLessThan(1500)
  })

  it('export.cancel does not wait in the queue behind a slow request', async () => {
    const s = service()
    await call(s, 'project.open', { path: file })
    await call(s, 'export.start', { domainId: 'domain', format: 'vdb', outDir: path.join(dir, 'never4') })
    // Hold the queue with a request that takes a while (an app.info behind a slow promise).
    let release: () => void = () => undefined
    const holder = new Promise<void>((r) => (release = r))
    const queue = s as unknown as { queue: Promise<unknown> }
    queue.queue = queue.queue.then(() => holder)
    const queued = call(s, 'app.info', {})
    const cancel = await timed(call(s, 'export.cancel', { domainId: 'domain' }))
    expect(cancel.ms).toBeLessThan(500)
    expect(cancel.value.cancelled).toBe(true)
    release()
    await queued
    await s.close()
  })
})
