// Typed errors that cross the API boundary: a code for programs, a sentence for the artist,
// and optional details (which field, which line) for the UI to point at.

export const ERROR_CODES = [
  'INVALID_MESSAGE', // the message itself does not match the API schema
  'INVALID_PARAM', // a value is outside its spec (range, type, NaN)
  'NOT_FOUND', // an object, key, mesh or file that does not exist
  'NO_PROJECT', // a project request with no project open
  'MESH_PARSE', // an imported mesh file is malformed
  'PROJECT_FORMAT', // a project file that is not an Eddy project, or from a newer Eddy
  'IO_ERROR', // the file system refused (permissions, disk full, missing folder)
  'NOTHING_TO_UNDO',
  'CANCELLED', // the artist cancelled a bake or an export; what was finished is kept
  'RESOURCE_LIMIT', // a job would not fit in memory or on disk, refused before it started
  'SIM_UNSTABLE', // a solver hit NaN or a blow-up and stopped instead of caching garbage
  'INTERNAL', // a bug: the host survived it, the edit did not happen
] as const
export type ErrorCode = (typeof ERROR_CODES)[number]

export interface ApiErrorData {
  code: ErrorCode
  message: string
  details?: Record<string, unknown>
}

export class EddyError extends Error {
  readonly code: ErrorCode
  readonly details?: Record<string, unknown>
  constructor(code: ErrorCode, message: string, details?: Record<string, unknown>) {
    super(message)
    this.name = 'EddyError'
    this.code = code
    this.details = details
  }
  toData(): ApiErrorData {
    return this.details ? { code: this.code, message: this.message, details: this.details } : { code: this.code, message: this.message }
  }
}

export function isEddyError(e: unknown): e is EddyError {
  return e instanceof EddyError
}
