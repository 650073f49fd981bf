// Builds the BoomerAMG peer of `eddy bench tetmesh` (scripts/peers/boomeramg.c: hypre's PCG with
// BoomerAMG at its defaults) into out/peers/, when Debian's libhypre-dev (hypre and Open MPI's
// mpicc) is installed. Rebuilds only when the source is newer.
import { existsSync, mkdirSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { ROOT, run } from './ensure.mjs'

const SOURCE = join(ROOT, 'scripts/peers/boomeramg.c')
const DRIVER = join(ROOT, 'out/peers/boomeramg')

/** The driver's path, or { missing } saying what to install. */
export function buildBoomerAmg() {
  if (!existsSync('/usr/include/hypre/HYPRE.h') || !existsSync('/usr/bin/mpicc')) return { missing: 'hypre (apt-get install libhypre-dev)' }
  if (existsSync(DRIVER) && statSync(DRIVER).mtimeMs >= statSync(SOURCE).mtimeMs) return { driver: DRIVER }
  mkdirSync(join(ROOT, 'out/peers'), { recursive: true })
  if (run('/usr/bin/mpicc', ['-O2', SOURCE, '-I/usr/include/hypre', '-lHYPRE', '-o', DRIVER]) !== 0) return { missing: 'a BoomerAMG driver (mpicc failed on scripts/peers/boomeramg.c)' }
  return { driver: DRIVER }
}
