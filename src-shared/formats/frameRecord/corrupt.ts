// The one error every damaged record turns into, naming what was found wrong.
import { EddyError } from '../../api/errors'

export function corrupt(what: string): EddyError {
  return new EddyError('PROJECT_FORMAT', `Cached frame record is corrupt: ${what}`)
}
