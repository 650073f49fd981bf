// The single-node Slurm cluster the farm tests run on (scripts/slurm-cluster.sh, idempotent).
// Resolves to '' when it is up, else to the exact reason the tests skip.
import { execFile, spawnSync } from 'node:child_process'
import { join } from 'node:path'
import { promisify } from 'node:util'

const ROOT = join(import.meta.dirname, '../../..')

export async function startLocalCluster(): Promise<string> {
  if (process.getuid?.() !== 0) return 'needs root to run a local Slurm cluster (scripts/slurm-cluster.sh)'
  if (spawnSync('sh', ['-c', 'command -v sbatch && command -v slurmctld']).status !== 0) return 'Slurm is not installed (apt-get install -y slurm-wlm munge)'
  try {
    await promisify(execFile)('bash', [join(ROOT, 'scripts/slurm-cluster.sh'), 'start'], { timeout: 80_000 })
    return ''
  } catch (e) {
    const err = e as { stderr?: string; message: string }
    return (err.stderr?.trim() || err.message).split('\n').pop() ?? 'slurm-cluster.sh start failed'
  }
}
