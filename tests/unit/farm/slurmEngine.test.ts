// SlurmEngine against a real single-node Slurm cluster (scripts/slurm-cluster.sh starts one):
// arrays with a failing task, dependencies (met and failed), cancelling one task, the probe.
// Needs root and slurm-wlm + munge installed; each test says why it skipped otherwise.
import { spawnSync } from 'node:child_process'
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import Database from 'better-sqlite3'
import { afterAll, beforeAll, describe, expect, it, type TestContext } from 'vitest'
import type { FarmTaskStatus, SubmittedArray } from '../../../src-main/farm/engine'
import { arraySpec, bashQuote, expandTaskSpec, parseSqueue, SlurmEngine } from '../../../src-main/farm/slurmEngine'
import { EddyError } from '../../../src-shared/api/errors'
import { startLocalCluster } from './localCluster'

const dir = mkdtempSync(join(tmpdir(), 'eddy-slurm-'))
const engine = new SlurmEngine()
const submitted: string[] = []
let skipReason = ''

beforeAll(async () => {
  skipReason = await startLocalCluster()
  if (skipReason) console.log(`skipping the Slurm engine tests: ${skipReason}`)
}, 90_000)

afterAll(async () => {
  for (const id of submitted) await engine.cancel(id).catch(() => undefined)
  rmSync(dir, { recursive: true, force: true })
})

function needCluster(ctx: TestContext): void {
  if (skipReason) ctx.skip(skipReason)
}

async function submit(name: string, indices: number[], script: string, extra: { after?: { arrayId: string; tasks?: number[] }; cpus?: number } = {}): Promise<SubmittedArray> {
  const a = await engine.submit(
    {
      name,
      indices,
      argv: ['/bin/sh', '-c', script],
      cwd: dir,
      logPath: join(dir, name, 'log-{TASK}.txt'),
      exitCodePath: join(dir, name, 'rc-{TASK}'),
      cpus: extra.cpus ?? 1,
      after: extra.after,
    },
    {},
  )
  submitted.push(a.id)
  return a
}

const FINAL = new Set(['done', 'failed', 'cancelled'])

/** Polls until every task of `arrays` has ended (or `until` holds); bounded. */
async function waitFor(arrays: SubmittedArray[], until: (s: FarmTaskStatus[]) => boolean = (s) => s.every((t) => FINAL.has(t.state)), timeoutMs = 30_000) {
  const seen: FarmTaskStatus[][] = []
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const s = await engine.status(arrays)
    seen.push(s)
    if (until(s)) return { last: s, seen }
    if (Date.now() > deadline) throw new Error(`timed out waiting; last status: ${JSON.stringify(s, null, 1)}`)
    await new Promise((r) => setTimeout(r, 200))
  }
}

const byTask = (s: FarmTaskStatus[], arrayId: string, task: number) => s.find((t) => t.arrayId === arrayId && t.task === task)!

describe('Slurm engine helpers', () => {
  it('quotes argv for bash with {TASK} as "$TASK"', () => {
    expect(bashQuote(`it's {TASK}`)).toBe(`'it'\\''s '"$TASK"''`)
    const r = spawnSync('bash', ['-c', `TASK=7; printf '%s|' ${bashQuote(`a b's {TASK}`)} ${bashQuote('$HOME `x`')}`])
    expect(r.stdout.toString()).toBe("a b's 7|$HOME `x`|")
  })

  it('compresses and expands array task lists', () => {
    expect(arraySpec([5, 1, 2, 3, 9, 10])).toBe('1-3,5,9-10')
    expect(expandTaskSpec('[1-3,7,9-13:2%4]')).toEqual([1, 2, 3, 7, 9, 11, 13])
    expect([...parseSqueue('12', '12_[4-5]|PENDING|Dependency\n12_1|RUNNING|None\n120_1|RUNNING|None\n').keys()]).toEqual([4, 5, 1])
  })

  it('checkAvailable names sbatch when it is not on PATH', async () => {
    const bare = new SlurmEngine({ env: { ...process.env, PATH: join(dir, 'nothing-here') } })
    const err = await bare.checkAvailable().catch((e: unknown) => e)
    expect(err).toBeInstanceOf(EddyError)
    expect((err as EddyError).code).toBe('NOT_FOUND')
    expect((err as EddyError).message).toMatch(/^sbatch is not on PATH/)
  })
})

describe('Slurm engine on a local cluster', () => {
  it('checkAvailable passes', async (ctx) => {
    needCluster(ctx)
    await engine.checkAvailable()
  })

  it('runs an array: exit codes, log tails, EDDY_TASK', async (ctx) => {
    needCluster(ctx)
    const a = await submit('three', [1, 2, 3], `echo "task {TASK}: it's $EDDY_TASK"; if [ {TASK} = 2 ]; then exit 3; fi`)
    expect(a.id).toMatch(/^\d+$/)
    const { last } = await waitFor([a])
    expect(last.map((t) => [t.task, t.state, t.exitCode])).toEqual([
      [1, 'done', 0],
      [2, 'failed', 3],
      [3, 'done', 0],
    ])
    for (const t of last) expect(t.logTail).toContain(`task ${t.task}: it's ${t.task}`)
    expect(existsSync(join(dir, 'three', 'three.sbatch'))).toBe(true)
  })

  it('starts a dependent array only after the tasks it needs end well', async (ctx) => {
    needCluster(ctx)
    // Task 1 ends well after 2 s, task 2 fails at once.
    const a = await submit('first', [1, 2], 'if [ {TASK} = 1 ]; then sleep 2; exit 0; fi; exit 1')
    const rc1 = join(dir, 'first', 'rc-1')
    // Fails (exit 7) if it runs before task 1 wrote its exit code.
    const b = await submit('after-ok', [1], `test -f '${rc1}' || exit 7; echo after`, { after: { arrayId: a.id, tasks: [1] } })
    const c = await submit('after-failed', [1], 'echo should not run', { after: { arrayId: a.id, tasks: [2] } })
    const { last, seen } = await waitFor([a, b, c])
    expect(seen.some((s) => byTask(s, b.id, 1).state === 'pending' && byTask(s, a.id, 1).state === 'running')).toBe(true)
    expect(byTask(last, b.id, 1)).toMatchObject({ state: 'done', exitCode: 0 })
    expect(byTask(last, b.id, 1).logTail).toMatch(/^=== \S+ task 1 of job \d+ on \S+ ===\nafter$/)
    expect(byTask(last, c.id, 1)).toMatchObject({ state: 'cancelled', exitCode: null, logTail: '' })
    expect(byTask(last, c.id, 1).detail).toMatch(/never started/)
  })

  it('cancels one task of an array; the others finish', async (ctx) => {
    needCluster(ctx)
    const a = await submit('cancel', [1, 2, 3], 'echo task {TASK}; if [ {TASK} = 2 ]; then sleep 60; fi')
    // Running, and its script has started: Slurm reports a task running before its step writes
    // anything, and a cancel in between leaves only slurmstepd's line in the log.
    await waitFor([a], (s) => byTask(s, a.id, 2).state === 'running' && byTask(s, a.id, 2).logTail.includes('task 2'))
    await engine.cancel(a.id, [2])
    const { last } = await waitFor([a])
    expect(last.map((t) => [t.task, t.state, t.exitCode])).toEqual([
      [1, 'done', 0],
      [2, 'cancelled', null],
      [3, 'done', 0],
    ])
    expect(byTask(last, a.id, 2).logTail).toContain('task 2')
    // The killed task left no exit code (the script waits for scancel's TERM when its command dies of a signal).
    expect(existsSync(join(dir, 'cancel', 'rc-2'))).toBe(false)
    // Cancelling what already ended is not an error.
    await engine.cancel(a.id)
  })

  it('reports tasks Slurm has forgotten from their files', async (ctx) => {
    needCluster(ctx)
    mkdirSync(join(dir, 'gone'))
    writeFileSync(join(dir, 'gone', 'log-2.txt'), 'started\n')
    writeFileSync(join(dir, 'gone', 'rc-3'), '0\n')
    const fake: SubmittedArray = { id: '987654321', name: 'gone', indices: [1, 2, 3], logPath: join(dir, 'gone', 'log-{TASK}.txt'), exitCodePath: join(dir, 'gone', 'rc-{TASK}') }
    const s = await engine.status([fake])
    expect(s.map((t) => [t.state, t.detail])).toEqual([
      ['cancelled', 'never started (cancelled, or its dependency failed)'],
      ['cancelled', 'ended without an exit code (cancelled or killed)'],
      ['done', ''],
    ])
  })

  it('probe passes on an SQLite project and names the path it cannot read', async (ctx) => {
    needCluster(ctx)
    const project = join(dir, 'project.eddy')
    new Database(project).exec('create table t (x)')
    await engine.probe(project, join(dir, 'probe'), { timeoutMs: 20_000 })
    const missing = join(dir, 'no such dir', 'missing.eddy')
    const err = await engine.probe(missing, join(dir, 'probe'), { timeoutMs: 20_000 }).catch((e: unknown) => e)
    expect(err).toBeInstanceOf(EddyError)
    expect((err as EddyError).message).toContain(`The cluster cannot read the project at ${missing}`)
    expect((err as EddyError).message).toMatch(/said: no such file\)$/)
  })

  it('probe gives up after its timeout when the task cannot start, and cancels it', async (ctx) => {
    needCluster(ctx)
    const cpus = Number(spawnSync('sinfo', ['-h', '-o', '%c']).stdout.toString().trim())
    const blocker = await submit('blocker', [1], 'sleep 60', { cpus })
    await waitFor([blocker], (s) => s[0].state === 'running')
    const project = join(dir, 'project2.eddy')
    new Database(project).exec('create table t (x)')
    const err = await engine.probe(project, join(dir, 'probe'), { timeoutMs: 1500 }).catch((e: unknown) => e)
    await engine.cancel(blocker.id)
    expect((err as EddyError).message).toMatch(/^The probe task did not finish within 1\.5 s: is the partition up\? \(squeue says: PENDING(, reason \w+)?\)$/)
    const jobId = String((err as EddyError).details?.jobId)
    const q = spawnSync('squeue', ['-h', '-j', jobId, '-o', '%T']).stdout.toString().trim()
    expect(['', 'COMPLETING']).toContain(q)
  })
})
