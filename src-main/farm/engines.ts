// The schedulers Eddy can submit to, by the name `--engine` takes. Only Slurm is implemented;
// the others are named so that asking for one says so plainly instead of "unknown".
import { EddyError } from '../../src-shared/api/errors'
import type { FarmEngine } from './engine'
import { SlurmEngine } from './slurmEngine'

export const FARM_ENGINES = ['slurm'] as const
const NOT_YET = ['deadline', 'opencue', 'flamenco', 'htcondor']

export function farmEngine(name: string): FarmEngine {
  if (name === 'slurm') return new SlurmEngine()
  if (NOT_YET.includes(name)) throw new EddyError('INVALID_PARAM', `The ${name} engine is not implemented yet; only slurm is (src-main/farm/engine.ts is the interface another scheduler implements)`, { field: 'engine' })
  throw new EddyError('INVALID_PARAM', `Unknown farm engine "${name}" (known: ${FARM_ENGINES.join(', ')})`, { field: 'engine' })
}
