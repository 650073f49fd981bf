// Requests of wedges and the farm: promoting a variant to the main cache, and the bake
// panel's view of farm submissions (src-main/farm), their per-task states and log tails.
import { z } from 'zod'
import { filePath, objectId, projectState } from './schemas'

const taskState = z.enum(['pending', 'running', 'done', 'failed', 'cancelled'])

export const farmTask = z.object({
  arrayId: z.string(),
  /** 'bake' tasks are variants; 'export' tasks are frame chunks of `variant`. */
  role: z.enum(['bake', 'export']),
  variant: z.number().int(),
  task: z.number().int(),
  state: taskState,
  exitCode: z.number().int().nullable(),
  detail: z.string(),
  logTail: z.string(),
})

export const farmSubmission = z.object({
  id: z.string(),
  engine: z.string(),
  hostId: z.string(),
  simName: z.string(),
  wedgeId: z.string().nullable(),
  wedgeName: z.string().nullable(),
  variants: z.array(z.number().int()),
  createdAt: z.string(),
  tasks: z.array(farmTask),
  /** Set when the scheduler could not be asked (its commands missing, the controller down). */
  problem: z.string().nullable(),
})

const wedgeId = z.string().min(1).max(32)
const variant = z.number().int().min(1).max(1_000_000)

export const farmRequests = {
  /**
   * Variant k becomes the scene: its values are set on the objects (their keys on those
   * channels set aside, as the bake did) in one undo step, and its cached frames are copied
   * to the simulation's main cache, where they are valid at once.
   */
  'wedge.promote': { params: z.object({ domainId: objectId, wedgeId, variant }).strict(), result: projectState },
  /** The open project's farm submissions, each task's state as its scheduler reports it. */
  'farm.status': {
    params: z.object({}).strict(),
    result: z.object({
      submissions: z.array(farmSubmission),
      problems: z.array(z.string()),
      /** The schedulers Eddy can submit to, each with why it cannot be used here (null when it can). */
      engines: z.array(z.object({ name: z.string(), problem: z.string().nullable() })),
      /** Bake keys whose finished farm bakes this call copied into the open project's cache. */
      merged: z.array(z.string()),
    }),
  },
  /**
   * Submits a simulation, or every variant of one of its wedges, to a farm (eddy farm submit):
   * answers once the probe task has run and the arrays are queued.
   */
  'farm.submit': {
    params: z
      .object({
        domainId: objectId,
        wedgeId: wedgeId.optional(),
        engine: z.enum(['slurm']),
        partition: z.string().regex(/^[A-Za-z0-9_.-]{1,64}$/, 'must be a partition name').optional(),
        export: z.object({ format: z.enum(['vdb', 'obj', 'ply', 'gltf', 'glb', 'png']), outDir: filePath.optional() }).strict().optional(),
        chunk: z.number().int().min(1).max(100_000).optional(),
        resume: z.boolean().optional(),
      })
      .strict(),
    result: farmSubmission,
  },
  /** Cancels a submission's tasks (one variant's, bake and exports, when `variant` is given). */
  'farm.cancel': { params: z.object({ submissionId: z.string().min(1).max(200), variant: variant.optional() }).strict(), result: z.object({ cancelled: z.boolean() }) },
} as const
