// `eddy bake project.eddy --sim NAME [--wedge NAME [--variant K]] [--cache-file FILE]
// [--frames A-B [--extend]] [--mode bake|resume|range] [--from N] [--threads N]
// [--precision float16|float32|uint8] [--checkpoint-every N]`: the same bake as the UI's Bake
// button, in this process, with a progress bar on the terminal. Ctrl-C cancels after the frame
// in flight; finished frames stay cached and Resume continues. --wedge bakes the wedge's
// variants one after another (or variant K alone); --cache-file writes the frames into a
// cache file of their own (a farm task), which the studio merges when it opens the project.
//
// --frames must lie inside the scene's frame range (a typo like 0-500 on a 96-frame scene
// would otherwise bake for hours and grow the file by gigabytes without a word); --extend
// bakes beyond it on purpose. The runner prints the estimated memory and cache size first.
import { existsSync } from 'node:fs'
import { resolve } from 'node:path'
import { EddyError } from '../../src-shared/api/errors'
import { hostsSimulations } from '../../src-shared/sim/registry'
import { bakeKey, checkWedge, findWedge, formatNumbers, variantNumbers } from '../../src-shared/sim/wedge'
import { openCacheFile } from '../store/cacheFile'
import type { FramePrecision } from '../../src-shared/formats/frameRecord'
import { formatBytes } from '../bake/estimate'
import { runBake, type BakeMode, type BakeProgress } from '../bake/runner'
import { ProjectStore } from '../store/projectStore'
import { parseOptions, UsageError } from './args'
import { progressLine } from './progressBar'

/**
 * A simulation's host (a domain, or a Catmull-Clark cage for the surface flow) by name or id,
 * and the scene's frame range.
 */
export function findSim(projectPath: string, sim: string, readOnly = false): { id: string; name: string; sceneFrames: [number, number] } {
  const store = readOnly ? ProjectStore.openReadOnly(projectPath) : ProjectStore.open(projectPath)
  try {
    const doc = store.readDocument()
    const hosts = doc.objects.filter((o) => hostsSimulations(o.kind))
    const hit = hosts.find((o) => o.id === sim) ?? hosts.find((o) => o.name === sim)
    if (!hit) {
      throw new EddyError('NOT_FOUND', `No simulation named "${sim}" in ${projectPath} (simulations: ${hosts.map((d) => `"${d.name}"`).join(', ') || 'none'})`)
    }
    return { id: hit.id, name: hit.name, sceneFrames: [doc.meta.frameStart, doc.meta.frameEnd] }
  } finally {
    store.close()
  }
}

/**
 * The bake keys of `--wedge NAME [--variant K]`: the variants the wedge bakes (its subset, if
 * it has one), or variant K alone; the host's own key without --wedge.
 */
export function wedgeKeys(projectPath: string, hostId: string, wedge: string | undefined, variant: number | undefined, readOnly = false): { keys: string[]; wedgeId: string | null } {
  if (wedge === undefined) {
    if (variant !== undefined) throw new UsageError('--variant needs --wedge NAME (the wedge it is a variant of)')
    return { keys: [hostId], wedgeId: null }
  }
  const store = readOnly ? ProjectStore.openReadOnly(projectPath) : ProjectStore.open(projectPath)
  try {
    const doc = store.readDocument()
    const host = doc.objects.find((o) => o.id === hostId)!
    const w = findWedge(host, wedge)
    checkWedge(doc, hostId, w)
    const all = variantNumbers(w)
    if (variant !== undefined && !all.includes(variant)) throw new EddyError('NOT_FOUND', `Wedge "${w.name}" has no variant ${variant} (it bakes ${formatNumbers(all)})`, { field: 'variant' })
    return { keys: (variant === undefined ? all : [variant]).map((k) => bakeKey(hostId, w.id, k)), wedgeId: w.id }
  } finally {
    store.close()
  }
}

/**
 * A farm task resuming its variant: a cache file that holds no bake of it yet (the task never
 * started, or was killed before its first frame) is baked from the start.
 */
function resumable(cacheFile: string, key: string): boolean {
  if (!existsSync(cacheFile)) return false
  const f = openCacheFile(cacheFile, { create: false })
  try {
    return f.cache.bake(key) !== null
  } finally {
    f.close()
  }
}

/** Refuses a --frames range outside the scene's frames unless --extend says it is meant. */
export function checkFrameRange(range: [number, number], scene: [number, number], text: string, extend: boolean): void {
  if (extend || (range[0] >= scene[0] && range[1] <= scene[1])) return
  throw new UsageError(
    `--frames ${text} is outside the scene's frames ${scene[0]}-${scene[1]}: give a range inside them, or add --extend to bake ${range[0] < scene[0] ? 'before the scene starts' : 'past the scene\'s end'} on purpose`,
  )
}

export function parseFrameRange(text: string): [number, number] {
  const m = /^(-?\d+)(?:-(-?\d+))?$/.exec(text)
  if (!m) throw new UsageError(`--frames must look like 1-120 (got "${text}")`)
  const a = Number(m[1])
  const b = m[2] === undefined ? a : Number(m[2])
  if (b < a) throw new UsageError(`--frames ${text} is empty: the end comes before the start`)
  return [a, b]
}

export async function bakeCommand(args: string[], out: NodeJS.WriteStream): Promise<number> {
  const [file, ...rest] = args
  if (!file || file.startsWith('--')) throw new UsageError('eddy bake needs a project file')
  const o = parseOptions(rest, {
    sim: { type: 'string' },
    frames: { type: 'string' },
    mode: { type: 'string', choices: ['bake', 'resume', 'range'] },
    from: { type: 'int', min: -100000, max: 1000000 },
    threads: { type: 'int', min: 1, max: 256 },
    precision: { type: 'string', choices: ['float16', 'float32', 'uint8'] },
    'checkpoint-every': { type: 'int', min: 1, max: 100000 },
    extend: { type: 'flag' },
    wedge: { type: 'string' },
    variant: { type: 'int', min: 1, max: 1_000_000 },
    'cache-file': { type: 'string' },
  })
  if (!o.sim) throw new UsageError('eddy bake needs --sim NAME (the simulation to bake: its domain or cage)')
  const projectPath = resolve(file)
  // With --cache-file (a farm task) the project is a scene copy, read and never written.
  const readOnly = o['cache-file'] !== undefined
  const sim = findSim(projectPath, o.sim, readOnly)
  const range = o.frames ? parseFrameRange(o.frames) : undefined
  const requested = (o.mode as BakeMode | undefined) ?? 'bake'
  if (range && o.frames) checkFrameRange(range, sim.sceneFrames, o.frames, o.extend === true)
  const { keys } = wedgeKeys(projectPath, sim.id, o.wedge, o.variant, readOnly)
  const cacheFile = o['cache-file'] ? resolve(o['cache-file']) : undefined
  if (cacheFile && keys.length > 1) throw new UsageError('--cache-file holds one bake: give --variant K with --wedge')
  let stop = false
  const onSigint = (): void => {
    if (stop) process.exit(130)
    stop = true
    out.write('\nCancelling after this frame (Ctrl-C again to quit at once)...\n')
  }
  process.on('SIGINT', onSigint)
  const tty = out.isTTY === true
  let last = ''
  try {
    let code = 0
    for (const key of keys) {
      if (stop) break
      const mode = requested === 'resume' && cacheFile && !resumable(cacheFile, key) ? 'bake' : requested
      code = Math.max(code, await bakeOne(key, mode))
    }
    return stop ? 130 : code
  } finally {
    process.off('SIGINT', onSigint)
  }

  async function bakeOne(key: string, mode: BakeMode): Promise<number> {
    const result = await runBake(
      {
        projectPath,
        domainId: key,
        ...(cacheFile ? { cacheFile } : {}),
        mode,
        ...(mode === 'bake' && range ? { frameStart: range[0], frameEnd: range[1] } : {}),
        ...(mode === 'range' && range ? { from: range[0], to: range[1] } : {}),
        ...(mode === 'resume' && o.from !== undefined ? { from: o.from } : {}),
        ...(o.threads ? { threads: o.threads } : {}),
        ...(o.precision ? { precision: o.precision as FramePrecision } : {}),
        ...(o['checkpoint-every'] ? { checkpointEvery: o['checkpoint-every'] } : {}),
      },
      {
        log: (line) => out.write(`${tty && last ? '\n' : ''}${line}\n`),
        progress: (p: BakeProgress) => {
          last = progressLine(p.done, p.total, `frame ${p.frame}  ${p.msFrame.toFixed(0)} ms  ${p.stats.substeps} substeps  ${p.stats.pressureIterations} CG  ${p.stats.particleCount} particles  ${formatBytes(p.stats.bytes)}  ETA ${(p.etaMs / 1000).toFixed(0)} s`)
          out.write(tty ? `\r${last}` : `${last}\n`)
        },
        shouldStop: () => stop,
      },
    )
    if (tty) out.write('\n')
    out.write(`EDDY_BAKE ${JSON.stringify(result)}\n`)
    return result.state === 'done' ? 0 : 130
  }
}
