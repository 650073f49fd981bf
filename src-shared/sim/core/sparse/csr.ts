// Compressed sparse row matrices and their setup-time algebra (serial, run once per matrix):
// building from triplets, transpose (R = P^T), sparse products (the Galerkin operator
// R A P), greedy multicolouring of the rows for a parallel Gauss-Seidel, and a 7-point
// Poisson matrix for tests and benchmarks. The per-iteration kernels are in kernels.ts.
import { reuseOrGrow } from '../growCapacity'
import type { KernelAllocator } from '../kernelTypes'
import { insertionSortInt32 } from '../../../insertionSort'

/**
 * Row i holds entries rowPtr[i] .. rowPtr[i+1]-1: column col[p], value val[p], columns in
 * increasing order within a row (the builders here keep that; kernels only need a fixed order).
 */
export interface CsrMatrix {
  /** Rows. */
  readonly n: number
  /** Columns (n for a square matrix). */
  readonly cols: number
  readonly rowPtr: Int32Array
  readonly col: Int32Array
  readonly val: Float64Array
}

/** Number of stored entries. */
export function nnzOf(A: CsrMatrix): number {
  return A.rowPtr[A.n]
}

/** An empty n x cols matrix with room for nnz entries, allocated by `alloc` (default plain arrays). */
/**
 * Appends entry (column, value) to the row being assembled in col/val[start .. end - 1],
 * keeping it in column order (insertion: the finite-volume rows it serves hold a few dozen
 * entries at most). Returns the row's new end.
 */
export function insertInRow(col: Int32Array, val: Float64Array, start: number, end: number, column: number, value: number): number {
  let q = end
  while (q > start && col[q - 1] > column) {
    col[q] = col[q - 1]
    val[q] = val[q - 1]
    q--
  }
  col[q] = column
  val[q] = value
  return end + 1
}

export function allocCsr(n: number, cols: number, nnz: number, alloc?: KernelAllocator): CsrMatrix {
  return {
    n,
    cols,
    rowPtr: alloc ? alloc.i32(n + 1) : new Int32Array(n + 1),
    col: alloc ? alloc.i32(nnz) : new Int32Array(nnz),
    val: alloc ? alloc.f64(nnz) : new Float64Array(nnz),
  }
}

/** A copy of A whose arrays come from `alloc` (e.g. a WebAssembly backend's memory). */
export function copyCsr(A: CsrMatrix, alloc: KernelAllocator): CsrMatrix {
  const B = allocCsr(A.n, A.cols, nnzOf(A), alloc)
  B.rowPtr.set(A.rowPtr)
  B.col.set(A.col.subarray(0, nnzOf(A)))
  B.val.set(A.val.subarray(0, nnzOf(A)))
  return B
}

/**
 * What csrFromTriplets may reuse from one build to the next (a solver that assembles a matrix
 * every substep): its working arrays and the result's, grown when too small
 * (growCapacity.ts). A result built in it is views of these arrays, valid until the next build.
 * Fresh memory is not free here: first touching a new page costs about 3 ms a megabyte on
 * these machines, more than the assembly's arithmetic.
 */
export class CsrScratch {
  count = new Int32Array(0)
  next = new Int32Array(0)
  colCount = new Int32Array(0)
  byCol = new Int32Array(0)
  order = new Int32Array(0)
  rowPtr = new Int32Array(0)
  col = new Int32Array(0)
  val = new Float64Array(0)
}

const i32 = (length: number) => new Int32Array(length)

/**
 * The n x cols matrix with entries (rows[t], cols[t]) = vals[t]; duplicates are summed (in
 * triplet order), columns sorted within each row. With `scratch`, the arrays come from it.
 *
 * The triplets are ordered by two stable counting sorts, by column and then by row, so each
 * row's triplets come out by column and, within a column, in triplet order (O(m + n + cols);
 * sorting each row by comparisons cost O(m k) for rows of k triplets: the viscosity's full
 * stress rows hold about 40).
 */
export function csrFromTriplets(n: number, cols: number, rows: ArrayLike<number>, colsOf: ArrayLike<number>, vals: ArrayLike<number>, scratch: CsrScratch | null = null): CsrMatrix {
  const m = rows.length
  const work = scratch ?? new CsrScratch()
  const count = (work.count = reuseOrGrow(work.count, n + 1, i32))
  const next = (work.next = reuseOrGrow(work.next, Math.max(n, cols) + 1, i32))
  const colCount = (work.colCount = reuseOrGrow(work.colCount, cols + 1, i32))
  const byCol = (work.byCol = reuseOrGrow(work.byCol, m, i32))
  const order = (work.order = reuseOrGrow(work.order, m, i32))
  const rowPtr = scratch ? (work.rowPtr = reuseOrGrow(work.rowPtr, n + 1, i32)) : new Int32Array(n + 1)
  const col = (work.col = reuseOrGrow(work.col, m, i32))
  const val = (work.val = reuseOrGrow(work.val, m, (length) => new Float64Array(length)))
  // By column (stable: triplet order within a column).
  colCount.fill(0, 0, cols + 1)
  for (let t = 0; t < m; t++) colCount[colsOf[t] + 1]++
  for (let c = 0; c < cols; c++) colCount[c + 1] += colCount[c]
  next.set(colCount.subarray(0, cols))
  for (let t = 0; t < m; t++) byCol[next[colsOf[t]]++] = t
  // Then by row, stable: each row's triplets by column, equal columns in triplet order.
  count.fill(0, 0, n + 1)
  for (let t = 0; t < m; t++) count[rows[t] + 1]++
  for (let i = 0; i < n; i++) count[i + 1] += count[i]
  next.set(count.subarray(0, n))
  for (let a = 0; a < m; a++) {
    const t = byCol[a]
    order[next[rows[t]]++] = t
  }
  // Merge duplicates into one entry, summed in triplet order.
  rowPtr[0] = 0
  let nnz = 0
  for (let i = 0; i < n; i++) {
    const start = nnz
    for (let a = count[i]; a < count[i + 1]; a++) {
      const t = order[a], c = colsOf[t]
      if (nnz > start && col[nnz - 1] === c) val[nnz - 1] += vals[t]
      else {
        col[nnz] = c
        val[nnz] = vals[t]
        nnz++
      }
    }
    rowPtr[i + 1] = nnz
  }
  if (scratch) return { n, cols, rowPtr: rowPtr.subarray(0, n + 1), col: col.subarray(0, nnz), val: val.subarray(0, nnz) }
  return { n, cols, rowPtr, col: col.slice(0, nnz), val: val.slice(0, nnz) }
}

/** A^T (columns sorted within rows), its arrays from `alloc` when given (e.g. a WebAssembly backend's memory). */
export function transposeCsr(A: CsrMatrix, alloc?: KernelAllocator): CsrMatrix {
  const { n, cols, rowPtr, col, val } = A
  const T = allocCsr(cols, n, rowPtr[n], alloc)
  transposeInto(rowPtr, col, val, n, cols, T.rowPtr, T.col, T.val, new Int32Array(cols))
  return T
}

/**
 * transposeCsr's work on raw arrays (csrKernels.ts runs it as a kernel row): the n x cols matrix
 * (rowPtr, col, val) transposed into (tPtr, tCol, tVal), sized cols + 1 and nnz. next: cols
 * int32 of scratch.
 */
export function transposeInto(rowPtr: Int32Array, col: Int32Array, val: Float64Array, n: number, cols: number, tPtr: Int32Array, tCol: Int32Array, tVal: Float64Array, next: Int32Array): void {
  const nnz = rowPtr[n]
  tPtr.fill(0, 0, cols + 1)
  for (let p = 0; p < nnz; p++) tPtr[col[p] + 1]++
  for (let j = 0; j < cols; j++) tPtr[j + 1] += tPtr[j]
  next.set(tPtr.subarray(0, cols))
  // Rows in increasing order, so each transposed row's columns come out sorted.
  for (let i = 0; i < n; i++) {
    for (let p = rowPtr[i]; p < rowPtr[i + 1]; p++) {
      const q = next[col[p]]++
      tCol[q] = i
      tVal[q] = val[p]
    }
  }
}

/**
 * Column and value arrays for building a CSR matrix's rows in one pass, when the entry count
 * is only known at the end: grown by doubling (a counting pass first cost a third of the AMG
 * setup's products; plain arrays cost more still).
 */
export class GrowingRows {
  col: Int32Array
  val: Float64Array

  constructor(capacity: number) {
    this.col = new Int32Array(Math.max(16, capacity))
    this.val = new Float64Array(this.col.length)
  }

  /** Room for `need` entries in all, keeping the first `keep` (callers re-read col and val). */
  reserve(need: number, keep: number): void {
    if (need <= this.col.length) return
    const cap = Math.max(2 * this.col.length, need)
    const col = new Int32Array(cap)
    col.set(this.col.subarray(0, keep))
    const val = new Float64Array(cap)
    val.set(this.val.subarray(0, keep))
    this.col = col
    this.val = val
  }

  /** The first `end` entries, trimmed copies. */
  finish(end: number): { col: Int32Array; val: Float64Array } {
    return { col: this.col.slice(0, end), val: this.val.slice(0, end) }
  }
}

/**
 * Finishes a row gathered at col[start .. end) whose values wait in acc by column (a
 * prolongation's row summed over a marker): columns sorted, each value written beside its
 * column, exact zeros dropped. Returns the row's new end.
 */
export function finishAccumulatedRow(col: Int32Array, val: Float64Array, acc: Float64Array, start: number, end: number): number {
  sortColumns(col, start, end)
  let w = start
  for (let t = start; t < end; t++) {
    const c = col[t]
    if (acc[c] === 0) continue
    col[w] = c
    val[w++] = acc[c]
  }
  return w
}

/** A_ii: row i's diagonal entries summed in storage order (0 without one). */
export function rowDiagonal(rowPtr: Int32Array, col: Int32Array, val: Float64Array, i: number): number {
  let d = 0
  for (let p = rowPtr[i]; p < rowPtr[i + 1]; p++) if (col[p] === i) d += val[p]
  return d
}

/**
 * For a matrix whose row i was written at rowPtr[i] with lengths[i] entries (an upper bound's
 * offsets, rows shortened by dropped zeros): moves the rows down to follow one another and
 * makes rowPtr their true offsets (the arrays' tail past the last row is left unused).
 */
export function closeRowGaps(P: CsrMatrix, lengths: Int32Array): void {
  const { n, rowPtr, col, val } = P
  let end = 0
  for (let i = 0; i < n; i++) {
    const start = rowPtr[i], len = lengths[i]
    if (start !== end) {
      col.copyWithin(end, start, start + len)
      val.copyWithin(end, start, start + len)
    }
    rowPtr[i] = end
    end += len
  }
  rowPtr[n] = end
}

/**
 * Sorts col[start .. end) increasing, in place: insertion sort for the short rows of AMG
 * products and prolongations (a typed-array sort call per row cost more than the sorting;
 * the result is the same), the built-in numeric sort for long ones.
 */
export function sortColumns(col: Int32Array, start: number, end: number): void {
  if (end - start > 64) {
    col.subarray(start, end).sort()
    return
  }
  insertionSortInt32(col, start, end)
}

/**
 * A B (Gustavson's row-by-row product with a dense accumulator). Entry (i, j) sums
 * A_ik B_kj in the order of A's row i, then B's row k; columns sorted within rows unless
 * `sorted` is false (then in the order they were first reached: same entries, same values).
 */
export function multiplyCsr(A: CsrMatrix, B: CsrMatrix, sorted = true): CsrMatrix {
  if (A.cols !== B.n) throw new Error(`multiplyCsr: ${A.n}x${A.cols} times ${B.n}x${B.cols}`)
  const { rowPtr: aPtr, col: aCol, val: aVal } = A
  const { rowPtr: bPtr, col: bCol, val: bVal } = B
  // One pass: each row's entries are written where the previous row's ended (GrowingRows).
  const rows = new GrowingRows(2 * (nnzOf(A) + nnzOf(B)))
  let col = rows.col
  let val = rows.val
  const mark = new Int32Array(B.cols).fill(-1)
  const acc = new Float64Array(B.cols)
  const rowPtr = new Int32Array(A.n + 1)
  let end = 0
  for (let i = 0; i < A.n; i++) {
    const start = end
    for (let p = aPtr[i]; p < aPtr[i + 1]; p++) {
      const k = aCol[p]
      const a = aVal[p]
      const q1 = bPtr[k + 1]
      // Room for every entry this row of B could add.
      if (end + (q1 - bPtr[k]) > col.length) {
        rows.reserve(end + (q1 - bPtr[k]), end)
        col = rows.col
        val = rows.val
      }
      for (let q = bPtr[k]; q < q1; q++) {
        const j = bCol[q]
        if (mark[j] !== i) {
          mark[j] = i
          acc[j] = a * bVal[q]
          col[end++] = j
        } else acc[j] += a * bVal[q]
      }
    }
    if (sorted) sortColumns(col, start, end)
    for (let t = start; t < end; t++) val[t] = acc[col[t]]
    rowPtr[i + 1] = end
  }
  return { n: A.n, cols: B.cols, rowPtr, ...rows.finish(end) }
}

/**
 * The Galerkin coarse operator R A P with R = P^T (Trottenberg et al. 2001, sec. 2.3.2).
 * A P's rows are left unsorted: a row of P holds a column once, so entry (I, J) of R (A P)
 * sums over R's row I in its (sorted) order whatever order A P's rows keep, and the product's
 * own rows are sorted: the same bits as with A P sorted, without sorting it.
 */
export function galerkin(A: CsrMatrix, P: CsrMatrix, R: CsrMatrix = transposeCsr(P)): CsrMatrix {
  return multiplyCsr(R, multiplyCsr(A, P, false))
}

/** Rows grouped by colour: order[colorStart[c] .. colorStart[c+1]-1] are colour c's rows, increasing. */
export interface RowColoring {
  readonly colors: number
  readonly order: Int32Array
  readonly colorStart: Int32Array
}

/**
 * Greedy colouring of the rows of a structurally symmetric matrix: row i (in increasing
 * order) takes the smallest colour none of its already coloured neighbours has. Rows of one
 * colour do not couple, so Gauss-Seidel relaxes each colour's rows in parallel and in any
 * split, deterministically (a 7-point stencil in lexicographic order gets red-black).
 */
export function colorRows(A: CsrMatrix, alloc?: KernelAllocator): RowColoring {
  const { n, rowPtr, col } = A
  const color = new Int32Array(n)
  const colors = rowColoursInto(rowPtr, col, n, color, new Int32Array(maxRowLength(rowPtr, n) + 1))
  return coloringFrom(color, n, colors, alloc)
}

/** The most entries in a row of the n-row matrix at rowPtr. */
export function maxRowLength(rowPtr: Int32Array, n: number): number {
  let m = 0
  for (let i = 0; i < n; i++) if (rowPtr[i + 1] - rowPtr[i] > m) m = rowPtr[i + 1] - rowPtr[i]
  return m
}

/**
 * colorRows' greedy colours on raw arrays (csrKernels.ts runs it as a kernel row): color[i] for
 * every row; returns the number of colours. taken: scratch of at least the longest row's length
 * plus one int32 (a row's neighbours hold fewer colours than it has entries).
 */
export function rowColoursInto(rowPtr: Int32Array, col: Int32Array, n: number, color: Int32Array, taken: Int32Array): number {
  color.fill(-1, 0, n)
  // taken[c] === i: a neighbour of row i has colour c.
  taken.fill(-1)
  let colors = 0
  for (let i = 0; i < n; i++) {
    for (let p = rowPtr[i]; p < rowPtr[i + 1]; p++) {
      const c = color[col[p]]
      if (c >= 0 && col[p] !== i) taken[c] = i
    }
    let c = 0
    while (taken[c] === i) c++
    color[i] = c
    if (c + 1 > colors) colors = c + 1
  }
  return colors
}

/** The rows grouped by their colours (RowColoring), its arrays from `alloc` when given. */
export function coloringFrom(color: Int32Array, n: number, colors: number, alloc?: KernelAllocator): RowColoring {
  const colorStart = alloc ? alloc.i32(colors + 1) : new Int32Array(colors + 1)
  for (let i = 0; i < n; i++) colorStart[color[i] + 1]++
  for (let c = 0; c < colors; c++) colorStart[c + 1] += colorStart[c]
  const next = colorStart.slice(0, colors)
  const order = alloc ? alloc.i32(n) : new Int32Array(n)
  for (let i = 0; i < n; i++) order[next[color[i]]++] = i
  return { colors, order, colorStart }
}

/**
 * The row starts of A's rows taken in the order `order` (packed row q is row order[q]):
 * outPtr[q + 1] = outPtr[q] + the length of row order[q]; outPtr[0] = 0.
 */
export function packedRowStarts(rowPtr: Int32Array, order: Int32Array, n: number, outPtr: Int32Array): void {
  outPtr[0] = 0
  for (let q = 0; q < n; q++) outPtr[q + 1] = outPtr[q] + (rowPtr[order[q] + 1] - rowPtr[order[q]])
}

/** Packed rows [q0, q1): row order[q]'s entries, in A's storage order, at outPtr[q]. */
export function packRowsInto(rowPtr: Int32Array, col: Int32Array, val: Float64Array, order: Int32Array, outPtr: Int32Array, outCol: Int32Array, outVal: Float64Array, q0: number, q1: number): void {
  for (let q = q0; q < q1; q++) {
    const i = order[q]
    let p = outPtr[q]
    for (let r = rowPtr[i], e = rowPtr[i + 1]; r < e; r++, p++) {
      outCol[p] = col[r]
      outVal[p] = val[r]
    }
  }
}

/**
 * The 7-point Poisson matrix on an nx x ny x nz cell grid with Dirichlet walls: diagonal 6,
 * -1 to each neighbour inside the grid (symmetric positive definite), columns sorted.
 */
export function poisson3d(nx: number, ny: number, nz: number, alloc?: KernelAllocator): CsrMatrix {
  const n = nx * ny * nz
  const plane = nx * ny
  let nnz = 0
  for (let k = 0; k < nz; k++)
    for (let j = 0; j < ny; j++)
      for (let i = 0; i < nx; i++) nnz += 1 + (i > 0 ? 1 : 0) + (i < nx - 1 ? 1 : 0) + (j > 0 ? 1 : 0) + (j < ny - 1 ? 1 : 0) + (k > 0 ? 1 : 0) + (k < nz - 1 ? 1 : 0)
  const A = allocCsr(n, n, nnz, alloc)
  const { rowPtr, col, val } = A
  let p = 0
  for (let k = 0; k < nz; k++)
    for (let j = 0; j < ny; j++)
      for (let i = 0; i < nx; i++) {
        const c = i + nx * (j + ny * k)
        const put = (cc: number, v: number) => {
          col[p] = cc
          val[p++] = v
        }
        if (k > 0) put(c - plane, -1)
        if (j > 0) put(c - nx, -1)
        if (i > 0) put(c - 1, -1)
        put(c, 6)
        if (i < nx - 1) put(c + 1, -1)
        if (j < ny - 1) put(c + nx, -1)
        if (k < nz - 1) put(c + plane, -1)
        rowPtr[c + 1] = p
      }
  return A
}

/**
 * Piecewise-constant aggregation prolongation for an nx x ny x nz cell grid: coarse cell
 * (i>>1, j>>1, k>>1) of a ceil(n/2) grid feeds its (up to) 8 fine cells with weight 1.
 */
export function aggregationProlongation(nx: number, ny: number, nz: number): CsrMatrix {
  const cx = (nx + 1) >> 1
  const cy = (ny + 1) >> 1
  const cz = (nz + 1) >> 1
  const n = nx * ny * nz
  const P: CsrMatrix = { n, cols: cx * cy * cz, rowPtr: new Int32Array(n + 1), col: new Int32Array(n), val: new Float64Array(n).fill(1) }
  for (let k = 0; k < nz; k++)
    for (let j = 0; j < ny; j++)
      for (let i = 0; i < nx; i++) {
        const c = i + nx * (j + ny * k)
        P.col[c] = (i >> 1) + cx * ((j >> 1) + cy * (k >> 1))
        P.rowPtr[c + 1] = c + 1
      }
  return P
}

/**
 * (A + A^T) / 2 when A is structurally symmetric (the same pattern, sorted columns), else A.
 * Without forming A^T: rows are visited in order, so the entries (j, i), i < j, that pair with
 * row i's upper entries (i, j) come in increasing i along row j, and a cursor per row finds
 * each in turn (the pattern is symmetric when every upper entry finds its pair there and every
 * lower entry is someone's pair). Each pair's two sums are the same float (addition commutes),
 * as the transpose's were. inPlace: A's own values take the result (for a matrix the caller
 * owns: at a million unknowns a new array is tens of megabytes of fresh pages, about 3 ms a
 * megabyte here), and A is returned.
 */
export function symmetrised(A: CsrMatrix, inPlace = false): CsrMatrix {
  const { n, rowPtr, col, val: a } = A
  if (inPlace) {
    symmetriseInPlace(rowPtr, col, a, n, new Int32Array(n))
    return A
  }
  if (!symmetricPattern(rowPtr, col, n, new Int32Array(n))) return A
  const val = new Float64Array(nnzOf(A))
  averageMirrored(rowPtr, col, a, val, n, new Int32Array(n))
  return { ...A, val }
}

/**
 * symmetrised(A, true)'s work on raw arrays (csrKernels.ts runs it as a kernel row): 1 when
 * the pattern is symmetric and the values were averaged in place, else 0 (val untouched).
 * next: n int32 of scratch.
 */
export function symmetriseInPlace(rowPtr: Int32Array, col: Int32Array, val: Float64Array, n: number, next: Int32Array): number {
  if (!symmetricPattern(rowPtr, col, n, next)) return 0
  averageMirrored(rowPtr, col, val, val, n, next)
  return 1
}

/**
 * out[p] = out[q] = (a[p] + a[q]) / 2 for each mirrored pair (p in row i, q in row j, j > i),
 * walking a cursor per row (next) as symmetricPattern does. In place (out = a) each pair is
 * read before either of its entries is written: the same values.
 */
function averageMirrored(rowPtr: Int32Array, col: Int32Array, a: Float64Array, out: Float64Array, n: number, next: Int32Array): void {
  next.set(rowPtr.subarray(0, n))
  for (let i = 0; i < n; i++) {
    for (let p = rowPtr[i]; p < rowPtr[i + 1]; p++) {
      const j = col[p]
      if (j < i) continue
      if (j === i) {
        out[p] = 0.5 * (a[p] + a[p])
        continue
      }
      const q = next[j]++
      out[p] = out[q] = 0.5 * (a[p] + a[q])
    }
  }
}

/** Whether the pattern is symmetric (sorted columns), by the cursor walk averageMirrored describes. next: n int32 of scratch. */
function symmetricPattern(rowPtr: Int32Array, col: Int32Array, n: number, next: Int32Array): boolean {
  next.set(rowPtr.subarray(0, n))
  for (let i = 0; i < n; i++) {
    for (let p = rowPtr[i]; p < rowPtr[i + 1]; p++) {
      const j = col[p]
      if (j <= i) continue
      const q = next[j]
      if (q >= rowPtr[j + 1] || col[q] !== i) return false
      next[j] = q + 1
    }
    // Every lower entry of row i was paired (rows below i are done with it).
    const q = next[i]
    if (q < rowPtr[i + 1] && col[q] < i) return false
  }
  return true
}
