// Checkpoints carry a CRC: a damaged one (flipped bytes, a truncated blob, an old unsealed one
// that no longer inflates) is named in the bake's log and skipped, and Resume falls back to the
// checkpoint before it, re-simulating the frames between: the result is still byte for byte the
// uninterrupted bake.
import fs from 'node:fs'
import path from 'node:path'
import Database from 'better-sqlite3'
import { afterAll, describe, expect, it } from 'vitest'
import { isEddyError } from '../../../src-shared/api/errors'
import { runBake } from '../../../src-main/bake/runner'
import { openCheckpoint, sealCheckpoint } from '../../../src-main/store/checkpointSeal'
import { ProjectStore } from '../../../src-main/store/projectStore'
import { makeSmokeProject, tempDir } from './bakeFixtures'

const dir = tempDir('eddy-ckpt-')
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }))
const base = { domainId: 'domain', kernels: 'ts' as const, checkpointEvery: 2 }

function frames(file: string): Map<number, Buffer> {
  const db = new Database(file, { readonly: true })
  const rows = db.prepare("SELECT frame, data FROM frames WHERE bake_id = 'domain' AND kind = 'frame' ORDER BY frame").all() as { frame: number; data: Buffer }[]
  db.close()
  return new Map(rows.map((r) => [r.frame, r.data]))
}

/** Loses frames after 4 (a crash) and damages the checkpoint at 4 with `damage`. */
function crashAndDamage(file: string, damage: (blob: Buffer) => Buffer): void {
  const db = new Database(file)
  db.exec(`DELETE FROM frames WHERE frame > 4; DELETE FROM checkpoints WHERE frame > 4`)
  const blob = db.prepare("SELECT data FROM checkpoints WHERE bake_id = 'domain' AND frame = 4").pluck().get() as Buffer
  db.prepare("UPDATE checkpoints SET data = ? WHERE bake_id = 'domain' AND frame = 4").run(damage(Buffer.from(blob)))
  db.close()
}

describe('checkpoint integrity', () => {
  const reference = makeSmokeProject(dir, { name: 'reference' })
  let full: Map<number, Buffer>

  it('seals with a CRC and names the frame of a damaged one', () => {
    const payload = new Uint8Array([1, 2, 3, 4, 5])
    const sealed = sealCheckpoint(payload)
    expect(Array.from(openCheckpoint(sealed, 7, 'd'))).toEqual([1, 2, 3, 4, 5])
    sealed[9] ^= 0x10
    let err: unknown = null
    try {
      openCheckpoint(sealed, 7, 'd')
    } catch (e) {
      err = e
    }
    expect(isEddyError(err) && err.code).toBe('PROJECT_FORMAT')
    expect((err as Error).message).toMatch(/checkpoint at frame 7 is damaged \(CRC/)
  })

  it('the reference bake', async () => {
    await runBake({ ...base, projectPath: reference, mode: 'bake' })
    full = frames(reference)
    expect(full.size).toBe(6)
  })

  for (const [what, damage, why] of [
    ['flipped bytes', (b: Buffer) => ((b[b.length >> 1] ^= 0xff), b), /checkpoint at frame 4 is damaged \(CRC/],
    ['a truncated blob', (b: Buffer) => b.subarray(0, b.length >> 1), /checkpoint at frame 4 is damaged \(CRC/],
    // A checkpoint from before the seal (no magic) that no longer inflates.
    ['an unsealed, truncated blob', (b: Buffer) => b.subarray(8, 8 + (b.length >> 2)), /checkpoint at frame 4 could not be restored/],
  ] as const) {
    it(`resume skips a checkpoint with ${what} and falls back to the one before`, async () => {
      const file = path.join(dir, `${what.replace(/\W+/g, '-')}.eddy`)
      fs.copyFileSync(reference, file)
      crashAndDamage(file, damage)
      const log: string[] = []
      const r = await runBake({ ...base, projectPath: file, mode: 'resume' }, { log: (l) => log.push(l) })
      expect(log.join('\n')).toMatch(why)
      expect(log.join('\n')).toMatch(/skipped/)
      // From the checkpoint at 2: frames 3-6 re-simulated, byte for byte the uninterrupted bake.
      expect(r).toMatchObject({ state: 'done', firstFrame: 3, lastFrame: 6 })
      const again = frames(file)
      for (let f = 1; f <= 6; f++) expect(again.get(f)!.equals(full.get(f)!), `frame ${f}`).toBe(true)
      const store = ProjectStore.open(file)
      expect(store.cache.checkpoints('domain').map((c) => c.frame)).toEqual([2, 4, 6])
      store.close()
    })
  }
})
