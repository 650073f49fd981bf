// Export from the frame cache: through the API (background job, events, cancel, errors)
// and through `eddy export` (needs the built CLI, out/main/cli.js).
import { spawnSync } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { runBake } from '../../../src-main/bake/runner'
import type { EventEnvelope } from '../../../src-shared/api/contract'
import { call, callError, makeService } from '../app/serviceHelpers'
import { makeSmokeProject, tempDir } from './bakeFixtures'

const CLI = fileURLToPath(new URL('../../../out/main/cli.js', import.meta.url))
const dir = tempDir('eddy-export-')
const { service } = makeService()
const events: EventEnvelope[] = []
service.onEvent = (ev) => events.push(ev)
let file = ''

beforeAll(async () => {
  file = makeSmokeProject(dir, { name: 'exp', frames: 4 })
  await runBake({ projectPath: file, domainId: 'domain', mode: 'bake', kernels: 'ts' })
})
afterAll(async () => {
  await service.close()
  fs.rmSync(dir, { recursive: true, force: true })
})

describe('export from the cache', () => {
  it('eddy export writes a VDB sequence and its manifest', () => {
    const out = path.join(dir, 'vdb')
    const r = spawnSync(process.execPath, [CLI, 'export', file, '--sim', 'Domain', '--format', 'vdb', '--out', out, '--frames', '2-3'], { encoding: 'utf8' })
    expect(r.stderr).toBe('')
    expect(r.status).toBe(0)
    expect(fs.readdirSync(out).sort()).toEqual(['Domain_0002.vdb', 'Domain_0003.vdb', 'Domain_vdb_manifest.json'])
    const m = JSON.parse(fs.readFileSync(path.join(out, 'Domain_vdb_manifest.json'), 'utf8')) as { frameStart: number; frameEnd: number; upAxis: string; files: { frame: number; kind: string }[] }
    expect(m).toMatchObject({ frameStart: 2, frameEnd: 3, upAxis: 'z' })
    expect(m.files.map((f) => [f.frame, f.kind])).toEqual([
      [2, 'volume'],
      [3, 'volume'],
    ])
    expect(r.stdout).toMatch(/EDDY_EXPORT \{"files":2/)
  })

  it('eddy export of particles to PLY, and a clear error for OBJ and PNG of a smoke simulation', () => {
    const out = path.join(dir, 'ply')
    const r = spawnSync(process.execPath, [CLI, 'export', file, '--sim', 'Domain', '--format', 'ply', '--out', out], { encoding: 'utf8' })
    expect(r.status).toBe(0)
    expect(fs.readdirSync(out).filter((f) => f.endsWith('.ply'))).toHaveLength(4)
    const bad = spawnSync(process.execPath, [CLI, 'export', file, '--sim', 'Domain', '--format', 'obj', '--out', path.join(dir, 'obj')], { encoding: 'utf8' })
    expect(bad.status).toBe(1)
    expect(bad.stderr).toMatch(/^eddy: .*no meshes/im)
    const png = spawnSync(process.execPath, [CLI, 'export', file, '--sim', 'Domain', '--format', 'png', '--out', path.join(dir, 'png-cli')], { encoding: 'utf8' })
    expect(png.status).toBe(1)
    expect(png.stderr).toMatch(/^eddy: .*"Domain" has no per-patch textures to write as PNG; PNG atlases come from surface flows/im)
  })

  it('png of a smoke simulation fails the background job with a sentence, writing nothing', async () => {
    await call(service, 'project.open', { path: file })
    const out = path.join(dir, 'png')
    await call(service, 'export.start', { domainId: 'domain', format: 'png', outDir: out })
    const job = await service.exports.settled('domain')
    expect(job).toMatchObject({ phase: 'failed', format: 'png', files: 0 })
    expect(job?.error?.code).toBe('INVALID_PARAM')
    expect(job?.error?.message).toBe('"Domain" has no per-patch textures to write as PNG; PNG atlases come from surface flows (checked on frame 1, the first of the range)')
    expect(fs.readdirSync(out)).toEqual([])
  })

  it('runs as a background job through the API with progress events', async () => {
    await call(service, 'project.open', { path: file })
    const out = path.join(dir, 'api')
    const started = await call(service, 'export.start', { domainId: 'domain', format: 'vdb', outDir: out, upAxis: 'y', padding: 3 })
    expect(started.phase).toBe('running')
    const job = await service.exports.settled('domain')
    expect(job).toMatchObject({ phase: 'done', files: 4, error: null })
    expect(fs.existsSync(path.join(out, 'Domain_001.vdb'))).toBe(true)
    expect(job!.manifestPath).toBe(path.join(out, 'Domain_vdb_manifest.json'))
    const updates = events.filter((e) => e.event === 'export.update')
    expect(updates.length).toBeGreaterThanOrEqual(5)
  })

  it('an export folder that is a file, a range outside the cache, and stale frames are clear errors', async () => {
    const blocker = path.join(dir, 'blocker')
    fs.writeFileSync(blocker, 'x')
    await call(service, 'export.start', { domainId: 'domain', format: 'vdb', outDir: path.join(blocker, 'out') })
    const job = await service.exports.settled('domain')
    expect(job?.phase).toBe('failed')
    expect(job?.error?.message).toMatch(/is a file, not a folder/)
    const range = await callError(service, 'export.start', { domainId: 'domain', format: 'vdb', outDir: path.join(dir, 'r'), frameStart: 3, frameEnd: 9 })
    expect(range.message).toMatch(/5-9 .*not cached|not cached.*5-9/)
    await call(service, 'object.update', { id: 'source', patch: { params: { density: 0.5 } } })
    const stale = await callError(service, 'export.start', { domainId: 'domain', format: 'vdb', outDir: path.join(dir, 's') })
    expect(stale.message).toMatch(/Frames 1-4 of "Domain" are stale/)
    await call(service, 'edit.undo', {})
    await call(service, 'export.start', { domainId: 'domain', format: 'vdb', outDir: path.join(dir, 's') })
    expect((await service.exports.settled('domain'))?.phase).toBe('done')
  })
})
