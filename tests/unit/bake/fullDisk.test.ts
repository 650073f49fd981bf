// A disk that fills up mid-bake: the bake stops with a sentence that says what happened and
// what was kept, the project file stays intact, and Resume continues once space is freed.
// Needs a small file system of its own: a tmpfs mounted here (root only; skipped otherwise).
import { spawnSync } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { runBake } from '../../../src-main/bake/runner'
import { cacheStatus } from '../../../src-main/bake/status'
import { ProjectStore } from '../../../src-main/store/projectStore'
import { makeSmokeProject, tempDir } from './bakeFixtures'

const dir = tempDir('eddy-full-')
const mnt = path.join(dir, 'small-disk')
fs.mkdirSync(mnt)
const mounted = process.getuid?.() === 0 && spawnSync('mount', ['-t', 'tmpfs', '-o', 'size=6m', 'tmpfs', mnt]).status === 0
if (!mounted) console.log('skipping the full-disk bake test: it needs root to mount a small tmpfs')
afterAll(() => {
  if (mounted) spawnSync('umount', [mnt])
  fs.rmSync(dir, { recursive: true, force: true })
})

function fillDisk(file: string): void {
  const chunk = Buffer.alloc(64 * 1024, 1)
  const fd = fs.openSync(file, 'w')
  try {
    for (;;) fs.writeSync(fd, chunk)
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'ENOSPC') throw e
  } finally {
    fs.closeSync(fd)
  }
}

describe.skipIf(!mounted)('a full disk mid-bake', () => {
  it('stops with a clear message, keeps the finished frames, and resumes after space is freed', async () => {
    const file = makeSmokeProject(mnt, { res: 16, frames: 12 })
    const filler = path.join(mnt, 'filler.bin')
    const err = await runBake(
      { projectPath: file, domainId: 'domain', mode: 'bake', kernels: 'ts', checkpointEvery: 2 },
      { progress: (p) => p.frame === 4 && fillDisk(filler) },
    ).catch((e: unknown) => e)
    expect(err).toMatchObject({ code: 'IO_ERROR' })
    expect((err as Error).message).toMatch(/^The disk is full: frame \d+ could not be cached\. Frames before \d+ are kept; free some space and Resume\.$/)
    fs.rmSync(filler)
    const store = ProjectStore.open(file)
    expect(store.integrityCheck()).toBe('ok')
    const s = cacheStatus(store.readDocument(), store.cache, 'domain')
    store.close()
    // Recording 'failed' needs disk space too; when that also failed the row still says
    // 'baking', which the service reports as an interrupted bake (and the job carries the error).
    expect(['failed', 'baking']).toContain(s.state)
    expect(s.cached[0][0]).toBe(1)
    expect(s.cached[0][1]).toBeGreaterThanOrEqual(4)
    const r = await runBake({ projectPath: file, domainId: 'domain', mode: 'resume', kernels: 'ts' })
    expect(r.state).toBe('done')
    const again = ProjectStore.open(file)
    expect(cacheStatus(again.readDocument(), again.cache, 'domain').cached).toEqual([[1, 12]])
    again.close()
  })
})
