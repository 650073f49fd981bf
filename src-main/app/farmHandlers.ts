// API handlers of the bake panel's farm section: the open project's submissions with each
// task's state and log tail as its scheduler reports them, and Cancel.
import type { Handlers } from '../../src-shared/api/dispatch'
import { EddyError, isEddyError } from '../../src-shared/api/errors'
import { farmEngine, FARM_ENGINES } from '../farm/engines'
import { listSubmissions, type Submission } from '../farm/submissions'
import { farmSubmit } from '../farm/farmSubmit'
import { mergeFarmCaches } from '../farm/mergeFarm'
import type { ProjectStore } from '../store/projectStore'

export interface FarmContext {
  requireStore(): { store: ProjectStore }
  /** Whether the studio is baking a bake key itself (its farm copy waits). */
  isBaking(key: string): boolean
}

async function submissionView(s: Submission) {
  const base = { id: s.id, engine: s.engine, hostId: s.hostId, simName: s.simName, wedgeId: s.wedgeId, wedgeName: s.wedgeName, variants: s.variants, createdAt: s.createdAt }
  try {
    const statuses = await farmEngine(s.engine).status(s.arrays)
    const tasks = statuses.map((t) => {
      const a = s.arrays.find((x) => x.id === t.arrayId)
      const role = a?.role ?? 'bake'
      return { ...t, role, variant: role === 'export' ? (a?.variant ?? 0) : t.task }
    })
    return { ...base, tasks, problem: null }
  } catch (e) {
    if (!isEddyError(e)) throw e
    return { ...base, tasks: [], problem: e.message }
  }
}

/** Whether an engine's commands answer here: the bake panel offers Submit only when one does. */
async function engineView(name: string): Promise<{ name: string; problem: string | null }> {
  try {
    await farmEngine(name).checkAvailable()
    return { name, problem: null }
  } catch (e) {
    if (!isEddyError(e)) throw e
    return { name, problem: e.message }
  }
}

export function makeFarmHandlers(ctx: FarmContext): Pick<Handlers, 'farm.status' | 'farm.cancel' | 'farm.submit'> {
  return {
    'farm.submit': async ({ domainId, wedgeId, engine, partition, export: ex, chunk, resume }) => {
      const { store } = ctx.requireStore()
      const s = await farmSubmit(
        farmEngine(engine),
        {
          projectPath: store.path,
          hostId: domainId,
          ...(wedgeId ? { wedge: wedgeId } : {}),
          ...(partition ? { partition } : {}),
          ...(ex ? { export: ex } : {}),
          ...(chunk ? { chunk } : {}),
          ...(resume ? { resume } : {}),
        },
        (line) => console.log(`eddy: farm: ${line}`),
      )
      return submissionView(s)
    },
    'farm.status': async () => {
      const { store } = ctx.requireStore()
      const { submissions, problems } = listSubmissions(store.path)
      const views = await Promise.all(submissions.map(submissionView))
      // Bakes the farm finished while the project is open join its cache now, not only when it
      // is next opened: the panel that shows a task done then shows its frames too.
      const merged = views.some((v) => v.tasks.some((t) => t.role === 'bake' && t.state === 'done')) ? mergeFarmCaches(store, ctx.isBaking).merged.map((m) => m.key) : []
      return { submissions: views, problems, engines: await Promise.all(FARM_ENGINES.map(engineView)), merged }
    },
    'farm.cancel': async ({ submissionId, variant }) => {
      const { submissions } = listSubmissions(ctx.requireStore().store.path)
      const s = submissions.find((x) => x.id === submissionId)
      if (!s) throw new EddyError('NOT_FOUND', `No farm submission "${submissionId}" for this project`, { field: 'submissionId' })
      if (variant !== undefined && !s.variants.includes(variant)) throw new EddyError('NOT_FOUND', `Submission ${s.id} has no variant ${variant}`, { field: 'variant' })
      const engine = farmEngine(s.engine)
      for (const a of s.arrays) {
        if (variant === undefined) await engine.cancel(a.id)
        else if (a.role === 'bake' && a.indices.includes(variant)) await engine.cancel(a.id, [variant])
        else if (a.role === 'export' && a.variant === variant) await engine.cancel(a.id)
      }
      return { cancelled: true }
    },
  }
}
