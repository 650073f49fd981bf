// A render-farm scheduler as the farm commands see it: submit a plan of tasks, ask how they
// are doing, cancel them. Only Slurm is implemented (slurmEngine.ts); Deadline, OpenCue,
// Flamenco or HTCondor would each be one more implementation of this interface, the plan
// (farmPlan.ts) and the task commands staying as they are.

/** One array of tasks: task i runs `command` with EDDY_TASK set to `indices[i]`. */
export interface FarmTaskArray {
  /** Short name for the scheduler's queue ("bake", "export-v3"). */
  name: string
  /** The task numbers (Slurm's --array list): variant numbers, or chunk numbers. */
  indices: number[]
  /**
   * argv of each task; the string `{TASK}` in any argument is replaced by the task number.
   * argv[0] is an absolute program path the cluster's nodes can run (node on shared storage).
   */
  argv: string[]
  /** Working directory of the tasks (on shared storage). */
  cwd: string
  /** The log file of each task; `{TASK}` as in argv. */
  logPath: string
  /** A file each task writes its exit code to when it ends by itself; `{TASK}` as in argv. */
  exitCodePath: string
  /** Cores each task gets. */
  cpus: number
  /**
   * Start only after these tasks of an earlier array end well (Slurm --dependency=afterok):
   * the array's submitted id and the task numbers; all of them when `tasks` is omitted.
   */
  after?: { arrayId: string; tasks?: number[] }
}

/** What the scheduler said when the array was queued. */
export interface SubmittedArray {
  /** The scheduler's id of the array (Slurm's job id). */
  id: string
  name: string
  indices: number[]
  logPath: string
  exitCodePath: string
}

export type FarmTaskState = 'pending' | 'running' | 'done' | 'failed' | 'cancelled'

export interface FarmTaskStatus {
  arrayId: string
  name: string
  task: number
  state: FarmTaskState
  /** Exit code when the task ended by itself; null while it runs or when it was killed. */
  exitCode: number | null
  /** What the scheduler says beyond the state (its reason for pending, "killed by scancel"). */
  detail: string
  /** The last lines of the task's log ('' before it starts). */
  logTail: string
}

export interface FarmEngine {
  readonly name: string
  /** Throws a clear error when the scheduler's commands are not installed or not answering. */
  checkAvailable(): Promise<void>
  /**
   * Runs one small task on the cluster that checks it can read `projectPath` (shared storage)
   * and waits for it, at most `timeoutMs`; throws naming the problem when it cannot.
   */
  probe(projectPath: string, workDir: string, opts: { partition?: string; timeoutMs: number }): Promise<void>
  submit(array: FarmTaskArray, opts: { partition?: string }): Promise<SubmittedArray>
  status(arrays: readonly SubmittedArray[]): Promise<FarmTaskStatus[]>
  /** Cancels whole arrays, or the given tasks of one. */
  cancel(arrayId: string, tasks?: number[]): Promise<void>
}
