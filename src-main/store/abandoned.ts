// Threads left behind past a deadline: each is stuck in a system call on a disk that stopped
// answering. Nothing can interrupt them, and Node's process.exit() joins every worker thread,
// so the host's shutdown (src-main/app/shutdown.ts) asks here whether it must exit without
// joining them.
import type { Worker } from 'node:worker_threads'

const left = new Map<Worker, string>()

export function noteAbandoned(worker: Worker, what: string): void {
  left.set(worker, what)
  worker.once('exit', () => left.delete(worker))
}

/** What is still stuck (one sentence per thread). */
export function abandonedWork(): string[] {
  return [...left.values()]
}
