// The fused Jacobi-CG kernels (core/sparse/jacobiCgKernels.ts) against the separate kernels they
// replace, bit for bit, on TypeScript and 1-3 WebAssembly threads: residuals of 1-4 systems in
// one pass (three take the twin's shared-load path, the others its general one), the update
// with its two sums (an odd length, so a block ends on a lone entry), and the search direction.
import { describe, expect, it } from 'vitest'
import type { KernelBackend } from '../../../src-shared/sim/core/kernelTypes'
import { poisson3d } from '../../../src-shared/sim/core/sparse/csr'
import { JACOBI_CG_UPDATE, JACOBI_SEARCH, RESIDUAL_MULTI } from '../../../src-shared/sim/core/sparse/jacobiCgKernels'
import { copyCsr } from '../../../src-shared/sim/core/sparse/csr'
import { blockCount, DOT_BLOCKS, SCALE_BLOCKS } from '../../../src-shared/sim/core/sparse/rows'
import { SparseVectorOps, spResidual } from '../../../src-shared/sim/core/sparse/ops'
import { everyBackendOfFile, rng, sameBits } from './everyBackend'

function random(k: KernelBackend, n: number, seed: number, lo = -1): Float64Array {
  const r = rng(seed), a = k.f64(n)
  for (let i = 0; i < n; i++) a[i] = lo + (1 - lo) * r()
  return a
}

describe('fused Jacobi-CG kernels', () => {
  const backends = everyBackendOfFile()

  it.each(backends)('are the separate kernels bit for bit: %s', (_name, k) => {
    const A = copyCsr(poisson3d(11, 9, 7), k)
    const n = A.n // 693: odd
    const block = 64
    for (const count of [1, 2, 3, 4]) {
      const x = random(k, count * n, count), b = random(k, count * n, 10 + count), r = k.f64(count * n)
      k.run(RESIDUAL_MULTI, A.rowPtr, A.col, A.val, x, b, r, n, count, n)
      for (let d = 0; d < count; d++) {
        const want = k.f64(n)
        spResidual(k, A, x.subarray(d * n, (d + 1) * n), b.subarray(d * n, (d + 1) * n), want)
        expect(sameBits(r.subarray(d * n, (d + 1) * n), want), `count ${count} system ${d}`).toBe(true)
      }
    }

    const ops = new SparseVectorOps(n, k, block)
    const blocks = blockCount(n, block)
    const invDiag = random(k, n, 7, 0.1)
    const make = () => ({ x: random(k, n, 1), r: random(k, n, 2), s: random(k, n, 3), q: random(k, n, 4) })
    const fused = make(), apart = make()
    const partial = k.f64(blocks), rz = k.f64(blocks)
    const rr = k.run(JACOBI_CG_UPDATE, fused.x, fused.r, fused.s, fused.q, invDiag, 0.37, n, block, partial, rz)
    let rzSum = 0
    for (let i = 0; i < blocks; i++) rzSum += rz[i]
    const rrApart = ops.updateIterate(apart.x, apart.r, apart.s, apart.q, 0.37)
    const z = k.f64(n)
    k.run(SCALE_BLOCKS, z, invDiag, apart.r, n, block)
    expect(sameBits(fused.x, apart.x) && sameBits(fused.r, apart.r)).toBe(true)
    expect(Object.is(rr, rrApart)).toBe(true)
    // Block by block: a sum of the blocks could round a last-bit difference away.
    const dots = k.f64(blocks)
    k.run(DOT_BLOCKS, apart.r, z, n, block, dots)
    expect(sameBits(rz, dots)).toBe(true)
    expect(rzSum).toBeGreaterThan(0)

    k.run(JACOBI_SEARCH, fused.s, fused.r, invDiag, -0.61, n, block)
    ops.updateSearch(apart.s, z, -0.61)
    expect(sameBits(fused.s, apart.s)).toBe(true)
  })
})
