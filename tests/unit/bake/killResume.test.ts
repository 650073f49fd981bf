// The crash-safety promise of the frame cache, through the real command line: `eddy bake`
// killed with SIGKILL at a random moment keeps every completed frame, the project passes
// PRAGMA integrity_check, and `--mode resume` then writes frames byte-identical to an
// uninterrupted bake. Needs the built CLI (out/main/cli.js; npm test builds first).
import { spawn, spawnSync } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import Database from 'better-sqlite3'
import { afterAll, describe, expect, it } from 'vitest'
import { makeSmokeProject, tempDir } from './bakeFixtures'

const CLI = fileURLToPath(new URL('../../../out/main/cli.js', import.meta.url))
const dir = tempDir('eddy-kill-')
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }))

const FRAMES = 30
const ARGS = ['--sim', 'Domain', '--frames', `1-${FRAMES}`, '--checkpoint-every', '3', '--threads', '1']

function frameRows(file: string): { frame: number; data: Buffer }[] {
  const db = new Database(file, { readonly: true, fileMustExist: true })
  try {
    return db.prepare(`SELECT frame, data FROM frames WHERE bake_id = 'domain' AND kind = 'frame' ORDER BY frame`).all() as { frame: number; data: Buffer }[]
  } finally {
    db.close()
  }
}

describe('eddy bake killed with kill -9', () => {
  it('keeps completed frames and resumes to the same bytes as an uninterrupted bake', async () => {
    const reference = makeSmokeProject(dir, { name: 'reference', res: 24, frames: FRAMES })
    const victim = path.join(dir, 'victim.eddy')
    fs.copyFileSync(reference, victim)

    const ok = spawnSync(process.execPath, [CLI, 'bake', reference, ...ARGS], { encoding: 'utf8' })
    expect(ok.stderr).toBe('')
    expect(ok.status).toBe(0)
    expect(ok.stdout).toMatch(/EDDY_BAKE \{"domainId":"domain","state":"done","framesWritten":30/)
    const full = frameRows(reference)
    expect(full.map((r) => r.frame)).toEqual(Array.from({ length: FRAMES }, (_, i) => i + 1))

    // Kill at a random moment after at least two frames (so checkpoint 3 may or may not exist).
    const child = spawn(process.execPath, [CLI, 'bake', victim, ...ARGS], { stdio: 'ignore' })
    const target = 2 + Math.floor(Math.random() * (FRAMES - 12))
    const t0 = Date.now()
    for (;;) {
      await new Promise((r) => setTimeout(r, 5 + Math.random() * 15))
      let n = 0
      try {
        n = frameRows(victim).length
      } catch {
        n = 0 // the writer holds the schema lock for a moment at start-up
      }
      if (n >= target || Date.now() - t0 > 60_000) break
    }
    await new Promise((r) => setTimeout(r, Math.random() * 30))
    child.kill('SIGKILL')
    await new Promise((r) => child.once('exit', r))

    const db = new Database(victim)
    expect(db.pragma('integrity_check', { simple: true })).toBe('ok')
    const status = db.prepare(`SELECT status FROM bakes WHERE id = 'domain'`).pluck().get()
    db.close()
    const kept = frameRows(victim)
    console.log(`killed after ${kept.length} of ${FRAMES} frames (aimed at ${target}); bake state left as '${String(status)}'`)
    expect(kept.length).toBeGreaterThanOrEqual(2)
    expect(kept.length).toBeLessThan(FRAMES)
    // Every kept frame is complete and identical to the uninterrupted bake's.
    kept.forEach((r, i) => {
      expect(r.frame).toBe(i + 1)
      expect(r.data.equals(full[i].data), `frame ${r.frame}`).toBe(true)
    })

    const resumed = spawnSync(process.execPath, [CLI, 'bake', victim, '--sim', 'Domain', '--mode', 'resume', '--threads', '1'], { encoding: 'utf8' })
    expect(resumed.stderr).toBe('')
    expect(resumed.status).toBe(0)
    const after = frameRows(victim)
    expect(after.map((r) => r.frame)).toEqual(full.map((r) => r.frame))
    after.forEach((r, i) => expect(r.data.equals(full[i].data), `frame ${r.frame} after resume`).toBe(true))
  }, 180_000)

  it('reports a missing simulation and a bad frame range in one sentence', () => {
    const file = makeSmokeProject(dir, { name: 'args' })
    const r = spawnSync(process.execPath, [CLI, 'bake', file, '--sim', 'Nope'], { encoding: 'utf8' })
    expect(r.status).toBe(1)
    expect(r.stderr).toMatch(/No simulation named "Nope" .*\(simulations: "Domain"\)/)
    const r2 = spawnSync(process.execPath, [CLI, 'bake', file, '--sim', 'Domain', '--frames', '9-3'], { encoding: 'utf8' })
    expect(r2.status).toBe(2)
    expect(r2.stderr).toMatch(/--frames 9-3 is empty/)
  })
})
