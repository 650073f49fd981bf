// How many threads Eddy's kernels use when nobody asks for a number: every core this process
// may run on (availableParallelism respects the CPU affinity a farm task or `taskset` sets), or
// EDDY_THREADS when set, like OMP_NUM_THREADS or Blender's --threads. Bakes, the bake queue's
// share-out and the benchmarks take their default from here; an explicit --threads still gets
// up to every core. The test runner sets it to 1: vitest already runs one test file per core,
// and a file's second kernel thread then mostly waits for the core the other file holds.
import { availableParallelism } from 'node:os'
import { EddyError } from '../../src-shared/api/errors'

/** Default kernel threads: EDDY_THREADS when set (at most the cores), else every core. */
export function defaultKernelThreads(env: NodeJS.ProcessEnv = process.env): number {
  const cores = Math.max(1, availableParallelism())
  const raw = env.EDDY_THREADS
  if (raw === undefined || raw.trim() === '') return cores
  const wanted = Number(raw)
  if (!Number.isInteger(wanted) || wanted < 1) throw new EddyError('INVALID_PARAM', `EDDY_THREADS must be a whole number of threads from 1 up, got "${raw}"`)
  return Math.min(cores, wanted)
}
