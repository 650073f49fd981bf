// A cancelled export is not a failure of the artist's data or of the disk, so it gets its own
// code; src-shared/api/errors.ts has no 'CANCELLED' yet, hence a local class with the same
// shape (code + sentence) that the service can map when the code is added.
export class ExportCancelledError extends Error {
  readonly code = 'CANCELLED' as const
  constructor(message: string) {
    super(message)
    this.name = 'ExportCancelledError'
  }
}

export function isExportCancelled(e: unknown): e is ExportCancelledError {
  return e instanceof ExportCancelledError
}

export function throwIfCancelled(signal: AbortSignal | undefined, what: string): void {
  if (signal?.aborted) throw new ExportCancelledError(`Export cancelled ${what}`)
}
