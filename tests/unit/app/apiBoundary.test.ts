// What the API refuses at its boundary, before any handler runs: relative paths (they would
// resolve against the host's own folder: under `npm start`, the repository), paths no file
// system can hold, and key or range frames so far out that interpolation turns them into NaN.
import { describe, expect, it } from 'vitest'
import { evaluateObject } from '../../../src-shared/scene/keyframes'
import { call, callError, makeService } from './serviceHelpers'

describe('API boundary', () => {
  const { service, projectsDir } = makeService()

  it('refuses relative paths for open, create, Save As, list and export', async () => {
    for (const [type, params] of [
      ['project.open', { path: 'scene.eddy' }],
      ['project.open', { path: './x/../scene.eddy' }],
      ['project.create', { name: 'A', dir: 'projects' }],
      ['project.saveAs', { path: 'copy.eddy' }],
      ['project.list', { dir: '.' }],
      ['project.createExample', { id: 'dam-break', dir: 'here' }],
      ['export.start', { domainId: 'd', format: 'vdb', outDir: 'out' }],
    ] as const) {
      const e = await callError(service, type, params)
      expect(e.code, type).toBe('INVALID_MESSAGE')
      expect(e.message, type).toMatch(/must be an absolute path/)
    }
  })

  it('refuses a path with a lone surrogate or a NUL byte', async () => {
    expect((await callError(service, 'project.saveAs', { path: `${projectsDir}/a\uD800b.eddy` })).message).toMatch(/lone UTF-16 surrogate/)
    expect((await callError(service, 'project.open', { path: `${projectsDir}/a\u0000b.eddy` })).message).toMatch(/NUL/)
  })

  it('refuses key frames of +-1e308 and keeps keys at the limit finite', async () => {
    const state = await call(service, 'project.create', { name: 'Bounds' })
    expect(state.path).toBeTruthy()
    const { id } = await call(service, 'object.add', { kind: 'domain' })
    for (const frame of [1e308, -1e308, 1_000_001]) {
      const e = await callError(service, 'key.set', { objectId: id, path: 'resolution', frame, value: 32 })
      expect(e.message).toMatch(/frame: must be a frame from -1,000,000 to 1,000,000/)
    }
    expect((await callError(service, 'key.set', { objectId: id, path: 'resolution', frame: 1, value: 1e300 })).message).toMatch(/value: must be a value between/)
    expect((await callError(service, 'project.setMeta', { patch: { frameEnd: 1e308 } })).code).toBe('INVALID_MESSAGE')
    // The limits themselves work, and evaluate to finite values between them.
    await call(service, 'key.set', { objectId: id, path: 'resolution', frame: -1_000_000, value: 16 })
    const s = await call(service, 'key.set', { objectId: id, path: 'resolution', frame: 1_000_000, value: 64 })
    const domain = s.document.objects.find((o) => o.id === id)!
    for (const f of [-1_000_000, 1, 500_000, 1_000_000]) expect(Number.isFinite(evaluateObject(domain, s.document.tracks, f).resolution as number), `frame ${f}`).toBe(true)
    const est = await call(service, 'bake.estimate', { domainId: id })
    expect(est.cells).toBeGreaterThan(0)
  })
})
