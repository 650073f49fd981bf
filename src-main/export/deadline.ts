// File-system calls that may never settle (a hard-mounted network share that went away, a
// kernel loop such as Node's recursive mkdir under /proc/<pid>) must not hold anything else
// up: the export job, the request queue, Cancel or the host's exit. withDeadline races a call
// against a timer and an AbortSignal; the call itself keeps running in the background (nothing
// can interrupt a system call) and its late result is ignored.

/** The call did not settle within `ms`. */
export class DeadlineError extends Error {
  constructor(readonly ms: number) {
    super(`no answer within ${ms} ms`)
    this.name = 'DeadlineError'
  }
}

/** The signal fired before the call settled. */
export class AbortedWaitError extends Error {
  constructor() {
    super('aborted while waiting')
    this.name = 'AbortedWaitError'
  }
}

/** `op`'s outcome if it settles first, else DeadlineError after `ms` or AbortedWaitError on abort. */
export function withDeadline<T>(op: Promise<T>, ms: number, signal?: AbortSignal): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    let settled = false
    let timer: ReturnType<typeof setTimeout> | undefined
    const finish = (): boolean => {
      if (settled) return false
      settled = true
      if (timer !== undefined) clearTimeout(timer)
      signal?.removeEventListener('abort', onAbort)
      return true
    }
    const onAbort = (): void => {
      if (finish()) reject(new AbortedWaitError())
    }
    // Always observe `op`, so a late rejection is never an unhandled one.
    op.then(
      (v) => finish() && resolve(v),
      (e: unknown) => finish() && reject(e),
    )
    if (signal?.aborted) return onAbort()
    signal?.addEventListener('abort', onAbort, { once: true })
    if (Number.isFinite(ms)) timer = setTimeout(() => finish() && reject(new DeadlineError(ms)), Math.max(0, ms))
  })
}

/** "30 s", "1.5 s", "250 ms": for sentences. */
export function describeMs(ms: number): string {
  return ms >= 1000 ? `${Math.round(ms / 100) / 10} s` : `${ms} ms`
}
