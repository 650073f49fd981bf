// Issue 11: a folder parameter that is a file answers a typed error naming the path, not
// INTERNAL (ENOTDIR); a name the file system cannot hold is refused with INVALID_PARAM naming
// the field before anything is written.
import fs from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { call, callError, makeService } from './serviceHelpers'

describe('folder parameters that are files', () => {
  const { service, projectsDir } = makeService()
  fs.mkdirSync(projectsDir, { recursive: true })
  const file = path.join(projectsDir, 'notes.txt')
  fs.writeFileSync(file, 'not a folder')

  it('project.list', async () => {
    const e = await callError(service, 'project.list', { dir: file })
    expect(e.code).toBe('INVALID_PARAM')
    expect(e.message).toBe(`"${file}" is a file, not a folder`)
    expect(e.details).toMatchObject({ field: 'dir', file })
    const below = await callError(service, 'project.list', { dir: path.join(file, 'sub') })
    expect(below.code).not.toBe('INTERNAL')
  })

  it('project.createExample and project.create', async () => {
    const e = await callError(service, 'project.createExample', { id: 'dam-break', dir: file })
    expect(e.code).toBe('INVALID_PARAM')
    expect(e.message).toContain(file)
    const below = await callError(service, 'project.createExample', { id: 'dam-break', dir: path.join(file, 'sub') })
    expect(below.code).toBe('INVALID_PARAM')
    expect(below.message).toContain(path.join(file, 'sub'))
    const c = await callError(service, 'project.create', { name: 'X', dir: file })
    expect(c.code).toBe('INVALID_PARAM')
    expect(c.message).toContain(file)
  })
})

describe('Save As names the file system cannot hold', () => {
  it('a name over 255 bytes is INVALID_PARAM naming the field, and nothing is written', async () => {
    const { service, projectsDir } = makeService()
    await call(service, 'project.create', { name: 'Long' })
    const e = await callError(service, 'project.saveAs', { path: path.join(projectsDir, `${'é'.repeat(130)}.eddy`) })
    expect(e.code).toBe('INVALID_PARAM')
    expect(e.details).toMatchObject({ field: 'path' })
    expect(fs.readdirSync(projectsDir).filter((f) => !/-(wal|shm)$/.test(f))).toEqual(['Long.eddy'])
    await service.close()
  })

  it('Save As still writes a copy under a valid non-ASCII name, leaving no temporary file', async () => {
    const { service, projectsDir } = makeService()
    await call(service, 'project.create', { name: 'Src' })
    await call(service, 'object.add', { kind: 'domain' })
    const target = path.join(projectsDir, 'Ünïcødé 🌊.eddy')
    const s = await call(service, 'project.saveAs', { path: target })
    expect(s.path).toBe(target)
    expect(s.canUndo).toBe(true)
    expect(s.document.objects).toHaveLength(1)
    expect(fs.readdirSync(projectsDir).sort()).toEqual(['Src.eddy', 'Ünïcødé 🌊.eddy', 'Ünïcødé 🌊.eddy-shm', 'Ünïcødé 🌊.eddy-wal'].sort())
    const again = await callError(service, 'project.saveAs', { path: path.join(projectsDir, 'Src.eddy') })
    expect(again.code).toBe('IO_ERROR')
    expect(again.message).toMatch(/already exists/)
    const missing = await callError(service, 'project.saveAs', { path: path.join(projectsDir, 'nope', 'x.eddy') })
    expect(missing.code).toBe('IO_ERROR')
    expect(missing.message).toMatch(/does not exist/)
    await service.close()
  })
})
