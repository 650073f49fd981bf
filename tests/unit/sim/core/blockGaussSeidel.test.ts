// Gauss-Seidel in fixed blocks of rows (sim/core/sparse/ops.ts BlockGaussSeidel, kernel
// GS_BLOCKS, twin wasm/assembly/sparse.ts gsBlocks), the AMG's smoother below the finest level:
// by hand on a small matrix (a row reads its own block's new values and the other blocks' old
// ones), the same bits on TypeScript and 1-3 WebAssembly threads, a forward sweep's adjoint is
// the backward sweep (so the AMG preconditioner stays symmetric), and sweeps converge. The rows'
// layout for the sweep (blockOrderRows): each row keeps its entries, the diagonal first, its own
// block's next, the others last, each group in storage order; rows without a diagonal are left
// alone.
import { describe, expect, it } from 'vitest'
import { TS_KERNELS } from '../../../../src-shared/sim/core/kernelBackend'
import { csrFromTriplets, poisson3d } from '../../../../src-shared/sim/core/sparse/csr'
import { BlockGaussSeidel, blockOrderRows, spResidual } from '../../../../src-shared/sim/core/sparse/ops'
import { everyBackendOfFile, rng, sameBits } from '../everyBackend'

const backends = everyBackendOfFile()

describe('block Gauss-Seidel', () => {
  it('by hand: 4 rows in blocks of 2, each block sweeping in order with the other block\'s old values', () => {
    // Tridiagonal 4 -1: rows 0-1 one block, rows 2-3 the other.
    const A = csrFromTriplets(4, 4, [0, 0, 1, 1, 1, 2, 2, 2, 3, 3], [0, 1, 0, 1, 2, 1, 2, 3, 2, 3], [4, -1, -1, 4, -1, -1, 4, -1, -1, 4])
    const gs = new BlockGaussSeidel(A, TS_KERNELS, 2)
    expect(gs.blocks).toBe(2)
    const x = Float64Array.of(1, 1, 1, 1)
    const b = Float64Array.of(0, 0, 0, 0)
    gs.sweep(x, b, true)
    // Block 0: x0 = x1 / 4 = 1/4, x1 = (x0 + x2_old) / 4 = (1/4 + 1) / 4. Block 1: x2 = (x1_old + x3) / 4 = 2/4, x3 = x2 / 4.
    expect(Array.from(x)).toEqual([0.25, 1.25 / 4, 0.5, 0.125])
    x.fill(1)
    gs.sweep(x, b, false)
    // Backward: block 0 from row 1: x1 = (x0 + x2_old) / 4 = 1/2, x0 = 1/8; block 1: x3 = x2 / 4 = 1/4, x2 = (x1_old + x3) / 4.
    expect(Array.from(x)).toEqual([0.125, 0.5, 1.25 / 4, 0.25])
  })

  it('lays each row out as its diagonal, its own block\'s entries, then the others\' (storage order kept in each group); a row without a diagonal is skipped', () => {
    // 6 rows in blocks of 3; row 4 has no diagonal, row 5 a zero one.
    const rows = [0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 3, 3, 3, 4, 4, 5, 5]
    const cols = [5, 0, 2, 4, 3, 1, 0, 2, 1, 2, 3, 4, 0, 3, 3, 5, 5, 1]
    const vals = [-0.5, 4, -1, -0.25, -0.75, 5, -1, -2, -2, 6, -1, -1, -0.5, 3, -1, -1, 0, -2]
    const A = csrFromTriplets(6, 6, rows, cols, vals)
    const before = Array.from({ length: 6 }, (_, i) => entries(A, i))
    const split = blockOrderRows(A, 3, new Int32Array(6))
    for (let i = 0; i < 6; i++) {
      const got = entries(A, i)
      // The same entries...
      expect([...got].sort((a, b) => a[0] - b[0])).toEqual([...before[i]].sort((a, b) => a[0] - b[0]))
      const own = (c: number) => Math.floor(c / 3) === Math.floor(i / 3)
      const hasDiagonal = before[i].some(([c]) => c === i)
      if (!hasDiagonal) {
        expect(split[i]).toBe(-1)
        continue
      }
      // ...the diagonal first, then the own block's and the others' in their storage order.
      const want = [...before[i].filter(([c]) => c === i), ...before[i].filter(([c]) => c !== i && own(c)), ...before[i].filter(([c]) => !own(c))]
      expect(got).toEqual(want)
      expect(split[i]).toBe(A.rowPtr[i] + 1 + before[i].filter(([c]) => c !== i && own(c)).length)
    }
    // Laid out again: unchanged.
    const laid = Array.from({ length: 6 }, (_, i) => entries(A, i))
    expect(Array.from(blockOrderRows(A, 3, new Int32Array(6)))).toEqual(Array.from(split))
    expect(Array.from({ length: 6 }, (_, i) => entries(A, i))).toEqual(laid)
    // A sweep: rows 4 (no diagonal) and 5 (zero diagonal) keep their values; row 3 reads row 4's
    // old value and row 0's (another block) from the sweep's start.
    const gs = new BlockGaussSeidel(A, TS_KERNELS, 3)
    const x = Float64Array.of(1, 2, 3, 4, 5, 6)
    const b = Float64Array.of(1, 0, 0, 2, 0, 0)
    gs.sweep(x, b, true)
    const x0 = (1 - (-0.5 * 6 + -1 * 3 + -0.25 * 5)) / 4
    const x1 = (0 - (-1 * x0 + -2 * 3 + -0.75 * 4)) / 5
    const x2 = (0 - (-2 * x1 + -1 * 4)) / 6
    const x3 = (2 - (-1 * 5 + -0.5 * 1)) / 3
    expect(Array.from(x)).toEqual([x0, x1, x2, x3, 5, 6])
  })

  it('the same bits on TypeScript and 1, 2 and 3 WebAssembly threads, forward and backward', () => {
    const A = poisson3d(17, 13, 11)
    let ref: Float64Array | null = null
    for (const [name, k] of backends) {
      const M = k === TS_KERNELS ? A : { ...A, rowPtr: copy(A.rowPtr, k.i32(A.rowPtr.length)), col: copy(A.col, k.i32(A.col.length)), val: copy(A.val, k.f64(A.val.length)) }
      const gs = new BlockGaussSeidel(M, k)
      expect(gs.blocks).toBe(8)
      const x = k.f64(A.n), b = k.f64(A.n)
      const r = rng(5)
      for (let i = 0; i < A.n; i++) b[i] = r() - 0.5
      for (let s = 0; s < 3; s++) gs.symmetricSweep(x, b)
      if (ref === null) ref = Float64Array.from(x)
      else expect(sameBits(x, ref), name).toBe(true)
    }
  })

  it('the backward sweep is the forward sweep\'s adjoint: from x = 0, (y, S b) = (S y, b) to rounding', () => {
    const A = poisson3d(12, 12, 12)
    const gs = new BlockGaussSeidel(A, TS_KERNELS)
    const S = (v: Float64Array) => {
      const x = new Float64Array(A.n)
      gs.symmetricSweep(x, v)
      return x
    }
    const r = rng(9)
    const u = new Float64Array(A.n).map(() => r() - 0.5)
    const v = new Float64Array(A.n).map(() => r() - 0.5)
    const Su = S(u), Sv = S(v)
    let a = 0, c = 0
    for (let i = 0; i < A.n; i++) {
      a += v[i] * Su[i]
      c += Sv[i] * u[i]
    }
    expect(Math.abs(a - c)).toBeLessThan(1e-12 * Math.abs(a))
  })

  it('symmetric sweeps alone solve 3D Poisson: the residual falls by 10x in under 40 sweeps', () => {
    const A = poisson3d(16, 16, 16)
    const gs = new BlockGaussSeidel(A, TS_KERNELS)
    const r = rng(2)
    const b = new Float64Array(A.n).map(() => r() - 0.5)
    const x = new Float64Array(A.n), res = new Float64Array(A.n)
    const norm = (v: Float64Array) => Math.sqrt(v.reduce((s, t) => s + t * t, 0))
    let sweeps = 0
    do {
      gs.symmetricSweep(x, b)
      spResidual(TS_KERNELS, A, x, b, res)
      sweeps++
    } while (norm(res) > 0.1 * norm(b) && sweeps < 100)
    expect(sweeps).toBeLessThan(40)
  })
})

/** Row i's (column, value) pairs in storage order. */
function entries(A: { rowPtr: Int32Array; col: Int32Array; val: Float64Array }, i: number): [number, number][] {
  const out: [number, number][] = []
  for (let p = A.rowPtr[i]; p < A.rowPtr[i + 1]; p++) out.push([A.col[p], A.val[p]])
  return out
}

function copy<T extends Int32Array | Float64Array>(a: T, into: T): T {
  into.set(a)
  return into
}
