// Zero-fill incomplete Cholesky, IC(0), of a symmetric positive (semi-)definite CSR matrix as a
// PCG preconditioner: the ICCG baseline that Chentanez et al. 2007 (sec. 3.5) measure their
// algebraic multigrid against ("between 1.8 and 2.1 times faster than a preconditioned
// conjugate gradient solver"). Meijerink and van der Vorst 1977; Saad 2003, sec. 10.3.
//
// A ~ L L^T with L restricted to the sparsity of A's lower triangle (only A's diagonal and
// strict lower triangle are read, so a caller may pass just those): for row i, in column
// order,
//   L_ik = (A_ik - sum_{j < k} L_ij L_kj) / L_kk   (k < i, j over the pattern of both rows)
//   L_ii = sqrt(A_ii - sum_{j < i} L_ij^2)
// and M^-1 r = L^-T L^-1 r by a forward and a backward triangular solve: a fixed symmetric
// positive definite map. (Where the pattern admits no fill, e.g. a tridiagonal matrix, the
// factorisation is the exact Cholesky and ICCG converges in one iteration.)
//
// Breakdown: IC(0) of a general SPD matrix can meet a pivot <= 0 (it cannot for an
// M-matrix, Meijerink and van der Vorst's theorem, but a closed/Neumann Laplacian is singular
// and rounding decides the sign of its last pivot). Then the factorisation is restarted on the
// shifted A + alpha diag(A) (Manteuffel 1980's shifted incomplete Cholesky), alpha from 1e-3
// doubling until every pivot is positive; `shift` records the alpha used (0 when none).
//
// The factorisation and the triangular solves are inherently serial: they run on the calling
// thread, as the IC_FACTOR and IC_SOLVE kernel rows (rows.ts), so on WebAssembly (the solves
// about 3x faster than TypeScript on the melting bunny's viscosity system) when the factor and
// the vectors are in the kernels' memory: give the constructor an IcSpace, whose arrays are
// reused by every factorisation made in it.
// apply() allocates nothing. The backward solve reads L^T by rows (a copy of L's entries made
// after factoring, each row in decreasing order of L's row), so it gathers where a solve over
// L's rows would scatter into the rows above: the same subtractions in the same order (z_j =
// (y_j - L_{i1 j} z_{i1}) - L_{i2 j} z_{i2} ... for i1 > i2 > ... > j), so the same bits, and
// about a third faster on the melting bunny's viscosity system.
import { grownCapacity } from '../growCapacity'
import { TS_KERNELS } from '../kernelBackend'
import type { KernelBackend } from '../kernelTypes'
import type { Preconditioner } from '../pcg'
import type { CsrMatrix } from './csr'
import { IC_FACTOR, IC_SOLVE } from './rows'

/**
 * Where a factor's arrays come from: an IcSpace over a kernel backend keeps one growing buffer
 * per array in the backend's memory and hands out views of it, so repeated factorisations (one
 * per viscosity solve) neither allocate nor leak kernel memory; the default allocates plain
 * arrays and runs the TypeScript solves.
 */
export class IcSpace {
  private readonly buffers = new Map<string, Float64Array | Int32Array>()
  constructor(readonly kernels: KernelBackend) {}
  f64(name: string, length: number): Float64Array {
    return this.take(name, length, (n) => this.kernels.f64(n)) as Float64Array
  }
  i32(name: string, length: number): Int32Array {
    return this.take(name, length, (n) => this.kernels.i32(n)) as Int32Array
  }
  private take(name: string, length: number, make: (n: number) => Float64Array | Int32Array): Float64Array | Int32Array {
    let b = this.buffers.get(name)
    if (b === undefined || b.length < length) {
      // A solve's size varies a little from one substep to the next (growCapacity.ts).
      b = make(grownCapacity(b?.length ?? 0, length))
      this.buffers.set(name, b)
    }
    return b.subarray(0, length)
  }
}

const PLAIN: Pick<IcSpace, 'kernels' | 'f64' | 'i32'> = {
  kernels: TS_KERNELS,
  f64: (_name, length) => new Float64Array(length),
  i32: (_name, length) => new Int32Array(length),
}

export class IncompleteCholesky implements Preconditioner {
  readonly n: number
  /** L by rows: strictly lower entries of row i at rowPtr[i] .. rowPtr[i+1]-1 (columns increasing). */
  private readonly rowPtr: Int32Array
  private readonly col: Int32Array
  private readonly val: Float64Array
  /** 1 / L_ii. */
  private readonly invDiag: Float64Array
  /** L^T by rows: row j holds L_ij for i > j at upPtr[j] .. upPtr[j+1]-1, i decreasing. */
  private readonly upPtr: Int32Array
  private readonly upRow: Int32Array
  private readonly upVal: Float64Array
  /** applyIndexed's compact iterate. */
  private readonly work: Float64Array
  private readonly kernels: KernelBackend
  /** The diagonal shift alpha of A + alpha diag(A) that was needed (0 when none). */
  readonly shift: number

  constructor(A: CsrMatrix, space: Pick<IcSpace, 'kernels' | 'f64' | 'i32'> = PLAIN) {
    const n = A.n
    this.n = n
    this.kernels = space.kernels
    const rowPtr = space.i32('rowPtr', n + 1)
    rowPtr[0] = 0
    for (let i = 0; i < n; i++) {
      let m = 0
      for (let p = A.rowPtr[i]; p < A.rowPtr[i + 1]; p++) if (A.col[p] < i) m++
      rowPtr[i + 1] = rowPtr[i] + m
    }
    const col = space.i32('col', rowPtr[n])
    const diag = space.f64('diag', n)
    diag.fill(0)
    for (let i = 0; i < n; i++) {
      let q = rowPtr[i]
      for (let p = A.rowPtr[i]; p < A.rowPtr[i + 1]; p++) {
        if (A.col[p] < i) col[q++] = A.col[p]
        else if (A.col[p] === i) diag[i] += A.val[p]
      }
    }
    this.rowPtr = rowPtr
    this.col = col
    this.val = space.f64('val', rowPtr[n])
    this.invDiag = space.f64('invDiag', n)
    const pos = space.i32('pos', n)
    const status = space.f64('status', 1)
    let alpha = 0
    while (!this.factor(A, diag, alpha, pos, status)) {
      alpha = alpha === 0 ? 1e-3 : 2 * alpha
      if (alpha > 1e3) throw new Error('IncompleteCholesky: no positive factorisation (is the matrix symmetric with a positive diagonal?)')
    }
    this.shift = alpha
    // L^T by rows, each row's entries in decreasing order of i (see the file comment).
    const upPtr = space.i32('upPtr', n + 1)
    upPtr.fill(0)
    for (let p = 0; p < rowPtr[n]; p++) upPtr[col[p] + 1]++
    for (let j = 0; j < n; j++) upPtr[j + 1] += upPtr[j]
    const fill = upPtr.slice(0, n)
    const upRow = space.i32('upRow', rowPtr[n]), upVal = space.f64('upVal', rowPtr[n])
    for (let i = n - 1; i >= 0; i--) {
      for (let p = rowPtr[i]; p < rowPtr[i + 1]; p++) {
        const at = fill[col[p]]++
        upRow[at] = i
        upVal[at] = this.val[p]
      }
    }
    this.upPtr = upPtr
    this.upRow = upRow
    this.upVal = upVal
    this.work = space.f64('work', n)
  }

  /**
   * Factors A + alpha diag(A) into val / invDiag (the IC_FACTOR kernel row: on WebAssembly when
   * the space is the kernels'); false on a pivot <= 0.
   */
  private factor(A: CsrMatrix, diag: Float64Array, alpha: number, pos: Int32Array, status: Float64Array): boolean {
    const { n, rowPtr, col, val, invDiag } = this
    // val starts as A's strict lower triangle, row by row in column order (A's columns are sorted).
    let q = 0
    for (let i = 0; i < n; i++) for (let p = A.rowPtr[i]; p < A.rowPtr[i + 1]; p++) if (A.col[p] < i) val[q++] = A.val[p]
    return this.kernels.run(IC_FACTOR, rowPtr, col, val, diag, invDiag, pos, alpha, n, status) === 0
  }

  /** z = (L L^T)^-1 r (z may alias r). */
  apply(r: Float64Array, z: Float64Array): void {
    const { n, rowPtr, col, val, invDiag, upPtr, upRow, upVal } = this
    this.kernels.run(IC_SOLVE, rowPtr, col, val, invDiag, upPtr, upRow, upVal, r, null, z, z, n)
  }

  /**
   * The same on a larger vector whose entries index[0 .. n) are this matrix's rows:
   * z[index[i]] = ((L L^T)^-1 r[index])_i. Other entries of z are not touched.
   */
  applyIndexed(r: Float64Array, z: Float64Array, index: Int32Array): void {
    const { n, rowPtr, col, val, invDiag, upPtr, upRow, upVal } = this
    this.kernels.run(IC_SOLVE, rowPtr, col, val, invDiag, upPtr, upRow, upVal, r, index, this.work, z, n)
  }
}
