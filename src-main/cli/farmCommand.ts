// `eddy farm submit|status|cancel|merge PROJECT ...`: bakes (and exports) sent to a farm's
// scheduler, watched and cancelled from the command line (src-main/farm). The project must be
// on storage the cluster's nodes share: a probe task checks before anything is submitted.
import { resolve } from 'node:path'
import { EXPORT_FORMATS } from '../export/exportOptions'
import { farmEngine, FARM_ENGINES } from '../farm/engines'
import { farmSubmit } from '../farm/farmSubmit'
import { mergeFarmCaches } from '../farm/mergeFarm'
import { findSubmission } from '../farm/submissions'
import { ProjectStore } from '../store/projectStore'
import { parseOptions, UsageError } from './args'
import { findSim } from './bakeCommand'

export async function farmCommand(args: string[], out: (line: string) => void): Promise<number> {
  const [verb, file, ...rest] = args
  if (!verb || !['submit', 'status', 'cancel', 'merge'].includes(verb)) throw new UsageError('eddy farm needs submit, status, cancel or merge')
  if (!file || file.startsWith('--')) throw new UsageError(`eddy farm ${verb} needs a project file`)
  const projectPath = resolve(file)
  if (verb === 'submit') {
    const o = parseOptions(rest, {
      sim: { type: 'string' },
      wedge: { type: 'string' },
      engine: { type: 'string' },
      partition: { type: 'string' },
      chunk: { type: 'int', min: 1, max: 100000 },
      export: { type: 'string', choices: [...EXPORT_FORMATS] },
      out: { type: 'string' },
      cpus: { type: 'int', min: 1, max: 256 },
      resume: { type: 'flag' },
      'probe-timeout': { type: 'int', min: 1, max: 86400 },
    })
    if (!o.sim) throw new UsageError('eddy farm submit needs --sim NAME')
    if (!o.engine) throw new UsageError(`eddy farm submit needs --engine (${FARM_ENGINES.join(', ')})`)
    if (o.out && !o.export) throw new UsageError('--out is where the export tasks write: give --export FORMAT with it')
    if (o.chunk && !o.export) throw new UsageError('--chunk splits the export tasks: give --export FORMAT with it')
    const engine = farmEngine(o.engine)
    const sim = findSim(projectPath, o.sim)
    const s = await farmSubmit(
      engine,
      {
        projectPath,
        hostId: sim.id,
        ...(o.wedge ? { wedge: o.wedge } : {}),
        ...(o.partition ? { partition: o.partition } : {}),
        ...(o.chunk ? { chunk: o.chunk } : {}),
        ...(o.export ? { export: { format: o.export, ...(o.out ? { outDir: resolve(o.out) } : {}) } } : {}),
        ...(o.cpus ? { cpus: o.cpus } : {}),
        ...(o.resume ? { resume: true } : {}),
        ...(o['probe-timeout'] ? { probeTimeoutMs: o['probe-timeout'] * 1000 } : {}),
      },
      out,
    )
    out(`EDDY_FARM ${JSON.stringify({ id: s.id, arrays: s.arrays.map((a) => ({ id: a.id, role: a.role, indices: a.indices, variant: a.variant })) })}`)
    return 0
  }
  if (verb === 'merge') {
    if (rest.length) parseOptions(rest, {})
    const store = ProjectStore.open(projectPath)
    try {
      const r = mergeFarmCaches(store)
      for (const m of r.merged) out(`Merged ${m.frames} frames of ${m.key} (submission ${m.submission})`)
      for (const n of r.notes) out(n)
      if (r.merged.length === 0) out('Nothing new to merge')
      out(`EDDY_FARM_MERGE ${JSON.stringify(r)}`)
      return 0
    } finally {
      store.close()
    }
  }
  const o = parseOptions(rest, { job: { type: 'string' }, variant: { type: 'int', min: 1, max: 1_000_000 }, logs: { type: 'flag' } })
  const s = findSubmission(projectPath, o.job)
  const engine = farmEngine(s.engine)
  if (verb === 'cancel') {
    const bakes = s.arrays.filter((a) => a.role === 'bake')
    if (o.variant !== undefined) {
      if (!s.variants.includes(o.variant)) throw new UsageError(`Submission ${s.id} has no variant ${o.variant} (it has ${s.variants.join(', ')})`)
      for (const a of bakes) if (a.indices.includes(o.variant)) await engine.cancel(a.id, [o.variant])
      for (const a of s.arrays) if (a.role === 'export' && a.variant === o.variant) await engine.cancel(a.id)
      out(`Cancelled variant ${o.variant} of ${s.id}`)
    } else {
      for (const a of s.arrays) await engine.cancel(a.id)
      out(`Cancelled ${s.id}`)
    }
    return 0
  }
  const tasks = await engine.status(s.arrays)
  out(`${s.id}: ${s.simName}${s.wedgeName ? `, wedge "${s.wedgeName}"` : ''} on ${s.engine}`)
  for (const t of tasks) {
    const a = s.arrays.find((x) => x.id === t.arrayId)
    const what = a?.role === 'export' ? `export variant ${a.variant} chunk ${t.task}` : `bake variant ${t.task}`
    out(`  ${t.arrayId}_${t.task}  ${what.padEnd(28)} ${t.state}${t.exitCode !== null ? ` (exit ${t.exitCode})` : ''}${t.detail ? `  ${t.detail}` : ''}`)
    if (o.logs && t.logTail) for (const line of t.logTail.split('\n')) out(`      | ${line}`)
  }
  out(`EDDY_FARM_STATUS ${JSON.stringify({ id: s.id, tasks })}`)
  return 0
}
