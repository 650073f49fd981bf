// The BoomerAMG peer of `eddy bench tetmesh --hypre <driver>`: hands the pressure matrix and its
// right-hand side to scripts/peers/boomeramg.c (hypre's PCG preconditioned by BoomerAMG with its
// defaults, built by `npm run bench:peers -- tetmesh`) and reads back its figures, so the
// paper's AMG and hypre's meet on the same system in the same run (issue 15 asks for the
// comparison).
import { spawnSync } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { CsrMatrix } from '../../src-shared/sim/core/sparse/csr'

export interface HypreFigures {
  unknowns: number
  /** BoomerAMG's setup (coarsening, interpolation, Galerkin products), seconds. */
  setup: number
  /** PCG's iterations, seconds. */
  solve: number
  iterations: number
  /** ||r|| / ||b|| at the end. */
  relres: number
}

/** The driver's input: "EDCSR1\0\0", int32 n, int32 nnz, rowPtr, col, val, b (little-endian). */
export function encodeCsrSystem(A: CsrMatrix, b: Float64Array): Uint8Array {
  const n = A.n, nnz = A.rowPtr[n]
  if (b.length !== n) throw new Error(`right-hand side has ${b.length} values for ${n} rows`)
  const bytes = new Uint8Array(16 + 4 * (n + 1) + 4 * nnz + 8 * nnz + 8 * n)
  const dv = new DataView(bytes.buffer)
  bytes.set([0x45, 0x44, 0x43, 0x53, 0x52, 0x31, 0, 0]) // EDCSR1
  dv.setInt32(8, n, true)
  dv.setInt32(12, nnz, true)
  let o = 16
  for (let i = 0; i <= n; i++, o += 4) dv.setInt32(o, A.rowPtr[i], true)
  for (let p = 0; p < nnz; p++, o += 4) dv.setInt32(o, A.col[p], true)
  for (let p = 0; p < nnz; p++, o += 8) dv.setFloat64(o, A.val[p], true)
  for (let i = 0; i < n; i++, o += 8) dv.setFloat64(o, b[i], true)
  return bytes
}

/** Runs the driver on A x = b; throws with its message when it fails. */
export function solveWithBoomerAmg(driver: string, A: CsrMatrix, b: Float64Array): HypreFigures {
  const dir = mkdtempSync(join(tmpdir(), 'eddy-hypre-'))
  try {
    const file = join(dir, 'system.edcsr')
    writeFileSync(file, encodeCsrSystem(A, b))
    // One process and one thread: Open MPI's singleton mode, OpenMP (if hypre has it) held to 1.
    const r = spawnSync(driver, [file], { encoding: 'utf8', env: { ...process.env, OMP_NUM_THREADS: '1' }, timeout: 600_000 })
    const line = (r.stdout ?? '').split('\n').find((l) => l.startsWith('HYPRE_RESULT '))
    if (r.status !== 0 || !line) throw new Error(`BoomerAMG driver ${driver} failed (${r.error?.message ?? `exit ${r.status}`}): ${(r.stderr ?? '').trim().slice(0, 400)}`)
    return JSON.parse(line.slice('HYPRE_RESULT '.length)) as HypreFigures
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}
