// FarmEngine on Slurm, through its command-line clients (sbatch, squeue, scancel, sinfo, sacct):
// they are what every Slurm site has on its submit hosts, unlike slurmrestd.
// A task's fate comes from two places: squeue while Slurm remembers the task (MinJobAge after
// it ends), and the exit-code file the batch script writes when the command ends by itself.
// A task killed by scancel (or by Slurm) does not write that file: that is how killed tells
// from failed once Slurm has forgotten the task.

import { execFile } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { closeSync, existsSync, fstatSync, mkdirSync, openSync, readFileSync, readSync, rmSync, writeFileSync } from 'node:fs'
import { dirname, isAbsolute, join, resolve } from 'node:path'
import { EddyError } from '../../src-shared/api/errors'
import type { FarmEngine, FarmTaskArray, FarmTaskState, FarmTaskStatus, SubmittedArray } from './engine'

export interface SlurmEngineOptions {
  /** Environment of the Slurm commands (and so of the tasks: sbatch exports it). Default process.env. */
  env?: NodeJS.ProcessEnv
  /** Longest any one Slurm command may take. Default 30 s. */
  commandTimeoutMs?: number
  /** Lines of log in each status. Default 20. */
  logTailLines?: number
}

interface RunResult {
  code: number
  stdout: string
  stderr: string
}

/** squeue's view of one task. */
interface QueueEntry {
  state: string
  reason: string
}

const LOG_TAIL_BYTES = 64 * 1024
const SQLITE_HEADER = 'SQLite format 3'

/** bash single-quoted word; `{TASK}` becomes the task number ("$TASK"). */
export function bashQuote(s: string): string {
  return `'${s.replace(/'/g, `'\\''`).replaceAll('{TASK}', `'"$TASK"'`)}'`
}

/** A value on an #SBATCH line: sbatch splits those lines at blanks and strips double quotes, with no escapes. */
function sbatchValue(what: string, v: string): string {
  if (/["\n\r]/.test(v)) throw new EddyError('INVALID_PARAM', `The ${what} cannot contain a double quote or a line break for Slurm: ${v}`)
  return /\s/.test(v) ? `"${v}"` : v
}

/** Slurm --array list, runs compressed ("1-3,7"). */
export function arraySpec(indices: readonly number[]): string {
  const sorted = [...new Set(indices)].sort((a, b) => a - b)
  const parts: string[] = []
  for (let i = 0; i < sorted.length; ) {
    let j = i
    while (j + 1 < sorted.length && sorted[j + 1] === sorted[j] + 1) j++
    parts.push(j > i ? `${sorted[i]}-${sorted[j]}` : `${sorted[i]}`)
    i = j + 1
  }
  return parts.join(',')
}

/** Task numbers of an squeue id suffix: "3", or "[1-3,7,9-15:2%4]" for tasks not yet split off. */
export function expandTaskSpec(spec: string): number[] {
  const inner = spec.replace(/^\[/, '').replace(/\]$/, '').replace(/%\d+$/, '')
  const out: number[] = []
  for (const part of inner.split(',')) {
    const m = /^(\d+)(?:-(\d+)(?::(\d+))?)?$/.exec(part.trim())
    if (!m) continue
    const from = Number(m[1])
    const to = m[2] === undefined ? from : Number(m[2])
    const step = m[3] === undefined ? 1 : Math.max(1, Number(m[3]))
    for (let t = from; t <= to; t += step) out.push(t)
  }
  return out
}

/** squeue -h -r -o '%i|%T|%r' output → task → state, for the array `id`. */
export function parseSqueue(id: string, stdout: string): Map<number, QueueEntry> {
  const map = new Map<number, QueueEntry>()
  for (const line of stdout.split('\n')) {
    const [jobId, state, reason] = line.trim().split('|')
    if (!jobId || !state || !jobId.startsWith(`${id}_`)) continue
    for (const t of expandTaskSpec(jobId.slice(id.length + 1))) map.set(t, { state, reason: reason ?? '' })
  }
  return map
}

/** The last `lines` lines of a file, reading at most its last 64 KB; '' when it does not exist. */
export function readLogTail(path: string, lines: number): string {
  let fd: number
  try {
    fd = openSync(path, 'r')
  } catch {
    return ''
  }
  try {
    const size = fstatSync(fd).size
    const start = Math.max(0, size - LOG_TAIL_BYTES)
    const buf = Buffer.alloc(size - start)
    const n = readSync(fd, buf, 0, buf.length, start)
    let text = buf.subarray(0, n).toString('utf8')
    if (start > 0) text = text.slice(text.indexOf('\n') + 1) // drop the partial first line
    return text.replace(/\n$/, '').split('\n').slice(-lines).join('\n')
  } finally {
    closeSync(fd)
  }
}

function taskPath(template: string, task: number): string {
  return template.replaceAll('{TASK}', String(task))
}

/** null when absent or not yet a number (e.g. caught mid-write on a network file system). */
function readExitCode(path: string): number | null {
  try {
    const s = readFileSync(path, 'utf8').trim()
    return /^\d+$/.test(s) ? Number(s) : null
  } catch {
    return null
  }
}

const PENDING_STATES = new Set(['PENDING', 'CONFIGURING', 'REQUEUED', 'REQUEUE_HOLD', 'REQUEUE_FED', 'RESV_DEL_HOLD', 'SPECIAL_EXIT'])
const RUNNING_STATES = new Set(['RUNNING', 'COMPLETING', 'SIGNALING', 'STAGE_OUT', 'RESIZING', 'SUSPENDED', 'STOPPED'])
/** Ends Slurm forced on a task (the task's own exit code is then meaningless). */
const KILLED_BY_SLURM = new Set(['TIMEOUT', 'NODE_FAIL', 'OUT_OF_MEMORY', 'PREEMPTED', 'BOOT_FAIL', 'DEADLINE', 'REVOKED'])

export class SlurmEngine implements FarmEngine {
  readonly name = 'slurm'
  private readonly env: NodeJS.ProcessEnv
  private readonly timeoutMs: number
  private readonly tailLines: number
  /** sacct answers only where accounting storage (slurmdbd) is set up; asked once. */
  private sacctWorks: boolean | undefined

  constructor(opts: SlurmEngineOptions = {}) {
    this.env = opts.env ?? process.env
    this.timeoutMs = opts.commandTimeoutMs ?? 30_000
    this.tailLines = opts.logTailLines ?? 20
  }

  /** Runs a Slurm command; a non-zero exit is returned, not thrown (callers read its stderr). */
  private run(cmd: string, args: string[]): Promise<RunResult> {
    return new Promise((resolvePromise, reject) => {
      execFile(cmd, args, { env: this.env, timeout: this.timeoutMs, maxBuffer: 64 * 1024 * 1024, encoding: 'utf8' }, (err, stdout, stderr) => {
        if (!err) return resolvePromise({ code: 0, stdout, stderr })
        const e = err as NodeJS.ErrnoException & { killed?: boolean; code?: string | number }
        const line = [cmd, ...args].join(' ')
        if (e.code === 'ENOENT') return reject(this.notInstalled(cmd))
        if (e.killed) {
          return reject(new EddyError('IO_ERROR', `\`${line}\` did not answer within ${+(this.timeoutMs / 1000).toFixed(1)} s: is the Slurm controller reachable?`, { command: line }))
        }
        if (typeof e.code === 'number') return resolvePromise({ code: e.code, stdout, stderr })
        reject(new EddyError('IO_ERROR', `Cannot run \`${line}\`: ${e.message}`, { command: line }))
      })
    })
  }

  private notInstalled(cmd: string): EddyError {
    return new EddyError(
      'NOT_FOUND',
      `${cmd} is not on PATH: eddy farm needs Slurm's client commands (sbatch, squeue, scancel, sinfo) on this machine. ` +
        `Install them (Debian/Ubuntu: apt-get install slurm-client, with the cluster's slurm.conf and munge key) or run eddy farm on one of the cluster's submit hosts.`,
      { command: cmd },
    )
  }

  async checkAvailable(): Promise<void> {
    const version = await this.run('sbatch', ['--version'])
    if (version.code !== 0) throw new EddyError('IO_ERROR', `sbatch --version failed: ${firstLine(version.stderr || version.stdout)}`)
    const info = await this.run('sinfo', ['-h', '-o', '%P %a'])
    if (info.code !== 0) {
      throw new EddyError('IO_ERROR', `The Slurm controller is not answering: sinfo says "${firstLine(info.stderr || info.stdout)}"`, {
        stderr: info.stderr.trim(),
      })
    }
    if (!info.stdout.trim()) throw new EddyError('IO_ERROR', 'The Slurm controller answers but lists no partition (sinfo printed nothing)')
  }

  async submit(array: FarmTaskArray, opts: { partition?: string }): Promise<SubmittedArray> {
    if (array.indices.length === 0) throw new EddyError('INVALID_PARAM', `The array "${array.name}" has no tasks`)
    if (array.indices.some((t) => !Number.isInteger(t) || t < 0)) {
      throw new EddyError('INVALID_PARAM', `Task numbers must be whole numbers ≥ 0: ${array.indices.join(',')}`)
    }
    if (array.argv.length === 0) throw new EddyError('INVALID_PARAM', `The array "${array.name}" has no command`)
    const cwd = resolve(array.cwd)
    // Relative paths mean the same to the tasks (run in cwd) and to status() (run here).
    const logPath = resolve(cwd, array.logPath)
    const exitCodePath = resolve(cwd, array.exitCodePath)
    // sbatch --output: %a is the task number, %% a literal %; any backslash turns patterns off.
    if (logPath.includes('\\')) throw new EddyError('INVALID_PARAM', `Slurm cannot use a log path with a backslash: ${logPath}`)
    const output = logPath.replaceAll('%', '%%').replaceAll('{TASK}', '%a')

    // Slurm does not create the log folder: without it the task dies before logging anything.
    fsStep(`prepare the folders of ${logPath}`, () => {
      for (const t of array.indices) {
        mkdirSync(dirname(taskPath(logPath, t)), { recursive: true })
        mkdirSync(dirname(taskPath(exitCodePath, t)), { recursive: true })
        // An exit code left by an earlier run would make the new task look finished.
        rmSync(taskPath(exitCodePath, t), { force: true })
      }
    })

    const lines = [
      '#!/bin/bash',
      `#SBATCH --job-name=${sbatchValue('name', `eddy-${array.name}`)}`,
      `#SBATCH --array=${arraySpec(array.indices)}`,
      `#SBATCH --output=${sbatchValue('log path', output)}`,
      `#SBATCH --cpus-per-task=${Math.max(1, Math.round(array.cpus))}`,
      `#SBATCH --chdir=${sbatchValue('working folder', cwd)}`,
      // A task submitted again (a resume) adds to its log: both attempts stay readable.
      '#SBATCH --open-mode=append',
    ]
    if (opts.partition) lines.push(`#SBATCH --partition=${sbatchValue('partition', opts.partition)}`)
    if (array.after) {
      const { arrayId, tasks } = array.after
      if (!/^\d+$/.test(arrayId)) throw new EddyError('INVALID_PARAM', `Not a Slurm job id: ${arrayId}`)
      const deps = tasks && tasks.length ? tasks.map((t) => `${arrayId}_${t}`) : [arrayId]
      lines.push(`#SBATCH --dependency=afterok:${deps.join(':')}`, '#SBATCH --kill-on-invalid-dep=yes')
    }
    lines.push(
      '',
      'TASK=$SLURM_ARRAY_TASK_ID',
      'export EDDY_TASK=$TASK',
      // scancel signals this shell too: exit without an exit-code file, so status says cancelled.
      "trap 'exit 143' TERM INT",
      'echo "=== $(date -u +%FT%TZ) task $TASK of job $SLURM_ARRAY_JOB_ID on $(hostname) ==="',
      array.argv.map(bashQuote).join(' '),
      'rc=$?',
      // A command killed by a signal may end before scancel's TERM reaches this shell: give
      // that TERM a moment to arrive (the trap interrupts wait) before writing an exit code.
      'if [ "$rc" -gt 128 ]; then sleep 2 & wait $!; fi',
      `rc_file=${bashQuote(exitCodePath)}`,
      // tmp + mv: status() never reads a half-written code.
      'printf \'%s\\n\' "$rc" >"$rc_file.tmp.$SLURM_JOB_ID" && mv -f "$rc_file.tmp.$SLURM_JOB_ID" "$rc_file"',
      'exit "$rc"',
      '',
    )
    const scriptDir = dirname(taskPath(logPath, array.indices[0]))
    const script = join(scriptDir, `${array.name.replace(/[^\w.-]+/g, '_')}.sbatch`)
    fsStep(`write ${script}`, () => writeFileSync(script, lines.join('\n'), { mode: 0o755 }))

    const r = await this.run('sbatch', ['--parsable', script])
    const id = r.stdout.trim().split(';')[0]
    if (r.code !== 0 || !/^\d+$/.test(id)) {
      throw new EddyError('IO_ERROR', `sbatch refused the array "${array.name}": ${firstLine(r.stderr || r.stdout) || `exit code ${r.code}`}`, {
        script,
        stderr: r.stderr.trim(),
      })
    }
    return { id, name: array.name, indices: [...array.indices], logPath, exitCodePath }
  }

  /** The array's tasks Slurm still remembers, finished ones included (--states=all). */
  private async queue(id: string): Promise<Map<number, QueueEntry>> {
    const r = await this.run('squeue', ['-h', '-r', '--states=all', '-j', id, '-o', '%i|%T|%r'])
    if (r.code === 0) return parseSqueue(id, r.stdout)
    // A job Slurm has forgotten (MinJobAge after its end) is an error to squeue, not to us.
    if (/invalid job id/i.test(r.stderr)) return new Map()
    throw new EddyError('IO_ERROR', `squeue failed for job ${id}: ${firstLine(r.stderr || r.stdout)}`, { stderr: r.stderr.trim() })
  }

  /** States from accounting, where the site has it; null when sacct does not answer. */
  private async accounting(id: string): Promise<Map<number, string> | null> {
    if (this.sacctWorks === false) return null
    let r: RunResult
    try {
      r = await this.run('sacct', ['-n', '-P', '-X', '-j', id, '-o', 'JobID,State'])
    } catch {
      this.sacctWorks = false
      return null
    }
    // Without slurmdbd: "Slurm accounting storage is disabled" (exit 1).
    if (r.code !== 0) {
      this.sacctWorks = false
      return null
    }
    this.sacctWorks = true
    const map = new Map<number, string>()
    for (const line of r.stdout.split('\n')) {
      const [jobId, state] = line.trim().split('|')
      if (!jobId || !state || !jobId.startsWith(`${id}_`)) continue
      for (const t of expandTaskSpec(jobId.slice(id.length + 1))) map.set(t, state.split(' ')[0])
    }
    return map
  }

  async status(arrays: readonly SubmittedArray[]): Promise<FarmTaskStatus[]> {
    const out: FarmTaskStatus[] = []
    for (const a of arrays) {
      const queue = await this.queue(a.id)
      let acct: Map<number, string> | null | undefined
      for (const task of a.indices) {
        const log = taskPath(a.logPath, task)
        const base = { arrayId: a.id, name: a.name, task, logTail: readLogTail(log, this.tailLines) }
        const set = (state: FarmTaskState, detail: string, exitCode: number | null = null): void => {
          out.push({ ...base, state, exitCode, detail })
        }
        const rcPath = taskPath(a.exitCodePath, task)
        const rc = readExitCode(rcPath)
        const q = queue.get(task)
        if (rc !== null) {
          // Slurm's word wins over an exit code a killed command still managed to leave.
          if (q?.state === 'CANCELLED') set('cancelled', 'cancelled (scancel)')
          else if (q && KILLED_BY_SLURM.has(q.state)) set('failed', `killed by Slurm: ${q.state}`)
          else set(rc === 0 ? 'done' : 'failed', rc === 0 ? '' : `exited with code ${rc}`, rc)
          continue
        }
        if (q) {
          const reason = q.reason === 'None' ? '' : q.reason
          if (PENDING_STATES.has(q.state)) set('pending', reason)
          else if (RUNNING_STATES.has(q.state)) set('running', q.state === 'RUNNING' ? '' : q.state.toLowerCase())
          else if (q.state === 'CANCELLED') {
            set('cancelled', reason === 'DependencyNeverSatisfied' ? 'never started: a task it depends on did not end well' : existsSync(log) ? 'cancelled (scancel)' : 'cancelled before it started')
          } else if (KILLED_BY_SLURM.has(q.state)) set('failed', `killed by Slurm: ${q.state}${reason ? ` (${reason})` : ''}`)
          else set('failed', `Slurm says ${q.state}${reason ? ` (${reason})` : ''} but the task wrote no exit code to ${rcPath}`)
          continue
        }
        if (acct === undefined) acct = await this.accounting(a.id)
        const s = acct?.get(task)
        if (s === 'CANCELLED') set('cancelled', existsSync(log) ? 'cancelled (scancel)' : 'never started (cancelled, or its dependency failed)')
        else if (s && KILLED_BY_SLURM.has(s)) set('failed', `killed by Slurm: ${s}`)
        else if (s && (PENDING_STATES.has(s) || RUNNING_STATES.has(s))) set(PENDING_STATES.has(s) ? 'pending' : 'running', '')
        else if (s) set('failed', `Slurm's accounting says ${s} but the task wrote no exit code to ${rcPath}`)
        else if (existsSync(log)) set('cancelled', 'ended without an exit code (cancelled or killed)')
        else set('cancelled', 'never started (cancelled, or its dependency failed)')
      }
    }
    return out
  }

  async cancel(arrayId: string, tasks?: number[]): Promise<void> {
    if (!/^\d+$/.test(arrayId)) throw new EddyError('INVALID_PARAM', `Not a Slurm job id: ${arrayId}`)
    const targets = tasks && tasks.length ? tasks.map((t) => `${arrayId}_${t}`) : [arrayId]
    const r = await this.run('scancel', targets)
    // Cancelling what already ended (or was forgotten) is not a failure.
    if (r.code !== 0 && !/invalid job id|already completing or completed/i.test(r.stderr)) {
      throw new EddyError('IO_ERROR', `scancel ${targets.join(' ')} failed: ${firstLine(r.stderr || r.stdout)}`, { stderr: r.stderr.trim() })
    }
  }

  async probe(projectPath: string, workDir: string, opts: { partition?: string; timeoutMs: number }): Promise<void> {
    if (!isAbsolute(projectPath)) projectPath = resolve(projectPath)
    workDir = resolve(workDir)
    fsStep(`create ${workDir}`, () => mkdirSync(workDir, { recursive: true }))
    const stamp = `${Date.now()}-${randomBytes(3).toString('hex')}`
    const base = join(workDir, `probe-${stamp}`)
    const outFile = `${base}.out`
    const logFile = `${base}.log`
    const script = `${base}.sbatch`
    const lines = [
      '#!/bin/bash',
      '#SBATCH --job-name=eddy-probe',
      `#SBATCH --output=${sbatchValue('work folder', logFile.replaceAll('%', '%%'))}`,
      '#SBATCH --cpus-per-task=1',
      `#SBATCH --chdir=${sbatchValue('work folder', workDir)}`,
      ...(opts.partition ? [`#SBATCH --partition=${sbatchValue('partition', opts.partition)}`] : []),
      '',
      `p=${bashQuote(projectPath)}`,
      `out=${bashQuote(outFile)}`,
      'if [ ! -e "$p" ]; then r="no such file"',
      'elif [ ! -r "$p" ]; then r="permission denied"',
      `elif [ "$(head -c ${SQLITE_HEADER.length} -- "$p" 2>&1)" != '${SQLITE_HEADER}' ]; then r="the file does not start with the SQLite header"`,
      'else r=ok; fi',
      'printf \'%s\\n%s\\n\' "$r" "$(hostname -s)" >"$out.tmp" && mv -f "$out.tmp" "$out"',
      '',
    ]
    fsStep(`write ${script}`, () => writeFileSync(script, lines.join('\n'), { mode: 0o755 }))
    const sub = await this.run('sbatch', ['--parsable', script])
    const id = sub.stdout.trim().split(';')[0]
    if (sub.code !== 0 || !/^\d+$/.test(id)) {
      throw new EddyError('IO_ERROR', `sbatch refused the probe task: ${firstLine(sub.stderr || sub.stdout) || `exit code ${sub.code}`}`, {
        stderr: sub.stderr.trim(),
      })
    }

    const deadline = Date.now() + opts.timeoutMs
    let goneSince: number | null = null
    let lastQueue = ''
    for (;;) {
      if (existsSync(outFile)) {
        const [answer = '', node = 'a node'] = readFileSync(outFile, 'utf8').split('\n')
        if (answer === 'ok') {
          for (const f of [outFile, logFile, script]) rmSync(f, { force: true })
          return
        }
        if (answer === 'the file does not start with the SQLite header') {
          throw new EddyError('IO_ERROR', `The cluster's nodes see something else at ${projectPath}: it is not the Eddy project (the probe task on ${node} said: ${answer})`, {
            path: projectPath,
            node,
          })
        }
        throw new EddyError(
          'IO_ERROR',
          `The cluster cannot read the project at ${projectPath}: it must be on storage the cluster's nodes share (the probe task on ${node} said: ${answer})`,
          { path: projectPath, node },
        )
      }
      const q = await this.run('squeue', ['-h', '-j', id, '-o', '%T|%r|%N'])
      lastQueue = q.code === 0 ? q.stdout.trim() : ''
      if (!lastQueue) {
        // Ended without an answer; give a network file system a moment to show the file.
        goneSince ??= Date.now()
        if (Date.now() - goneSince > 3000) {
          const log = readLogTail(logFile, 3).replace(/\n/g, ' | ')
          throw new EddyError(
            'IO_ERROR',
            `The probe task ${id} ended without answering: can the nodes write to ${workDir}? It must be on storage the cluster's nodes share` +
              (log ? ` (its log says: ${log})` : ' (it left no log)'),
            { jobId: id, workDir },
          )
        }
      }
      if (Date.now() >= deadline) {
        await this.cancel(id).catch(() => undefined)
        const [state = '', reason = ''] = lastQueue.split('|')
        const says = lastQueue ? `${state}${reason && reason !== 'None' ? `, reason ${reason}` : ''}` : 'nothing'
        throw new EddyError('IO_ERROR', `The probe task did not finish within ${+(opts.timeoutMs / 1000).toFixed(1)} s: is the partition up? (squeue says: ${says})`, {
          jobId: id,
        })
      }
      await new Promise((r) => setTimeout(r, 200))
    }
  }
}

function fsStep(what: string, fn: () => void): void {
  try {
    fn()
  } catch (e) {
    throw new EddyError('IO_ERROR', `Cannot ${what}: ${(e as Error).message}`)
  }
}

function firstLine(s: string): string {
  return s.trim().split('\n')[0] ?? ''
}
