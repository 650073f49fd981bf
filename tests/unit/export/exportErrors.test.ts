// What an export refuses and how it fails: option validation naming the field, uncached
// frames, formats with nothing to write, a damaged cache record, file-system failures as
// IO_ERROR sentences, and cancellation that leaves no temporary or partial file behind.
import { chmodSync, existsSync, mkdirSync, openSync, readdirSync, closeSync, writeSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { nodeExportFs, type ExportFs } from '../../../src-main/export/atomicFile'
import { ExportCancelledError, runExport, type ExportOptions, type ExportSource } from '../../../src-main/export/exportJob'
import { EddyError } from '../../../src-shared/api/errors'
import { frameOf, liquidSource, smokeSource, sourceOf } from './fixtures'
import { listDir, removeTempDirs, tempDir } from './readBack'

afterAll(removeTempDirs)

/** The rejection of `p` (fails the test if it resolves). */
async function failure(p: Promise<unknown>): Promise<EddyError & { code: string }> {
  try {
    await p
  } catch (e) {
    return e as EddyError
  }
  throw new Error('expected the export to fail')
}

describe('runExport: refused requests', () => {
  const src = smokeSource([1, 2, 3])
  const ok: ExportOptions = { format: 'vdb', outDir: '/tmp/unused' }
  it.each([
    [{ format: 'fbx' }, 'format', /Unknown export format "fbx"/],
    [{ outDir: 'relative/dir' }, 'outDir', /absolute path/],
    [{ outDir: '' }, 'outDir', /folder path/],
    [{ padding: 0 }, 'padding', /1 to 8/],
    [{ padding: 9 }, 'padding', /1 to 8/],
    [{ padding: 2.5 }, 'padding', /whole number/],
    [{ upAxis: 'x' }, 'upAxis', /"y" or "z"/],
    [{ format: 'glb', upAxis: 'z' }, 'upAxis', /Y up by specification/],
    [{ baseName: '../escape' }, 'baseName', /must start with a letter or digit/],
    [{ baseName: 'a/b' }, 'baseName', /only letters, digits/],
    [{ frameStart: 1.5 }, 'frameStart', /whole frame number/],
    [{ frameStart: 3, frameEnd: 2 }, 'frameEnd', /comes before frameStart/],
    [{ vdbHalf: 'yes' }, 'vdbHalf', /true or false/],
  ] as [Partial<ExportOptions>, string, RegExp][])('%j -> INVALID_PARAM on %s', async (patch, field, message) => {
    const e = await failure(runExport(src, { ...ok, ...patch } as ExportOptions))
    expect(e).toBeInstanceOf(EddyError)
    expect(e.code).toBe('INVALID_PARAM')
    expect(e.details).toMatchObject({ field })
    expect(e.message).toMatch(message)
    expect(src.reads).toEqual([]) // nothing read before the options are known good
  })

  it('names the frames that are not cached (NOT_FOUND) and writes nothing', async () => {
    const dir = join(tempDir(), 'out')
    const s = smokeSource([1, 2, 3, 5, 9, 10, 11])
    const e = await failure(runExport(s, { format: 'vdb', outDir: dir, frameStart: 2, frameEnd: 15 }))
    expect(e.code).toBe('NOT_FOUND')
    expect(e.message).toBe('Frames 4, 6-8 and 12-15 of "Smoke Plume #1" are not cached: bake them first or export a smaller range')
    expect(e.details).toEqual({ missing: ['4', '6-8', '12-15'] })
    expect(existsSync(dir)).toBe(false)
    const one = await failure(runExport(s, { format: 'vdb', outDir: dir, frameStart: 4, frameEnd: 4 }))
    expect(one.message).toMatch(/^Frame 4 of "Smoke Plume #1" is not cached/)
    const none = await failure(runExport(smokeSource([]), { format: 'vdb', outDir: dir }))
    expect([none.code, none.message]).toEqual(['NOT_FOUND', 'Nothing of "Smoke Plume #1" is cached yet: bake it before exporting'])
  })

  it.each([
    ['obj', smokeSource, /"Smoke Plume #1" has no meshes, so there is nothing to write as OBJ; a smoke simulation exports as VDB/],
    ['glb', smokeSource, /has no meshes, so there is nothing to write as GLB/],
    ['ply', smokeSource, /has neither particles nor meshes, so there is nothing to write as PLY/],
    ['vdb', liquidSource, /"liquid" has no volumes .* so there is nothing to write as OpenVDB/],
  ] as const)('%s of a simulation without that kind of data is INVALID_PARAM with a sentence', async (format, make, message) => {
    const dir = tempDir()
    const e = await failure(runExport(make([1, 2]), { format, outDir: dir }))
    expect(e.code).toBe('INVALID_PARAM')
    expect(e.message).toMatch(message)
    expect(e.message).toMatch(/checked on frame 1/)
    expect(listDir(dir)).toEqual([])
  })

  it("passes a damaged record's PROJECT_FORMAT error on with its frame, after writing the frames before it", async () => {
    const dir = tempDir()
    const good = liquidSource([1, 2, 3])
    const src: ExportSource = {
      ...good,
      read(f) {
        if (f === 3) throw new EddyError('PROJECT_FORMAT', 'cache record is truncated', { key: 'r3' })
        return good.read(f)
      },
    }
    const e = await failure(runExport(src, { format: 'obj', outDir: dir }))
    expect(e.code).toBe('PROJECT_FORMAT')
    expect(e.message).toBe('Frame 3 of "liquid": cache record is truncated')
    expect(e.details).toEqual({ key: 'r3', frame: 3 })
    // Finished frames stay; no manifest marks the export as unfinished.
    expect(listDir(dir)).toEqual(['liquid_0001.obj', 'liquid_0002.obj'])
  })

  it('refuses a read that hands back another frame (a cache bug would shift the sequence)', async () => {
    const src = sourceOf('s', [1, 2], () => frameOf(1, { meshes: [] }))
    const e = await failure(runExport(src, { format: 'obj', outDir: tempDir(), frameStart: 2 }))
    expect([e.code, e.message]).toEqual(['INTERNAL', 'Reading frame 2 of "s" returned frame 1'])
  })
})

describe('runExport: file-system failures', () => {
  it('reports an export folder whose parent is a file (ENOTDIR) naming that file', async () => {
    const root = tempDir()
    writeFileSync(join(root, 'notes.txt'), 'not a folder')
    const e = await failure(runExport(liquidSource([1]), { format: 'obj', outDir: join(root, 'notes.txt', 'exports') }))
    expect(e.code).toBe('IO_ERROR')
    expect(e.message).toBe(`${join(root, 'notes.txt')} is a file, not a folder`)
  })

  it('reports an export folder that is itself a file', async () => {
    const root = tempDir()
    const file = join(root, 'exports')
    writeFileSync(file, '')
    const e = await failure(runExport(liquidSource([1]), { format: 'obj', outDir: file }))
    expect([e.code, e.message]).toEqual(['IO_ERROR', `${file} is a file, not a folder`])
  })

  it('reports a final name taken by a folder, and leaves no temporary file', async () => {
    const dir = tempDir()
    mkdirSync(join(dir, 'liquid_0001.obj'))
    const e = await failure(runExport(liquidSource([1]), { format: 'obj', outDir: dir }))
    expect(e.code).toBe('IO_ERROR')
    expect(e.message).toBe(`${join(dir, 'liquid_0001.obj')} is a folder, so the export cannot write a file there`)
    expect(listDir(dir)).toEqual(['liquid_0001.obj'])
  })

  it('reports a full disk naming the file, with no temporary or partial file left', async () => {
    // The operating system's own ENOSPC: the temporary file's bytes are written to /dev/full
    // (which always fails that way); everything else is the real file system.
    const dir = tempDir()
    const fullDisk: ExportFs = {
      ...nodeExportFs,
      async writeNew(path, bytes) {
        if (!path.includes('_0002.')) return nodeExportFs.writeNew(path, bytes)
        writeFileSync(path, '') // the temporary file exists when the write fails, as on a real disk
        const fd = openSync('/dev/full', 'w')
        try {
          writeSync(fd, bytes)
        } finally {
          closeSync(fd)
        }
      },
    }
    const e = await failure(runExport(liquidSource([1, 2, 3]), { format: 'obj', outDir: dir }, { fs: fullDisk }))
    expect(e.code).toBe('IO_ERROR')
    expect(e.message).toBe(`The disk is full: could not write ${join(dir, 'liquid_0002.obj')}`)
    expect(e.details).toMatchObject({ cause: 'ENOSPC' })
    expect(listDir(dir)).toEqual(['liquid_0001.obj'])
  })

  // chmod does not stop root (tests in containers often run as root), so this case needs an
  // ordinary user to mean anything.
  it.skipIf(process.getuid?.() === 0)('reports a folder without write permission (skipped as root: chmod does not stop root)', async () => {
    const dir = tempDir()
    chmodSync(dir, 0o500)
    try {
      const e = await failure(runExport(liquidSource([1]), { format: 'obj', outDir: dir }))
      expect([e.code, e.message]).toEqual(['IO_ERROR', `Cannot write to the export folder ${dir}: permission denied`])
    } finally {
      chmodSync(dir, 0o700)
    }
  })
})

describe('runExport: progress and cancel', () => {
  it('reports every file written, counting finished frames', async () => {
    const seen: unknown[] = []
    await runExport(liquidSource([4, 5]), { format: 'ply', outDir: tempDir() }, { onProgress: (p) => seen.push(p) })
    expect(seen).toEqual([
      { done: 0, total: 2, frame: 4, file: 'liquid_spray_0004.ply' },
      { done: 1, total: 2, frame: 4, file: 'liquid_surface_0004.ply' },
      { done: 1, total: 2, frame: 5, file: 'liquid_spray_0005.ply' },
      { done: 2, total: 2, frame: 5, file: 'liquid_surface_0005.ply' },
    ])
  })

  it('stops between files when cancelled: complete files only, no temporary files, no manifest', async () => {
    const dir = tempDir()
    // An earlier export's manifest must not survive to describe a half-replaced folder.
    writeFileSync(join(dir, 'liquid_ply_manifest.json'), '{}')
    const abort = new AbortController()
    const src = liquidSource([1, 2, 3])
    let files = 0
    const e = await failure(runExport(src, { format: 'ply', outDir: dir }, { signal: abort.signal, onProgress: () => ++files === 3 && abort.abort() }))
    expect(e).toBeInstanceOf(ExportCancelledError)
    expect(e.code).toBe('CANCELLED')
    expect(e.message).toBe('Export cancelled before writing liquid_surface_0002.ply')
    expect(readdirSync(dir).sort()).toEqual(['liquid_spray_0001.ply', 'liquid_spray_0002.ply', 'liquid_surface_0001.ply'])
    expect(src.reads).toEqual([1, 2])
  })

  it('cancelled before it starts touches nothing', async () => {
    const dir = join(tempDir(), 'never')
    const abort = new AbortController()
    abort.abort()
    const e = await failure(runExport(smokeSource(), { format: 'vdb', outDir: dir }, { signal: abort.signal }))
    expect(e).toBeInstanceOf(ExportCancelledError)
    expect(existsSync(dir)).toBe(false)
  })

  it('a write that fails mid-file removes its temporary file (nothing under the final name)', async () => {
    const dir = tempDir()
    const halfWritten: ExportFs = {
      ...nodeExportFs,
      async writeNew(path, bytes) {
        writeFileSync(path, bytes.subarray(0, bytes.length >> 1))
        throw Object.assign(new Error('EIO: i/o error, write'), { code: 'EIO' })
      },
    }
    const e = await failure(runExport(smokeSource([1]), { format: 'vdb', outDir: dir }, { fs: halfWritten }))
    expect([e.code, e.message]).toEqual(['IO_ERROR', `Could not write ${join(dir, 'Smoke_Plume_1_0001.vdb')}: EIO: i/o error, write`])
    expect(listDir(dir)).toEqual([])
  })
})
