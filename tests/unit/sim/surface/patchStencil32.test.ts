// The float32 stencil kernels (patchStencil32.ts: the projection multigrid's, and the product of
// the diffusions' float32 solves): each gives the same bits on
// TypeScript and on 1-3 WebAssembly threads (the twin takes four inner rows a vector and an odd
// run's rest one by one: patch edges 3, 5, 6, 7 and 8, and a Galerkin coarse level), and each
// agrees with its float64 counterpart (the CSR rows, R = P^T and alpha P of the 2 x 2
// aggregation) to float32 rounding, about 1e-7 of the row's magnitudes: a kernel that read the
// wrong plane, lane or aggregate would miss by order one. The planes' symmetric layout (five
// planes, an offset -d's coefficient read from plane +d at r - d) needs A = A^T to the bit: a
// matrix whose inner rows disagree about a coupling is refused with an error that says so.
import { describe, expect, it } from 'vitest'
import { buildLimitSurface } from '../../../../src-shared/geometry/catmullClarkEval'
import { buildPatchAtlas } from '../../../../src-shared/geometry/patchAtlas'
import { sphereLikeCage, torusCage } from '../../../../src-shared/geometry/voxelCages'
import { TS_KERNELS } from '../../../../src-shared/sim/core/kernelBackend'
import type { KernelBackend } from '../../../../src-shared/sim/core/kernelTypes'
import { copyCsr, type CsrMatrix, galerkin, symmetrised, transposeCsr } from '../../../../src-shared/sim/core/sparse/csr'
import { jacobiRows, residualRows, spmvRows } from '../../../../src-shared/sim/core/sparse/kernels'
import { patchStencilOf } from '../../../../src-shared/sim/surface/patchStencil'
import { NARROW_SCALE, PROLONG_ADD32, RESTRICT32, SCALE32, stencil32Jacobi, stencil32Of, stencil32Residual, stencil32Spmv } from '../../../../src-shared/sim/surface/patchStencil32'
import { SurfaceFluid } from '../../../../src-shared/sim/surface/surfaceFluid'
import { everyBackendOfFile, rng, sameBits } from '../everyBackend'

function laplacian(cage: 'torus' | 'sphere', n: number): { A: CsrMatrix; P: number } {
  const S = buildLimitSurface(cage === 'torus' ? torusCage() : sphereLikeCage())
  const fl = new SurfaceFluid(S, buildPatchAtlas(S.faces), { N: n, densities: 0, kernels: TS_KERNELS })
  return { A: fl.projection.A, P: fl.grid.P }
}

/** The 2 x 2 aggregation's P (surfaceMultigrid.ts: cell (i, j) of patch p into (i >> 1, j >> 1)). */
function aggregation(P: number, n: number): CsrMatrix {
  const nc = (n + 1) >> 1, rows = P * n * n
  const rowPtr = new Int32Array(rows + 1), col = new Int32Array(rows)
  for (let p = 0; p < P; p++) for (let j = 0; j < n; j++) for (let i = 0; i < n; i++) {
    const u = p * n * n + i + n * j
    col[u] = p * nc * nc + (i >> 1) + nc * (j >> 1)
    rowPtr[u + 1] = u + 1
  }
  return { n: rows, cols: P * nc * nc, rowPtr, col, val: new Float64Array(rows).fill(1) }
}

function f32In(k: KernelBackend, n: number, seed: number, positive = false): Float32Array {
  const r = rng(seed), a = k.f32(n)
  for (let i = 0; i < n; i++) a[i] = positive ? 0.1 + 0.2 * r() : 2 * r() - 1
  return a
}

/** |got - want| <= tol max|want| entry by entry, and something nonzero was compared. */
function close(got: ArrayLike<number>, want: ArrayLike<number>, tol: number): void {
  let big = 0, err = 0
  for (let i = 0; i < want.length; i++) big = Math.max(big, Math.abs(want[i]))
  for (let i = 0; i < want.length; i++) err = Math.max(err, Math.abs(got[i] - want[i]))
  expect(big).toBeGreaterThan(1e-3)
  expect(err).toBeLessThan(tol * big)
}

/** float32 rounding over a row's nine products and a sweep's three more operations. */
const ROUNDING = 2e-6

/** Every float32 kernel on A (P patches of n x n) on k: the results, for comparing backends, after checking them against float64. */
function runAll(k: KernelBackend, A: CsrMatrix, P: number, n: number, seed: number): Float64Array[] {
  const S = stencil32Of(patchStencilOf(A, P, n, TS_KERNELS) as NonNullable<ReturnType<typeof patchStencilOf>>, k)
  const N = A.n, nc = (n + 1) >> 1
  const x = f32In(k, N, seed), b = f32In(k, N, seed + 1), scale = f32In(k, N, seed + 2, true)
  const x64 = Float64Array.from(x), b64 = Float64Array.from(b), s64 = Float64Array.from(scale)
  const out: Float64Array[] = []
  const want = new Float64Array(N)

  const y = k.f32(N)
  stencil32Spmv(k, S, x, y)
  spmvRows(A.rowPtr, A.col, A.val, x64, want, 0, N)
  close(y, want, ROUNDING)
  out.push(Float64Array.from(y))

  const r = k.f32(N)
  stencil32Residual(k, S, x, b, r)
  residualRows(A.rowPtr, A.col, A.val, x64, b64, want, 0, N)
  close(r, want, ROUNDING)
  out.push(Float64Array.from(r))

  const yj = k.f32(N), wide = k.f64(N)
  stencil32Jacobi(k, S, x, b, scale, yj)
  stencil32Jacobi(k, S, x, b, scale, wide)
  jacobiRows(A.rowPtr, A.col, A.val, x64, b64, s64, want, 0, N)
  close(yj, want, ROUNDING)
  expect(sameBits(wide, Float64Array.from(yj))).toBe(true)
  out.push(wide)

  // The cycle's entry: b = f32(r64), y = scale b.
  const r64 = k.f64(N)
  for (let u = 0; u < N; u++) r64[u] = Math.sin(1 + 0.7 * u + seed)
  const bn = k.f32(N), yn = k.f32(N), ys = k.f32(N)
  k.run(NARROW_SCALE, r64, bn, scale, yn, n, P)
  expect(sameBits(bn, Float32Array.from(r64))).toBe(true)
  k.run(SCALE32, bn, scale, ys, n, P)
  expect(sameBits(ys, yn)).toBe(true)
  close(yn, r64.map((v, u) => v * s64[u]), 1e-7)
  out.push(Float64Array.from(yn))

  // R = P^T and x += alpha P xc against the aggregation's CSR.
  const Pa = aggregation(P, n), R = transposeCsr(Pa)
  const coarse = k.f32(P * nc * nc)
  k.run(RESTRICT32, x, coarse, n, P)
  const wantC = new Float64Array(P * nc * nc)
  spmvRows(R.rowPtr, R.col, R.val, x64, wantC, 0, R.n)
  close(coarse, wantC, 1e-6)
  out.push(Float64Array.from(coarse))
  const xc = f32In(k, P * nc * nc, seed + 3), sum = k.f32(N)
  sum.set(b)
  k.run(PROLONG_ADD32, xc, sum, 2, n, P)
  spmvRows(Pa.rowPtr, Pa.col, Pa.val, Float64Array.from(xc), want, 0, N)
  close(sum, want.map((v, u) => b64[u] + 2 * v), 1e-6)
  out.push(Float64Array.from(sum))
  return out
}

describe('float32 patch stencil kernels', () => {
  const backends = everyBackendOfFile()
  const cases: { A: CsrMatrix; P: number; n: number }[] = []
  for (const cage of ['torus', 'sphere'] as const) {
    for (const n of [3, 5, 6, 7, 8]) {
      const { A, P } = laplacian(cage, n)
      cases.push({ A, P, n })
    }
  }
  // A Galerkin coarse level (the multigrid's level below 8^2 on the torus).
  const { A: A8, P: P8 } = laplacian('torus', 8)
  const Pa = aggregation(P8, 8)
  cases.push({ A: symmetrised(galerkin(A8, Pa, transposeCsr(Pa))), P: P8, n: 4 })
  const reference = cases.map((c, i) => runAll(TS_KERNELS, c.A, c.P, c.n, 10 * i + 1))

  it.each(backends)('agree with float64 to rounding and with the reference bit for bit: %s', (_name, k) => {
    cases.forEach((c, i) => {
      const got = runAll(k, c.A, c.P, c.n, 10 * i + 1)
      got.forEach((a, j) => expect(sameBits(a, reference[i][j]), `case ${i} (n ${c.n}) result ${j}`).toBe(true))
    })
  })

  it('refuses a matrix that is not symmetric between two inner rows', () => {
    const { A, P } = laplacian('torus', 5)
    const B = copyCsr(A, TS_KERNELS)
    // Inner row (1, 1) of patch 0 and its neighbour (2, 1): nudge one side of their coupling.
    const r = 1 + 5, c = r + 1
    let at = -1
    for (let q = B.rowPtr[r]; q < B.rowPtr[r + 1]; q++) if (B.col[q] === c) at = q
    expect(at).toBeGreaterThanOrEqual(0)
    B.val[at] *= 1 + 1e-15
    const S = patchStencilOf(B, P, 5, TS_KERNELS) as NonNullable<ReturnType<typeof patchStencilOf>>
    expect(() => stencil32Of(S, TS_KERNELS)).toThrow(/not symmetric \(rows 6 and 7/)
    expect(() => stencil32Of(patchStencilOf(A, P, 5, TS_KERNELS) as NonNullable<ReturnType<typeof patchStencilOf>>, TS_KERNELS)).not.toThrow()
  })
})
