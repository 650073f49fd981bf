// Issue 11: a file-system call that never settles (a dead network share, Node's recursive
// mkdir looping under /proc/<pid>) must not keep an export "running" forever: Cancel ends it
// at once, a deadline fails it with IO_ERROR naming the folder, and a write left behind still
// has its temporary file removed, by the path it was written to. And a missing folder that
// cannot be created is described as such, not as a folder that "disappeared".
import { mkdirSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { nodeExportFs, type ExportFs } from '../../../src-main/export/atomicFile'
import { runExport } from '../../../src-main/export/exportJob'
import { EddyError } from '../../../src-shared/api/errors'
import { smokeSource } from './fixtures'
import { removeTempDirs, tempDir } from './readBack'

afterAll(removeTempDirs)

const never = <T>(): Promise<T> => new Promise<T>(() => undefined)

async function failure(p: Promise<unknown>): Promise<EddyError> {
  try {
    await p
  } catch (e) {
    if (e instanceof EddyError) return e
    throw e
  }
  throw new Error('expected the export to fail')
}

describe('runExport: a file-system call that never settles', () => {
  it('a stuck mkdir: Cancel ends the export at once with CANCELLED', async () => {
    const fs: ExportFs = { ...nodeExportFs, mkdirp: () => never() }
    const abort = new AbortController()
    const run = runExport(smokeSource(), { format: 'vdb', outDir: join(tempDir('eddy-stuck-'), 'out') }, { fs, signal: abort.signal })
    await new Promise((r) => setTimeout(r, 50))
    const t0 = performance.now()
    abort.abort()
    const e = await failure(run)
    // At once: well inside the 30 s deadline, with room for a loaded CI machine.
    expect(performance.now() - t0).toBeLessThan(1000)
    expect(e.code).toBe('CANCELLED')
    expect(e.message).toMatch(/creating the export folder/)
  })

  it('a stuck mkdir without Cancel fails with IO_ERROR naming the folder after the deadline', async () => {
    const out = join(tempDir('eddy-stuck-'), 'out')
    const fs: ExportFs = { ...nodeExportFs, mkdirp: () => never() }
    const e = await failure(runExport(smokeSource(), { format: 'vdb', outDir: out }, { fs, fsDeadlineMs: 100 }))
    expect(e.code).toBe('IO_ERROR')
    expect(e.message).toContain(out)
    expect(e.message).toMatch(/did not answer within/)
  })

  it('a stuck write: Cancel ends the export at once, and the temporary file is removed by the same path once the write returns', async () => {
    const dir = tempDir('eddy-stuck-')
    let releaseWrite: () => void = () => undefined
    const written: string[] = []
    const removed: string[] = []
    const fs: ExportFs = {
      ...nodeExportFs,
      writeNew: async (path, bytes) => {
        written.push(path)
        await new Promise<void>((r) => (releaseWrite = r))
        await nodeExportFs.writeNew(path, bytes)
      },
      remove: async (path) => {
        removed.push(path)
        await nodeExportFs.remove(path)
      },
    }
    const abort = new AbortController()
    const run = runExport(smokeSource(), { format: 'vdb', outDir: dir }, { fs, signal: abort.signal })
    while (written.length === 0) await new Promise((r) => setTimeout(r, 5))
    abort.abort()
    expect((await failure(run)).code).toBe('CANCELLED')
    // The abandoned write completes later: its file must not stay behind.
    releaseWrite()
    await new Promise((r) => setTimeout(r, 100))
    expect(removed).toContain(written[0])
    const { readdirSync } = await import('node:fs')
    expect(readdirSync(dir)).toEqual([])
  })
})

describe('runExport: a missing folder that cannot be created', () => {
  it('says the folder does not exist and cannot be created on a read-only file system (not "disappeared")', async () => {
    const base = tempDir('eddy-ro-')
    mkdirSync(join(base, 'disk'))
    const out = join(base, 'disk', 'missing', 'out')
    const enoent = Object.assign(new Error(`ENOENT: no such file or directory, mkdir '${out}'`), { code: 'ENOENT' })
    const fs: ExportFs = {
      ...nodeExportFs,
      mkdirp: () => Promise.reject(enoent),
      checkWritable: (d) => (d === join(base, 'disk') ? Promise.reject(Object.assign(new Error('EROFS'), { code: 'EROFS' })) : Promise.resolve()),
    }
    const e = await failure(runExport(smokeSource(), { format: 'vdb', outDir: out }, { fs }))
    expect(e.code).toBe('IO_ERROR')
    expect(e.message).toBe(`The export folder ${out} does not exist and cannot be created: ${join(base, 'disk')} is on a read-only file system`)
    expect(e.message).not.toMatch(/disappeared/)
  })

  it('names a permission problem of the nearest existing folder', async () => {
    const base = tempDir('eddy-ro-')
    const out = join(base, 'a', 'b')
    const fs: ExportFs = {
      ...nodeExportFs,
      mkdirp: () => Promise.reject(Object.assign(new Error('ENOENT'), { code: 'ENOENT' })),
      checkWritable: () => Promise.reject(Object.assign(new Error('EACCES'), { code: 'EACCES' })),
    }
    const e = await failure(runExport(smokeSource(), { format: 'vdb', outDir: out }, { fs }))
    expect(e.message).toBe(`The export folder ${out} does not exist and cannot be created: permission denied to create folders in ${base}`)
  })
})
