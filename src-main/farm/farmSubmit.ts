// `eddy farm submit`: a simulation, or each variant of one of its wedges, baked as one task of
// an array job on a farm, with the project on shared storage; then, per variant, an array of
// export tasks over frame chunks that starts when that variant's bake ended well (afterok),
// so one failed variant holds back only its own exports. The tasks bake a copy of the scene
// made at submission: the artist goes on editing, the sweep bakes what was submitted. Each bake task writes its own cache
// file (cacheFile.ts): concurrent tasks never write one SQLite file. --resume submits again
// the variants of the latest submission that did not finish; each continues from the last
// checkpoint in its cache file.
import fs from 'node:fs'
import nodePath from 'node:path'
import { fileURLToPath } from 'node:url'
import { EddyError } from '../../src-shared/api/errors'
import { findHost } from '../../src-shared/sim/registry'
import { checkWedge, findWedge, variantNumbers, variantTag, type Wedge } from '../../src-shared/sim/wedge'
import { ProjectStore } from '../store/projectStore'
import type { FarmEngine, FarmTaskArray, FarmTaskStatus } from './engine'
import {
  findSubmission,
  newSubmissionId,
  submissionDir,
  variantCacheFile,
  writeSubmission,
  type Submission,
  type SubmissionArray,
} from './submissions'

export interface FarmSubmitOptions {
  projectPath: string
  /** The simulation's host id. */
  hostId: string
  wedge?: string
  partition?: string
  /** Frames per export task. */
  chunk?: number
  export?: { format: string; outDir?: string }
  /** Cores each bake task asks for. */
  cpus?: number
  resume?: boolean
  /** How long the probe task may take to run, ms. */
  probeTimeoutMs?: number
  /** The eddy command line the tasks run (default: this build's out/main/cli.js). */
  cliPath?: string
}

export const DEFAULT_CHUNK = 24

/**
 * The built command line beside this bundle (out/main/cli.js; this code may sit in a shared
 * chunk, out/main/chunks/); EDDY_CLI overrides it.
 */
export function defaultCliPath(): string {
  if (process.env.EDDY_CLI) return process.env.EDDY_CLI
  const here = nodePath.dirname(fileURLToPath(import.meta.url))
  const candidates = [nodePath.join(here, 'cli.js'), nodePath.join(here, '..', 'cli.js')]
  return candidates.find((p) => fs.existsSync(p)) ?? candidates[0]
}

interface SceneFacts {
  simName: string
  wedge: Wedge | null
  variants: number[]
  frames: [number, number]
}

function readScene(projectPath: string, hostId: string, wedgeName: string | undefined): SceneFacts {
  const store = ProjectStore.open(projectPath)
  try {
    const doc = store.readDocument()
    const host = findHost(doc, hostId)
    const frames: [number, number] = [doc.meta.frameStart, doc.meta.frameEnd]
    if (wedgeName === undefined) return { simName: host.name, wedge: null, variants: [1], frames }
    const w = findWedge(host, wedgeName)
    checkWedge(doc, hostId, w)
    return { simName: host.name, wedge: w, variants: variantNumbers(w), frames }
  } finally {
    store.close()
  }
}

function bakeArray(s: Submission, dir: string, cli: string, cpus: number, variants: number[], resume: boolean): FarmTaskArray {
  const argv = [process.execPath, cli, 'bake', s.scenePath, '--sim', s.hostId]
  if (s.wedgeId) argv.push('--wedge', s.wedgeId, '--variant', '{TASK}')
  argv.push('--cache-file', variantCacheFile(dir, '{TASK}'), '--threads', String(cpus), '--mode', resume ? 'resume' : 'bake')
  return {
    name: 'bake',
    indices: variants,
    argv,
    cwd: dir,
    logPath: nodePath.join(dir, 'logs', 'bake-{TASK}.log'),
    exitCodePath: nodePath.join(dir, 'rc', 'bake-{TASK}.rc'),
    cpus,
  }
}

function exportArray(s: Submission, w: Wedge | null, dir: string, cli: string, variant: number, chunks: number, bakeArrayId: string): FarmTaskArray {
  const ex = s.export!
  const tag = w ? variantTag(w, variant) : 'main'
  const argv = [process.execPath, cli, 'export', s.scenePath, '--sim', s.hostId]
  if (w) argv.push('--wedge', w.id, '--variant', String(variant))
  argv.push('--cache-file', variantCacheFile(dir, variant), '--format', ex.format, '--out', nodePath.join(ex.outDir, tag), '--chunk', '{TASK}', '--chunk-size', String(s.chunk))
  return {
    name: `export-${tag}`,
    indices: Array.from({ length: chunks }, (_, i) => i + 1),
    argv,
    cwd: dir,
    logPath: nodePath.join(dir, 'logs', `export-v${variant}-{TASK}.log`),
    exitCodePath: nodePath.join(dir, 'rc', `export-v${variant}-{TASK}.rc`),
    cpus: 1,
    after: { arrayId: bakeArrayId, tasks: [variant] },
  }
}

/** Variants of a submission whose bake has not ended well (the last attempt's state). */
export function unfinishedVariants(s: Submission, statuses: readonly FarmTaskStatus[]): number[] {
  const last = new Map<number, FarmTaskStatus>()
  const bakeIds = new Set(s.arrays.filter((a) => a.role === 'bake').map((a) => a.id))
  for (const a of s.arrays.filter((x) => x.role === 'bake')) {
    for (const t of statuses) if (t.arrayId === a.id && bakeIds.has(t.arrayId)) last.set(t.task, t)
  }
  return s.variants.filter((v) => last.get(v)?.state !== 'done')
}

export async function farmSubmit(engine: FarmEngine, o: FarmSubmitOptions, log: (line: string) => void): Promise<Submission> {
  await engine.checkAvailable()
  const cli = o.cliPath ?? defaultCliPath()
  if (!fs.existsSync(cli)) throw new EddyError('NOT_FOUND', `The eddy command line the tasks would run is missing (${cli}): build it first (npm run build)`, { path: cli })
  const cpus = o.cpus ?? 1
  let s: Submission
  let variants: number[]
  const facts = readScene(o.projectPath, o.hostId, o.wedge)
  if (o.resume) {
    s = findSubmission(o.projectPath)
    const same = s.hostId === o.hostId && (s.wedgeId ?? undefined) === (facts.wedge?.id ?? undefined)
    if (!same) throw new EddyError('INVALID_PARAM', `The latest farm submission (${s.id}) baked "${s.simName}"${s.wedgeName ? ` wedge "${s.wedgeName}"` : ''}; resume it with the same --sim and --wedge`)
    const running = (await engine.status(s.arrays)).filter((t) => t.state === 'pending' || t.state === 'running')
    if (running.length) throw new EddyError('INVALID_PARAM', `Submission ${s.id} still has ${running.length} task(s) pending or running; wait for them or cancel them first`)
    variants = unfinishedVariants(s, await engine.status(s.arrays))
    if (variants.length === 0) {
      log(`Every variant of ${s.id} is baked; nothing to resume`)
      return s
    }
  } else {
    const id = newSubmissionId(facts.wedge ? `${facts.simName}-${facts.wedge.name}` : facts.simName)
    const dir = submissionDir(o.projectPath, id)
    s = {
      id,
      engine: engine.name,
      projectPath: o.projectPath,
      scenePath: nodePath.join(dir, 'scene.eddy'),
      hostId: o.hostId,
      simName: facts.simName,
      wedgeId: facts.wedge?.id ?? null,
      wedgeName: facts.wedge?.name ?? null,
      variants: facts.variants,
      partition: o.partition ?? null,
      chunk: o.export ? (o.chunk ?? DEFAULT_CHUNK) : null,
      export: o.export ? { format: o.export.format, outDir: nodePath.resolve(o.export.outDir ?? nodePath.join(dir, 'export')) } : null,
      createdAt: new Date().toISOString(),
      arrays: [],
    }
    variants = s.variants
  }
  const dir = submissionDir(o.projectPath, s.id)
  for (const sub of ['caches', 'logs', 'rc']) fs.mkdirSync(nodePath.join(dir, sub), { recursive: true })
  // The scene as it is now: a resume bakes the one its checkpoints came from.
  if (!o.resume) {
    const store = ProjectStore.open(o.projectPath)
    try {
      store.writeSceneCopy(s.scenePath)
    } finally {
      store.close()
    }
  }
  // The plan follows the copy the tasks bake (the project may have changed since it was read).
  const planned = readScene(s.scenePath, o.hostId, o.resume ? (s.wedgeId ?? undefined) : o.wedge)
  if (!o.resume) {
    s = { ...s, variants: planned.variants }
    variants = planned.variants
  }
  // A task that ran before and is submitted again writes its exit code anew.
  for (const v of variants) fs.rmSync(nodePath.join(dir, 'rc', `bake-${v}.rc`), { force: true })
  log(`Probing the cluster: can its nodes read ${s.scenePath}?`)
  await engine.probe(s.scenePath, dir, { ...(o.partition ? { partition: o.partition } : {}), timeoutMs: o.probeTimeoutMs ?? 120_000 })
  const opts = o.partition ? { partition: o.partition } : {}
  const bake = await engine.submit(bakeArray(s, dir, cli, cpus, variants, o.resume === true), opts)
  const arrays: SubmissionArray[] = [{ ...bake, role: 'bake' }]
  log(`Submitted ${s.wedgeName ? `${variants.length} variant(s) of wedge "${s.wedgeName}"` : `"${s.simName}"`} as ${engine.name} job ${bake.id} (tasks ${variants.join(',')})`)
  if (s.export && s.chunk) {
    const chunks = Math.ceil((planned.frames[1] - planned.frames[0] + 1) / s.chunk)
    for (const v of variants) {
      const ex = await engine.submit(exportArray(s, planned.wedge, dir, cli, v, chunks, bake.id), opts)
      arrays.push({ ...ex, role: 'export', variant: v })
    }
    log(`Submitted the exports: ${chunks} chunk(s) of ${s.chunk} frames per variant, each after its variant's bake`)
  }
  s = { ...s, arrays: [...s.arrays, ...arrays] }
  writeSubmission(s)
  log(`Submission ${s.id}: ${dir}`)
  return s
}
