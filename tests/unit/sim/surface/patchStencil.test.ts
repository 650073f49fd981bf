// A patch operator's inner rows as stencil planes (patchStencil.ts): each product, residual and
// damped Jacobi sweep gives the same bits as the CSR rows it replaces, on TypeScript and on
// 1-3 WebAssembly threads, for the surface Laplacian of a torus cage (patches meeting at turned
// edges) and of a sphere-like cage (valence-3 vertices), odd and even patch edges (the twin
// pairs rows and finishes an odd run alone) and the multigrid's coarse (Galerkin) levels; a matrix whose inner row reaches outside its 3 x 3
// block gets no stencil.
import { describe, expect, it } from 'vitest'
import { buildLimitSurface } from '../../../../src-shared/geometry/catmullClarkEval'
import { buildPatchAtlas } from '../../../../src-shared/geometry/patchAtlas'
import { sphereLikeCage, torusCage } from '../../../../src-shared/geometry/voxelCages'
import { TS_KERNELS } from '../../../../src-shared/sim/core/kernelBackend'
import type { KernelBackend } from '../../../../src-shared/sim/core/kernelTypes'
import { copyCsr, type CsrMatrix, galerkin, transposeCsr } from '../../../../src-shared/sim/core/sparse/csr'
import { jacobiRows, residualRows, spmvRows } from '../../../../src-shared/sim/core/sparse/kernels'
import { patchStencilOf, stencilJacobi, stencilResidual, stencilSpmv } from '../../../../src-shared/sim/surface/patchStencil'
import { SurfaceFluid } from '../../../../src-shared/sim/surface/surfaceFluid'
import { everyBackendOfFile, rng, sameBits } from '../everyBackend'

/** The projection's Laplacian of a cage at n x n cells a patch (assembled on TypeScript). */
function laplacian(cage: 'torus' | 'sphere', n: number): { A: CsrMatrix; P: number } {
  const S = buildLimitSurface(cage === 'torus' ? torusCage() : sphereLikeCage())
  const fl = new SurfaceFluid(S, buildPatchAtlas(S.faces), { N: n, densities: 0, kernels: TS_KERNELS })
  return { A: fl.projection.A, P: fl.grid.P }
}

/** The 2 x 2 aggregation's Galerkin level below A (surfaceMultigrid.ts's construction). */
function coarser(A: CsrMatrix, P: number, n: number): CsrMatrix {
  const nc = (n + 1) >> 1
  const rowPtr = new Int32Array(A.n + 1), col = new Int32Array(A.n)
  for (let p = 0; p < P; p++) for (let j = 0; j < n; j++) for (let i = 0; i < n; i++) {
    const u = p * n * n + i + n * j
    col[u] = p * nc * nc + (i >> 1) + nc * (j >> 1)
    rowPtr[u + 1] = u + 1
  }
  const Pc: CsrMatrix = { n: A.n, cols: P * nc * nc, rowPtr, col, val: new Float64Array(A.n).fill(1) }
  return galerkin(A, Pc, transposeCsr(Pc))
}

function inMemory(k: KernelBackend, a: Float64Array): Float64Array {
  const b = k.f64(a.length)
  b.set(a)
  return b
}

function random(n: number, seed: number): Float64Array {
  const r = rng(seed)
  return Float64Array.from({ length: n }, () => 2 * r() - 1)
}

/** Every stencil kernel against the CSR references on A (n x n patches, P of them). */
function checkAll(k: KernelBackend, A0: CsrMatrix, P: number, n: number, seed: number): void {
  const A = copyCsr(A0, k)
  const S = patchStencilOf(A, P, n, k)
  expect(S).not.toBeNull()
  if (!S) return
  const N = A.n
  const x = inMemory(k, random(N, seed)), b = inMemory(k, random(N, seed + 1)), scale = inMemory(k, random(N, seed + 2).map((v) => 0.1 + 0.2 * Math.abs(v)))
  const want = new Float64Array(N), got = k.f64(N)
  spmvRows(A.rowPtr, A.col, A.val, x, want, 0, N)
  stencilSpmv(k, S, x, got)
  expect(sameBits(got, want)).toBe(true)
  residualRows(A.rowPtr, A.col, A.val, x, b, want, 0, N)
  stencilResidual(k, S, x, b, got)
  expect(sameBits(got, want)).toBe(true)
  jacobiRows(A.rowPtr, A.col, A.val, x, b, scale, want, 0, N)
  stencilJacobi(k, S, x, b, scale, got)
  expect(sameBits(got, want)).toBe(true)
  // Something was summed: not comparing zeros with zeros.
  let big = 0
  for (let u = 0; u < N; u++) big = Math.max(big, Math.abs(want[u]))
  expect(big).toBeGreaterThan(1e-3)
}

describe('patch stencils', () => {
  const backends = everyBackendOfFile()

  it.each(backends)('products, residuals and Jacobi sweeps are the CSR rows bit for bit: %s', (_name, k) => {
    let seed = 1
    for (const cage of ['torus', 'sphere'] as const) {
      for (const n of [3, 5, 6, 8]) {
        const { A, P } = laplacian(cage, n)
        checkAll(k, A, P, n, seed++)
        // The multigrid's next level down, where it still has inner rows.
        const nc = (n + 1) >> 1
        if (nc >= 3) checkAll(k, coarser(A, P, n), P, nc, seed++)
      }
    }
  })

  it('a matrix whose inner row reaches another patch, or patches too small for inner rows, gets no stencil', () => {
    const { A, P } = laplacian('torus', 5)
    expect(patchStencilOf(A, P, 5, TS_KERNELS)).not.toBeNull()
    // Row (1, 1) of patch 0 coupled to a cell of patch 1.
    const r = 1 + 5, far = 25 + 12
    const B: CsrMatrix = { ...A, col: Int32Array.from(A.col), val: Float64Array.from(A.val) }
    B.col[B.rowPtr[r + 1] - 1] = far
    expect(patchStencilOf(B, P, 5, TS_KERNELS)).toBeNull()
    expect(patchStencilOf(laplacian('torus', 2).A, P, 2, TS_KERNELS)).toBeNull()
  })
})
