// Issue 11: a file that passes SQLite's checks but holds a damaged row must not cost the
// open project anything: PROJECT_FORMAT names the row, the open project and its undo history
// stay, and the bad file's connection is closed (its -wal and -shm files are gone).
import fs from 'node:fs'
import path from 'node:path'
import Database from 'better-sqlite3'
import { describe, expect, it } from 'vitest'
import { ProjectStore } from '../../../src-main/store/projectStore'
import { call, callError, makeService } from './serviceHelpers'

/** A valid project with one domain named "Tank", then `damage` applied with plain SQL. */
async function damagedFile(dir: string, name: string, damage: (db: Database.Database, domainId: string) => void): Promise<{ file: string; domainId: string }> {
  const file = path.join(dir, `${name}.eddy`)
  const store = ProjectStore.create(file, { name, fps: 24, frameStart: 1, frameEnd: 10 })
  const domainId = 'dom-1'
  store.apply({ objects: [{ id: domainId, after: { id: domainId, kind: 'domain', name: 'Tank', params: {} } }] })
  store.close()
  const db = new Database(file)
  damage(db, domainId)
  db.close()
  return { file, domainId }
}

async function withOpenProject() {
  const { service, projectsDir } = makeService()
  const s = await call(service, 'project.create', { name: 'Good' })
  const { id } = await call(service, 'object.add', { kind: 'emitter' })
  await call(service, 'object.update', { id, patch: { name: 'Nozzle' } })
  return { service, projectsDir, good: s.path }
}

async function expectKept(service: Awaited<ReturnType<typeof withOpenProject>>['service'], good: string, bad: string): Promise<void> {
  const state = await call(service, 'project.get', {})
  expect(state?.path).toBe(good)
  expect(state?.canUndo).toBe(true)
  expect(state?.undoLabel).toBeTruthy()
  // The history still works on the kept project.
  const undone = await call(service, 'edit.undo', {})
  expect(undone.document.objects.map((o) => o.name)).toEqual(['Emitter'])
  // The bad file's connection was closed: SQLite removes -wal and -shm with the last one.
  expect(fs.existsSync(`${bad}-wal`)).toBe(false)
  expect(fs.existsSync(`${bad}-shm`)).toBe(false)
}

describe('project.open of a damaged file keeps the open project', () => {
  it('an object row with truncated JSON: PROJECT_FORMAT naming the object, not INTERNAL', async () => {
    const { service, projectsDir, good } = await withOpenProject()
    const { file, domainId } = await damagedFile(projectsDir, 'truncated', (db, id) => db.prepare('UPDATE objects SET data = substr(data, 1, 25) WHERE id = ?').run(id))
    const err = await callError(service, 'project.open', { path: file })
    expect(err.code).toBe('PROJECT_FORMAT')
    expect(err.message).toMatch(/object "Tank" \(id dom-1\) is truncated or not valid JSON/)
    expect(err.details).toMatchObject({ table: 'objects', id: domainId, name: 'Tank' })
    await expectKept(service, good, file)
    await service.close()
  })

  it('a missing project setting: PROJECT_FORMAT naming the key', async () => {
    const { service, projectsDir, good } = await withOpenProject()
    const { file } = await damagedFile(projectsDir, 'nofps', (db) => db.prepare("DELETE FROM meta WHERE key = 'fps'").run())
    const err = await callError(service, 'project.open', { path: file })
    expect(err.code).toBe('PROJECT_FORMAT')
    expect(err.message).toMatch(/project setting 'fps' is missing/)
    expect(err.details).toMatchObject({ table: 'meta', key: 'fps' })
    await expectKept(service, good, file)
    await service.close()
  })

  it('an object whose parameters fail validation: PROJECT_FORMAT naming the object and parameter', async () => {
    const { service, projectsDir, good } = await withOpenProject()
    const { file } = await damagedFile(projectsDir, 'range', (db, id) => db.prepare("UPDATE objects SET data = json_set(data, '$.params.resolution', 5000) WHERE id = ?").run(id))
    const err = await callError(service, 'project.open', { path: file })
    expect(err.code).toBe('PROJECT_FORMAT')
    expect(err.message).toMatch(/object "Tank" \(id dom-1\): Resolution/)
    expect(err.details).toMatchObject({ table: 'objects', id: 'dom-1', name: 'Tank', key: 'resolution' })
    await expectKept(service, good, file)
    await service.close()
  })

  it('an invalid setting value and a malformed track are named too; a sound file still opens', async () => {
    const { service, projectsDir, good } = await withOpenProject()
    const fps = await damagedFile(projectsDir, 'fps0', (db) => db.prepare("UPDATE meta SET value = '0' WHERE key = 'fps'").run())
    expect(await callError(service, 'project.open', { path: fps.file })).toMatchObject({ code: 'PROJECT_FORMAT', details: { table: 'meta', key: 'fps' } })
    const track = await damagedFile(projectsDir, 'track', (db, id) => db.prepare("INSERT INTO tracks (object_id, path, keys) VALUES (?, 'resolution', '[{\"frame\": 1')").run(id))
    expect(await callError(service, 'project.open', { path: track.file })).toMatchObject({ code: 'PROJECT_FORMAT', details: { table: 'tracks', id: 'dom-1', key: 'resolution' } })
    await expectKept(service, good, track.file)
    const sound = await damagedFile(projectsDir, 'sound', () => undefined)
    expect((await call(service, 'project.open', { path: sound.file })).document.objects[0].name).toBe('Tank')
    await service.close()
  })
})
