// IncompleteCholesky's backward solve reads L^T by rows (a gather) instead of scattering each
// finished unknown into the rows above; both do the same subtractions in the same order, so the
// preconditioner's output must be the same bits (the viscosity and tetmesh benches' hashes rely
// on it). Fails if the transposed rows are walked in the wrong order (the sums reassociate) or
// if applyIndexed touches entries outside its index. The factorisation (the IC_FACTOR kernel row)
// gives TypeScript's bits on every WebAssembly backend, including Kershaw's matrix, where IC(0)
// meets a negative pivot and restarts shifted.
import { afterAll, describe, expect, it } from 'vitest'
import { everyBackend } from '../everyBackend'
import type { KernelBackend } from '../../../../src-shared/sim/core/kernelBackend'
import { Prng } from '../../../../src-shared/sim/core/prng'
import { type CsrMatrix, csrFromTriplets } from '../../../../src-shared/sim/core/sparse/csr'
import { IcSpace, IncompleteCholesky } from '../../../../src-shared/sim/core/sparse/incompleteCholesky'

/** A 3D 7-point operator on n^3 nodes with random positive link weights and a random mass: SPD. */
function randomSpd(n: number, prng: Prng): CsrMatrix {
  const rows: number[] = [], cols: number[] = [], vals: number[] = []
  const N = n * n * n
  const diag = new Float64Array(N)
  const link = (a: number, b: number) => {
    const w = prng.range(0.1, 10)
    rows.push(a, b), cols.push(b, a), vals.push(-w, -w)
    diag[a] += w
    diag[b] += w
  }
  for (let k = 0; k < n; k++) for (let j = 0; j < n; j++) for (let i = 0; i < n; i++) {
    const c = i + n * (j + n * k)
    if (i + 1 < n) link(c, c + 1)
    if (j + 1 < n) link(c, c + n)
    if (k + 1 < n) link(c, c + n * n)
  }
  for (let c = 0; c < N; c++) rows.push(c), cols.push(c), vals.push(diag[c] + prng.range(0.01, 1))
  return csrFromTriplets(N, N, rows, cols, vals)
}

/** The factor's solve written the scattering way (column-oriented backward solve). */
function scatterSolve(A: CsrMatrix, ic: IncompleteCholesky, r: Float64Array): Float64Array {
  // Recover L and 1/L_ii from the preconditioner itself: its private arrays are the factor.
  const f = ic as unknown as { rowPtr: Int32Array; col: Int32Array; val: Float64Array; invDiag: Float64Array }
  const n = A.n
  const z = new Float64Array(n)
  for (let i = 0; i < n; i++) {
    let s = r[i]
    for (let p = f.rowPtr[i]; p < f.rowPtr[i + 1]; p++) s -= f.val[p] * z[f.col[p]]
    z[i] = s * f.invDiag[i]
  }
  for (let i = n - 1; i >= 0; i--) {
    const zi = z[i] * f.invDiag[i]
    z[i] = zi
    for (let p = f.rowPtr[i]; p < f.rowPtr[i + 1]; p++) z[f.col[p]] -= f.val[p] * zi
  }
  return z
}

describe('incomplete Cholesky apply', () => {
  it('the gathered backward solve gives the scattering solve\'s bits, compact and indexed', () => {
    const prng = new Prng(5)
    const A = randomSpd(9, prng)
    const ic = new IncompleteCholesky(A)
    const r = new Float64Array(A.n)
    for (let i = 0; i < A.n; i++) r[i] = prng.range(-1, 1)
    const ref = scatterSolve(A, ic, r)
    const z = new Float64Array(A.n)
    ic.apply(r, z)
    expect(Array.from(z)).toEqual(Array.from(ref))
    // Indexed: the matrix's rows sit at every third entry of a longer vector, reversed.
    const index = new Int32Array(A.n)
    for (let i = 0; i < A.n; i++) index[i] = 3 * (A.n - 1 - i) + 1
    const big = new Float64Array(3 * A.n).fill(7)
    const out = new Float64Array(3 * A.n).fill(-5)
    for (let i = 0; i < A.n; i++) big[index[i]] = r[i]
    ic.applyIndexed(big, out, index)
    for (let i = 0; i < A.n; i++) expect(out[index[i]]).toBe(ref[i])
    for (let e = 0; e < out.length; e++) if (e % 3 !== 1) expect(out[e]).toBe(-5)
  })

  const owned: KernelBackend[] = []
  afterAll(async () => {
    for (const b of owned) await b.dispose()
  })
  const backends = everyBackend(owned)

  it('factors to the same bits on every kernel backend, with and without a shift (Kershaw 1978)', () => {
    // SPD, yet IC(0) meets a negative pivot (Kershaw's example): the factor restarts shifted.
    const K = [
      [3, -2, 0, 2],
      [-2, 3, -2, 0],
      [0, -2, 3, -2],
      [2, 0, -2, 3],
    ]
    const rows: number[] = [], cols: number[] = [], vals: number[] = []
    K.forEach((row, i) => row.forEach((v, j) => v !== 0 && (rows.push(i), cols.push(j), vals.push(v))))
    const kershaw = csrFromTriplets(4, 4, rows, cols, vals)
    for (const [A, shifted] of [[randomSpd(7, new Prng(8)), false], [kershaw, true]] as const) {
      const r = new Float64Array(A.n)
      const prng = new Prng(9)
      for (let i = 0; i < A.n; i++) r[i] = prng.range(-1, 1)
      let ref: number[] | null = null
      let refShift = -1
      for (const [name, kernels] of backends) {
        const space = new IcSpace(kernels)
        // Twice in one space: the second factorisation reuses the first one's arrays.
        new IncompleteCholesky(A, space)
        const ic = new IncompleteCholesky(A, space)
        const rr = kernels.f64(A.n), z = kernels.f64(A.n)
        rr.set(r)
        ic.apply(rr, z)
        if (ref === null) {
          ref = Array.from(z)
          refShift = ic.shift
          expect(ic.shift > 0).toBe(shifted)
        } else {
          expect(Array.from(z), name).toEqual(ref)
          expect(ic.shift, name).toBe(refShift)
        }
      }
    }
  })
})
