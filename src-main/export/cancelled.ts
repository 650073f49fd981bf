// A cancelled export is not a failure of the artist's data or of the disk, so it has its own
// code, CANCELLED; files finished before the cancel stay, the manifest is not written.
import { EddyError } from '../../src-shared/api/errors'

export class ExportCancelledError extends EddyError {
  constructor(message: string) {
    super('CANCELLED', message)
    this.name = 'ExportCancelledError'
  }
}

export function isExportCancelled(e: unknown): e is ExportCancelledError {
  return e instanceof ExportCancelledError
}

export function throwIfCancelled(signal: AbortSignal | undefined, what: string): void {
  if (signal?.aborted) throw new ExportCancelledError(`Export cancelled ${what}`)
}
