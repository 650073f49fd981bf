// Stopping a host on SIGTERM/SIGINT within a deadline, whatever is stuck. The graceful path
// cancels bakes and exports and closes the server; if that has not finished within
// `deadlineMs`, or a thread is known to be stuck in a system call (Save As abandoned past its
// deadline: process.exit() would wait forever to join it), the process ends itself with
// SIGKILL, which needs no thread's cooperation. A second signal ends it at once the same way.
import { abandonedWork } from '../store/abandoned'

/** What the host may spend on a graceful stop before it kills itself. */
export const SHUTDOWN_DEADLINE_MS = 1500

export interface ShutdownOptions {
  /** Cancels work and closes connections. */
  graceful: () => Promise<void>
  deadlineMs?: number
  /** For tests; default process.exit. */
  exit?: (code: number) => void
  /** For tests; default: SIGKILL to this process. */
  kill?: () => void
  /** For tests; default: abandonedWork(). */
  stuck?: () => string[]
  log?: (line: string) => void
}

/** Returns the signal handler: call it with the signal's name. */
export function makeShutdown(opts: ShutdownOptions): (signal: string) => void {
  const exit = opts.exit ?? ((code: number) => process.exit(code))
  const kill = opts.kill ?? (() => process.kill(process.pid, 'SIGKILL'))
  const stuck = opts.stuck ?? abandonedWork
  const log = opts.log ?? ((line: string) => process.stderr.write(`${line}\n`))
  const deadlineMs = opts.deadlineMs ?? SHUTDOWN_DEADLINE_MS
  let stopping = false
  let over = false
  const hard = (why: string): void => {
    if (over) return
    over = true
    log(`Eddy host: ${why}; stopping at once`)
    kill()
  }
  return (signal: string) => {
    if (stopping) return hard(`${signal} again while stopping`)
    stopping = true
    const timer = setTimeout(() => hard(`stopping took longer than ${deadlineMs} ms`), deadlineMs)
    void opts
      .graceful()
      .catch((e: unknown) => log(`Eddy host: stopping failed: ${e instanceof Error ? e.message : String(e)}`))
      .then(() => {
        if (over) return
        clearTimeout(timer)
        const left = stuck()
        if (left.length > 0) return hard(`${left.length} thread(s) stuck on a disk (${left.join('; ')})`)
        over = true
        exit(0)
      })
  }
}
