// Entry of a bake worker thread (out/main/bakeWorker.js). One worker runs one bake with
// runBake and reports to the host's BakeManager by messages. Cancel arrives through a
// SharedArrayBuffer flag rather than a message: the bake loop is synchronous inside a
// frame, so a message would wait until the frame ends, while the flag is read between
// substeps (Atomics.load), which is what makes Cancel take effect within one substep.
// The solver families register their parameters with the spec table before anything reads it.
import '../../src-shared/sim/registry'
import { setPriority } from 'node:os'
import { parentPort, workerData } from 'node:worker_threads'
import { isEddyError } from '../../src-shared/api/errors'
import { runBake, type BakeRequest } from './runner'
import type { WorkerMessage } from './workerMessages'

const { request, stopFlag } = workerData as { request: BakeRequest; stopFlag: SharedArrayBuffer }

// Bakes run below the UI's priority: on Linux setpriority(0) lowers only this thread, and the
// kernel threads it starts get the same value, so a click in the window (Chromium, the host's
// request loop) is served first while the bake keeps every idle cycle.
export const BAKE_NICE = 10
try {
  setPriority(0, BAKE_NICE)
} catch {
  // not permitted (some containers): the bake just runs at normal priority
}
const stop = new Int32Array(stopFlag)
const post = (m: WorkerMessage): void => parentPort!.postMessage(m)

runBake({ ...request, nice: BAKE_NICE }, {
  progress: (progress) => post({ type: 'progress', progress }),
  log: (line) => post({ type: 'log', line }),
  shouldStop: () => Atomics.load(stop, 0) !== 0,
}).then(
  (result) => post({ type: 'done', result }),
  (e: unknown) =>
    post({
      type: 'error',
      error: isEddyError(e) ? e.toData() : { code: 'INTERNAL', message: `Bake failed: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}` },
    }),
)
