// The BoomerAMG peer's hand-over (src-main/cli/hyprePeer.ts): the system file the driver
// (scripts/peers/boomeramg.c) reads, byte for byte, and what comes back from a driver that
// answers or fails. The driver itself needs hypre (libhypre-dev), which only the benchmark
// machine has; stand-in drivers here read the file the same way.
import { chmodSync, mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { encodeCsrSystem, solveWithBoomerAmg } from '../../../src-main/cli/hyprePeer'
import { csrFromTriplets } from '../../../src-shared/sim/core/sparse/csr'

// The 1D Laplacian on 3 unknowns: rows [2 -1 0], [-1 2 -1], [0 -1 2].
const A = csrFromTriplets(3, 3, [0, 0, 1, 1, 1, 2, 2], [0, 1, 0, 1, 2, 1, 2], [2, -1, -1, 2, -1, -1, 2])
const b = Float64Array.from([1, 0, 1])

function script(body: string): string {
  const file = join(mkdtempSync(join(tmpdir(), 'eddy-hypre-test-')), 'driver.sh')
  writeFileSync(file, `#!/bin/sh\n${body}\n`)
  chmodSync(file, 0o755)
  return file
}

describe('BoomerAMG peer hand-over', () => {
  it('writes EDCSR1, n, nnz, rowPtr, col, val and b, little-endian', () => {
    const bytes = encodeCsrSystem(A, b)
    const dv = new DataView(bytes.buffer)
    expect(String.fromCharCode(...bytes.subarray(0, 6))).toBe('EDCSR1')
    expect([bytes[6], bytes[7]]).toEqual([0, 0])
    expect([dv.getInt32(8, true), dv.getInt32(12, true)]).toEqual([3, 7])
    const rowPtr = Array.from({ length: 4 }, (_, i) => dv.getInt32(16 + 4 * i, true))
    expect(rowPtr).toEqual([0, 2, 5, 7])
    const col = Array.from({ length: 7 }, (_, p) => dv.getInt32(32 + 4 * p, true))
    expect(col).toEqual([0, 1, 0, 1, 2, 1, 2])
    const val = Array.from({ length: 7 }, (_, p) => dv.getFloat64(60 + 8 * p, true))
    expect(val).toEqual([2, -1, -1, 2, -1, -1, 2])
    const rhs = Array.from({ length: 3 }, (_, i) => dv.getFloat64(116 + 8 * i, true))
    expect(rhs).toEqual([1, 0, 1])
    expect(bytes.length).toBe(140)
    expect(() => encodeCsrSystem(A, new Float64Array(2))).toThrow(/2 values for 3 rows/)
  })

  it("reads the driver's HYPRE_RESULT line (the driver gets the system file as its argument)", () => {
    // Answers only if the file it was given starts with the magic and is 140 bytes long.
    const driver = script(
      `[ "$(head -c 6 "$1")" = EDCSR1 ] && [ "$(wc -c < "$1")" -eq 140 ] || exit 3\n` +
        `echo 'hypre says hello'\necho 'HYPRE_RESULT {"unknowns":3,"setup":0.5,"solve":0.25,"iterations":2,"relres":1e-7}'`,
    )
    expect(solveWithBoomerAmg(driver, A, b)).toEqual({ unknowns: 3, setup: 0.5, solve: 0.25, iterations: 2, relres: 1e-7 })
  })

  it('names the driver and its message when it fails', () => {
    const driver = script('echo "boomeramg: a column index is out of range" >&2\nexit 1')
    expect(() => solveWithBoomerAmg(driver, A, b)).toThrow(/driver .*driver\.sh failed \(exit 1\): boomeramg: a column index is out of range/)
    expect(() => solveWithBoomerAmg('/nonexistent/boomeramg', A, b)).toThrow(/boomeramg failed \(spawnSync \/nonexistent\/boomeramg ENOENT\)/)
  })
})
