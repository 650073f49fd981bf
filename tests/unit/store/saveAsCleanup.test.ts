// Issue 11: Save As with a lone UTF-16 surrogate in the name ("a\uD800b") left a hidden .tmp
// copy: SQLite wrote the surrogate's raw bytes, Node removed a name with U+FFFD. Such names
// are refused before anything is written (INVALID_PARAM naming the field); the temporary
// name is ASCII, so every failure removes exactly the files it created; and a copy on a disk
// that does not answer is abandoned at its deadline without ever appearing under its name.
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { ProjectStore } from '../../../src-main/store/projectStore'
import { saveCopyOffThread } from '../../../src-main/store/saveCopy'
import { EddyError } from '../../../src-shared/api/errors'

const dirs: string[] = []
afterAll(() => dirs.forEach((d) => fs.rmSync(d, { recursive: true, force: true })))

function project(): { store: ProjectStore; dir: string } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'eddy-saveas-'))
  dirs.push(dir)
  const store = ProjectStore.create(path.join(dir, 'src.eddy'), { name: 'Src', fps: 24, frameStart: 1, frameEnd: 10 })
  store.apply({ objects: [{ id: 'd', after: { id: 'd', kind: 'domain', name: 'Domain', params: {} } }] })
  return { store, dir }
}

/** Every entry of `dir` as raw bytes (a name Node cannot decode still shows). */
const entries = (dir: string): string[] => (fs.readdirSync(dir, { encoding: 'buffer' }) as Buffer[]).map((b) => b.toString('latin1')).sort()

async function rejection(p: Promise<unknown> | (() => unknown)): Promise<EddyError> {
  try {
    await (typeof p === 'function' ? p() : p)
  } catch (e) {
    if (e instanceof EddyError) return e
    throw e
  }
  throw new Error('expected a failure')
}

describe('Save As: names and temporary files', () => {
  it('refuses a lone surrogate with INVALID_PARAM naming the field and leaves no file behind (sync and off-thread)', async () => {
    const { store, dir } = project()
    const before = entries(dir)
    const target = path.join(dir, 'a\uD800b.eddy')
    const e1 = await rejection(() => store.saveAs(target))
    expect(e1.code).toBe('INVALID_PARAM')
    expect(e1.details).toMatchObject({ field: 'path' })
    expect(e1.message).toMatch(/lone UTF-16 surrogate/)
    const e2 = await rejection(store.saveAsOffThread(target))
    expect(e2.code).toBe('INVALID_PARAM')
    expect(entries(dir)).toEqual(before)
    store.close()
  })

  it('a copy that fails after it was written removes its temporary files', async () => {
    const { store, dir } = project()
    const before = entries(dir)
    const e = await rejection(saveCopyOffThread(store.path, path.join(dir, 'Ünï 🌊.eddy'), { failAfterCopy: 'simulated I/O error' }))
    expect(e.code).toBe('IO_ERROR')
    expect(e.message).toMatch(/simulated I\/O error/)
    expect(entries(dir)).toEqual(before)
    store.close()
  })

  it('a copy past its deadline is abandoned: IO_ERROR, and it never appears under its name', async () => {
    const { store, dir } = project()
    const before = entries(dir)
    const target = path.join(dir, 'late.eddy')
    const e = await rejection(saveCopyOffThread(store.path, target, { deadlineMs: 0 }))
    expect(e.code).toBe('IO_ERROR')
    expect(e.message).toMatch(/did not answer within/)
    await new Promise((r) => setTimeout(r, 1000)) // the worker notices and cleans up
    expect(fs.existsSync(target)).toBe(false)
    expect(entries(dir)).toEqual(before)
    store.close()
  })

  it('the off-thread copy is a whole project', async () => {
    const { store, dir } = project()
    const copy = await store.saveAsOffThread(path.join(dir, 'copy.eddy'))
    expect(copy.readDocument()).toEqual(store.readDocument())
    expect(copy.integrityCheck()).toBe('ok')
    copy.close()
    store.close()
    expect(entries(dir).filter((f) => f.endsWith('.tmp'))).toEqual([])
  })
})
